"""The cards of a pasted nvidia-smi table, and a replica layout weighed against the one asked (audit 26 HIGH 34)."""

from __future__ import annotations

from pathlib import Path

from bot.reply.answer import answer
from bot.reply.render import render_text
from bot.understand.parse import parse
from knowledge.loader import default_knowledge

KB = default_knowledge()
PASTE = (Path(__file__).parent / "nvidia_smi_four_h100.txt").read_text(encoding="utf-8")


def test_the_table_and_tensor_parallel_over_all_four_are_the_four_cards() -> None:
    question = parse(PASTE, KB)
    assert (question.gpu, question.gpu_count, question.tensor_parallel) == ("h100-sxm", 4, 4)
    assert question.weighed_layout == (2, 2)
    assert parse(PASTE.replace("tensor parallel over all 4", "with vLLM"), KB).gpu_count == 4  # the table alone
    assert parse("Llama 3.3 70B on H100 with tensor parallel across 8", KB).gpu_count == 8


def test_the_job_is_sized_on_the_four_cards_and_the_two_pairs_weighed_beside_it() -> None:
    result = answer(parse(PASTE, KB), KB)
    assert result.check is not None and result.check.count == 4 and result.check.fits
    layout = result.weighed_layout
    assert layout is not None and (layout["cards"], layout["replicas"], layout["users_each"]) == (2, 2, 8)
    # 8 users of 16k on a TP2 pair: 33.9 GiB of FP8 weights and 8 × 16,384 × 320 KiB = 40 GiB of KV over 2 cards
    assert layout["fits"] and 55 < layout["per_gpu_gb"] < 65 and layout["sequences_each"] >= 8
    assert "As 2 replicas of 2× H100 SXM5 80GB instead (8 users each)" in render_text(result, kb=KB)


def test_a_layout_that_runs_is_not_weighed() -> None:
    question = parse("We run Llama 3.3 70B FP8 on 4x H100 as TP=2 x 2 replicas with vLLM, 16 users at 16k", KB)
    assert question.weighed_layout is None and question.tensor_parallel == 2
