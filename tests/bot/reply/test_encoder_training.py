"""An embedding or reranker fine-tune is sized as its recipes run it: mixed precision, a query and a passage of
retrieval length per sample (audit 31 M-95)."""

from __future__ import annotations

from tests.bot.reply._answers import ask_json


def assumed(reply: dict, field: str) -> dict:
    return next(a for a in reply["assumptions"] if a["field"] == field)


def test_an_embedder_fine_tune_runs_mixed_precision_at_retrieval_length() -> None:
    # audit 31 M-95: bge-m3 fine-tuned on 1M pairs was sized in fp32 at 4,096-token samples (9.1 days on an A10)
    reply = ask_json("fine-tune bge-m3 embeddings on 1M pairs, one A10, how long?")
    assert reply["query"]["precision"] == "fp16" and reply["query"]["context"] == 512
    assert assumed(reply, "precision")["reason"] == "encoder-train-fp16"
    assert reply["picks"][0]["job_hours"] < 24
