"""Schema checks for the published ground truth in bench/groundtruth/*.yaml.

Every row must be citable: a verbatim source fragment that quotes the figure, a commit-pinned repository path or a
URL, a memory value in GiB consistent with the published text, and an id unique across all files. The broken-row
cases at the end prove each check can fail.
"""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

GROUNDTRUTH_DIR = Path(__file__).resolve().parents[2] / "bench" / "groundtruth"
SHARED_PUBLISHED = Path(__file__).resolve().parents[3] / "shared" / "groundtruth" / "published.yaml"

REQUIRED_KEYS = (
    "id", "group", "model", "task", "precision", "seq_len", "gen_len", "batch_size", "num_gpus", "gpu", "settings",
    "memory_gb", "memory_published", "memory_scope", "memory_relation", "throughput", "kind", "source", "notes",
)
TASKS = {"inference", "full-ft", "lora", "qlora", "freeze", "p-tuning"}
KINDS = {"measured", "stated"}
RELATIONS = {"peak", "requirement", "fits_within", "oom_above"}
COMPONENT_PREFIX = "component: "
THROUGHPUT_UNIT = re.compile(r"tokens/s$|^s/(?:image|batch)$")
"""Token rates, or for image generation the seconds an image (or a call's batch) takes."""
NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")
SLUG = re.compile(r"^[a-z0-9][a-z0-9.-]*$")
GIB = 2**30


def _numbers(text: str) -> list[float]:
    return [float(n.replace(",", "")) for n in NUMBER.findall(text)]


def _close(a: float, b: float, rel: float = 0.011) -> bool:
    return abs(a - b) <= rel * max(abs(a), abs(b), 1e-9)


def _memory_matches_published(memory_gb: float, published: str) -> bool:
    """memory_gb must be the published number in GiB: as printed, or converted from MiB, bytes or decimal GB."""
    numbers = _numbers(published)
    if not numbers:
        return False
    candidates = [*numbers, sum(numbers)]
    if "MiB" in published:
        scaled = [n / 1024 for n in candidates]
    elif "bytes" in published:
        scaled = [n / GIB for n in candidates]
    else:
        scaled = candidates + [n * 1e9 / GIB for n in candidates]
    return any(_close(memory_gb, s) for s in scaled)


def _positive_int_or_none(value: Any) -> bool:
    return value is None or (isinstance(value, int) and not isinstance(value, bool) and value > 0)


def row_errors(row: Any) -> list[str]:
    """Everything wrong with one row (empty list = valid)."""
    if not isinstance(row, dict):
        return ["row is not a mapping"]
    errors = [f"missing key {k}" for k in REQUIRED_KEYS if k not in row]
    errors += [f"unexpected key {k}" for k in row if k not in REQUIRED_KEYS]
    if errors:
        return errors
    if not isinstance(row["id"], str) or not SLUG.match(row["id"]):
        errors.append("id must be a lower-case slug")
    if not row["group"] or not isinstance(row["group"], str):
        errors.append("group missing")
    if not isinstance(row["model"], str) or not row["model"]:
        errors.append("model missing")
    if row["task"] not in TASKS:
        errors.append(f"task {row['task']!r} not in {sorted(TASKS)}")
    if row["kind"] not in KINDS:
        errors.append(f"kind {row['kind']!r} not in {sorted(KINDS)}")
    relation = row["memory_relation"]
    if relation not in RELATIONS and not (isinstance(relation, str) and relation.startswith(COMPONENT_PREFIX)):
        errors.append(f"memory_relation {relation!r} unknown")
    scope = row["memory_scope"]
    if not (scope == "per_gpu" or (isinstance(scope, str) and scope.startswith("total"))):
        errors.append(f"memory_scope {scope!r} unknown")
    for key in ("seq_len", "gen_len", "batch_size", "num_gpus"):
        if not _positive_int_or_none(row[key]):
            errors.append(f"{key} must be a positive integer or null")
    memory = row["memory_gb"]
    if not isinstance(memory, int | float) or isinstance(memory, bool) or not 0 < memory < 2000:
        errors.append("memory_gb must be a positive number of GiB below 2000")
    published = row["memory_published"]
    if not isinstance(published, str) or not _numbers(published):
        errors.append("memory_published must quote the published figure")
    elif isinstance(memory, int | float) and not _memory_matches_published(float(memory), published):
        errors.append(f"memory_gb {memory} does not match memory_published {published!r} (units?)")
    throughput = row["throughput"]
    if throughput is not None:
        if not isinstance(throughput, dict) or not {"value", "unit"} <= set(throughput):
            errors.append("throughput needs value and unit")
        elif not isinstance(throughput["value"], int | float) or throughput["value"] <= 0:
            errors.append("throughput value must be positive")
        elif not THROUGHPUT_UNIT.search(str(throughput["unit"])):
            errors.append(f"throughput unit {throughput['unit']!r} is not tokens/s, s/image or s/batch")
    errors += _source_errors(row["source"], published)
    return errors


def _source_errors(source: Any, published: Any) -> list[str]:
    if not isinstance(source, dict):
        return ["source must be a mapping"]
    errors = []
    fragment = source.get("fragment")
    if not isinstance(fragment, str) or len(fragment.strip()) < 5:
        errors.append("source.fragment (verbatim quote) missing")
    pinned = all(isinstance(source.get(k), str) and source.get(k) for k in ("repo", "path", "commit"))
    if pinned and not re.fullmatch(r"[0-9a-f]{40}", source["commit"]):
        errors.append("source.commit must be a 40-hex commit")
    url = source.get("url")
    if not pinned and not (isinstance(url, str) and url.startswith("https://")):
        errors.append("source needs repo+path+commit or an https url")
    if isinstance(fragment, str) and isinstance(published, str) and _numbers(published):
        fragment_numbers = set(_numbers(fragment))
        if not any(n in fragment_numbers for n in _numbers(published)):
            errors.append("the fragment does not contain the published figure")
    return errors


def file_errors(rows: Any) -> list[str]:
    if not isinstance(rows, list) or not rows:
        return ["file must hold a non-empty list of rows"]
    errors = [f"{row.get('id', '?') if isinstance(row, dict) else '?'}: {e}" for row in rows for e in row_errors(row)]
    ids = [row.get("id") for row in rows if isinstance(row, dict)]
    errors += [f"duplicate id {i}" for i in sorted({i for i in ids if ids.count(i) > 1})]
    return errors


def _files() -> list[Path]:
    return sorted(GROUNDTRUTH_DIR.glob("*.yaml"))


def _load(path: Path) -> Any:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def _all_rows() -> list[dict[str, Any]]:
    return [row for path in _files() for row in _load(path)]


def test_there_are_ground_truth_files() -> None:
    assert _files(), f"no YAML under {GROUNDTRUTH_DIR}"


@pytest.mark.parametrize("path", _files(), ids=lambda p: p.name)
def test_every_row_is_valid(path: Path) -> None:
    assert file_errors(_load(path)) == []


def test_ids_are_unique_across_files() -> None:
    ids = [row["id"] for row in _all_rows()]
    assert len(ids) == len(set(ids))


def test_at_least_150_measured_rows() -> None:
    assert sum(row["kind"] == "measured" for row in _all_rows()) >= 150


def test_groups_and_sources_are_new_to_the_shared_set() -> None:
    if not SHARED_PUBLISHED.exists():
        pytest.skip("shared published.yaml not available here")
    shared = yaml.safe_load(SHARED_PUBLISHED.read_text(encoding="utf-8"))
    shared_groups = {row["group"] for row in shared}
    shared_cites = {
        (row["source"].get("repo"), row["source"].get("path"), row["source"].get("fragment")) for row in shared
    }
    for row in _all_rows():
        assert row["group"] not in shared_groups, row["id"]
        assert (row["source"].get("repo"), row["source"].get("path"), row["source"]["fragment"]) not in shared_cites


# --- the checks can fail -----------------------------------------------------------------------------------------

def _good_row() -> dict[str, Any]:
    return {
        "id": "example-row", "group": "example", "model": "org/model", "task": "inference", "precision": "bf16",
        "seq_len": 1000, "gen_len": None, "batch_size": 1, "num_gpus": 1, "gpu": "A100 80GB", "settings": None,
        "memory_gb": 14.5, "memory_published": "14848 MiB", "memory_scope": "per_gpu", "memory_relation": "peak",
        "throughput": {"value": 40.0, "unit": "tokens/s", "gpu": "1x A100", "note": None}, "kind": "measured",
        "source": {"repo": "org/repo", "path": "README.md", "commit": "a" * 40, "fragment": "| BF16 | 14848 MiB |"},
        "notes": None,
    }


def test_the_reference_row_is_valid() -> None:
    assert row_errors(_good_row()) == []


BROKEN = {
    "no fragment": lambda r: r["source"].pop("fragment"),
    "fragment without the figure": lambda r: r["source"].update(fragment="| BF16 | see table |"),
    "no citation": lambda r: r.update(source={"fragment": "| BF16 | 14848 MiB |"}),
    "short commit": lambda r: r["source"].update(commit="abc123"),
    "MiB read as GiB": lambda r: r.update(memory_gb=14848),
    "wrong conversion": lambda r: r.update(memory_gb=15.9),
    "unknown task": lambda r: r.update(task="pretraining"),
    "unknown relation": lambda r: r.update(memory_relation="about"),
    "missing key": lambda r: r.pop("memory_scope"),
    "extra key": lambda r: r.update(vram=14),
    "negative batch": lambda r: r.update(batch_size=0),
    "throughput unit": lambda r: r["throughput"].update(unit="it/s"),
}


@pytest.mark.parametrize("breakage", sorted(BROKEN))
def test_a_broken_row_is_reported(breakage: str) -> None:
    row = copy.deepcopy(_good_row())
    BROKEN[breakage](row)
    assert row_errors(row), breakage


def test_a_duplicate_id_is_reported() -> None:
    assert any("duplicate id" in e for e in file_errors([_good_row(), _good_row()]))
