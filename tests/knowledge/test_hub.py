"""Hub models: fetched from a fake Hub on loopback through huggingface_hub, sized by the importer, cached.

Qwen2.5-7B's config (tests/knowledge/hf_configs.py) is served under a repo id the knowledge base does not
hold; its published size is 7.61B parameters (model card).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from knowledge.hub import (
    HubError,
    cached_model,
    fetch_hub_config,
    hub_model_id,
    import_from_hub,
    looks_like_repo_id,
)
from tests.knowledge import hf_configs as hf
from tests.knowledge.fake_hub import fake_hub

ROOT = Path(__file__).resolve().parents[2]
REPO = "acme/Qwen2.5-7B-ft"


def test_fetch_through_huggingface_hub_honours_endpoint_and_token(monkeypatch: pytest.MonkeyPatch) -> None:
    with fake_hub({REPO: hf.QWEN2_5_7B}) as hub:
        monkeypatch.setenv("HF_ENDPOINT", hub.url)
        monkeypatch.setenv("HF_TOKEN", "hf_test_token")
        assert fetch_hub_config(REPO) == hf.QWEN2_5_7B
    method, path, headers = hub.requests[0]
    assert (method, path) == ("GET", f"/{REPO}/resolve/main/config.json")
    assert {k.lower(): v for k, v in headers.items()}["authorization"] == "Bearer hf_test_token"


def test_import_sizes_and_caches(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    with fake_hub({REPO: hf.QWEN2_5_7B}) as hub:
        monkeypatch.setenv("HF_ENDPOINT", hub.url)
        model = import_from_hub(REPO, directory=tmp_path)
    assert model.id == hub_model_id(REPO) == "acme--qwen2.5-7b-ft"
    assert model.params_b == pytest.approx(7.61, rel=0.02)
    assert REPO in model.hf_ids and model.source[0].endswith(f"/{REPO}/blob/main/config.json")
    assert cached_model(model.id, tmp_path) == model


@pytest.mark.parametrize(("repo", "needle"), [("acme/missing-model", "not found"), ("acme/gated-model", "gated")])
def test_hub_refusals_say_why(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, repo: str, needle: str) -> None:
    with fake_hub({REPO: hf.QWEN2_5_7B}, gated={"acme/gated-model"}) as hub:
        monkeypatch.setenv("HF_ENDPOINT", hub.url)
        with pytest.raises(HubError, match=needle):
            import_from_hub(repo, directory=tmp_path)
    assert not (tmp_path / "models.yaml").exists()


def test_no_network_is_refused_clearly(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("HF_ENDPOINT", "http://127.0.0.1:9")  # nothing listens on the discard port
    with pytest.raises(HubError, match=r"could not reach the Hugging Face Hub at http://127\.0\.0\.1:9"):
        import_from_hub(REPO, directory=tmp_path)


@pytest.mark.parametrize(("text", "expected"), [
    ("Qwen/Qwen3-0.6B", True), ("mistralai/Mistral-7B-v0.1", True), ("acme/my_model", True),
    ("A100/H100", False), ("fp16/bf16", False), ("tok/s", False), ("https://x.org/a-b", False),
])
def test_what_counts_as_a_repo_id(text: str, expected: bool) -> None:
    assert looks_like_repo_id(text) is expected


def _cli(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bot", *args], capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, **env}, timeout=120, check=False)


def test_kb_import_hub_id_end_to_end(tmp_path: Path) -> None:
    with fake_hub({REPO: hf.QWEN2_5_7B}) as hub:
        done = _cli(["kb", "import", REPO], {"HF_ENDPOINT": hub.url, "GPU_ADVISOR_KB": str(tmp_path)})
    assert done.returncode == 0, done.stderr
    assert "imported acme--qwen2.5-7b-ft (7.6" in done.stdout
    listed = _cli(["kb", "models"], {"GPU_ADVISOR_KB": str(tmp_path)})
    assert "acme--qwen2.5-7b-ft" in listed.stdout


def test_kb_import_without_network_exits_2_with_one_line(tmp_path: Path) -> None:
    done = _cli(["kb", "import", REPO], {"HF_ENDPOINT": "http://127.0.0.1:9", "GPU_ADVISOR_KB": str(tmp_path)})
    assert done.returncode == 2
    assert "could not reach the Hugging Face Hub" in done.stderr and "Traceback" not in done.stderr


def test_without_the_hub_extra_the_refusal_names_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "huggingface_hub", None)  # as if `pip install 'gpu-advisor[hub]'` was not run
    with pytest.raises(HubError, match=r"pip install 'gpu-advisor\[hub\]'"):
        fetch_hub_config(REPO)
