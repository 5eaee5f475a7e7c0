""""Why does vLLM use all my GPU memory?": the serving engine's up-front reservation, answered by its FAQ entry
(issue: audit, vLLM memory), while sizing questions that name an engine stay sizing questions."""

from __future__ import annotations

import pytest

from bot.reply.answer import answer
from bot.reply.render import render_text
from bot.understand.followup import follow_up
from bot.understand.parse import parse
from tests.bot.reply._answers import KB
from tests.bot.reply._answers import ask_json as _ask

ENTRY = "engine-memory-reservation"
WRONG_HEADINGS = ("What are the basic GPU requirements", "How do I monitor GPU utilization with nvidia-smi?",
                  "How do I tell whether my GPU is powerful enough", "大模型对GPU的基本需求", "大模型對GPU的基本需求",
                  "怎么用nvidia-smi监控GPU利用率", "大模型训练中如何评估GPU性能是否足够",
                  "大模型訓練中如何評估GPU性能是否足夠")


def _reservation_reply(text: str) -> str:
    reply = _ask(text)
    assert reply["faq"] == [ENTRY], (text, reply["intent"], reply["faq"])
    for heading in WRONG_HEADINGS:
        assert heading not in reply["text"]
    return str(reply["text"])


@pytest.mark.parametrize("text", [
    "why does vLLM use 90% of my GPU memory for a 1B model",
    "vLLM takes all my GPU memory",
    "why is nvidia-smi showing 72GB used by vllm for an 8B model",
    "what does gpu_memory_utilization do?",
    "sglang uses 90% of GPU memory, is that normal?",
    "vllm is using almost all the memory of my A100",
])
def test_english_questions_get_the_reservation_answer(text: str) -> None:
    reply = _reservation_reply(text)
    assert "Why does vLLM use all my GPU memory?" in reply
    assert "`gpu_memory_utilization`" in reply and "0.9 by default" in reply
    assert reply.index("(0.34 and later)") < reply.index("0.9 by default")  # the current release first
    assert "nvidia-smi shows that reservation" in reply
    assert "--gpu-memory-utilization" in reply and "--max-model-len" in reply
    assert "--mem-fraction-static" in reply and "kv_cache_free_gpu_mem_fraction" in reply


@pytest.mark.parametrize("text", [
    "为什么vLLM一启动就把显存占满了？我就跑个7B模型",
    "vllm 显存占用 90% 正常吗",
    "gpu_memory_utilization 是什么",
    "vllm跑Qwen2.5-7B显存占用90%正常吗",
    "用vllm部署qwen2.5-7b，4090显存被占满了",
])
def test_simplified_chinese_questions_get_the_reservation_answer(text: str) -> None:
    reply = _reservation_reply(text)
    assert "为什么vLLM一启动就把显存占满了？" in reply
    assert "这是正常现象" in reply and "gpu_memory_utilization" in reply
    assert "--gpu-memory-utilization" in reply and "--mem-fraction-static" in reply


@pytest.mark.parametrize("text", [
    "為什麼vLLM一啟動就把顯存佔滿了？我就跑個7B模型",
    "vLLM 顯存佔用 90% 正常嗎",
    "gpu_memory_utilization 是什麼",
])
def test_traditional_chinese_questions_get_the_reservation_answer_in_traditional(text: str) -> None:
    reply = _reservation_reply(text)
    assert "為什麼vLLM一啟動就把顯存佔滿了？" in reply
    assert "這是正常現象" in reply and "gpu_memory_utilization" in reply


def test_a_named_model_and_card_do_not_turn_the_complaint_into_a_sizing() -> None:
    reply = _ask("vLLM eats all the VRAM on my 4090 with Qwen2.5-7B")
    assert reply["intent"] == "faq" and reply["faq"] == [ENTRY]
    assert "Why does vLLM use all my GPU memory?" in reply["text"]


def test_memory_seen_used_is_not_read_as_a_card() -> None:
    reply = _ask("why is nvidia-smi showing 72GB used by vllm for an 8B model")
    assert reply["query"]["memory_gb"] is None
    assert "72 GB GPU" not in reply["text"]


def test_in_a_thread_the_sized_job_carries_the_answer_for_that_message_only() -> None:
    thread = None
    replies = []
    for text in ("Llama-3.1-8B on an H100", "vLLM takes all my GPU memory", "what about 32k context?"):
        thread = follow_up(thread, parse(text, KB))
        replies.append(answer(thread, KB))
    assert ENTRY not in replies[0].faq
    assert replies[1].faq == [ENTRY] and "Why does vLLM use all my GPU memory?" in render_text(replies[1], KB)
    assert ENTRY not in replies[2].faq  # the next message is about the context, not the reservation


@pytest.mark.parametrize(("text", "intent"), [
    ("serve llama 3.1 8b with vllm using 90% of the GPU memory on an L4", "check"),  # a share stated, to size with
    ("Llama-3.1-8B with vLLM on a 4090, gpu_memory_utilization 0.95", "check"),
    ("how much memory does vllm use for llama 3 8b", "recommend"),
    ("vllm 部署 qwen2.5-7b 需要多少显存", "recommend"),
    ("vllm跑70b显存不够，OOM了怎么办", "faq"),  # running out is the out-of-memory answer, not the reservation
])
def test_engine_sizing_questions_are_not_taken_for_the_reservation(text: str, intent: str) -> None:
    reply = _ask(text)
    assert reply["intent"] == intent
    assert ENTRY not in reply["faq"]
    assert "Why does vLLM use all my GPU memory?" not in reply["text"]


@pytest.mark.parametrize(("text", "intent", "task"), [
    ("what GPU for ChatGLM-6B inference", "recommend", "inference"),
    ("can I LoRA Llama-3-8B on one A100 40GB?", "check", "lora"),
    ("两张3090能跑Baichuan2-13B吗", "check", "inference"),
    ("兩張3090能跑Baichuan2-13B嗎", "check", "inference"),
])
def test_ordinary_sizing_questions_are_still_sized(text: str, intent: str, task: str) -> None:
    reply = _ask(text)
    assert reply["intent"] == intent and reply["query"]["task"] == task
    assert reply["estimate"] is not None and reply["picks"]
    assert ENTRY not in reply["faq"]


def test_the_entry_is_bilingual_and_cites_the_engine_docs() -> None:
    entry = KB.faq[ENTRY]
    assert "engine-reservation" in entry.topics and "inference" in entry.topics
    assert any("docs.vllm.ai" in source for source in entry.source)
    assert any("knowledge/data/engines.yaml" in source for source in entry.source)
    for text in (entry.answer.en, entry.answer.zh_hans):
        for knob in ("gpu_memory_utilization", "--mem-fraction-static", "--cache-max-entry-count",
                     "free_gpu_memory_fraction", "--max-model-len", "--max-num-seqs"):
            assert knob in text
