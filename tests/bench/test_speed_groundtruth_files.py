"""Schema checks for bench/groundtruth/speed/*.yaml: published throughput of engines that pre-allocate their
memory (so publish none). Same citation rules as the memory rows: a pinned source whose fragment quotes the
figure, a tokens/s unit, ids unique across every ground-truth file, groups new to the shared set."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.bench.test_groundtruth_files import (
    GROUNDTRUTH_DIR,
    SHARED_PUBLISHED,
    SLUG,
    THROUGHPUT_UNIT,
    _source_errors,
)

SPEED_DIR = GROUNDTRUTH_DIR / "speed"
REQUIRED = ("id", "group", "model", "task", "precision", "seq_len", "gen_len", "batch_size", "num_gpus", "gpu",
            "settings", "throughput", "kind", "source", "notes")


def speed_row_errors(row: Any) -> list[str]:
    if not isinstance(row, dict):
        return ["row must be a mapping"]
    errors = [f"missing {key}" for key in REQUIRED if key not in row]
    if errors:
        return errors
    if not SLUG.match(str(row["id"])):
        errors.append("id must be a lowercase slug")
    if "memory_gb" in row:
        errors.append("speed rows carry no memory (memory rows live in bench/groundtruth/*.yaml)")
    throughput = row["throughput"]
    if not isinstance(throughput, dict) or not isinstance(throughput.get("value"), int | float) \
            or throughput["value"] <= 0:
        errors.append("throughput needs a positive value")
    elif not THROUGHPUT_UNIT.search(str(throughput.get("unit"))):
        errors.append(f"throughput unit {throughput.get('unit')!r} is not tokens/s")
    elif throughput.get("tpot_ms"):
        # a rate the source gives as time per output token (a serving benchmark's median TPOT): the fragment
        # quotes that time and the rate is only its inverse
        if abs(1000.0 / float(throughput["tpot_ms"]) - float(throughput["value"])) > 0.01 * float(throughput["value"]):
            errors.append("throughput value is not 1000 / tpot_ms")
        errors += _source_errors(row["source"], f"{throughput['tpot_ms']:.2f}")
    else:
        errors += _source_errors(row["source"], f"{throughput['value']:g}")
    return errors


def _files() -> list[Path]:
    return sorted(SPEED_DIR.glob("*.yaml"))


def test_there_are_speed_rows() -> None:
    assert _files()


@pytest.mark.parametrize("path", _files(), ids=lambda p: p.name)
def test_every_speed_row_is_valid(path: Path) -> None:
    rows = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert isinstance(rows, list) and rows
    assert [e for row in rows for e in speed_row_errors(row)] == []


def test_ids_are_unique_and_groups_new_to_the_shared_set() -> None:
    rows = [r for p in [*_files(), *sorted(GROUNDTRUTH_DIR.glob("*.yaml"))]
            for r in yaml.safe_load(p.read_text(encoding="utf-8"))]
    ids = [r["id"] for r in rows]
    assert len(ids) == len(set(ids))
    if SHARED_PUBLISHED.exists():
        shared = {r["group"] for r in yaml.safe_load(SHARED_PUBLISHED.read_text(encoding="utf-8"))}
        assert not {r["group"] for p in _files() for r in yaml.safe_load(p.read_text(encoding="utf-8"))} & shared


@pytest.mark.parametrize("break_it", [
    lambda r: r["throughput"].update(value=-1),
    lambda r: r["throughput"].update(unit="s/iter"),
    lambda r: r["source"].update(fragment="| BF16 | 1 | see table |"),
    lambda r: r.update(memory_gb=12.0),
    lambda r: r.pop("source"),
])
def test_a_broken_row_is_caught(break_it: Any) -> None:
    row = yaml.safe_load(_files()[0].read_text(encoding="utf-8"))[0]
    break_it(row)
    assert speed_row_errors(row)
