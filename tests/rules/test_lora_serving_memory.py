"""Served LoRA adapters (rules.memory_lora_serving): the engine's GPU slots, worked out by hand for Llama 3.1 8B.

Llama 3.1 8B: hidden 4096, 32 query heads and 8 KV heads of 128 (q 4096 out, k/v 1024 out), intermediate 14336,
32 layers. One slot at rank 16 over q, k, v, o, gate, up, down holds per layer
    16 × ((4096+4096) + (4096+1024)×2 + (4096+4096) + (4096+14336)×2 + (14336+4096))
  = 16 × (8192 + 10240 + 8192 + 36864 + 18432) = 16 × 81920 = 1,310,720 values,
so 32 layers hold 41,943,040 values = 83,886,080 bytes in bf16 = 80 MiB = 0.078125 GiB a slot.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from knowledge.engines import load_engine_profiles
from knowledge.loader import load_knowledge
from rules import Workload, estimate_memory
from rules import constants as C
from rules.memory_adapters import adapter_params
from rules.memory_lora_serving import gpu_slots, lora_slot_bytes, serves_adapters, slot_params_per_card, slot_rank

PER_LAYER_RANK16 = 16 * ((4096 + 4096) + (4096 + 1024) * 2 + (4096 + 4096) + (4096 + 14336) * 2 + (14336 + 4096))
SLOT_VALUES = PER_LAYER_RANK16 * 32  # 41,943,040
SLOT_BYTES = SLOT_VALUES * 2  # 83,886,080 bytes = 0.078125 GiB


@pytest.fixture(scope="module")
def llama() -> Workload:
    kb = load_knowledge()
    return Workload(model=kb.models["llama-3.1-8b"], engine="vllm", lora_adapters=50)


def _slots(w: Workload, n: int = 1, tensor_parallel: bool = True) -> tuple[float, list[str], dict[str, object]]:
    notes: list[str] = []
    chosen: dict[str, object] = {}
    profile = load_engine_profiles()[w.engine]
    return lora_slot_bytes(w, n, tensor_parallel, profile, notes, chosen), notes, chosen


def test_hand_computed_slot_matches_adapter_params(llama: Workload) -> None:
    assert PER_LAYER_RANK16 == 1_310_720
    assert SLOT_VALUES == 41_943_040
    assert slot_params_per_card(llama, 1) == SLOT_VALUES
    assert adapter_params(llama) == SLOT_VALUES  # the LoRA count the training rules use, every linear
    assert SLOT_BYTES == 80 * 2**20  # 0.078125 GiB


def test_vllm_default_is_one_slot_at_rank_16(llama: Workload) -> None:
    # vllm/config/lora.py: max_loras 1, max_lora_rank 16 — 50 adapters still take one GPU slot
    added, notes, chosen = _slots(llama)
    assert added == SLOT_BYTES
    assert notes == ["vllm-lora-slots"]
    assert chosen["lora_gpu_slots"] == 1 and chosen["lora_slot_rank"] == 16 and chosen["lora_adapters"] == 50
    assert chosen["lora_slots_gib"] == pytest.approx(0.078, abs=1e-3)


def test_stated_max_loras_and_rank_scale_the_slots(llama: Workload) -> None:
    added, _, _ = _slots(replace(llama, max_loras=8, lora_rank=64))
    assert added == 8 * 4 * SLOT_BYTES  # 8 slots × rank 64 (4 × 16): 2.5 GiB
    assert added / C.GIB == pytest.approx(2.5)


def test_vllm_rounds_a_rank_up_to_an_allowed_max_lora_rank(llama: Workload) -> None:
    assert slot_rank("vllm", 24) == 32  # MaxLoRARanks: 1, 8, 16, 32, …
    assert slot_rank("vllm", 16) == 16
    assert slot_rank("sglang", 24) == 24  # inferred from the adapters
    added, _, chosen = _slots(replace(llama, lora_rank=24))
    assert chosen["lora_slot_rank"] == 32 and added == 2 * SLOT_BYTES


def test_sglang_allocates_its_default_8_slots_whatever_the_count(llama: Workload) -> None:
    assert gpu_slots("sglang", 3, None) == 8  # server_args max_loras_per_batch = 8, allocated at start-up
    added, notes, _ = _slots(replace(llama, engine="sglang", lora_adapters=3))
    assert added == 8 * SLOT_BYTES and notes == ["sglang-lora-slots"]


def test_engines_without_slots_hold_every_adapter(llama: Workload) -> None:
    assert gpu_slots("lmdeploy", 5, None) == 5
    added, notes, _ = _slots(replace(llama, engine="lmdeploy", lora_adapters=5))
    assert added == 5 * SLOT_BYTES and notes == ["lora-adapters-on-card"]


def test_tensor_parallel_shards_half_of_each_pair(llama: Workload) -> None:
    # tp 2: column-parallel A whole, B halved (q 4096+2048, k/v 4096+512, gate/up 4096+7168);
    # row-parallel A halved, B whole (o 2048+4096, down 7168+4096)
    per_layer = 16 * ((4096 + 2048) + (4096 + 512) * 2 + (2048 + 4096) + (4096 + 7168) * 2 + (7168 + 4096))
    assert per_layer == 16 * 55296
    assert slot_params_per_card(llama, 2) == per_layer * 32
    added, _, chosen = _slots(llama, n=2)
    assert added == 2 * per_layer * 32 * 2  # both cards' slots, each card its share
    assert chosen["lora_slots_gib"] == pytest.approx(per_layer * 32 * 2 / C.GIB, abs=1e-3)


def test_training_and_plain_inference_add_nothing(llama: Workload) -> None:
    assert not serves_adapters(replace(llama, task="lora"))
    assert not serves_adapters(replace(llama, lora_adapters=None))
    assert _slots(replace(llama, task="lora"))[0] == 0.0


def test_the_estimate_counts_the_slot_with_the_weights(llama: Workload) -> None:
    kb = load_knowledge()
    card = kb.gpus["a10g"]
    plain = estimate_memory(replace(llama, lora_adapters=None), 1, card)
    served = estimate_memory(llama, 1, card)
    assert served.breakdown["weights"] - plain.breakdown["weights"] == pytest.approx(0.078125, abs=2e-4)
    assert served.breakdown["gradients"] == served.breakdown["optimizer"] == 0.0
    assert "vllm-lora-slots" in served.notes
    assert served.required_per_gpu_gib is not None and plain.required_per_gpu_gib is not None
    assert served.required_per_gpu_gib - plain.required_per_gpu_gib == pytest.approx(0.078, abs=1e-3)
