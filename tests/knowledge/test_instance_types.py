"""`instance_types:`: the GPU layout of Azure and GCP VM types, with a source each and no invented price."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from knowledge.base import KnowledgeBase
from knowledge.check import Problem, run_checks, summary
from knowledge.errors import KnowledgeDataError
from knowledge.loader import load_knowledge
from knowledge.schema import compact_vm_name
from tests.knowledge.conftest import Writer

VM: dict[str, Any] = {
    "cloud": "azure",
    "instance": "Standard_ND96amsr_A100_v4",
    "aliases": ["NDm A100 v4"],
    "gpu": "a100-80gb",
    "count": 8,
    "source": ["MicrosoftDocs/azure-compute-docs ndma100v4-series.md"],
}
PRICE: dict[str, Any] = {
    "cloud": "azure", "instance": "Standard_ND96amsr_A100_v4", "gpu": "a100-80gb", "count": 4,
    "price_per_hour": 1.0, "currency": "USD", "region": "eastus", "authority": "test", "source": ["test"],
}


def vm(**fields: Any) -> dict[str, Any]:
    return {**copy.deepcopy(VM), **fields}


def problems_for(directory: Path) -> list[Problem]:
    return run_checks(load_knowledge([directory]), shipped_dir=directory)


@pytest.fixture(scope="module")
def kb() -> KnowledgeBase:
    return load_knowledge()


@pytest.mark.parametrize(("key", "gpu", "count"), [
    ("azure/Standard_ND96isr_H100_v5", "h100-sxm", 8),
    ("azure/Standard_ND96isr_H200_v5", "h200", 8),
    ("azure/Standard_ND96asr_v4", "a100-40gb", 8),
    ("azure/Standard_ND96amsr_A100_v4", "a100-80gb", 8),
    ("azure/Standard_NC24ads_A100_v4", "a100-80gb", 1),
    ("azure/Standard_NC80adis_H100_v5", "h100-nvl", 2),
    ("azure/Standard_NC64as_T4_v3", "t4", 4),
    ("azure/Standard_NV72ads_A10_v5", "a10", 2),
    ("azure/Standard_ND96isr_MI300X_v5", "mi300x", 8),
    ("gcp/a2-highgpu-8g", "a100-40gb", 8),
    ("gcp/a2-megagpu-16g", "a100-40gb", 16),
    ("gcp/a2-ultragpu-1g", "a100-80gb", 1),
    ("gcp/a3-highgpu-8g", "h100-sxm", 8),
    ("gcp/a3-megagpu-8g", "h100-sxm", 8),
    ("gcp/a3-ultragpu-8g", "h200", 8),
    ("gcp/a4-highgpu-8g", "b200", 8),
    ("gcp/g2-standard-48", "l4", 4),
])
def test_shipped_layouts(kb: KnowledgeBase, key: str, gpu: str, count: int) -> None:
    layout = kb.instance_types[key]
    assert (layout.gpu, layout.count) == (gpu, count)
    assert layout.source and all("@" in line or "." in line for line in layout.source)


def test_every_shipped_layout_names_a_held_card_and_its_sources(kb: KnowledgeBase) -> None:
    assert len(kb.instance_types) >= 40
    for layout in kb.instance_types.values():
        assert layout.gpu in kb.gpus and layout.count >= 1, layout.key
        assert any("@" in line for line in layout.source), f"{layout.key}: no source pinned to a commit"


def test_the_shipped_base_checks_clean_and_counts_them(kb: KnowledgeBase) -> None:
    assert run_checks(kb) == []
    assert summary(kb).endswith(f"{len(kb.instance_types)} VM types")


def test_a_gap_stays_a_gap(kb: KnowledgeBase) -> None:
    """Layouts add no price: Azure has no price row, and GCP's only rows are the ones shipped before (L4)."""
    assert not [p for p in kb.prices.values() if p.cloud == "azure"]
    names = {compact_vm_name(n) for layout in kb.instance_types.values() for n in layout.names}
    assert not [p.key for p in kb.prices.values() if compact_vm_name(p.instance) in names]


def test_marketing_and_api_names_fold_to_one_key() -> None:
    assert compact_vm_name("ND-H100-v5") == compact_vm_name("nd h100 v5") == compact_vm_name("ND H100 v5")
    assert compact_vm_name("Standard_ND96isr_H100_v5") == "standardnd96isrh100v5"


def test_a_clean_fixture_loads_and_checks_clean(write_kb: Writer) -> None:
    directory = write_kb(instance_types=[VM])
    assert problems_for(directory) == []
    assert load_knowledge([directory]).instance_types["azure/Standard_ND96amsr_A100_v4"].count == 8


@pytest.mark.parametrize(("entries", "entry", "field", "words"), [
    ([vm(gpu="a100-96gb")], "azure/Standard_ND96amsr_A100_v4", "gpu", "no GPU with id 'a100-96gb'"),
    ([vm(count=0)], "azure/Standard_ND96amsr_A100_v4", "count", "at least 1"),
    ([vm(aliases=["__"])], "azure/Standard_ND96amsr_A100_v4", "aliases", "empty"),
    ([vm(), vm(instance="Standard_ND96asr_v4", aliases=["ND-m A100 v4"], count=4)],
     "azure/Standard_ND96amsr_A100_v4, azure/Standard_ND96asr_v4", "aliases", "claimed by 2 VM types"),
])
def test_bad_layouts_name_file_entry_and_field(write_kb: Writer, entries: list[dict[str, Any]], entry: str,
                                               field: str, words: str) -> None:
    found = problems_for(write_kb(instance_types=entries))
    assert [(p.entry, p.field) for p in found] == [(entry, field)]
    assert words in found[0].message and found[0].file.endswith("instance_types.yaml")


def test_a_price_row_giving_the_name_other_cards_is_reported(write_kb: Writer) -> None:
    found = problems_for(write_kb(instance_types=[VM], prices=[PRICE]))
    assert [(p.entry, p.field) for p in found] == [("azure/Standard_ND96amsr_A100_v4", "gpu")]
    assert "4× a100-80gb" in found[0].message


def test_schema_errors_name_file_entry_and_field(write_kb: Writer) -> None:
    with pytest.raises(KnowledgeDataError) as caught:
        load_knowledge([write_kb(instance_types=[vm(gpus=8)])])
    error = caught.value
    assert error.file.endswith("instance_types.yaml")
    assert (error.entry, error.field) == ("azure/Standard_ND96amsr_A100_v4", "gpus")


def test_the_same_name_twice_in_one_file_is_refused(write_kb: Writer) -> None:
    with pytest.raises(KnowledgeDataError, match="duplicate"):
        load_knowledge([write_kb(instance_types=[VM, vm(count=4)])])


def test_a_user_file_replaces_a_shipped_layout(write_kb: Writer) -> None:
    shipped = write_kb("shipped", instance_types=[VM])
    user = write_kb("user", instance_types=[vm(notes="ours")])
    kb = load_knowledge([shipped, user])
    assert kb.instance_types["azure/Standard_ND96amsr_A100_v4"].notes == "ours"
    assert run_checks(kb, shipped_dir=shipped) == []
