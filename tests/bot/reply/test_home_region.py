"""A Chinese question's Alibaba Cloud instance is priced in a region its asker rents in: mainland China for
Simplified Chinese, Hong Kong for Traditional, the cheapest region anywhere otherwise; an instance with no row
there keeps its cheapest (audit 23 LOW-27: a T4 quoted in Virginia at 7.79 CNY, against 11.84 in Shanghai)."""

from __future__ import annotations

import pytest

from bot.reply.answer import answer
from bot.reply.pricing import home_region_rows
from bot.understand.parse import parse
from knowledge.base import KnowledgeBase
from knowledge.loader import load_knowledge


@pytest.fixture(scope="module")
def kb() -> KnowledgeBase:
    return load_knowledge()


@pytest.mark.parametrize(("text", "region"), [
    ("阿里云 T4 跑 Qwen2.5-7B-AWQ，每小时多少钱？", "cn-shanghai or cn-shenzhen"),
    ("阿里雲 T4 跑 Qwen2.5-7B-AWQ，每小時多少錢？", "cn-hongkong"),
    ("Qwen2.5-7B-AWQ on an Alibaba Cloud T4: price per hour?", "us-east-1"),
])
def test_the_instance_is_priced_where_the_asker_rents(kb: KnowledgeBase, text: str, region: str) -> None:
    result = answer(parse(text, kb), kb)
    assert result.cost is not None and result.cost.instance == "ecs.gn6i-c4g1.xlarge"
    assert result.cost.region == region


def test_an_instance_with_no_home_row_keeps_its_cheapest_region(kb: KnowledgeBase) -> None:
    rows = [row for row in kb.prices.values() if row.cloud == "alibaba"]
    mainland = home_region_rows(rows, "mainland")
    by_instance: dict[str, list[str]] = {}
    for row in mainland:
        by_instance.setdefault(row.instance, []).append(row.region)
    assert {row.instance for row in rows} == set(by_instance)  # no instance lost
    # every instance priced in mainland China keeps only those rows
    for instance, regions in by_instance.items():
        inside = [r for r in regions if r.startswith("cn-") and r != "cn-hongkong"]
        assert not inside or inside == regions, instance
    # other clouds are untouched
    aws = [row for row in kb.prices.values() if row.cloud == "aws"]
    assert home_region_rows(aws, "hongkong") == aws
