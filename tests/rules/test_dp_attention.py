"""Data-parallel attention (SGLang --enable-dp-attention, vLLM --data-parallel-size with expert parallelism): an
MLA model's latent is no longer kept for every request on every card; the attention weights are whole on each."""

from __future__ import annotations

from dataclasses import replace

import pytest

from knowledge.loader import load_knowledge
from rules import Workload, check_fit, estimate_memory
from rules import constants as C
from rules.memory_common import attention_params

KB = load_knowledge()


def test_deepseek_v3_attention_parameters_by_hand() -> None:
    # Per layer: q_a 7168×1536 + q_b 1536×128×192 + kv_a 7168×576 + kv_b 512×128×256 + o 128×128×7168
    # = 11.01M + 37.75M + 4.13M + 16.78M + 117.44M = 187.1M; × 61 layers = 11.41B.
    per_layer = 7168 * 1536 + 1536 * 128 * 192 + 7168 * 576 + 512 * 128 * 256 + 128 * 128 * 7168
    assert attention_params(KB.model("deepseek-r1")) == 61 * per_layer
    # GQA: q and o hidden × heads × head_dim each, k and v hidden × kv_heads × head_dim each (Llama 3.1 8B:
    # 4096 × 128 × (2 × 32 + 2 × 8) × 32 layers = 1.34B).
    assert attention_params(KB.model("llama-3.1-8b")) == 32 * 4096 * 128 * (2 * 32 + 2 * 8)


def test_each_card_holds_its_share_of_the_requests_and_the_attention_whole() -> None:
    model, h20 = KB.model("deepseek-r1"), KB.gpus["h20"]
    w = Workload(model=model, engine="sglang", precision="fp8", quant="fp8", context=32768, batch=100)
    tp = estimate_memory(w, 16, h20)
    dp = estimate_memory(replace(w, dp_attention=True), 16, h20)
    assert tp.required_breakdown is not None and dp.required_breakdown is not None
    # Tensor parallel: every card keeps all 100 latents, (512 + 64) × 2 B × 61 layers × 32,768 tokens each,
    # over two pipeline stages; data-parallel attention: ceil(100 / 16) = 7 of them, whole.
    latent = (512 + 64) * 2 * 61
    assert dp.required_breakdown["kv_cache"] * C.GIB == pytest.approx(7 * 32768 * latent, rel=0.01)
    assert tp.required_breakdown["kv_cache"] > 7 * dp.required_breakdown["kv_cache"]
    # The attention weights (11.4B FP8 parameters) are whole on every card, the rest one sixteenth.
    weights = tp.required_breakdown["weights"] * 16
    attention = attention_params(model) * weights / (model.params_b * 1e9)
    assert dp.required_breakdown["weights"] == pytest.approx((weights - attention) / 16 + attention, rel=0.01)
    assert dp.chosen["max_concurrent_sequences"] % 16 == 0 and "dp-attention" in dp.notes


def test_an_mla_model_that_does_not_fit_tensor_parallel_is_offered_dp_attention() -> None:
    w = Workload(model=KB.model("deepseek-r1"), engine="sglang", precision="fp8", quant="fp8", context=32768,
                 batch=100)
    check = check_fit(w, KB.gpus["h20"], 16, candidates=[])
    assert not check.fits
    assert check.suggestions[0].kind == "dp-attention" and check.suggestions[0].count == 16
    # transformers cannot run attention data-parallel, and a GQA model is not offered it
    assert not any(s.kind == "dp-attention" for s in check_fit(
        replace(w, engine="transformers"), KB.gpus["h20"], 16, candidates=[]).suggestions)
