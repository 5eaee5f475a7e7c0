"""SkyPilot catalog import: rows reduced per instance, names mapped with the card memory, gaps reported."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from knowledge.loader import load_knowledge
from knowledge.price_import import import_skypilot_catalog, read_skypilot_catalog, write_user_prices

HEADER = "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region,AvailabilityZone"
A100_40 = "\"{'Gpus': [{'Name': 'A100', 'Count': 8.0, 'MemoryInfo': {'SizeInMiB': 40960}}]}\""
A100_80 = "\"{'Gpus': [{'Name': 'A100-80GB', 'Count': 8.0, 'MemoryInfo': {'SizeInMiB': 81920}}]}\""
A10G = "\"{'Gpus': [{'Name': 'A10G', 'Count': 1.0, 'MemoryInfo': {'SizeInMiB': 24576}}]}\""
M60 = "\"{'Gpus': [{'Name': 'M60', 'Count': 1.0, 'MemoryInfo': {'SizeInMiB': 8192}}]}\""
ROWS = [
    f"p4d.24xlarge,A100,8,96,1152,{A100_40},32.77,12.0,us-east-1,us-east-1a",
    f"p4d.24xlarge,A100,8,96,1152,{A100_40},30.00,,us-east-1,us-east-1b",  # cheaper zone of the same region
    f"p4d.24xlarge,A100,8,96,1152,{A100_40},40.00,,eu-west-1,eu-west-1a",
    f"p4d.24xlarge,A100,8,96,1152,{A100_40},35.00,,ap-south-1,ap-south-1a",
    f"p4de.24xlarge,A100-80GB,8,96,1152,{A100_80},40.97,,us-east-1,us-east-1a",
    f"g5.xlarge,A10G,1,4,16,{A10G},1.006,0.4,us-east-1,us-east-1a",
    f"g3s.xlarge,M60,1,4,30.5,{M60},0.75,,us-east-1,us-east-1a",
    "m5.large,,,2,8,,0.096,,us-east-1,us-east-1a",  # a CPU instance
    f"p4d.24xlarge,A100,0.5,96,1152,{A100_40},1.0,,us-west-2,us-west-2a",  # fractional GPU
]


def catalog(tmp_path: Path) -> Path:
    path = tmp_path / "vms.csv"
    path.write_text("\n".join([HEADER, *ROWS]) + "\n", encoding="utf-8")
    return path


def test_rows_per_instance_cheapest_region_and_median(tmp_path: Path) -> None:
    result = read_skypilot_catalog(catalog(tmp_path), "aws", "2026-11-30", kb=load_knowledge())
    by_instance = {p.instance: p for p in result.prices}
    p4d = by_instance["p4d.24xlarge"]
    # per region lowest: us-east-1 30.00 (zone b), ap-south-1 35.00, eu-west-1 40.00 → cheapest 30, median 35
    assert (p4d.region, p4d.price_per_hour, p4d.median_price_per_hour, p4d.regions) == ("us-east-1", 30.0, 35.0, 3)
    assert p4d.spot_price_per_hour is None  # the spot price of the zone that set the price (none given there)
    assert (p4d.gpu, p4d.count, p4d.vcpu, p4d.ram_gib, p4d.currency, p4d.date) == (
        "a100-40gb", 8, 96, 1152.0, "USD", "2026-11-30"
    )  # SkyPilot's bare "A100" is the 40 GB card: memory decides, not the base's bare alias (80 GB)
    assert by_instance["p4de.24xlarge"].gpu == "a100-80gb"
    assert by_instance["g5.xlarge"].gpu == "a10g"  # its own entry, not the A10 its name starts with
    assert result.unmapped == {"M60": 1}  # the base has no M60: left out and reported, not guessed
    assert result.skipped_rows == 2
    assert "vms.csv" in p4d.source[0]


def test_gpu_map_settles_a_name_by_hand(tmp_path: Path) -> None:
    prices = import_skypilot_catalog(catalog(tmp_path), "aws", None, kb=load_knowledge(), gpu_map={"A10G": "a10"})
    g5 = next(p for p in prices if p.instance == "g5.xlarge")
    assert (g5.gpu, g5.spot_price_per_hour, g5.date) == ("a10", 0.4, None)  # the hand's mapping wins
    assert g5.notes and "date unknown" in g5.notes


def test_same_columns_as_yaml_without_memory_need_an_exact_alias(tmp_path: Path) -> None:
    path = tmp_path / "rows.yaml"
    rows = [
        {"InstanceType": "x1", "AcceleratorName": "H100", "AcceleratorCount": 1, "Price": 2.5, "Region": "r1"},
        {"InstanceType": "x2", "AcceleratorName": "RTX6000", "AcceleratorCount": 1, "Price": 0.5, "Region": "r1"},
    ]
    path.write_text(yaml.safe_dump(rows), encoding="utf-8")
    result = read_skypilot_catalog(path, "mycloud", "2026-11-30", kb=load_knowledge(), currency="CNY")
    assert [(p.instance, p.gpu, p.currency) for p in result.prices] == [("x1", "h100-sxm", "CNY")]
    assert result.unmapped == {"RTX6000": 1}  # fuzzy-close to RTX A6000, but not an alias: not guessed


def test_bad_date_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError):
        import_skypilot_catalog(catalog(tmp_path), "aws", "30/11/2026", kb=load_knowledge())


def test_written_file_loads_and_overrides_the_shipped_row(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shipped_only = load_knowledge()
    user = tmp_path / "kb"
    monkeypatch.setenv("GPU_ADVISOR_KB", str(user))
    prices = import_skypilot_catalog(catalog(tmp_path), "aws", "2026-11-30", kb=shipped_only)
    path = write_user_prices(prices, "aws")
    assert path == user / "prices-aws.yaml"
    kb = load_knowledge()
    row = kb.prices["aws/p4d.24xlarge/us-east-1"]
    assert (row.price_per_hour, row.date) == (30.0, "2026-11-30")
    assert kb.prices["aws/p4d.24xlarge/us-east-2"].date == "2026-01-21"  # the shipped row of another region stays
    write_user_prices(prices[:1], "aws")  # a re-import replaces the cloud's file
    assert len(yaml.safe_load(path.read_text())["prices"]) == 1
