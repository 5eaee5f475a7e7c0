""""Full fine-tune vs LoRA vs QLoRA": each method's memory and pick, side by side."""

from __future__ import annotations

import pytest

from bot.reply.answer import answer
from bot.reply.render import render_text
from bot.understand.parse import parse
from knowledge.loader import default_knowledge
from tests.bot.reply._answers import ask_json

KB = default_knowledge()


@pytest.mark.parametrize(("text", "methods"), [
    ("full fine-tune vs LoRA vs QLoRA for Llama 3.1 70B: how much GPU memory does each need?",
     ["train", "lora", "qlora"]),
    ("LoRA or QLoRA for Qwen2.5-7B on a 4090?", ["lora", "qlora"]),
    ("全参微调和LoRA对比，Qwen2.5-7B 需要多少显存", ["train", "lora"]),
])
def test_methods_named_together_are_compared(text: str, methods: list[str]) -> None:
    assert parse(text, KB).compare_tasks == methods


@pytest.mark.parametrize("text", ["QLoRA fine-tune llama 3 8b on a 3090", "full fine-tune llama 3 8b with LoRA"])
def test_one_method_is_no_comparison(text: str) -> None:
    assert parse(text, KB).compare_tasks == []


def test_each_method_is_sized_in_its_own_set_up_and_the_one_detailed_agrees() -> None:
    # Llama 3.1 70B: a full fine-tune holds 16-bit weights, gradients and fp32 Adam states (≈ 16 B a parameter,
    # over 1 TiB); LoRA keeps the 16-bit base (≈ 131 GiB of weights); QLoRA an NF4 base (≈ 37 GiB)
    reply = ask_json("full fine-tune vs LoRA vs QLoRA for Llama 3.1 70B: how much GPU memory does each need?")
    rows = {r["task"]: r for r in reply["model_compare"]}
    assert list(rows) == ["train", "lora", "qlora"]
    assert rows["train"]["total_gb"] > 1000 > rows["lora"]["total_gb"] > 131 > rows["qlora"]["total_gb"] > 37
    assert all(r["fits"] for r in rows.values())
    detailed = rows[reply["query"]["task"]]
    assert detailed["total_gb"] == reply["estimate"]["total_gb"]
    assert (detailed["gpu"], detailed["count"]) == (reply["picks"][0]["gpu"], reply["picks"][0]["count"])
    assert "Methods side by side" in reply["text"] and len(reply["picks"]) <= 3


def test_models_compared_on_cards_that_hold_neither_say_which_quantisation_fits() -> None:
    # "Gemma 2 27B vs Llama 3.1 70B on 2x 4090: which fits?": neither in bf16 (29 and 69 GiB a card against 23.5),
    # and the reply said no more; in 8 bits Gemma 2 27B (≈ 27 GiB of weights) and in 4 bits the 70B (≈ 37 GiB) fit
    result = answer(parse("Gemma 2 27B vs Llama 3.1 70B on 2x 4090: which fits?", KB), KB)
    rows = {r.model: r for r in result.model_compare}
    for model in ("gemma-2-27b", "llama-3.1-70b"):
        row = rows[model]
        assert row.fits is False and row.fix is not None and row.fix["per_gpu_gb"] < 23.5
    assert "it fits" in render_text(result, KB)


def test_gguf_beside_awq_runs_each_on_its_own_engine() -> None:
    # audit 30 LOW-131: all three formats were timed on llama.cpp, which runs no AWQ or GPTQ checkpoint
    from tests.bot.reply._answers import ask_json

    reply = ask_json("AWQ vs GPTQ vs GGUF Q4_K_M for Qwen2.5-32B on one RTX 4090 — which is fastest?")
    engines = {r["format"]: r["engine"] for r in reply["model_compare"]}
    assert engines == {"awq": "vllm", "gptq": "vllm", "q4_k_m": "llama.cpp"}  # "GGUF Q4_K_M": its type, as written
    assert "AWQ (int4) · vLLM" in reply["text"]
    same = ask_json("AWQ vs GPTQ for Qwen2.5-32B on one RTX 4090")
    assert all(r["engine"] is None for r in same["model_compare"])
