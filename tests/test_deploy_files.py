"""The deployment files agree with each other and with pyproject.toml: the lock pins every dependency within its
declared range, compose wires Redis and keeps secrets out of the file, and gunicorn.conf.py only uses settings
gunicorn knows (it ignores unknown names silently, so a typo would otherwise go unnoticed)."""

from __future__ import annotations

import re
import runpy
import tomllib
from pathlib import Path
from typing import Any

import pytest
import yaml
from gunicorn.config import Config
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
INTERPOLATION = re.compile(r"^\$\{[A-Z_]+(:?-[^}]*)?\}$")


def pyproject() -> dict[str, Any]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def locked() -> dict[str, str]:
    pins: dict[str, str] = {}
    for line in (ROOT / "requirements.txt").read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, _, version = line.partition("==")
            assert version, f"requirements.txt line {line!r} is not pinned with =="
            pins[canonicalize_name(name)] = version
    return pins


def test_the_lock_pins_every_dependency_within_its_range() -> None:
    pins = locked()
    for text in pyproject()["project"]["dependencies"]:
        requirement = Requirement(text)
        name = canonicalize_name(requirement.name)
        assert name in pins, f"{name} is in pyproject.toml but not in requirements.txt: re-run pip-compile"
        assert pins[name] in requirement.specifier, f"{name}=={pins[name]} is outside {requirement.specifier}"


def test_python_version_satisfies_requires_python() -> None:
    version = (ROOT / ".python-version").read_text().strip()
    assert re.fullmatch(r"3\.\d+", version)
    assert f"{version}.0" in SpecifierSet(pyproject()["project"]["requires-python"])


def compose() -> dict[str, Any]:
    return dict(yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8")))


def test_compose_wires_the_bot_to_a_healthy_redis() -> None:
    services = compose()["services"]
    for name in ("web", "socket"):
        bot = services[name]
        redis_host = re.fullmatch(r"redis://([a-z0-9_-]+):6379/\d+", bot["environment"]["REDIS_URL"])
        assert redis_host, bot["environment"]["REDIS_URL"]
        assert redis_host.group(1) in services
        assert bot["depends_on"][redis_host.group(1)]["condition"] == "service_healthy"
        assert "test" in services[redis_host.group(1)]["healthcheck"]


def test_compose_runs_the_procfile_commands() -> None:
    services = compose()["services"]
    procfile = dict(line.split(":", 1) for line in (ROOT / "Procfile").read_text().splitlines() if line.strip())
    assert "command" not in services["web"]  # the image's CMD, which is the Procfile's web command
    assert services["socket"]["command"] == procfile["worker"].split()


def test_compose_holds_no_secret_and_publishes_on_loopback_only() -> None:
    services = compose()["services"]
    for service in services.values():
        for key, value in (service.get("environment") or {}).items():
            if key.startswith("SLACK_") and key != "SLACK_API_URL":
                assert INTERPOLATION.match(str(value)), f"{key} must come from the environment, not the file"
        for port in service.get("ports") or []:
            assert str(port).startswith("127.0.0.1:"), f"{port} would be reachable without the reverse proxy"


def test_env_example_documents_every_variable_compose_reads() -> None:
    text = (ROOT / "compose.yaml").read_text(encoding="utf-8")
    used = set(re.findall(r"\$\{([A-Z_]+)", text))
    example = (ROOT / ".env.example").read_text(encoding="utf-8")
    documented = set(re.findall(r"^#?\s*([A-Z_]+)=", example, flags=re.MULTILINE))
    assert used <= documented, f"not in .env.example: {sorted(used - documented)}"
    for line in example.splitlines():
        if line.startswith("SLACK_"):
            assert line.endswith("="), f"{line!r}: .env.example must not carry a value for a secret"


@pytest.mark.parametrize("ignore_file", [".gitignore", ".dockerignore"])
def test_the_env_file_is_neither_committed_nor_sent_to_the_build(ignore_file: str) -> None:
    patterns = (ROOT / ignore_file).read_text(encoding="utf-8").splitlines()
    assert ".env" in patterns


def gunicorn_settings(monkeypatch: pytest.MonkeyPatch, **env: str) -> dict[str, Any]:
    for name in ("PORT", "HOST", "REDIS_URL", "WEB_CONCURRENCY"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    values = runpy.run_path(str(ROOT / "gunicorn.conf.py"))
    return {name: value for name, value in values.items() if not name.startswith("_") and name not in
            ("annotations", "os")}


def test_gunicorn_conf_uses_only_settings_gunicorn_knows(monkeypatch: pytest.MonkeyPatch) -> None:
    known = Config().settings
    settings = gunicorn_settings(monkeypatch)
    assert set(settings) <= set(known), f"unknown to gunicorn: {sorted(set(settings) - set(known))}"
    config = Config()
    for name, value in settings.items():
        config.set(name, value)  # raises on a value gunicorn would refuse


@pytest.mark.parametrize(
    ("env", "bind", "workers"),
    [
        ({}, "0.0.0.0:3000", 1),
        ({"PORT": "8080"}, "0.0.0.0:8080", 1),
        ({"PORT": "8080", "HOST": "127.0.0.1"}, "127.0.0.1:8080", 1),
        ({"WEB_CONCURRENCY": "4"}, "0.0.0.0:3000", 1),  # memory state cannot be shared between processes
        ({"WEB_CONCURRENCY": "4", "REDIS_URL": "redis://r:6379/0"}, "0.0.0.0:3000", 4),
        ({"REDIS_URL": "redis://r:6379/0"}, "0.0.0.0:3000", 2),
    ],
)
def test_gunicorn_conf_reads_the_environment(monkeypatch: pytest.MonkeyPatch, env: dict[str, str], bind: str,
                                             workers: int) -> None:
    settings = gunicorn_settings(monkeypatch, **env)
    assert settings["bind"] == bind
    assert settings["workers"] == workers


@pytest.mark.parametrize("env", [{}, {"PORT": "8080", "WEB_CONCURRENCY": "3", "REDIS_URL": "redis://r:6379/0"}])
def test_gunicorn_conf_mirrors_the_servers_defaults(monkeypatch: pytest.MonkeyPatch, env: dict[str, str]) -> None:
    """Adding the file changes nothing until an operator edits it."""
    from bot.slack.server import gunicorn_options
    from bot.slack.settings import Settings

    settings = gunicorn_settings(monkeypatch, **env)
    defaults = gunicorn_options(Settings.from_env(env))
    shared = set(settings) & set(defaults)
    assert {"bind", "workers", "threads", "timeout", "worker_class"} <= shared
    assert {name: settings[name] for name in shared} == {name: defaults[name] for name in shared}


def test_nginx_drops_idle_upstream_connections_before_gunicorn_does(monkeypatch: pytest.MonkeyPatch) -> None:
    """nginx reusing a keep-alive connection gunicorn has just closed answers a POST with 502 (it never retries a
    non-idempotent request); the test of slow clients behind the proxy caught one such 502 in CI."""
    from bot.slack.server import gunicorn_options
    from bot.slack.settings import Settings

    conf = (ROOT / "deploy" / "nginx.conf").read_text(encoding="utf-8")
    upstream = re.search(r"upstream\s+\w+\s*\{([^}]*)\}", conf)
    assert upstream is not None
    timeout = re.search(r"keepalive_timeout\s+(\d+)s\s*;", upstream.group(1))
    assert timeout is not None, "the upstream block must set keepalive_timeout (nginx's default is 60 s)"
    gunicorn_keepalive = min(gunicorn_settings(monkeypatch)["keepalive"],
                             gunicorn_options(Settings.from_env({}))["keepalive"])
    assert int(timeout.group(1)) < gunicorn_keepalive
