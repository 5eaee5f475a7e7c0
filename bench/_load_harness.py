"""What bench/load.py drives: a throw-away redis-server, the `serve` subprocess, keep-alive senders."""

from __future__ import annotations

import http.client
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

from tests.bot.slack.fake_slack import FakeSlack

ROOT = Path(__file__).resolve().parents[1]
SECRET = "bench-signing-secret-0123456789abcdef"
TOKEN = "xoxb-0000000000-0000000000-benchTOKENbenchTOKEN"


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * (len(ordered) - 1))))]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_port(port: int, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise SystemExit(f"nothing listens on 127.0.0.1:{port}")


class Redis:
    """A throw-away redis-server on loopback (no persistence), which scenarios kill, restart and freeze."""

    def __init__(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            raise RuntimeError("redis-server not installed")
        self.binary = binary
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen[bytes] | None = None
        self.start()

    def start(self) -> None:
        self.process = subprocess.Popen([self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                                         "--appendonly", "no"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_port(self.port)

    def kill(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None

    def freeze(self, frozen: bool) -> None:
        if self.process is not None:
            self.process.send_signal(signal.SIGSTOP if frozen else signal.SIGCONT)


class Server:
    def __init__(self, fake: FakeSlack, log_path: Path, **env: str) -> None:
        self.port = free_port()
        base = {k: v for k, v in os.environ.items() if not k.startswith(("SLACK_", "REDIS_URL", "GUNICORN"))}
        base.update({"SLACK_BOT_TOKEN": TOKEN, "SLACK_SIGNING_SECRET": SECRET, "SLACK_API_URL": fake.api_url,
                     "PORT": str(self.port), "HOST": "127.0.0.1", "PYTHONPATH": str(ROOT),
                     "LOG_LEVEL": os.environ.get("BENCH_LOG_LEVEL", "WARNING"),
                     **env})
        self.log = open(log_path, "wb")  # noqa: SIM115 - closed in stop()
        self.process = subprocess.Popen([sys.executable, "-m", "bot", "serve"], cwd=ROOT, env=base,
                                        stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise SystemExit(f"serve exited with {self.process.returncode}; see {log_path}")
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/healthz", timeout=0.5) as response:
                    if response.status == 200:
                        return
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise SystemExit(f"serve did not become healthy; see {log_path}")

    def workers(self) -> list[int]:
        path = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
        return [int(pid) for pid in path.read_text().split()] if path.exists() else []

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.log.close()


class SlowClients:
    """`count` connections that send a request one byte every `interval_s`: the headers ("headers"), or whole
    headers then the body ("body"). Each comes back when the server drops it, as an attacker would."""

    def __init__(self, port: int, part: str, count: int = 40, interval_s: float = 0.5) -> None:
        request_line = b"POST /slack/events HTTP/1.1\r\nHost: x\r\n"
        if part == "headers":
            self.head, self.trickled = b"", request_line + b"Content-Length: 10\r\nX-Pad: " + b"a" * 200
        else:
            self.head = request_line + b"Content-Type: application/json\r\nContent-Length: 400\r\n\r\n"
            self.trickled = b"{" + b" " * 398 + b"}"
        self.port = port
        self.interval_s = interval_s
        self.stopping = threading.Event()
        self.sockets: list[socket.socket] = []
        self.threads = [threading.Thread(target=self._trickle, daemon=True) for _ in range(count)]
        for thread in self.threads:
            thread.start()

    def _trickle(self) -> None:
        while not self.stopping.is_set():
            try:
                s = socket.create_connection(("127.0.0.1", self.port), timeout=5)
            except OSError:
                self.stopping.wait(self.interval_s)
                continue
            self.sockets.append(s)
            try:
                s.sendall(self.head)
                for byte in self.trickled:
                    if self.stopping.wait(self.interval_s):
                        return
                    s.send(bytes([byte]))
            except OSError:
                pass  # dropped by the server: come back
            finally:
                s.close()

    def stop(self) -> None:
        self.stopping.set()
        for s in self.sockets:
            s.close()


class Proxy:
    """nginx with the shipped deploy/nginx.conf, pointed at a local `serve`: the production arrangement the
    README asks for (a buffering proxy in front of gunicorn). Only the addresses and file paths are changed."""

    def __init__(self, upstream_port: int, work_dir: Path) -> None:
        binary = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
        if binary is None:
            raise RuntimeError("nginx not installed")
        self.port = free_port()
        work_dir.mkdir(parents=True, exist_ok=True)
        work_dir.chmod(0o777)  # nginx's workers run as nobody when started by root
        conf = (ROOT / "deploy" / "nginx.conf").read_text()
        conf = conf.replace("server web:3000;", f"server 127.0.0.1:{upstream_port};")
        conf = conf.replace("listen 8080;", f"listen 127.0.0.1:{self.port};")
        conf = conf.replace("/tmp/", f"{work_dir}/")
        if f"127.0.0.1:{upstream_port}" not in conf or f"listen 127.0.0.1:{self.port}" not in conf:
            raise RuntimeError("deploy/nginx.conf no longer has the upstream/listen lines this bench rewrites")
        path = work_dir / "nginx.conf"
        path.write_text(conf)
        command = [binary, "-c", str(path), "-p", str(work_dir), "-e", str(work_dir / "error.log"), "-g", "daemon off;"]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_port(self.port)

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


class Client:
    """One keep-alive connection per sender thread, as Slack keeps them."""

    def __init__(self, port: int, timeout: float = 15.0) -> None:
        self.port = port
        self.timeout = timeout
        self.local = threading.local()

    def post(self, body: str, headers: dict[str, str]) -> int:
        for attempt in range(2):
            conn = getattr(self.local, "conn", None)
            if conn is None:
                conn = self.local.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout)
            try:
                conn.request("POST", "/slack/events", body=body, headers=headers)
                response = conn.getresponse()
                response.read()
                return response.status
            except (OSError, http.client.HTTPException):
                conn.close()
                self.local.conn = None
                if attempt:
                    raise
        return 0
