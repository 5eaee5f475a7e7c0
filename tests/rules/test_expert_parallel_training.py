"""Full training of an MoE model with expert parallelism, by hand (toy 30B-A3B MoE: 48 layers, hidden 4,096, 128
experts of which 8 a token; toy card: 312 TFLOPS, NVLink 600 GB/s)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from knowledge.schema import MoE
from rules import Workload, estimate_speed
from rules import speed_constants as S
from rules.speed import expert_parallel_tokens_per_s, sharded_train_tokens_per_s, train_tokens_per_s
from tests.rules._models import make_gpu, make_model

MOE = MoE(num_experts=128, experts_per_token=8, moe_intermediate_size=768)


def _moe_training(**overrides: object) -> Workload:
    model = make_model(params_b=30.0, active_params_b=3.0, moe=MOE, num_layers=48)
    fields: dict[str, object] = dict(model=model, task="train", context=4096, batch=1, zero_stage=3,
                                     expert_parallel=True)
    fields.update(overrides)
    return Workload(**fields)  # type: ignore[arg-type]


def test_expert_parallel_rate_is_model_flops_at_the_fitted_share_of_the_peak() -> None:
    # per token: 6 × 3e9 active parameters + 3 × attention (4 × 48 layers × 2,048 × 4,096) = 18e9 + 4.83e9
    # = 22.83e9 FLOPs; 312 TFLOPS × 0.245 / 22.83e9 ≈ 3,348 tok/s a card
    per_token = 6 * 3e9 + 3 * 4 * 48 * 2048 * 4096
    rate = expert_parallel_tokens_per_s(_moe_training(), make_gpu(), 16)
    assert rate == pytest.approx(16 * 312e12 * S.EXPERT_PARALLEL_TRAIN_MFU / per_token)
    assert rate == pytest.approx(16 * 3348, rel=1e-3)


def test_the_faster_of_the_two_sets_the_rate_and_the_slower_is_kept_for_the_reply() -> None:
    # Across two machines ZeRO-3 gathers the 60 GB of 16-bit weights for each pass of every 4,096-token
    # micro-step: the network binds it to well under the expert-parallel rate
    w = _moe_training()
    sharded = sharded_train_tokens_per_s(w, make_gpu(launch_year=2023), 16)
    expert = expert_parallel_tokens_per_s(w, make_gpu(launch_year=2023), 16)
    assert expert is not None and expert > 2 * sharded
    speed = estimate_speed(w, make_gpu(launch_year=2023), 16)
    assert speed.train_tokens_per_s == pytest.approx(expert, rel=1e-3)
    assert speed.sharded_train_tokens_per_s == pytest.approx(sharded, rel=1e-3)
    # without expert parallelism (the question named DeepSpeed or FSDP) the sharded rate stands, unannotated
    plain = estimate_speed(replace(w, expert_parallel=False), make_gpu(launch_year=2023), 16)
    assert plain.train_tokens_per_s == pytest.approx(sharded, rel=1e-3)
    assert plain.sharded_train_tokens_per_s is None


@pytest.mark.parametrize(("overrides", "count", "gpu"), [
    ({"model": make_model()}, 16, make_gpu()),  # a dense model has no experts to keep in place
    ({"task": "lora"}, 16, make_gpu()),  # the measured rows are full training
    ({}, 1, make_gpu()),  # one card: nothing to spread
    ({"offload": "optimizer"}, 16, make_gpu()),  # the CPU optimizer step is not in the measured rows
    ({}, 4, make_gpu(nvlink_gbps=None)),  # PCIe cards: the all-to-all was measured over NVLink
])
def test_expert_parallelism_applies_only_where_it_was_measured(overrides: dict[str, object], count: int,
                                                                 gpu: object) -> None:
    w = _moe_training(**overrides)
    assert expert_parallel_tokens_per_s(w, gpu, count) is None  # type: ignore[arg-type]
    assert train_tokens_per_s(w, gpu, count) == sharded_train_tokens_per_s(w, gpu, count)  # type: ignore[arg-type]
