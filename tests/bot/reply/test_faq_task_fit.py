"""The FAQ entry attached to a sizing reply fits the job: a model that cannot be served gets no training advice
(gradient accumulation, checkpointing, LoRA), a training job that does not fit keeps it (issue: audit, FAQ)."""

from __future__ import annotations

import pytest

from tests.bot.reply._answers import KB
from tests.bot.reply._answers import ask_json as _ask

TRAINING_ADVICE = ("gradient checkpointing", "gradient accumulation", "梯度检查点", "梯度檢查點", "梯度累积",
                   "梯度累積")
OOM_HEADINGS = ("What can I do when I run out of GPU memory?", "显存不够怎么办？", "顯存不夠怎麼辦？")


@pytest.mark.parametrize("text", [
    "4090能跑Qwen2.5-32B吗",
    "4090能跑Qwen2.5-32B嗎",
    "can I run Qwen2.5-32B on a 4090?",
    "Llama 3.1 70B on one A100 40GB",
    "Llama-3.1-70B 推理，一张A100 40GB够吗",
    "Qwen2.5-7B 128k context on a 4090",
])
def test_an_inference_job_that_does_not_fit_gets_no_training_advice(text: str) -> None:
    reply = _ask(text)
    assert reply["check"]["fits"] is False and reply["query"]["task"] == "inference"
    assert "out-of-memory" not in reply["faq"]
    for words in (*OOM_HEADINGS, *TRAINING_ADVICE):
        assert words not in reply["text"], words
    for faq_id in reply["faq"]:  # an entry on serving, or none
        entry = KB.faq[faq_id]
        assert "inference" in entry.topics or "training" not in entry.topics


def test_the_inference_answer_is_about_serving_the_model_smaller() -> None:
    reply = _ask("4090能跑Qwen2.5-32B吗")
    assert reply["faq"] == ["quantisation"]
    assert "INT8/INT4量化能省多少显存？" in reply["text"]
    long = _ask("Qwen2.5-7B 128k context on a 4090")
    assert long["faq"] == ["kv-cache-long-context"]  # the one that also covers the long context


@pytest.mark.parametrize(("text", "heading"), [
    ("full fine-tune Llama-3-8B on one 4090", "What can I do when I run out of GPU memory?"),
    ("4090能全参微调Llama-3-8B吗", "显存不够怎么办？"),
    ("單卡A100 80G能全參數微調Llama-3-8B嗎", "顯存不夠怎麼辦？"),
])
def test_a_training_job_that_does_not_fit_keeps_the_out_of_memory_answer(text: str, heading: str) -> None:
    reply = _ask(text)
    assert reply["check"]["fits"] is False and reply["query"]["task"] == "train"
    assert reply["faq"] == ["out-of-memory"]
    assert heading in reply["text"]


@pytest.mark.parametrize("text", ["显存不够怎么办", "What can I do when I run out of GPU memory?"])
def test_the_out_of_memory_question_itself_is_still_answered(text: str) -> None:
    reply = _ask(text)
    assert reply["intent"] == "faq" and reply["faq"] == ["out-of-memory"]


def test_a_chinese_source_title_is_glossed_in_english_replies_only() -> None:
    # audit 23 LOW-2: English replies cited "from “阿里云做大模型怎么选GPU？”" with no hint of what it is
    from tests.bot.reply._answers import ask_json
    english = ask_json("how to choose a GPU for LLM on a budget")["text"]
    cited = next(line for line in english.splitlines() if line.startswith("from “"))
    title, gloss = cited.removeprefix("from “").split("” (“")
    assert any("\u4e00" <= ch <= "\u9fff" for ch in title) and gloss.endswith("”)") and gloss[:-2].isascii()
    chinese = ask_json("预算有限怎么选大模型 GPU")["text"]
    assert "(“" not in next(line for line in chinese.splitlines() if line.startswith("出自"))
