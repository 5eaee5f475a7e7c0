"""gunicorn settings for `python -m bot serve`, the one place an operator tunes the HTTP server.

gunicorn reads `./gunicorn.conf.py` from the directory it starts in (the image's WORKDIR, the buildpack's app
root), then applies `GUNICORN_CMD_ARGS` on top of it, e.g. `GUNICORN_CMD_ARGS="--timeout 60 --threads 16"`:
nothing here needs to parse that variable. `bot/slack/server.py` applies its own options first, then this file, then
`GUNICORN_CMD_ARGS` (gunicorn's own precedence; it never reads sys.argv).

The values mirror bot/slack/server.py's defaults, so a deployment with this file behaves like one without it until
someone edits it.
"""

from __future__ import annotations

import os

# Conversation state, de-duplication and rate limits live in process memory unless REDIS_URL is set, and memory
# is not shared between worker processes: without Redis one worker (its threads give the concurrency); with
# Redis, WEB_CONCURRENCY workers (Heroku-style platforms set it from the dyno size).
_shared_state = bool(os.environ.get("REDIS_URL", "").strip())
_concurrency = os.environ.get("WEB_CONCURRENCY", "").strip()

bind: str = f"{os.environ.get('HOST', '0.0.0.0')}:{os.environ.get('PORT', '3000').strip() or '3000'}"
workers: int = (int(_concurrency) if _concurrency else 2) if _shared_state else 1
worker_class: str = "gthread"
threads: int = 8
# Slack needs an HTTP answer within 3 s; the bot acknowledges first and answers through the Web API, so a
# request that holds a worker for 30 s is stuck, not slow.
timeout: int = 30
graceful_timeout: int = 10
# Above deploy/nginx.conf's upstream keepalive_timeout (4 s): the proxy must drop an idle connection first.
keepalive: int = 5
# Slack's payloads are a few KiB; these are gunicorn's defaults written out so they are visible.
limit_request_line: int = 4094
limit_request_fields: int = 100
limit_request_field_size: int = 8190
