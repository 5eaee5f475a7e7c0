"""vLLM's request cap lowered when its start-up warm-up is all that does not fit the card asked about."""

from __future__ import annotations

from bot.reply.answer import answer
from bot.reply.render import render_text
from bot.understand.parse import parse
from knowledge.loader import default_knowledge
from tests.bot.reply._answers import ask_json

KB = default_knowledge()


def test_gpt_oss_120b_on_one_h100_for_32_users_is_priced_on_that_h100() -> None:
    # audit 19/20 M-7: "No: 76.6 GiB … 73.9", its own fix (--max-num-seqs 512) fitting, and only 2× H100 and a
    # GH200 priced. With the cap at 512 (≥ the 32 users) the H100 holds it and is the price asked for
    result = answer(parse("What does it cost to serve gpt-oss-120b on one H100 with vLLM, per million output "
                          "tokens, at 32 concurrent users?", KB), KB)
    assert result.check is not None and result.check.fits
    assert result.picks[0].gpu == "h100-sxm" and result.picks[0].count == 1
    assert result.cost is not None and result.cost.gpu == "h100-sxm" and result.cost.per_million_tokens
    assert "--max-num-seqs 512" in render_text(result, KB)


def test_a_cap_the_question_sets_is_not_lowered_behind_its_back() -> None:
    result = answer(parse("gpt-oss-120b on one H100 with vLLM, --max-num-seqs 1024, 32 users", KB), KB)
    assert not any(a.reason == "request-cap-lowered" for a in result.assumptions)


def test_a_named_card_with_no_count_gets_the_cap_lowered_too() -> None:
    # found in audit 23's HIGH 1 rewording: Llama 3.2 Vision on "AWS g6e" (L40S) with no count fitted no count of
    # L40S at vLLM's default cap (a dummy image a slot: 78.6 GiB of vision activations), so 2× H200 at 63 USD/h led
    reply = ask_json("Llama 3.2 11B Vision 在 AWS g6e 上處理發票圖片，每張 1120x1120，每天 10 萬張，"
                     "要幾張卡、一個月多少錢？")
    top = reply["picks"][0]
    assert top["gpu"] == "l40s" and top["fits"]
    assert any(a["field"] == "max_num_seqs" for a in reply["assumptions"])
    assert reply["cost"]["instance"].startswith("g6e")
