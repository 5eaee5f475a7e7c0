"""`python -m bot socket`: the same Bolt app over Socket Mode (no public URL needed).

The websocket-client based handler asks the Web API's apps.connections.open (at SLACK_API_URL, with
SLACK_APP_TOKEN) for the WebSocket URL, so it runs against a local fake Slack as well as the real one.
Every envelope is acknowledged with its envelope_id by the handler as soon as Bolt acks; the answer
follows through the Web API. SIGTERM/SIGINT close the connection and exit 0.
"""

from __future__ import annotations

import logging
import signal
import sys
import threading
from types import FrameType

from bot.errors import ConfigError
from bot.slack.settings import Settings

log = logging.getLogger("bot.slack.socket_mode")


def main() -> int:
    try:
        settings = Settings.from_env()
        settings.require_socket()
    except ConfigError as error:
        print(f"gpu-advisor socket: {error}", file=sys.stderr)
        return 2
    from slack_sdk.errors import SlackApiError

    from bot.slack.app import build_app, socket_mode_handler
    from bot.slack.logs import install_excepthook, setup_logging

    setup_logging(settings.log_level, settings.secrets)
    install_excepthook()
    app = build_app(settings)
    handler = socket_mode_handler(app, settings.app_token or "")
    stop = threading.Event()

    def on_signal(signum: int, frame: FrameType | None) -> None:
        stop.set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    try:
        handler.connect()
    except SlackApiError as error:
        code = error.response.get("error") if error.response is not None else None
        print(f"gpu-advisor socket: apps.connections.open failed ({code}); check SLACK_APP_TOKEN "
              "(an xapp- token with connections:write) and that Socket Mode is enabled", file=sys.stderr)
        return 2
    except Exception as error:
        print(f"gpu-advisor socket: cannot reach the Slack Web API at {settings.api_url} "
              f"({type(error).__name__})", file=sys.stderr)
        return 1
    log.info("socket mode connected")
    while not stop.wait(1.0):
        pass
    log.info("socket mode closing")
    handler.close()
    return 0
