"""A pasted vLLM command's own flags, said for the job (audit 30 LOW-126: "is 0.95 safe?" was not answered, nor that
--max-num-seqs 128 admits far more 32k requests than the cache holds)."""

from __future__ import annotations

from pathlib import Path

from tests.bot.reply._answers import ask_json

PASTE = (Path(__file__).parent / "vllm_serve_flags_paste.txt").read_text(encoding="utf-8")


def test_the_utilisation_and_the_request_cap_are_weighed() -> None:
    reply = ask_json(PASTE)
    held = reply["picks"][0]["max_concurrent_sequences"]
    # an L40S shows ≈ 44.4 GiB to CUDA: 5 % of it is ≈ 2.2 GiB outside vLLM's pool
    assert "At --gpu-memory-utilization 0.95 the engine leaves 2." in reply["text"]
    cap = f"--max-num-seqs 128 admits more requests at once than the KV cache holds at 32,768 tokens ({held})"
    assert cap in reply["text"]


def test_defaults_say_nothing() -> None:
    assert "gpu-memory-utilization" not in ask_json("Qwen2.5-72B AWQ on 2x L40S with vLLM, 8 users")["text"].split(
        "Assumed:")[0]
