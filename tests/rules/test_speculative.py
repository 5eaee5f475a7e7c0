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
    assert draft_cost_ratio(w, gpu, 1) == pytest.approx(target / draft)
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
