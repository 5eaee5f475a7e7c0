"""Flags take the numbers the text takes ("10k", "1.5万") and refuse garbage with a sentence that says why."""

from __future__ import annotations

import pytest

from bot.errors import BadRequestError
from bot.reply.overrides import apply_overrides
from bot.service import ask
from bot.understand.parse import parse
from knowledge.loader import default_knowledge


@pytest.mark.parametrize(("flags", "key", "value"), [
    ({"context": "10k"}, "context", 10_240),
    ({"context": "32k"}, "context", 32_768),
    ({"context": "1.5万"}, "context", 15_000),
    ({"context": "三点五万"}, "context", 35_000),
    ({"context": 2048}, "context", 2_048),
    ({"context": 2048.0}, "context", 2_048),
    ({"batch": "1k"}, "batch", 1_000),
    ({"batch": "两千"}, "batch", 2_000),
    ({"gen_tokens": "1k"}, "gen_tokens", 1_024),
])
def test_flag_numbers(flags: dict[str, object], key: str, value: int) -> None:
    kb = default_knowledge()
    question = apply_overrides(parse("Qwen-7B inference", kb), flags, kb)
    assert getattr(question, key) == value


@pytest.mark.parametrize(("flags", "needle"), [
    ({"context": "lots"}, "context must be a whole number"),
    ({"context": "10kk"}, "not '10kk'"),
    ({"batch": "2.5"}, "batch must be a whole number"),
    ({"batch": True}, "batch must be a whole number"),
    ({"gpus": "0"}, "gpus must be between 1"),
])
def test_flag_garbage_is_refused_clearly(flags: dict[str, object], needle: str) -> None:
    with pytest.raises(BadRequestError, match=needle):
        ask({"text": "Qwen-7B inference", **flags})


def test_cli_flag_accepts_suffixes() -> None:
    import io
    import json

    from bot.console.cli import main

    out, err = io.StringIO(), io.StringIO()
    assert main(["ask", "--json", "--context", "10k", "--batch", "1.5k", "Qwen-7B inference"], stdout=out,
                stderr=err) == 0
    query = json.loads(out.getvalue())["query"]
    assert (query["context"], query["batch"]) == (10_240, 1_500)
    assert main(["ask", "--context", "lots", "Qwen-7B inference"], stdout=io.StringIO(), stderr=err) == 2
    assert "context must be a whole number" in err.getvalue()
