"""At a steady request rate the output generated a second is the rate's own, and the requests in flight follow it
(audit 27 LOW-73: 8 requests/s of 400 tokens on 2 B200s were said to make 3,467 tok/s from 71 in flight, and the
cost block priced a million tokens at 1.10 USD beside the side-by-side's 1.20 at 3,200 tok/s)."""

from __future__ import annotations

import re

from tests.bot.reply._answers import ask_json

T07 = "在 Lambda 上用 B200 還是 H100 來服務 Llama 3.3 70B FP8 比較便宜？每秒 8 個請求，輸入 1500、輸出 400 token。"


def test_the_plan_generates_the_rates_tokens_and_holds_littles_law() -> None:
    reply = ask_json(T07)
    plan = reply["serving"]
    assert plan["aggregate_tokens_per_s"] == 3200.0  # 8 × 400
    in_flight = plan["concurrent_needed"]
    seconds = 400 / plan["decode_tokens_per_s"] + plan["ttft_s"]
    assert in_flight == -(-8 * seconds // 1)  # 8 requests/s × the time each takes at that load, rounded up


def test_one_price_a_million_tokens_for_the_same_cards() -> None:
    text = ask_json(T07)["text"]
    prices = {float(p) for p in re.findall(r"每百萬輸出 token ([\d.]+) USD", text)}
    b200 = {p for p in prices if p < 1.3}
    assert len(b200) == 1  # the B200 row and the bill agree


def test_a_days_prompt_and_output_amounts_size_a_few_cards_not_thousands() -> None:
    # audit 28 HIGH 42: "(roughly 120M prompt, 30M generated)" had become a 10M-token context: 18,304 L4s and
    # 22.3M USD a month where ≈ 1,389 prompt and 347 generated tokens a second take two or three L4s
    reply = ask_json("We expect about 150 million tokens a day (roughly 120M prompt, 30M generated) on Mistral 7B "
                     "Instruct v0.3 with vLLM, fairly even over 24 hours. How many L4s on AWS (g6.xlarge) and what "
                     "is the monthly bill?")
    plan = reply["serving"]
    assert plan["replicas"] * plan["gpus_per_replica"] <= 4
    assert reply["cost"]["per_month"] < 3000
