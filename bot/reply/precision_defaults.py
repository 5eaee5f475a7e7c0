"""The precision a job is sized in when the question does not say: the model's own release, fp16 where a card has
no bf16 (T4, V100), a converted format where it has no FP8; and the KV cache's when "a quantised KV cache" names
no type."""

from __future__ import annotations

from dataclasses import replace

import rules
from bot.reply.model import Assumption
from knowledge.engines import load_engine_profiles
from knowledge.schema import GPU, Model
from rules.hardware import runs_precision
from rules.types import KV_CACHES, KVCache, Precision, Workload

FALLBACK_PRECISION_NO_BF16: Precision = "fp16"
"""Cards before Ampere (T4, V100, P100) have no bf16 tensor cores; fp16 is what runs there."""


def bf16_capable(gpu: GPU | None) -> bool:
    return gpu is None or rules.supports_bf16(gpu) or gpu.vendor == "generic"


def fp16_on_pre_ampere(workload: Workload, gpu: GPU | None, assumptions: list[Assumption],
                       named: bool = False) -> Workload:
    """A defaulted bf16 becomes fp16 when the card the reply recommends has no bf16 (same bytes, other
    dtype): the reply must not size bf16 on a T4 or V100."""
    if workload.precision != "bf16" or bf16_capable(gpu):
        return workload
    for index, assumed in enumerate(assumptions):
        if assumed.field == "precision" and assumed.reason == "default":
            assumptions[index] = Assumption(field="precision", value="fp16", reason="top-pick-no-bf16")
            return replace(workload, precision="fp16")
    if named and gpu is not None and gpu.vendor.lower() == "nvidia":
        # bf16 asked on a V100 or T4: the HF Trainer and vLLM refuse it there, so it is sized (same bytes) and
        # said as the fp16 the card runs
        assumptions.append(Assumption(field="precision", value="fp16", reason="asked-bf16-no-bf16"))
        return replace(workload, precision="fp16")
    return workload


def native_precision(model: Model, gpu: GPU | None) -> tuple[Precision, str]:
    """The precision the model is released in (its checkpoint's dtype), and why it was chosen.

    A 16-bit release runs in fp16 on cards without bf16 (T4, V100: vLLM refuses bf16 below compute
    capability 8.0 and transformers falls back). FP8, MXFP4 and INT4 releases are sized as shipped."""
    native = model.native_precision
    if native in ("bf16", "fp16", "fp32"):
        if native == "bf16" and not bf16_capable(gpu):
            return FALLBACK_PRECISION_NO_BF16, "no-bf16-on-gpu"
        return native, "default"
    if native == "fp8" and gpu is not None and not runs_precision(gpu, "fp8", "vllm"):
        # a card with no FP8 at all (Ascend 910B, MI250, V100): the release is served converted, as W8A8 INT8
        # where that is the card's documented path (Ascend: vLLM-Ascend and MindIE serve DeepSeek-R1 as W8A8),
        # else dequantised to 16 bits (vLLM's INT8 W8A8 kernels need compute capability 7.5, above a V100's)
        if gpu.int8_tops and gpu.vendor.lower() == "huawei":
            return "int8", "no-fp8-on-gpu-int8"
        return ("bf16" if bf16_capable(gpu) else FALLBACK_PRECISION_NO_BF16), "no-fp8-on-gpu"
    return native, "native-release"


def kv_cache_for(asked: str | None, engine: str, assumptions: list[Assumption]) -> KVCache | None:
    """The KV-cache precision to size: as asked, or for a bare "quantised KV cache" the engine's first
    type below 16 bits (stated); None keeps the model's dtype."""
    if asked is None:
        return None
    if asked in KV_CACHES:
        return asked
    offered = load_engine_profiles().get(engine)
    below = [t for t in (offered.kv_cache.bytes_per_element if offered else {}) if t in ("fp8", "int8", "int4")]
    if not below:
        return None
    assumptions.append(Assumption(field="kv_cache", value=below[0], reason="engine-kv-default"))
    return below[0]


__all__ = ["FALLBACK_PRECISION_NO_BF16", "bf16_capable", "fp16_on_pre_ampere", "kv_cache_for", "native_precision"]
