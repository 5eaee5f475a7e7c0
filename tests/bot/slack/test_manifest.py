"""manifest.yml and Procfile agree with the code: events, scopes, the command, the shortcut, the URLs."""

from __future__ import annotations

from pathlib import Path

import yaml

from bot.slack.listeners import COMMAND, SHORTCUT_CALLBACK_ID

ROOT = Path(__file__).resolve().parents[3]


def test_manifest_matches_the_listeners() -> None:
    manifest = yaml.safe_load((ROOT / "manifest.yml").read_text())
    settings, features = manifest["settings"], manifest["features"]
    events = settings["event_subscriptions"]["bot_events"]
    assert sorted(events) == ["app_home_opened", "app_mention", "message.im"]
    assert "message.channels" not in events  # mentions would arrive twice
    assert sorted(manifest["oauth_config"]["scopes"]["bot"]) == ["app_mentions:read", "chat:write", "commands",
                                                                 "im:history"]
    [command] = features["slash_commands"]
    assert command["command"] == COMMAND
    [shortcut] = features["shortcuts"]
    assert shortcut["type"] == "message" and shortcut["callback_id"] == SHORTCUT_CALLBACK_ID
    assert shortcut["name"] == "Size this with GPU Advisor"
    home = features["app_home"]
    assert home["home_tab_enabled"] and home["messages_tab_enabled"] and not home["messages_tab_read_only_enabled"]
    assert settings["interactivity"]["is_enabled"] is True
    assert settings["socket_mode_enabled"] is False
    urls = {command["url"], settings["event_subscriptions"]["request_url"], settings["interactivity"]["request_url"]}
    assert urls == {"https://YOUR-HOST/slack/events"}


def test_procfile_runs_serve_and_socket() -> None:
    lines = dict(line.split(":", 1) for line in (ROOT / "Procfile").read_text().splitlines() if line.strip())
    assert lines["web"].split() == ["python", "-m", "bot", "serve"]
    assert lines["worker"].split() == ["python", "-m", "bot", "socket"]
