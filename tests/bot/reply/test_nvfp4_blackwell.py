"""NVFP4 under TensorRT-LLM needs Blackwell's FP4 tensor cores (audit 28 HIGH 43: DeepSeek-R1-0528 NVFP4 with
TensorRT-LLM was said to fit and run on 8 H200s and 16 RTX A6000s, and both were listed as picks)."""

from __future__ import annotations

from tests.bot.reply._answers import ask_json

ASKED = "DeepSeek-R1-0528 in NVFP4 on {} with TensorRT-LLM, 16 users at 32k context: does it fit?"


def test_hopper_is_told_no_and_offered_the_makers_fp8_release_first() -> None:
    reply = ask_json(ASKED.format("8x H200"))
    assert reply["check"]["fits"] is False
    assert "cannot run NVFP4 weights on H200" in reply["text"]
    first = reply["check"]["suggestions"][0] if reply["check"].get("suggestions") else reply["suggestions"][0]
    assert (first["kind"], first["precision"], first.get("quant")) == ("other-format", "fp8", None)


def test_no_card_below_blackwell_is_recommended_for_it() -> None:
    reply = ask_json(ASKED.format("4x B200"))
    assert reply["check"]["fits"] is True
    assert all(p["gpu"] in ("b200", "b300", "gb200", "gb300", "rtx-pro-6000", "rtx-5090") or not p["fits"]
               for p in reply["picks"])
    assert not any(p["gpu"] in ("h200", "rtx-a6000", "h100-sxm") for p in reply["picks"])


def test_vllm_still_runs_nvfp4_weight_only_on_an_a100() -> None:
    reply = ask_json("Llama 3.3 70B NVFP4 on 2x A100 80GB with vLLM: fits?")
    assert "cannot run NVFP4" not in reply["text"]


def test_better_than_the_fp8_release_on_more_cards_is_compared_per_card() -> None:
    # audit 28 M-48: "… and is that better than the FP8 release on 8x B200?" was not answered
    reply = ask_json("DeepSeek-R1-0528 in NVFP4 (nvidia's FP4 checkpoint) on 4x B200 with TensorRT-LLM, 16 users at "
                     "32k context: does it fit? And is that better than the FP8 release on 8x B200?")
    rows = {r["format"]: r for r in reply["model_compare"]}
    assert (rows["nvfp4"]["count"], rows["fp8"]["count"]) == (4, 8)
    assert rows["nvfp4"]["fits"] and rows["fp8"]["fits"]
    verdict = next(line for line in reply["text"].splitlines() if line.startswith("In short:"))
    assert "NVFP4 holds about 1.8× the sequences a card" in verdict


def test_nvfp4_is_read_back_as_itself_not_as_int4() -> None:
    text = ask_json(ASKED.format("4x B200"))["text"]
    readback = next(line for line in text.splitlines() if line.startswith("I read this as:"))
    assert "· NVFP4 ·" in readback and "int4" not in readback
