"""More users than the most replicas planned hold: each replica runs full, the line says how many are held, and the
memory block is one full replica's, not a share that holds no one (audit 22 M-4 and the audit 21 M-6 residue)."""

from __future__ import annotations

from bot.reply.answer import answer
from bot.reply.render import render_text
from bot.understand.parse import parse
from knowledge.loader import default_knowledge
from tests.bot.reply._answers import ask_json

KB = default_knowledge()


def test_a_pick_at_the_replica_cap_says_how_many_users_it_holds() -> None:
    result = answer(parse("Llama 3.1 8B for 2 million concurrent users at 8k context each: how many H100s, and how "
                          "much memory in total?", KB), KB)
    short = [p for p in result.picks if p.replicas and (p.max_concurrent_sequences or 0) < 2_000_000]
    assert short and all(p.fits for p in short)  # a full replica holds its share; the line says the rest wait
    text = render_text(result, KB)
    assert f"only {short[0].max_concurrent_sequences:,} of the 2,000,000 users at once" in text
    top = result.picks[0]
    assert top.replicas and result.estimate is not None
    assert f"(all {top.replicas:,} replicas: ≈ {result.estimate.total_gb * top.replicas:,.0f} GiB)" in text


def test_the_memory_block_at_the_cap_is_one_full_replica() -> None:
    # it was 4,096 sequences' KV (163,976 GiB) and "decode ≈ 0.1 tok/s", a replica that holds no one
    result = answer(parse("Serve Llama 3.3 70B to 1 million concurrent users at 128k context each: how many B200s?",
                          KB), KB)
    top = result.picks[0]
    assert top.replicas == 4096 and top.fits
    assert result.estimate is not None and result.estimate.per_gpu_gb < 180
    assert (result.speed["decode_tokens_per_s"] or 0) > 10


def test_a_replica_across_nodes_names_the_engines_own_setting() -> None:
    # audit 22 LOW-6: an SGLang user was told "vLLM --pipeline-parallel-size"
    text = render_text(answer(parse("SGLang DeepSeek-V3.1 on 8x H200, 64 concurrent at 32k context: enough KV cache? "
                                    "tok/s per user?", KB), KB), KB)
    assert "replicas of 2 nodes each" in text and "vLLM --pipeline-parallel-size" not in text
    assert "the engine's pipeline-parallel size" in text


def test_a_rate_whose_compute_needs_more_replicas_than_planned_is_not_met() -> None:
    # audit 23 LOW-20: 500 requests/s of 30k-token prompts needed ≈ 4,800 replicas' prefill; the plan stopped at
    # 4,096 and said met
    reply = ask_json("Llama 3.1 8B at 500 requests per second with a 30k prompt each and 1 output token, on ONE RTX "
                     "4060 8GB. that works right?")
    plan = reply["serving"]
    assert plan["met"] is False and plan["binding"] == "compute_cap"
    assert plan["targets"]["compute_replicas"] > plan["replicas"] == plan["targets"]["replica_cap"]
    assert f"about {plan['targets']['compute_replicas']:,.0f} replicas" in reply["text"]


def test_more_cards_than_a_model_has_layers_for_are_bounded_and_said() -> None:
    # audit 23 M-24: "DeepSeek-R1 671B on 10,000 RTX 3060s?" said Yes at 0.1 GiB of weights a card, 1,250 pipeline
    # stages of a 61-layer model. One copy spans at most a node's 8 cards per layer: 8 × 61 = 488
    reply = ask_json("Can I run DeepSeek-R1 671B on 10,000 RTX 3060s?")
    assert reply["query"]["gpu_count"] == 8 * 61
    assert "Some numbers were out of range" in reply["text"] and "488× GeForce RTX 3060" in reply["text"]
    assert ask_json("8 张 H100 跑 DeepSeek-R1")["query"]["gpu_count"] == 8  # within the bound: as stated
