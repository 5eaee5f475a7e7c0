"""vLLM's Marlin path for MXFP4 experts on cards before Hopper pads each expert matrix (mxfp4.py)."""

from __future__ import annotations

import pytest

from knowledge.schema import Model, MoE
from rules import Workload, estimate_memory
from rules import constants as C
from rules import weight_formats as WF
from rules.precision import moe_expert_params, padded_expert_fraction
from tests.rules._models import make_gpu, make_model


def gpt_oss_like() -> Model:
    """gpt-oss-120b's expert shapes: hidden 2,880, 128 experts of intermediate 2,880, 36 layers."""
    return make_model(hidden_size=2880, intermediate_size=2880, num_layers=36, num_attention_heads=64,
                      num_kv_heads=8, head_dim=64, attention="gqa", vocab_size=201_088, params_b=116.8,
                      active_params_b=5.1, native_precision="mxfp4",
                      moe=MoE(num_experts=128, experts_per_token=4, moe_intermediate_size=2880))


def test_rounding_to_the_kernels_multiples() -> None:
    model = gpt_oss_like()
    # 2,880 → 2,944 (×128) and 2,880 → 3,072 (×256): 2,944 × 3,072 / 2,880² − 1 = 0.0904.
    assert padded_expert_fraction(model, 1, 128, 256) == pytest.approx(2944 * 3072 / 2880**2 - 1)
    # At TP 2 each rank's 1,440 rounds to 1,536: 2 × 1,536 × 3,072 / 2,880² − 1 = 0.1378.
    assert padded_expert_fraction(model, 2, 128, 256) == pytest.approx(2 * 1536 * 3072 / 2880**2 - 1)
    assert padded_expert_fraction(make_model(hidden_size=4096, intermediate_size=4096), 1, 128, 256) == 0.0


def test_ampere_cards_carry_the_padding_hopper_a_second_copy_of_the_scales_after_0_10_1() -> None:
    model = gpt_oss_like()
    w = Workload(model=model, engine="vllm", precision="mxfp4", quant="mxfp4", context=4096)
    ampere = estimate_memory(w, 1, make_gpu(architecture="Ampere (GA100)"))
    hopper = estimate_memory(w, 1, make_gpu(name="H100", architecture="Hopper (GH100)"))
    plain = estimate_memory(w, 1, make_gpu(name="MI300X", architecture="CDNA3"))
    experts = moe_expert_params(model)
    # Marlin pads 9.04% of the expert bytes; the Triton path keeps the scales twice: 1/32 B per expert
    # parameter (36 layers × 128 experts × 3 × 2,880² = 114.65e9 → 3.34 GiB).
    padding = experts * WF.MXFP4_BYTES_PER_PARAM * (2944 * 3072 / 2880**2 - 1) / C.GIB
    assert ampere.breakdown["weights"] - plain.breakdown["weights"] == pytest.approx(padding, abs=1e-3)
    assert hopper.breakdown["weights"] - plain.breakdown["weights"] == pytest.approx(experts / 32 / C.GIB, abs=1e-3)
    assert experts / 32 / C.GIB == pytest.approx(3.34, abs=0.01)
    assert "vllm-mxfp4-expert-padding" in ampere.notes and "vllm-mxfp4-scale-copy" in hopper.notes
    # 0.10.1 pins torch 2.7.1, and below torch 2.8 vLLM runs MXFP4 with Marlin on Hopper too.
    early = estimate_memory(Workload(model=model, engine="vllm", engine_version="0.10.1", precision="mxfp4",
                                     quant="mxfp4", context=4096), 1, make_gpu(name="H100", architecture="Hopper"))
    assert early.breakdown["weights"] == pytest.approx(ampere.breakdown["weights"], abs=1e-6)
    other = estimate_memory(Workload(model=model, engine="sglang", precision="mxfp4", quant="mxfp4",
                                     context=4096), 1, make_gpu(architecture="Ampere (GA100)"))
    assert "sglang-mxfp4-expert-padding" not in other.notes
