"""The one answer pipeline: `Question` → `Answer`. Every front end (ask, console, Slack) calls `answer()`.

It fills the slots the question left open with stated defaults, asks the rules for an estimate, the
ranked picks and (for "can X run on Y") the fit check, and attaches the FAQ entries the situation calls
for. It produces data only; the words come from the templates in `bot/render.py`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import rules
from bot.reply.model import (
    Answer,
    Assumption,
    Breakdown,
    CapacityOut,
    CheckOut,
    EstimateOut,
    ModelCompareOut,
    PickOut,
    Query,
    SuggestionOut,
)
from bot.reply.overrides import QUANT_PRECISION, apply_overrides
from bot.understand.question import Question
from knowledge.base import KnowledgeBase
from knowledge.loader import default_knowledge
from knowledge.schema import GPU, Model
from rules.types import FitCheck, MemoryEstimate, Pick, Precision, Workload

DEFAULT_CONTEXT = 4096
"""Tokens per sequence when the question gives none: a typical chat turn with history, not the model's
full advertised window (assuming the full window is a common calculator mistake: design.md)."""
DEFAULT_BATCH = 1
DEFAULT_PRECISION: Precision = "bf16"
FALLBACK_PRECISION_NO_BF16: Precision = "fp16"
"""Cards before Ampere (T4, V100, P100) have no bf16 tensor cores; fp16 is what runs there."""
MAX_PICKS = 5
MAX_INFERENCE_GPUS = 8
"""Tensor parallelism stays inside one 8-GPU node; beyond that the reply says nothing fits as asked."""
MAX_TRAINING_GPUS = 512
"""ZeRO/FSDP data parallelism scales across nodes; 512 cards covers a 405B full fine-tune."""
REPORTED_CHOICES = ("zero_stage", "gradient_checkpointing", "lora_rank", "optimizer", "gpu_memory_utilization")
"""Choices the rules make for the user that change the figure and so are stated in the reply."""
MAX_FAQ = 2
LONG_CONTEXT_TOKENS = 16384
"""From here on the KV cache, not the weights, is what decides the card: the reply explains it."""

SOURCE_NOTE = "sizing rules (rules/); GPU and model facts from knowledge/data with per-entry sources"


def _bf16_capable(gpu: GPU | None) -> bool:
    return gpu is None or gpu.bf16_tflops is not None or gpu.vendor == "generic"


def _resolve_model(question: Question, kb: KnowledgeBase) -> Model | None:
    if question.model is not None:
        return kb.models.get(question.model)
    if question.params_b is not None:
        return rules.generic_model(question.params_b)
    return None


DEFAULT_POOL_FORMS = ("datacenter", "workstation")
DEFAULT_POOL_VENDORS = ("NVIDIA",)


def _candidate_gpus(question: Question, kb: KnowledgeBase) -> tuple[list[GPU], bool]:
    """The cards to rank, and whether the default pool was narrowed (the reply says so).

    By default: NVIDIA datacenter and workstation cards, which is what a team renting or buying for ML
    work chooses between. Consumer cards join when the question asks for the cheapest option or names a
    consumer card; other vendors when one is named; on Alibaba Cloud, the cards its instances carry.
    """
    gpus = [gpu for gpu in kb.gpus.values() if gpu.recommended]
    if question.cloud == "alibaba":
        offered = {family.gpu_id for family in kb.instance_families.values() if family.gpu_id}
        on_cloud = [gpu for gpu in gpus if gpu.id in offered]
        if on_cloud:
            return on_cloud, False
    named = [kb.gpus[g] for g in [question.gpu, *question.compare_gpus] if g and g in kb.gpus]
    forms = set(DEFAULT_POOL_FORMS) | ({"consumer"} if question.budget else set()) | {g.form for g in named}
    vendors = set(DEFAULT_POOL_VENDORS) | {g.vendor for g in named}
    pool = [gpu for gpu in gpus if gpu.form in forms and gpu.vendor in vendors]
    return (pool or gpus), len(pool) < len(gpus)


def _workload(question: Question, model: Model, gpu: GPU | None) -> tuple[Workload, list[Assumption]]:
    assumptions: list[Assumption] = []
    task = question.task
    if task is None:
        task = "inference"
        assumptions.append(Assumption(field="task", value=task))
    precision = question.precision
    if precision is None and question.quant:
        implied = QUANT_PRECISION.get(question.quant)
        precision = implied if implied in ("int4", "int8") else None  # type: ignore[assignment]
    if precision is None:
        if task == "qlora":
            precision = "int4"
            assumptions.append(Assumption(field="precision", value="nf4", reason="qlora-base"))
        else:
            precision = DEFAULT_PRECISION if _bf16_capable(gpu) else FALLBACK_PRECISION_NO_BF16
            assumptions.append(
                Assumption(field="precision", value=precision,
                           reason="default" if precision == DEFAULT_PRECISION else "no-bf16-on-gpu")
            )
    if task == "train" and precision in ("int4", "int8"):
        # Quantised weights cannot be trained directly (LoRA on a k-bit base can: that stays as asked).
        precision = DEFAULT_PRECISION if _bf16_capable(gpu) else FALLBACK_PRECISION_NO_BF16
        assumptions.append(Assumption(field="precision", value=precision, reason="train-needs-16bit"))
    quant = question.quant if (task in ("inference", "qlora") or precision in ("int4", "int8")) else None
    if quant is None and precision == "int4" and task != "qlora":
        quant = "gptq" if (question.engine or "transformers") != "llama.cpp" else "gguf-q4_k_m"
        assumptions.append(Assumption(field="quant", value=quant))
    if task == "qlora":
        quant = quant or "nf4"
    engine = question.engine
    batch_stated = question.batch
    if engine is None:
        # Several concurrent users means a serving engine; one prompt at a time is what a notebook does.
        engine = "vllm" if (task == "inference" and model.arch == "decoder" and (batch_stated or 1) > 1) \
            else "transformers"
        if task == "inference" and model.arch == "decoder":
            assumptions.append(Assumption(field="engine", value=engine,
                                          reason="concurrent-serving" if engine == "vllm" else "default"))
    context = question.context
    if context is None:
        native = model.max_context or DEFAULT_CONTEXT
        context = min(DEFAULT_CONTEXT, native)
        if model.arch in TOKEN_ARCHS:
            assumptions.append(
                Assumption(field="context", value=context,
                           reason="default" if context == DEFAULT_CONTEXT else "model-max-context")
            )
    elif model.max_context and context > model.max_context:
        assumptions.append(Assumption(field="context", value=context, reason="beyond-native-context"))
    batch = question.batch
    if batch is None:
        batch = DEFAULT_BATCH
        if model.arch in TOKEN_ARCHS:
            assumptions.append(Assumption(field="batch", value=batch))
    extra: dict[str, Any] = {}
    for key in ("gen_tokens", "zero_stage", "gradient_checkpointing", "optimizer", "flash_attention", "offload",
                "pure_16bit", "train_embeddings"):
        value = getattr(question, key)
        if value is not None:
            extra[key] = value
    if question.lora_rank is not None:
        extra["lora_rank"] = question.lora_rank
    workload = Workload(model=model, task=task, precision=precision, quant=quant, engine=engine,
                        context=context, batch=batch, **extra)
    return workload, assumptions


def _finite(value: float | None, digits: int = 2) -> float | None:
    if value is None or not math.isfinite(value):
        return None
    return round(value, digits)


def _estimate_out(estimate: MemoryEstimate) -> EstimateOut:
    parts = {key: round(float(estimate.breakdown.get(key, 0.0)), 2) for key in Breakdown.model_fields}
    return EstimateOut(total_gb=round(estimate.total_gib, 2), per_gpu_gb=round(estimate.per_gpu_gib, 2),
                       gpu_count=estimate.gpu_count, breakdown=Breakdown(**parts), notes=list(estimate.notes))


def _pick_out(pick: Pick) -> PickOut:
    return PickOut(gpu=pick.gpu_id, count=pick.count, fits=pick.fits,
                   memory_per_gpu_gb=round(pick.memory_per_gpu_gib, 2),
                   headroom_gb=round(pick.headroom_gib, 2), free_gb=round(pick.free_gib, 2),
                   decode_tokens_per_s=_finite(pick.decode_tokens_per_s, 1),
                   price_per_hour=pick.price_per_hour, price_currency=pick.price_currency,
                   instance=pick.instance, max_concurrent_sequences=pick.max_concurrent_sequences)


def _check_out(check: FitCheck) -> CheckOut:
    return CheckOut(
        gpu=check.gpu_id, count=check.count, fits=check.fits, headroom_gb=round(check.headroom_gib, 2),
        free_gb=round(check.free_gib, 2),
        memory_per_gpu_gb=round(check.memory_per_gpu_gib, 2), gpu_memory_gb=round(check.gpu_memory_gib, 2),
        suggestions=[
            SuggestionOut(kind=s.kind, precision=s.precision, quant=s.quant, task=s.task, gpu=s.gpu_id,
                          count=s.count, context=s.context, batch=s.batch,
                          memory_per_gpu_gb=_finite(s.memory_per_gpu_gib))
            for s in check.suggestions
        ],
    )


def _faq_for(question: Question, workload: Workload | None, answer: Answer, kb: KnowledgeBase) -> list[str]:
    """FAQ entries the situation calls for: each situation names a topic, and among the entries tagged
    with it the one that also matches the task (training vs inference) is preferred."""
    wanted: list[str] = []
    if question.faq_hint and question.faq_hint in kb.faq:
        wanted.append(question.faq_hint)
    topics: list[str] = []
    several = bool(answer.picks) and answer.picks[0].count > 1
    if answer.check is not None and not answer.check.fits:
        topics.append("out-of-memory")
    if workload is not None:
        inference = workload.task == "inference"
        if inference and workload.context >= LONG_CONTEXT_TOKENS:
            topics.append("long-context")
        if several:
            topics.append("interconnect" if inference else "parallelism")
        elif not inference:
            topics.append("mixed-precision")
        if workload.precision in ("int4", "int8") and inference:
            topics.append("quantisation")
    if question.budget:
        topics.append("budget")
    if question.cloud == "alibaba":
        topics.append("cloud")
    for gpu_id in {question.gpu, *question.compare_gpus} - {None}:
        gpu = kb.gpus.get(gpu_id or "")
        if gpu is not None and not gpu.recommended:
            names = {name.lower() for name in (gpu.name, *gpu.aliases)}
            for entry in kb.faq.values():
                if entry.id not in wanted and names & {k.lower() for k in entry.keywords}:
                    wanted.insert(0, entry.id)
                    break
    task_topic = "training" if workload is not None and workload.task != "inference" else "inference"
    for topic in topics:
        tagged = [entry for entry in kb.faq.values() if topic in entry.topics and entry.id not in wanted]
        if tagged:
            best = max(tagged, key=lambda entry: (entry.topics[0] == topic, task_topic in entry.topics,
                                                  -len(entry.topics)))
            wanted.append(best.id)
    return wanted[: MAX_FAQ + (1 if question.faq_hint else 0)]


def _query(question: Question, workload: Workload | None, gpu_count: int | None) -> Query:
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
        cloud=question.cloud,
        budget=question.budget,
        lang=question.lang,
    )


def _understood(question: Question) -> dict[str, Any]:
    """The slots the text stated, plus what the reply needs to show a misreading or a capped number."""
    values = question.model_dump()
    understood = {slot: values.get(slot) for slot in question.stated if slot in values}
    if question.model_text and question.model is None:
        understood["model_text"] = question.model_text
    if question.clamped:
        understood["clamped"] = list(question.clamped)
    return understood


TOKEN_ARCHS = ("decoder", "encoder", "encoder-decoder")
"""Architectures whose memory depends on a context length in tokens (not images)."""
GENERIC_GPU_PREFIX = "memory-"
CAPACITY_LADDER_B = (0.5, 1.0, 1.5, 3.0, 4.0, 7.0, 8.0, 9.0, 13.0, 14.0, 20.0, 27.0, 32.0, 34.0, 46.7, 70.0,
                     72.0, 110.0, 123.0, 180.0, 235.0, 405.0, 671.0, 1000.0)
"""Model sizes the capacity answer steps through: the sizes open models are actually released in."""
CAPACITY_JOBS: tuple[tuple[str, Precision], ...] = (
    ("inference", "bf16"), ("inference", "int8"), ("inference", "int4"), ("lora", "bf16"), ("qlora", "int4"))


def generic_gpu(memory_gb: float) -> GPU:
    """A card known only by its memory ("is 24GB enough"): fit can be judged, speed cannot."""
    return GPU(id=f"{GENERIC_GPU_PREFIX}{memory_gb:g}gb", name=f"{memory_gb:g} GB GPU", vendor="generic",
               memory_gb=memory_gb, bandwidth_gbps=1.0, form="datacenter",
               source=["the question: memory stated without a card"])


def _capacity(question: Question, gpu: GPU, count: int, kb: KnowledgeBase) -> list[CapacityOut]:
    """Largest generic model that fits per job kind (4k context, batch 1), by bisection on the ladder."""
    context = question.context or DEFAULT_CONTEXT
    jobs = [job for job in CAPACITY_JOBS if question.task in (None, job[0]) or
            (question.task == "train" and job[0] in ("lora", "qlora"))] or list(CAPACITY_JOBS)
    out: list[CapacityOut] = []
    for task, precision in jobs:
        def fits(size: float, task: str = task, precision: Precision = precision) -> bool:
            workload = Workload(model=rules.generic_model(size), task=task, precision=precision,  # type: ignore[arg-type]
                                quant="nf4" if task == "qlora" else ("gptq" if precision == "int4" else None),
                                context=context, batch=question.batch or 1)
            picks = rules.rank_picks(workload, [gpu], limit=1, fixed_count=count,
                                     max_count=max(count, MAX_INFERENCE_GPUS))
            return bool(picks) and picks[0].fits

        low, high, best = 0, len(CAPACITY_LADDER_B) - 1, None
        while low <= high:
            middle = (low + high) // 2
            if fits(CAPACITY_LADDER_B[middle]):
                best, low = CAPACITY_LADDER_B[middle], middle + 1
            else:
                high = middle - 1
        examples: list[str] = []
        if best is not None:
            near = sorted((m for m in kb.models.values() if m.arch == "decoder" and m.moe is None
                           and 0.6 * best <= m.params_b <= best),
                          key=lambda m: (m.release or "", m.params_b), reverse=True)
            seen_families: set[str] = set()
            for m in near:
                if m.family not in seen_families:
                    seen_families.add(m.family)
                    examples.append(m.id)
                if len(examples) == 3:
                    break
        out.append(CapacityOut(task=task, precision=precision, max_params_b=best,
                               examples=examples))
    return out


def _compare_models(question: Question, workload: Workload, kb: KnowledgeBase, pool: list[GPU],
                    instances: list[Any], max_count: int) -> list[ModelCompareOut]:
    """The same job for each model compared, on the named card or each model's own top pick."""
    gpu = kb.gpus.get(question.gpu or "")
    rows: list[ModelCompareOut] = []
    for model_id in question.compare_models[:4]:
        model = kb.models.get(model_id)
        if model is None:
            continue
        context = min(workload.context, model.max_context or workload.context)
        job = replace(workload, model=model, context=context)
        picks = rules.rank_picks(job, [gpu] if gpu else pool, instances, limit=1, budget=question.budget,
                                 max_count=max_count, fixed_count=question.gpu_count)
        top = picks[0] if picks else None
        count = top.count if top else (question.gpu_count or 1)
        estimate = rules.estimate_memory(job, count, kb.gpus.get(top.gpu_id) if top and
                                         job.engine == "vllm" else None)
        rows.append(ModelCompareOut(model=model.id, total_gb=round(estimate.total_gib, 2),
                                    per_gpu_gb=round(estimate.per_gpu_gib, 2),
                                    gpu=top.gpu_id if top else None, count=count,
                                    fits=top.fits if top else None,
                                    decode_tokens_per_s=_finite(top.decode_tokens_per_s, 1) if top else None))
    return rows


def answer(question: Question, kb: KnowledgeBase | None = None) -> Answer:
    """Size what `question` asks about. Never raises for a well-formed `Question`."""
    kb = kb or default_knowledge()
    base = dict(intent=question.intent, understood=_understood(question), sources=[SOURCE_NOTE],
                suggestions=list(question.model_suggestions))
    if question.intent in ("help", "unknown"):
        return Answer(query=_query(question, None, question.gpu_count), **base)
    if question.intent == "faq":
        result = Answer(query=_query(question, None, question.gpu_count), **base)
        result.faq = _faq_for(question, None, result, kb)
        return result
    if question.intent == "gpu_info":
        result = Answer(query=_query(question, None, question.gpu_count), **base)
        card = kb.gpus.get(question.gpu or "") or (generic_gpu(question.memory_gb) if question.memory_gb else None)
        if card is not None and (question.asks_capacity or question.memory_gb):
            result.capacity = _capacity(question, card, question.gpu_count or 1, kb)
        return result

    gpu = kb.gpus.get(question.gpu) if question.gpu else None
    if gpu is None and question.memory_gb:
        gpu = generic_gpu(question.memory_gb)
    model = _resolve_model(question, kb)
    if model is None:
        missing = ["model"] + ([] if question.task else ["task"]) + ([] if question.budget else ["budget"])
        result = Answer(query=_query(question, None, question.gpu_count), missing=missing,
                        **base)
        result.compare = list(question.compare_gpus) if question.intent == "compare" else []
        result.faq = _faq_for(question, None, result, kb)
        return result

    workload, assumptions = _workload(question, model, gpu)
    if question.model is None:
        assumptions.insert(0, Assumption(field="model", value=f"{model.params_b:g}B", reason="generic-model"))
    instances = list(kb.instance_families.values())
    count = question.gpu_count or 1
    if question.gpu_defaulted and question.gpu:
        assumptions.append(Assumption(field="gpu", value=question.gpu, reason="gpu-default-variant"))
    max_count = MAX_TRAINING_GPUS if workload.task != "inference" else MAX_INFERENCE_GPUS

    picks: list[Pick] = []
    if gpu is not None and gpu.id in kb.gpus and question.intent in ("recommend", "check"):
        picks.extend(rules.rank_picks(workload, [gpu], instances, limit=1, budget=question.budget,
                                      max_count=max(max_count, count), fixed_count=question.gpu_count))
    pool, narrowed = _candidate_gpus(question, kb)
    if narrowed:
        assumptions.append(Assumption(field="pool", value="nvidia-datacenter-workstation", reason="default-pool"))
    if question.intent == "compare" and question.compare_gpus:
        pool = [kb.gpus[g] for g in question.compare_gpus if g in kb.gpus]
        picks = rules.rank_picks(workload, pool, instances, limit=len(pool), budget=question.budget,
                                 max_count=max_count)
    else:
        seen = {(p.gpu_id, p.count) for p in picks}
        for pick in rules.rank_picks(workload, pool, instances, limit=MAX_PICKS, budget=question.budget,
                                     max_count=max_count, fixed_count=question.gpu_count if gpu is None else None):
            if (pick.gpu_id, pick.count) not in seen and len(picks) < MAX_PICKS:
                picks.append(pick)

    # The estimate describes the configuration the reply is about: the cards named, else the top pick
    # (a 70B training job is spread over the picked cards, so its per-card figure is the sharded one).
    top_gpu = kb.gpus.get(picks[0].gpu_id) if picks else None
    if question.gpu_count is None and question.intent == "recommend" and picks and picks[0].fits:
        count = picks[0].count  # "how many H100s": the count the rules found for the named card
    sized_gpu, sized_count = gpu, count
    if gpu is None and top_gpu is not None:
        sized_gpu = top_gpu if workload.engine == "vllm" else None
        sized_count = question.gpu_count or (picks[0].count if picks[0].fits else 1)
    # vLLM's figure for a card is its 90% reservation; the reply's "memory needed" is what the job needs,
    # and the reservation is explained by the 'vllm-reserve' note (the picks give the sequences it holds).
    vllm = workload.engine == "vllm" and workload.task == "inference"
    estimate = rules.estimate_memory(workload, sized_count, None if vllm else sized_gpu)
    if vllm:
        estimate = replace(estimate, notes=[n for n in estimate.notes if n != "vllm-no-gpu"] + ["vllm-reserve"])

    check = None
    if question.intent in ("check", "recommend") and gpu is not None and gpu.id not in kb.gpus:
        question = question.model_copy(update={"intent": "check"})  # "is 24GB enough": a check by nature
        base["intent"] = "check"
    if question.intent == "check" and gpu is not None:
        check = _check_out(rules.check_fit(workload, gpu, count, instances,
                                           candidates=[g for g in pool if g.recommended]))

    speed: dict[str, float | None] = {}
    top = (gpu, count) if gpu is not None else (top_gpu, picks[0].count if picks else 1)
    if top[0] is not None and top[0].id in kb.gpus and model.arch in TOKEN_ARCHS:
        figures = rules.estimate_speed(workload, top[0], top[1])
        speed = {
            "decode_tokens_per_s": _finite(figures.decode_tokens_per_s, 1),
            "prefill_tokens_per_s": _finite(figures.prefill_tokens_per_s, 0),
            "aggregate_tokens_per_s": _finite(figures.aggregate_tokens_per_s, 1),
            "train_tokens_per_s": _finite(figures.train_tokens_per_s, 0),
            "train_hours_per_billion_tokens": _finite(
                rules.training_hours(workload, top[0], top[1], 1e9), 1) if workload.task != "inference" else None,
        }

    chosen = getattr(estimate, "chosen", None) or {}
    already = {a.field for a in assumptions} | set(question.stated)
    for key, value in chosen.items():
        if key in REPORTED_CHOICES and key not in already and not (key == "zero_stage" and value == 0):
            assumptions.append(Assumption(field=key, value=value, reason="rules-choice"))

    model_compare = _compare_models(question, workload, kb, pool, instances, max_count) \
        if question.intent == "compare" and len(question.compare_models) > 1 else []
    result = Answer(
        model_compare=model_compare,
        query=_query(question, workload, sized_count),
        estimate=_estimate_out(estimate),
        picks=[_pick_out(p) for p in picks],
        check=check,
        compare=list(question.compare_gpus) if question.intent == "compare" else [],
        assumptions=assumptions,
        speed=speed,
        **base,
    )
    result.faq = _faq_for(question, workload, result, kb)
    return result


def answer_request(request: Mapping[str, Any], kb: KnowledgeBase | None = None) -> Answer:
    """Answer a text plus explicit flags (the `ask` command line and its JSON-line form)."""
    from bot.understand.parse import parse  # the parser is the heaviest import; scripts that pass flags only skip it

    kb = kb or default_knowledge()
    text = str(request.get("text") or "")
    question = parse(text, kb) if text else Question(text="", intent="recommend")
    flags = {k: v for k, v in request.items() if k != "text" and v is not None}
    if flags:
        question = apply_overrides(question, flags, kb)
        if not text and question.intent == "recommend" and question.gpu and "intent" not in flags:
            question = question.model_copy(update={"intent": "check"})
    return answer(question, kb)
