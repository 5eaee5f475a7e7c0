"""Launch `serve` or `socket` for the e2e tests: `python -m tests.bot.slack.run_bot serve|socket`.

With GPU_ADVISOR_FAKE_PIPELINE=1 the Slack front end is wired to tests/bot/slack/fakes.py instead of the real
advisor (used only while the real pipeline cannot answer); otherwise this is exactly `python -m bot serve`.
"""

from __future__ import annotations

import os
import sys


def main() -> int:
    mode = sys.argv[1] if len(sys.argv) > 1 else "serve"
    if os.environ.get("GPU_ADVISOR_FAKE_PIPELINE") == "1":
        from tests.bot.slack.fakes import install

        install()
    if mode == "socket":
        from bot.slack.socket_mode import main as run
    else:
        from bot.slack.server import main as run
    return run()


if __name__ == "__main__":
    sys.exit(main())
