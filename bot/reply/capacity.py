"""Answers that size many models at once: "what can this card run" (capacity) and model-vs-model comparison."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any, cast

import rules
from bot.reply.convert import finite
from bot.reply.defaults import DEFAULT_CONTEXT, MAX_INFERENCE_GPUS, workload_for
from bot.reply.format_choice import formats_to_weigh
from bot.reply.model import (
    CapacityOut,
    CheckOut,
    MaxContextOut,
    ModelCompareOut,
)
from bot.reply.ollama_defaults import machine_vram_gib
from bot.reply.pool import as_candidate
from bot.understand.question import MAX_CONTEXT, Question
from bot.understand.slots.engine import named_engine
from bot.understand.slots.formats import FORMATS
from knowledge.base import KnowledgeBase
from knowledge.schema import GPU, Model
from rules.fit import as_chosen
from rules.hardware import UNKNOWN_BANDWIDTH_GBPS, gpu_share_of_unified_memory
from rules.memory import is_transformer
from rules.memory_common import kv_layers
from rules.search import largest_true
from rules.speed import kv_read_bytes_per_token, tensor_parallel
from rules.types import MemoryEstimate, Pick, Precision, Workload

GENERIC_GPU_PREFIX = "memory-"
CAPACITY_LADDER_B = (0.5, 1.0, 1.5, 3.0, 4.0, 7.0, 8.0, 9.0, 13.0, 14.0, 20.0, 27.0, 32.0, 34.0, 46.7, 70.0,
                     72.0, 110.0, 123.0, 180.0, 235.0, 405.0, 671.0, 1000.0)
"""Model sizes the capacity answer steps through: the sizes open models are actually released in."""
CAPACITY_JOBS: tuple[tuple[str, Precision], ...] = (
    ("inference", "bf16"), ("inference", "int8"), ("inference", "int4"), ("lora", "bf16"), ("qlora", "int4"))


UNIFIED_GPU_PREFIX = "unified-"


def memory_card_id(memory_gb: float, unified: bool) -> str:
    """The id of the card a question gives only by its memory: a Mac's unified memory, or a generic card's."""
    return f"{UNIFIED_GPU_PREFIX if unified else GENERIC_GPU_PREFIX}{memory_gb:g}gb"


def memory_of_card_id(gpu_id: str) -> tuple[float, bool] | None:
    """(memory GB, whether it is a Mac's unified memory) of a `memory_card_id`, else None."""
    for prefix, unified in ((UNIFIED_GPU_PREFIX, True), (GENERIC_GPU_PREFIX, False)):
        if gpu_id.startswith(prefix):
            return float(gpu_id.removeprefix(prefix).removesuffix("gb")), unified
    return None


def unified_memory_gpu(memory_gb: float) -> GPU:
    """A Mac known by its unified memory ("M2 Max 64GB"): a card of the part macOS lets the GPU use, and the only
    one the machine has; its speed comes from its chip's bandwidth when the chip is named (bot.reply.answer)."""
    share = gpu_share_of_unified_memory(memory_gb)
    return GPU(id=memory_card_id(memory_gb, True), name=f"Mac with {memory_gb:g} GB unified memory",
               vendor="generic", memory_gb=round(memory_gb * share, 1), bandwidth_gbps=UNKNOWN_BANDWIDTH_GBPS,
               form="consumer",
               max_per_machine=1, unified_memory=True,
               source=["the question: a Mac's unified memory; macOS's GPU share (rules.hardware)"])


def generic_gpu(memory_gb: float, bandwidth_gbps: float | None = None) -> GPU:
    """A card known only by its memory ("is 24GB enough"): fit can be judged, speed cannot, unless its memory
    bandwidth is stated too ("16GB, 448 GB/s"), which bounds one sequence's decode."""
    source = "the question: memory and memory bandwidth stated without a card" if bandwidth_gbps \
        else "the question: memory stated without a card"
    return GPU(id=memory_card_id(memory_gb, False), name=f"{memory_gb:g} GB GPU", vendor="generic",
               memory_gb=memory_gb, bandwidth_gbps=bandwidth_gbps or UNKNOWN_BANDWIDTH_GBPS, form="datacenter",
               source=[source])


def memory_card(question: Question, kb: KnowledgeBase) -> GPU:
    """The card a question gives only by its memory: a Mac's GPU share of its unified memory, a modified card
    ("2080Ti 22G") with the stock card's bandwidth and compute at the memory stated, else a generic card."""
    assert question.memory_gb
    if question.unified_memory:
        return unified_memory_gpu(question.memory_gb)
    base = kb.gpus.get(question.modified_card or "")
    if base is not None:
        return base.model_copy(update={"id": memory_card_id(question.memory_gb, False), "memory_gb": question.memory_gb,
                                       "name": f"{base.name} {question.memory_gb:g}GB (modified)"})
    return generic_gpu(question.memory_gb, question.card_bandwidth_gbps)


EXAMPLE_REACH = 1.25
"""Example models are looked for up to this many times the generic ladder's size (each is checked itself)."""
EXAMPLE_BAND = 0.75
"""Examples come from the models within this share of the largest that fits, newest first."""


def capacity(question: Question, gpu: GPU, count: int, kb: KnowledgeBase) -> list[CapacityOut]:
    """Largest generic model that fits per job kind (4k context, batch 1), by bisection on the ladder."""
    context = question.context or DEFAULT_CONTEXT
    jobs = [job for job in CAPACITY_JOBS if question.task in (None, job[0]) or
            (question.task == "train" and job[0] in ("lora", "qlora"))] or list(CAPACITY_JOBS)
    if question.task == "train":
        # the job asked first: a full fine-tune's states sharded over the cards (audit 30 M-75: only LoRA and
        # QLoRA were given for "the biggest model we can full fine-tune")
        jobs = [("train", "bf16"), *jobs]
    out: list[CapacityOut] = []
    shown: set[str] = set()
    asked = as_candidate(gpu)
    for task, precision in jobs:
        def holds(model: Any, task: str = task, precision: Precision = precision) -> bool:
            workload = Workload(model=model, task=task, precision=precision,  # type: ignore[arg-type]
                                quant="nf4-dq" if task == "qlora" else ("gptq" if precision == "int4" else None),
                                context=min(context, model.max_context or context), batch=question.batch or 1)
            picks = rules.rank_picks(workload, [asked], limit=1, fixed_count=count,
                                     max_count=max(count, MAX_INFERENCE_GPUS))
            return bool(picks) and picks[0].fits

        def fits(size: float, holds: Callable[[Any], bool] = holds) -> bool:
            return holds(rules.generic_model(size))

        def fits_step(i: int, fits: Callable[[float], bool] = fits) -> bool:
            return fits(CAPACITY_LADDER_B[i])

        step = largest_true(fits_step, 0, len(CAPACITY_LADDER_B) - 1)
        best = CAPACITY_LADDER_B[step] if step >= 0 else None
        examples: list[str] = []
        if best is not None:
            # the largest real models that fit (each checked: their cache and vocabulary differ from the generic
            # model's, so a 14B may fit where the generic ladder stops at 13B), one a family, none twice
            near = sorted((m for m in kb.models.values() if m.arch == "decoder" and m.moe is None
                           and 0.5 * best <= m.params_b <= EXAMPLE_REACH * best and m.id not in shown),
                          key=lambda m: m.params_b, reverse=True)
            fitting = [m for m in near if holds(m)]
            top = fitting[0].params_b if fitting else 0.0
            # the newest of those near the largest that fit, one a maker
            recent = sorted((m for m in fitting if m.params_b >= EXAMPLE_BAND * top),
                            key=lambda m: (m.release or "", m.params_b), reverse=True)
            makers: set[str] = set()
            for m in recent:
                if m.org not in makers:
                    makers.add(m.org)
                    examples.append(m.id)
                if len(examples) == 3:
                    break
            shown.update(examples)
        out.append(CapacityOut(task=task, precision=precision, max_params_b=best,
                               examples=examples))
    return out


def _top_pick(job: Workload, question: Question, gpu: GPU | None, pool: list[GPU], instances: list[Any],
              max_count: int, priced: Callable[[GPU, int], float | None] | None = None) -> tuple[Pick | None, int]:
    """One row of a side-by-side: the first pick for `job` on the named card (else the pool), and its count."""
    picks = rules.rank_picks(job, [gpu] if gpu else pool, instances, limit=1, budget=question.budget,
                             max_count=max_count, fixed_count=question.gpu_count, hourly_price_of=priced)
    top = picks[0] if picks else None
    return top, top.count if top else (question.gpu_count or 1)


def compare_models(question: Question, workload: Workload, kb: KnowledgeBase, pool: list[GPU],
                    instances: list[Any], max_count: int) -> list[ModelCompareOut]:
    """The same job for each model compared, on the named card (a Mac's unified memory too: "Mac mini M4 Pro 48GB:
    gpt-oss-20b or Qwen3-30B-A3B" had been compared on NVIDIA cards; audit 27 M-39) or each model's own top pick."""
    gpu = kb.gpus.get(question.gpu or "") or (memory_card(question, kb) if question.memory_gb else None)
    rows: list[ModelCompareOut] = []
    for model_id in question.compare_models[:4]:
        model = kb.models.get(model_id)
        if model is None:
            continue
        context = min(workload.context, model.max_context or workload.context)
        job = replace(workload, model=model, context=context)
        if "precision" not in question.stated and "quant" not in question.stated:
            # each model in the format it is released in, not the first one's (audit 34 M-125: Qwen3-30B-A3B
            # was compared in gpt-oss-20b's MXFP4, "fits an L4" at 4 bits with no format shown)
            asked = question.model_copy(update={"model": model.id})
            own, _ = workload_for(asked, model, gpu, machine_vram_gib(asked, gpu, None))
            job = replace(job, precision=own.precision, quant=own.quant)
        top, count = _top_pick(job, question, gpu, pool, instances, max_count)
        estimate = rules.estimate_memory(job, count, kb.gpus.get(top.gpu_id) if top and
                                         job.engine == "vllm" else None)
        decode = finite(top.decode_tokens_per_s, 1) if top else None
        if top is not None and gpu is not None and gpu.unified_memory and gpu.id not in kb.gpus:
            # a Mac's speed is its chip's bandwidth read by llama.cpp's Metal back end, not the card placeholder's
            from bot.reply.side_figures import mac_speed
            decode = mac_speed(question, as_chosen(job, estimate.chosen), gpu, top.fits, kb).get(
                "decode_tokens_per_s")
        # the model's own need, not the share of the card a serving engine reserves (vLLM's "137 GiB" on an
        # H200 for either model; audit 28 M-53, as audit 26 M-34 for formats)
        need = estimate.required_per_gpu_gib or estimate.per_gpu_gib
        rows.append(ModelCompareOut(model=model.id, total_gb=round(need * count, 2),
                                    per_gpu_gb=round(need, 2),
                                    gpu=top.gpu_id if top else None, count=count,
                                    fits=top.fits if top else None,
                                    decode_tokens_per_s=decode,
                                    max_concurrent_sequences=top.max_concurrent_sequences if top and top.fits else None,
                                    fix=_quantised_fit(job, gpu, count, instances) if gpu and top and not top.fits
                                    else None, **_audio_job(question, job, top, count, kb)))
    return rows


def _audio_job(question: Question, job: Workload, top: Pick | None, count: int,
               kb: KnowledgeBase) -> dict[str, Any]:
    """A speech model's run over the recorded hours asked, on its row's cards, at the batched rate the job line
    uses, and its bill when the cards are priced (audit 25 M-31: only the first model was timed)."""
    from bot.reply.formatting import rounded_hours  # formatting reads this module's card names
    from bot.reply.media_figures import recorded_audio_hours
    from bot.reply.pricing import plan_for, price_choice

    gpu = kb.gpus.get(top.gpu_id) if top is not None and top.fits else None
    if gpu is None or job.model.modality != "audio" or not question.audio_hours or question.audio_per_day:
        return {}
    run = recorded_audio_hours(job, gpu, count, question.audio_hours)
    if run is None:
        return {}
    hours = rounded_hours(run)
    plan = plan_for(kb, gpu.id, count, price_choice(question))
    return {"job_hours": hours, "job_cost": round(hours * plan.per_hour, 2) if plan is not None else None,
            "job_currency": plan.currency if plan is not None else None}


def _quantised_fit(job: Workload, gpu: GPU, count: int, instances: list[Any]) -> dict[str, Any] | None:
    """The first quantisation the check offers that fits `count` × `gpu` as they are, or None."""
    check = rules.check_fit(job, gpu, count, instances)
    fix = next((s for s in check.suggestions if s.kind == "quantise" and s.gpu_id is None and s.count is None
                and s.precision is not None), None)
    if fix is None or fix.memory_per_gpu_gib is None:
        return None
    return {"precision": fix.precision, "quant": fix.quant, "per_gpu_gb": round(fix.memory_per_gpu_gib, 2)}


def compare_methods(question: Question, model: Model, kb: KnowledgeBase, pool: list[GPU], instances: list[Any],
                    max_count: int, priced: Callable[[GPU, int], float | None] | None = None) -> list[ModelCompareOut]:
    """Each training method compared, in its own usual set-up (16-bit for a full fine-tune and LoRA, an NF4 base
    for QLoRA), on the named card or the method's own top pick."""
    gpu = kb.gpus.get(question.gpu or "")
    rows: list[ModelCompareOut] = []
    for task in question.compare_tasks:
        asked = question.model_copy(update={"task": task, "precision": None, "quant": None})
        job, _ = workload_for(asked, model, gpu, machine_vram_gib(asked, gpu, None))
        top, count = _top_pick(job, question, gpu, pool, instances, max_count, priced)
        estimate = rules.estimate_memory(job, count, kb.gpus.get(top.gpu_id) if top else gpu)
        rows.append(ModelCompareOut(model=model.id, task=task, total_gb=round(estimate.total_gib, 2),
                                    per_gpu_gb=round(estimate.per_gpu_gib, 2), gpu=top.gpu_id if top else None,
                                    count=count, fits=top.fits if top else None))
    return rows


def compare_formats(question: Question, model: Model, kb: KnowledgeBase, pool: list[GPU], instances: list[Any],
                    max_count: int, priced: Callable[[GPU, int], float | None] | None = None) -> list[ModelCompareOut]:
    """Each weight format set side by side ("AWQ, GPTQ or FP8 — which one fits?") on the named cards, or the
    format's own top pick, at the job's other settings."""
    gpu = kb.gpus.get(question.gpu or "")
    rows: list[ModelCompareOut] = []
    asked_formats = [question.model_copy(update={"precision": FORMATS[name][0], "quant": FORMATS[name][1]})
                     for name in question.compare_formats]
    engines = {workload_for(asked, model, gpu, machine_vram_gib(asked, gpu, None))[0].engine
               for asked in asked_formats}
    ggufs = [str(FORMATS[name][1] or "").startswith("gguf") for name in question.compare_formats]
    # the engine a GGUF implies (llama.cpp) is no choice made for the other formats
    own_engines = any(ggufs) and not all(ggufs) and named_engine(question.text) is None
    if own_engines:
        # a GGUF file runs on llama.cpp and AWQ/GPTQ checkpoints on vLLM's kernels: each row on its own engine,
        # said in the row (audit 30 LOW-131: all three were timed on llama.cpp, which runs neither AWQ nor GPTQ)
        asked_formats = [asked.model_copy(update={"engine": "llama.cpp" if (asked.quant or "").startswith("gguf")
                                                  else "vllm"}) for asked in asked_formats]
    elif question.engine is None and len(engines) > 1:
        # one format runs only on a serving engine here (FP8 on an A100: vLLM's weight-only kernels): the others
        # are timed on it too, or the comparison is of engines, not formats ("FP8 3.3× faster" than bf16 in
        # transformers)
        common = "vllm" if "vllm" in engines else sorted(engines)[0]
        asked_formats = [asked.model_copy(update={"engine": common}) for asked in asked_formats]
    counts = question.compare_format_counts
    for name, asked in zip(question.compare_formats, asked_formats, strict=True):
        if name in counts:
            asked = asked.model_copy(update={"gpu_count": counts[name]})  # "the FP8 release on 8x B200"
        job, _ = workload_for(asked, model, gpu, machine_vram_gib(asked, gpu, None))
        top, count = _top_pick(job, asked, gpu, pool, instances, max_count, priced)
        estimate = rules.estimate_memory(job, count, kb.gpus.get(top.gpu_id) if top else gpu)
        # the format's own need, not the share of the card a serving engine reserves (FP8 and AWQ both read
        # "152 GiB" on 2 H100s: vLLM's reservation; audit 26 M-34), and the sequences each holds there
        need = estimate.required_per_gpu_gib or estimate.per_gpu_gib
        rows.append(ModelCompareOut(model=model.id, format=name, engine=job.engine if own_engines else None,
                                    total_gb=round(need * count, 2),
                                    per_gpu_gb=round(need, 2), gpu=top.gpu_id if top else None,
                                    count=count, fits=top.fits if top else None,
                                    decode_tokens_per_s=finite(top.decode_tokens_per_s, 1) if top else None,
                                    max_concurrent_sequences=top.max_concurrent_sequences if top else None))
    return rows


def side_by_side(question: Question, workload: Workload, estimate: MemoryEstimate, picks: list[Pick],
                 kb: KnowledgeBase, pool: list[GPU], instances: list[Any], max_count: int,
                 priced: Callable[[GPU, int], float | None] | None) -> list[ModelCompareOut]:
    """The models compared, or the training methods compared, each on its own pick; the method the rest of the
    reply sizes is shown with that reply's own figures (`estimate`, its first pick), not a second ranking's."""
    if question.intent == "compare" and len(question.compare_models) > 1:
        return compare_models(question, workload, kb, pool, instances, max_count)
    if len(question.compare_formats) >= 2:
        return compare_formats(question, workload.model, kb, pool, instances, max_count, priced)
    weighed = formats_to_weigh(question, workload.model, kb.gpus.get(question.gpu or ""))
    if weighed is not None:
        return compare_formats(weighed, workload.model, kb, pool, instances, max_count, priced)
    if len(question.compare_tasks) < 2:
        return []
    rows = compare_methods(question, workload.model, kb, pool, instances, max_count, priced)
    if not picks:
        return rows
    # the per-card figure is the first pick's own: the estimate may describe other cards (the 4× 4090 box asked
    # about, when the first pick is the 8× A100 it is compared with)
    top = picks[0]
    same = abs(top.memory_per_gpu_gib - estimate.per_gpu_gib) < 0.05
    own = {"total_gb": round(estimate.total_gib if same else top.memory_per_gpu_gib * top.count, 2),
           "per_gpu_gb": round(top.memory_per_gpu_gib, 2), "gpu": top.gpu_id, "count": top.count, "fits": top.fits}
    return [r.model_copy(update=own) if r.task == workload.task else r for r in rows]


def longer_window_release(kb: KnowledgeBase | None, model: Model) -> str | None:
    """The release of the same model with a longer window (Yi-34B-200K beside Yi-34B's 4,096): asked for the
    longest context, the window that caps the answer may be this release's only (audit 30 LOW-124). The same
    shape (family, modality, layers, width, KV heads, parameters) under the same name with a suffix is what makes it
    the same model: a namesake of another generation (ChatGLM2 beside ChatGLM3) or purpose (a coder, an embedder)
    is not."""
    if kb is None or model.max_context is None:
        return None

    def shape(m: Model) -> tuple[object, ...]:
        return (m.family, m.modality, m.arch, m.num_layers, m.hidden_size, m.num_kv_heads, m.params_b)

    stem = model.name.lower()
    longer = [m for m in kb.models.values()
              if m.id != model.id and shape(m) == shape(model) and (m.max_context or 0) > model.max_context
              and m.name.lower().startswith(stem) and m.name[len(stem):len(stem) + 1] in ("-", " ")]
    return max(longer, key=lambda m: (m.max_context or 0, m.id)).id if longer else None


def max_context_out(question: Question, workload: Workload, gpu: GPU | None, count: int,
                    check: CheckOut | None = None, kb: KnowledgeBase | None = None) -> MaxContextOut | None:
    """"The max context on this card": the longest context the job fits `count` × `gpu`, searched up to the model's
    own window (beyond it needs RoPE scaling, which the question did not ask for)."""
    if not question.asks_max_context or gpu is None or not is_transformer(workload.model):
        return None
    window = workload.model.max_context
    tokens = rules.longest_context(workload, gpu, count, window or MAX_CONTEXT)
    fix = None
    if tokens is None and check is not None:
        # nothing fits as asked: the longest context with the check's first quantised fix on the same cards, the
        # number asked for rather than none (audit 18 M-9)
        fix = next((s for s in check.suggestions if s.kind == "quantise" and s.gpu is None and s.count is None
                    and s.precision is not None and s.engine is None), None)
        if fix is not None:
            workload = replace(workload, precision=cast(Precision, fix.precision), quant=fix.quant)
            tokens = rules.longest_context(workload, gpu, count, window or MAX_CONTEXT)
    # per card: tensor parallel splits the KV heads (each card keeps a whole head when there are fewer heads than
    # cards, and the whole MLA latent); a layer split divides the layers (audit 38 M-146: 94 KiB ÷ 8 said 12 KiB a
    # card for Qwen3-235B's 4 KV heads on 8 cards, where each card holds 23.5)
    split = tensor_parallel(workload.engine)
    per_token = (kv_read_bytes_per_token(workload, count if split else 1) / (1 if split else max(1, count))
                 if workload.task == "inference" else 0.0)
    details, layers = workload.model.details, kv_layers(workload.model)
    full = int(details.get("full_kv_layers") or details.get("full_attention_layers") or 0)
    if 0 < full < layers:
        # hybrid attention: past its window or chunk, a token adds only the full-attention layers' keys and values
        # (Llama 4 Scout: 12 of 48 layers, 48 KiB rather than 192; audit 26 LOW-57)
        per_token *= full / layers
    return MaxContextOut(gpu=gpu.id, count=count, tokens=tokens, window=window,
                         kv_kib_per_token=round(per_token / 1024, 1),
                         precision=fix.precision if fix is not None and tokens else None,
                         quant=fix.quant if fix is not None and tokens else None,
                         longer_release=longer_window_release(kb, workload.model)
                         if window and tokens and tokens >= window else None)
