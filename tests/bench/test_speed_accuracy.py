"""bench/speed_accuracy.py: which engine version a throughput row ran, and what its tokens/s counts."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import speed_accuracy

from knowledge.loader import load_knowledge


def _row(unit: str) -> dict[str, object]:
    return {
        "id": "r", "group": "g", "model": "Qwen/Qwen3-8B", "task": "inference", "precision": "bf16",
        "seq_len": 6144, "gen_len": 2048, "batch_size": 1, "num_gpus": 1, "gpu": "H20 96GB",
        "settings": {"framework": "transformers 4.51.3"},
        "throughput": {"value": 100.0, "unit": unit, "gpu": "1x H20 96GB"},
    }


def test_the_version_comes_from_the_framework_text() -> None:
    assert speed_accuracy.version_of(_row("tokens/s"), "transformers") == {"engine_version": "4.51.3"}
    assert speed_accuracy.version_of({"settings": {"framework": "transformers"}}, "transformers") == {}


def test_prompt_plus_generated_tokens_per_second_is_turned_into_the_calls_generated_rate() -> None:
    kb = load_knowledge()
    plain = speed_accuracy.evaluate_row(_row("tokens/s"), kb)
    whole = speed_accuracy.evaluate_row(_row("prompt + generated tokens/s"), kb)
    assert plain.published == 100.0
    # (6,144 + 2,048) tokens at 100/s is 81.9 s, in which 2,048 were generated: 25 tokens/s.
    assert whole.published == pytest.approx(100.0 * 2048 / (6144 + 2048))
    assert whole.estimate == pytest.approx(plain.estimate)
