"""Prices in the knowledge base: loaded, overridden by a user file, checked, listed; the shipped rows spot-checked."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml

from knowledge.check import price_problems, run_checks
from knowledge.loader import load_knowledge
from knowledge.prices import Price, list_prices
from tests.knowledge.conftest import Writer

ROW: dict[str, Any] = {
    "cloud": "lambda",
    "instance": "gpu_8x_a100_80gb_sxm4",
    "gpu": "a100-80gb",
    "count": 8,
    "vcpu": 240,
    "ram_gib": 1800,
    "price_per_hour": 22.32,
    "currency": "USD",
    "region": "us-east-1",
    "date": None,
    "authority": "SkyPilot catalog",
    "source": ["skypilot-org/skypilot-catalog/catalogs/v8/lambda/vms.csv@0f40703"],
}


def row(**fields: Any) -> dict[str, Any]:
    return {**copy.deepcopy(ROW), **fields}


def write_prices(directory: Path, rows: list[dict[str, Any]], name: str = "prices.yaml") -> None:
    (directory / name).write_text(yaml.safe_dump({"prices": rows}), encoding="utf-8")


def test_prices_load_keyed_by_cloud_instance_region(write_kb: Writer) -> None:
    directory = write_kb()
    write_prices(directory, [row(), row(region="us-west-1", price_per_hour=23.0)])
    kb = load_knowledge([directory])
    assert sorted(kb.prices) == ["lambda/gpu_8x_a100_80gb_sxm4/us-east-1", "lambda/gpu_8x_a100_80gb_sxm4/us-west-1"]
    assert kb.prices["lambda/gpu_8x_a100_80gb_sxm4/us-east-1"].price_per_gpu_hour == pytest.approx(2.79)  # 22.32/8


def test_user_row_replaces_the_shipped_row_with_the_same_key_and_adds_others(write_kb: Writer) -> None:
    shipped, user = write_kb("shipped"), write_kb("user")
    write_prices(shipped, [row()])
    write_prices(user, [row(price_per_hour=18.0, notes="negotiated"), row(region="eu-1", currency="CNY")])
    kb = load_knowledge([shipped, user])
    assert kb.prices["lambda/gpu_8x_a100_80gb_sxm4/us-east-1"].price_per_hour == 18.0
    assert kb.origins[("prices", "lambda/gpu_8x_a100_80gb_sxm4/us-east-1")].startswith(str(user))
    assert len(kb.prices) == 2
    assert run_checks(kb, shipped_dir=shipped) == []


def test_same_key_twice_in_shipped_files_is_reported(write_kb: Writer) -> None:
    directory = write_kb()
    write_prices(directory, [row()])
    write_prices(directory, [row(price_per_hour=1.0)], name="more-prices.yaml")
    found = run_checks(load_knowledge([directory]), shipped_dir=directory)
    assert [(p.entry, p.field) for p in found] == [("lambda/gpu_8x_a100_80gb_sxm4/us-east-1", "key")]


@pytest.mark.parametrize(
    ("fields", "field", "words"),
    [
        ({"price_per_hour": -1.0}, "price_per_hour", "not a positive price"),
        ({"spot_price_per_hour": 0.0}, "spot_price_per_hour", "not a positive price"),
        ({"currency": "RMB"}, "currency", "not one of USD, CNY"),
        ({"gpu": "a100"}, "gpu", "no GPU with id 'a100'"),
        ({"count": 0}, "count", "at least 1"),
        ({"date": "2026-13-01"}, "date", "not a YYYY-MM-DD date"),
        ({"date": "21 Jan 2026"}, "date", "not a YYYY-MM-DD date"),
    ],
)
def test_each_price_check_fails(write_kb: Writer, fields: dict[str, Any], field: str, words: str) -> None:
    directory = write_kb()
    write_prices(directory, [row(**fields)])
    found = run_checks(load_knowledge([directory]), shipped_dir=directory)
    assert [(p.entry, p.field) for p in found] == [("lambda/gpu_8x_a100_80gb_sxm4/us-east-1", field)]
    assert words in found[0].message
    assert found[0].file.endswith("prices.yaml")


def test_a_row_without_source_is_reported(write_kb: Writer) -> None:
    directory = write_kb()
    write_prices(directory, [row(source=[" "])])
    found = run_checks(load_knowledge([directory]), shipped_dir=directory)
    assert [p.field for p in found] == ["source"]


def test_unknown_key_fails_at_load(write_kb: Writer) -> None:
    from knowledge.errors import KnowledgeDataError

    directory = write_kb()
    write_prices(directory, [row(price_usd=1.0)])
    with pytest.raises(KnowledgeDataError, match="lambda/gpu_8x_a100_80gb_sxm4/us-east-1"):
        load_knowledge([directory])


def test_list_prices_by_gpu_name_and_cloud(write_kb: Writer) -> None:
    directory = write_kb()
    write_prices(
        directory,
        [
            row(),
            row(cloud="aws", instance="p4de.24xlarge", price_per_hour=27.44705),
            row(cloud="alibaba", instance="ecs.gn7e-c16g1.4xlarge", count=1, price_per_hour=31.267, currency="CNY"),
        ],
    )
    kb = load_knowledge([directory])
    # by id or by a name the index knows; CNY grouped apart from USD, USD by price per GPU-hour (2.79 < 3.43)
    assert [p.instance for p in list_prices(kb, gpu="A100 80GB")] == [
        "ecs.gn7e-c16g1.4xlarge",
        "gpu_8x_a100_80gb_sxm4",
        "p4de.24xlarge",
    ]
    assert [p.cloud for p in list_prices(kb, gpu="a100-80gb", cloud="AWS")] == ["aws"]
    assert list_prices(kb, gpu="no such card") == []
    assert len(list_prices(kb)) == 3


def test_price_problems_on_a_row_built_in_code() -> None:
    kb = load_knowledge()
    good = Price.model_validate(row())
    assert list(price_problems(kb, good)) == []


# ---------------------------------------------------------------------------------------- shipped data


def test_shipped_rows_spot_checks() -> None:
    """A few rows read back against the reference CSVs (cheapest region, median over regions, date)."""
    kb = load_knowledge()
    p4d = kb.prices["aws/p4d.24xlarge/us-east-2"]
    assert (p4d.gpu, p4d.count, p4d.vcpu, p4d.price_per_hour, p4d.currency) == ("a100-40gb", 8, 96, 21.95764, "USD")
    assert (p4d.regions, p4d.date) == (14, "2026-01-21")
    assert p4d.median_price_per_hour == pytest.approx(26.34679, abs=1e-4)  # the CSV rounds to 5 decimals
    lam = kb.prices["lambda/gpu_1x_h100_pcie/asia-northeast-1"]  # same price in 17 regions: first by name
    assert (lam.gpu, lam.price_per_hour, lam.date) == ("h100-pcie", 3.29, None)  # SkyPilot: date unknown
    assert "0f4070387edc953d7004cff197940e1918a1d6aa" in lam.source[0]
    gn7i = kb.prices["alibaba/ecs.gn7i-c8g1.2xlarge/cn-heyuan"]
    assert (gn7i.gpu, gn7i.price_per_hour, gn7i.currency, gn7i.date) == ("a10", 8.5794, "CNY", "2024-12-31")
    assert gn7i.median_price_per_hour == pytest.approx(10.5997, abs=1e-4)
    gcp = kb.prices["gcp/(GPU only) L4x1/us-east4"]
    assert gcp.host_billed_separately


def test_shipped_gaps_stay_gaps() -> None:
    kb = load_knowledge()
    priced = {p.gpu for p in kb.prices.values()}
    assert {"h20", "h800", "a800-80gb", "rtx-4090", "mi300x"}.isdisjoint(priced)
    assert all(p.date is None or p.date[:4] in {"2024", "2026"} for p in kb.prices.values())
    assert all(p.source and p.authority for p in kb.prices.values())
