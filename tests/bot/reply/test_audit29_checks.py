"""Checks whose reasons or fixes misled (audit 29): an instance name taken for an unknown model (M-58), a ZeRO-2
job's same-cards fix missing (M-60), an 8B model said not to run on 128 H100s for a tensor-parallel reason
transformers does not have (M-61), FP8 on a T4 said to need compute capability 7.0 (the T4 is 7.5; LOW-117)."""

from __future__ import annotations

from tests.bot.reply._answers import ask_json


def test_instance_names_are_not_an_unknown_model_nor_pretraining_a_lora() -> None:
    text = ask_json("p4d.24xlarge vs p5.48xlarge for training a 13B model on 200B tokens, which is cheaper overall?")[
        "text"]
    assert "I don't know" not in text and "Did you mean" not in text
    assert "say “LoRA”" not in text  # 200B tokens is pre-training


def test_zero2_that_does_not_fit_is_offered_zero3_on_the_same_cards_first() -> None:
    reply = ask_json("Full fine-tune Qwen2.5-7B with DeepSpeed ZeRO-2 on 8x A100 40GB, seq 4096, micro batch 4 — "
                     "will it fit?")
    first = reply["check"]["suggestions"][0]
    assert first["kind"] == "zero3" and first["batch"] == 3 and first["memory_per_gpu_gb"] < 39.5
    assert "ZeRO-3 / FSDP sharding at micro batch 3" in reply["text"]


def test_a_layer_split_over_too_many_cards_is_said_as_such_with_the_fewest() -> None:
    reply = ask_json("Llama-3.1-8B on 128 H100s")
    assert "splits a model by its layers (32 of them)" in reply["text"]
    assert "tensor parallelism" not in reply["text"].split("\n\n")[2]
    assert reply["check"]["suggestions"][0]["count"] == 1


def test_fp8_on_a_t4_names_vllms_own_floor() -> None:
    text = ask_json("Llama-3.1-8B FP8 on a T4 with vLLM")["text"]
    assert "need compute capability 8.0 or newer" in text and "7.0 or newer" not in text


def test_a_rate_of_texts_an_hour_is_the_rate_a_second() -> None:
    reply = ask_json("embed 1M chunks per hour with bge-m3, 300 tokens each, which GPU")
    assert abs(reply["serving"]["targets"]["qps"] - 1e6 / 3600) < 0.5
    assert "busy about 99% of the time" in reply["text"]  # one V100 at 279.6 a second
    # room is the replicas busy under 90% of the time: 277.8 / (0.9 × 279.6) → 2 replicas (audit 32 LOW-173)
    assert "2 replicas keep them under 90%" in reply["text"]


def test_a_request_rate_says_the_prompt_length_it_assumed_sets_the_cards() -> None:
    # audit 29 M-66: 30 req/s of 200 tokens out took 28 A6000s on 3,896-token prompts, said only as "context 4,096
    # (not stated)"; with 500-token prompts it is 5
    text = ask_json("Llama-3.1-8B needs to handle 30 req/s peak, 200 tokens out each")["text"]
    assert "at a request rate the prompt length sets the card count" in text


def test_a_month_of_one_stream_says_its_token_price_is_one_request_at_a_time() -> None:
    # audit 29 M-67: 144 CNY a million at one transformers stream, where the same card at load is ≈ 10
    text = ask_json("How much to serve Llama-3.1-8B on an Alibaba Cloud A10 for a month?")["text"]
    assert "per million output tokens at ≈ 16 tok/s, one request at a time" in text


def test_picks_in_two_currencies_say_they_are_not_weighed_against_each_other() -> None:
    # audit 29 M-56: "合计约 119 CNY" above "合计约 2.81 USD" with no word that the two are not compared
    text = ask_json("用 LoRA 微调 Qwen2.5-7B，数据 2 万条，每条 1000 token，训练 3 个 epoch，A100 要多久？")["text"]
    assert "上面的价格分别以 CNY、USD 计价，未设置汇率" in text


def test_a_card_the_cloud_asked_does_not_rent_is_said_so() -> None:
    # audit 29 M-57: "No public list price known for L4 on Alibaba Cloud" implied Alibaba rents one
    from bot.reply.answer import answer
    from bot.reply.render import render_text
    from bot.understand.followup import follow_up
    from bot.understand.parse import parse
    from knowledge.loader import default_knowledge

    kb = default_knowledge()
    question = parse("Serve Llama-3.1-8B for 20 concurrent users at 8k context, what GPU?", kb)
    for text in ("what about on an L4 instead?", "and on Alibaba?"):
        question = follow_up(question, parse(text, kb), kb)
    text = render_text(answer(question, kb), kb)
    assert "Alibaba Cloud rents no L4" in text and "No public list price known for L4" not in text


def test_a_cny_budget_asked_in_english_is_compared_with_cny_prices() -> None:
    # audit 29 M-59: "not compared: the prices found are in USD", though Alibaba's are in CNY
    text = ask_json("budget 10,000 CNY a month for Qwen2.5-72B serving 50 users, enough?")["text"]
    assert "Over your budget of 10,000 CNY a month" in text and "not compared: the prices found" not in text


def test_a_context_past_the_window_is_said_before_the_yes() -> None:
    # audit 29 M-62: Gemma 2 27B (window 8,192) at 32k was an unqualified "Yes"
    text = ask_json("Gemma 2 27B fp8 on one L40S at 32k context")["text"]
    assert "Gemma 2 27B reads 8,192 tokens natively: 32,768 only with RoPE scaling" in text
    assert "natively" not in ask_json("Gemma 2 27B fp8 on one L40S at 8k context")["text"]


def test_a_sub_second_latency_for_replies_of_no_length_is_the_first_tokens() -> None:
    # audit 29 M-65: "p95 latency under 500 ms" had become 256 tokens in 0.5 s (512 tok/s per user), unmeetable
    reply = ask_json("Llama-3.1-8B with vLLM, p95 latency under 500 ms for 1k prompts, 50 users, which GPU?")
    assert reply["query"]["batch"] == 50 and reply["serving"]["targets"].get("ttft_s") == 0.5
    assert "tokens_per_s_per_user" not in reply["serving"]["targets"] and reply["serving"]["met"]
    assert "read as the time to the first token" in reply["text"]
    whole = ask_json("Llama-3.1-8B, end-to-end latency under 800 ms, 50 users")
    assert "each request within 0.8 s" in whole["text"]


def test_a_traditional_chinese_price_says_its_hong_kong_region() -> None:
    # audit 29 LOW-103: 40.90 CNY/h in Hong Kong against 31.27 on the mainland, with no word of the region chosen
    assert "地域 cn-hongkong (繁體提問預設按阿里雲香港地域計價" in ask_json("阿里雲上 A100 一個月租金多少？")["text"]
    assert "地域 cn-hongkong" not in ask_json("阿里云上 A100 一个月租金多少？")["text"]


def test_a_mac_named_beside_a_card_keeps_its_memory() -> None:
    # audit 29 LOW-118: "M4 Pro Mac mini 64GB" was "its memory not stated"
    text = ask_json("M4 Pro Mac mini 64GB vs RTX 4090 for Qwen2.5-32B Q4, which is faster?")["text"]
    assert "On the Apple M4 Pro Mac with 64 GB" in text and "memory not stated" not in text


def test_nodes_of_a_layer_split_are_not_called_tensor_parallel() -> None:
    # audit 29 LOW-104: 16 H100s with transformers were "tensor parallel in a node, pipeline across nodes"
    first = next(line for line in ask_json("Llama-3.1-8B on 16 H100s")["text"].splitlines() if line.startswith("1."))
    assert "2 nodes × 8 (the layers split across them all" in first and "tensor parallel" not in first


def test_a_deadline_met_across_nodes_says_a_node_gives_room() -> None:
    # audit 29 LOW-113: "one more card gives room" on 16 nodes of 8 (129 cards is no layout anyone rents)
    text = ask_json("how many A100s to train a 13B model on 300B tokens in 2 weeks?")["text"]
    assert "one more card gives room" not in text


def test_nvfp4_below_blackwell_says_it_runs_weight_only() -> None:
    # audit 29 LOW-114: NVFP4 on 4 H100s sized with no word that Hopper has no FP4 maths
    assert "NVFP4 below Blackwell (no FP4 tensor cores) runs weight-only" in ask_json(
        "Can I serve Llama-3.1-70B NVFP4 on 4x H100?")["text"]
    assert "NVFP4 below Blackwell" not in ask_json("NVFP4 Llama 3.1 405B on 8x B200")["text"]


def test_a_mac_is_not_counted_in_cards() -> None:
    # audit 29 LOW-107: "it needs 5.7 GiB per card and 1× Mac 16 GB can give it 10.2 GiB each"
    text = ask_json("llama 3.1 8b gguf q4_k_m on a macbook air m2 16gb tok/s")["text"]
    assert "Yes: it needs 5.7 GiB and the Mac 16 GB can give it 10.2 GiB (" in text
    assert "per card and 2× A10 can give it 22.0 GiB each" in ask_json("Qwen2.5-7B on 2x A10")["text"]


def test_a_concurrency_of_none_at_the_length_asked_is_no_tight_fit() -> None:
    # audit 30 LOW-127: "很紧 92.3 of 91.9 GiB" beside "只能容纳 0 条 131,072 token 的序列"
    text = ask_json("DeepSeek-V3 用 8 张 H20 部署 fp8，128k 上下文，能支持几个并发？")["text"]
    assert "不行：每卡需要" in text and "很紧" not in text and "只能容纳 0 条" in text


def test_bf16_asked_on_volta_is_said_before_the_verdict() -> None:
    # audit 30 LOW-130: "Yes … bf16" with the fp16 substitution only under Assumed
    text = ask_json("bf16 training of Llama-3.1-8B LoRA on a V100 32GB?")["text"]
    notice, verdict = text.index("has no bf16"), text.index("Yes: it needs")
    assert notice < verdict and "The figures below are for fp16" in text
    assert "has no bf16" not in ask_json("bf16 LoRA of Llama-3.1-8B on an A100 40GB")["text"]


def test_a_fine_tune_with_no_length_is_first_offered_2k_samples() -> None:
    # audit 30 LOW-133: QLoRA of an 8B on a Colab T4 led with ZeRO-3 offload; the usual 2k recipe fits
    reply = ask_json("Can I fine-tune Llama-3.1-8B with QLoRA on a free Colab T4?")
    first = reply["check"]["suggestions"][0]
    assert first["kind"] == "shorter-context" and first["context"] == 2048


def test_zero2_that_does_not_fit_even_sharded_is_offered_zero3_with_8bit_moments_on_its_own_cards() -> None:
    # audit 33 M-109: ZeRO-2 full fine-tune of Qwen2.5-32B on 8× H100 (197 GiB a card) got LoRA, offload and 8× B300;
    # ZeRO-3 alone is 81 GiB (tight, over the 79.5 limit), with 8-bit AdamW's 2 bytes of moments a parameter instead
    # of 8 it is 6 B × 32.8e9 / 8 ≈ 23 GiB less: ≈ 58 GiB, on the cards asked about
    reply = ask_json("全参微调 Qwen2.5-32B，DeepSpeed ZeRO-2，8 卡 H100 显存够吗")
    first = reply["check"]["suggestions"][0]
    assert (first["kind"], first["optimizer"], first["count"]) == ("zero3", "adamw-8bit", 8)
    assert 50 < first["memory_per_gpu_gb"] < 65
    assert "DeepSpeed ZeRO-3 / FSDP 分片并配合 8-bit AdamW" in reply["text"]
