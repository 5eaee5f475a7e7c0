"""Serving LoRA adapters on one base model: the GPU slots the engine sets aside for them.

A serving engine does not merge an adapter into the base weights; it keeps each adapter's A and B matrices beside
every linear it may adapt and adds x·A·B to that linear's output per request. How many adapters the card holds is
the engine's setting, not the number the service offers:

* **vLLM** (`--enable-lora`): `LoRAModelManager` (vllm/lora/model_manager.py) wraps every LoRA-able module of the
  model (`get_supported_lora_modules`: the attention and MLP linears; `--lora-target-modules` unset) and calls
  `create_lora_weights(max_loras, …)`, which allocates `lora_a_stacked` (max_loras, 1, max_lora_rank, input) and
  `lora_b_stacked` (max_loras, 1, output, max_lora_rank) in `lora_dtype` ("auto": the model's dtype)
  (vllm/lora/layers/base_linear.py, column_parallel_linear.py). The slots are `--max-loras` (LoRAConfig
  `max_loras: int = 1`) at `--max-lora-rank` (`max_lora_rank: MaxLoRARanks = 16`, one of 1, 8, 16, 32, 64, 128,
  256, 320, 512) whatever the adapters' own ranks (vllm/config/lora.py). The other adapters wait in CPU memory, up
  to `--max-cpu-loras` (None → max_loras), or on disk, and are copied into a free slot when a batch needs them; a
  batch mixes at most max_loras adapters.
* **SGLang**: `LoRAMemoryPool` (python/sglang/srt/lora/mem_pool.py) allocates A and B buffers for
  `--max-loras-per-batch` adapters (server_args.py `max_loras_per_batch: int = 8`; its "LoRA Serving" docs: "can
  affect the amount of GPU memory reserved for multi-LoRA serving … Defaults to be 8") at `--max-lora-rank`
  (inferred from the adapters when unset) on the target modules; the rest wait in CPU memory (`--max-loaded-loras`).
* **LMDeploy** (PyTorch engine, `--adapters`): `add_adapters` (lmdeploy/pytorch/models/patch.py) allocates
  lora_a (Σ ranks, in) and lora_b (Σ ranks, out) on the card for every adapter named at start-up: no CPU tier.
* Other engines (transformers + PEFT `load_adapter`, llama.cpp `--lora`, TensorRT-LLM) are sized the same way
  with every adapter on the card: none of them documents a smaller GPU slot count that the rules could cite.

Slots follow the engine's allocation, not min(adapters, default): vLLM and SGLang allocate their slot count at
start-up however many adapters exist, so 3 adapters on SGLang still take 8 slots. A question that says every
adapter is active at once has its adapter count read as the slot setting (bot/understand/slots/lora_serving.py).

Per slot, each adapted linear d_in → d_out holds rank·(d_in + d_out) values (rules/memory_adapters.adapter_params,
every linear: vLLM wraps them all). Under tensor parallelism each card holds A whole and B's shard for a
column-parallel linear (q, k, v, gate, up), A's shard and B whole for a row-parallel one (o, down)
(`slice_lora_a` / `slice_lora_b`, fully_sharded_loras False); pipeline stages divide the layers. Embedding and
lm_head slots, where a model's LoRA support has them, add about (vocab + hidden)·rank values per slot (8 MB for
Llama 3 at rank 16, a tenth of its linears'): not counted.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from knowledge.engines import EngineProfile
from rules import constants as C
from rules.memory_adapters import ALL_LINEAR, adapter_params, linear_shapes
from rules.memory_common import head_dim, num_layers
from rules.types import Workload


@dataclass(frozen=True)
class SlotRule:
    """How an engine holds served adapters: `default_slots` GPU slots unless its `flag` says otherwise (None:
    every adapter is on the card), and the ranks its slots may take (None: the adapters' own)."""

    default_slots: int | None
    flag: str | None
    ranks: tuple[int, ...] | None = None


VLLM_MAX_LORA_RANKS = (1, 8, 16, 32, 64, 128, 256, 320, 512)
"""vllm/config/lora.py `MaxLoRARanks = Literal[1, 8, 16, 32, 64, 128, 256, 320, 512]`: --max-lora-rank takes one
of these, so a rank-24 adapter needs (and every slot is sized at) 32."""
VLLM_DEFAULT_MAX_LORA_RANK = 16
"""vllm/config/lora.py `max_lora_rank: MaxLoRARanks = 16`."""
SLOT_RULES: dict[str, SlotRule] = {
    "vllm": SlotRule(default_slots=1, flag="--max-loras", ranks=VLLM_MAX_LORA_RANKS),
    "sglang": SlotRule(default_slots=8, flag="--max-loras-per-batch"),
}
"""vLLM: vllm/config/lora.py `max_loras: int = Field(default=1, ge=1)`. SGLang: python/sglang/srt/server_args.py
`max_loras_per_batch: int = 8` (docs "LoRA Serving"). Every other engine: each adapter on the card (LMDeploy's
`add_adapters`; transformers + PEFT keeps every loaded adapter on the model's device)."""
ALL_ON_CARD = SlotRule(default_slots=None, flag=None)
SLOT_BYTES_16BIT = 2.0
"""vLLM `lora_dtype` "auto" = the model's dtype (bf16/fp16 even under a quantised base: the activation dtype),
SGLang the same: 2 bytes a value; 4 for an fp32 model."""
COLUMN_PARALLEL = ("q", "k", "v", "gate", "up")
"""Linears whose output tensor parallelism splits (vLLM QKVParallelLinear, MergedColumnParallelLinear): B is
sharded, A whole on every card."""


def slot_rule(engine: str) -> SlotRule:
    return SLOT_RULES.get(engine, ALL_ON_CARD)


def serves_adapters(w: Workload) -> bool:
    """Whether the job serves LoRA adapters: an inference job with adapters counted or a slot setting stated."""
    return w.task == "inference" and bool(w.lora_adapters or w.max_loras)


def gpu_slots(engine: str, adapters: int | None, max_loras: int | None) -> int:
    """Adapters the card holds at once: the stated slot setting, else the engine's default, else every adapter."""
    if max_loras:
        return max_loras
    rule = slot_rule(engine)
    return rule.default_slots if rule.default_slots is not None else max(1, adapters or 1)


def slot_rank(engine: str, rank: int) -> int:
    """The rank each slot is allocated at: vLLM's smallest allowed --max-lora-rank ≥ the adapters' rank (the
    largest it takes when none is), other engines the adapters' own rank."""
    ranks = slot_rule(engine).ranks
    if not ranks:
        return rank
    return next((r for r in ranks if r >= rank), ranks[-1])


def slot_params_per_card(w: Workload, tp: int) -> float:
    """Values one slot holds on one card of `tp` tensor-parallel ranks, over every LoRA-able linear of every
    layer: LoRA's r·(d_in + d_out) (adapter_params) on one card, the sharded halves divided across ranks."""
    every_linear = replace(w, lora_targets=ALL_LINEAR, trainable_params=None, peft_method="lora")
    if tp <= 1:
        return adapter_params(every_linear)
    model = w.model
    smallest_kv = head_dim(model)  # a KV head is replicated, never split, when tp exceeds the KV heads
    per_layer = 0.0
    for name, (d_in, d_out, copies) in linear_shapes(model).items():
        if name in COLUMN_PARALLEL:
            out = max(d_out / tp, smallest_kv) if name in ("k", "v") else d_out / tp
            per_layer += (d_in + out) * copies
        else:
            per_layer += (d_in / tp + d_out) * copies
    return every_linear.lora_rank * per_layer * num_layers(model)


def lora_slot_bytes(w: Workload, n: int, tensor_parallel: bool, profile: EngineProfile, notes: list[str],
                    chosen: dict[str, object]) -> float:
    """Bytes the served adapters add to the model's weights over its `n` cards (each card's share: its slots),
    0 unless the job serves adapters. Says what it sized in `notes` and `chosen`."""
    if not serves_adapters(w):
        return 0.0
    engine = profile.id
    slots = gpu_slots(engine, w.lora_adapters, w.max_loras)
    rank = slot_rank(engine, w.lora_rank)
    per_value = 4.0 if w.precision == "fp32" else SLOT_BYTES_16BIT
    all_slots = slots * per_value  # bytes per value of one slot, times the slots
    if not tensor_parallel:
        # A layer split keeps each layer's slots with the layer: the whole divides over the cards as they do.
        total = all_slots * slot_params_per_card(replace(w, lora_rank=rank), 1)
        per_card = total / n
    else:
        # Tensor parallel inside a node of GPUS_PER_NODE, nodes as pipeline stages (rules.memory_inference).
        tp = min(n, C.GPUS_PER_NODE)
        stages = max(1, n // tp)
        per_card = all_slots * slot_params_per_card(replace(w, lora_rank=rank), tp) / stages
        total = per_card * n
    chosen.update(lora_adapters=w.lora_adapters, lora_gpu_slots=slots, lora_slot_rank=rank,
                  lora_slots_gib=round(per_card / C.GIB, 3))
    notes.append(f"{engine}-lora-slots" if engine in SLOT_RULES else "lora-adapters-on-card")
    return total
