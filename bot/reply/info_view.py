"""What a card's or a model's facts print ("H100 specs", "阿里云上 8 卡 H20 的实例叫什么", "Qwen3-32B 的结构"):
memory, bandwidth, dense peaks, interconnect, the instances that carry it; a model's shape and its KV cache a token."""

from __future__ import annotations

from typing import Any

from bot.reply.formatting import gb, params
from bot.reply.model import Answer
from knowledge.base import KnowledgeBase


def gpu_views(answer: Answer, kb: KnowledgeBase) -> list[dict[str, Any]]:
    ids = [answer.query.gpu] if answer.query.gpu else list(answer.compare)
    views = []
    for gpu_id in ids:
        gpu = kb.gpus.get(gpu_id or "")
        if gpu is None:
            continue
        tflops = [f"{label} {value:g}" for label, value in (
            ("FP32", gpu.fp32_tflops), ("FP16", gpu.fp16_tflops), ("BF16", gpu.bf16_tflops),
            ("FP8", gpu.fp8_tflops), ("INT8 TOPS", gpu.int8_tops)) if value]
        views.append({
            "name": gpu.name, "memory": gb(gpu.memory_gb), "memory_type": gpu.memory_type or "",
            "bandwidth": f"{gpu.bandwidth_gbps:,.0f}", "tflops": tflops, "interconnect": gpu.interconnect,
            "mig": gpu.mig_max_instances if gpu.mig else None, "recommended": gpu.recommended,
            "notes": gpu.notes if not gpu.recommended else None,
            "instances": [f.family for f in kb.instances_for(gpu.id)],
            "sized": _instances_of_count(kb, gpu.id, answer.query.gpu_count, answer.query.cloud),
            "count": answer.query.gpu_count,
        })
    return views


def _instances_of_count(kb: KnowledgeBase, gpu_id: str, count: int | None, cloud: str | None) -> list[str]:
    """The instance types carrying `count` of the card ("阿里云上 8 卡 H20 的实例叫什么": ecs.gn8v-8x.16xlarge …),
    on the cloud asked when one is; none when no count is asked (audit 28 LOW-94)."""
    if not count or count < 2:
        return []
    alibaba = [f"{it.instance_type} ({it.vcpu} vCPU, {it.memory_gib:,.0f} GiB)" if it.vcpu and it.memory_gib
               else it.instance_type
               for family in kb.instances_for(gpu_id) for it in family.example_instance_types
               if it.gpus == count and cloud in (None, family.provider)]
    return alibaba + [layout.instance for layout in kb.instance_types.values()
                      if layout.gpu == gpu_id and layout.count == count and cloud in (None, layout.cloud)]


def model_view(answer: Answer, kb: KnowledgeBase) -> dict[str, Any] | None:
    model = kb.models.get(answer.query.model or "")
    if model is None:
        return None
    return {
        "name": model.name, "params": params(model.params_b),
        "active": params(model.active_params_b) if model.active_params_b else None,
        "experts": model.moe.num_experts if model.moe else None,
        "routed": model.moe.experts_per_token if model.moe else None,
        "layers": model.num_layers, "hidden": model.hidden_size, "heads": model.num_attention_heads,
        "kv": model.num_kv_heads, "attention": (model.attention or "").upper(),
        "context": f"{model.max_context:,}" if model.max_context else "?",
        "kv_kib": f"{model.kv_cache_kib_per_token_16bit:g}" if model.kv_cache_kib_per_token_16bit else None,
    }


__all__ = ["gpu_views", "model_view"]
