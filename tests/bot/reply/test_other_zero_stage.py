"""A second ZeRO stage asked about beside the one a job runs ("we run ZeRO-2 … would ZeRO-3 fit on these 4
cards?"): its need on the cards asked, answered in one line (audit 24 HIGH 12)."""

from __future__ import annotations

from pathlib import Path

from bot.reply.answer import answer
from bot.reply.render import render_text
from bot.understand.parse import parse
from knowledge.loader import default_knowledge

KB = default_knowledge()
PASTE = Path(__file__).with_name("zero2_oom_paste.txt")


def test_the_pasted_zero2_run_also_gets_zero3_on_its_own_four_cards() -> None:
    # The paste runs ZeRO-2 (ds_zero2.json, "stage": 2, micro-batch 4, seq 4096) on 4× A100 40GB and asks "would
    # ZeRO-3 fit on these 4 cards": weights and gradients 15 GiB each, optimizer 90 GiB, all over 4, plus 23.6 GiB
    # of activations at micro-batch 4 (5.9 at 1): no, at either batch
    result = answer(parse(PASTE.read_text(encoding="utf-8"), KB), KB)
    other = result.other_stage
    assert other is not None and (other["stage"], other["mine"], other["gpu"], other["count"]) == (3, 2, "a100-40gb", 4)
    assert not other["fits"] and other["per_gpu_gb"] > other["limit_gb"] == 39.5
    assert other["batch_one_gb"] < other["per_gpu_gb"] and not other["batch_one_fits"]
    text = render_text(result, kb=KB)
    assert (f"With ZeRO-3 instead of ZeRO-2 this job needs {other['per_gpu_gb']:.1f} GiB per card: it does not fit "
            f"4× A100 40GB (39.5 GiB usable each). At micro-batch 1 it needs {other['batch_one_gb']:.1f} GiB") in text


def test_a_stage_that_fits_is_said_to_fit_in_chinese() -> None:
    result = answer(parse("全参微调 Qwen2.5-7B，8 张 A100 40G，ZeRO-2 放不下的话 ZeRO-3 行吗？", KB), KB)
    other = result.other_stage
    assert other is not None and other["fits"] and "batch_one_gb" not in other
    assert result.check is not None and not result.check.fits  # ZeRO-2 itself does not
    need = f"{other['per_gpu_gb']:.1f}"
    text = render_text(result, kb=KB)
    assert f"若用 ZeRO-3 而不是 ZeRO-2，每卡需要 {need} GiB：8× A100 40GB（每张可用 39.5 GiB）放得下" in text


def test_one_stage_named_gets_no_such_line() -> None:
    result = answer(parse("Llama 3.1 8B full fine-tune on 4x A100 40GB with ZeRO-3", KB), KB)
    assert result.other_stage is None and "instead of ZeRO" not in render_text(result, kb=KB)
