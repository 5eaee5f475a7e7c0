"""Settings from the environment, and the JSON log format with its redaction."""

from __future__ import annotations

import io
import json
import logging

import pytest

from bot.errors import ConfigError
from bot.slack.logs import JsonFormatter, RedactFilter, add_secrets, redact
from bot.slack.settings import DEFAULT_API_URL, Settings

ENV = {"SLACK_BOT_TOKEN": "xoxb-123-456-abcdef", "SLACK_SIGNING_SECRET": "s3cr3t-signing-value",
       "SLACK_APP_TOKEN": "xapp-1-A1-789-abc", "REDIS_URL": "redis://:hunter2@redis:6379/0"}


def test_defaults() -> None:
    settings = Settings.from_env({})
    assert settings.api_url == DEFAULT_API_URL and settings.port == 3000 and settings.log_level == "INFO"
    assert settings.implied_mode() == "console"


def test_values_and_modes() -> None:
    settings = Settings.from_env({**ENV, "PORT": "8080", "LOG_LEVEL": "debug",
                                  "SLACK_API_URL": "http://127.0.0.1:9/api"})
    assert settings.port == 8080 and settings.log_level == "DEBUG"
    assert settings.api_url == "http://127.0.0.1:9/api/"  # the trailing slash slack_sdk needs
    assert settings.implied_mode() == "socket"
    assert Settings.from_env({k: v for k, v in ENV.items() if k != "SLACK_APP_TOKEN"}).implied_mode() == "serve"


def test_secrets_never_in_repr() -> None:
    settings = Settings.from_env(ENV)
    for shown in (repr(settings), str(settings), f"{settings}"):
        for secret in ("xoxb-123", "s3cr3t", "xapp-1", "hunter2"):
            assert secret not in shown
    assert "bot_token=<set>" in repr(settings)


@pytest.mark.parametrize(("env", "needle"), [
    ({"PORT": "eighty"}, "PORT"), ({"PORT": "70000"}, "PORT"), ({"LOG_LEVEL": "LOUD"}, "LOG_LEVEL"),
    ({"SLACK_API_URL": "slack.com/api"}, "SLACK_API_URL"),
])
def test_bad_values_are_config_errors(env: dict[str, str], needle: str) -> None:
    with pytest.raises(ConfigError, match=needle):
        Settings.from_env(env)


def test_required_settings_name_what_is_missing() -> None:
    with pytest.raises(ConfigError, match="SLACK_SIGNING_SECRET"):
        Settings.from_env({"SLACK_BOT_TOKEN": "xoxb-1"}).require_http()
    with pytest.raises(ConfigError, match="SLACK_BOT_TOKEN"):
        Settings.from_env({"SLACK_SIGNING_SECRET": "x"}).require_http()
    with pytest.raises(ConfigError, match="SLACK_APP_TOKEN"):
        Settings.from_env({"SLACK_BOT_TOKEN": "xoxb-1"}).require_socket()


def test_redact_token_shapes() -> None:
    text = "a xoxb-1-2-abc b xoxp-9-zz c xapp-1-A-2-q d xoxe.xoxp-1 e xoxe-1-abc"
    cleaned = redact(text)
    for token in ("xoxb-1-2-abc", "xoxp-9-zz", "xapp-1-A-2-q", "xoxe-1-abc"):
        assert token not in cleaned
    assert "xoxb-[redacted]" in cleaned


def _emit(record_kwargs: dict[str, object], exc: BaseException | None = None) -> dict[str, object]:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    handler.addFilter(RedactFilter())
    logger = logging.getLogger("test.redaction")
    logger.propagate = False
    logger.handlers = [handler]
    logger.setLevel(logging.INFO)
    if exc is not None:
        try:
            raise exc
        except BaseException:
            logger.exception("failed with %s", "xoxb-999-arg", extra=record_kwargs)
    else:
        logger.info("token %s in %s", "xoxb-111-222-abc", "args", extra=record_kwargs)
    return json.loads(stream.getvalue())


def test_json_lines_carry_delivery_fields_and_redact_everywhere() -> None:
    add_secrets(["s3cr3t-signing-value"])
    entry = _emit({"event_id": "Ev1", "retry_num": 1, "intent": "recommend", "model": "qwen-7b",
                   "latency_ms": 12.5, "error": "leaked s3cr3t-signing-value"})
    assert entry["event_id"] == "Ev1" and entry["retry_num"] == 1 and entry["latency_ms"] == 12.5
    assert entry["intent"] == "recommend" and entry["model"] == "qwen-7b"
    assert "xoxb-111" not in json.dumps(entry) and "s3cr3t" not in json.dumps(entry)
    failure = _emit({"event_id": "Ev2"}, RuntimeError("bad token xoxp-5-6-secret"))
    assert "RuntimeError" in str(failure["exc"]) and "xoxp-5-6" not in json.dumps(failure)
    assert "xoxb-999" not in json.dumps(failure)
