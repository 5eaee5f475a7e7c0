"""The Dockerfile keeps the properties a deployment relies on, checked without Docker (CI machines may have none):
an explicitly tagged base image, a non-root user, a HEALTHCHECK on /healthz, no remote ADD, and the Procfile's web
command. `.ci/check-deploy` runs hadolint as well where it can be installed."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

Instruction = tuple[str, str]


def instructions(text: str) -> list[Instruction]:
    """(KEYWORD, arguments) per instruction, with backslash continuations joined and comments dropped."""
    joined: list[str] = []
    pending = ""
    for raw in text.splitlines():
        line = raw.strip()
        if not pending and (not line or line.startswith("#")):
            continue
        if line.startswith("#"):
            continue
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        joined.append(pending + line)
        pending = ""
    if pending.strip():
        joined.append(pending)
    result = []
    for line in joined:
        keyword, _, arguments = line.partition(" ")
        result.append((keyword.upper(), arguments.strip()))
    return result


def final_stage(parsed: list[Instruction]) -> list[Instruction]:
    starts = [i for i, (keyword, _) in enumerate(parsed) if keyword == "FROM"]
    assert starts, "no FROM"
    return parsed[starts[-1]:]


def exec_form(arguments: str) -> list[str]:
    return list(json.loads(arguments)) if arguments.startswith("[") else shlex.split(arguments)


def problems(text: str) -> list[str]:
    """Every rule the Dockerfile breaks, in words (empty when it is fine)."""
    parsed = instructions(text)
    found: list[str] = []
    stages = {args.split()[-1].lower() for keyword, args in parsed if keyword == "FROM" and " AS " in args.upper()}
    for keyword, args in parsed:
        if keyword == "FROM":
            image = next(word for word in args.split() if not word.startswith("--"))
            if image.lower() in stages:
                continue
            tag = image.split("@", 1)[0].rpartition(":")[2] if ":" in image.split("/")[-1] else ""
            if "@sha256:" not in image and (not tag or tag == "latest"):
                found.append(f"base image {image} is not pinned to a tag other than latest")
        if keyword == "ADD" and re.search(r"\b(https?|ftp)://", args):
            found.append(f"ADD fetches a URL ({args}); download in a RUN step with a checksum instead")
    last = final_stage(parsed)
    users = [args for keyword, args in last if keyword == "USER"]
    if not users:
        found.append("the final stage runs as root (no USER)")
    elif users[-1].split(":")[0] in ("root", "0"):
        found.append(f"the final stage's USER is root ({users[-1]})")
    checks = [args for keyword, args in last if keyword == "HEALTHCHECK"]
    if not checks or "/healthz" not in checks[-1]:
        found.append("no HEALTHCHECK polling /healthz in the final stage")
    if not any(keyword == "EXPOSE" for keyword, _ in last):
        found.append("no EXPOSE of the HTTP port")
    return found


def test_the_dockerfile_has_no_problems() -> None:
    assert problems((ROOT / "Dockerfile").read_text(encoding="utf-8")) == []


def test_the_command_is_the_procfiles_web_command() -> None:
    procfile = dict(line.split(":", 1) for line in (ROOT / "Procfile").read_text().splitlines() if line.strip())
    [cmd] = [args for keyword, args in final_stage(instructions((ROOT / "Dockerfile").read_text())) if keyword == "CMD"]
    assert exec_form(cmd) == procfile["web"].split()


def test_the_healthcheck_uses_the_port_the_image_exposes() -> None:
    last = final_stage(instructions((ROOT / "Dockerfile").read_text()))
    [exposed] = [args for keyword, args in last if keyword == "EXPOSE"]
    env = " ".join(args for keyword, args in last if keyword == "ENV")
    assert f"PORT={exposed}" in env.split()
    [check] = [args for keyword, args in last if keyword == "HEALTHCHECK"]
    assert "os.environ.get('PORT', '" + exposed + "')" in check


@pytest.mark.parametrize(
    ("dockerfile", "complaint"),
    [
        ("FROM python\nUSER app\nEXPOSE 1\nHEALTHCHECK CMD x /healthz\n", "not pinned"),
        ("FROM python:latest\nUSER app\nEXPOSE 1\nHEALTHCHECK CMD x /healthz\n", "not pinned"),
        ("FROM python:3.11-slim\nEXPOSE 1\nHEALTHCHECK CMD x /healthz\n", "runs as root"),
        ("FROM python:3.11-slim\nUSER 0:0\nEXPOSE 1\nHEALTHCHECK CMD x /healthz\n", "USER is root"),
        ("FROM python:3.11-slim AS b\nUSER app\nFROM python:3.11-slim\nEXPOSE 1\nHEALTHCHECK CMD x /healthz\n",
         "runs as root"),
        ("FROM python:3.11-slim\nUSER app\nEXPOSE 1\n", "no HEALTHCHECK"),
        ("FROM python:3.11-slim\nUSER app\nEXPOSE 1\nHEALTHCHECK CMD \\\n  x /ready\n", "no HEALTHCHECK"),
        ("FROM python:3.11-slim\nADD https://example.org/x.tgz /x\nUSER app\nEXPOSE 1\nHEALTHCHECK CMD /healthz\n",
         "ADD fetches a URL"),
        ("FROM python:3.11-slim\nUSER app\nHEALTHCHECK CMD x /healthz\n", "no EXPOSE"),
    ],
)
def test_each_rule_catches_its_mistake(dockerfile: str, complaint: str) -> None:
    assert any(complaint in problem for problem in problems(dockerfile))


def test_a_build_stage_name_and_a_digest_count_as_pinned() -> None:
    text = ("FROM python:3.11-slim AS build\nFROM build\nFROM python@sha256:" + "0" * 64 + "\n"
            "USER 10001\nEXPOSE 1\nHEALTHCHECK CMD x /healthz\n")
    assert problems(text) == []
