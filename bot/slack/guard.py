"""The request guard in front of Bolt (HTTP mode): Slack's signature is checked on the raw bytes before
anything parses them.

Why not leave it to Bolt: Bolt parses the body first (a malformed one raised a 500 with a traceback), reads
`X-Slack-Request-Timestamp` with `int()` (a non-numeric one raised a 500), and logs every refused request's
whole body at INFO (four clients sending forged 1 MB bodies grew the log by 829 MB in 23 s). Here:

    unsigned, forged, stale or non-numeric timestamp  → 401, one short log line, the body never logged
    signed but not a body Slack would send            → 400
    signed and well-formed                            → Bolt (which verifies again: cheap, and kept)
"""

from __future__ import annotations

import hashlib
import hmac
import io
import json
import logging
import time
from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import parse_qs

log = logging.getLogger("bot.slack.server")

REPLAY_WINDOW_S = 300
"""Slack's documented replay window: a request signed more than five minutes ago is refused."""

StartResponse = Callable[..., Any]
WSGIApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]


def signature_ok(secret: str, timestamp: str | None, body: bytes, signature: str | None,
                 now: float | None = None) -> str | None:
    """None when the request is Slack's; otherwise why not, in a few words (for the log line)."""
    if not secret:
        return "no signing secret configured"
    if not timestamp or not signature:
        return "unsigned"
    try:
        signed_at = int(timestamp)
    except ValueError:
        return "non-numeric timestamp"
    if abs((time.time() if now is None else now) - signed_at) > REPLAY_WINDOW_S:
        return "stale timestamp"
    base = b"v0:" + timestamp.encode() + b":" + body
    expected = "v0=" + hmac.new(secret.encode(), base, hashlib.sha256).hexdigest()
    return None if hmac.compare_digest(expected, signature) else "bad signature"


def body_ok(body: bytes, content_type: str) -> bool:
    """True when the body parses as Bolt will parse it: a JSON object, or a form whose `payload` (if any)
    is a JSON object."""
    try:
        text = body.decode("utf-8")
        if "application/json" in content_type or text.startswith("{"):  # Bolt's own test for JSON
            return isinstance(json.loads(text), dict)
        form = parse_qs(text, keep_blank_values=True)
        if "payload" in form:
            return isinstance(json.loads(form["payload"][0]), dict)
        return True
    except ValueError:
        return False


def _read_body(environ: dict[str, Any], limit: int) -> bytes | None:
    """The request body, or None when it is longer than `limit` or shorter than its Content-Length."""
    try:
        length = int(environ.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return None
    if length < 0 or length > limit:
        return None
    body = environ["wsgi.input"].read(length) if length else b""
    return body if len(body) == length else None


def _reply(start_response: StartResponse, status: str, text: str) -> list[bytes]:
    payload = text.encode()
    start_response(status, [("Content-Type", "text/plain; charset=utf-8"), ("Content-Length", str(len(payload)))])
    return [payload]


def verified_first(inner: WSGIApp, signing_secret: str, *, limit: int) -> WSGIApp:
    """`inner` behind the signature check (see the module docstring). POSTs only; other methods pass."""

    def guard(environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        if environ.get("REQUEST_METHOD") != "POST":
            return inner(environ, start_response)
        body = _read_body(environ, limit)
        if body is None:
            log.warning("request refused: body too large or cut short",
                        extra={"kind": "http", "status": 413, "path": environ.get("PATH_INFO")})
            return _reply(start_response, "413 Payload Too Large", "Payload Too Large")
        problem = signature_ok(signing_secret, environ.get("HTTP_X_SLACK_REQUEST_TIMESTAMP"), body,
                               environ.get("HTTP_X_SLACK_SIGNATURE"))
        if problem is not None:
            log.warning("request refused: %s", problem,
                        extra={"kind": "http", "status": 401, "path": environ.get("PATH_INFO"), "bytes": len(body)})
            return _reply(start_response, "401 Unauthorized", "")
        if not body_ok(body, str(environ.get("CONTENT_TYPE") or "")):
            log.warning("signed request with an unreadable body",
                        extra={"kind": "http", "status": 400, "path": environ.get("PATH_INFO"), "bytes": len(body)})
            return _reply(start_response, "400 Bad Request", "Bad Request")
        environ["wsgi.input"] = io.BytesIO(body)
        environ["CONTENT_LENGTH"] = str(len(body))
        return inner(environ, start_response)

    return guard
