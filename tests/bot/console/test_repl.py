"""bot/console.py, driven with io.StringIO and a fake advisor (plus one real-terminal run under a pty)."""

from __future__ import annotations

import io
import json
import os
import select
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot.console.repl import BANNER, PROMPT, run_console
from bot.reply.model import Answer, Query
from bot.understand.question import Question

ROOT = Path(__file__).resolve().parents[3]


@dataclass(frozen=True)
class FakeReply:
    question: Question
    answer: Answer


class FakeAdvisor:
    """Answers "answer #n to TEXT"; a text containing 'boom' raises, 'slow' raises KeyboardInterrupt."""

    def __init__(self) -> None:
        self.calls: list[dict[str, Any]] = []

    def respond(
        self,
        text: str,
        thread_key: str,
        *,
        user_id: str | None = None,
        overrides: dict[str, Any] | None = None,
        lang: str | None = None,
    ) -> FakeReply:
        self.calls.append(
            {"text": text, "thread_key": thread_key, "user_id": user_id, "overrides": overrides, "lang": lang}
        )
        if "boom" in text:
            raise RuntimeError("kaboom: internal detail")
        if "slow" in text:
            raise KeyboardInterrupt
        question = Question(text=text, lang="zh-Hans" if lang == "zh-Hans" else "en")
        answer = Answer(
            intent="recommend",
            query=Query(lang=question.lang, precision="int4" if "int4" in text else None),
            text=f"answer #{len(self.calls)} to {text}" + (" (maths)" if overrides else ""),
        )
        return FakeReply(question, answer)


def text_of(reply: Any) -> str:
    return str(reply.answer.text)


@dataclass
class Run:
    code: int
    out: str
    advisor: FakeAdvisor


def run(lines: str, **kwargs: Any) -> Run:
    """Pipe `lines` into the console: exit code, everything printed, and the advisor's calls."""
    advisor = FakeAdvisor()
    out = io.StringIO()
    kwargs.setdefault("render", text_of)
    code = run_console(advisor, io.StringIO(lines), out, **kwargs)
    return Run(code, out.getvalue(), advisor)


class ScriptedStdin(io.StringIO):
    """readline() returns the scripted lines in order; a KeyboardInterrupt item is raised (Ctrl-C)."""

    def __init__(self, items: list[Any]) -> None:
        super().__init__()
        self.items = list(items)

    def readline(self, size: int | None = -1) -> str:
        if not self.items:
            return ""
        item = self.items.pop(0)
        if item is KeyboardInterrupt:
            raise KeyboardInterrupt
        return str(item)


class FlushLog(io.StringIO):
    def __init__(self) -> None:
        super().__init__()
        self.flushed: list[str] = []

    def flush(self) -> None:
        self.flushed.append(self.getvalue())
        super().flush()


# ------------------------------------------------------------------------------------------ piped


def test_piped_one_answer_per_line_no_prompt() -> None:
    r = run("what gpu for llama 8b?\n\n   \nwhat about int4?\n")
    assert r.code == 0
    assert r.out == "answer #1 to what gpu for llama 8b?\n\nanswer #2 to what about int4?\n\n"
    assert PROMPT not in r.out and BANNER not in r.out
    assert [c["text"] for c in r.advisor.calls] == ["what gpu for llama 8b?", "what about int4?"]
    keys = {c["thread_key"] for c in r.advisor.calls}
    assert len(keys) == 1 and keys.pop().startswith("console:")
    assert all(c["user_id"] == "console" and c["lang"] is None for c in r.advisor.calls)


def test_piped_last_line_without_newline_and_crlf() -> None:
    r = run("first\r\nsecond")
    assert r.code == 0
    assert [c["text"] for c in r.advisor.calls] == ["first", "second"]


def test_piped_flushes_after_each_answer() -> None:
    out = FlushLog()
    run_console(FakeAdvisor(), io.StringIO("a\nb\n"), out, render=text_of)
    assert "answer #1 to a\n\n" in out.flushed
    assert "answer #1 to a\n\nanswer #2 to b\n\n" in out.flushed


def test_piped_bare_quit_is_a_question() -> None:
    r = run("quit\nexit\n")
    assert len(r.advisor.calls) == 2


def test_piped_ctrl_c_ends_with_130() -> None:
    advisor = FakeAdvisor()
    out = io.StringIO()
    code = run_console(advisor, ScriptedStdin(["a\n", KeyboardInterrupt, "b\n"]), out, render=text_of)
    assert code == 130 and len(advisor.calls) == 1


# ---------------------------------------------------------------------------------------- commands


def test_new_starts_a_new_thread() -> None:
    r = run("llama 8b lora\nwhat about int4?\n:new\nwhat about int4?\n")
    keys = [c["thread_key"] for c in r.advisor.calls]
    assert keys[0] == keys[1] != keys[2]
    assert "new thread" in r.out


def test_json_shows_the_last_answer() -> None:
    r = run(":json\nllama 70b int4\n:json\n")
    assert r.out.startswith("(no answer yet")
    start = r.out.index("{")
    data = json.loads(r.out[start:])
    assert data["intent"] == "recommend"
    assert data["query"]["precision"] == "int4"
    assert data["text"] == "answer #1 to llama 70b int4"
    assert r.out[start:].startswith('{\n  "')  # pretty printed


def test_json_keeps_chinese_readable() -> None:
    r = run("显存多少\n:json\n")
    assert '"text": "answer #1 to 显存多少"' in r.out


def test_json_after_new_has_no_answer() -> None:
    r = run("q\n:new\n:json\n")
    assert r.out.rstrip().endswith("(no answer yet: ask a question first)")


def test_lang() -> None:
    r = run(":lang zh-Hans\nq1\n:lang\n:LANG ZH-HANT\nq2\n:lang auto\nq3\n:lang klingon\nq4\n:lang en\nq5\n")
    assert [c["lang"] for c in r.advisor.calls] == ["zh-Hans", "zh-Hant", None, None, "en"]
    assert "(reply language: zh-Hans)" in r.out
    assert "Unknown language 'klingon'" in r.out


def test_help_and_unknown_command() -> None:
    r = run(":help\n:frobnicate\n")
    for command in (":new", ":json", ":lang", ":help", ":quit"):
        assert command in r.out
    assert "Unknown command :frobnicate" in r.out
    assert r.advisor.calls == []


@pytest.mark.parametrize("command", [":quit", ":q", ":exit", ":QUIT", "  :q  "])
def test_quit_commands(command: str) -> None:
    r = run(f"first\n{command}\nnever asked\n")
    assert r.code == 0
    assert [c["text"] for c in r.advisor.calls] == ["first"]


def test_maths_reanswers_the_last_question_with_the_working() -> None:
    r = run(":maths\nllama 8b\n:maths\n")
    assert r.out.startswith("(no answer yet")
    assert r.advisor.calls[-1]["text"] == "" and r.advisor.calls[-1]["overrides"] == {"show_maths": True}
    assert r.advisor.calls[-1]["thread_key"] == r.advisor.calls[0]["thread_key"]
    assert "answer #2 to  (maths)" in r.out


def test_user_id_is_passed() -> None:
    r = run("q\n", user_id="U-laptop")
    assert r.advisor.calls[0]["user_id"] == "U-laptop"


# ------------------------------------------------------------------------------------------ errors


def test_error_in_respond_is_one_friendly_line(capsys: pytest.CaptureFixture[str]) -> None:
    r = run("first\nboom please\nafter\n")
    assert r.code == 0
    lines = r.out.splitlines()
    errors = [line for line in lines if "Sorry" in line]
    assert errors == [
        "Sorry, something went wrong answering that (RuntimeError). Try rephrasing it, or :new to start over."
    ]
    assert "answer #3 to after" in r.out
    assert "Traceback" not in r.out and "kaboom" not in r.out
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err and "Traceback" not in captured.out


def test_error_line_in_the_question_language() -> None:
    r = run("boom 显存\n")
    assert r.out.startswith("抱歉")
    r = run(":lang zh-Hant\nboom\n")
    assert "抱歉，回答這個問題時出錯了（RuntimeError）" in r.out


def test_error_in_render_is_one_friendly_line() -> None:
    def bad_render(reply: Any) -> str:
        raise ValueError("template broke")

    r = run("q1\nq2\n", render=bad_render)
    assert r.code == 0 and r.out.count("Sorry") == 2 and len(r.advisor.calls) == 2
    r = run("q1\n:json\n", render=bad_render)
    assert "(no answer yet" in r.out  # a reply that failed to render is not the "last answer"


def test_broken_pipe_stops_quietly() -> None:
    class Closed(io.StringIO):
        def write(self, s: str) -> int:
            raise BrokenPipeError

    assert run_console(FakeAdvisor(), io.StringIO("a\nb\n"), Closed(), render=text_of) == 0


# ------------------------------------------------------------------------------------- interactive


def test_interactive_banner_prompt_and_eof() -> None:
    r = run("hello\n", interactive=True)
    assert r.code == 0
    assert r.out.startswith(BANNER)
    assert r.out.count(PROMPT) == 2  # before "hello" and before the EOF
    assert "answer #1 to hello" in r.out
    assert r.out.endswith(PROMPT + "\n")  # Ctrl-D leaves the shell on a fresh line


def test_interactive_bare_quit() -> None:
    r = run("exit\nnever\n", interactive=True)
    assert r.code == 0 and r.advisor.calls == []


def test_ctrl_c_cancels_the_line_and_twice_quits() -> None:
    advisor = FakeAdvisor()
    out = io.StringIO()
    stdin = ScriptedStdin(
        ["q1\n", KeyboardInterrupt, "q2\n", KeyboardInterrupt, KeyboardInterrupt, "never\n"]
    )
    code = run_console(advisor, stdin, out, interactive=True, render=text_of)
    assert code == 0
    assert [c["text"] for c in advisor.calls] == ["q1", "q2"]
    assert out.getvalue().count("Ctrl-C again") == 2  # q2 in between reset the count
    assert "Traceback" not in out.getvalue()


def test_ctrl_c_while_answering_cancels_that_answer() -> None:
    r = run("slow one\nq2\n", interactive=True)
    assert r.code == 0 and "(cancelled)" in r.out and "answer #2 to q2" in r.out


def test_interactive_is_detected_from_stdin() -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    out = io.StringIO()
    run_console(FakeAdvisor(), Tty("q\n"), out, render=text_of)
    assert out.getvalue().startswith(BANNER)


# --------------------------------------------------------------------------------- real processes

CHILD = (
    "import sys; sys.path.insert(0, {root!r}); from bot.console.repl import main; "
    "from tests.bot.console.test_repl import FakeAdvisor; sys.exit(main(FakeAdvisor()))"
)
CHILD_PLAIN = CHILD.replace(  # answers printed as their bare text, not through bot/render.py
    "sys.exit(", "import bot.console.repl as c; c.default_renderer = lambda a: lambda r: r.answer.text; sys.exit("
)


def child_env(tmp_path: Path) -> dict[str, str]:
    env = dict(os.environ, GPU_ADVISOR_HISTORY=str(tmp_path / "history"), HOME=str(tmp_path), TERM="dumb")
    env.pop("PYTHONSTARTUP", None)
    return env


def test_main_piped_process(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-c", CHILD_PLAIN.format(root=str(ROOT))],
        input=b"llama 8b?\nbad \xff bytes\n:json\n",
        capture_output=True,
        timeout=60,
        env=child_env(tmp_path),
        cwd=ROOT,
    )
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout.decode()
    assert "answer #1 to llama 8b?" in out
    # The undecodable byte was replaced rather than ending the session.
    assert '"text": "answer #2 to bad \ufffd bytes"' in out
    assert PROMPT not in out and "Traceback" not in proc.stderr.decode()


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pty")
def test_main_interactive_under_a_pty(tmp_path: Path) -> None:
    import fcntl
    import pty
    import termios

    def controlling_terminal() -> None:  # so that Ctrl-C on the pty sends SIGINT to the child
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)
        # A suite started in the background (`pytest &` in a script) inherits SIGINT ignored, and CPython keeps
        # an ignored SIGINT ignored: the child would never see Ctrl-C. A person's terminal delivers it.
        signal.signal(signal.SIGINT, signal.SIG_DFL)

    master, slave = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-c", CHILD_PLAIN.format(root=str(ROOT))],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env=child_env(tmp_path),
        cwd=ROOT,
        start_new_session=True,
        preexec_fn=controlling_terminal,
    )
    os.close(slave)
    seen = b""
    consumed = 0  # each expectation looks only past the previous match: the first prompt must not satisfy later ones

    def settle() -> None:
        """Let readline reach its select() after printing the prompt: a SIGINT landing in between is only
        noticed at the next key press (CPython's readline), which a person never sees but a script does."""
        time.sleep(0.3)

    def expect(needle: bytes, timeout_s: float = 20.0) -> None:
        nonlocal seen, consumed
        deadline = time.monotonic() + timeout_s
        while needle not in seen[consumed:]:
            remaining = deadline - time.monotonic()
            assert remaining > 0, f"{needle!r} not in {seen!r}"
            ready, _, _ = select.select([master], [], [], remaining)
            if ready:
                try:
                    seen += os.read(master, 4096)
                except OSError:  # the child closed the terminal
                    break
        assert needle in seen[consumed:], seen
        consumed = seen.index(needle, consumed) + len(needle)

    try:
        expect(PROMPT.encode())
        os.write(master, b"hello there\n")
        expect(b"answer #1 to hello there")
        expect(PROMPT.encode())
        settle()
        os.write(master, b"\x03")  # Ctrl-C at the prompt: cancelled, still running
        expect(b"Ctrl-C again")
        os.write(master, b"again\n")
        expect(b"answer #2 to again")
        expect(PROMPT.encode())
        settle()
        os.write(master, b"\x03")
        expect(b"Ctrl-C again")
        expect(PROMPT.encode())
        settle()
        os.write(master, b"\x03")  # twice in a row: quits
        assert proc.wait(timeout=20) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)
    assert b"Traceback" not in seen
    assert (tmp_path / "history").read_text().count("hello there") == 1
