"""A base model's name followed by "distil(l)(ed)"/"蒸馏版", a family and a size is the distilled model (audit 32
HIGH 84): read as the 671B teacher, "deepseek-r1-distil-lama-70b on 2x H100" needed 339 GiB a card, 9× too much."""

from __future__ import annotations

import pytest

from bot.understand.parse import parse
from knowledge.loader import default_knowledge

KB = default_knowledge()


@pytest.mark.parametrize(("text", "model"), [
    ("deepseek-r1-distil-lama-70b w/ sglang fp8 on 2x H100, 32 concurrent @ 8k ctx", "deepseek-r1-distill-llama-70b"),
    ("DeepSeek R1 distil llama 70B on 2x H100", "deepseek-r1-distill-llama-70b"),
    ("DeepSeek-R1-Distilled-Llama-70B on 2x H100", "deepseek-r1-distill-llama-70b"),
    ("r1 distill lama 70b fp8 on two H100s", "deepseek-r1-distill-llama-70b"),
    ("deepseek r1 distil qwen 32b on one A100 80GB", "deepseek-r1-distill-qwen-32b"),
    ("deepseek r1 蒸馏版 llama 70b 用 2 张 H100 能跑吗", "deepseek-r1-distill-llama-70b"),
    ("DeepSeek R1 蒸餾版 Qwen 32B 要幾張 4090", "deepseek-r1-distill-qwen-32b"),
])
def test_a_misspelt_distill_is_the_distilled_model_not_its_teacher(text: str, model: str) -> None:
    question = parse(text, KB)
    assert question.model == model
    assert question.params_b is None or question.params_b == pytest.approx(KB.model(model).params_b)


@pytest.mark.parametrize("text", [
    "deepseek r1 on 8x H200",
    "DeepSeek-R1 671B distillation to qwen",  # no family and size: nothing names a distilled model
    "deepseek r1 distil mistral 7b on a 4090",  # no such distill: the model named stays
])
def test_the_teacher_stays_where_no_distilled_model_is_named(text: str) -> None:
    assert parse(text, KB).model == "deepseek-r1"
