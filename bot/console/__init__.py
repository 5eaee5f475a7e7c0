"""Console: the command line (`ask`, `console`, `kb`, and the launchers of the Slack modes) and the REPL.

Answers the same questions as Slack with no Slack at all, through the same advisor service and renderer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot._lazy import lazy_exports

if TYPE_CHECKING:
    from bot.console.cli import main
    from bot.console.repl import run_console

__all__ = ["main", "run_console"]
__getattr__ = lazy_exports(__name__, {"main": "cli", "run_console": "repl"})
