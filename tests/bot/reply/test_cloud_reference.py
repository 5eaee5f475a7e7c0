"""A cloud the knowledge base has no prices for (Azure): no AWS-only card is picked there, and the same cards' list
price elsewhere is given as a labelled reference, not as Azure's (audit 21 M-10)."""

from __future__ import annotations

from tests.bot.reply._answers import KB
from tests.bot.reply._answers import ask_json as _ask


def test_the_a10g_is_known_to_be_rented_on_aws_only() -> None:
    assert KB.gpus["a10g"].only_on == ["aws", "aws-china"]
    assert not any(row.gpu == "a10g" and row.cloud not in ("aws", "aws-china") for row in KB.prices.values())


def test_an_azure_month_gets_no_aws_only_card_and_a_labelled_reference_price() -> None:
    answer = _ask("cheapest GPU to serve Mistral Small 24B AWQ on Azure, cost per month?")
    assert "a10g" not in {p["gpu"] for p in answer["picks"]}
    assert answer["cost"]["currency"] is None  # nothing is passed off as Azure's price
    reference = answer["reference_cost"]
    top = answer["picks"][0]
    assert reference["cloud"] != "azure" and (reference["gpu"], reference["count"]) == (top["gpu"], top["count"])
    assert reference["per_month"] == round(reference["per_hour"] * 730, 4)
    assert "for reference only" in answer["text"] and "another cloud's price, not Azure's" in answer["text"]
    assert f"{reference['per_month']:,.0f} USD per month" in answer["text"]


def test_the_a10g_named_on_azure_is_sized_and_said_to_be_rented_on_aws() -> None:
    answer = _ask("Llama 3 8B on an A10G on Azure?")
    assert answer["query"]["gpu"] == "a10g" and answer["check"]["fits"] is True
    assert "The A10G is made for AWS / AWS China and rented there only, not on Azure" in answer["text"]
    chinese = _ask("在Azure上用A10G跑Llama 3 8B可以吗")["text"]
    assert "只在AWS" in chinese and "Azure上没有" in chinese


def test_a_cloud_with_prices_needs_no_reference_nor_notice() -> None:
    answer = _ask("Llama 3 8B on an A10G on AWS, cost per month?")
    assert answer["reference_cost"] is None and answer["cost"]["cloud"] == "aws"
    assert "rented there only" not in answer["text"]
