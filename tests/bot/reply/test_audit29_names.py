"""Names audit 29 found unknown (LOW-112, LOW-120): BGE-Reranker-large, Whisper large-v2, the RTX 3070 Ti."""

from __future__ import annotations

from bot.understand.parse import parse
from knowledge.loader import default_knowledge
from tests.bot.reply._answers import ask_json

KB = default_knowledge()


def test_the_names_resolve() -> None:
    question = parse("faster-whisper large-v2 int8 batch_size 8 on an RTX 3070 Ti, real-time factor", KB)
    assert (question.model, question.gpu) == ("whisper-large-v2", "rtx-3070-ti")
    assert parse("rerank: 100 requests/s, 40 passages each, bge-reranker-large", KB).model == "bge-reranker-large"
    assert parse("RTX 3070 on whisper large-v3", KB).gpu == "rtx-3070"


def test_the_3070_ti_is_faster_than_the_3070() -> None:
    # 608 GB/s against 448: the Ti's wider GDDR6X bus
    ti = ask_json("faster-whisper large-v2 int8 batch_size 8 on an RTX 3070 Ti, real-time factor")
    plain = ask_json("faster-whisper large-v2 int8 batch_size 8 on an RTX 3070, real-time factor")
    assert "I don't know" not in ti["text"]
    assert ti["speed"]["audio_seconds_per_s"] > plain["speed"]["audio_seconds_per_s"]


def test_whisper_v2_runs_in_fp16_and_the_reranker_is_a_small_encoder() -> None:
    whisper = ask_json("whisper large-v2 on a T4")
    assert whisper["query"]["precision"] == "fp16"
    assert any(a["reason"] == "speech-fp16" for a in whisper["assumptions"])
    reranker = ask_json("rerank: 100 requests/s, 40 passages each, bge-reranker-large")
    assert 0.9 < reranker["estimate"]["breakdown"]["weights"] < 1.2  # 0.56B at 2 bytes = 1.04 GiB
