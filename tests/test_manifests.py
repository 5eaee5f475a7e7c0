"""manifest.socket.yml is manifest.yml for Socket Mode: the same app (scopes, events, command, shortcut, home,
interactivity) with socket_mode_enabled and no request URL anywhere. tests/slack/test_manifest.py checks the HTTP
one against the listeners; this checks that the two cannot drift apart."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]


def load(name: str) -> dict[str, Any]:
    return dict(yaml.safe_load((ROOT / name).read_text(encoding="utf-8")))


def urls_in(node: Any, path: str = "") -> list[str]:
    """Paths of every key that names a URL Slack would call (`url`, `request_url`, `redirect_urls`, ...)."""
    found: list[str] = []
    if isinstance(node, dict):
        for key, value in node.items():
            here = f"{path}.{key}" if path else str(key)
            if "url" in str(key).lower():
                found.append(here)
            found += urls_in(value, here)
    elif isinstance(node, list):
        for position, item in enumerate(node):
            found += urls_in(item, f"{path}[{position}]")
    return found


def without_urls(node: Any) -> Any:
    if isinstance(node, dict):
        return {key: without_urls(value) for key, value in node.items() if "url" not in str(key).lower()}
    if isinstance(node, list):
        return [without_urls(item) for item in node]
    return node


HTTP, SOCKET = load("manifest.yml"), load("manifest.socket.yml")


def test_the_socket_manifest_enables_socket_mode_and_the_http_one_does_not() -> None:
    assert SOCKET["settings"]["socket_mode_enabled"] is True
    assert HTTP["settings"]["socket_mode_enabled"] is False


def test_the_socket_manifest_has_no_url() -> None:
    assert urls_in(SOCKET) == []


def test_the_url_finder_sees_the_http_manifests_three_urls() -> None:
    assert sorted(urls_in(HTTP)) == ["features.slash_commands[0].url", "settings.event_subscriptions.request_url",
                                     "settings.interactivity.request_url"]


def test_both_ask_for_the_same_scopes_events_command_and_shortcut() -> None:
    assert sorted(SOCKET["oauth_config"]["scopes"]["bot"]) == sorted(HTTP["oauth_config"]["scopes"]["bot"])
    assert (sorted(SOCKET["settings"]["event_subscriptions"]["bot_events"])
            == sorted(HTTP["settings"]["event_subscriptions"]["bot_events"]))
    assert without_urls(SOCKET["features"]) == without_urls(HTTP["features"])
    assert SOCKET["settings"]["interactivity"] == without_urls(HTTP["settings"]["interactivity"])


def test_they_differ_only_in_transport() -> None:
    socket_settings = {key: value for key, value in SOCKET["settings"].items() if key != "socket_mode_enabled"}
    http_settings = {key: value for key, value in HTTP["settings"].items() if key != "socket_mode_enabled"}
    assert without_urls(SOCKET) | {"settings": socket_settings} == without_urls(HTTP) | {
        "settings": without_urls(http_settings)}
