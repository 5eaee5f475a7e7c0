"""A card's memory said wrongly ("the 4090 has 48GB right?") is corrected, and the card sized as it ships; a size
the card comes in is that variant; a modified card said as a fact ("my 4090 has 48GB") is sized at its memory."""

from __future__ import annotations

import pytest

from bot.understand.parse import parse
from knowledge.loader import default_knowledge
from tests.bot.reply._answers import ask_json as _ask

KB = default_knowledge()


@pytest.mark.parametrize(("text", "said"), [
    ("the 4090 has 48GB right? can it run Qwen2.5-32B in fp16", "The GeForce RTX 4090 has 24 GB, not 48 GB"),
    ("4090是48G的吧，能跑Qwen2.5-32B吗", "GeForce RTX 4090 的显存是 24 GB，不是 48 GB"),
    ("3090有12G，能跑ChatGLM3-6B吗", "GeForce RTX 3090 的显存是 24 GB，不是 12 GB"),
])
def test_a_wrong_memory_is_corrected_and_the_card_sized_as_it_ships(text: str, said: str) -> None:
    answer = _ask(text)
    assert said in answer["text"]
    assert answer["query"]["gpu"] in ("rtx-4090", "rtx-3090")
    card = KB.gpus[answer["query"]["gpu"]]
    assert f"{card.memory_gb:.1f} GB" in answer["text"]  # the fit check uses the card's own memory
    assert "claimed_memory_gb" not in answer["text"]


def test_the_modified_card_hint_only_where_such_cards_exist() -> None:
    assert "aftermarket" in _ask("the 4090 has 48GB right? Qwen2.5-32B fp16")["text"]
    assert "aftermarket" not in _ask("the 4090 has 12GB right? Qwen2.5-7B")["text"]


def test_a_size_the_card_comes_in_is_that_variant() -> None:
    q = parse("A100的显存是40G，Llama 3 8B全参微调够吗", KB)
    assert q.gpu == "a100-40gb" and q.claimed_memory_gb is None


def test_a_modified_card_said_as_a_fact_is_sized_at_its_memory() -> None:
    q = parse("my 4090 has 48GB, can it run Qwen2.5-32B fp16", KB)
    assert q.memory_gb == 48 and q.modified_card == "rtx-4090" and q.claimed_memory_gb is None


def test_the_right_memory_says_nothing() -> None:
    q = parse("the 4090 has 24GB right? Qwen2.5-7B", KB)
    assert q.claimed_memory_gb is None and q.gpu == "rtx-4090"


@pytest.mark.parametrize(("text", "derived", "model"), [
    ("openhermes-2.5-mistral-7b on a T4", "openhermes-2.5-mistral-7b", "mistral-7b"),
    ("dolphin-2.9-llama3-8b on a 4090", "dolphin-2.9-llama3-8b", "llama-3-8b"),
])
def test_a_fine_tune_named_after_its_base_is_said_to_be_sized_as_the_base(text: str, derived: str, model: str) -> None:
    answer = _ask(text)
    assert answer["query"]["model"] == model
    assert f"“{derived}” is read as {KB.models[model].name}" in answer["text"]


@pytest.mark.parametrize("text", ["Meta-Llama-3-8B-Instruct on a 4090", "Qwen/Qwen2.5-7B-Instruct on L4",
                                  "unsloth/Meta-Llama-3.1-8B-bnb-4bit on a T4"])
def test_a_maker_or_uploader_prefix_is_the_model_itself(text: str) -> None:
    assert parse(text, KB).derived_name is None


def test_a_retraction_naming_another_model_asks_about_that_one() -> None:
    q = parse("Llama-3.1-8B embeddings? no wait — I mean serving e5-mistral-7b as an embedding model on an L4, "
              "2k tokens per doc, how many docs/s?", KB)
    assert q.model == "e5-mistral-7b-instruct" and q.gpu == "l4" and not q.other_jobs
    kept = parse("Qwen2.5-7B on 2 A100s, sorry I mean with vLLM", KB)
    assert kept.model == "qwen2.5-7b" and kept.gpu_count == 2  # no other model named: nothing taken back


def test_an_amd_card_s_limit_names_rocm_not_cuda() -> None:
    text = _ask("DeepSeek-R1-Distill-Qwen-32B Q8_0 with 8k context on a 7900 XTX")["text"]
    assert "less the ROCm (HIP) runtime's context" in text and "CUDA context" not in text


def test_a_kv_pool_that_holds_no_sequence_says_so_plainly() -> None:
    answer = _ask("Qwen2.5-72B-Instruct-AWQ 用 lmdeploy 部署在两张 L20 上，128k 上下文能开吗")
    assert answer["check"]["sequences_held"] == 0
    assert "连一条 131,072 token 的序列都放不下" in answer["text"] and "1.0 个序列" not in answer["text"]


@pytest.mark.parametrize("text", ["my H100 has 120GB, can it run Llama 3 70B fp16", "H100 120GB for Llama 3 70B"])
def test_a_datacenter_card_s_memory_said_wrongly_is_corrected_not_taken_for_a_modified_card(text: str) -> None:
    answer = _ask(text)
    assert answer["query"]["gpu"] == "h100-sxm" and "memory_gb" not in answer["understood"]
    assert "has 80 GB, not 120 GB" in answer["text"]
