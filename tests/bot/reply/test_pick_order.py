"""The card named gives way in the picks to a set that rents for less and costs less a token (audit 26 LOW-58,
audit 34 M-127)."""

from __future__ import annotations

from bot.reply.answer import answer
from bot.understand.parse import parse
from knowledge.loader import default_knowledge

KB = default_knowledge()


def test_more_of_the_card_asked_gives_way_to_a_cheaper_faster_card() -> None:
    # 2× A100 40GB (3.98 USD/h, ~9.6 tok/s) had led one A100 80GB (1.29 USD/h, ~12 tok/s)
    result = answer(parse("Mistral Small 3.1 24B in bf16 on one A100 40GB with 32k context, does it fit?", KB), KB)
    first, *rest = result.picks
    scale_out = next(p for p in rest if p.gpu == "a100-40gb")
    assert first.gpu != "a100-40gb" and first.fits
    assert first.price_per_hour is not None and scale_out.price_per_hour is not None
    assert first.price_per_hour < scale_out.price_per_hour
    assert (first.decode_tokens_per_s or 0) >= (scale_out.decode_tokens_per_s or 0)
    assert result.check is not None and not result.check.fits  # the verdict is still the card asked about's


def test_users_laid_out_on_more_of_the_card_asked_give_way_too() -> None:
    # 8 users on 2× L4 need 4 of them (4.60 USD/h, ~15 tok/s); one A100 80GB holds them at 1.29 USD/h, ~28 tok/s
    result = answer(parse("DeepSeek-R1-Distill-Qwen-32B in FP8 on 2x L4 with vLLM, 8 users at 16k context, ok?", KB),
                    KB)
    assert result.picks[0].gpu == "a100-80gb"
    assert any((p.gpu, p.count) == ("l4", 4) for p in result.picks[1:])


def test_how_many_of_the_card_named_is_still_answered_first() -> None:
    # the control: "how many" of a card is answered with the count of it, whatever else is cheaper
    result = answer(parse("how many A100 40GB do I need for Mistral Small 3.1 24B in bf16 at 32k context?", KB), KB)
    assert result.picks[0].gpu == "a100-40gb" and result.picks[0].count == 2



def test_a_check_on_a_card_without_a_count_lets_its_scale_out_give_way_too() -> None:
    # audit 27 LOW-58 residue (s10): "在 T4 上 fp16 能跑吗" checks one T4 as "one T4" would; its 2× T4 at
    # 30.94 CNY/h and ~10 tok/s had stayed above one RTX A6000 at 0.50 USD/h and ~19 tok/s
    result = answer(parse("DeepSeek-R1-Distill-Llama-8B 在 T4 上 fp16 能跑吗？", KB), KB)
    first = result.picks[0]
    assert first.gpu != "t4" and first.fits and first.price_per_hour is not None
    assert any((p.gpu, p.count) == ("t4", 2) for p in result.picks[1:])


def test_how_many_of_a_card_without_a_check_still_leads_with_it() -> None:
    result = answer(parse("how many T4s for DeepSeek-R1-Distill-Llama-8B in fp16?", KB), KB)
    assert result.picks[0].gpu == "t4"


def test_the_card_deployed_on_leads_a_check_with_no_count() -> None:
    # audit 30 LOW-123: "部署在 L20 上 … 能支持多少并发" listed the L20 third, behind USD-priced cards
    from tests.bot.reply._answers import ask_json

    reply = ask_json("InternLM2-20B 用 LMDeploy 部署在 L20 上，int4 量化，能支持多少并发？")
    assert reply["picks"][0]["gpu"] == "l20" and reply["picks"][0]["count"] == 1


def test_asked_for_cheaper_the_card_named_goes_after_every_cheaper_pick() -> None:
    # audit 33 M-111: "cheaper?" after Qwen2.5-72B for 20 users on an H100 kept 4× H100 (16.36 USD/h) first, above
    # 4× RTX A6000 (2.00) and 4× L40 (4.00): slower cards, but cheaper is what was asked
    from tests.bot.reply._answers import thread

    cheaper = answer(thread("serve Qwen2.5-72B-Instruct for 20 users on H100", "cheaper?"), KB)
    named = [i for i, p in enumerate(cheaper.picks) if p.gpu == "h100-sxm"]
    priced = [p.price_per_hour for p in cheaper.picks[:named[0]]]
    assert named and named[0] > 0 and all(price is not None for price in priced)
    held = next(p for p in cheaper.picks if p.gpu == "h100-sxm").price_per_hour or 0
    assert all((price or 0) < held for price in priced)
    # the same question without "cheaper" still lists the card asked about
    assert any(p.gpu == "h100-sxm" for p in answer(thread("serve Qwen2.5-72B-Instruct for 20 users on H100"), KB).picks)


def test_the_card_named_gives_way_to_one_that_costs_less_a_token() -> None:
    # audit 34 M-127: 4× L4 (4.60 USD/h, ~22 tok/s a sequence) led one RTX A6000 (0.50 USD/h, ~17 tok/s) for the
    # same 8 users: 0.21 against 0.029 USD per thousand seconds of a sequence's decode, 7× the cost a token
    result = answer(parse("Qwen2.5-14B with vLLM on one L4, 8 users at 8k context", KB), KB)
    first = result.picks[0]
    named = next(p for p in result.picks if p.gpu == "l4")
    assert first.gpu != "l4" and first.fits
    assert first.price_per_hour and named.price_per_hour and first.decode_tokens_per_s and named.decode_tokens_per_s
    assert (first.price_per_hour / first.decode_tokens_per_s) < (named.price_per_hour / named.decode_tokens_per_s)


def test_cheaper_after_a_count_asked_goes_past_the_set_asked_too() -> None:
    # audit 35 (M-111 again): "what about 4 of them?" → "cheaper?" kept 4× L40S (9.14 USD/h) first, above
    # 2× RTX A6000 (1.00 USD/h) that holds the job
    from tests.bot.reply._answers import thread

    result = answer(thread("serve Qwen2.5-32B AWQ on one L40S for 16 users at 8k context", "what about 4 of them?",
                           "cheaper?"), KB)
    first = result.picks[0]
    l40s = next(p for p in result.picks if p.gpu == "l40s")
    assert first.gpu != "l40s" and first.fits
    assert first.price_per_hour is not None and l40s.price_per_hour is not None
    assert first.price_per_hour < l40s.price_per_hour


def test_cheaper_for_a_training_job_of_known_length_ranks_by_the_jobs_bill() -> None:
    # audit 38 HIGH-118: after a LoRA of 1B tokens on one A100 80GB (≈ 74.43 USD), "cheaper?" led with an RTX A6000
    # at 0.50 USD/h whose 6.5 days cost 78.50 USD, and dropped the H100 PCIe whose 28.5 h cost 54.15
    from tests.bot.reply._answers import thread

    first = thread("Fine-tune Qwen2.5-7B with LoRA on 1B tokens on one A100 80GB, how long will it take?")
    cheaper = answer(thread("Fine-tune Qwen2.5-7B with LoRA on 1B tokens on one A100 80GB, how long will it take?",
                            "cheaper?"), KB)
    totals = [p.job_cost for p in cheaper.picks]
    assert all(total is not None for total in totals) and totals == sorted(totals)  # type: ignore[type-var]
    asked = next(p for p in answer(first, KB).picks if p.gpu == "a100-80gb")
    assert cheaper.picks[0].job_cost is not None and asked.job_cost is not None
    assert cheaper.picks[0].job_cost < asked.job_cost  # the first "cheaper" pick costs less for the job
