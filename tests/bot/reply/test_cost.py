"""Money and time on replies: totals hand-computed from the shipped price rows and the sized throughput."""

from __future__ import annotations

import math
from typing import Any

import pytest

from bot.reply.render import render_text
from bot.reply.request import answer_request
from knowledge.loader import default_knowledge

KB = default_knowledge()
PEAK_A100_BF16 = 312e12
"""A100 dense BF16 tensor peak (NVIDIA A100 datasheet), for the 6·P·D cross-check."""


def _ask(text: str) -> object:
    return answer_request({"text": text}, KB)


def _row(cloud: str, instance: str) -> object:
    return next(p for p in KB.prices.values() if p.cloud == cloud and p.instance == instance)


def test_training_total_is_tokens_over_sized_throughput_times_price() -> None:
    result = _ask("How long to train a 3B model on 300B tokens on 32 A100s?")
    speed, cost = result.speed, result.cost
    assert result.query.tokens == 3e11
    # 300e9 tokens / 213,415 tok/s (the rules' throughput for 32 cards) / 3600 = 390.5 h
    assert speed["train_hours"] == pytest.approx(3e11 / speed["train_tokens_per_s"] / 3600, rel=1e-3)
    # the same hours as 6·P·D / (N · peak · MFU): the implied utilisation is a realistic one
    mfu = 6 * 3e9 * 3e11 / (speed["train_hours"] * 3600 * 32 * PEAK_A100_BF16)
    assert 0.25 < mfu < 0.7
    # 32 A100 80GB = 4 × Hyperstack n3-A100x8 at 10.80 USD/h (shipped row) = 43.20 USD/h. Verda's 4-GPU
    # instances at 5.16 (8 × 5.16 = 41.28) are cheaper but not node-sized: a 32-card job is laid out in nodes of 8.
    assert _row("hyperstack", "n3-A100x8").price_per_hour == 10.8
    assert _row("verda", "4A100.88V").price_per_hour == 5.16
    assert cost.cloud == "hyperstack" and cost.instances == 4 and cost.per_hour == pytest.approx(43.2)
    assert cost.total == pytest.approx(43.2 * speed["train_hours"], rel=1e-3)
    assert cost.currency == "USD" and cost.hours == pytest.approx(speed["train_hours"], abs=0.01)


def test_serving_cost_per_million_tokens_and_per_month_from_the_alibaba_list_price() -> None:
    result = _ask("How much to serve Llama-3.1-8B on an Alibaba Cloud A10 for a month?")
    cost = result.cost
    assert _row("alibaba", "ecs.gn7i-c8g1.2xlarge").price_per_hour == 8.5794
    assert cost.currency == "CNY" and cost.instance == "ecs.gn7i-c8g1.2xlarge" and cost.price_date == "2024-12-31"
    assert cost.per_month == pytest.approx(8.5794 * 730, abs=0.01)  # 6,262.96 CNY
    assert cost.total == pytest.approx(cost.per_month, abs=0.01)  # "for a month" = 730 h
    tps = result.speed["aggregate_tokens_per_s"]
    assert cost.per_million_tokens == pytest.approx(8.5794 / (tps * 3600) * 1e6, rel=1e-3)  # ≈ 144 CNY at 16.5 tok/s
    text = render_text(result, KB)
    assert "as of 2024-12-31" in text and "CNY per month" in text


def test_every_pick_carries_its_price_origin_and_a_named_cloud_filters() -> None:
    result = _ask("What would it cost to LoRA fine-tune Mistral-7B on 500M tokens on an A100 on Lambda?")
    priced = [p for p in result.picks if p.price_per_hour is not None]
    assert priced and all(p.cloud == "lambda" and p.price_source and p.price_currency == "USD" for p in priced)
    assert result.cost.cloud == "lambda" and result.cost.total == pytest.approx(
        result.cost.per_hour * result.speed["train_hours"], rel=1e-3)
    assert result.query.context != 10_000_000  # "500M tokens" is the data, not a context


def test_chinese_question_prefers_alibaba_cloud() -> None:
    result = _ask("ChatGLM-6B推理用什么GPU，一个月多少钱")
    priced = [p for p in result.picks if p.price_per_hour is not None]
    assert priced and all(p.price_currency == "CNY" for p in priced)
    clouds = [p.cloud for p in priced]
    assert clouds[0] == "alibaba" and clouds == sorted(clouds, key=lambda c: c != "alibaba")  # Alibaba first
    assert result.cost is not None and result.cost.cloud == "alibaba"  # the month is priced on the first pick


def test_unknown_price_is_said_once() -> None:
    result = _ask("How much to serve Llama-3.1-8B on an Alibaba Cloud A10 for a month?")
    text = render_text(result, KB)
    assert "price unknown" not in text
    unpriced = [p for p in result.picks if p.price_per_hour is None]
    if unpriced:
        assert text.count("No public list price known") == 1


def test_gpu_info_lists_prices_or_says_there_is_none() -> None:
    l40s = _ask("what does an L40S cost per hour on AWS")
    assert l40s.prices and all(p.cloud == "aws" and p.gpu == "l40s" for p in l40s.prices)
    assert l40s.cost is not None and l40s.cost.per_hour == min(p.price_per_hour for p in l40s.prices if p.count == 1)
    h20 = _ask("阿里云上H20多少钱一小时")
    assert h20.intent == "gpu_info" and h20.prices == [] and h20.cost is None
    assert "没有找到公开标价" in render_text(h20, KB)


def test_budget_ranks_by_money_per_generated_token() -> None:
    result = _ask("cheapest way to serve llama-3.1-8b")
    from bot.reply.pricing import price_choice
    from bot.reply.work_money import work_rate
    from bot.understand.parse import parse

    choice = price_choice(parse("cheapest way to serve llama-3.1-8b", KB))
    assert choice.currency == "USD"
    costs = []
    for p in result.picks:
        if p.price_per_hour is None or not p.fits:
            continue
        from bot.reply.defaults import workload_for

        q = parse("cheapest way to serve llama-3.1-8b", KB)
        workload, _ = workload_for(q, KB.models["llama-3.1-8b"], None)
        costs.append(p.price_per_hour / work_rate(workload, KB.gpus[p.gpu], p.count))
    assert costs == sorted(costs)


def test_exchange_rate_is_used_only_when_set_and_said(monkeypatch: pytest.MonkeyPatch) -> None:
    plain = _ask("Qwen2.5-7B inference on an L20")  # L20 is priced only by Alibaba Cloud, in CNY
    assert plain.cost.currency == "CNY" and plain.cost.fx_rate is None
    monkeypatch.setenv("GPU_ADVISOR_FX", "USD/CNY=7.1@2026-11-30")
    converted = _ask("Qwen2.5-7B inference on an L20")
    assert converted.cost.currency == "USD" and converted.cost.fx_rate == "USD/CNY=7.1@2026-11-30"
    assert converted.cost.per_hour == pytest.approx(plain.cost.per_hour / 7.1, rel=1e-3)
    assert "converted from CNY at the operator's rate USD/CNY=7.1@2026-11-30" in render_text(converted, KB)


def test_serving_plan_replicas_cover_the_users_and_name_the_binding_target() -> None:
    result = _ask("serve llama-3.1-8b with vllm on one L40S for 200 users at 20 tokens per second per user")
    plan = result.serving
    assert plan is not None and plan.binding in ("memory", "speed")
    assert plan.replicas == math.ceil(200 / plan.sequences_per_replica)
    assert plan.met and plan.decode_tokens_per_s >= 20
    # the plan's cost is the replicas' instances: replicas × the cheapest 1× L40S instance
    from bot.reply.pricing import plan_for, price_choice
    from bot.understand.parse import parse

    single = plan_for(KB, "l40s", 1, price_choice(parse("on one L40S", KB)))
    assert single is not None
    assert result.cost.per_hour == pytest.approx(single.per_hour * plan.replicas, rel=1e-3)
    assert "binding target" in render_text(result, KB)


def test_first_token_target_that_no_replica_count_meets_is_reported() -> None:
    result = _ask("serve llama-3.1-8b on one H100 for 10 users, first token under 10 ms")
    assert result.serving is not None and result.serving.binding == "ttft" and not result.serving.met


def test_a_set_up_the_job_does_not_fit_is_neither_timed_nor_billed() -> None:
    # 64 sequences of 4,096 tokens of Llama 3.1 70B need 80 GiB of KV cache: not one H100. The speed and the
    # bill are those of the first pick that fits, and the reply says which cards they describe.
    result = _ask("serve Llama-3.1-70B fp8 on H100 with sglang, 64 concurrent users")
    assert result.check is not None and not result.check.fits
    assert (result.check.gpu, result.check.count) == ("h100-sxm", 1)
    first = result.picks[0]
    assert first.fits and (first.gpu, first.count) != ("h100-sxm", 1)
    assert result.speed_on is not None and (result.speed_on.gpu, result.speed_on.count) == (first.gpu, first.count)
    assert result.cost is not None and (result.cost.gpu, result.cost.count) == (first.gpu, first.count)
    assert f"Speed ({first.count}× " in render_text(result, KB)


def test_a_set_up_that_fits_is_timed_as_named() -> None:
    result = _ask("can I LoRA Llama-3-8B on one A100 40GB?")
    assert result.check is not None and result.check.fits
    assert result.speed_on is not None and (result.speed_on.gpu, result.speed_on.count) == ("a100-40gb", 1)


@pytest.mark.parametrize(("text", "tokens", "reason", "said"), [
    # 50,000 samples × 3 epochs × 4,096 tokens (the default context) = 614.4M tokens, an upper bound it says.
    ("how long to LoRA Llama 3 8B for 3 epochs over 50,000 examples on one A100 80GB", 50_000 * 3 * 4096,
     "samples-at-context", ("50,000 samples · 3 epochs", "an upper bound")),
    # 500 steps × 4 sequences × 2,048 tokens, each step's batch taken as all cards' together.
    ("qlora llama-3-8b max_steps=500 batch 4 context 2048 on a 4090, how long", 500 * 4 * 2048, "steps-at-batch",
     ("500 training steps", "an upper bound")),
])
def test_a_job_in_samples_or_steps_is_sized_in_tokens_and_timed(text: str, tokens: int, reason: str,
                                                                   said: tuple[str, ...]) -> None:
    result = _ask(text)
    assert result.query.tokens == tokens
    assert any(a.field == "tokens" and a.reason == reason for a in result.assumptions)
    rate = result.speed["train_tokens_per_s"]
    assert result.speed["train_hours"] == pytest.approx(tokens / rate / 3600, abs=0.05)
    rendered = render_text(result, KB)
    assert all(phrase in rendered for phrase in said)


def test_image_training_steps_are_read_but_not_timed_and_the_reply_says_so() -> None:
    result = _ask("how long to train an SDXL LoRA for 2000 steps on a 4090")
    assert result.query.image_steps is None  # training steps, not the sampler's
    assert result.speed.get("train_hours") is None
    assert "not estimated for image models" in render_text(result, KB)


def test_a_job_of_months_on_the_fewest_cards_also_gets_the_count_that_takes_a_month() -> None:
    result = _ask("how much does it cost to fine-tune llama 3.1 70b with qlora on 1M samples")
    speed = result.speed
    assert speed["train_hours"] > 30 * 24  # the cards that hold it take a season
    cards, hours = speed["month_cards"], speed["month_hours"]
    assert cards > result.cost.count and hours <= 30 * 24
    assert speed["month_gpu_hours"] == pytest.approx(hours * cards, rel=0.01)
    assert "To finish within a month instead" in render_text(result, KB)
    quick = _ask("how long to LoRA Llama 3 8B for 3 epochs over 50,000 examples on one A100 80GB")
    assert "month_cards" not in quick.speed or quick.speed["month_cards"] is None  # a week's job: no such line


def test_a_stated_sample_length_is_the_sequence_length_and_a_short_job_is_timed_in_minutes() -> None:
    result = _ask("fine-tune llama 3 8b with lora on 10k samples of 512 tokens on one A100 80GB")
    assert result.query.tokens == 10_000 * 512
    assert result.query.context == 512
    assert any(a.field == "context" and a.reason == "sample-length" for a in result.assumptions)
    minutes = result.speed["train_hours"] * 60
    assert minutes < 60
    assert f"≈ {minutes:,.0f} min wall-clock" in render_text(result, KB)


def test_a_price_per_token_is_priced_at_full_load_on_cards_that_hold_the_job() -> None:
    from dataclasses import replace

    from bot.reply.defaults import workload_for
    from bot.reply.serving import fits_at
    from bot.understand.parse import parse

    text = "cost per million tokens for llama 3 70b on H100"
    result = _ask(text)
    plan = result.serving
    assert plan is not None and plan.binding == "full_load" and plan.replicas == 1
    # One H100 cannot hold 70B in bf16: the plan and the bill are on the fewest H100s that can.
    assert result.check is not None and not result.check.fits
    assert (plan.gpu, plan.gpus_per_replica) == ("h100-sxm", 2)
    assert (result.cost.gpu, result.cost.count) == ("h100-sxm", 2)
    # The replica holds as many full-context sequences as fit, and one more would not.
    question = parse(text, KB)
    workload, _ = workload_for(question, KB.models["llama-3-70b"], KB.gpus["h100-sxm"])
    assert workload.engine == "vllm"  # a price per token is a serving engine's
    n = plan.sequences_per_replica
    assert n > 1 and fits_at(workload, KB.gpus["h100-sxm"], 2, n)
    assert not fits_at(replace(workload, batch=n + 1), KB.gpus["h100-sxm"], 2, n + 1)
    # per million = price per hour / (tokens per hour at full load) × 1e6
    per_hour_tokens = plan.aggregate_tokens_per_s * 3600
    assert result.cost.per_million_tokens == pytest.approx(result.cost.per_hour / per_hour_tokens * 1e6, rel=1e-2)
    assert "sized at full load" in render_text(result, KB)
    # The same cards serving one user at a time cost several times more per token.
    one_user = _ask("serve llama 3 70b with vllm on 2x H100, 1 user, cost per million tokens")
    assert one_user.serving is None and one_user.cost.per_million_tokens > 3 * result.cost.per_million_tokens


def test_a_named_datacenter_card_that_needs_more_of_itself_leads_the_picks_at_that_count() -> None:
    result = _ask("is a single H20 enough for DeepSeek-V3")
    assert result.check is not None and not result.check.fits and result.check.count == 1
    first = result.picks[0]
    assert first.gpu == "h20" and first.fits and first.count > 1
    # the speed and the bill describe those H20s, not another card
    assert result.speed_on is not None and (result.speed_on.gpu, result.speed_on.count) == ("h20", first.count)
    # a GeForce card someone owns is not multiplied into the picks; the check's alternatives say what more would do
    owned = _ask("can I run llama 3 70b on one 4090?")
    assert owned.check is not None and not owned.check.fits
    assert all(p.gpu != "rtx-4090" for p in owned.picks)


def test_cards_compared_show_their_work_rate_and_money_per_unit_of_it() -> None:
    result = _ask("A100 vs H100 for training Llama 3 8B, which is more cost-effective?")
    assert result.intent == "compare"
    rows = {p.gpu: p for p in result.picks}
    for gpu in ("a100-80gb", "h100-sxm"):
        pick = rows[gpu]
        assert pick.fits and pick.work_tokens_per_s and pick.price_per_hour
        # money per billion trained tokens = price per hour / tokens per hour × 1e9
        assert pick.work_cost == pytest.approx(pick.price_per_hour / (pick.work_tokens_per_s * 3600) * 1e9, rel=1e-2)
    # the first card's rate is the one the speed line shows (the same set-up, timed once)
    top = result.picks[0]
    assert top.work_tokens_per_s == pytest.approx(result.speed["train_tokens_per_s"], rel=1e-3)
    assert "per billion training tokens" in render_text(result, KB).split("Speed")[0]


def test_an_instance_with_more_cards_than_the_job_uses_says_so_and_is_billed_whole() -> None:
    # AWS rents L4s by 1, 4 or 8 (g6.xlarge, g6.12xlarge, g6.48xlarge): two L4s take a g6.12xlarge at its full
    # hourly price, which the reply must not pass off as the price of two cards.
    answer = answer_request({"text": "Llama 3.1 8B on 2x L4 on AWS, cost per month"})
    cost = answer.cost
    assert cost is not None and cost.instance == "g6.12xlarge" and cost.count == 2 and cost.instance_gpus == 4
    text = render_text(answer)
    assert "it holds 4 GPUs and is billed whole; the job uses 2" in text
    one = answer_request({"text": "Llama 3.1 8B on one L4 on AWS, cost per month"}).cost
    assert one is not None and one.instance_gpus is None  # a g6.xlarge holds exactly the one


def test_a_training_job_on_an_unpriced_card_says_what_the_bill_is_made_of() -> None:
    answer = _ask("train a 7B model on 100B tokens on 8 H800s, how long and how much")
    assert answer.cost is not None and answer.cost.currency is None  # no public H800 price: none guessed
    gpu_hours = answer.speed["gpu_hours"]
    assert gpu_hours is not None and gpu_hours > 0
    text = render_text(answer, kb=KB)
    assert f"the bill is {gpu_hours:,.0f} GPU-hours × your price per GPU-hour" in text


def test_cards_priced_in_another_currency_are_ordered_by_their_prices_not_by_a_proxy() -> None:
    from bot.reply.pricing import hourly_prices, price_choice, price_levels
    from bot.understand.parse import parse

    # The rows' own CNY/USD level: the median ratio over cards priced in both (T4, A10, A10G, V100, A100 …).
    level = price_levels(KB, "CNY")["USD"]
    assert 3.0 < level < 30.0
    chinese = price_choice(parse("用LoRA微调GLM-4-9B需要多大显存", KB))
    price = hourly_prices(KB, chinese)
    ada, l4 = KB.gpus["rtx-6000-ada"], KB.gpus["l4"]
    # one RTX 6000 Ada at 0.83 USD/h must not be ordered above two L4s at 4.60 USD/h in a Chinese question
    assert (price(ada, 1) or 0) < (price(l4, 2) or 0)
    assert price(ada, 1) == pytest.approx(0.8262 * level, rel=0.01)
    # the home cloud still leads, and the English reply's order is the same among the rest
    zh = _ask("用LoRA微调GLM-4-9B需要多大显存")
    assert zh.picks[0].cloud == "alibaba"


def test_an_offloaded_job_is_priced_only_on_instances_with_the_host_ram_it_needs() -> None:
    # ZeRO-3 offload_param of a 7B full fine-tune keeps ≈ 191 GiB in host RAM: Verda's 1V100.6V (23 GiB of RAM)
    # cannot run it, so it is not the V100's price; a card none of whose instances can says so.
    answer = _ask("full fine-tune Qwen2.5-7B with ZeRO-3 offload_param on 1x RTX 4090, how long for 100M tokens")
    assert answer.estimate is not None and (answer.estimate.host_ram_gb or 0) > 100
    need = answer.estimate.host_ram_gb
    rows = {(p.cloud, p.instance): p for p in KB.prices.values()}
    for pick in answer.picks:
        if pick.instance and (pick.cloud, pick.instance) in rows:
            ram = rows[(pick.cloud, pick.instance)].ram_gib
            assert ram is None or ram >= need, pick
    v100 = [p for p in answer.picks if p.gpu == "v100-16gb"]
    assert all(p.instance != "1V100.6V" for p in v100)


@pytest.mark.parametrize("text", ["renting 8x H100 for 3 months, how much, to fine-tune Llama 3.1 70B",
                                  "租8张H100训练3个月要多少钱，训练Llama 3.1 70B全参"])
def test_the_rent_of_the_named_set_is_given_when_it_cannot_hold_the_job(text: str) -> None:
    # A full fine-tune of a 70B needs 164 GiB a card on 8 H100s: the reply prices the 32 that hold it, and
    # also the 8 asked about: Hyperstack n3-H100-SXM5x8 at 19.20 USD/h × 3 × 730 h = 42,048 USD.
    result = _ask(text)
    assert result.intent == "check" and result.check is not None and not result.check.fits
    assert _row("hyperstack", "n3-H100-SXM5x8").price_per_hour == 19.2
    asked = result.asked_cost
    assert asked is not None and asked.count == 8 and asked.total == pytest.approx(19.2 * 2190)
    assert result.cost is not None and result.cost.count == 32
    shown = render_text(result, kb=KB)
    assert "42,048 USD" in shown and "32× H100 SXM5 80GB" in shown


def test_no_rent_of_the_named_set_when_it_holds_the_job() -> None:
    result = _ask("how much to rent 8x H100 for 3 months to fine-tune Llama 3.1 8B")
    assert result.check is not None and result.check.fits and result.asked_cost is None


def test_a_currency_asked_is_used_through_the_operators_rate() -> None:
    from bot.reply.answer import answer
    from bot.understand.parse import parse

    text = "how long to full fine-tune Mistral 7B on 5B tokens with 16 A100 80GB, and the cost in EUR"
    rate = "USD/EUR=0.92@2026-11-30"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("GPU_ADVISOR_FX", rate)
        converted = answer(parse(text, KB), KB)
    assert converted.cost is not None and converted.cost.currency == "EUR"
    assert converted.cost.fx_rate == rate and converted.cost.per_hour == pytest.approx(21.6 * 0.92)


def test_a_currency_asked_without_a_rate_says_why_the_prices_stay_in_theirs() -> None:
    result = _ask("how long to full fine-tune Mistral 7B on 5B tokens with 16 A100 80GB, and the cost in EUR")
    assert result.cost is not None and result.cost.currency == "USD"
    [note] = [a for a in result.assumptions if a.field == "currency"]
    assert (note.value, note.reason) == ("USD", "currency-no-rate")
    assert "no exchange rate from these prices to the currency asked is set (GPU_ADVISOR_FX)" in render_text(
        result, kb=KB)


def test_an_offloaded_job_says_what_of_each_step_its_cpu_optimizer_takes() -> None:
    plain = _ask("full fine-tune Qwen2.5-7B with ZeRO-3 on 1x A100 80GB, 4k context")
    result = _ask("full fine-tune Qwen2.5-7B with ZeRO-Offload on 1x A100 80GB, 4k context")
    # 7.62e9 parameters updated on the CPU at 1e9 a second: ≈ 7.6 s added to every (micro-)step of 4,096 tokens
    step = result.speed["offload_step_s"]
    assert step == pytest.approx(7.62, abs=0.02) and plain.speed.get("offload_step_s") is None
    slower = 4096 / result.speed["train_tokens_per_s"] - 4096 / plain.speed["train_tokens_per_s"]
    assert slower == pytest.approx(step, rel=0.05)
    assert "of each step ≈ 7.6 s is the optimizer's on the CPU" in render_text(result, kb=KB)


def test_a_card_none_of_whose_instances_holds_the_offloaded_state_says_so() -> None:
    answer = _ask("full fine-tune Llama 3.1 8B with ZeRO-Offload on 2x A100 40GB, 4k context")
    need = answer.estimate.host_ram_gb if answer.estimate is not None else None
    assert need is not None and need > 100
    unpriced = [p for p in answer.picks if p.price_per_hour is None and p.gpu in
                {row.gpu for row in KB.prices.values()}]
    assert unpriced, "a card with price rows but none with the host RAM"
    assert "host RAM the offloaded state needs: not priced" in render_text(answer, kb=KB)


def test_dollars_asked_in_chinese_are_priced_in_dollars_not_by_the_home_cloud() -> None:
    # Alibaba Cloud, preferred for a Chinese question, quotes A100s in CNY only: asked in dollars, the rows that
    # quote dollars lead; on Alibaba Cloud by name, with no rate, the yuan stay and the reply says why.
    result = _ask("用8张A100全参微调Qwen2.5-7B，10亿token，要多久，用美元算多少钱？")
    assert result.cost is not None and result.cost.currency == "USD"
    on_alibaba = _ask("在阿里云用8张A100全参微调Qwen2.5-7B，10亿token，用美元算多少钱？")
    assert on_alibaba.cost is not None and on_alibaba.cost.currency == "CNY"
    assert any(a.field == "currency" and a.reason == "currency-no-rate" for a in on_alibaba.assumptions)


def test_a_training_run_under_a_day_is_said_in_hours_without_a_days_figure() -> None:
    from bot.reply.render import render_text
    from bot.reply.request import answer_request
    from knowledge.loader import default_knowledge

    kb = default_knowledge()
    text = render_text(answer_request({"text": "LoRA Llama-3-8B on 1 A100, 200M tokens, how long?"}, kb), kb)
    [line] = [line for line in text.splitlines() if line.startswith("Training 200M tokens")]
    assert "h wall-clock" in line and "days" not in line


def test_a_cost_asked_when_the_top_pick_has_no_price_is_given_for_the_first_pick_that_has_one(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from bot.reply.render import render_text
    from bot.reply.request import answer_request
    from knowledge.loader import default_knowledge
    from rules import fit

    kb = default_knowledge()
    # rented cards without a price now follow the priced ones; by the capability proxy alone the H20 leads
    monkeypatch.setattr(fit, "_rented_unpriced", lambda pool, price: [False] * len(pool))
    result = answer_request({"text": "deploy Llama-3.1-70B fp8 on Alibaba Cloud with vLLM, monthly cost?"}, kb)
    assert result.picks[0].price_per_hour is None  # the H20 has no public Alibaba price
    assert result.cost is not None and result.cost.per_month is not None
    priced = next(p for p in result.picks if p.price_per_hour is not None)
    assert (result.cost.gpu, result.cost.count) == (priced.gpu, priced.count)
    assert "the first pick with a public price" in render_text(result, kb)


def test_a_cluster_sized_count_is_timed_at_that_count() -> None:
    # "10,000 H100s" was read as 1 card (15,156 h). By hand: 6 × 7e9 × 1e12 = 4.2e22 FLOP over 10,000 × 989 dense
    # TFLOPS is 4,247 s at full rate, about 2-3 h at the 40-50% utilisation large runs report.
    result = answer_request({"text": "how long to train a 7B model on 1T tokens with 10,000 H100s"}, KB)
    assert result.query.gpu_count == 10_000
    assert 1.2 < result.speed["train_hours"] < 4.0


def test_the_cheapest_asked_in_chinese_ranks_by_money_not_by_the_home_cloud() -> None:
    # an A10G on AWS China at 6.70 CNY/h decodes faster than Alibaba's T4 at 7.79 CNY/h: in the same currency
    # it is the cheaper answer, and the home cloud no longer puts the T4 first
    reply: Any = _ask("预算每小时10元以内，跑 Qwen2.5-14B 推理，选什么卡？")
    first = reply.picks[0]
    assert first.gpu == "a10g" and first.price_currency == "CNY" and first.price_per_hour is not None
    # the T4 costs more in the same currency, so if it is offered at all it comes later
    assert all(p.price_per_hour > first.price_per_hour for p in reply.picks[1:] if p.price_currency == "CNY")


def test_an_operators_exchange_rate_ranks_prices_in_other_currencies(monkeypatch: pytest.MonkeyPatch) -> None:
    question = "最便宜的方案部署 Qwen2.5-32B 给 20 个人用，怎么配？"
    without: Any = _ask(question)
    assert without.picks[0].price_currency == "CNY"  # a USD price cannot be ranked against it without a rate
    monkeypatch.setenv("GPU_ADVISOR_FX", "USD/CNY=7.1@2026-11-30")
    with_rate: Any = _ask(question)
    assert with_rate.picks[0].gpu == "rtx-a6000" and with_rate.picks[0].price_currency == "CNY"


def test_cards_compared_are_priced_in_one_currency_when_one_covers_them() -> None:
    # the A100 came priced on Alibaba Cloud in CNY and the H100 (not on Alibaba Cloud) in USD: no cost verdict
    # could be given for "哪个性价比高"; both have USD prices, so both are priced in USD and compared
    result: Any = _ask("A100 和 H100 训练 Llama3-8B 哪个性价比高？全参，10亿 token")
    priced = [p for p in result.picks if p.price_per_hour is not None]
    assert len(priced) == 2 and {p.price_currency for p in priced} == {"USD"}
    assert any(a.field == "currency" and a.reason == "compare-one-currency" for a in result.assumptions)
    assert "单位工作量最便宜" in render_text(result)


def test_the_price_authority_is_said_in_the_replys_language() -> None:
    # "价格来源：SkyPilot catalog (its bots pull …)" left English prose in a Chinese reply
    from bot.reply.labels import PRICE_AUTHORITIES

    assert {row.authority for row in KB.prices.values()} <= set(PRICE_AUTHORITIES)
    text = render_text(_ask("ChatGLM-6B推理用什么GPU，一个月多少钱"))  # type: ignore[arg-type]
    assert "价格来源：阿里云官方 ECS 价格文件的第三方副本" in text and "official ECS price file" not in text


def test_each_cloud_named_is_priced_or_said_to_have_no_price() -> None:
    # audit 14 A-M3: "AWS vs GCP" dropped GCP without a word
    from bot.reply.answer import answer
    from bot.reply.render import render_text
    from bot.understand.parse import parse
    from knowledge.loader import default_knowledge

    kb = default_knowledge()
    question = parse("What does an 8x H100 instance cost per month on AWS vs GCP?", kb)
    assert (question.cloud, question.other_clouds) == ("aws", ["gcp"])
    result = answer(question, kb)
    assert result.cost is not None and result.cost.cloud == "aws" and result.cost.per_hour
    [gcp] = result.other_cloud_costs
    assert gcp.cloud == "gcp" and gcp.per_hour is None  # no dated GCP H100 price in the knowledge base
    text = render_text(result, kb=kb)
    assert "No public list price known for 8× H100 SXM5 80GB on GCP: none is guessed." in text
    lambda_too = answer(parse("8x H100 per hour on AWS or Lambda?", kb), kb)
    assert lambda_too.intent == "gpu_info"  # a rental asked about, not a job to size
    assert [c.cloud for c in lambda_too.other_cloud_costs] == ["lambda"]
    assert lambda_too.other_cloud_costs[0].per_hour  # Lambda's 8-card H100 row


def test_two_instances_compared_each_get_their_price_per_million_tokens() -> None:
    reply: Any = _ask("Llama 3.1 8B: cost per million output tokens on g6.xlarge vs g5.xlarge?")
    assert [p.gpu for p in reply.picks] == ["l4", "a10g"]
    assert all(p.work_cost is not None and p.price_currency == "USD" for p in reply.picks)


def test_a_compute_optimal_budget_is_twenty_tokens_a_parameter_timed_and_billed() -> None:
    reply: Any = _ask("How many tokens should a 1B model be trained on (Chinchilla) and what would that cost on"
                      " Lambda H100s?")
    assert reply.query.task == "train" and reply.query.tokens == pytest.approx(20e9)
    assert any(a.field == "tokens" and a.reason == "compute-optimal" for a in reply.assumptions)
    assert reply.cost is not None and reply.cost.total is not None


def test_the_month_plan_is_priced_and_says_when_it_takes_fewer_gpu_hours() -> None:
    # audit 17 M-4: the month plan said "so more GPU-hours" beside fewer, and only the 4.5-year run had a total
    # audit 29 LOW-106: with no deadline, years on the fewest cards are no plan: the picks are the month's, each
    # with its total, and the assumption says so
    text = render_text(_ask("cost to pre-train a 7B model on 2T tokens on Lambda H100s"), KB)  # type: ignore[arg-type]
    first = next(line for line in text.splitlines() if line.startswith("1. "))
    assert "H100" in first and "days for the 2T tokens" in first and "USD in all" in first
    assert "deadline 720 h (no deadline stated" in text


def test_the_pick_on_the_plans_cards_holds_the_plans_sequences() -> None:
    from tests.bot.reply._answers import ask_json

    # the plan sizes the activations at its batch: the pick line had said 24 above a plan of 23 on the same cards
    reply = ask_json("qwen3 32b 用 sglang 部署，fp8 kv cache，4 张 L20 能支持多少并发，上下文 32k")
    plan, top = reply["serving"], reply["picks"][0]
    assert (top["gpu"], top["count"]) == (plan["gpu"], plan["gpus_per_replica"] * plan["replicas"])
    assert top["max_concurrent_sequences"] == plan["sequences_per_replica"] * plan["replicas"]


def test_alternatives_that_take_decades_beside_a_plan_of_weeks_are_not_offered() -> None:
    from tests.bot.reply._answers import ask_json

    # audit 31 LOW-146: 10,000 H800s for ≈ 25 days, then 8× B200 for 31.6 years and 16× H200 for 33.4 years
    reply = ask_json("万卡 H800 训练 70B 15T token 要多少天")
    first = reply["picks"][0]
    assert (first["gpu"], first["count"]) == ("h800", 10_000)
    assert all(p["job_hours"] is None or p["job_hours"] <= 20 * first["job_hours"] for p in reply["picks"][1:])


def test_pre_training_on_a_card_named_alone_asks_how_many_and_offers_no_adapter() -> None:
    from tests.bot.reply._answers import ask_json

    # audit 31 LOW-161: one A100 checked ("不行") with LoRA among the fixes, before the 200-card plan
    reply = ask_json("预训练 7B 模型 2T token，阿里云上用 A100 要花多少钱？")
    assert reply["intent"] == "recommend" and reply["picks"][0]["gpu"] == "a100-80gb"
    assert reply["picks"][0]["count"] >= 100 and reply["check"] is None
    one = ask_json("7B full training on 2T tokens on 1 A100")  # a count stated stays a check, with no adapter fix
    assert one["check"] is not None and not any(s["kind"] in ("lora", "qlora") for s in one["check"]["suggestions"])


def test_an_instance_taken_for_its_host_ram_says_so() -> None:
    # audit 32 LOW-177: "1× RTX A6000 … Hyperstack n3-RTX-A6000x8（含 8 张卡，按整机计费）" with no reason, though
    # the one-card instance exists: the 8-card one was taken for the ≈ 329 GiB of host RAM the offload needs
    from tests.bot.reply._answers import ask_json

    answer = ask_json("我有 8 张 3090，能用 DeepSpeed ZeRO-3 offload 全参微调 Qwen2.5-14B 吗，序列 2048")
    ram = answer["estimate"]["host_ram_gb"]
    assert ram and f"（含 8 张卡，按整机计费：这是带有卸载所需约 {ram:,.0f} GiB 主机内存的最小机型）" in answer["text"]


def test_a_fine_tune_on_an_instance_billed_whole_is_also_timed_on_all_its_cards() -> None:
    # audit 33 M-110: one A100 80GB of Lambda's 8-card node took 10.5 h and 234 USD for 154M tokens with no word that
    # the 8 cards billed take a fraction of it data-parallel
    import rules
    from tests.bot.reply._answers import ask_json

    answer = ask_json("How long does a LoRA fine-tune of Llama-3.1-8B take on 50k samples of 1024 tokens, 3 epochs, "
                      "on one A100 80GB, and what does it cost on Lambda?")
    cost = answer["cost"]
    assert cost["instance_gpus"] == 8 and cost["whole_instance_hours"] < cost["hours"] / 4
    assert cost["whole_instance_total"] == pytest.approx(cost["whole_instance_hours"] * cost["per_hour"], rel=0.01)
    assert "On all 8 of the instance's cards (data parallel" in answer["text"]
    assert rules.compute_known(KB.gpus["a100-80gb"])
