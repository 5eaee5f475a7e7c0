"""rules.alternatives: the quantised formats offered are ones the card runs (audit 38 M-150)."""

from __future__ import annotations

from knowledge.loader import default_knowledge
from rules.alternatives import suggestions
from rules.types import Workload

KB = default_knowledge()


def test_a_volta_card_is_offered_gptq_at_four_bits_where_awq_does_not_run() -> None:
    # Phi-4 (14.7B) in bf16 needs ≈ 27 GiB of weights: no V100 16GB holds it; 4-bit GPTQ (≈ 0.56 byte a
    # parameter, 16-bit embeddings) does, and AWQ's kernels need Turing (sm75) or newer
    work = Workload(model=KB.model("phi-4"), precision="fp16")
    v100 = KB.gpus["v100-16gb"]
    found = [(s.kind, s.quant, s.count) for s in suggestions(work, v100, 1, list(KB.gpus.values()))]
    assert ("quantise", "gptq", None) in found and ("quantise", "awq", None) not in found
    on_t4 = [(s.kind, s.quant) for s in suggestions(work, KB.gpus["t4"], 1, list(KB.gpus.values()))]
    assert ("quantise", "awq") in on_t4 and ("quantise", "gptq") not in on_t4  # AWQ first where it runs
