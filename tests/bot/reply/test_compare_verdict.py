"""A comparison ends with which set-up to pick: the faster when clearly so, the cheaper, the roomier."""

from __future__ import annotations

import pytest

from tests.bot.reply._answers import ask_json


def test_a_comparison_names_the_faster_the_cheaper_and_the_roomier() -> None:
    reply = ask_json("H100 vs A100 for Llama 3 8B inference")
    by_gpu = {p["gpu"]: p for p in reply["picks"]}
    h100, a100 = by_gpu["h100-sxm"], by_gpu["a100-80gb"]
    ratio = h100["decode_tokens_per_s"] / a100["decode_tokens_per_s"]
    assert ratio > 1.15
    line = next(line for line in reply["text"].splitlines() if line.startswith("In short:"))
    assert f"1× H100 SXM5 80GB is the faster, about {ratio:.1f}× the next" in line
    cheaper = min((h100, a100), key=lambda p: p["work_cost"])
    assert "costs least for the work" in line and f"{cheaper['work_cost']:,.2f}" in line


def test_set_ups_within_the_estimates_error_are_called_about_as_fast_in_chinese_too() -> None:
    reply = ask_json("4090 和 3090 跑 Qwen2.5-14B AWQ 哪个好")  # 1,008 vs 936 GB/s: within the error
    line = next(line for line in reply["text"].splitlines() if line.startswith("小结："))
    assert "速度相近" in line and "；" in line
    assert "余量最大" not in line  # two 24 GB cards leave the same room: no roomiest (audit 34 LOW-191)


def test_when_only_one_holds_the_job_the_verdict_says_so() -> None:
    # 8B in fp16 is 15 GiB of weights: over a T4's 14.5 usable GiB, well inside an A100's
    reply = ask_json("compare 1x T4 vs 1x A100 80GB for Llama 3 8B fp16")
    assert [(p["gpu"], p["fits"]) for p in reply["picks"]] == [("t4", False), ("a100-80gb", True)]
    assert "In short: only 1× A100 80GB holds the job as asked." in reply["text"]


@pytest.mark.parametrize("text", [
    "bge-m3 embeddings for 10M docs of 512 tokens: which is cheaper in total, one L4 or one H100?",
    "bge-m3 给 1000 万条 512 token 的文档做向量，L4 和 H100 哪个总价更便宜？",
])
def test_an_offline_job_compared_gets_each_cards_hours_and_total_and_the_cheapest_total(text: str) -> None:
    # audit 23 M-19: "which one is cheaper in total" was answered with the roomier card and one card's bill; the
    # H100 costs 2.3× the L4 an hour but takes ≈ 5× less time
    answer = ask_json(text)
    picks = {p["gpu"]: p for p in answer["picks"]}
    l4, h100 = picks["l4"], picks["h100-sxm"]
    for pick in (l4, h100):
        assert pick["job_hours"] and pick["job_cost"] == pytest.approx(pick["job_hours"] * pick["price_per_hour"],
                                                                        abs=0.01)
    assert h100["job_hours"] < l4["job_hours"] and h100["job_cost"] < l4["job_cost"]
    verdict = next(line for line in answer["text"].splitlines() if line.startswith(("In short", "小结")))
    assert "H100" in verdict.split(";")[0].split("；")[0] and f"{h100['job_cost']:,.2f}" in verdict


def test_cards_compared_under_transformers_also_give_the_serving_engines_gap() -> None:
    # audit 29 LOW-110: 5090 vs 4090 "about 1.3×" under transformers; the bandwidth ratio is 1.78×
    from tests.bot.reply._answers import ask_json

    reply = ask_json("RTX 5090 vs RTX 4090 for Llama-3.1-8B inference tokens/s")
    served = reply["compare_serving_speeds"]
    assert served["rtx-5090"] > 1.4 * served["rtx-4090"]
    assert "with vLLM, where the card's bandwidth shows" in reply["text"]
    assert ask_json("RTX 5090 vs RTX 4090 for Llama-3.1-8B with vLLM")["compare_serving_speeds"] == {}


def test_when_no_card_compared_holds_the_job_the_one_with_the_lighter_change_is_named() -> None:
    # audit 32 M-106: "A100 40GB or L40S … Qwen2.5-14B at 32 × 4k" ended "none of these holds the job" and picked
    # neither. Weights 27.4 GiB + KV 192 KiB × 4,096 × 32 = 24 GiB fit neither card; on the L40S the engine's own
    # FP8 (FP8 tensor cores, no checkpoint needed) holds it, the A100 40GB needs 4-bit AWQ: the L40S gives up less.
    answer = ask_json("Is an A100 40GB or an L40S better for serving Qwen2.5-14B-Instruct at 32 concurrent requests "
                      "with 4k context?")
    fixes = {p["gpu"]: p["fix"] for p in answer["picks"] if p.get("fix")}
    assert fixes["l40s"]["precision"] == "fp8" and fixes["a100-40gb"]["precision"] == "int4"
    assert ("In short: none of these holds the job as asked; 1× L40S needs the lighter change to hold it "
            "(quantise to FP8 (--quantization fp8))") in answer["text"]
