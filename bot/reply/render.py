"""Answer → words. One view of the `Answer` (`bot.reply.view`), the same Jinja2 section templates, two transports.

The templates know no transport: they call `b()` (emphasis) and `code()`, which each transport defines,
and every `{{ … }}` they print passes through the transport's `finalize`. For Slack, finalize escapes
`&`, `<` and `>`, so nothing a user typed, and nothing in the knowledge files, can become `<!channel>`
or a disguised link. Block Kit limits (50 blocks, 3,000 characters a section, 150 a header) are applied
here, once, rather than trusted to each template.
"""

from __future__ import annotations

import json
import os
import re
import secrets
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined, Template

from bot.reply.i18n import (
    EXAMPLES,
    Translator,
    to_traditional,
)
from bot.reply.model import Answer
from bot.reply.tables import (
    TABLE_SECTIONS,
    Table,
    csv_text,
    markdown_table,
    slack_table_block,
    table_for,
    terminal_text,
)
from bot.reply.view import build_view, sections
from knowledge.base import KnowledgeBase
from knowledge.loader import default_knowledge

MAX_BLOCKS = 50
MAX_SECTION_CHARS = 3000
MAX_HEADER_CHARS = 150
MAX_FIELD_CHARS = 2000
MAX_FALLBACK_CHARS = 3900
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


def _render_section(transport: Transport, name: str, view: dict[str, Any], t: Translator,
                    extra: dict[str, Any]) -> str:
    text = _template(transport, name).render(v=view, t=t, **extra).strip()
    if not view["traditional"]:
        return text
    text = to_traditional(text)
    for entry in view["faq"]:
        # a cited document keeps its own title: "阿里云做大模型怎么选GPU？" is not re-spelt in Traditional
        text = text.replace(to_traditional(entry["document"]), entry["document"])
    return text


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def render_text(answer: Answer, kb: KnowledgeBase | None = None, *, show_maths: bool = False) -> str:
    """The reply as terminal text (console and `ask`)."""
    kb = kb or default_knowledge()
    return _text_from_view(answer, build_view(answer, kb, show_maths=show_maths))


def _text_from_view(answer: Answer, view: dict[str, Any]) -> str:
    t = Translator(answer.query.lang)
    parts = []
    for _kind, name, extra in sections(answer, view):
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
                  kb: KnowledgeBase | None = None, show_maths: bool = False,
                  table_blocks: bool | None = None) -> tuple[list[dict[str, Any]], str]:
    """Block Kit blocks and the plain-text fallback for notifications and screen readers.

    `table_blocks` (default: the `SLACK_TABLE_BLOCKS=1` setting) shows the picks or the comparison as a
    Slack `table` block, one per message as Slack allows; off, they stay mrkdwn lines, which every client
    renders. Every block gets a block_id new to this rendering, so a `chat.update` never reuses one.
    """
    kb = kb or default_knowledge()
    view = build_view(answer, kb, show_maths=show_maths)
    t = Translator(answer.query.lang)
    tables_left = 1 if (os.environ.get("SLACK_TABLE_BLOCKS") == "1" if table_blocks is None else table_blocks) else 0
    blocks: list[dict[str, Any]] = []
    for kind, name, extra in sections(answer, view):
        table = table_for(name, view, t) if tables_left and name in TABLE_SECTIONS else None
        if table is not None:
            tables_left -= 1
            blocks.append({"type": "section", "text": {"type": "mrkdwn", "text": _clip(
                SLACK.bold(slack_escape(table.title)), MAX_SECTION_CHARS)}})
            blocks.append(slack_table_block(table))
            continue
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
    _fresh_block_ids(blocks)
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


def _fresh_block_ids(blocks: list[dict[str, Any]]) -> None:
    """Block ids unique to this rendering: Slack asks for a new block_id on every iteration of a message
    (chat.update after a button), or clients may keep the old block's state. The actions block keeps its
    "gpu_advisor_actions" prefix so listeners can still tell where a click came from."""
    nonce = secrets.token_hex(4)
    for position, block in enumerate(blocks):
        prefix = block.get("block_id") or f"gpu_advisor.{block['type']}.{position}"
        block["block_id"] = f"{prefix}.{nonce}"


def render_parts(answer: Answer, kb: KnowledgeBase | None = None, *, show_maths: bool = False) -> list[str | Table]:
    """The terminal reply as parts: paragraphs of text and, for the picks and comparisons, tables."""
    kb = kb or default_knowledge()
    view = build_view(answer, kb, show_maths=show_maths)
    t = Translator(answer.query.lang)
    parts: list[str | Table] = []
    for _kind, name, extra in sections(answer, view):
        table = table_for(name, view, t) if name in TABLE_SECTIONS else None
        if table is not None:
            parts.append(table)
            continue
        text = _render_section(TEXT, name, view, t, extra)
        if text:
            parts.append(text)
    if parts and isinstance(parts[0], str):
        parts[0] = f"== {parts[0]} =="
    return parts


def render_terminal(answer: Answer, kb: KnowledgeBase | None = None, *, width: int = 100, color: bool = True,
                    show_maths: bool = False) -> str:
    """The reply for a terminal: `rich` tables sized to `width`, text as plain paragraphs."""
    return terminal_text(render_parts(answer, kb, show_maths=show_maths), width, color=color)


def render_markdown(answer: Answer, kb: KnowledgeBase | None = None, *, show_maths: bool = False) -> str:
    """`ask --format md`: the picks (or comparison) as a Markdown table, the rest as text."""
    return "\n\n".join(markdown_table(p) if isinstance(p, Table) else p
                        for p in render_parts(answer, kb, show_maths=show_maths))


def render_csv(answer: Answer, kb: KnowledgeBase | None = None) -> str:
    """`ask --format csv`: the picks (or comparison) as CSV with a header row; empty when there are none."""
    tables = [p for p in render_parts(answer, kb) if isinstance(p, Table)]
    return csv_text(tables[0]) if tables else ""
