"""What the benchmarks know about a source beyond its rows: the engine version its table was measured with
(source_versions.yaml) and what its memory column counted (source_counters.yaml). Each entry names the source
(repository and path, or thread URL, and optionally the commits it was checked at) and says where it was read.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import yaml

from rules import constants as C

SOURCE_VERSIONS_FILE = Path(__file__).resolve().parent / "source_versions.yaml"
"""The engine version a source's table was measured with, read from the engine's repository (see the file)."""

SOURCE_COUNTERS_FILE = Path(__file__).resolve().parent / "source_counters.yaml"
"""What a source's memory column counted, where its benchmark script says so (see the file)."""

@cache
def _source_entries(path: Path) -> tuple[dict[str, Any], ...]:
    """The entries of a per-source file (source_versions.yaml, source_counters.yaml), read once per run."""
    if not path.exists():
        return ()
    return tuple(yaml.safe_load(path.read_text(encoding="utf-8")) or [])


def source_version(case: dict[str, Any], engine: str) -> str | None:
    """The version SOURCE_VERSIONS_FILE records for this row's source and engine, if any."""
    source = case.get("source") or {}
    for entry in _source_entries(SOURCE_VERSIONS_FILE):
        if entry.get("commits") and source.get("commit") not in entry["commits"]:
            continue  # the entry dates one version of the file; a later edit of the same file is another table
        if (entry.get("repo"), entry.get("path"), entry.get("url"), entry.get("engine")) == (
                source.get("repo"), source.get("path"), source.get("url"), engine):
            return str(entry["engine_version"])
    return None


def _counter_entry(case: dict[str, Any]) -> dict[str, Any] | None:
    source = case.get("source") or {}
    for entry in _source_entries(SOURCE_COUNTERS_FILE):
        if entry.get("commits") and source.get("commit") not in entry["commits"]:
            continue
        if (entry.get("repo"), entry.get("path")) == (source.get("repo"), source.get("path")):
            return entry
    return None


def source_counter(case: dict[str, Any]) -> str | None:
    """What SOURCE_COUNTERS_FILE says this row's source counted (allocated / reserved / device), if it says."""
    entry = _counter_entry(case)
    return str(entry["counter"]) if entry else None


def device_context_gib(case: dict[str, Any]) -> float:
    """The CUDA context and kernels a device-level reading (NVML, nvidia-smi) shows on top of what PyTorch's
    allocator holds, which is what the estimate sizes: the source's own measurement where it gives one, else
    the rules' CUDA_CONTEXT_GIB; 0 for other readings."""
    entry = _counter_entry(case)
    if not entry or entry.get("counter") != "device":
        return 0.0
    return float(entry.get("context_gib", C.CUDA_CONTEXT_GIB))
