"""A load to meet on the A10G, and a latency asked of a card with no compute figure: no count or verdict passed off
as the load's."""

from __future__ import annotations

from bot.reply.answer import answer
from bot.reply.render import render_text
from bot.understand.parse import parse
from knowledge.loader import default_knowledge
from tests.bot.reply._answers import ask_json as _ask

KB = default_knowledge()


def test_how_many_a10gs_for_a_rate_is_a_count_laid_out_for_the_load() -> None:
    # audit 20 H-3 and audits 21-24 M-6: "1× A10G … 31 concurrent sequences fit", then "how many the load needs is
    # not computed", answered "how many A10Gs at 100 requests/s"; with its measured GEMM rate it is laid out like
    # any card: 100 × 1,024 prompt tokens a second at ≈ 2,000 a card need dozens
    result = answer(parse("Llama 3.1 8B at 100 requests/s, 1k tokens in and 200 out: how many A10Gs?", KB), KB)
    top = result.picks[0]
    assert top.gpu == "a10g" and top.count >= 40 and (top.replicas or 1) > 1
    text = render_text(result, KB)
    assert "not computed" not in text


def test_the_a10g_without_a_load_says_nothing_of_it() -> None:
    result = answer(parse("Llama 3.1 8B on an A10G", KB), KB)
    assert "not computed" not in render_text(result, KB)


def test_a_verdict_whose_speed_is_not_kept_says_memory_yes_not_yes() -> None:
    # audit 20 LOW-7: "可以：每卡需要 16.8 GiB" opened a latency question whose answer is no
    question = "Llama 3.1 8B 在一张 24GB、带宽 600 GB/s 的卡上，输出 500 token，p95 能在 3 秒内吗？"
    result = answer(parse(question, KB), KB)
    text = render_text(result, KB)
    assert "显存放得下" in text and "可以：" not in text and "这只是显存够用" in text


def test_an_encoder_on_cards_with_no_compute_figure_still_runs_a_copy_a_card() -> None:
    # audit 21 M-9: bge-m3 on 2× A10G was laid out as layers split over a 4-card g5.12xlarge billed whole (5.67 USD/h);
    # a 0.6B encoder runs one copy a card, on two one-card g5.xlarge, whether or not its speed can be timed
    answer = _ask("bge-m3 embeddings for 30 million documents of 400 tokens on 2x A10G: how many hours and AWS cost?")
    top, cost = answer["picks"][0], answer["cost"]
    assert (top["gpu"], top["count"], top["replicas"]) == ("a10g", 2, 2)
    g5 = next(row.price_per_hour for row in KB.prices.values() if row.instance == "g5.xlarge")
    assert cost["instance"] == "g5.xlarge" and cost["instances"] == 2 and cost["per_hour"] == round(2 * g5, 4)
    assert "layer-split" not in answer["estimate"]["notes"]
    assert "The layers are split across the cards" not in answer["text"]


def test_a_speech_job_on_cards_with_no_compute_figure_is_billed_as_the_copies_its_memory_block_sizes() -> None:
    # the memory block read the job as one Whisper copy a card (serving.copy_a_card) while the bill, which looked
    # for a timed speech job, rented the 4 A10Gs as a g5.12xlarge billed whole: the two now read it alike
    answer = _ask("Whisper large-v3 for 2,000 hours of audio on 4x A10G: how long and how much?")
    top, cost = answer["picks"][0], answer["cost"]
    assert (top["gpu"], top["count"], top["replicas"]) == ("a10g", 4, 4)
    g5 = next(row.price_per_hour for row in KB.prices.values() if row.instance == "g5.xlarge")
    assert cost["instance"] == "g5.xlarge" and cost["instances"] == 4 and cost["per_hour"] == round(4 * g5, 4)
