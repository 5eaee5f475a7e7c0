"""A set with no public price is laid out as replicas on the instances a cloud prices (audit 27 M-42)."""

from __future__ import annotations

from bot.service import Advisor


def test_an_unpriced_pair_becomes_priced_one_card_replicas() -> None:
    # Alibaba Cloud rents the L20 one card to a VM: 2 L20s in tensor parallel for 32 users had no price, and the
    # month asked got none; one L20 holds 11 such users, so 3 one-card replicas at 14.63 CNY/h each
    advisor = Advisor(fetch_config=None)
    advisor.respond("Qwen3-32B AWQ 用 vLLM，32 个用户、8k 上下文，一张 L20 够吗？", "T:m42")
    answer = advisor.respond("阿里云上每月多少钱", "T:m42").answer
    top = answer.picks[0]
    assert (top.gpu, top.count, top.replicas) == ("l20", 3, 3)
    assert top.price_per_hour is not None and abs(top.price_per_hour - 3 * 14.63) < 0.01
    assert (top.max_concurrent_sequences or 0) >= 32
    assert answer.cost is not None and answer.cost.per_month is not None
    assert abs(answer.cost.per_month - 3 * 14.63 * 730) < 1.0


def test_a_priced_set_is_left_as_it_is() -> None:
    # the control: 2 A100s in one priced instance stay one set
    advisor = Advisor(fetch_config=None)
    answer = advisor.respond("Qwen3-32B AWQ on 2x A100 80GB with vLLM, 32 users at 8k on AWS: fits?", "T:c").answer
    assert all((p.replicas or 1) == 1 for p in answer.picks if p.gpu == "a100-80gb")


def test_the_set_asked_about_keeps_the_layout_its_verdict_is_for() -> None:
    # audit 27 LOW-82: 4 RTX 6000 Ada asked (Yes in tensor parallel, 32 sequences) had been listed first as 2
    # priced replicas of 2 holding 12
    advisor = Advisor(fetch_config=None)
    answer = advisor.respond("Mixtral 8x22B AWQ on 4x RTX 6000 Ada with vLLM, 8 users at 16k: fits?", "T:l82").answer
    top = answer.picks[0]
    assert (top.gpu, top.count, top.replicas or 1) == ("rtx-6000-ada", 4, 1)
    assert answer.check is not None and answer.check.fits
