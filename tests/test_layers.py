"""Imports point one way: knowledge ← rules ← bot, and inside bot the rooms keep to their jobs.

Layers: knowledge imports neither rules nor bot; rules knows nothing of text, languages, Slack or templates.
Rooms of bot (design.md, "Layout"):
- understand/ (text → Question) knows nothing of replies, rendering, Slack or the console;
- reply/ (Question → Answer → words) knows nothing of Slack or the console;
- slack/ and console/ are front ends: they reach the rest only through the advisor service, its ports, the
  renderer, the state store and the errors, never the parser or the pipeline directly;
- only bot/slack/ imports slack_bolt.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FORBIDDEN = {"knowledge": {"rules", "bot", "slack_bolt", "slack_sdk", "jinja2"},
             "rules": {"bot", "slack_bolt", "slack_sdk", "jinja2", "opencc"}}

ROOM_FORBIDDEN = {
    "understand": {"bot.reply", "bot.slack", "bot.console", "bot.service", "slack_bolt", "slack_sdk", "jinja2"},
    "reply": {"bot.slack", "bot.console", "bot.service", "slack_bolt", "slack_sdk"},
}
FRONT_ENDS = ("slack", "console")
FRONT_END_ALLOWED = ("bot.service", "bot.ports", "bot.reply.render", "bot.state", "bot.errors", "bot._lazy")
LAUNCHERS = {"console/cli.py": ("bot.slack.server", "bot.slack.socket_mode")}
"""The command line starts the Slack modes (`serve`, `socket`): it may import their entry points, nothing else."""


def _imports(path: Path, *, full: bool = False) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name if full else alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module if full else node.module.split(".")[0])
    return names


def _reaches(module: str, prefixes: set[str] | tuple[str, ...]) -> bool:
    return any(module == prefix or module.startswith(prefix + ".") for prefix in prefixes)


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_lower_layers_do_not_import_upper_ones(package: str) -> None:
    for path in (ROOT / package).rglob("*.py"):
        bad = _imports(path) & FORBIDDEN[package]
        assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


@pytest.mark.parametrize("room", sorted(ROOM_FORBIDDEN))
def test_rooms_keep_to_their_jobs(room: str) -> None:
    for path in (ROOT / "bot" / room).rglob("*.py"):
        bad = {m for m in _imports(path, full=True) if _reaches(m, ROOM_FORBIDDEN[room])}
        assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


@pytest.mark.parametrize("room", FRONT_ENDS)
def test_front_ends_reach_the_rest_through_the_service_and_renderer(room: str) -> None:
    own = f"bot.{room}"
    for path in (ROOT / "bot" / room).rglob("*.py"):
        bot_imports = {m for m in _imports(path, full=True) if m == "bot" or m.startswith("bot.")}
        allowed = (own, *FRONT_END_ALLOWED, *LAUNCHERS.get(f"{room}/{path.name}", ()))
        bad = {m for m in bot_imports if not _reaches(m, allowed)}
        assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


def test_only_the_slack_room_imports_slack_bolt() -> None:
    for path in (ROOT / "bot").rglob("*.py"):
        if path.relative_to(ROOT / "bot").parts[0] == "slack":
            continue
        assert "slack_bolt" not in _imports(path), f"{path.relative_to(ROOT)} imports slack_bolt"


def test_the_rooms_exist_and_say_what_they_do() -> None:
    for room in ("understand", "reply", "slack", "console"):
        init = ROOT / "bot" / room / "__init__.py"
        assert ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))), f"{init} has no docstring"
