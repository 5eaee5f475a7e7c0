"""Shared fixtures.

`redis_server`: a real, throw-away `redis-server` on a free loopback port (no persistence, files in
tmp_path), stopped after the test. Tests using it skip when the binary is not installed.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _pings(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.2) as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
    except OSError:
        return False


@dataclass
class RedisServer:
    binary: str
    directory: Path
    port: int = field(default_factory=_free_port)
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, timeout_s: float = 5.0) -> None:
        """Start (or restart, on the same port) the server and wait until it answers PING."""
        if self.process is not None and self.process.poll() is None:
            return
        options = {
            "port": str(self.port),
            "bind": "127.0.0.1",
            "save": "",
            "appendonly": "no",
            "dir": str(self.directory),
            "daemonize": "no",
            "loglevel": "warning",
            "logfile": str(self.directory / "redis.log"),
        }
        self.process = subprocess.Popen(
            [self.binary, *(arg for name, value in options.items() for arg in (f"--{name}", value))],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"redis-server exited with {self.process.returncode} on port {self.port}")
            if _pings(self.port):
                return
            time.sleep(0.01)
        self.stop()
        raise RuntimeError(f"redis-server did not answer on port {self.port} within {timeout_s} s")

    def stop(self) -> None:
        """Kill the server (SIGKILL: it goes away as in a crash) and wait for it."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=5)
        self.process = None


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("redis-server not installed: apt-get install redis-server")
    server: RedisServer | None = None
    for _ in range(3):  # the free port may be taken between choosing it and binding it
        server = RedisServer(binary, tmp_path)
        try:
            server.start()
            break
        except RuntimeError:
            server = None
    if server is None:
        pytest.fail("could not start redis-server")
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(autouse=True)
def _no_real_hub(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    """No test reaches huggingface.co or writes ~/.config: the Hub is a closed loopback port (refused at
    once) unless a test points HF_ENDPOINT at its fake Hub, and imports go to a throw-away directory."""
    monkeypatch.setenv("HF_ENDPOINT", "http://127.0.0.1:9")
    monkeypatch.setenv("HF_HUB_DISABLE_TELEMETRY", "1")
    monkeypatch.setenv("GPU_ADVISOR_KB", str(tmp_path_factory.mktemp("user-kb")))
