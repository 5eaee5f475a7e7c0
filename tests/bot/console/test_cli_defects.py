"""A defect in the pipeline reaches the console as one line, not a traceback, and loses no other question."""

from __future__ import annotations

import io
from typing import Any

import pytest

from bot.console import cli


def _broken_on(word: str) -> Any:
    real = cli._answer

    def answer(request: dict[str, Any]) -> Any:
        if word in str(request.get("text", "")):
            raise AttributeError("a defect")
        return real(request)

    return answer


def test_one_question_gets_one_line_and_a_failing_status(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(cli.DEBUG_ENV, raising=False)
    monkeypatch.setattr(cli, "_answer", _broken_on("boom"))
    out, err = io.StringIO(), io.StringIO()
    assert cli.main(["ask", "boom"], stdout=out, stderr=err) == 1
    assert err.getvalue().count("\n") == 1
    assert "AttributeError" in err.getvalue() and "Traceback" not in err.getvalue()


def test_json_lines_go_on_after_a_line_that_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(cli.DEBUG_ENV, raising=False)
    monkeypatch.setattr(cli, "_answer", _broken_on("boom"))
    out = io.StringIO()
    status = cli.main(["ask", "--json", "-"], stdin=io.StringIO("boom\nwhat GPU for ChatGLM-6B inference\n"),
                      stdout=out, stderr=io.StringIO())
    lines = out.getvalue().splitlines()
    assert status == 0 and len(lines) == 2
    assert '"error"' in lines[0] and "chatglm" in lines[1].lower()


def test_the_debug_switch_shows_the_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(cli.DEBUG_ENV, "1")
    monkeypatch.setattr(cli, "_answer", _broken_on("boom"))
    with pytest.raises(AttributeError):
        cli.main(["ask", "boom"], stdout=io.StringIO(), stderr=io.StringIO())
