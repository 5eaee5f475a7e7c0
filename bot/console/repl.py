"""`python -m bot console`: the advisor in a terminal, with a conversation like a Slack thread.

One session is one thread: "what about int4?" follows the last question until `:new`. Lines starting
with ':' are commands (`:help` lists them); everything else is a question.

- Interactive (stdin is a TTY): a banner, a prompt, readline editing and history when available. Ctrl-D
  ends (exit 0); Ctrl-C cancels the line or the answer being computed, twice in a row quits (exit 0).
- Piped (`python -m bot console < questions.txt`): no banner, no prompt; one answer per non-blank line,
  flushed after each, so a script can read answers as they come. Ctrl-C ends with 130.

Never a traceback: an error while answering prints one line (the traceback goes to the
``gpu_advisor.console`` logger at DEBUG) and the loop goes on.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import shutil
import sys
import uuid
from collections.abc import Callable, Iterator
from typing import IO, Any

from bot.ports import AdvisorLike, ReplyLike

log = logging.getLogger("gpu_advisor.console")

PROMPT = "gpu> "
LANGS = ("en", "zh-Hans", "zh-Hant")
_LANG_ALIASES = {
    "auto": None,
    "en": "en",
    "english": "en",
    "zh": "zh-Hans",
    "zh-hans": "zh-Hans",
    "zh-cn": "zh-Hans",
    "zh-sg": "zh-Hans",
    "zh-hant": "zh-Hant",
    "zh-tw": "zh-Hant",
    "zh-hk": "zh-Hant",
}
HISTORY_LENGTH = 1000

BANNER = """\
GPU Advisor: which GPU a model needs, how many, and why.
Ask e.g. "Llama 3.1 8B LoRA on one 24 GB card?" or "70B 推理要几张 H100？" —
follow-ups continue the thread ("what about int4?"). :help lists commands, Ctrl-D quits.
"""

HELP = """\
Commands:
  :new            start a new thread (follow-ups no longer refer to earlier questions)
  :json           the last answer as JSON
  :maths          the last answer again, with the working shown
  :lang LANG      reply language: en, zh-Hans, zh-Hant or auto (the question's language)
  :help           this list
  :quit           quit (also :q, :exit, Ctrl-D)
Anything else is a question, e.g. "qwen2.5 72b int4 on 2x4090?", "what about 32k context?".
"""

_ERROR = {
    "en": "Sorry, something went wrong answering that ({name}). Try rephrasing it, or :new to start over.",
    "zh-Hans": "抱歉，回答这个问题时出错了（{name}）。请换个说法，或输入 :new 重新开始。",
    "zh-Hant": "抱歉，回答這個問題時出錯了（{name}）。請換個說法，或輸入 :new 重新開始。",
}




Renderer = Callable[[ReplyLike], str]


def new_session_key() -> str:
    """A thread key of its own for each console session (never a Slack "channel:ts" key)."""
    return f"console:{uuid.uuid4().hex[:12]}"


def default_renderer(advisor: object, terminal: bool | None = None) -> Renderer:
    """Terminal text from bot/render.py, with the advisor's knowledge base; `Answer.text` as a fallback.
    On a terminal (default: when the process's stdout is one), picks and comparisons are `rich` tables sized
    to its width; piped, they stay plain text."""

    def render(reply: ReplyLike) -> str:
        try:
            from bot.reply.render import render_terminal, render_text
        except ImportError:  # pragma: no cover - only while bot/render.py is missing
            return reply.answer.text
        kb = getattr(advisor, "kb", None)
        show_maths = bool(getattr(reply, "show_maths", False))
        if _is_tty(sys.stdout) if terminal is None else terminal:
            return render_terminal(reply.answer, kb, width=shutil.get_terminal_size().columns,
                                   color="NO_COLOR" not in os.environ, show_maths=show_maths)
        return render_text(reply.answer, kb, show_maths=show_maths)

    return render


class Session:
    """The state of one console conversation, and what each line does to it."""

    def __init__(
        self,
        advisor: AdvisorLike,
        out: IO[str],
        *,
        render: Renderer,
        user_id: str | None = "console",
        interactive: bool = False,
    ) -> None:
        self.advisor = advisor
        self.out = out
        self.render = render
        self.user_id = user_id
        self.interactive = interactive
        self.thread_key = new_session_key()
        self.lang: str | None = None
        self.last: ReplyLike | None = None

    def write(self, text: str) -> None:
        self.out.write(text if text.endswith("\n") else text + "\n")
        self.out.flush()

    def handle(self, line: str) -> bool:
        """Answer a question or run a command. False when the session should end."""
        text = line.strip()
        if not text:
            return True
        if text.startswith(":"):
            return self.command(text)
        if self.interactive and text.lower() in ("quit", "exit"):
            return False
        self.ask(text)
        return True

    def ask(self, text: str, overrides: dict[str, Any] | None = None) -> None:
        try:
            reply = self.advisor.respond(
                text, self.thread_key, user_id=self.user_id, overrides=overrides, lang=self.lang
            )
            rendered = self.render(reply)
        except Exception as exc:  # one friendly line, never a traceback; the loop goes on
            log.debug("console: answering %r failed", text, exc_info=True)
            self.write(_ERROR[self._error_lang(text)].format(name=type(exc).__name__))
            return
        self.last = reply
        self.write(rendered.rstrip("\n") + "\n\n")  # a blank line between answers

    def _error_lang(self, text: str) -> str:
        if self.lang in _ERROR:
            return self.lang
        try:
            from bot.service import language_of

            lang = language_of(text)
        except Exception:
            return "en"
        return lang if lang in _ERROR else "en"

    def command(self, text: str) -> bool:
        name, _, arg = text[1:].strip().partition(" ")
        name, arg = name.lower(), arg.strip()
        if name in ("q", "quit", "exit"):
            return False
        if name in ("new", "reset"):
            self.thread_key = new_session_key()
            self.last = None
            self.write("(new thread: follow-ups start fresh)")
        elif name == "json":
            if self.last is None:
                self.write("(no answer yet: ask a question first)")
            else:
                self.write(json.dumps(self.last.answer.as_json(), indent=2, ensure_ascii=False))
        elif name == "lang":
            self._set_lang(arg)
        elif name in ("maths", "math", "why"):
            if self.last is None:
                self.write("(no answer yet: ask a question first)")
            else:
                self.ask("", overrides={"show_maths": True})
        elif name in ("help", "h", "?"):
            self.write(HELP)
        else:
            self.write(f"Unknown command :{name}. :help lists the commands.")
        return True

    def _set_lang(self, arg: str) -> None:
        if not arg:
            self.write(f"(reply language: {self.lang or 'auto'})")
            return
        key = arg.lower().replace("_", "-")
        if key not in _LANG_ALIASES:
            self.write(f"Unknown language {arg!r}: use one of {', '.join(LANGS)} or auto.")
            return
        self.lang = _LANG_ALIASES[key]
        self.write(f"(reply language: {self.lang or 'auto, the language of each question'})")


def _is_tty(stream: IO[str]) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


def _history_file() -> str | None:
    path = os.environ.get("GPU_ADVISOR_HISTORY")
    if path is None:
        path = os.path.join(os.path.expanduser("~"), ".gpu_advisor_history")
    return path or None  # GPU_ADVISOR_HISTORY="" turns the history file off


@contextlib.contextmanager
def _readline_history(enabled: bool) -> Iterator[None]:
    """Line editing and a history file for interactive use, when the readline module is available."""
    readline: Any = None
    path = _history_file() if enabled else None
    if enabled:
        try:
            import readline as _readline

            readline = _readline
        except ImportError:  # Windows without pyreadline: plain input()
            readline = None
    if readline is not None and path:
        with contextlib.suppress(OSError):
            readline.read_history_file(path)
        readline.set_history_length(HISTORY_LENGTH)
    try:
        yield
    finally:
        if readline is not None and path:
            with contextlib.suppress(OSError):
                readline.write_history_file(path)


def run_console(
    advisor: AdvisorLike,
    stdin: IO[str],
    stdout: IO[str],
    *,
    interactive: bool | None = None,
    render: Renderer | None = None,
    user_id: str | None = "console",
) -> int:
    """Read lines from `stdin` until EOF or :quit and answer them on `stdout`. Returns the exit code."""
    if interactive is None:
        interactive = _is_tty(stdin)
    session = Session(
        advisor, stdout, render=render or default_renderer(advisor), user_id=user_id, interactive=interactive
    )
    # input() gives readline editing, but only on the process's own terminal.
    use_input = interactive and stdin is sys.stdin and stdout is sys.stdout

    def read() -> str | None:
        if use_input:
            try:
                return input(PROMPT)
            except EOFError:
                return None
        if interactive:
            stdout.write(PROMPT)
            stdout.flush()
        line = stdin.readline()
        return line.rstrip("\r\n") if line else None

    try:
        with _readline_history(use_input):
            if interactive:
                session.write(BANNER)
            interrupts = 0
            while True:
                try:
                    line = read()
                except KeyboardInterrupt:
                    if not interactive:
                        return 130
                    interrupts += 1
                    if interrupts >= 2:
                        session.write("")
                        return 0
                    session.write("\n(cancelled: Ctrl-C again, :quit or Ctrl-D to quit)")
                    continue
                if line is None:
                    if interactive:
                        session.write("")
                    return 0
                interrupts = 0
                try:
                    if not session.handle(line):
                        return 0
                except KeyboardInterrupt:
                    if not interactive:
                        return 130
                    session.write("\n(cancelled)")
    except BrokenPipeError:
        # The reader went away (`... | head`): stop quietly, and keep Python from complaining at exit.
        if stdout is sys.stdout:
            with contextlib.suppress(OSError, ValueError):
                devnull = os.open(os.devnull, os.O_WRONLY)
                os.dup2(devnull, sys.stdout.fileno())
        return 0


def _tolerant_streams() -> None:
    """Undecodable input or unprintable output must not end the session with a UnicodeError."""
    for stream in (sys.stdin, sys.stdout):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            with contextlib.suppress(Exception):
                reconfigure(errors="replace")


def main(advisor: AdvisorLike | None = None) -> int:
    """Entry point for `python -m bot console`."""
    _tolerant_streams()
    if advisor is None:
        try:
            from bot.service import Advisor

            advisor = Advisor()
        except Exception as exc:
            log.debug("console: start-up failed", exc_info=True)
            print(f"gpu-advisor console: could not start: {exc}", file=sys.stderr)
            return 1
    return run_console(advisor, sys.stdin, sys.stdout)
