"""Speculative decoding named with two models: the larger is served, the smaller is its draft, counted beside it."""

from __future__ import annotations

import pytest

from bot.understand.parse import parse
from knowledge.loader import default_knowledge
from rules import Workload, estimate_memory
from tests.bot.reply._answers import ask_json

KB = default_knowledge()


@pytest.mark.parametrize(("text", "model", "draft"), [
    ("Speculative decoding: Llama 3.1 70B with Llama 3.2 1B as the draft model on 2x H100", "llama-3.1-70b",
     "llama-3.2-1b"),
    ("推測解碼 (speculative decoding)：用 Llama 3.2 1B 加速 Llama 3.1 8B，在 4090 上可以快多少？", "llama-3.1-8b",
     "llama-3.2-1b"),
    ("投机解码：Qwen2.5-72B 用 Qwen2.5-0.5B 做 draft 模型，4 张 L20 能跑吗？", "qwen2.5-72b", "qwen2.5-0.5b"),
    ("Llama 3 8B draft for Llama 3 70B on 4x A10G with vllm", "llama-3-70b", "llama-3-8b"),
    ("Llama 3.1 70B with a 1B draft: Llama 3.2 1B, on 2 H100", "llama-3.1-70b", "llama-3.2-1b"),
])
def test_the_larger_model_is_served_and_the_smaller_drafts(text: str, model: str, draft: str) -> None:
    # in Traditional Chinese the 1B draft, written first, was the model sized and the 8B target was dropped
    question = parse(text, KB)
    assert (question.model, question.draft_model, question.compare_models) == (model, draft, [])


def test_two_models_compared_are_no_draft() -> None:
    assert parse("Llama 3.1 8B vs Qwen2.5-7B on one L4", KB).draft_model is None
    assert parse("Llama 3.1 8B vs Qwen2.5-7B for drafting emails on one L4", KB).draft_model is None


def test_the_drafts_weights_and_cache_are_counted_beside_the_target() -> None:
    # Llama 3.2 1B: 1.24e9 × 2 B of weights and 16 layers × 8 KV heads × 64 × 2 × 2 B = 32 KiB a token of cache
    target, draft = KB.models["llama-3.1-8b"], KB.models["llama-3.2-1b"]
    alone = Workload(model=target, task="inference", precision="bf16", context=4096, batch=1)
    both = estimate_memory(Workload(model=target, task="inference", precision="bf16", context=4096, batch=1,
                                    draft_model=draft), 1, None)
    extra = both.total_gib - estimate_memory(alone, 1, None).total_gib
    expected = (draft.params_b * 1e9 * 2 + 4096 * 32 * 1024) / 2**30
    assert expected <= extra <= expected * 1.05  # plus the runtime overhead's share of the weights
    reply = ask_json("推測解碼 (speculative decoding)：用 Llama 3.2 1B 加速 Llama 3.1 8B，在 4090 上可以快多少？")
    assert "speculative-draft" in reply["estimate"]["notes"] and "草稿模型 Llama 3.2 1B" in reply["text"]


def test_the_drafts_memory_is_stated_as_the_total_it_is() -> None:
    # Llama 3.2 1B at bf16 is 1.24e9 × 2 bytes ≈ 2.3 GiB of weights plus its cache, 2.4 GiB in all, split over the
    # two cards with the target (1.2 GiB a card); audit 35 LOW-199: it was said as "2.4 GiB a card"
    reply = ask_json("Llama-3.1-70B with Llama-3.2-1B as draft on 2x A100 80GB — how much extra memory and what "
                     "speedup?")
    draft_gb = reply["estimate"]["draft_gb"]
    assert draft_gb is not None and 2.0 < draft_gb < 3.0
    assert f"({draft_gb:.1f} GiB in all)" in reply["text"] and "GiB a card)" not in reply["text"]


def test_the_speedup_asked_is_given_per_acceptance_rate_on_a_serving_engine() -> None:
    """Audit 17 M-6: "what speedup?" was declared not modelled, and the job was timed on transformers."""
    reply = ask_json("Speculative decoding for Llama 3.1 70B FP8 with Llama 3.2 1B as the draft on 2x H100: does it "
                     "fit and what speedup?")
    assert reply["query"]["engine"] == "vllm"
    speed = reply["speed"]
    alone = speed["decode_tokens_per_s"]
    drafted = [speed[f"speculative_decode_tokens_per_s_{rate}"] for rate in (50, 70, 90)]
    assert alone and all(drafted) and drafted == sorted(drafted) and drafted[-1] > 1.5 * alone
    assert f"≈ {' / '.join(f'{v:,.0f}' if v >= 10 else f'{v:.1f}' for v in drafted)} tok/s" in reply["text"]
    assert "if the target accepts 50% / 70% / 90% of them" in reply["text"]
    zh = ask_json("用 Qwen2.5-0.5B 做 Qwen2.5-32B 的投机解码草稿模型，单张 A100 80G 能放下吗？能提速多少？")
    assert zh["speed"]["speculative_decode_tokens_per_s_90"] and "若目标模型接受其中 50% / 70% / 90%" in zh["text"]


@pytest.mark.parametrize("text", [
    "Speculative decoding with EAGLE-3 for Llama 3.1 8B on an H100: what speed-up?",
    "Llama 3.1 8B 开 EAGLE3 投机解码，H100 上能快多少？",
    "vllm eagle speculative decoding llama 3.1 8b h100",
])
def test_eagle_without_a_draft_model_drafts_with_a_head_built_from_the_target(text: str) -> None:
    # audit 19 M-8 (p12, p21): EAGLE-3 named with no draft model was not read, so no speed-up was given
    reply = ask_json(text)
    assert reply["query"]["model"] == "llama-3.1-8b" and reply["query"]["engine"] == "vllm"
    assert reply["estimate"]["draft_gb"] == pytest.approx(0.8, abs=0.15)  # ≈ 0.40B params at 2 bytes, and its KV
    speeds = [reply["speed"][f"speculative_decode_tokens_per_s_{rate}"] for rate in (50, 70, 90)]
    alone = reply["speed"]["decode_tokens_per_s"]
    # a one-layer head costs a small fraction of the target's step: the gain at 70% is about twice, as vLLM and
    # SGLang measure EAGLE-3 at batch 1 (1.5–2.5×), short of the paper's tree-drafted 3–6.5×
    assert speeds == sorted(speeds) and 1.8 < speeds[1] / alone < 3.0


def test_eagle_beside_two_models_is_their_pair() -> None:
    question = parse("EAGLE-style speculative decoding: Llama 3.1 70B with Llama 3.2 1B as the draft model", KB)
    assert (question.model, question.draft_model) == ("llama-3.1-70b", "llama-3.2-1b")
