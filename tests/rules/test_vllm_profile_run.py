"""vLLM's start-up profiling run: the activation memory it sets aside depends on the card and the version.

Toy model (tests/rules/_models.py): hidden 4,096, intermediate 11,008, vocabulary 32,000, 7e9 bf16 parameters.
"""

from __future__ import annotations

import pytest

from knowledge.engines import load_engine_profiles
from rules import Workload, estimate_memory, needed_view
from rules import constants as C
from rules.engine_profile import is_large_card, profile_run_size
from tests.rules._models import make_gpu, make_model

GIB = C.GIB
WEIGHTS_GIB = 7e9 * 2 / C.GIB
FORWARD_PER_TOKEN = 6 * 11_008 + 6 * 4_096  # merged gate/up + activation output, and the hidden-side tensors
A10_LIKE = dict(id="a10ish", name="A10-ish", memory_gb=24.0, memory_type="HBM2")  # 24 GiB visible


def sampler_bytes(requests: int, tokens: int, per_vocab: float = 38.5) -> float:
    return requests * 32_000 * per_vocab + tokens * 4_096 * 2


def vllm(version: str | None = None, context: int = 4096) -> Workload:
    return Workload(model=make_model(), engine="vllm", engine_version=version, context=context)


def test_small_cards_get_256_requests_and_2048_tokens() -> None:
    est = estimate_memory(vllm(), 1, make_gpu(**A10_LIKE))
    # 256 × 32,000 × 38.5 + 2,048 × 4,096 × 2 = 0.3154e9 + 0.0168e9 = 0.332e9 B = 0.309 GiB; the forward
    # pass over 2,048 tokens is 2,048 × 90,624 = 0.186e9 B, smaller.
    assert est.breakdown["activations"] == pytest.approx(sampler_bytes(256, 2048) / GIB, abs=1e-4)
    assert est.chosen["max_num_seqs"] == 256


def test_large_cards_get_1024_requests_but_not_a100s() -> None:
    profile = load_engine_profiles()["vllm"]
    fact = profile.profile_run
    assert fact is not None
    assert is_large_card(fact, make_gpu())  # 80 GiB
    assert not is_large_card(fact, make_gpu(name="NVIDIA A100 80GB"))
    assert not is_large_card(fact, make_gpu(**A10_LIKE))
    assert profile_run_size(fact, make_gpu(), 4096) == (1024, 8192)
    assert profile_run_size(fact, make_gpu(name="NVIDIA A100 80GB"), 4096) == (256, 2048)
    # No card named: the ordinary cards' defaults.
    assert profile_run_size(fact, None, 4096) == (256, 2048)


def test_versions_change_the_defaults() -> None:
    profile = load_engine_profiles()["vllm"]
    h100 = make_gpu(name="NVIDIA H100 80GB HBM3")
    a100 = make_gpu(name="NVIDIA A100 80GB")
    small = make_gpu(**A10_LIKE)

    def size(version: str, gpu: object) -> tuple[int, int]:
        fact = profile.at_version(version).profile_run
        assert fact is not None
        return profile_run_size(fact, gpu, 4096)  # type: ignore[arg-type]

    # 0.8.0-0.8.3: 1,024 requests on every card; 8,192 tokens on H100/H200 by name.
    assert size("0.8.2", small) == (1024, 2048)
    assert size("0.8.2", h100) == (1024, 8192)
    # 0.8.4: H100/H200 by name only; 0.8.5: 70 GiB or more, A100s included; 0.9 on: A100s excluded.
    assert size("0.8.4", a100) == (256, 2048)
    assert size("0.8.5", a100) == (1024, 8192)
    assert size("0.9.2", a100) == (256, 2048)


def test_v0_profiles_the_whole_context_and_samples_only_16_bit_logits() -> None:
    gpu = make_gpu(**A10_LIKE)
    # 8,192-token context, no chunked prefill: the forward pass over 8,192 tokens (0.742e9 B) dominates the
    # 256 requests' 2-byte logits (16.4e6 B) and the hidden states (67.1e6 B).
    est = estimate_memory(vllm("0.6.3", 8192), 1, gpu)
    assert est.breakdown["activations"] == pytest.approx(8192 * FORWARD_PER_TOKEN / GIB, abs=1e-4)
    # Below 2,048 tokens it still profiles 2,048 (max(max_model_len, 2048)).
    short = estimate_memory(vllm("0.6.3", 512), 1, gpu)
    assert short.breakdown["activations"] == pytest.approx(2048 * FORWARD_PER_TOKEN / GIB, abs=1e-4)
    # Above 32K chunked prefill is on and the pass covers 512 tokens: 512 × 90,624 = 46.4e6 B, still above the
    # sampler side (256 × 32,000 × 2 + 512 × 4,096 × 2 = 20.6e6 B).
    long = estimate_memory(vllm("0.6.3", 40_000), 1, gpu)
    assert long.breakdown["activations"] == pytest.approx(512 * FORWARD_PER_TOKEN / GIB, abs=1e-4)
    # V0 counts 0.35 GiB of non-torch memory in the share.
    assert est.breakdown["overhead"] == pytest.approx(0.35, abs=1e-3)


def test_a_longer_v0_context_can_fail_where_a_still_longer_one_starts() -> None:
    """vLLM issue 10517's pattern (RTX 3090, Llama-3.1-8B): 29k refuses to start, 35k starts, because above
    32K chunked prefill shrinks the profiled forward pass."""
    gpu = make_gpu(**A10_LIKE)
    at_29k = estimate_memory(vllm("0.6.3", 29_000), 1, gpu)
    at_35k = estimate_memory(vllm("0.6.3", 35_000), 1, gpu)
    assert at_29k.breakdown["activations"] > 10 * at_35k.breakdown["activations"]


def test_needed_view_shows_the_job_not_the_reservation() -> None:
    est = estimate_memory(vllm(), 1, make_gpu())
    view = needed_view(est)
    # what nvidia-smi shows: from 0.34 the card less the context and a margin of ¾ of the 1.24 GiB activation peak
    act = est.breakdown["activations"]
    assert est.per_gpu_gib == pytest.approx(80 - 0.5 - max(1.0, 0.75 * act), abs=1e-3)
    assert view.per_gpu_gib == est.required_per_gpu_gib
    assert view.breakdown["kv_cache"] == pytest.approx(2.0, abs=1e-3)  # one 4,096-token sequence, not the pool
    assert view.breakdown["activations"] == est.breakdown["activations"]
    # Nothing to change for an engine that does not reserve.
    plain = estimate_memory(Workload(model=make_model()), 1, make_gpu())
    assert needed_view(plain) is plain


def test_a_stated_share_and_request_cap_replace_the_defaults() -> None:
    gpu = make_gpu()  # 80 GiB
    est = estimate_memory(Workload(model=make_model(), engine="vllm", context=4096, memory_fraction=0.5,
                                   max_num_seqs=64), 1, gpu)
    assert est.per_gpu_gib == pytest.approx(40.0, abs=1e-3)  # 0.5 × 80
    assert est.chosen["gpu_memory_utilization"] == 0.5 and est.chosen["max_num_seqs"] == 64
    # 64 requests × 32,000 × 38.5 B = 78.8e6 B + 8,192 hidden states (67.1e6) = 0.136 GiB, below the forward
    # pass over 8,192 tokens (0.742e9 B = 0.691 GiB), which is then the peak.
    assert est.breakdown["activations"] == pytest.approx(8192 * FORWARD_PER_TOKEN / GIB, abs=1e-4)
    assert est.chosen["kv_pool_gib"] == pytest.approx(40.0 - WEIGHTS_GIB - 8192 * FORWARD_PER_TOKEN / GIB - 0.13,
                                                      abs=1e-2)


def test_sglang_may_use_its_share_plus_its_activations() -> None:
    from rules.fit import limit_gib
    from rules.memory_inference import activations_outside_share

    gpu = make_gpu(**A10_LIKE)  # 24 GiB visible, 23.5 usable
    w = Workload(model=make_model(), engine="sglang", context=4096, memory_fraction=0.7)
    act = activations_outside_share(w, gpu) / GIB
    assert act > 0
    # Weights and KV live in 0.7 × 24 − 0.5 = 16.3 GiB; activations and CUDA graphs beside it, within the card.
    assert limit_gib(w, gpu) == pytest.approx(min(16.3 + act, 23.5), abs=1e-3)
    assert activations_outside_share(vllm(), gpu) == 0.0  # vLLM's share holds everything


def test_an_image_model_is_told_its_dummy_images_are_not_sized() -> None:
    image = Workload(model=make_model(modality="multimodal"), engine="vllm", context=4096)
    assert "vllm-multimodal-profile" in estimate_memory(image, 1, make_gpu()).notes
    assert "vllm-multimodal-profile" not in estimate_memory(vllm(), 1, make_gpu()).notes
    text = Workload(model=make_model(modality="multimodal"), engine="transformers", context=4096)
    assert not any(n.endswith("multimodal-profile") for n in estimate_memory(text, 1, make_gpu()).notes)
