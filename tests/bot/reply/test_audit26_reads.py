"""Audit 26: cards split across, instance families compared after the cloud is named, the cheapest box for a
set number of users, and no time for another engine on cards it does not fit."""

from __future__ import annotations

from tests.bot.reply._answers import ask_json


def test_split_across_two_cards_is_one_machine_not_a_comparison() -> None:
    # HIGH 35: "split across an RTX 3090 and an RTX 3060 12GB" had been read as "3090 vs 3060"
    reply = ask_json("Llama 3.3 70B Q4_K_M in llama.cpp split across an RTX 3090 and an RTX 3060 12GB, 8k "
                     "context: how much spills to CPU RAM and what tok/s?")
    assert reply["text"].splitlines()[0].endswith("GeForce RTX 3090 + GeForce RTX 3060 12GB ==")
    assert "the rest in system RAM" in reply["text"]


def test_instance_families_compared_after_the_cloud_run_on_all_the_cards_they_bill() -> None:
    # HIGH 36: "AWS 上用 p4d 還是 p5" dropped p5; compared, the p5 ran on 4 of the 8 H100s it bills
    reply = ask_json("想在 AWS 上用 p4d 還是 p5 做 Llama 3.1 70B 的 LoRA 微調，資料 3 億 token，"
                     "哪個比較划算？各要多久？")
    lines = [line for line in reply["text"].splitlines() if line.startswith("• ")]
    h100 = next(line for line in lines if line.startswith("• H100 SXM5 80GB"))
    a100 = next(line for line in lines if line.startswith("• A100 40GB"))
    assert "— 8× —" in h100 and "— 8× —" in a100
    summary = next(line for line in reply["text"].splitlines() if line.startswith("小結"))
    assert "8× H100 SXM5 80GB 總花費最少" in summary


def test_the_cheapest_box_for_a_set_number_of_users_is_the_smallest_bill() -> None:
    # HIGH 38: a 6.99 USD/h B200 ranked first by money per token over 4 RTX A6000 at 4.36 USD/h, both holding 4
    reply = ask_json("whats teh cheapest lambda box for llama 4 scout fp8 w/ 128k ctx, like 4 users at once")
    fitting = [p for p in reply["picks"] if p["fits"] and p["price_per_hour"]]
    assert fitting[0]["price_per_hour"] == min(p["price_per_hour"] for p in fitting)


def test_no_time_on_the_cards_asked_for_an_engine_that_does_not_fit_them() -> None:
    # LOW-56: "With Unsloth … 136 GiB per card … ≈ 27.1 h on these cards" for 40 GB cards
    text = ask_json("想在 AWS 上用 p4d 做 Llama 3.1 70B 的 LoRA 微調，資料 3 億 token，要多久？")["text"]
    line = next((line for line in text.splitlines() if line.startswith("若用 Unsloth")), "")
    assert "小時（按這些卡）" not in line


def test_formats_compared_show_each_formats_need_and_what_it_holds() -> None:
    # M-34: FP8 and AWQ both read "152 GiB" (vLLM's reservation of 2 H100s) and only FP8's concurrency was given
    reply = ask_json("Llama 3.3 70B FP8 vs AWQ on 2x H100: how many concurrent 8k sequences each, and how much "
                     "faster?")
    rows = {row["format"]: row for row in reply["model_compare"]}
    assert rows["fp8"]["total_gb"] > rows["awq"]["total_gb"] + 20  # 70.6B at 1 byte against ≈ 0.56 bytes
    assert rows["awq"]["max_concurrent_sequences"] > rows["fp8"]["max_concurrent_sequences"] > 0


def test_how_many_of_a_named_card_goes_beyond_sixty_four_when_the_job_needs_it() -> None:
    # HIGH 37: "DeepSeek-V3 全參數微調要多少張 H100" answered with 64 B300s and no H100 count
    reply = ask_json("DeepSeek-V3 全參數微調要多少張 H100？")
    first = reply["picks"][0]
    assert first["gpu"] == "h100-sxm" and first["fits"] and first["count"] > 64
    # 671B parameters at ≈ 16 bytes of weights, gradients and Adam states: ≥ 10.7 TB, over 134 cards of 80 GB
    assert first["count"] * 80 > 671 * 16


def test_a_reranker_beside_an_embedder_is_checked_for_its_own_load() -> None:
    # HIGH 32: one L40S was "enough" for 20 queries/s with 30 passages reranked each, which the reranker alone
    # needs 13 cards for; the embedder beside it encodes the query, not the 30 passages
    for text, marker in (
            ("Qwen3-Embedding-4B and Qwen3-Reranker-4B together on one L40S, 20 queries/s, 30 passages reranked "
             "per query: does it fit and is it fast enough?", "That is memory only"),
            ("想用 Qwen3-Embedding-4B 加 Qwen3-Reranker-4B 做內部知識庫，每秒 20 個查詢、每次重排 30 段，一張 L40S "
             "放得下兩個模型嗎？速度夠嗎？", "這只是顯存夠用")):
        reply = ask_json(text)
        parts = {part["model"]: part for part in reply["stack"]}
        assert parts["qwen3-reranker-4b"]["serving_cards"] > 1
        assert parts["qwen3-embedding-4b"]["serving_cards"] == 1
        assert marker in reply["text"]


def test_busy_users_that_outrun_the_cards_turn_the_verdict_into_memory_only() -> None:
    # M-32: "可以" above the paragraph saying 64 busy users start more requests than 2 H20s prefill
    text = ask_json("Qwen3-32B 用 vLLM FP8 部署在 2 张 H20 上，64 并发，每个请求输入 4k 输出 1k，首字延迟要 2 秒内，"
                    "够吗？")["text"]
    assert "显存放得下" in text and "这只是显存够用" in text and "约束来自显存" not in text


def test_the_price_sources_label_is_translated() -> None:
    # LOW-54: "价格来源：… GPU count and model: cloudpilot-ai/…" in Chinese replies
    text = ask_json("qwen3 235b a22b 用4张a100 80g能跑吗 awq的 并发10 上下文32k 速度大概多少")["text"]
    line = next(line for line in text.splitlines() if line.startswith("价格来源"))
    assert "GPU 数量与型号：" in line and "GPU count and model" not in line


def test_cards_compared_at_a_load_each_show_their_bill_and_the_smaller_one_is_named() -> None:
    # M-33: "每月各要多少钱" priced only the L20 set; the A10 set that carries the same load cost less
    reply = ask_json("阿里云 gn7i（A10）和 gn8is（L20）哪个更适合跑 Qwen2.5-14B 的 API？"
                     "每秒 5 个请求，输入 1k 输出 300，每月各要多少钱？")
    rows = [line for line in reply["text"].splitlines() if line.startswith("• A10") or line.startswith("• L20")]
    assert len(rows) == 2 and all("此负载每小时" in row and "每月" in row for row in rows)
    bills = {p["gpu"]: p["price_per_hour"] for p in reply["picks"] if p["fits"]}
    cheaper = "A10" if bills["a10"] < bills["l20"] else "L20"
    summary = next(line for line in reply["text"].splitlines() if line.startswith("小结"))
    assert f"{cheaper} 承担此负载最便宜" in summary


def test_an_offload_ruled_out_is_not_read_as_one_asked_for() -> None:
    # LOW-59: "does it fit without CPU offload?" had been sized with the optimizer in host RAM
    from bot.understand.parse import parse
    from knowledge.loader import default_knowledge

    kb = default_knowledge()
    assert parse("LoRA Llama 3.1 70B on 4x A100 80GB with torchtune: does it fit without CPU offload?", kb).offload \
        in (None, "none")
    assert parse("全参微调 Qwen2.5-7B，4 张 4090，不开 offload 能跑吗", kb).offload in (None, "none")
    assert parse("Full fine-tune Llama 3 8B on 2x A100 40GB with DeepSpeed ZeRO-3 and CPU offload", kb).offload \
        == "optimizer"


def test_a_hybrid_models_kv_per_token_at_long_context_is_its_full_attention_layers() -> None:
    # LOW-57: Llama 4 Scout's "192 KiB" a token is all 48 layers; past its 8,192-token chunks only 12 layers grow
    text = ask_json("Llama 4 Scout int4 on one H100: longest context that fits?")["text"]
    assert "Each token's KV cache takes 48 KiB per card" in text
