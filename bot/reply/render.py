"""Answer → words. One view of the `Answer`, the same Jinja2 section templates, two transports.

The templates know no transport: they call `b()` (emphasis) and `code()`, which each transport defines,
and every `{{ … }}` they print passes through the transport's `finalize`. For Slack, finalize escapes
`&`, `<` and `>`, so nothing a user typed, and nothing in the knowledge files, can become `<!channel>`
or a disguised link. Block Kit limits (50 blocks, 3,000 characters a section, 150 a header) are applied
here, once, rather than trusted to each template.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined, Template

from bot.reply.answer import GENERIC_GPU_PREFIX
from bot.reply.i18n import (
    ASSUMPTION_REASONS,
    EXAMPLES,
    FIELD_LABELS,
    NOTE_TEXT,
    TASK_NAMES,
    Translator,
    to_traditional,
)
from bot.reply.model import Answer
from knowledge.base import KnowledgeBase
from knowledge.loader import default_knowledge

MAX_BLOCKS = 50
MAX_SECTION_CHARS = 3000
MAX_HEADER_CHARS = 150
MAX_FIELD_CHARS = 2000
MAX_FALLBACK_CHARS = 3900
TIGHT_HEADROOM_FRACTION = 0.05
"""A fit with less free memory than this share of the card is reported as "only just"."""

ACTION_PREFIX = "gpu_advisor."
MISSING_MODEL_SIZES = (7.0, 13.0, 70.0)
"""Sizes offered as buttons when a question names no model: the common open-model sizes."""


def slack_escape(text: str) -> str:
    """Slack's three control characters as entities (api.slack.com 'Escaping text')."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _finalize_slack(value: Any) -> str:
    return slack_escape("" if value is None else str(value))


def _finalize_text(value: Any) -> str:
    return "" if value is None else str(value)


_MRKDWN_EMPHASIS = re.compile(r"(?<![\w*])\*([^*\n]+)\*(?![\w*])")


def _mrkdwn_to_plain(text: str) -> str:
    """FAQ answers are written in Slack mrkdwn; a terminal shows `*bold*` as stray asterisks."""
    return _MRKDWN_EMPHASIS.sub(r"\1", text)


@dataclass(frozen=True)
class Transport:
    name: str
    finalize: Callable[[Any], str]
    bold: Callable[[str], str]
    code: Callable[[str], str]
    mrkdwn: Callable[[str], str]
    """Knowledge text written in mrkdwn, as this transport shows it."""
    italic: Callable[[str], str]


SLACK = Transport("slack", _finalize_slack, lambda s: f"*{s}*" if s else s, lambda s: f"`{s}`" if s else s,
                  lambda s: s, lambda s: f"_{s}_" if s else s)
TEXT = Transport("text", _finalize_text, lambda s: s, lambda s: s, _mrkdwn_to_plain, lambda s: s)


@lru_cache(maxsize=2)
def _environment(transport_name: str) -> Environment:
    transport = SLACK if transport_name == "slack" else TEXT
    env = Environment(
        loader=PackageLoader("bot.reply", "templates"),
        autoescape=False,
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=StrictUndefined,
        finalize=transport.finalize,
    )
    env.globals.update(b=transport.bold, code=transport.code, md=transport.mrkdwn, em=transport.italic)
    return env


def _template(transport: Transport, name: str) -> Template:
    return _environment(transport.name).get_template(f"{name}.j2")


def _gb(value: float | None) -> str:
    if value is None:
        return "?"
    if abs(value) >= 100:
        return f"{value:,.0f}"
    return f"{value:.1f}"


def _count(value: float) -> str:
    if value >= 1000:
        return f"{value:,.0f}"
    if value >= 10:
        return f"{value:.0f}"
    return f"{value:.1f}"


def _params(value: float) -> str:
    return f"{value:g}" if value >= 1 else f"{value:.3g}"


def _gpu_name(kb: KnowledgeBase, gpu_id: str | None) -> str:
    if gpu_id is None:
        return "?"
    if gpu_id.startswith(GENERIC_GPU_PREFIX):
        return gpu_id.removeprefix(GENERIC_GPU_PREFIX).replace("gb", " GB GPU")
    gpu = kb.gpus.get(gpu_id)
    return gpu.name.removeprefix("NVIDIA ") if gpu else gpu_id


def _model_name(kb: KnowledgeBase, answer: Answer) -> str | None:
    if answer.query.model and answer.query.model in kb.models:
        return kb.models[answer.query.model].name
    if answer.query.params_b:
        return f"{_params(answer.query.params_b)}B model"
    return None


def _model_name_of(kb: KnowledgeBase, model_id: str) -> str:
    model = kb.models.get(model_id)
    return model.name if model else model_id


def _value_text(t: Translator, field: str, value: Any, kb: KnowledgeBase) -> str:
    if field == "task" and isinstance(value, str):
        return t.pick(TASK_NAMES, value)
    if field == "gpu" and isinstance(value, str):
        return _gpu_name(kb, value)
    if field == "model" and isinstance(value, str) and value in kb.models:
        return kb.models[value].name
    if field in ("context", "gen_tokens") and isinstance(value, int):
        return f"{value:,}"
    if field == "params_b" and isinstance(value, (int, float)):
        return f"{_params(float(value))}B"
    if field == "gradient_checkpointing":
        return ("on" if value else "off") if t.lang == "en" else ("开" if value else "关")
    if field == "zero_stage" and isinstance(value, int):
        return f"ZeRO-{value}"
    if field == "memory_gb" and isinstance(value, (int, float)):
        return f"{value:g} GB"
    if field == "pool":
        return t.pool_value
    if field == "compare_gpus" and isinstance(value, list):
        return " vs ".join(_gpu_name(kb, g) for g in value)
    if field == "budget":
        return ("cheapest" if t.lang == "en" else "优先省钱") if value else ""
    return str(value)


def _understood(answer: Answer, t: Translator, kb: KnowledgeBase) -> list[str]:
    parts: list[str] = []
    data = answer.understood
    for field, value in data.items():
        if value is None or value == "" or value is False or field in ("model_text", "gpu_text"):
            continue
        if field == "gpu_count" and "gpu" in data:
            continue
        if field == "gpu" and data.get("gpu_count"):
            parts.append(f"{data['gpu_count']}× {_gpu_name(kb, value)}")
            continue
        text = _value_text(t, field, value, kb)
        if field in ("context",) or field == "batch":
            text = f"{t.pick(FIELD_LABELS, field)} {text}"
        if text:
            parts.append(text)
    return parts


def _suggestion_label(t: Translator, kb: KnowledgeBase, s: Any) -> str:
    kind = s.kind.replace("-", "_")
    if kind == "quantise":
        return t("sugg_quantise", precision=(s.precision or "").upper(), quant=f" ({s.quant})" if s.quant else "")
    if kind in ("more_gpus", "bigger_gpu"):
        return t(f"sugg_{kind}", count=s.count or 1, gpu=_gpu_name(kb, s.gpu))
    if kind == "shorter_context":
        return t("sugg_shorter_context", context=f"{s.context:,}" if s.context else "?")
    if kind == "smaller_batch":
        return t("sugg_smaller_batch", batch=s.batch or 1)
    key = f"sugg_{kind}"
    try:
        return t(key)
    except KeyError:
        return s.kind


def _maths(answer: Answer) -> list[str]:
    """The arithmetic behind the estimate, so a user can redo it."""
    e = answer.estimate
    q = answer.query
    if e is None:
        return []
    lines: list[str] = []
    if q.params_b:
        bytes_per_param = e.breakdown.weights * 2**30 / (q.params_b * 1e9) if q.params_b else 0
        lines.append(f"weights = {q.params_b:g}e9 params × {bytes_per_param:.2f} B = {e.breakdown.weights:.2f} GiB")
    if e.breakdown.kv_cache:
        lines.append(f"KV cache = 2 × layers × KV heads × head_dim × {q.context or 0:,} tokens × batch {q.batch or 1}"
                     f" × bytes = {e.breakdown.kv_cache:.2f} GiB")
    if e.breakdown.gradients or e.breakdown.optimizer:
        lines.append(f"gradients {e.breakdown.gradients:.2f} GiB + optimizer states {e.breakdown.optimizer:.2f} GiB"
                     + (f" (sharded over {e.gpu_count} GPUs)" if e.gpu_count > 1 else ""))
    lines.append(f"activations {e.breakdown.activations:.2f} GiB + overhead {e.breakdown.overhead:.2f} GiB")
    lines.append(f"total = {e.total_gb:.2f} GiB; per GPU = {e.per_gpu_gb:.2f} GiB")
    return lines


def build_view(answer: Answer, kb: KnowledgeBase, *, show_maths: bool = False) -> dict[str, Any]:
    """Everything the templates print, formatted, in the question's (catalog) language."""
    t = Translator(answer.query.lang)
    view: dict[str, Any] = {"lang": t.lang, "traditional": answer.query.lang == "zh-Hant"}
    model_name = _model_name(kb, answer)
    task = answer.query.task
    title_parts = [p for p in (model_name, t.pick(TASK_NAMES, task) if task and model_name else None) if p]
    if answer.intent in ("help", "unknown"):
        title_parts = [t.help_title]
    elif answer.intent == "gpu_info":
        title_parts = [_gpu_name(kb, answer.query.gpu) if answer.query.gpu else "GPU"]
    elif answer.intent == "faq" and not title_parts:
        title_parts = ["GPU Advisor"]
    elif answer.intent == "compare" and answer.model_compare:
        title_parts = [" vs ".join(_model_name_of(kb, r.model) for r in answer.model_compare)]
    elif answer.intent == "compare" and answer.compare:
        title_parts = [" vs ".join(_gpu_name(kb, g) for g in answer.compare), *title_parts[:1]]
    if answer.check is not None:
        title_parts.append(f"{answer.check.count}× {_gpu_name(kb, answer.check.gpu)}")
    view["title"] = " · ".join(title_parts) or "GPU Advisor"
    view["understood"] = _understood(answer, t, kb)
    view["clamped"] = [t.pick(FIELD_LABELS, c) for c in answer.understood.get("clamped", [])] if isinstance(
        answer.understood.get("clamped"), list) else []

    if answer.estimate is not None:
        e = answer.estimate
        view.update(total=_gb(e.total_gb), per_gpu=_gb(e.per_gpu_gb), gpu_count=e.gpu_count,
                    breakdown=[(t(k), _gb(getattr(e.breakdown, k))) for k in
                               ("weights", "kv_cache", "activations", "gradients", "optimizer", "overhead")
                               if getattr(e.breakdown, k) > 0.005])
    view["notes"] = [t.pick(NOTE_TEXT, code) for code in (answer.estimate.notes if answer.estimate else [])
                     if code in NOTE_TEXT][:4]
    picks = []
    for p in answer.picks:
        gpu = kb.gpus.get(p.gpu)
        picks.append({
            "gpu_name": _gpu_name(kb, p.gpu), "gpu_memory": _gb(gpu.memory_gb) if gpu else "?", "count": p.count,
            "fits": p.fits, "used": _gb(p.memory_per_gpu_gb), "headroom": _gb(p.free_gb),
            "decode": _count(p.decode_tokens_per_s) if p.decode_tokens_per_s else None,
            "concurrent": p.max_concurrent_sequences,
            "price": (f"{p.price_per_hour:.2f} {p.price_currency or ''}".strip() if p.price_per_hour else None),
            "instance": p.instance,
        })
    view["picks"] = picks
    view["any_fits"] = any(p["fits"] for p in picks)

    if answer.check is not None:
        c = answer.check
        view["check"] = {
            "fits": c.fits, "count": c.count, "gpu_name": _gpu_name(kb, c.gpu), "headroom": _gb(c.free_gb),
            "need": _gb(c.memory_per_gpu_gb), "have": _gb(c.gpu_memory_gb),
            "tight": c.fits and c.headroom_gb < TIGHT_HEADROOM_FRACTION * c.gpu_memory_gb,
            "suggestions": [{"label": _suggestion_label(t, kb, s),
                             "need": _gb(s.memory_per_gpu_gb) if s.memory_per_gpu_gb else None}
                            for s in c.suggestions[:5]],
        }
    speed_parts = []
    s = answer.speed
    if s.get("decode_tokens_per_s"):
        speed_parts.append(t("decode", v=_count(s["decode_tokens_per_s"] or 0)))
    if s.get("aggregate_tokens_per_s") and (answer.query.batch or 1) > 1:
        speed_parts.append(t("aggregate", v=_count(s["aggregate_tokens_per_s"] or 0)))
    if s.get("prefill_tokens_per_s"):
        speed_parts.append(t("prefill", v=_count(s["prefill_tokens_per_s"] or 0)))
    if s.get("train_tokens_per_s") and task in ("train", "lora", "qlora"):
        speed_parts.append(t("train_speed", v=_count(s["train_tokens_per_s"] or 0)))
    if s.get("train_hours_per_billion_tokens") and task in ("train", "lora", "qlora"):
        speed_parts.append(t("train_hours", v=_count(s["train_hours_per_billion_tokens"] or 0)))
    view["speed"] = speed_parts
    if answer.check is not None:
        view["speed_on"] = f"{answer.check.count}× {_gpu_name(kb, answer.check.gpu)}"
    elif answer.picks:
        view["speed_on"] = f"{answer.picks[0].count}× {_gpu_name(kb, answer.picks[0].gpu)}"
    else:
        view["speed_on"] = ""
    view["assumptions"] = [
        f"{t.pick(FIELD_LABELS, a.field)} {_value_text(t, a.field, a.value, kb)} "
        f"({t.pick(ASSUMPTION_REASONS, a.reason)})"
        for a in answer.assumptions
    ]
    view["faq"] = []
    for faq_id in answer.faq:
        entry = kb.faq.get(faq_id)
        if entry is None:
            continue
        view["faq"].append({
            "question": entry.questions.en[0] if t.lang == "en" else entry.questions.zh[0],
            "answer": entry.answer.en if t.lang == "en" else entry.answer.zh_hans,
            "document": entry.document,
        })
    view["examples"] = EXAMPLES[t.lang]
    view["unknown"] = answer.intent == "unknown"
    view["did_you_mean"] = [kb.models[m].name for m in answer.suggestions if m in kb.models][:5]
    view["model_text"] = answer.understood.get("model_text") or ""
    view["missing"] = [t(f"missing_{m}") for m in answer.missing if f"missing_{m}" in ("missing_model",
                                                                                       "missing_task",
                                                                                       "missing_budget")]
    view["training"] = task in ("train", "lora", "qlora")
    view["gpus"] = _gpu_views(answer, kb) if answer.intent == "gpu_info" else []
    view["known_gpus"] = sorted(g.name.removeprefix("NVIDIA ") for g in kb.gpus.values() if g.recommended)[:40]
    view["model_info"] = _model_view(answer, kb) if answer.intent == "model_info" else None
    view["compare"] = _compare_view(answer, kb, t) if answer.intent == "compare" else []
    view["maths"] = _maths(answer) if show_maths else []
    view["capacity"] = [{
        "job": f"{t.pick(TASK_NAMES, c.task)}, {c.precision.upper() if c.precision != 'bf16' else '16-bit'}",
        "size": f"{_params(c.max_params_b)}B" if c.max_params_b else None,
        "examples": ", ".join(kb.models[m].name for m in c.examples if m in kb.models),
    } for c in answer.capacity]
    view["capacity_on"] = (f"{answer.query.gpu_count}× " if (answer.query.gpu_count or 1) > 1 else "") + (
        _gpu_name(kb, answer.query.gpu) if answer.query.gpu else f"{answer.query.memory_gb:g} GB GPU"
        if answer.query.memory_gb else "")
    view["model_compare"] = [{
        "name": kb.models[r.model].name if r.model in kb.models else r.model, "total": _gb(r.total_gb),
        "per_gpu": _gb(r.per_gpu_gb), "pick": f"{r.count}× {_gpu_name(kb, r.gpu)}" if r.gpu else None,
        "fits": r.fits, "decode": _count(r.decode_tokens_per_s) if r.decode_tokens_per_s else None,
    } for r in answer.model_compare]
    return view


def _gpu_views(answer: Answer, kb: KnowledgeBase) -> list[dict[str, Any]]:
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
            "name": gpu.name, "memory": _gb(gpu.memory_gb), "memory_type": gpu.memory_type or "",
            "bandwidth": f"{gpu.bandwidth_gbps:,.0f}", "tflops": tflops, "interconnect": gpu.interconnect,
            "mig": gpu.mig_max_instances if gpu.mig else None, "recommended": gpu.recommended,
            "notes": gpu.notes if not gpu.recommended else None,
            "instances": [f.family for f in kb.instances_for(gpu.id)],
        })
    return views


def _model_view(answer: Answer, kb: KnowledgeBase) -> dict[str, Any] | None:
    model = kb.models.get(answer.query.model or "")
    if model is None:
        return None
    return {
        "name": model.name, "params": _params(model.params_b),
        "active": _params(model.active_params_b) if model.active_params_b else None,
        "experts": model.moe.num_experts if model.moe else None,
        "routed": model.moe.experts_per_token if model.moe else None,
        "layers": model.num_layers, "hidden": model.hidden_size, "heads": model.num_attention_heads,
        "kv": model.num_kv_heads, "attention": (model.attention or "").upper(),
        "context": f"{model.max_context:,}" if model.max_context else "?",
        "kv_kib": f"{model.kv_cache_kib_per_token_16bit:g}" if model.kv_cache_kib_per_token_16bit else None,
    }


def _compare_view(answer: Answer, kb: KnowledgeBase, t: Translator) -> list[dict[str, Any]]:
    by_gpu = {p.gpu: p for p in answer.picks}
    rows = []
    for gpu_id in answer.compare:
        gpu = kb.gpus.get(gpu_id)
        if gpu is None:
            continue
        pick = by_gpu.get(gpu_id)
        fit = None
        if pick is not None:
            fit = (f"{pick.count}× — {_gb(pick.memory_per_gpu_gb)} GB {t.used}"
                   + (f", ~{_count(pick.decode_tokens_per_s)} {t.tok_s}" if pick.decode_tokens_per_s else "")
                   if pick.fits else f"{t.does_not_fit}: {t('needs', gb=_gb(pick.memory_per_gpu_gb))}")
        rows.append({"name": gpu.name.removeprefix("NVIDIA "), "memory": _gb(gpu.memory_gb),
                     "bandwidth": f"{gpu.bandwidth_gbps:,.0f}",
                     "fp16": f"{gpu.fp16_tflops:g}" if gpu.fp16_tflops else None, "fit": fit})
    return rows


def _sections(answer: Answer, view: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    """(block kind, template, extra context) in reply order."""
    out: list[tuple[str, str, dict[str, Any]]] = [("header", "header", {})]
    if answer.error == "too-long":
        message = Translator(answer.query.lang)("too_long", n=int(answer.understood.get("length", 0)),
                                                 limit=int(answer.understood.get("limit", 0)))
        return [("section", "notice", {"message": message})]
    if answer.intent in ("help", "unknown") or (answer.intent == "faq" and not view["faq"]):
        return [*out, ("section", "help", {})]
    if view["understood"] or view["clamped"]:
        out.append(("context", "understood", {}))
    if answer.intent == "gpu_info":
        out.append(("section", "gpu_info", {}))
    if view["capacity"]:
        out.append(("section", "capacity", {}))
    if view["model_compare"]:
        out.append(("section", "model_compare", {}))
    if answer.intent == "model_info" and view["model_info"]:
        out.append(("section", "model_info", {}))
    if answer.estimate is None and answer.intent in ("recommend", "check", "compare", "model_info"):
        out.append(("section", "guidance", {}))
    if view.get("check"):
        out.append(("section", "verdict", {}))
    if answer.estimate is not None:
        out.append(("fields", "estimate", {}))
    if answer.intent == "compare" and view["compare"]:
        out.append(("section", "compare", {}))
    elif view["picks"]:
        out.append(("section", "picks", {}))
    if view["speed"]:
        out.append(("section", "speed", {}))
    if view["maths"]:
        out.append(("section", "maths", {}))
    if view["notes"]:
        out.append(("context", "notes", {}))
    if view["assumptions"]:
        out.append(("context", "assumptions", {}))
    for entry in view["faq"]:
        out.append(("section", "faq", {"f": entry}))
    if answer.estimate is not None:
        out.append(("context", "source", {}))
    return out


def _render_section(transport: Transport, name: str, view: dict[str, Any], t: Translator,
                    extra: dict[str, Any]) -> str:
    text = _template(transport, name).render(v=view, t=t, **extra).strip()
    return to_traditional(text) if view["traditional"] else text


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def render_text(answer: Answer, kb: KnowledgeBase | None = None, *, show_maths: bool = False) -> str:
    """The reply as terminal text (console and `ask`)."""
    kb = kb or default_knowledge()
    return _text_from_view(answer, build_view(answer, kb, show_maths=show_maths))


def _text_from_view(answer: Answer, view: dict[str, Any]) -> str:
    t = Translator(answer.query.lang)
    parts = []
    for _kind, name, extra in _sections(answer, view):
        text = _render_section(TEXT, name, view, t, extra)
        if text:
            parts.append(text)
    if parts:
        parts[0] = f"== {parts[0]} =="
    return "\n\n".join(parts)


def _buttons(answer: Answer, thread_key: str, t: Translator, ephemeral: bool) -> list[dict[str, Any]]:
    def button_text(label: str, action: str, overrides: dict[str, Any]) -> dict[str, Any]:
        value = json.dumps({"thread": thread_key, "overrides": overrides}, separators=(",", ":"))
        return {"type": "button", "text": {"type": "plain_text", "text": label},
                "action_id": f"{ACTION_PREFIX}{action}", "value": value[:2000]}

    def button(key: str, action: str, overrides: dict[str, Any]) -> dict[str, Any]:
        return button_text(t(key), action, overrides)

    q = answer.query
    buttons: list[dict[str, Any]] = []
    if answer.estimate is None:
        # The question lacked what the answer hinges on: offer the common choices as one click each.
        if "model" in answer.missing:
            for size in MISSING_MODEL_SIZES:
                buttons.append(button_text(f"{size:g}B", f"size_{size:g}", {"params_b": size}))
        if "task" in answer.missing:
            buttons.append(button("btn_inference", "inference", {"task": "inference"}))
            buttons.append(button("btn_training", "training", {"task": "lora"}))
        return buttons[:5]
    if q.precision not in ("int4",) and q.task != "qlora":
        buttons.append(button("btn_int4", "int4", {"precision": "int4"}))
    if q.task == "inference" and q.model is not None:
        buttons.append(button("btn_training", "training", {"task": "lora"}))
    elif q.task in ("train", "lora", "qlora"):
        buttons.append(button("btn_inference", "inference", {"task": "inference"}))
    if not q.budget:
        buttons.append(button("btn_cheaper", "cheaper", {"budget": True}))
    buttons.append(button("btn_maths", "maths", {"show_maths": True}))
    if ephemeral:
        buttons.append(button("btn_post", "post", {}))
    return buttons[:5]


def render_blocks(answer: Answer, *, thread_key: str = "", ephemeral: bool = False,
                  kb: KnowledgeBase | None = None, show_maths: bool = False) -> tuple[list[dict[str, Any]], str]:
    """Block Kit blocks and the plain-text fallback for notifications and screen readers."""
    kb = kb or default_knowledge()
    view = build_view(answer, kb, show_maths=show_maths)
    t = Translator(answer.query.lang)
    blocks: list[dict[str, Any]] = []
    for kind, name, extra in _sections(answer, view):
        if kind == "fields":
            blocks.append(_estimate_block(view, t))
            continue
        text = _render_section(SLACK, name, view, t, extra)
        if not text:
            continue
        if kind == "header":
            blocks.append({"type": "header", "text": {"type": "plain_text", "text": _clip(
                _unescape_plain(text), MAX_HEADER_CHARS), "emoji": True}})
        elif kind == "context":
            blocks.append({"type": "context", "elements": [{"type": "mrkdwn", "text": _clip(text, MAX_FIELD_CHARS)}]})
        else:
            blocks.append({"type": "section", "text": {"type": "mrkdwn", "text": _clip(text, MAX_SECTION_CHARS)}})
    buttons = _buttons(answer, thread_key, t, ephemeral)
    if buttons:
        blocks.append({"type": "actions", "block_id": "gpu_advisor_actions", "elements": buttons})
    if len(blocks) > MAX_BLOCKS:
        blocks = blocks[: MAX_BLOCKS - 1] + blocks[-1:]
    # The fallback is the terminal text of the same view (without the maths, which only the blocks show).
    fallback = _clip(slack_escape(_text_from_view(answer, {**view, "maths": []})), MAX_FALLBACK_CHARS)
    return blocks, fallback


def _unescape_plain(text: str) -> str:
    """Header blocks are plain_text, where Slack shows entities literally; the title is built from
    knowledge names, never raw user text, so it is safe unescaped."""
    return text.replace("&lt;", "‹").replace("&gt;", "›").replace("&amp;", "&")


def _estimate_block(view: dict[str, Any], t: Translator) -> dict[str, Any]:
    summary = _render_section(SLACK, "estimate", {**view, "breakdown": []}, t, {})
    fields = [
        {"type": "mrkdwn", "text": _clip(_render_section(SLACK, "field", view, t, {"label": label, "value": value}),
                                          MAX_FIELD_CHARS)}
        for label, value in view["breakdown"][:10]
    ]
    block: dict[str, Any] = {"type": "section", "text": {"type": "mrkdwn", "text": _clip(summary, MAX_SECTION_CHARS)}}
    if fields:
        block["fields"] = fields
    return block


def render_notice(key: str, lang: str = "en", *, transport: str = "slack", **values: Any) -> str:
    """A one-line reply (error, rate limit, too long) in the user's language, escaped for Slack."""
    t = Translator(lang)
    text = t(key, **values)
    if lang == "zh-Hant":
        text = to_traditional(text)
    return slack_escape(text) if transport == "slack" else text


def render_home(recent: Iterable[str], kb: KnowledgeBase | None = None) -> dict[str, Any]:
    """The App Home tab: what the bot does, examples in both languages, what it knows, recent questions."""
    kb = kb or default_knowledge()
    en, zh = Translator("en"), Translator("zh-Hans")
    families = sorted({m.family for m in kb.models.values()})
    gpus = sorted(g.name.removeprefix("NVIDIA ") for g in kb.gpus.values() if g.recommended)
    blocks: list[dict[str, Any]] = [
        {"type": "header", "text": {"type": "plain_text", "text": _clip(en.help_title, MAX_HEADER_CHARS)}},
        {"type": "section", "text": {"type": "mrkdwn", "text": slack_escape(f"{en.help_body}\n{zh.help_body}")}},
        {"type": "section", "text": {"type": "mrkdwn", "text": slack_escape(
            "*" + en.examples + " / " + zh.examples + "*\n"
            + "\n".join(f"• `{q}`" for q in EXAMPLES["en"] + EXAMPLES["zh-Hans"]))}},
        {"type": "section", "text": {"type": "mrkdwn", "text": _clip(slack_escape(
            f"*{len(kb.models)} models* ({', '.join(families)})"), MAX_SECTION_CHARS)}},
        {"type": "section", "text": {"type": "mrkdwn", "text": _clip(slack_escape(
            f"*{len(gpus)} GPUs*: {', '.join(gpus)}"), MAX_SECTION_CHARS)}},
    ]
    recent = [q for q in recent if q][:5]
    if recent:
        blocks.append({"type": "section", "text": {"type": "mrkdwn", "text": _clip(
            "*Your recent questions / 最近的问题*\n" + "\n".join(f"• {slack_escape(q[:200])}" for q in recent),
            MAX_SECTION_CHARS)}})
    return {"type": "home", "blocks": blocks}
