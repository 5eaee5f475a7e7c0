"""Per-person request rates in more of the wordings people type: "× 6 msgs/min each", "reps each send 6 messages a
minute" (audit 22 HIGH 3). Each is 35 × 6 / 60 = 3.5 requests a second, the load the fixed wording gets."""

from __future__ import annotations

import pytest

from bot.understand.parse import parse
from knowledge.loader import default_knowledge

KB = default_knowledge()
TAIL = " on mistral-7b, 1.2k prompt / 150 completion, how many L4?"


@pytest.mark.parametrize("people", [
    "35 support reps × 6 msgs/min each",
    "35 users × 6 msgs/min each",
    "35 support reps each send 6 messages a minute",
    "35 operators, each sending 6 chats per minute",
])
def test_the_rate_is_multiplied_by_the_people(people: str) -> None:
    question = parse(people + TAIL, KB)
    assert question.qps == pytest.approx(3.5) and question.training_samples is None


def test_a_sample_count_is_still_a_sample_count() -> None:
    assert parse("fine-tune llama 3 8b on 50k chats", KB).training_samples == 50_000
    assert parse("llama 3 8b sft on 20k messages", KB).training_samples == 20_000
