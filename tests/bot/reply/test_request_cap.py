"""vLLM's request cap lowered when its start-up warm-up is all that does not fit the card asked about."""

from __future__ import annotations

from bot.reply.answer import answer
from bot.reply.render import render_text
from bot.understand.parse import parse
from knowledge.loader import default_knowledge

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
