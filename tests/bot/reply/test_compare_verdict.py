"""A comparison ends with which set-up to pick: the faster when clearly so, the cheaper, the roomier."""

from __future__ import annotations

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
    assert "速度相近" in line and "余量最大" in line and "；" in line


def test_when_only_one_holds_the_job_the_verdict_says_so() -> None:
    # 8B in fp16 is 15 GiB of weights: over a T4's 14.5 usable GiB, well inside an A100's
    reply = ask_json("compare 1x T4 vs 1x A100 80GB for Llama 3 8B fp16")
    assert [(p["gpu"], p["fits"]) for p in reply["picks"]] == [("t4", False), ("a100-80gb", True)]
    assert "In short: only 1× A100 80GB holds the job as asked." in reply["text"]
