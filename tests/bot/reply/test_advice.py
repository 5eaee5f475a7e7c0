"""The decision layer: defaults, picks and verdicts an engineer would sign (issue: advice)."""

from __future__ import annotations

import pytest

from tests.bot.reply._answers import KB
from tests.bot.reply._answers import ask_json as _ask


def test_the_verdict_compares_with_what_the_engine_can_use() -> None:
    # 8.0B bf16 LoRA at 2k: ≈ 22 GiB; an RTX 4090 gives 24 − 0.5 = 23.5 GiB: fits (snug), never "No".
    answer = _ask("LoRA Llama-3.1-8B on an RTX 4090 at 2k context")
    check = answer["check"]
    assert check["fits"] is True
    assert check["limit_gb"] == pytest.approx(23.5)
    assert check["memory_per_gpu_gb"] <= check["limit_gb"]
    assert "23.5 GiB" in answer["text"] and "No:" not in answer["text"]


@pytest.mark.parametrize(("text", "precision"), [
    ("DeepSeek-V3 on 8x H200", "fp8"),
    ("gpt-oss-20b on a 16GB card", "mxfp4"),
    ("what GPU for Llama-3.1-8B inference", "bf16"),
])
def test_the_default_precision_is_the_released_one(text: str, precision: str) -> None:
    answer = _ask(text)
    assert answer["query"]["precision"] == precision
    if precision != "bf16":
        assert any(a["field"] == "precision" and a["reason"] == "native-release" for a in answer["assumptions"])


def test_deepseek_v3_in_fp8_fits_eight_h200() -> None:
    # 671e9 × 1 B = 625 GiB / 8 = 78 GiB of weights per card + KV + overhead < 140.5 GiB usable.
    answer = _ask("DeepSeek-V3 on 8x H200")
    assert answer["check"]["fits"] is True
    assert 78 <= answer["check"]["memory_per_gpu_gb"] <= 100


def test_a_pre_ampere_top_pick_runs_fp16() -> None:
    answer = _ask("what GPU for ChatGLM-6B inference")
    top = KB.gpus[answer["picks"][0]["gpu"]]
    assert answer["query"]["precision"] == ("bf16" if top.bf16_tflops else "fp16")
    assert _ask("ChatGLM-6B inference on a T4")["query"]["precision"] == "fp16"


def test_cheapest_considers_quantised_weights_and_says_the_trade_off() -> None:
    answer = _ask("Cheapest way to serve Qwen2.5-32B")
    assert answer["query"]["precision"] in ("int4", "int8")
    assert any(a["reason"] == "budget-quantised" for a in answer["assumptions"])
    assert answer["picks"][0]["count"] == 1
    # Stated precision is respected.
    assert _ask("Cheapest way to serve Qwen2.5-32B in bf16")["query"]["precision"] == "bf16"


def test_small_jobs_get_small_cards() -> None:
    answer = _ask("Fine-tune DistilBERT for sentiment classification, what GPU?")
    small = {g.id for g in KB.gpus.values() if g.memory_gb <= 24}
    assert answer["picks"][0]["gpu"] in small


def test_no_alternative_above_64_cards_and_nodes_are_named() -> None:
    answer = _ask("Full fine-tune Llama-3-70B with ZeRO-3, what hardware?")
    assert all(p["count"] <= 64 for p in answer["picks"])
    assert 16 <= answer["picks"][0]["count"] <= 64
    assert "nodes × 8" in answer["text"]


def test_gradient_checkpointing_only_when_needed() -> None:
    roomy = _ask("LoRA Llama-3.1-8B on one H100 at 2k context")
    assert not any(a["field"] == "gradient_checkpointing" and a["value"] is True for a in roomy["assumptions"])
    tight = _ask("LoRA Llama-3.1-8B on an RTX 4090 at 4k context")
    assert any(a["field"] == "gradient_checkpointing" and a["value"] is True for a in tight["assumptions"])


def test_closed_models_are_explained_not_sized() -> None:
    answer = _ask("can I run GPT-4 on 8x H100")
    assert answer["error"] == "closed-model" and answer["estimate"] is None
    assert "weights are not published" in answer["text"]
    assert _ask("gpt-oss-120b on one H100")["error"] is None  # the open one is sized


def test_an_unknown_sized_name_is_said_to_be_unknown() -> None:
    answer = _ask("what GPU for Zephyrine-13B inference")
    assert answer["query"]["model"] is None and answer["query"]["params_b"] == 13
    assert "I don't know “Zephyrine-13B”" in answer["text"] and "kb import" in answer["text"]


@pytest.mark.parametrize(("text", "name"), [
    ("what GPU for quasar-llm inference", "quasar-llm"),
    ("deploy FooBarLM on H100", "FooBarLM"),
    ("部署MyCorpGPT需要什么卡", "MyCorpGPT"),
    ("embedding model bge-large inference gpu", "bge-large"),
    ("bge-large inference gpu", "bge-large"),
    ("florp-video generation on H100", "florp-video"),  # HunyuanVideo itself: test_unmodelled_models.py
    ("stable diffusion 2.1 on a 3090", "stable diffusion 2.1"),  # not the v1.5 the bare name points to
    ("Quasar-1 on an H100?", "Quasar-1"),  # a name and a card: about the model, not the card's spec sheet
    ("Foo.1-dev on a 4090?", "Foo.1-dev"),
    ("quux-m3 embeddings for 10M documents", "quux-m3"),
])
def test_an_unknown_name_without_a_size_is_named_back_not_guessed(text: str, name: str) -> None:
    answer = _ask(text)
    assert answer["query"]["model"] is None and answer["query"]["params_b"] is None
    assert answer["estimate"] is None
    assert f"“{name}”" in answer["text"]


@pytest.mark.parametrize("text", ["what GPU for inference", "which GPU for serving with vllm",
                                  "what GPU to run a chatbot", "fine-tune my model on 4090",
                                  "self-hosted inference for a chatbot", "real-time inference on a T4",
                                  "multi-gpu training of a model"])
def test_plain_words_after_a_cue_are_not_taken_for_model_names(text: str) -> None:
    assert "I don't know the model" not in _ask(text)["text"]


def test_flags_make_a_generic_text_a_sizing_question() -> None:
    answer = _ask("how much memory", model="qwen2-7b")
    assert answer["intent"] == "recommend" and answer["estimate"] is not None


def test_gptq_at_eight_bits_is_sized_at_eight_bits() -> None:
    # Qwen2.5-7B: ~6.5B body at 1 byte + ~1.1B embeddings at 2 bytes ≈ 8.2 GiB (4-bit would be ≈ 5 GiB).
    answer = _ask("Qwen2.5-7B", precision="int8", quant="gptq")
    assert 7.5 <= answer["estimate"]["breakdown"]["weights"] <= 9.0


def test_at_most_one_faq_and_none_for_plain_inference() -> None:
    assert len(_ask("LoRA Llama 70B on 8x A100")["faq"]) <= 1
    assert _ask("Llama 3.1 70B inference on 2x H100")["faq"] == []


def test_multi_job_message_answers_the_first_and_names_the_rest() -> None:
    text = ("We serve Qwen2.5-14B with vLLM for RAG to 30 users at 8k context. We also want to LoRA fine-tune "
            "Llama-3-8B on our tickets at micro-batch 4.")
    answer = _ask(text)
    assert answer["query"]["model"] == "qwen2.5-14b" and answer["query"]["task"] == "inference"
    assert "ask me about it separately" in answer["text"]
    assert "Llama-3-8B" in answer["understood"]["other_jobs"][0]


def test_the_other_common_engine_is_named_when_it_changes_the_figure() -> None:
    # QLoRA at 16k: PEFT keeps every layer's checkpoint on the card, Unsloth offloads them: far apart.
    answer = _ask("QLoRA Llama-3.1-8B at 16k context on an A10")
    assert answer["other_engine"]["engine"] == "unsloth"
    assert answer["other_engine"]["per_gpu_gb"] < 0.85 * answer["check"]["memory_per_gpu_gb"]
    assert "With Unsloth instead of transformers" in answer["text"]
    assert _ask("QLoRA Llama-3.1-8B at 16k context on an A10 with unsloth")["other_engine"] is None


def test_unsloth_is_not_offered_for_a_model_that_ships_its_own_code() -> None:
    # ChatGLM3 runs as trust_remote_code; Unsloth trains only the architectures it implements.
    answer = _ask("QLoRA ChatGLM3-6B at 16k context on an A10")
    assert answer["other_engine"] is None and "Unsloth" not in answer["text"]
    asked = _ask("QLoRA ChatGLM3-6B at 16k context on an A10 with unsloth")
    assert "engine-lacks-model-code" in asked["estimate"]["notes"]
    assert "trust_remote_code" in asked["text"]


def test_an_unqualified_fine_tune_on_several_cards_also_shows_what_lora_needs() -> None:
    answer = _ask("在阿里云上微调ChatGLM3-6B用什么实例")
    assert answer["query"]["task"] == "train" and answer["picks"][0]["count"] > 1
    lighter = answer["lighter_task"]
    assert lighter["task"] == "lora" and lighter["count"] == 1 and lighter["gpu"] == answer["picks"][0]["gpu"]
    assert lighter["per_gpu_gb"] < answer["picks"][0]["memory_per_gpu_gb"] * 2
    assert "LoRA" in answer["text"]
    # Asked for full training, or on hardware the question fixes: no alternative offered.
    assert _ask("full fine-tune ChatGLM3-6B on Alibaba Cloud")["lighter_task"] is None
    assert _ask("fine-tune ChatGLM3-6B on 8x A10")["lighter_task"] is None


@pytest.mark.parametrize(("text", "card"), [
    ("Llama-3-8B on an RTX 9090?", "RTX 9090"),
    ("tell me about the XYZ9000 GPU", "XYZ9000"),
    ("H300 显卡怎么样", "H300"),
    ("vllm Mixtral 8x7B AWQ on 2x A20G", "A20G"),
    ("Llama-3-8B, 4 concurrent users, vLLM, A20G", "A20G"),  # one item of a list of settings
    ("Qwen3-8B on a Jetson Orin", "Jetson Orin"),
    ("llama 3 8b on a moore threads mtt s80", "moore threads mtt s80"),
    ("gemma 2 9b on TPU v5e", "TPU v5e"),
])
def test_an_unknown_card_is_named_back_not_silently_dropped(text: str, card: str) -> None:
    answer = _ask(text)
    assert answer["query"]["gpu"] is None
    assert f"“{card}”" in answer["text"]


def test_an_unknown_card_with_its_memory_is_sized_as_that_memory_and_said_so() -> None:
    # audit 15 B-M11: "Jetson Orin Nano 8GB" was a generic 8 GB card with no word that the Jetson is unknown
    # and that its memory is shared with the CPU
    answer = _ask("Can Llama 3.2 3B run on a Jetson Orin Nano 8GB?")
    assert answer["query"]["memory_gb"] == 6 and answer["query"]["gpu"] is None
    assert "I don't know the module “Jetson Orin Nano”: its 8 GB is shared with its CPU" in answer["text"]
    assert "the 6 GB left for a model" in answer["text"]


@pytest.mark.parametrize("text", ["Llama-3-8B on an RTX 4090?", "Qwen2.5-7B on a T4", "what GPU for Llama-3-70B",
                                  "Qwen2.5-7B, 32k context, vLLM, 2x L40S", "Llama 3 8B, batch 8, bf16",
                                  "Llama 2 70B on 2x A100 80GB cards", "Qwen2.5-7B推理用什么卡",
                                  "Mixtral 8x22B inference on 4 x T4", "llama 3 8b max 4096 tokens on an A10"])
def test_known_cards_and_plain_questions_raise_no_unknown_card_notice(text: str) -> None:
    assert "I don't know the card" not in _ask(text)["text"] and "我不认识显卡" not in _ask(text)["text"]


def test_capped_numbers_are_said_on_their_own_line_not_as_a_python_list() -> None:
    text = _ask("Llama 3 8B inference batch 99999999")["text"]
    assert "['batch']" not in text
    read_as = next(line for line in text.splitlines() if line.startswith("I read this as"))
    assert "out of range" not in read_as
    assert any(line.startswith("Some numbers were out of range and were set to the nearest value allowed, or left "
                               "out where none applies: batch")
               for line in text.splitlines())


def test_a_card_count_is_read_back_as_cards_and_left_to_the_side_by_side_in_a_comparison() -> None:
    assert "· 4× GPU" in _ask("Llama 3 70B on 4 GPUs")["text"].splitlines()[2]
    compared = _ask("which is cheaper for Qwen2.5-72B int4 serving: 2x A100 40GB or 1x H200")["text"]
    read_as = next(line for line in compared.splitlines() if line.startswith("I read this as"))
    assert "· 2 ·" not in read_as and "2×" not in read_as


@pytest.mark.parametrize(("text", "runtime"), [
    ("serve Llama-3-8B with TGI on an A10", "Text Generation Inference (TGI)"),
    ("run Qwen2.5-14B exl2 4.0bpw on a 3090", "ExLlama"),
    ("Llama-3-8B with mlx-lm, 64GB", "MLX"),
    ("用 text-generation-inference 部署 Qwen2.5-7B", "Text Generation Inference (TGI)"),
    ("用 MindIE 在 4 张昇腾 910B 上部署 Qwen2.5-72B，上下文 16k，10 并发，够吗", "MindIE"),  # audit 23 LOW-7
    ("用 MindSpeed 全参微调 Qwen2.5-7B，8 卡 (昇腾 910B)", "MindSpeed"),  # audit 24 LOW-43
])
def test_a_runtime_without_a_profile_is_named_with_whose_figures_are_given(text: str, runtime: str) -> None:
    answer = _ask(text)
    assert answer["understood"]["unmodelled_engine"] == runtime
    engine = {"transformers": "transformers", "vllm": "vLLM"}[answer["query"]["engine"]]
    assert runtime in answer["text"] and f"{engine}" in answer["text"].split(runtime, 1)[1].split("\n", 1)[0]


@pytest.mark.parametrize("text", ["TGI vs vLLM for Llama-3-8B", "Qwen2.5-7B on ollama", "Llama-3-8B on an A10"])
def test_a_profiled_engine_named_or_none_named_raises_no_runtime_notice(text: str) -> None:
    assert "unmodelled_engine" not in _ask(text)["understood"]


def test_a_machine_of_different_cards_is_checked_card_by_card() -> None:
    answer = _ask("Can I run Qwen2.5-32B Q4 on a 3090 and a 3060 with llama.cpp?")
    assert answer["query"]["gpu_set"] == ["rtx-3090", "rtx-3060-12gb"] and answer["check"]["split"] == "by-memory"
    cards = answer["check"]["cards"]
    assert [c["gpu"] for c in cards] == ["rtx-3090", "rtx-3060-12gb"]
    assert sum(c["layers"] for c in cards) == 64 and cards[0]["layers"] > cards[1]["layers"]  # Qwen2.5-32B: 64
    assert answer["check"]["fits"] and all(c["needed_gb"] <= c["limit_gb"] for c in cards)
    text = answer["text"]
    assert "GeForce RTX 3090 + GeForce RTX 3060 12GB" in text and "splits the layers by each card's free memory" in text
    assert f"• GeForce RTX 3060 12GB: {cards[1]['layers']} layers" in text
    # the set's own decode speed (each card reads its layers in turn), no bill
    assert set(answer["speed"]) == {"decode_tokens_per_s"} and answer["cost"] is None
    assert "Speed (GeForce RTX 3090 + GeForce RTX 3060 12GB): decode" in text


def test_a_tensor_parallel_engine_on_different_cards_is_held_to_the_smallest() -> None:
    answer = _ask("Qwen2.5-32B AWQ with vLLM on 3090 + 3060")
    check = answer["check"]
    assert check["split"] == "equal" and not check["fits"] and check["gpu"] == "rtx-3060-12gb"
    assert len({c["needed_gb"] for c in check["cards"]}) == 1
    assert "the smallest card decides" in answer["text"]


def test_a_set_too_small_for_an_ollama_model_is_offered_layers_in_ram() -> None:
    answer = _ask("Llama-3-70B Q4_K_M ollama on a 3090 and a 3060")
    check = answer["check"]
    assert not check["fits"] and [s["kind"] for s in check["suggestions"]] == ["cpu-layers"]
    assert "on the cards, the rest in system RAM" in answer["text"]


@pytest.mark.parametrize(("text", "context"), [
    ("ollama qwen3:8b on a 3060 12GB", 4096),  # 12 GB: below 23 GiB
    ("ollama run deepseek-r1:32b on a 4090", 32768),  # 24 GB: 23 GiB or more
    ("ollama llama3.1:70b on 2x 3090", 131072),  # 48 GB: 262,144, capped at Llama 3.1's 131,072
    ("ollama llama3:8b on 2x 3090", 8192),  # capped at Llama 3's 8,192
])
def test_ollama_runs_at_its_vram_tier_context_unless_told(text: str, context: int) -> None:
    answer = _ask(text)
    assert answer["query"]["context"] == context
    assert any(a["field"] == "context" and a["reason"] == "ollama-vram-default" for a in answer["assumptions"])


def test_a_stated_context_or_llama_cpp_keeps_its_own() -> None:
    assert _ask("ollama qwen2.5:7b 8k context on a 4090")["query"]["context"] == 8192
    assert _ask("llama.cpp Qwen2.5-7B Q4_K_M on a 4090")["query"]["context"] == 4096


def test_a_free_notebook_is_read_as_the_card_it_assigns_and_said_so() -> None:
    answer = _ask("Llama 3.1 8B QLoRA on Colab free tier")
    assert answer["check"]["gpu"] == "t4" and answer["check"]["count"] == 1
    assert any(a["reason"] == "notebook-colab-free" for a in answer["assumptions"])
    assert "Colab's free tier: one T4 16 GB" in answer["text"]
    kaggle = _ask("can I fine-tune qwen2.5-7b with lora on kaggle?")
    assert (kaggle["check"]["gpu"], kaggle["check"]["count"]) == ("t4", 2)
    assert "GPU T4×2" in kaggle["text"]


def test_unrented_workstation_cards_join_the_picks_only_when_asked_for() -> None:
    from bot.reply.pool import candidate_gpus
    from bot.understand.parse import parse

    kb = KB
    rented = {p.gpu for p in kb.prices.values()}
    pool, _ = candidate_gpus(parse("what GPU for ChatGLM-6B inference", kb), kb)
    workstation = {g.id for g in pool if g.form == "workstation"}
    assert workstation and workstation <= rented  # the RTX A6000 a cloud rents, not an RTX A4000 for a desk
    named, _ = candidate_gpus(parse("mistral 7b on an A5000", kb), kb)
    assert "rtx-a5000" in {g.id for g in named}
    cheap, _ = candidate_gpus(parse("cheapest GPU for Qwen2.5-7B inference", kb), kb)
    assert "rtx-a4000" in {g.id for g in cheap}


def test_a_vllm_job_too_big_for_an_fp8_card_is_offered_vllm_s_own_fp8_first() -> None:
    answer = _ask("Mixtral 8x7B with vllm on a single H100")
    assert answer["check"]["fits"] is False
    first = answer["check"]["suggestions"][0]
    assert (first["kind"], first["precision"], first["quant"]) == ("quantise", "fp8", "fp8")
    assert "quantise to FP8 (--quantization fp8)" in answer["text"]


def test_a_model_that_overflows_fp16_says_so_when_sized_in_fp16() -> None:
    # audit 14 A-L7: Gemma on a card without bf16 was sized in fp16 with no word that it gives NaNs there
    on_t4 = _ask("Gemma 3 12B inference on a T4")
    assert on_t4["query"]["precision"] == "fp16" and "fp16-overflow" in on_t4["estimate"]["notes"]
    assert "activations overflow" in on_t4["text"]
    on_l4 = _ask("Gemma 3 12B inference on an L4")
    assert on_l4["query"]["precision"] == "bf16" and "fp16-overflow" not in on_l4["estimate"]["notes"]
    assert "fp16-overflow" not in _ask("Llama 3.1 8B inference on a T4")["estimate"]["notes"]


def test_a_jetson_named_with_its_memory_is_sized_with_what_its_os_leaves() -> None:
    # audit 16 C-H5: a 32 GB AGX Orin said "可以" to 29.7 GiB; its memory is shared with the CPU and the OS
    answer = _ask("Jetson AGX Orin 32GB 能跑 Qwen2.5-14B bf16 吗？")
    assert answer["query"]["memory_gb"] == 30
    assert answer["check"]["fits"] is False or answer["check"]["tight"] is True
    assert "我不认识模组“Jetson AGX Orin”：它的 32 GB 内存与 CPU 和操作系统共用" in answer["text"]


def test_formats_compared_are_each_sized_on_the_cards_named() -> None:
    # audit 16 C-M1: "AWQ, GPTQ or FP8 — which one fits?" was one sizing labelled "fp8 · gptq" at int4 bytes
    answer = _ask("Llama 3.1 70B on 2x L40S: AWQ, GPTQ or FP8 — which one fits?")
    rows = {r["format"]: r for r in answer["model_compare"]}
    assert list(rows) == ["awq", "gptq", "fp8"]
    assert all(r["gpu"] == "l40s" and r["count"] == 2 for r in rows.values())
    # FP8 holds each weight in a byte, int4 in about half of one (its scales aside)
    assert 1.6 < rows["fp8"]["per_gpu_gb"] / rows["awq"]["per_gpu_gb"] < 2.0
    assert answer["query"]["precision"] == "int4" and answer["query"]["quant"] == "awq"
    assert "Formats side by side" in answer["text"] and "• FP8:" in answer["text"]


def test_a_gguf_type_is_read_back_with_its_own_bits_not_as_int4() -> None:
    # audit 16 C-L10: "int4 · gguf-q2_k" for a 2.6-bit file
    read_as = _ask("DeepSeek-R1 Q2_K on 4x 3090 with --n-cpu-moe 55")["text"].splitlines()[2]
    assert "GGUF Q2_K (~2.6 bits a weight)" in read_as and "int4" not in read_as


def test_a_mac_that_holds_the_model_only_at_a_shorter_context_is_timed_there() -> None:
    # audit 16 C-M4: "tokens per second?" on an M3 Max 64GB got "no speed is given for this Mac" although the
    # reply's own context fix makes it fit; 39.4 GiB of Q4_K_M weights at 400 GB/s is at most ≈ 10 tok/s
    answer = _ask("Llama 3.3 70B q4 in Ollama on a MacBook Pro M3 Max 64GB: tokens per second?")
    assert answer["check"]["fits"] is False
    assert 5 < answer["speed"]["decode_tokens_per_s"] < 10.8
    assert "at a context of 8,192 tokens, the fix above that lets it fit" in answer["text"]


def test_the_other_engine_that_fits_the_card_asked_says_how_long_the_tokens_take_there() -> None:
    # audit 16 C-L8: "how long for 50M tokens" on a 4090 was timed only on other cards, though Unsloth fits it
    answer = _ask("QLoRA Qwen2.5-32B on a single RTX 4090 with 4k sequences: memory, and how long for 50M tokens?")
    hours = answer["other_engine"]["train_hours"]
    assert answer["other_engine"]["engine"] == "unsloth" and 5 < hours < 200
    assert f"With it the tokens asked take ≈ {hours:,.1f} h on these cards." in answer["text"]


@pytest.mark.parametrize("text", ["Can a Tesla P100 16GB run Llama 3.1 8B with vLLM?",
                                  "vllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 8192 on a Tesla P40 24GB: "
                                  "will it run?"])
def test_vllm_on_a_pascal_card_is_a_no_whatever_the_memory(text: str) -> None:
    # audit 17 HIGH 3: vLLM's docs require compute capability 7.0; a P40 got "Yes, 4.8 GiB to spare"
    answer = _ask(text)
    assert answer["check"]["fits"] is False
    assert "vLLM does not run on the Tesla P" in answer["text"]
    assert not any(p["gpu"].startswith(("p100", "p40", "tesla-p")) for p in answer["picks"])


def test_sglang_on_a_card_older_than_ampere_is_a_no_and_never_picked() -> None:
    # audit 32 M-98: "Qwen3-32B with SGLang on 4x V100 32GB" got "Yes" and V100s were picked for SGLang; its
    # kernels are built for compute capability 8.0 and up (knowledge/data/engines.yaml cites the reports)
    answer = _ask("Qwen3-32B with SGLang on 4x V100 32GB, will it work?")
    assert answer["check"]["fits"] is False
    assert ("SGLang does not run on the Tesla V100 32GB: its releases need compute capability 8.0 or newer "
            "(Ampere and later)") in answer["text"]
    picked = _ask("通义千问3 32B 用 sglang 部署要啥卡")["picks"]
    assert picked and not any(p["gpu"].startswith(("v100", "tesla-v100", "t4", "tesla-t4")) for p in picked)


def test_a_format_the_card_cannot_run_names_the_format_s_reason_not_the_engine_floor() -> None:
    # audit 33 HIGH 88: "SGLang cannot run FP8 weights on A100 80GB: its kernels for them need compute capability
    # 8.0 or newer" (the A100 is 8.0): the engine's floor had been given as the format's
    text = _ask("Qwen2.5-32B fp8 with SGLang on one A100 80GB")["text"]
    assert "cannot run FP8 weights with SGLang (no FP8 tensor cores" in text
    assert "need compute capability 8.0 or newer" not in text


def test_every_engine_floor_has_its_architectures_said() -> None:
    from bot.reply.i18n import Translator
    from knowledge.engines import load_engine_profiles

    floors = {p.format_floor.engine_min_capability for p in load_engine_profiles().values()
              if p.format_floor is not None and p.format_floor.engine_min_capability is not None}
    assert floors >= {7.0, 8.0}
    for floor in floors:
        key = f"archs_from_{str(floor).replace('.', '_')}"  # the key verdict.j2 builds from the floor
        assert Translator("en")(key).endswith("and later") and Translator("zh-Hans")(key).endswith("更新的架构")


def test_a_card_suffix_naming_no_card_is_said_and_the_card_known_sized() -> None:
    # audit 17 L-3: "rtx 4090 ti" (never sold) was read as the RTX 4090 without a word
    answer = _ask("quen 2.5 coder 32b q4 on my rtx 4090 ti?")
    assert answer["query"]["gpu"] == "rtx-4090"
    assert "I don't know a “rtx 4090 ti”: sized as the GeForce RTX 4090" in answer["text"]
    assert "There is no" not in _ask("qwen2.5 7b on a 3090 ti")["text"]


@pytest.mark.parametrize(("text", "board", "speed"), [
    # Gemma 3 4B in Q4_K_M reads ≈ 2.8 GB a token; LPDDR4X-4267 on a 32-bit bus is 4,267 × 4 B = 17.1 GB/s
    ("gemma 3 4b on a raspberry pi 5 8gb with ollama, tok/s?", "Raspberry Pi 5", "≈ 6.2 tok/s at the 17.1 GB/s"),
    ("can I run llama 3.1 8b on a raspberry pi 5", "Raspberry Pi 5", "17.1 GB/s"),
])
def test_a_single_board_computer_runs_on_its_cpu_from_its_own_ram(text: str, board: str, speed: str) -> None:
    # audit 24 LOW-41: "a Raspberry Pi 5 8GB" was a GPU with 8 GB "less the CUDA context"
    answer = _ask(text)
    assert answer["query"]["gpu"] is None and answer["check"] is None
    assert f"A {board} has no GPU that llama.cpp, Ollama or the other runtimes use" in answer["text"]
    assert speed in answer["text"] and "CUDA context" not in answer["text"]


def test_an_ascend_card_is_said_to_lose_its_cann_runtimes_context_not_cudas() -> None:
    text = _ask("用 MindIE 在 4 张昇腾 910B 上部署 Qwen2.5-72B，上下文 16k，10 并发，够吗")["text"]
    verdict = next(line for line in text.splitlines() if line.startswith("可以"))
    assert "CANN 运行时上下文" in verdict and "CUDA" not in verdict


def test_the_other_engine_s_time_says_when_it_checkpoints_and_the_stack_above_does_not() -> None:
    # audit 27 LOW-75: Unsloth "≈ 25.3 h" beside transformers "≈ 18.9 h" on the same A100 read as Unsloth being the
    # slower; its figure has gradient checkpointing on, the transformers one off
    answer = _ask("LoRA fine-tuning Llama 3.1 8B on 300M tokens on one A100 80GB: how long?")
    assert answer["other_engine"]["engine"] == "unsloth" and answer["other_engine"]["checkpointing"] is True
    assert "That is with its gradient checkpointing on" in answer["text"]
