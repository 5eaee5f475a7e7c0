"""A pasted TGI launcher log: its Args are the configuration, and its warm-up OOM is said to be the prefill batch
(audit 30 HIGH 65: sized at a 4,096 default, "int8" from "quantize: None", and "It fits" with no word on the OOM)."""

from __future__ import annotations

from pathlib import Path

from bot.understand.parse import parse
from knowledge.loader import default_knowledge
from tests.bot.reply._answers import ask_json

KB = default_knowledge()
LOG = (Path(__file__).parent / "tgi_warmup_oom_log.txt").read_text(encoding="utf-8")


def test_the_launcher_args_are_read() -> None:
    question = parse(LOG, KB)
    assert (question.model, question.context, question.prefill_chunk) == ("mistral-7b-v0.3", 32768, 32768)
    assert question.precision is None and question.quant is None


def test_the_warm_up_is_explained() -> None:
    text = ask_json(LOG)["text"]
    assert "warming up with one prefill batch of --max-batch-prefill-tokens (32,768 here)" in text
    assert "Lower --max-batch-prefill-tokens" in text


def test_the_verdict_does_not_say_it_fits_above_the_logged_oom() -> None:
    # audit 30 HIGH 65 residue: "It fits, with nothing spilled" above the pasted out-of-memory
    text = ask_json(LOG)["text"]
    assert "It fits, with nothing spilled" not in text and "In memory, yes" in text
    assert "your log shows Text Generation Inference (TGI) running out of memory" in text
