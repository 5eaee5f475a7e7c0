"""bench/accuracy.py: the case → request mapping, and the accuracy floor the calibration must keep."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

import accuracy  # noqa: E402

from knowledge.loader import load_knowledge  # noqa: E402


@pytest.mark.parametrize(("published", "expected"), [
    ("gptq-int4 base (Qwen-*-Chat-Int4), fp16 compute", {"precision": "int4", "quant": "gptq"}),
    ("awq-int4 (lmdeploy w4a16)", {"precision": "int4", "quant": "awq"}),
    ("nf4 + double quant, bf16 compute", {"precision": "int4", "quant": "nf4-dq"}),
    ("LLM.int8 (8-bit) + GC", {"precision": "int8", "quant": "bnb-int8"}),
    ("bnb-4bit (load_in_4bit, default fp4)", {"precision": "int4", "quant": "fp4"}),
    ("pure bf16", {"precision": "bf16", "pure_16bit": True}),
    ("fp16 mixed (fp32 Adam states)", {"precision": "fp16"}),
    ("bf16/fp16 AMP (fp32 master weights)", {"precision": "bf16"}),
])
def test_precision_mapping(published: str, expected: dict[str, object]) -> None:
    assert accuracy.map_precision({"precision": published}) == expected


def test_request_for_a_qwen_finetune_row() -> None:
    kb = load_knowledge()
    case = {"model": "Qwen/Qwen-7B(-Chat)", "task": "lora", "precision": "bf16", "seq_len": 2048, "gen_len": None,
            "batch_size": 1, "num_gpus": 4, "gpu": "A100-SXM4-80G",
            "settings": {"gradient_checkpointing": True, "lora_r": 64, "deepspeed": "ZeRO-2 in the shipped scripts"}}
    req = accuracy.to_request(case, kb)
    assert req == {"model": "qwen-7b", "task": "lora", "precision": "bf16", "context": 2048, "gpus": 4, "batch": 1,
                   "gpu": "a100-80gb", "zero_stage": 2, "gradient_checkpointing": True, "lora_rank": 64,
                   "engine": "transformers"}


def test_unknown_models_are_skipped_not_guessed() -> None:
    kb = load_knowledge()
    with pytest.raises(accuracy.Skip):
        accuracy.resolve_model({"model": "acme/NotAModel-9000B"}, kb)
    assert accuracy.resolve_model({"model": "generic 14B decoder (LLaMA-Factory table)"}, kb) == {"params_b": 14.0}


@pytest.mark.skipif(not accuracy.DEFAULT_GROUNDTRUTH.exists(), reason="groundtruth not checked out")
def test_calibration_floor_on_measured_cases_with_stated_context() -> None:
    """The measured rows whose context the source states are what the constants were fitted on: keep them at
    median ≤ 10% and p90 ≤ 20% (rules path)."""
    cases = yaml.safe_load(accuracy.DEFAULT_GROUNDTRUTH.read_text(encoding="utf-8"))
    rows = accuracy.evaluate(cases, accuracy.Runner(load_knowledge(), use_ask=False))
    subset = [r for r in rows if accuracy.context_stated(r.case) and r.case.get("kind") == "measured"]
    s = accuracy.summary(subset)
    assert s["error_cases"] >= 150
    assert s["median_abs_error_pct"] <= 10.0
    assert s["p90_abs_error_pct"] <= 20.0
    overall = accuracy.summary(rows)
    assert overall["median_abs_error_pct"] <= 10.0
