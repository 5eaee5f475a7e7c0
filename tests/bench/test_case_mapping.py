"""How bench/_cases.py turns a published row's settings into an `ask` request: a setting read wrongly scores the
rules on a job the source did not run."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

from _cases import to_request

from knowledge import load_knowledge


def _fsdp_row(sharding: str) -> dict[str, Any]:
    return {
        "id": "t", "group": "t", "model": "meta-llama/Llama-2-7b-hf", "task": "lora", "precision": "bf16",
        "seq_len": 2048, "gen_len": None, "batch_size": 4, "num_gpus": 2, "gpu": "RTX 3090",
        "settings": {"framework": "Answer.AI fsdp_qlora train.py", "sharding_strategy": sharding},
        "memory_gb": 22.0, "memory_relation": "peak", "memory_scope": "per_gpu", "kind": "measured",
    }


@pytest.mark.parametrize(("sharding", "stage"), [
    ("full_shard", 3),
    ("shard_grad_op", 2),
    ("ddp (FSDP ShardingStrategy.NO_SHARD, not DistributedDataParallel)", 0),
])
def test_fsdp_sharding_strategy_maps_to_a_zero_stage_even_with_a_gloss(sharding: str, stage: int) -> None:
    assert to_request(_fsdp_row(sharding), load_knowledge())["zero_stage"] == stage
