"""A cloud that prices a GPU apart from its VM (GCP's L4): the job and the month are costed at the GPU's price as
floors, said to be floors, instead of no figure at all (audit 21 M-11)."""

from __future__ import annotations

from tests.bot.reply._answers import KB
from tests.bot.reply._answers import ask_json as _ask

GCP_L4 = next(row.price_per_hour for row in KB.prices.values() if row.host_billed_separately and row.gpu == "l4")


def test_a_transcription_job_on_gcp_is_costed_at_the_gpu_alone_as_a_floor() -> None:
    answer = _ask("Whisper large-v3 transcribe 3000 hours of audio on one L4 on GCP, how long and what cost?")
    cost = answer["cost"]
    assert cost["gpu_only"] is True and cost["cloud"] == "gcp" and cost["count"] == 1
    assert cost["per_hour"] == round(GCP_L4, 4)
    hours = answer["speed"]["job_hours"]
    assert cost["hours"] == round(hours, 2) and abs(cost["total"] - hours * GCP_L4) < 0.01
    text = answer["text"]
    assert f"≥ {GCP_L4:.3f} USD/h" in text and f"at least {cost['total']:,.2f} USD" in text
    assert "these figures are floors, not the bill" in text
    assert "so no instance price is given" not in text  # said once, as the floor, not also as a gap


def test_a_month_on_gcp_in_chinese_is_a_floor_of_730_gpu_hours() -> None:
    answer = _ask("Mistral 7B 在 GCP 的 L4 上 24 小时不停跑，一个月多少钱？")
    cost = answer["cost"]
    assert cost["gpu_only"] is True
    assert round(cost["per_month"]) == round(GCP_L4 * 730) == 407
    assert "每月 ≥ 407 USD" in answer["text"] and "下限" in answer["text"]


def test_a_budget_the_gpu_alone_fits_is_not_called_enough() -> None:
    under = _ask("Llama 3.1 8B on GCP L4, budget 1000 USD per month")["budget"]
    assert under["within"] is None and under["reason"] == "host"
    over = _ask("Llama 3.1 8B on GCP L4, budget 300 USD per month")
    assert over["budget"]["within"] is False  # the GPU alone already costs more
    assert "≥ 407" in over["text"]


def test_a_cloud_that_rents_whole_instances_is_not_a_floor() -> None:
    cost = _ask("Llama 3.1 8B on one L4 on AWS, cost per month?")["cost"]
    assert cost["gpu_only"] is False and cost["instance"] == "g6.xlarge"


def test_a_gpu_only_rent_asked_says_the_vm_is_extra_and_promises_no_figures_it_lacks() -> None:
    # audit 27 M-47 and LOW-69: "4× L4 as asked: 2.23 USD/h … the figures below are for 1× H20 96GB" where 2.23
    # is GCP's price for the four GPUs alone (the g2 VM is billed on top) and no H20 figure followed
    text = _ask("Two things: (1) how much VRAM does Gemma 3 27B need in FP8 at 128k context for a single user, and "
                "(2) what's the monthly cost of running it 24/7 on a GCP g2-standard-48 (4x L4)?")["text"]
    line = next(row for row in text.splitlines() if "as asked" in row)
    assert "4× L4 as asked: 2.23 USD/h" in line
    assert "price for the GPUs alone" in line and "billed on top" in line
    assert "figures below" not in line and "has no public price here" in line
