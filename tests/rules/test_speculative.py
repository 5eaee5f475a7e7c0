"""Speculative decoding's speed-up (Leviathan et al. 2023): hand-computed expected tokens a step and ratios."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules.speculative import (
    draft_cost_ratio,
    expected_tokens_per_step,
    speculative_decode_tokens_per_s,
    speculative_speedup,
)
from rules.speed import estimate_speed
from rules.types import Workload
from tests.rules._models import make_gpu, make_model


@pytest.mark.parametrize(("acceptance", "draft_tokens", "expected"), [
    (0.5, 4, 1.9375),      # (1 − 0.5⁵) / 0.5
    (0.9, 4, 4.0951),      # (1 − 0.9⁵) / 0.1
    (0.0, 4, 1.0),         # nothing accepted: the target's own token only
    (1.0, 4, 5.0),         # everything accepted: the draft's 4 and the target's next
    (0.7, 1, 1.7),         # (1 − 0.49) / 0.3
])
def test_expected_tokens_per_step(acceptance: float, draft_tokens: int, expected: float) -> None:
    assert expected_tokens_per_step(acceptance, draft_tokens) == pytest.approx(expected, abs=1e-4)


def test_the_speedup_divides_by_the_draft_steps_and_the_check() -> None:
    # 1.9375 tokens a step for 4 × 0.25 + 1 = 2 target steps: slower than the target alone
    assert speculative_speedup(0.5, 4, 0.25) == pytest.approx(0.96875)
    # 4.0951 tokens for 4 × 0.05 + 1 = 1.2 target steps
    assert speculative_speedup(0.9, 4, 0.05) == pytest.approx(3.41258, abs=1e-4)


def _pair() -> Workload:
    target = make_model()
    draft = make_model(id="draft", name="Draft", params_b=0.5, num_layers=8, hidden_size=1024, num_attention_heads=8,
                       num_kv_heads=8, intermediate_size=2816)
    return Workload(model=target, task="inference", precision="bf16", context=4096, batch=1, engine="vllm",
                    draft_model=draft)


def test_the_draft_cost_ratio_is_the_two_decode_speeds_on_the_same_cards() -> None:
    w, gpu = _pair(), make_gpu()
    target = estimate_speed(replace(w, draft_model=None), gpu, 1).decode_tokens_per_s
    assert w.draft_model is not None
    draft = estimate_speed(replace(w, model=w.draft_model, draft_model=None), gpu, 1).decode_tokens_per_s
    assert target and draft and draft > target
    # vLLM's 3 ms of host work a step is paid once, in the target's step, not for each drafted token
    assert draft_cost_ratio(w, gpu, 1) == pytest.approx((1 / draft - 3.0e-3) * target)
    eager = replace(w, engine="transformers")  # no host work a step is modelled for it: the plain ratio
    eager_target = estimate_speed(replace(eager, draft_model=None), gpu, 1).decode_tokens_per_s
    eager_draft = estimate_speed(replace(eager, model=w.draft_model, draft_model=None), gpu, 1).decode_tokens_per_s
    assert eager_target and eager_draft
    assert draft_cost_ratio(eager, gpu, 1) == pytest.approx(eager_target / eager_draft)
    assert draft_cost_ratio(replace(w, draft_model=None), gpu, 1) is None


def test_the_decode_with_a_draft_is_the_target_speed_times_the_speedup() -> None:
    w, gpu = _pair(), make_gpu()
    target = estimate_speed(replace(w, draft_model=None), gpu, 1).decode_tokens_per_s
    ratio = draft_cost_ratio(w, gpu, 1)
    assert target and ratio
    for acceptance in (0.5, 0.7, 0.9):
        assert speculative_decode_tokens_per_s(w, gpu, 1, acceptance) == pytest.approx(
            target * speculative_speedup(acceptance, 4, ratio))
    # a higher acceptance never decodes slower
    speeds = [speculative_decode_tokens_per_s(w, gpu, 1, a) or 0 for a in (0.5, 0.7, 0.9)]
    assert speeds == sorted(speeds)


def test_an_eagle_head_is_one_layer_of_the_target_with_its_fc_and_a_draft_vocabulary() -> None:
    # Llama 3.1 8B: 8.03B params, 128,256 × 4,096 embeddings untied (1.05B), 32 layers → ≈ 218M a layer;
    # + fc 3 × 4,096² = 50M + head 32,000 × 4,096 = 131M ≈ 0.40B; its KV cache is one layer's (128/32 = 4 KiB)
    from knowledge.loader import default_knowledge
    from rules.speculative import EAGLE_HEAD_ID, eagle_head

    target = default_knowledge().models["llama-3.1-8b"]
    head = eagle_head(target)
    assert head is not None and head.id == EAGLE_HEAD_ID and head.num_layers == 1
    layer = (target.params_b * 1e9 - 2 * 128_256 * 4096) / 32
    assert head.params_b == pytest.approx((layer + 3 * 4096**2 + 32_000 * 4096) / 1e9, rel=1e-6)
    assert 0.35 < head.params_b < 0.45 and head.kv_cache_kib_per_token_16bit == pytest.approx(4.0)
    assert eagle_head(target.model_copy(update={"hidden_size": None})) is None
