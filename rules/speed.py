"""Throughput: decode bounded by memory bandwidth, prefill and training by the dense tensor peak.

* decode step time = (active weight bytes + KV bytes read) per card / (η × bandwidth), tensor parallel
  cards each read their shard (each extra card adds TP_EFFICIENCY of its bandwidth);
* prefill tokens/s = cards × peak × PREFILL_MFU / (2·P_active + 4·L·n·h) FLOPs per token (the attention
  term 4·L·n²·h over n tokens);
* training tokens/s = cards × peak × TRAIN_MFU / (k·P_active), k = 6 (full) or 4 (LoRA), +2 with full
  recomputation.
"""

from __future__ import annotations

from knowledge.schema import GPU
from rules import constants as C
from rules.engine_profile import kv_element_bytes, profile_for
from rules.hardware import dense_tflops, tp_scaling
from rules.memory import _prefill_tokens, is_transformer, kv_bytes_per_token, kv_cache_bytes, num_layers
from rules.precision import normalise_quant, param_split, weight_bytes
from rules.types import Speed, Workload


def speed_engine(w: Workload) -> str:
    """The engine whose measured speed constants apply: its own when calibrated, else the closest class by
    profile (tensor-parallel serving engines → vLLM's, layer-split ones → transformers'). A stand-in until
    the speed model has per-engine figures (the advice issue)."""
    if w.engine in C.DECODE_BANDWIDTH_EFFICIENCY:
        return w.engine
    profile = profile_for(w)
    return "vllm" if profile.role == "serving" and profile.multi_gpu.mode == "tensor-parallel" else "transformers"

def _active_weight_bytes(w: Workload) -> float:
    model = w.model
    quant = normalise_quant(w.quant, w.precision, w.engine) if w.task == "inference" else None
    total, _ = weight_bytes(model, w.precision, quant)
    if model.is_moe:
        return total * model.active_params / model.params_b
    return total


def flops_per_token(w: Workload, prompt: int) -> float:
    model = w.model
    p_active = model.active_params * 1e9
    attn = 0.0
    if is_transformer(model):
        assert model.hidden_size
        attn = 4.0 * num_layers(model) * prompt * model.hidden_size
    return 2.0 * p_active + attn


def train_flops_factor(w: Workload, checkpointing: bool) -> float:
    base = C.TRAIN_FLOPS_PER_PARAM_TOKEN if w.task == "train" else C.LORA_FLOPS_PER_PARAM_TOKEN
    return base + (C.RECOMPUTE_EXTRA_FLOPS_PER_PARAM_TOKEN if checkpointing else 0.0)


def _checkpointing(w: Workload) -> bool:
    if w.gradient_checkpointing is not None:
        return w.gradient_checkpointing
    return w.model.params_b > C.GRADIENT_CHECKPOINTING_MIN_PARAMS_B


def estimate_speed(workload: Workload, gpu: GPU, count: int) -> Speed:
    """Decode/prefill (inference) or training tokens/s of `workload` on `count` cards of `gpu`."""
    w = workload
    peak = dense_tflops(gpu, w.precision) * 1e12
    par = tp_scaling(gpu, count)
    if w.task != "inference":
        factor = train_flops_factor(w, _checkpointing(w))
        # Data parallel training scales linearly in the 6·P·D / (N·peak·MFU) model.
        train = count * peak * C.TRAIN_MFU / (factor * w.model.active_params * 1e9)
        return Speed(decode_tokens_per_s=None, prefill_tokens_per_s=None, train_tokens_per_s=round(train, 1))
    prompt = _prefill_tokens(w)
    prefill = par * peak * C.PREFILL_MFU / flops_per_token(w, prompt)
    prefill = min(prefill, max(1, prompt) / C.MIN_FORWARD_PASS_S)
    generative = w.model.arch == "decoder" and is_transformer(w.model)
    if not generative:
        return Speed(decode_tokens_per_s=None, prefill_tokens_per_s=round(prefill, 1))
    engine = speed_engine(w)
    eta = C.DECODE_BANDWIDTH_EFFICIENCY[engine]
    # vLLM splits every layer across the cards (tensor parallel: bandwidths add); transformers/llama.cpp split
    # the layers between cards (a token visits the cards one after another: one card's bandwidth at a time).
    par = tp_scaling(gpu, count) if engine == "vllm" else 1.0
    weights = _active_weight_bytes(w)
    # Average KV read per step: half the context is in the cache on average over a generation.
    kv_elem = kv_element_bytes(w, profile_for(w))
    kv, _ = kv_cache_bytes(w.model, max(1, w.context // 2), w.batch, kv_elem, tp=1)
    step_bytes = weights + kv
    bandwidth = eta * gpu.bandwidth_gbps * 1e9 * par
    step_s = step_bytes / bandwidth + C.DECODE_STEP_OVERHEAD_S[engine]
    quant = normalise_quant(w.quant, w.precision, w.engine)
    if engine == "transformers" and quant in C.TRANSFORMERS_QUANT_DECODE_SPEED:
        dense = weight_bytes(w.model, "bf16", None)[0]
        if w.model.is_moe:
            dense *= w.model.active_params / w.model.params_b
        step16 = (dense + kv) / bandwidth + C.DECODE_STEP_OVERHEAD_S[engine]
        step_s = step16 / C.TRANSFORMERS_QUANT_DECODE_SPEED[quant]
    # A step is also at least its compute: batch × 2·P_active FLOPs at the dense peak × MFU.
    step_s = max(step_s, w.batch * 2.0 * w.model.active_params * 1e9 / (par * peak * C.PREFILL_MFU))
    per_seq = 1.0 / max(step_s, C.MIN_FORWARD_PASS_S)
    return Speed(decode_tokens_per_s=round(per_seq, 1), prefill_tokens_per_s=round(prefill, 1),
                 aggregate_tokens_per_s=round(per_seq * w.batch, 1))


def training_hours(workload: Workload, gpu: GPU, count: int, tokens: float) -> float:
    """Hours to train on `tokens` tokens: k·P·D / (N · peak · MFU) (k = 6 full, 4 LoRA; +2 recomputation)."""
    w = workload
    factor = train_flops_factor(w, _checkpointing(w)) if w.task != "inference" else 2.0
    peak = dense_tflops(gpu, w.precision) * 1e12
    seconds = factor * w.model.active_params * 1e9 * tokens / (count * peak * C.TRAIN_MFU)
    return seconds / 3600.0


def kv_read_bytes_per_token(workload: Workload) -> float:
    """KV bytes one decode step reads per cached token (for explanations)."""
    return kv_bytes_per_token(workload.model, C.KV_BYTES.get(workload.precision, 2.0))


__all__ = ["estimate_speed", "flops_per_token", "param_split", "training_hours"]
