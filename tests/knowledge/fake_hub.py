"""A local stand-in for the Hugging Face Hub on loopback (threaded `http.server`, port 0).

It answers what `huggingface_hub` requests (read from its source: `hf_hub_url` builds
`{endpoint}/{repo_id}/resolve/{revision}/{filename}`; `hf_raise_for_status` reads `X-Error-Code`
(RepoNotFound, GatedRepo, EntryNotFound) to pick its exception), for HEAD and GET, plus
`/api/models/{repo_id}` (`HfApi.model_info`). Every request is recorded with its headers.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

COMMIT = "0123456789abcdef0123456789abcdef01234567"


@dataclass
class FakeHub:
    configs: dict[str, dict[str, Any]]
    gated: set[str] = field(default_factory=set)
    requests: list[tuple[str, str, dict[str, str]]] = field(default_factory=list)
    url: str = ""


def _handler(hub: FakeHub) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            pass

        def _reply(self, status: int, body: bytes, headers: dict[str, str], with_body: bool) -> None:
            self.send_response(status)
            for key, value in headers.items():
                self.send_header(key, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if with_body:
                self.wfile.write(body)

        def _serve(self, with_body: bool) -> None:
            hub.requests.append((self.command, self.path, dict(self.headers.items())))
            path = self.path.split("?")[0]
            repo_id, filename = "", ""
            if path.startswith("/api/models/"):
                repo_id = path.removeprefix("/api/models/")
            elif "/resolve/main/" in path:
                repo_id, _, filename = path.lstrip("/").partition("/resolve/main/")
            if repo_id in hub.gated:
                self._reply(401, b"gated", {"X-Error-Code": "GatedRepo", "X-Error-Message": "gated"}, with_body)
            elif repo_id not in hub.configs:
                self._reply(404, b"not found", {"X-Error-Code": "RepoNotFound", "X-Error-Message": "not found"},
                            with_body)
            elif filename and filename != "config.json":
                self._reply(404, b"no entry", {"X-Error-Code": "EntryNotFound"}, with_body)
            elif filename:
                body = json.dumps(hub.configs[repo_id]).encode()
                self._reply(200, body, {"Content-Type": "application/json", "X-Repo-Commit": COMMIT,
                                        "ETag": f'"{COMMIT[:20]}"'}, with_body)
            else:
                body = json.dumps({"id": repo_id, "modelId": repo_id, "sha": COMMIT,
                                   "siblings": [{"rfilename": "config.json"}]}).encode()
                self._reply(200, body, {"Content-Type": "application/json"}, with_body)

        def do_GET(self) -> None:
            self._serve(True)

        def do_HEAD(self) -> None:
            self._serve(False)

    return Handler


@contextmanager
def fake_hub(configs: dict[str, dict[str, Any]], gated: set[str] | None = None) -> Iterator[FakeHub]:
    hub = FakeHub(configs=configs, gated=gated or set())
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(hub))
    hub.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield hub
    finally:
        server.shutdown()
        server.server_close()
