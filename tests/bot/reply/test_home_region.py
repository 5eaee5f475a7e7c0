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


@pytest.mark.parametrize(("text", "cloud"), [
    ("qwen2.5 14b 用 ollama 4060 8g 能跑ㄇ 會很慢嗎", "aws"),  # a Traditional-Chinese reader: AWS's global regions
    ("qwen2.5 14b 用 ollama 4060 8g 能跑吗 会很慢吗", "aws-china"),  # a mainland reader: AWS's China regions
    ("Qwen2.5-7B 在亞馬遜雲科技中國區 g5.xlarge 上每月多少錢", "aws-china"),  # named: priced there, whoever asks
    ("Qwen2.5-7B 在 AWS 宁夏区域 g5.xlarge 上每月多少钱", "aws-china"),
])
def test_the_a10g_is_priced_on_the_aws_its_asker_can_rent(kb: KnowledgeBase, text: str, cloud: str) -> None:
    # audit 22-24 LOW-10: "亞馬遜雲科技中國區 g5.xlarge 6.70 CNY" for a Traditional-Chinese question; AWS's
    # Beijing and Ningxia regions take a separate China account
    result = answer(parse(text, kb), kb)
    priced = [result.cost.cloud] if result.cost is not None and result.cost.gpu == "a10g" else []
    priced += [pick.cloud for pick in result.picks if pick.gpu == "a10g"]
    assert priced and set(priced) == {cloud}


def test_a_card_priced_only_in_smaller_instances_is_said_so(kb: KnowledgeBase) -> None:
    # audit 25 LOW-47: "L20在阿里云上没有找到公开标价" beside replies that price the 1-card L20 at 14.63 CNY/h; a
    # 2-card L20 replica has no price because only the 1-card instance is listed
    from bot.reply.render import render_text

    result = answer(parse("预算一个月 5 万人民币，想在阿里云上跑 Qwen2.5-72B-Instruct，每秒 3 个请求，"
                          "输入 2k 输出 500，选什么实例，够不够？", kb), kb)

    text = render_text(result, kb=kb)
    assert "L20在阿里云上只有更小规格实例（卡更少）的公开标价" in text and "L20在阿里云上没有找到公开标价" not in text
