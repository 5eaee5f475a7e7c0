"""A training job of a fixed size on an instance billed whole runs on every card the bill pays for."""

from __future__ import annotations

import pytest

from bot.reply.answer import answer
from bot.reply.render import render_text
from bot.understand.parse import parse
from knowledge.loader import default_knowledge

KB = default_knowledge()


def test_a_lora_on_an_aws_a100_runs_on_the_eight_cards_p4d_bills() -> None:
    # audit 19 M-3 (p07): AWS rents the A100 only as the 8-GPU p4d.24xlarge; the one-card job was timed at
    # ≈ 8.2 h on one card and billed ≈ 180 USD for the whole box. On its eight cards, data parallel, it is
    # about an eighth of that time, and the bill follows the time
    result = answer(parse("Fine-tune Qwen2.5-7B with LoRA on 100M tokens on an AWS A100", KB), KB)
    top = result.picks[0]
    assert (top.gpu, top.count, top.instance, top.instance_gpus) == ("a100-40gb", 8, "p4d.24xlarge", None)
    assert result.speed_on is not None and result.speed_on.count == 8
    one_card = answer(parse("Fine-tune Qwen2.5-7B with LoRA on 100M tokens on 1x A100 40GB", KB), KB)
    hours_one = one_card.speed["train_hours"]
    hours_eight = result.speed["train_hours"]
    assert hours_one and hours_eight and hours_eight < hours_one / 6
    assert result.cost is not None and result.cost.total is not None
    assert result.cost.total < 0.2 * 21.96 * hours_one  # not the box's rent over the one-card time
    assert any(a.reason == "whole-instance" for a in result.assumptions)
    assert "billed whole; the job uses 1" not in render_text(result, KB)


def test_how_many_for_a_job_with_no_token_count_is_the_box_it_is_billed_as() -> None:
    # audit 24 LOW-42: "how many A100 40GB … 70B with FSDP and CPU offload" answered "1× A100 40GB", priced as
    # Lambda's gpu_8x_a100 (the one A100 instance with the ≈ 1,775 GiB of host RAM the offloaded state needs)
    # "billed whole; the job uses 1": the eight cards paid for train ≈ 8× as fast for the same bill
    result = answer(parse("How many A100 40GB to full fine-tune Llama 3.1 70B with FSDP and CPU offload, seq 2048?",
                          KB), KB)
    top = result.picks[0]
    assert (top.gpu, top.count, top.instance) == ("a100-40gb", 8, "gpu_8x_a100")
    assert any(a.reason == "whole-instance" for a in result.assumptions)
    assert "the job uses 1" not in render_text(result, KB)


def test_a_count_the_question_states_is_kept() -> None:
    result = answer(parse("Fine-tune Qwen2.5-7B with LoRA on 100M tokens on 1x A100 40GB on AWS", KB), KB)
    assert result.query.gpu_count == 1 and not any(a.reason == "whole-instance" for a in result.assumptions)


def test_serving_is_not_widened_to_the_instance() -> None:
    # a serving load is sized by its own plan; only a job of a fixed size gains from the idle cards
    result = answer(parse("serve Qwen2.5-7B on an AWS A100", KB), KB)
    assert not any(a.reason == "whole-instance" for a in result.assumptions)


def test_an_encoding_job_on_two_cards_is_rented_as_two_one_card_instances() -> None:
    # audit 19 M-3 / 20 M-6 (p15): "bge-m3 … 30 million documents … on 2x L4" was billed on the 4-GPU
    # g6.12xlarge (4.60 USD/h, ≈ 156 USD); the encoder runs a copy on each card, so 2 × g6.xlarge (1.61 USD/h)
    result = answer(parse("bge-m3 embeddings for 30 million documents of 400 tokens on 2x L4: how many hours and "
                          "AWS cost?", KB), KB)
    top = result.picks[0]
    assert (top.count, top.replicas, top.instance, top.instances) == (2, 2, "g6.xlarge", 2)
    assert result.cost is not None and result.cost.instance == "g6.xlarge" and result.cost.instances == 2
    assert result.cost.total == pytest.approx(result.cost.per_hour * result.speed["job_hours"], rel=0.01)
    assert "split across the cards" not in render_text(result, KB)


def test_fewer_cards_of_a_box_listed_above_are_not_listed_at_its_bill() -> None:
    # audit 26 LOW-68: 4 H100s billed as the whole p5.48xlarge were listed below the 8 H100s on it, the same
    # 55.04 USD/h for half the cards and twice the hours
    result = answer(parse("How long and how much to continue pre-training Qwen3-8B on 2B tokens with FSDP on "
                          "8x H100 on AWS?", KB), KB)
    top = result.picks[0]
    assert (top.gpu, top.count, top.instance) == ("h100-sxm", 8, "p5.48xlarge")
    assert not [p for p in result.picks[1:] if p.instance == top.instance and p.count < top.count]


def test_the_set_asked_about_stays_though_its_box_holds_more() -> None:
    # the control: 4 H100s asked about are answered, billed as the whole 8-card box they rent
    result = answer(parse("How long to continue pre-training Qwen3-8B on 2B tokens with FSDP on 4x H100 on AWS?",
                          KB), KB)
    assert any((p.gpu, p.count) == ("h100-sxm", 4) for p in result.picks)


def test_a_set_of_the_card_asked_too_small_for_a_671b_is_answered_with_the_count_that_holds_it() -> None:
    # audit 26 HIGH 37 residue: 128 H100s for DeepSeek-V3's full fine-tune: "No", with only 64 B300s offered and
    # no count of H100s among the fixes; 512 of them hold it (72.3 GiB a card, as "how many H100s" answers)
    from bot.reply.render import render_text

    result = answer(parse("DeepSeek-V3 full fine-tuning on 128x H100: how many tokens a day?", KB), KB)
    assert result.check is not None and not result.check.fits
    assert result.picks[0].gpu == "h100-sxm" and result.picks[0].count == 512 and result.picks[0].fits
    text = render_text(result)
    assert "• 512× H100 SXM5 80GB — needs" in text
    assert "1,229 USD/h" in text  # a four-figure hourly price is grouped, to the unit as the cost line gives it
