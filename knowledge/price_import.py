"""Import GPU prices from a SkyPilot catalog so an operator can refresh them without code.

SkyPilot's catalog (`skypilot-org/skypilot-catalog`, `catalogs/v8/<cloud>/vms.csv`) has one row per instance
type and zone: InstanceType, AcceleratorName, AcceleratorCount, vCPUs, MemoryGiB, GpuInfo, Price, SpotPrice,
Region, ... The same columns in a YAML list are read too. Rows are reduced like the shipped data: per
instance type, the cheapest region and the median over regions. Accelerator names go through the knowledge
base's GPU index, checked against the card memory in GpuInfo, because catalogs and the base do not spell
variants alike (SkyPilot's bare "A100" is the 40 GB card; the base's bare "A100" is the 80 GB one). A name
that does not map confidently is reported, not guessed; `gpu_map` settles it by hand.
"""

from __future__ import annotations

import ast
import csv
import datetime as _dt
import math
import os
import re
import statistics
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from knowledge.base import KnowledgeBase
from knowledge.errors import KnowledgeDataError, KnowledgeError
from knowledge.files import write_yaml_atomically
from knowledge.loader import USER_DIR_ENV, default_knowledge
from knowledge.prices import Price

MEMORY_TOLERANCE = 0.10
"""Catalog memory (MiB, as the driver reports it) and the base's nominal GB differ by a few percent at most."""


@dataclass
class CatalogImport:
    prices: list[Price]
    unmapped: dict[str, int] = field(default_factory=dict)
    """Accelerator name → rows left out because it maps to no knowledge GPU id."""
    skipped_rows: int = 0
    """Rows without an accelerator, a whole GPU count or an on-demand price."""


def _number(value: Any) -> float | None:
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return number if math.isfinite(number) else None


def _memory_gib(row: Mapping[str, Any]) -> float | None:
    """Per-GPU memory from `GpuMemoryGiB` or SkyPilot's GpuInfo ("{'Gpus': [{... 'SizeInMiB': 40960}]}")."""
    stated = _number(row.get("GpuMemoryGiB"))
    if stated:
        return stated
    info = row.get("GpuInfo")
    if isinstance(info, str) and info.strip().startswith("{"):
        try:
            info = ast.literal_eval(info)
        except (ValueError, SyntaxError):
            return None
    if isinstance(info, dict):
        gpus = info.get("Gpus") or []
        if gpus and isinstance(gpus[0], dict):
            mib = _number((gpus[0].get("MemoryInfo") or {}).get("SizeInMiB"))
            return mib / 1024 if mib else None
    return None


def map_accelerator(kb: KnowledgeBase, name: str, memory_gib: float | None) -> str | None:
    """The knowledge GPU id for a catalog accelerator name, or None when it cannot be told confidently.

    With the card memory known, a confident match must agree with it (name alone first, then name + size);
    without it only an exact alias of the base is accepted.
    """
    if memory_gib is None:
        return kb.gpu_index.exact(name)
    for query in (name, f"{name} {round(memory_gib)}GB"):
        found = kb.gpu_index.lookup(query, limit=0)
        if found.confident and found.best is not None:
            nominal = kb.gpus[found.best.id].memory_gb
            if abs(memory_gib - nominal) <= MEMORY_TOLERANCE * nominal:
                return found.best.id
    return None


def _read_rows(path: Path) -> list[dict[str, Any]]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise KnowledgeDataError(str(path), None, None, f"cannot be read: {exc}") from exc
    if path.suffix.lower() in {".yaml", ".yml"}:
        try:
            data = yaml.safe_load(text)
        except yaml.YAMLError as exc:
            raise KnowledgeDataError(str(path), None, None, f"not valid YAML: {exc}") from exc
        if isinstance(data, dict) and isinstance(data.get("rows"), list):
            data = data["rows"]
        if not isinstance(data, list) or not all(isinstance(r, dict) for r in data):
            raise KnowledgeDataError(str(path), None, None, "expected a list of rows (or 'rows:' with one)")
        return data
    return list(csv.DictReader(text.splitlines()))


def _check_date(date: str | None) -> None:
    if date is None:
        return
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", date):
        raise ValueError(f"date {date!r} is not YYYY-MM-DD")
    _dt.date.fromisoformat(date)


def read_skypilot_catalog(
    path: Path | str,
    cloud: str,
    date: str | None,
    *,
    kb: KnowledgeBase | None = None,
    currency: str = "USD",
    source: str | None = None,
    authority: str = "operator import of a SkyPilot-format catalog",
    gpu_map: Mapping[str, str | None] | None = None,
) -> CatalogImport:
    """Price rows from a catalog file, one per instance type, plus what was left out and why.

    `date` is when the catalog was pulled (YYYY-MM-DD), or None when unknown: then the rows say so instead of
    carrying a made-up date. `gpu_map` maps accelerator names by hand (a None value leaves the name out).
    """
    _check_date(date)
    kb = kb or default_knowledge()
    path = Path(path)
    gpu_map = dict(gpu_map or {})
    result = CatalogImport(prices=[])
    # instance → region → cheapest row there (zones of one region collapse to their lowest price)
    by_instance: dict[tuple[str, str], dict[str, dict[str, Any]]] = {}
    for row in _read_rows(path):
        name = str(row.get("AcceleratorName") or "").strip()
        count = _number(row.get("AcceleratorCount"))
        price = _number(row.get("Price"))
        instance, region = str(row.get("InstanceType") or "").strip(), str(row.get("Region") or "").strip()
        if not name or not instance or not region or not count or count != int(count) or not price or price <= 0:
            result.skipped_rows += 1
            continue
        gpu = gpu_map[name] if name in gpu_map else map_accelerator(kb, name, _memory_gib(row))
        if not gpu:
            result.unmapped[name] = result.unmapped.get(name, 0) + 1
            continue
        regions = by_instance.setdefault((instance, gpu), {})
        if region not in regions or price < float(regions[region]["Price"]):
            regions[region] = {**row, "Price": price}
    for (instance, gpu), regions in sorted(by_instance.items()):
        region = min(regions, key=lambda r: (float(regions[r]["Price"]), r))
        row = regions[region]
        spot = _number(row.get("SpotPrice"))
        vcpu, ram = _number(row.get("vCPUs")), _number(row.get("MemoryGiB"))
        result.prices.append(
            Price(
                cloud=cloud,
                instance=instance,
                gpu=gpu,
                count=int(float(row["AcceleratorCount"])),
                vcpu=int(vcpu) if vcpu else None,
                ram_gib=ram,
                price_per_hour=float(row["Price"]),
                spot_price_per_hour=spot if spot and spot > 0 else None,
                currency=currency,
                region=region,
                median_price_per_hour=statistics.median(float(r["Price"]) for r in regions.values()),
                regions=len(regions),
                date=date,
                authority=authority,
                source=[source or f"{path.name} (SkyPilot catalog format)"],
                notes=None if date else "date unknown: the importer was not told when the catalog was pulled",
            )
        )
    return result


def import_skypilot_catalog(path: Path | str, cloud: str, date: str | None, **options: Any) -> list[Price]:
    """The price rows of `read_skypilot_catalog` alone (see there for the options)."""
    return read_skypilot_catalog(path, cloud, date, **options).prices


def write_user_prices(prices: list[Price], cloud: str, directory: Path | str | None = None) -> Path:
    """Write `prices` as `<directory>/prices-<cloud>.yaml`, replacing an earlier import of that cloud.

    `directory` defaults to `$GPU_ADVISOR_KB`, the user knowledge directory the loader merges over the
    shipped data (same cloud, instance and region: the user row wins). Written atomically.
    """
    if directory is None:
        directory = os.environ.get(USER_DIR_ENV)
        if not directory:
            raise KnowledgeError(f"no directory given and {USER_DIR_ENV} is not set")
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]*", cloud):
        raise ValueError(f"cloud name {cloud!r} cannot name a file")
    target = Path(directory).expanduser()
    target.mkdir(parents=True, exist_ok=True)
    path = target / f"prices-{cloud}.yaml"
    rows = [p.model_dump(mode="json", exclude_none=True, exclude_defaults=True) for p in prices]
    for row, price in zip(rows, prices, strict=True):
        row.setdefault("date", price.date)  # an unknown date is written as null, on purpose
    return write_yaml_atomically(path, {"prices": rows})
