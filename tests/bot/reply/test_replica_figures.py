"""What a serving plan's replicas are said to hold and what binds their count: the concurrency of replicas is
per replica and in all (audit 24 LOW-34), and a count the prompts set is not blamed on the KV cache (LOW-33)."""

from __future__ import annotations

from bot.reply.answer import answer
from bot.reply.render import render_text
from bot.understand.parse import parse
from knowledge.loader import default_knowledge

KB = default_knowledge()


def test_replicas_say_what_each_holds_and_what_they_hold_in_all() -> None:
    # 2 replicas of TP2 beside one TP4 at the same price: "18 concurrent sequences fit" read as 18 against 51
    result = answer(parse("Llama 3.1 70B AWQ on 2x L40S with vLLM, 32 users at 8k context: fits?", KB), KB)
    replicated = next(p for p in result.picks if p.replicas and p.max_concurrent_sequences)
    each = replicated.max_concurrent_sequences // replicated.replicas
    line = next(line for line in render_text(result, kb=KB).splitlines() if "replicas ×" in line)
    assert f"{each} concurrent sequences fit each ({each * replicated.replicas} in all)" in line


def test_a_count_the_prefill_sets_is_said_to_be_the_computes() -> None:
    # 5 requests/s of 2,048-token prompts: 10,240 prompt tokens a second against one replica's ≈ 10,000, so two;
    # at the half load each then carries, ≈ 96 sequences are in flight, within one replica's KV cache (127)
    result = answer(parse("TensorRT-LLM 跑 Llama 3.1 70B FP8，4 張 L40S，每秒 5 個請求，輸入 2k 輸出 300，夠嗎？", KB),
                    KB)
    plan = result.serving
    assert plan is not None and plan.replicas == 2 and plan.binding == "compute"
    assert plan.concurrent_needed < plan.sequences_per_replica
    assert "約束來自算力" in render_text(result, kb=KB)


def test_a_per_user_speed_no_replica_reaches_is_not_bought_with_one_replica_per_user() -> None:
    # audit 25 HIGH 27: 64 tokens in 300 ms (213 tok/s a user) for a 32B model: no card gives one user that, so the
    # plan laid out 50 replicas of 4 L40S, one user each (200 cards), that its own line said still missed it; and
    # "15 人在線、每人每 10 秒一次請求" is 1.5 requests/s, not 50 always-busy users
    text = ("Qwen2.5-Coder-32B 給 50 個工程師做程式碼補全，平均同時 15 人在線、每人每 10 秒一次請求，每次 4k 上下文、"
            "輸出 64 token，延遲要 300ms 內，要幾張 L40S？")
    result = answer(parse(text, KB), KB)
    plan = result.serving
    assert result.understood.get("qps") == 1.5 and plan is not None and not plan.met
    assert plan.replicas * plan.gpus_per_replica <= 8 and plan.sequences_per_replica > 1
    assert "即使每副本只服務一個用戶也達不到每用戶速度要求" in render_text(result, kb=KB)


def test_one_replica_with_room_says_nothing_binds() -> None:
    # audit 25 LOW-49: "约束来自显存" for one L20 holding 42 of the 60 sequences its cache could
    text = ("Qwen3-30B-A3B 用 vLLM 0.10 部署在一张 L20 上，FP8，每天 20 万次调用，平均输入 1500 输出 300，"
            "首 token 延迟要求 1 秒内，够不够？阿里云每月多少钱？")
    result = answer(parse(text, KB), KB)
    plan = result.serving
    assert plan is not None and plan.replicas == 1 and plan.concurrent_needed < plan.sequences_per_replica
    rendered = render_text(result, kb=KB)
    assert "一个副本就够" in rendered and "约束来自显存" not in rendered


def test_an_encoder_copied_to_each_card_is_checked_at_a_whole_copy_a_card() -> None:
    # audit 25 LOW-44: "Yes: it needs 5.0 GiB per card" for a 14 GiB embedding model on 4 cards that each run a copy
    result = answer(parse("We need to embed 40 million passages (~300 tokens each) with Qwen3-Embedding-8B on 4x "
                          "L40S. How many hours, and what does that cost on Nebius?", KB), KB)
    assert result.check is not None and result.check.count == 4 and result.estimate is not None
    assert result.check.memory_per_gpu_gb == round(result.estimate.per_gpu_gb, 2) > 14


def test_the_same_cards_at_the_same_price_list_the_layout_holding_more_first() -> None:
    # audit 24 LOW-34: 2 replicas of 2 L40S (36 sequences) were listed above the 4-card set holding 51 at one price
    result = answer(parse("Llama 3.1 70B AWQ on 2x L40S with vLLM, 32 users at 8k context: fits?", KB), KB)
    same = [p for p in result.picks if p.gpu == "l40s" and p.count == 4]
    assert len(same) == 2 and same[0].price_per_hour == same[1].price_per_hour
    assert (same[0].max_concurrent_sequences or 0) > (same[1].max_concurrent_sequences or 0)
    assert result.picks.index(same[0]) < result.picks.index(same[1])


def test_a_layout_renting_for_more_is_not_moved_above_the_cheaper_one() -> None:
    # audit 26 LOW-67: two H100s in tensor parallel (one 2-card machine, 8.38 USD/h) were moved above two
    # one-card replicas of them (4.58 USD/h) for holding more sequences, though both hold the 16 users
    result = answer(parse("Qwen3-32B AWQ on one H100 with vLLM, 16 users at 16k context: fits?", KB), KB)
    pairs = [p for p in result.picks if p.gpu == "h100-sxm" and p.count == 2]
    assert len(pairs) == 2 and pairs[0].price_per_hour is not None and pairs[1].price_per_hour is not None
    assert pairs[0].price_per_hour < pairs[1].price_per_hour
    assert all((p.max_concurrent_sequences or 0) >= 16 for p in pairs)
