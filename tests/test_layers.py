"""The three layers import only leftwards: knowledge ← rules ← bot; Slack stays in its adapter modules."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FORBIDDEN = {"knowledge": {"rules", "bot", "slack_bolt", "slack_sdk", "jinja2"},
             "rules": {"bot", "slack_bolt", "slack_sdk", "jinja2", "opencc"}}
SLACK_MODULES = {"slack.py", "server.py", "socket_mode.py"}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_lower_layers_do_not_import_upper_ones(package: str) -> None:
    for path in (ROOT / package).rglob("*.py"):
        bad = _imports(path) & FORBIDDEN[package]
        assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


def test_only_the_slack_adapters_import_slack_bolt() -> None:
    for path in (ROOT / "bot").rglob("*.py"):
        if path.name in SLACK_MODULES:
            continue
        assert "slack_bolt" not in _imports(path), f"{path.relative_to(ROOT)} imports slack_bolt"
