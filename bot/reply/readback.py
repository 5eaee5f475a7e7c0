"""The read-back ("I read this as: …"): each understood slot in the words people write it in."""

from __future__ import annotations

from typing import Any

from bot.reply.cost_view import PERIOD_WORDS, amount, cloud_name
from bot.reply.formatting import gpu_name, model_name_of, params
from bot.reply.i18n import Translator
from bot.reply.labels import FIELD_LABELS, TASK_NAMES
from bot.reply.model import Answer
from bot.understand.question import MAX_GPU_LAYERS, TRAINING_SWITCHES
from knowledge.base import KnowledgeBase
from knowledge.engines import load_engine_profiles, offloads_parameters
from rules.constants import GPUS_PER_NODE
from rules.engine_profile import takes_prefill_chunk
from rules.memory_lora_serving import slot_rule
from rules.precision import bits_per_weight
from rules.weight_formats import GGUF_BYTES_PER_PARAM

SELF_NAMED = {"nvfp4": "NVFP4", "int4-experts-g32": "INT4 experts (group 32)"}
"""Formats whose name says their bits and kind: read back alone, not beside the precision they are filed under."""

SHARE_FLAGS = {"vllm": "gpu_memory_utilization", "sglang": "mem_fraction_static",
               "lmdeploy": "cache_max_entry_count", "tensorrt-llm": "free_gpu_memory_fraction"}
"""The flag each reserving engine sets its memory share with: the read-back writes the share that way."""


TEXT_ENCODER_WORDS: dict[str, dict[str, str]] = {
    "cached": {"en": "text-encoder outputs cached", "zh-Hans": "文本编码器输出已缓存"},
    "resident": {"en": "text encoders on the card", "zh-Hans": "文本编码器留在显卡上"},
    "trained": {"en": "text encoders trained too", "zh-Hans": "文本编码器一起训练"},
}
"""How the read-back names where an image trainer's text encoders are."""


def value_text(t: Translator, field: str, value: Any, kb: KnowledgeBase) -> str:
    if field == "task" and isinstance(value, str):
        return t.pick(TASK_NAMES, value)
    if field == "gpu" and isinstance(value, str):
        return gpu_name(kb, value)
    if field == "model" and isinstance(value, str) and value in kb.models:
        return kb.models[value].name
    if field == "model" and isinstance(value, str) and value.startswith("pasted--"):
        # a config.json pasted into the message: its internal id is no name (audit 30 LOW-136)
        return "your pasted model" if t.lang == "en" else "你粘贴的模型"
    if field in ("context", "gen_tokens") and isinstance(value, int):
        return f"{value:,}"
    if field == "image_resolution" and isinstance(value, int):
        return f"{value}×{value}"
    if field == "image_count" and isinstance(value, int):
        return f"{value:,} images" if t.lang == "en" else f"{value:,} 张图"
    if field == "output_tokens" and isinstance(value, (int, float)):
        return f"{value:,.0f} output tokens" if t.lang == "en" else f"生成 {value:,.0f} 个 token"
    if field == "users" and isinstance(value, int):
        return f"{value:,} concurrent users" if t.lang == "en" else f"{value:,} 路并发"
    if field == "audio_hours" and isinstance(value, (int, float)):
        return f"{value:,g} h of audio" if t.lang == "en" else f"{value:,g} 小时音频"
    if field == "audio_per_day":
        return "a day" if t.lang == "en" else "每天"
    if field == "mfu" and isinstance(value, float):
        return f"{value:.0%}"
    if field == "dp_attention" and isinstance(value, bool):
        if t.lang == "en":
            return "data-parallel" if value else "tensor parallel"
        return "数据并行" if value else "张量并行"
    if field == "beam_size" and isinstance(value, int):
        return f"beam {value}" if t.lang == "en" else f"束宽 {value}"
    if field == "prior_preservation" and value:
        return "prior preservation (2 images a step)" if t.lang == "en" else "先验保留（每步 2 张图）"
    if field == "text_encoders" and isinstance(value, str):
        return t.pick(TEXT_ENCODER_WORDS, value)
    if field == "image_steps" and isinstance(value, int):
        return f"{value} steps" if t.lang == "en" else f"{value} 步"
    if field == "interconnect" and isinstance(value, (int, float)):
        return f"{value * 8:,.0f} Gb/s InfiniBand" + (" per GPU" if t.lang == "en" else " 每卡")
    if field == "params_b" and isinstance(value, (int, float)):
        return f"{params(float(value))}B"
    if field in ("gradient_checkpointing", "flash_attention"):
        return ("on" if value else "off") if t.lang == "en" else ("开" if value else "关")
    if field == "offload" and value in ("optimizer", "all"):
        return t("offload_optimizer" if value == "optimizer" else "offload_all")
    if field == "zero_stage" and isinstance(value, int):
        # stage 0 is plain data parallelism: every card keeps all the states
        return f"ZeRO-{value}" if value else ("DDP (no sharding)" if t.lang == "en" else "DDP（不分片）")
    if field == "memory_gb" and isinstance(value, (int, float)):
        return f"{value:g} GB"
    if field == "pool":
        return (t.pool_value_consumer if value == "consumer" else t.pool_value_nvidia if value == "nvidia"
                else t.pool_value_named if value == "with-named-vendor" else t.pool_value)
    if field == "tokens" and isinstance(value, (int, float)):
        return f"{amount(float(value))} tokens"
    if field == "documents" and isinstance(value, int):
        return f"{value:,} documents" if t.lang == "en" else f"{value:,} 条文本"
    if field == "training_samples" and isinstance(value, int):
        return f"{value:,} samples" if t.lang == "en" else f"{value:,} 条样本"
    if field == "training_steps" and isinstance(value, int):
        return f"{value:,} training steps" if t.lang == "en" else f"训练 {value:,} 步"
    if field == "training_epochs" and isinstance(value, (int, float)):
        return f"{value:g} epoch{'s' if value != 1 else ''}" if t.lang == "en" else f"{value:g} 轮"
    if field == "clip_seconds" and isinstance(value, (int, float)):
        return f"{value:g} s of audio a request" if t.lang == "en" else f"每个请求 {value:g} 秒音频"
    if field == "hours" and isinstance(value, (int, float)):
        return f"{value:,.0f} h"
    if field in ("qps", "tokens_per_s_per_user", "ttft_s", "latency_s") and isinstance(value, (int, float)):
        return t(f"target_{field}", v=f"{value:.3g}" if value < 100 else f"{value:,.0f}")
    if field == "prompt_tokens_per_s" and isinstance(value, (int, float)):
        return t("target_prompt_tokens_per_s", v=f"{value:,.0f}")
    if field == "output_tokens_per_s" and isinstance(value, (int, float)):
        return t("target_output_tokens_per_s", v=f"{value:,.0f}")
    if field == "compare_gpus" and isinstance(value, list):
        return " vs ".join(gpu_name(kb, g) for g in value)
    if field == "consumer":
        return ("consumer cards" if t.lang == "en" else "消费级显卡") if value else ""
    if field == "budget":
        return ("cheapest" if t.lang == "en" else "优先省钱") if value else ""
    if field == "engine":
        return engine_name(value)
    if field == "quant" and isinstance(value, str) and value in GGUF_BYTES_PER_PARAM:
        # "gguf-q2_k" is its own precision: Q2_K at about 2.6 bits a weight, not "int4" (audit 16 C-L10)
        bits = f"{8 * GGUF_BYTES_PER_PARAM[value]:.1f}"
        return f"GGUF {value.removeprefix('gguf-').upper()} " + (f"(~{bits} bits a weight)" if t.lang == "en"
                                                                   else f"（每个权重约 {bits} 位）")
    if field == "quant" and isinstance(value, str) and value in SELF_NAMED:
        return SELF_NAMED[value]
    if field == "quant" and isinstance(value, str) and bits_per_weight(value) is not None:
        return f"{bits_per_weight(value):g} bits per weight"  # ExLlama's EXL2/EXL3, as its files are named
    if field == "cloud" and isinstance(value, str):
        return cloud_name(t, value)
    if field == "other_clouds" and isinstance(value, list):
        return "vs " + ", ".join(cloud_name(t, str(c)) for c in value)
    return str(value)


ENGINE_NAMES = {"vllm": "vLLM", "sglang": "SGLang", "lmdeploy": "LMDeploy", "tensorrt-llm": "TensorRT-LLM",
                "unsloth": "Unsloth", "deepspeed": "DeepSpeed", "fsdp": "FSDP", "llama-factory": "LLaMA-Factory",
                "fsdp-qlora": "Answer.AI fsdp_qlora"}
"""How the projects write their own names (ids are lower case for matching)."""


BACKEND_OF_ENGINE = frozenset({("tensorrt-llm", "tensorrt"), ("tensorrt-llm", "pytorch"), ("vllm", "v0"),
                               ("vllm", "v1")})
"""The backends read back: a backend named beside another engine changes nothing and is not shown."""


def engine_name(engine: object) -> str:
    return ENGINE_NAMES.get(str(engine), str(engine or ""))


def uses_prefill_chunk(engine: object) -> bool:
    """Whether the engine's figures use a stated tokens-per-forward-pass: reading the setting back where they
    do not (SGLang, transformers) would claim an effect the figures do not have."""
    profile = load_engine_profiles().get(str(engine or ""))
    return profile is not None and takes_prefill_chunk(profile)


UNDERSTOOD_HIDDEN = frozenset({"model_text", "gpu_text", "other_jobs", "accepted", "closed_model",
                               "unmodelled_kind", "unmodelled_name",
                               "unknown_gpu_text", "unmodelled_engine", "clamped", "clamped_asked", "budget_currency",
                               "budget_period", "apple_chip", "no_gpu", "runner", "modified_card",
                               "claimed_memory_gb", "derived_name", "assumed_model",
                               "shared_memory_stated", "asks_concurrency", "no_such_variant", "records_folded",
                               "engine_not_on_card", "gguf_server", "asks_overflow",
                               "asks_spot", "asks_running_cost", "logged_kv_tokens",
                               "smi_busy", "thanks", "api_price_per_million", "api_price_currency",
                               "logged_oom", "slow_first_token", "logged_queue",
                               "logged_progress", "family_release", "companion_models",
                               "rollout_engine"})
"""Keys of `Answer.understood` that are shown elsewhere in the reply (or only feed a notice)."""


def card_set_text(cards: list[str], kb: KnowledgeBase) -> str:
    """"GeForce RTX 3090 + GeForce RTX 3060 12GB", "2× GeForce RTX 3090 + …": a set of cards, in the order named."""
    counts: dict[str, int] = {}
    for card in cards:
        counts[card] = counts.get(card, 0) + 1
    return " + ".join(f"{n}× {gpu_name(kb, card)}" if n > 1 else gpu_name(kb, card) for card, n in counts.items())


def understood(answer: Answer, t: Translator, kb: KnowledgeBase) -> list[str]:
    parts: list[str] = []
    data = answer.understood
    named = kb.models.get(str(data.get("model")))
    encoder, texts_of = named is not None and named.arch == "encoder", data.get("texts_per_request")
    for field, value in data.items():
        hidden = field in UNDERSTOOD_HIDDEN or (value is False and field not in ("flash_attention",
                                                                                 "gradient_checkpointing"))
        if value is None or value == "" or hidden:
            continue
        if field == "model" and len(answer.stack) > 1:
            parts.append(" + ".join(part.name for part in answer.stack))  # deployed together: every model named
            continue
        if field == "flash_attention":
            parts.append(t("flash_on") if value else t("flash_off"))
            continue
        if field == "dp_attention":
            parts.append(t("dp_attention_on"))
            continue
        if field in ("speculative_unnamed", "prefix_caching"):
            parts.append(t(f"read_{field}"))
            continue
        if field == "engine_backend":
            if (data.get("engine"), value) in BACKEND_OF_ENGINE:
                parts.append(t(f"backend_{value}"))
            continue
        if field == "gradient_checkpointing":
            parts.append(f"{t.pick(FIELD_LABELS, field)} {value_text(t, field, value, kb)}")  # said on or off
            continue
        if field in TRAINING_SWITCHES:
            parts.append(t(field))
            continue
        if field == "image_resolution" and data.get("image_dims"):
            continue  # "1920×1080" is read back as written, not as the square it is sized as
        if field == "offload" and data.get("task") in (None, "inference"):
            if value == "all":
                parts.append(t("offload_model"))  # a diffusion pipeline's enable_model_cpu_offload()
            continue
        if field == "offload":
            if value == "optimizer" and offloads_parameters(str(data.get("engine") or "")):
                value = "all"  # FSDP's CPU offload moves the parameters (rules.memory_training.offload_of)
            if value in ("optimizer", "all"):
                parts.append(t("offload_optimizer" if value == "optimizer" else "offload_all"))
            continue
        if field == "gpu_count" and ("gpu" in data or "memory_gb" in data):
            continue
        if field == "quant" and value == data.get("precision"):
            continue  # "mxfp4" is the precision and the format at once
        if field == "precision" and (data.get("quant") in GGUF_BYTES_PER_PARAM or data.get("quant") in SELF_NAMED
                                     or bits_per_weight(str(data.get("quant") or "")) is not None):
            # a GGUF type or a rate in bits says its own bits ("5.68 bits per weight" is no "int8", audit 29
            # HIGH 56); NVFP4 is a 4-bit float, not "int4" (audit 28 HIGH 43 note)
            continue
        if field == "gpu_count" and isinstance(value, int):
            if "compare_gpus" not in data:  # a comparison's side-by-side gives each card's own count
                parts.append(t("cards_n", n=value))
            continue
        if field == "engine" and data.get("engine_version"):
            continue  # read back with its version: "transformers 4.38"
        if field == "engine" and data.get("runner") == "ollama":
            parts.append("Ollama (llama.cpp)")
            continue
        if field == "budget_amount" and isinstance(value, (int, float)):
            parts.append(t("budget_read", amount=f"{value:,.10g}", cur=str(data.get("budget_currency") or ""),
                           per=t.pick(PERIOD_WORDS, str(data.get("budget_period") or "total"))).strip())
            continue
        if field == "unified_memory":
            parts.append(t("mac_read"))
            continue
        if field == "texts_per_request" and isinstance(value, int):
            if encoder and not data.get("qps"):  # with a rate, said with it: the load the serving plan sizes
                parts.append(t("texts_per_request_read", n=f"{value:,}"))
            continue  # only an encoder's plan counts them (bot.reply.serving): read back nowhere else
        if field == "qps" and encoder and isinstance(value, (int, float)) and isinstance(texts_of, int):
            parts.append(t("qps_texts_read", v=f"{value:,.4g}", n=f"{texts_of:,}", total=f"{value * texts_of:,.0f}"))
            continue
        if field == "memory_gb" and isinstance(value, (int, float)) and data.get("unified_memory"):
            parts.append(t("unified_of", memory=f"{value:g}"))
            continue
        if field == "memory_gb" and isinstance(value, (int, float)):
            count = data.get("gpu_count") or 1
            parts.append(t("card_of", count=count, memory=f"{value:g}"))
            continue
        if field == "instance" and isinstance(value, str):
            parts.append(value)  # an instance type is written as its cloud spells it; its cards follow
            continue
        if field == "gpu" and data.get("gpu_set"):
            continue  # the set says every card
        if field == "gpu_set" and isinstance(value, list):
            parts.append(card_set_text(value, kb))
            continue
        if field == "gpu" and data.get("gpu_count"):
            parts.append(f"{data['gpu_count']}× {gpu_name(kb, value)}")
            continue
        text = t("kv_quantised") if value == "kv-quantised" else value_text(t, field, value, kb)
        if field == "engine_version" and data.get("engine"):
            parts.append(f"{engine_name(data['engine'])} {value}")  # "transformers 4.38", as people write it
            continue
        if field == "memory_fraction" and isinstance(value, (int, float)):
            flag = SHARE_FLAGS.get(str(data.get("engine") or ""), t.pick(FIELD_LABELS, field))
            parts.append(f"{flag} {value:g}")  # as the engine's flag is written: "gpu_memory_utilization 0.8"
            continue
        if field == "layer_split" and isinstance(value, list):
            parts.append("tensor split " + ",".join(f"{share:g}" for share in value))
            continue
        if field == "gpu_layers" and isinstance(value, int):
            parts.append(t("gpu_layers_read", n=value))
            continue
        if field == "cpu_moe_layers" and isinstance(value, int):
            parts.append(t("cpu_moe_all_read") if value >= MAX_GPU_LAYERS else t("cpu_moe_read", n=value))
            continue
        if field == "lora_adapters" and isinstance(value, int):
            parts.append(t("lora_adapter_one") if value == 1 else t("lora_adapters_read", n=f"{value:,}"))
            continue
        if field == "max_loras" and isinstance(value, int):
            flag = slot_rule(str(answer.query.engine or data.get("engine") or "")).flag or "--max-loras"
            parts.append(t("max_loras_read", flag=flag, n=f"{value:,}"))  # "--max-loras 8", as the engine's flag
            continue
        if field == "prefill_chunk":
            if uses_prefill_chunk(data.get("engine")):
                parts.append(t("prefill_chunk_read", n=f"{value:,}"))
            continue
        if field == "draft_model" and isinstance(value, str):
            parts.append(t("draft_read", name=model_name_of(kb, value)))  # speculative decoding's draft
            continue
        if field == "context_parallel" and isinstance(value, int):
            parts.append(t("context_parallel_read", n=f" {value}" if value else ""))
            continue
        if field == "inter_node_gbps" and isinstance(value, (int, float)):
            # a machine's, as people say it; the per-card figure was rounded to 4 decimals (10 Gb/s: 0.1562 GB/s)
            machine = value * 8 * GPUS_PER_NODE
            parts.append(t("network_read", v=f"{machine:,.0f}" if machine >= 100 else f"{machine:.3g}"))
            continue
        if field == "images_per_request" and isinstance(value, int):
            counted = data.get("context") or (named is not None and (named.image_tokens is not None or bool(
                named.vision_encoder and named.vision_encoder.cross_attention)))
            key = "images_per_request_read" if counted else "images_per_request_uncounted"
            if value == 1 and t.lang == "en":
                key = key.replace("images_per_request", "image_per_request")  # "1 image a request"
            if data.get("task") not in (None, "inference"):
                key = key.replace("_request_", "_sample_")  # a fine-tune's images come with each training sample
            parts.append(t(key, n=f"{value:,}"))  # their tokens are in the context only when it is given
            continue
        if field == "more_sequences" and isinstance(value, int):  # "plus 40 more at 2,048"
            length = data.get("more_sequences_context")
            parts.append(t("more_sequences_at_read", n=f"{value:,}", context=f"{length:,}")
                         if isinstance(length, int) else t("more_sequences_read", n=f"{value:,}"))
            continue
        if field == "user_base" and isinstance(value, int):  # "10,000 daily users (a user base, not a load)"
            parts.append(t(f"user_base_read_{data.get('user_base_period') or 'day'}", n=f"{value:,}"))
            continue
        if field in ("more_sequences_context", "user_base_period"):
            continue  # read back with the group's count, with the user base
        if field == "machines":
            if not data.get("gpu_count") and isinstance(value, int):
                parts.append(t("machines_read", n=f"{value:,}"))
            continue  # a thread's machines are its cards' count, read back with the card
        if field == "host_ram_gb" and isinstance(value, (int, float)):
            parts.append(t("host_ram_read", v=f"{value:g}"))
            continue
        if field == "card_bandwidth_gbps" and isinstance(value, (int, float)):
            parts.append(t("card_bandwidth_read", v=f"{value:,.4g}"))
            continue
        if field in ("images_per_minute", "images_per_minute_per_user") and isinstance(value, (int, float)):
            shown = f"{value:,.0f}" if value >= 100 else f"{value:.3g}"  # "1,000", "6.94", "2": never "1e+03"
            parts.append(t(f"{field}_read", v=shown))  # "300 images a minute", "2 images a minute each"
            continue
        if field == "batch" and isinstance(data.get("users"), int) and isinstance(value, int) and data["users"] > value:
            continue  # "20,000 concurrent users" is read back; the batch is only their cap of one job (audit 15 B-L1)
        if field == "batch" and any(a.field == "batch" and a.reason == "image-users" for a in answer.assumptions):
            parts.append(t("image_users_read", n=f"{value:,}"))  # an image service's users share its cards
            continue
        if field == "max_num_seqs":
            flag = "max_batch_size" if data.get("engine") == "tensorrt-llm" else "max_num_seqs"
            parts.append(f"{flag} {value}")
            continue
        if field in ("context", "batch", "kv_cache", "engine_version", "lora_rank", "gen_tokens", "grad_accumulation"):
            text = f"{t.pick(FIELD_LABELS, field)} {text}"
        if text:
            parts.append(text)
    return parts
