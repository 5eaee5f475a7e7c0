"""A batch job on several named cards whose one replica would be capped by the engine's batch limit runs as
replicas of fewer cards (audit 27 LOW-79: a 7B VL model on 4 L40S timed as one tensor-parallel replica decoding 256
sequences, 20.5 h for a million invoices, where four one-card replicas decode ≈ 4× as many at once)."""

from __future__ import annotations

import re

from tests.bot.reply._answers import ask_json

S12 = ("用 Qwen2.5-VL-7B 批量识别 100 万张发票图片（每张约 1000×1400 像素），每张输出 200 token，用 4 张 L40S "
       "要跑多久？")


def test_four_one_card_replicas_and_the_prefill_unchanged() -> None:
    reply = ask_json(S12)
    plan = reply["serving"]
    assert (plan["replicas"], plan["gpus_per_replica"]) == (4, 1)
    assert plan["sequences_per_replica"] * 4 > 256  # more in flight than one replica's batch limit
    line = next(line for line in reply["text"].splitlines() if line.startswith("1,000,000 个请求"))
    prefill = float(re.search(r"预填充 [\d,]+ 个提示 token 约 ([\d.]+) h", line).group(1))  # type: ignore[union-attr]
    assert prefill == 13.8  # 2.058B prompt tokens at the 4 cards' 41,406 tok/s, however they are laid out
    total = float(re.search(r"约 ([\d.]+) h——", line).group(1))  # type: ignore[union-attr]
    assert 15 < total < 19  # the decode ≈ 4 h, not 6.7


def test_a_model_that_needs_all_the_cards_stays_one_replica() -> None:
    reply = ask_json("Llama 3.1 70B on 4x L40S: generate 100M tokens of summaries, how long?")
    plan = reply.get("serving")
    if plan is not None:
        assert plan["gpus_per_replica"] * plan["replicas"] <= 4 and plan["gpus_per_replica"] >= 2
