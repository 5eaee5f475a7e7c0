"""The things people count in an offline job are its documents, whatever they call them (audit 22 M-6)."""

from __future__ import annotations

import pytest

from bot.understand.parse import parse
from knowledge.loader import default_knowledge

KB = default_knowledge()


@pytest.mark.parametrize(("text", "count"), [
    ("Embed 5 million product titles (64 tokens each) with all-MiniLM-L6-v2: cheapest GPU and total cost?", 5_000_000),
    ("embed 200k image captions with bge-m3 on a T4", 200_000),
    ("用 bge-m3 给 100 万条商品标题做向量，A10 要多久", 1_000_000),
])
def test_titles_and_captions_are_the_jobs_documents(text: str, count: int) -> None:
    assert parse(text, KB).training_samples == count
