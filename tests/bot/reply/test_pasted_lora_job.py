"""A pasted LLaMA-Factory LoRA run with its data's average length and a QLoRA "what if" (audit 25 HIGH 24): the
job is the LoRA it runs, over the tokens its samples hold, not QLoRA over every sample at cutoff_len."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.reply.answer import answer
from bot.understand.parse import parse
from knowledge.loader import default_knowledge

KB = default_knowledge()
PASTE = Path(__file__).with_name("llamafactory_lora_paste.txt").read_text(encoding="utf-8")


def test_the_lora_it_runs_is_timed_over_the_tokens_its_samples_hold() -> None:
    # 200,000 samples × ≈ 2,100 tokens × 3 epochs = 1.26B tokens (cutoff_len 4096 cuts under 1% of them); the paste
    # was sized as QLoRA over 200,000 × 4,096 × 3 = 2.46B tokens, 2.1× the hours
    result = answer(parse(PASTE, KB), KB)
    assert result.query.task == "lora" and result.query.tokens == 1_260_000_000
    lora_only = answer(parse("LoRA 微调 Qwen2.5-72B，LLaMA-Factory，8 张 A800 80G，ZeRO-3，lora_rank 64，"
                             "per_device_train_batch_size 2，cutoff_len 4096，1.26B token 要多久？", KB), KB)
    assert result.speed["train_hours"] == lora_only.speed["train_hours"]


@pytest.mark.parametrize(("text", "reason"), [
    ("full finetune llama3.1 8b on 8xa100 40g zero3, 300k samples ~2k len, 3 epoch", "samples-at-length"),
    # read as the 45M tokens it states (5,000 × 3,000 × 3) since 資料 counts samples: nothing to assume
    ("Unsloth QLoRA 微調 Gemma 3 12B，5,000 筆資料、每筆約 3000 token、3 個 epoch", None),
    ("LoRA Llama 3 8B on 10k samples, 3 epochs", "samples-at-context"),
])
def test_a_sample_length_written_beside_the_count_is_not_called_an_upper_bound(text: str, reason: str | None) -> None:
    # audit 25 LOW-48: "300k samples ~2k len" and "5,000 筆資料、每筆約 3000 token" were sized right but said to be
    # "every sample as long as the context, an upper bound; write … their average length"
    result = answer(parse(text, KB), KB)
    assert next((a.reason for a in result.assumptions if a.field == "tokens"), None) == reason
    if reason is None:
        assert result.query.tokens == 5_000 * 3_000 * 3


def test_short_samples_are_trained_several_to_a_step_so_sharding_pays() -> None:
    # audit 25 HIGH 25: 1M samples of 256 tokens on 8 A10s with FSDP was timed one sample a micro-step: 2,679 tok/s
    # (2.5% of the cards' peak), 53 h, slower than one A100. At the trainer's default 8 a step it is compute-bound.
    text = "全参微调 Qwen2.5-1.5B 做意图分类，用 FSDP，8 张 A10，100 万条样本每条 256 token，2 个 epoch，要多久？"
    result = answer(parse(text, KB), KB)
    assert result.query.batch == 8
    assert next(a.reason for a in result.assumptions if a.field == "batch") == "short-samples"
    one_a100 = answer(parse(text.replace("8 张 A10", "1 张 A100 40GB"), KB), KB)
    assert result.speed["train_hours"] < one_a100.speed["train_hours"]
    # a stated batch is kept
    stated = answer(parse(text.replace("2 个 epoch", "2 个 epoch，batch 1"), KB), KB)
    assert stated.query.batch == 1


def test_samples_near_a_step_long_keep_the_plain_default_batch() -> None:
    # 1,500-token samples make one a 2,048-token step: batch 1, said as the plain default, not as "several a step"
    result = answer(parse("QLoRA fine-tune Llama 3.3 70B with torchtune on 2x RTX 4090, 20k samples of ~1,500 tokens, "
                          "2 epochs: does it fit, and how long will it take?", KB), KB)
    assert result.query.batch == 1
    assert all(a.reason != "short-samples" for a in result.assumptions)
