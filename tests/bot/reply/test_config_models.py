"""Models the knowledge base lacks: an `org/name` in a message, or a pasted config.json, sized through the
same pipeline. The fetcher is injected (a dict lookup here; the Hub itself is tested in tests/knowledge).
Qwen2.5-7B's config has 7.61B parameters (model card)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot.reply.render import render_text
from bot.service import Advisor
from knowledge.hub import HubError
from tests.knowledge import hf_configs as hf

REPO = "acme/Qwen2.5-7B-ft"


class Fetcher:
    def __init__(self, configs: dict[str, dict[str, Any]]) -> None:
        self.configs = configs
        self.calls: list[str] = []

    def __call__(self, repo_id: str) -> dict[str, Any]:
        self.calls.append(repo_id)
        if repo_id not in self.configs:
            raise HubError(f"could not reach the Hugging Face Hub to fetch {repo_id}/config.json")
        return self.configs[repo_id]


@pytest.fixture
def user_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("GPU_ADVISOR_KB", str(tmp_path))
    return tmp_path


def test_hub_id_in_a_message_is_fetched_sized_and_cached(user_dir: Path) -> None:
    fetch = Fetcher({REPO: hf.QWEN2_5_7B})
    advisor = Advisor(fetch_config=fetch)
    reply = advisor.respond(f"what GPU to serve {REPO}?", "C1:1")
    assert reply.answer.error is None and reply.answer.estimate is not None
    assert reply.answer.query.model == "acme--qwen2.5-7b-ft"
    assert reply.answer.query.params_b == pytest.approx(7.61, rel=0.02)
    assert "models.yaml" in {p.name for p in user_dir.iterdir()}
    # The follow-up in the thread and a later question about the same id use the cache, not the network.
    follow = advisor.respond("what about int4?", "C1:1")
    assert follow.answer.query.model == "acme--qwen2.5-7b-ft" and follow.answer.query.precision == "int4"
    again = Advisor(fetch_config=fetch).respond(f"can I LoRA {REPO}?", "C2:1")
    assert again.answer.query.model == "acme--qwen2.5-7b-ft"
    assert fetch.calls == [REPO]


def test_without_network_the_reply_says_why(user_dir: Path) -> None:
    reply = Advisor(fetch_config=Fetcher({})).respond("what GPU to serve acme/zeta-lm?", "C1:1")
    assert reply.answer.error == "config-unavailable"
    text = render_text(reply.answer)
    assert "I could not size acme/zeta-lm" in text and "could not reach the Hugging Face Hub" in text


def test_without_network_a_similar_known_model_still_answers(user_dir: Path) -> None:
    reply = Advisor(fetch_config=Fetcher({})).respond(f"what GPU to serve {REPO}?", "C1:1")
    assert reply.answer.error is None and reply.answer.query.model == "qwen2.5-7b"


def test_known_models_and_gpu_pairs_never_reach_the_network(user_dir: Path) -> None:
    fetch = Fetcher({})
    advisor = Advisor(fetch_config=fetch)
    advisor.respond("A100/H100 for Qwen-7B inference?", "C1:1")
    advisor.respond("fp16/bf16 Llama-2-7B", "C1:2")
    assert fetch.calls == []


@pytest.mark.parametrize("wrap", [lambda c: f"```json\n{json.dumps(c, indent=2)}\n```",
                                  lambda c: json.dumps(c)])
def test_pasted_config_is_sized_like_a_hub_model(user_dir: Path, wrap: Any) -> None:
    reply = Advisor(fetch_config=None).respond(f"what GPU to serve this model?\n{wrap(hf.QWEN2_5_7B)}", "C1:1")
    answer = reply.answer
    assert answer.estimate is not None and answer.query.model is not None
    assert answer.query.model.startswith("pasted--qwen2forcausallm-")
    assert answer.query.params_b == pytest.approx(7.61, rel=0.02)
    # The config's own numbers (max_position_embeddings 131072 / 32768, hidden_size 3584) are not the question's.
    assert answer.query.context == 4096 and answer.query.batch == 1


def test_pasted_config_that_cannot_be_sized_is_refused(user_dir: Path) -> None:
    broken = {"model_type": "llama", "hidden_size": 4096}
    reply = Advisor(fetch_config=None).respond(f"size this ```{json.dumps(broken)}```", "C1:1")
    assert reply.answer.error == "config-unavailable"
    assert "num_hidden_layers" in render_text(reply.answer) or "layers" in render_text(reply.answer)


def test_ask_takes_a_hub_id_with_an_injected_fetcher(user_dir: Path) -> None:
    from bot.service import ask

    answer = ask({"text": f"{REPO} inference", "context": "8k"}, fetch_config=Fetcher({REPO: hf.QWEN2_5_7B}))
    assert answer.query.model == "acme--qwen2.5-7b-ft" and answer.query.context == 8192


def test_a_pasted_configs_id_is_not_read_back() -> None:
    # audit 30 LOW-136: "I read this as: … pasted--llamaforcausallm-56605090"
    from bot.reply.i18n import Translator
    from bot.reply.readback import value_text
    from knowledge.loader import default_knowledge as _kb

    assert value_text(Translator("en"), "model", "pasted--llamaforcausallm-56605090", _kb()) == "your pasted model"
