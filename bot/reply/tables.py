"""Picks and comparisons as tables: one `Table` (data) built from the view, and its four faces — a Slack
`table` block, a `rich` table for terminals, a Markdown table and CSV.

A list of five picks with seven facts each reads better as columns than as sentences, in Slack and on a
terminal alike. The prose templates (picks.j2, compare.j2, model_compare.j2) stay as the fallback: in
Slack when table blocks are off, in piped output, and in the notification text.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.reply.i18n import Translator, to_traditional

TABLE_SECTIONS = ("picks", "compare", "model_compare")
"""The reply sections that are tables when the transport can show one."""

EMPTY_CELL = "—"
"""Slack rejects an empty raw_text cell, and a dash reads as "not known" in every face."""

SLACK_MAX_ROWS = 100
SLACK_MAX_CELLS = 20
"""Table block limits (docs.slack.dev/reference/block-kit/blocks/table-block: 100 rows, 20 cells a row)."""


@dataclass(frozen=True)
class Table:
    title: str
    columns: list[str]
    rows: list[list[str]]
    numeric: list[bool]
    """Right-aligned columns (figures)."""


def _cell(value: Any) -> str:
    text = "" if value is None else str(value)
    return text if text.strip() else EMPTY_CELL


def _picks(view: dict[str, Any], t: Translator) -> Table | None:
    picks = view["picks"]
    if not picks:
        return None
    with_concurrency = any(p.get("concurrent") for p in picks)
    columns = ["#", t.col_gpu, t.col_memory, t.col_used, t.col_free, t.col_decode]
    numeric = [True, False, True, True, True, True]
    if with_concurrency:
        columns.append(t.col_concurrent)
        numeric.append(True)
    columns += [t.col_price, t.col_instance]  # the cloud is each row's own (audit 30 LOW-138: "Alibaba Cloud" over all)
    numeric += [True, False]
    rows = []
    for index, p in enumerate(picks, 1):
        layout = f" ({t('replicas_cell', n=p['replicas'], per=p['per_replica'])})" if p.get("replicas") else ""
        row = [str(index), f"{p['count']}× {p['gpu_name']}{layout}", p["gpu_memory"], p["used"],
               p["headroom"] if p["fits"] else t.does_not_fit, p["decode"]]
        if with_concurrency:
            row.append(p.get("concurrent"))
        where = f"{p.get('cloud_name') or t.instance} {p['instance']}" if p["instance"] else ""
        row += [p["price"] or t.price_unknown, where]
        rows.append([_cell(v) for v in row])
    return Table(t.picks if view["any_fits"] else t.nothing_fits, columns, rows, numeric)


def _compare(view: dict[str, Any], t: Translator) -> Table | None:
    if not view["compare"]:
        return None
    rows = [[_cell(g["name"]), _cell(g["memory"]), _cell(g["bandwidth"]),
             _cell(f"{g['peak']} {g['peak_dtype']}" if g["peak"] else None), _cell(g["fit"])] for g in view["compare"]]
    return Table(t.compare_title, [t.col_gpu, t.col_memory, t.col_bandwidth, t.col_peak, t.col_fit], rows,
                 [False, True, True, True, False])


def _model_compare(view: dict[str, Any], t: Translator) -> Table | None:
    if not view["model_compare"]:
        return None
    rows = []
    for m in view["model_compare"]:
        where = (m["pick"] if m["fits"] else f"{t.does_not_fit}: {m['pick']}{m.get('fix') or ''}") \
            if m["pick"] else None
        rows.append([_cell(m["name"]), _cell(m["total"]), _cell(where), _cell(m["per_gpu"]), _cell(m["decode"])])
    methods = view.get("methods_compared", False)
    return Table(t.method_compare_title if methods else t.model_compare_title,
                 [t.col_method if methods else t.col_model, t.col_total, t.col_fits_on, t.col_per_gpu, t.col_decode],
                 rows, [False, True, False, True, True])


def _without_empty_columns(table: Table) -> Table:
    """A column with nothing to say in any row (decode speed for a training job) only takes width."""
    keep = [c for c in range(len(table.columns)) if any(row[c] != EMPTY_CELL for row in table.rows)]
    return Table(table.title, [table.columns[c] for c in keep], [[row[c] for c in keep] for row in table.rows],
                 [table.numeric[c] for c in keep])


def table_for(section: str, view: dict[str, Any], t: Translator) -> Table | None:
    """The table of a reply section (one of TABLE_SECTIONS), in the reply's language; None when empty."""
    build = {"picks": _picks, "compare": _compare, "model_compare": _model_compare}.get(section)
    built = build(view, t) if build else None
    table = _without_empty_columns(built) if built is not None else None
    if table is None or not view.get("traditional"):
        return table
    return Table(to_traditional(table.title), [to_traditional(c) for c in table.columns],
                 [[to_traditional(c) for c in row] for row in table.rows], table.numeric)


def slack_table_block(table: Table, block_id: str | None = None) -> dict[str, Any]:
    """A Block Kit `table` block: the header row, then the rows, as raw_text cells; figures right-aligned."""
    width = min(len(table.columns), SLACK_MAX_CELLS)
    rows = [table.columns[:width], *(row[:width] for row in table.rows)][:SLACK_MAX_ROWS]
    block: dict[str, Any] = {
        "type": "table",
        "rows": [[{"type": "raw_text", "text": _cell(text)} for text in row] for row in rows],
        "column_settings": [{"align": "right"} if right else {"is_wrapped": True}
                            for right in table.numeric[:width]],
    }
    if block_id:
        block["block_id"] = block_id
    return block


def markdown_table(table: Table) -> str:
    def line(cells: Sequence[str]) -> str:
        return "| " + " | ".join(c.replace("|", "\\|").replace("\n", " ") for c in cells) + " |"

    rule = ["---:" if right else "---" for right in table.numeric]
    return "\n".join([f"**{table.title}**", "", line(table.columns), line(rule), *(line(r) for r in table.rows)])


def csv_text(table: Table) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(table.columns)
    writer.writerows([["" if c == EMPTY_CELL else c for c in row] for row in table.rows])
    return out.getvalue()


_CJK = re.compile("[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]")


def _unbreakable(cell: str) -> list[str]:
    """The runs a line may not break inside: words between spaces, except that Chinese text may break
    between any two characters (so each CJK character is a run of its own)."""
    runs = [run for word in cell.split() for run in _CJK.sub(" \\g<0> ", word).split()]
    return runs or [""]


def _widths(table: Table, width: int) -> list[int] | None:
    """Column widths that fit `width`: each column as wide as its longest cell, the widest narrowed first,
    none below its longest word. None when even that does not fit."""
    from rich.cells import cell_len  # CJK characters take two cells

    cells = [table.columns, *table.rows]
    least = [max(cell_len(word) for row in cells for word in _unbreakable(row[c])) or 1
             for c in range(len(table.columns))]
    widths = [max(cell_len(row[c]) for row in cells) for c in range(len(table.columns))]
    room = width - 3 * (len(widths) - 1)  # " │ " between columns
    while sum(widths) > room:
        narrowable = [c for c in range(len(widths)) if widths[c] > least[c]]
        if not narrowable:
            return None
        widest = max(narrowable, key=lambda c: widths[c])
        widths[widest] -= 1
    return widths


def _records(table: Table) -> str:
    """A table too wide for the terminal even at one word per line: one "column: value" line per cell."""
    lines = [table.title]
    for row in table.rows:
        lines.append("")
        lines.extend(f"{name}: {value}" for name, value in zip(table.columns, row, strict=True))
    return "\n".join(lines)


def terminal_text(parts: Sequence[str | Table], width: int, *, color: bool = True) -> str:
    """Text paragraphs and `rich` tables for a terminal `width` columns wide.

    A column is never narrower than its longest word, so rich wraps between words and never inside one
    (a GPU name cut as "H10/0" would misread; a figure is one word, so it never wraps). A table that cannot
    fit that way is printed as "column: value" lines instead of being cropped.
    """
    from rich.console import Console
    from rich.table import Table as RichTable
    from rich.text import Text

    buffer = io.StringIO()
    console = Console(file=buffer, width=width, force_terminal=color, no_color=not color,
                      color_system="standard" if color else None, highlight=False, emoji=False)
    for index, part in enumerate(parts):
        if index:
            console.print()
        if isinstance(part, str):
            console.print(Text(part))  # Text, not markup: "[bf16]" in a reply must print as typed
            continue
        widths = _widths(part, width)
        if widths is None:
            console.print(Text(_records(part)))
            continue
        grid = RichTable(title=part.title, title_justify="left", title_style="bold", show_edge=False,
                         pad_edge=False, expand=False)
        for name, right, column_width in zip(part.columns, part.numeric, widths, strict=True):
            grid.add_column(name, justify="right" if right else "left", width=column_width, overflow="fold")
        for row in part.rows:
            grid.add_row(*row)
        console.print(grid)
    return buffer.getvalue()
