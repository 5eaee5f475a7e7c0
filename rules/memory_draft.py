"""Speculative decoding's draft model: a second, small model on the same cards that proposes tokens the target
checks (vLLM `speculative_config` with a draft model, SGLang `--speculative-draft-model-path`, llama.cpp
`--model-draft`).

The draft holds its own weights and its own KV cache for every sequence the target serves, at the same context:
both are counted here, the weights at 16 bits (draft checkpoints are served unquantised) and the cache at 16 bits,
beside the target's. They are spread over the cards like the target's weights, which is what an engine does that
shards the draft with the target; one that keeps the draft whole on each card needs a little more. The speed-up
depends on how many proposed tokens the target accepts, which varies with the text: rules.speculative gives it
for a given acceptance rate.
"""

from __future__ import annotations

from rules.memory_common import kv_cache_bytes
from rules.precision import weight_bytes
from rules.types import Workload

DRAFT_BYTES_16BIT = 2.0


def draft_bytes(w: Workload, notes: list[str], chosen: dict[str, object]) -> float:
    """Bytes of the draft's weights and KV cache (0 without a draft), noted and recorded in `chosen`."""
    draft = w.draft_model
    if draft is None or w.task != "inference":
        return 0.0
    precision = w.precision if w.precision in ("bf16", "fp16") else "bf16"
    weights, _ = weight_bytes(draft, precision, None)
    cache, _ = kv_cache_bytes(draft, w.context, w.batch, DRAFT_BYTES_16BIT)
    notes.append("speculative-draft")
    chosen["draft_model"] = draft.id
    chosen["draft_gib"] = round((weights + cache) / 2**30, 2)
    return weights + cache
