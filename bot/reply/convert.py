"""Rules' results → the `Answer` model's parts (rounded, finite, GiB), and the query as the reply states it."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

import rules
from bot.reply.defaults import TOKEN_ARCHS, engine_fine_tune_method
from bot.reply.model import (
    Breakdown,
    CheckOut,
    EstimateOut,
    PickOut,
    Query,
    SuggestionOut,
    host_memory_of,
)
from bot.reply.smalltalk import THANKS
from bot.understand.question import ROLLOUT_ENGINE_NOTE, Question
from bot.understand.slots.engine import OLLAMA_NOTE
from bot.understand.speculative import PREFIX_CACHING_NOTE, SPECULATIVE_UNNAMED_NOTE
from knowledge.schema import GPU
from rules.alternatives import home_gguf_workload
from rules.engine_profile import profile_for, reservation_fraction, reserves_up_front
from rules.types import FitCheck, MemoryEstimate, Pick, Suggestion, Workload


def finite(value: float | None, digits: int = 2) -> float | None:
    if value is None or not math.isfinite(value):
        return None
    return round(value, digits)


def estimate_out(estimate: MemoryEstimate) -> EstimateOut:
    chosen = estimate.chosen or {}
    parts = {key: round(float(estimate.breakdown.get(key, 0.0)), 2) for key in Breakdown.model_fields}
    return EstimateOut(total_gb=round(estimate.total_gib, 2), per_gpu_gb=round(estimate.per_gpu_gib, 2),
                       gpu_count=estimate.gpu_count, breakdown=Breakdown(**parts), notes=list(estimate.notes),
                       host_ram_gb=estimate.host_ram_gib, batch_buffers_gb=_float(chosen.get("batch_buffers_gib")),
                       max_batch_size=_int(chosen.get("max_batch_size")), gpu_layers=_int(chosen.get("gpu_layers")),
                       layer_slots=_int(chosen.get("layer_slots")), cpu_moe_layers=_int(chosen.get("cpu_moe_layers")),
                       host_read_gb_per_token=_float(chosen.get("host_read_gib_per_token")),
                       ram_bound_tokens_per_s=_float(chosen.get("ram_bound_tokens_per_s")),
                       profiled_images=_int(chosen.get("profiled_images")),
                       image_encoder_gb=_float(chosen.get("image_encoder_gib")),
                       draft_gb=_float(chosen.get("draft_gib")),
                       tensor_split=_tensor_split(chosen))


def _tensor_split(chosen: dict[str, object]) -> list[int] | None:
    """The blocks per card of an expert offload over several cards (rules.layer_split.balanced_expert_split)."""
    blocks = chosen.get("card_blocks")
    if not chosen.get("cpu_moe_layers") or chosen.get("gpu_layers") or not isinstance(blocks, list) or len(blocks) < 2:
        return None
    return [int(b) for b in blocks]


def _float(value: object) -> float | None:
    return round(float(value), 2) if isinstance(value, (int, float)) else None


def _int(value: object) -> int | None:
    return int(value) if isinstance(value, int) else None


def pick_out(pick: Pick) -> PickOut:
    """A pick as the Answer carries it; one that cannot hold the job has no speed (it would not run)."""
    runs = pick.fits or pick.tight
    return PickOut(gpu=pick.gpu_id, count=pick.count, fits=pick.fits,
                   memory_per_gpu_gb=round(pick.memory_per_gpu_gib, 2),
                   headroom_gb=round(pick.headroom_gib, 2), free_gb=round(pick.free_gib, 2),
                   decode_tokens_per_s=finite(pick.decode_tokens_per_s, 1) if runs else None,
                   price_per_hour=pick.price_per_hour, price_currency=pick.price_currency,
                   instance=pick.instance, max_concurrent_sequences=pick.max_concurrent_sequences,
                   limit_gb=round(pick.limit_gib, 2), tight=pick.tight,
                   replicas=pick.replicas if pick.replicas > 1 else None)


def suggestion_out(s: Suggestion) -> SuggestionOut:
    return SuggestionOut(kind=s.kind, precision=s.precision, quant=s.quant, task=s.task, gpu=s.gpu_id,
                         count=s.count, context=s.context, batch=s.batch,
                         memory_per_gpu_gb=finite(s.memory_per_gpu_gib), host_ram_gb=s.host_ram_gib,
                         kv_cache=s.kv_cache, gpu_layers=s.gpu_layers, cpu_moe_layers=s.cpu_moe_layers,
                         max_num_seqs=s.max_num_seqs, flash_attention=s.flash_attention, engine=s.engine,
                         optimizer=s.optimizer)


def check_out(check: FitCheck, reserve_fraction: float | None = None) -> CheckOut:
    return CheckOut(
        limit_gb=round(check.limit_gib, 2), tight=check.tight, reserve_fraction=reserve_fraction,
        limit_basis="reservation" if reserve_fraction is not None else "usable",
        gpu=check.gpu_id, count=check.count, fits=check.fits, headroom_gb=round(check.headroom_gib, 2),
        free_gb=round(check.free_gib, 2), unsupported_precision=check.unsupported_precision,
        split_invalid=check.split_invalid, kv_pool_gb=_float(check.kv_pool_gib), sequences_held=check.sequences_held,
        memory_per_gpu_gb=round(check.memory_per_gpu_gib, 2), gpu_memory_gb=round(check.gpu_memory_gib, 2),
        suggestions=[suggestion_out(s) for s in check.suggestions],
    )



def query_of(question: Question, workload: Workload | None, gpu_count: int | None) -> Query:
    return Query(
        model=question.model,
        params_b=(workload.model.params_b if workload is not None else question.params_b),
        task=workload.task if workload else question.task,
        precision=workload.precision if workload else question.precision,
        quant=workload.quant if workload else question.quant,
        engine=(workload.engine if workload.model.arch in TOKEN_ARCHS else None) if workload else question.engine,
        context=(workload.context if workload.model.arch in TOKEN_ARCHS else None) if workload
        else question.context,
        batch=workload.batch if workload else question.batch,
        gpu=question.gpu,
        gpu_count=gpu_count,
        memory_gb=question.memory_gb,
        card_bandwidth_gbps=question.card_bandwidth_gbps,
        cloud=question.cloud,
        budget=question.budget,
        lang=question.lang,
        tokens=question.tokens,
        hours=question.hours,
        subscription=question.subscription,
        daily_batch=question.daily_batch,
        engine_version=workload.engine_version if workload else question.engine_version,
        engine_backend=workload.engine_backend if workload else question.engine_backend,
        kv_cache=workload.kv_cache if workload else None,
        memory_fraction=_memory_fraction(workload),
        max_num_seqs=workload.max_num_seqs if workload else None,
        prefill_chunk=workload.prefill_chunk if workload else None,
        layer_split=list(question.layer_split) if question.layer_split else None,
        gpu_set=list(question.gpu_set),
        gpu_layers=workload.gpu_layers if workload else None,
        cpu_moe_layers=workload.cpu_moe_layers if workload else None,
        image_resolution=_image_resolution(workload),
        image_steps=workload.image_steps if workload else None,
        text_encoders=_text_encoders(workload),
        host_memory=host_memory_of(question.host_ram, question.host_ram_gb),
    )


def _text_encoders(workload: Workload | None) -> str | None:
    if workload is None or workload.model.arch != "diffusion" or workload.task == "inference":
        return None
    return workload.text_encoders or "cached"


def _image_resolution(workload: Workload | None) -> int | None:
    if workload is None or workload.model.arch != "diffusion":
        return None
    return workload.image_resolution or int(workload.model.details.get("native_resolution") or 0) or None


def _memory_fraction(workload: Workload | None) -> float | None:
    if workload is None or not reserves_up_front(workload):
        return None
    return reservation_fraction(workload, profile_for(workload))


def understood_of(question: Question) -> dict[str, Any]:
    """The slots the text stated, plus what the reply needs to show a misreading or a capped number."""
    values = question.model_dump()
    understood = {slot: values.get(slot) for slot in question.stated if slot in values}
    if question.logged_oom:
        understood["logged_oom"] = True
    if question.slow_first_token:
        understood["slow_first_token"] = True
    rollout = next((n.split(":", 1)[1] for n in question.notes if n.startswith(ROLLOUT_ENGINE_NOTE)), None)
    if rollout:
        understood["rollout_engine"] = rollout  # "GRPO with vLLM rollouts": the engine not sized, said up front
    if question.companion_models:
        understood["companion_models"] = list(question.companion_models)  # the pipeline's smaller models
    for note in (SPECULATIVE_UNNAMED_NOTE, PREFIX_CACHING_NOTE):
        if note in question.notes:
            understood[note.replace("-", "_")] = True  # serving features named, said what they change
    if question.logged_progress:
        understood["logged_progress"] = list(question.logged_progress)  # a trainer's bar: its own pace
    if question.logged_queue:
        understood["logged_queue"] = question.logged_queue  # vLLM's metrics: running, pending, KV-cache use
    if question.api_price_per_million:  # what the bill per token is weighed against (cost_view)
        understood.update(api_price_per_million=question.api_price_per_million,
                          api_price_currency=question.api_price_currency)
    if (question.encodes_documents or question.batch_job) and "training_samples" in understood:
        understood["documents"] = understood.pop("training_samples")  # an encoder's job: what it embeds
    if question.task in (None, "inference"):
        for slot in ("training_samples", "training_epochs"):  # "10k samples a day" to serve: not a training job
            understood.pop(slot, None)
    if engine_fine_tune_method(question) is not None:
        understood.pop("task", None)  # "fine-tune" said no method: the engine's own is an assumption, not a reading
    if question.model_text and question.model is None:
        understood["model_text"] = question.model_text
    if question.intent in ("help", "unknown") and THANKS.fullmatch(question.text or ""):
        understood["thanks"] = True  # "谢谢": you're welcome, not "I didn't understand"
    if question.smi_busy:
        understood["smi_busy"] = dict(question.smi_busy)  # a pasted table's cards another job already uses
    if question.logged_kv_tokens:
        understood["logged_kv_tokens"] = question.logged_kv_tokens  # "GPU KV cache size: 85,040 tokens"
    if question.no_gpu:
        understood["no_gpu"] = True
    if question.unknown_gpu_text:
        understood["unknown_gpu_text"] = question.unknown_gpu_text
    if question.unmodelled_engine:
        understood["unmodelled_engine"] = question.unmodelled_engine
    if question.shared_memory_stated is not None:
        understood["shared_memory_stated"] = question.shared_memory_stated  # "Jetson AGX Orin 32GB": sized at 30
    if question.engine_not_on_card is not None:
        understood["engine_not_on_card"] = question.engine_not_on_card  # TensorRT-LLM on a Radeon: sized with vLLM
    if question.gguf_server is not None:
        understood["gguf_server"] = question.gguf_server  # "GGUF Q8_0 on vLLM": sized as llama.cpp, said why
    if question.no_such_variant is not None:
        understood["no_such_variant"] = question.no_such_variant  # "RTX 4090 Ti": no such card, sized as the 4090
    if question.asks_spot:
        understood["asks_spot"] = True  # "how much does spot save?": bot.reply.spot
    if question.asks_running_cost:
        understood["asks_running_cost"] = True  # "cheaper to run 24/7": an owned machine's power (owned_running)
    if question.asks_overflow:
        understood["asks_overflow"] = True  # "will it spill?": "Yes" would read as "it spills"
    if question.asks_concurrency:
        understood["asks_concurrency"] = True  # "能支持几个并发": a count the reply must give even when it is none
    if question.family_release:
        understood["family_release"] = True  # "which gpu for whisper?": sized as Whisper large-v3, said so
    if question.assumed_model:
        understood["assumed_model"] = True  # "转写 500 小时会议录音": sized as Whisper, said so
    if question.derived_name is not None:
        understood["derived_name"] = question.derived_name  # "openhermes-2.5-mistral-7b": sized as Mistral 7B
    if question.claimed_memory_gb is not None:
        understood["claimed_memory_gb"] = question.claimed_memory_gb  # "the 4090 has 48GB right?": it has 24
    if question.modified_card:
        understood["modified_card"] = question.modified_card  # "2080Ti 22G": that card's speed at the memory stated
    if question.engine == "llama.cpp" and OLLAMA_NOTE in question.notes:
        understood["runner"] = "ollama"  # llama.cpp as Ollama runs it: its defaults, and none of llama.cpp's flags
    if question.other_jobs:
        understood["other_jobs"] = list(question.other_jobs)
    if question.clamped:
        understood["clamped"] = list(question.clamped)
        if question.clamped_asked:
            understood["clamped_asked"] = dict(question.clamped_asked)
    if question.task in (None, "inference"):
        for target in ("qps", "tokens_per_s_per_user", "prompt_tokens_per_s", "output_tokens_per_s", "ttft_s",
                       "latency_s"):
            if getattr(question, target) is not None:
                understood[target] = getattr(question, target)
    return understood


TRAINING_FIXES = frozenset({"smaller-batch", "lora", "qlora", "zero3", "checkpointing", "optimizer-8bit",
                            "shorter-context"})
"""Training fixes that keep the cards asked about: each is timed on them for the question's tokens."""


def with_suggestion_speeds(check: CheckOut, workload: Workload, gpu: GPU, count: int,
                           tokens: float | None = None) -> CheckOut:
    """The check with each quantised alternative on its own cards timed: a smaller format also decodes faster
    (fewer bytes read a token), which is half of what someone weighing a quantisation asks; for a training job with
    its tokens, each fix on the same cards with the hours they then take (audit 30 LOW-128: "训练 1 亿 token 要多久"
    after the user's 2× 4090 gave times for other cards only)."""
    if workload.task != "inference" and tokens:
        timed_fixes = []
        for s in check.suggestions:
            if s.kind in TRAINING_FIXES and s.gpu is None and s.count in (None, count) and rules.compute_known(gpu):
                alt = replace(workload, batch=s.batch or workload.batch, context=s.context or workload.context,
                              task=s.task or workload.task, zero_stage=3 if s.kind == "zero3" else workload.zero_stage,
                              optimizer=s.optimizer or workload.optimizer,  # type: ignore[arg-type]
                              gradient_checkpointing=True if s.kind == "checkpointing" else
                              workload.gradient_checkpointing)
                hours = rules.training_hours(alt, gpu, count, tokens)
                s = s.model_copy(update={"train_hours": finite(hours, 1)}) if hours else s
            timed_fixes.append(s)
        return check.model_copy(update={"suggestions": timed_fixes})
    if workload.task != "inference" or not rules.bandwidth_known(gpu):
        return check  # a card known only by its memory (or a Mac's share of it) has no bandwidth to time it at
    timed = []
    for s in check.suggestions:
        if s.kind == "quantise" and s.gpu is None and s.count is None and s.precision is not None:
            # the GGUF a GeForce card runs at home is the one suggestion on another engine (rules.alternatives)
            alt = home_gguf_workload(workload) if s.engine == "llama.cpp" else replace(
                workload, precision=s.precision, quant=s.quant)
            speed = rules.estimate_speed(alt, gpu, count).decode_tokens_per_s
            s = s.model_copy(update={"decode_tokens_per_s": finite(speed, 1)}) if speed else s
        elif s.kind == "shorter-context" and s.gpu is None and s.count is None and s.context:
            # the user's own card and format at a length it holds: the speed asked of that set-up (audit 38 M-152:
            # "q4km on a 4090, what's the tok/s, can I do 128k?" gave a speed for Q2_K and an A6000 only)
            speed = rules.estimate_speed(replace(workload, context=s.context), gpu, count).decode_tokens_per_s
            s = s.model_copy(update={"decode_tokens_per_s": finite(speed, 1)}) if speed else s
        timed.append(s)
    return check.model_copy(update={"suggestions": timed})

