"""Every Block Kit payload the bot can produce is valid for slack_sdk's block models, and a message that is
updated gets new block_ids.

A broad sample of questions (help, FAQ, errors, GPU info, comparisons, capacity, checks, training, both
Chinese scripts, missing facts) is answered by the real pipeline and rendered with and without table
blocks, as a channel reply and as an ephemeral one; each block must parse to its slack_sdk model
(`Block.parse`), pass `validate_json()`, and survive the round trip unchanged (so no field is silently
unknown to Slack's models). The Home tab is checked as a `View`.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from slack_sdk.models.blocks import Block
from slack_sdk.models.views import View

from bot.reply import render as renderer
from bot.reply.render import render_blocks, render_home
from bot.service import Advisor
from bot.slack.app import build_app
from bot.slack.client import build_web_client
from bot.slack.settings import Settings
from bot.state import MemoryStore
from knowledge.hub import HubError
from knowledge.loader import default_knowledge
from tests.bot.slack import payloads as p
from tests.bot.slack.conftest import BOT_TOKEN, SIGNING_SECRET
from tests.bot.slack.fake_slack import FakeSlack

QUESTIONS = [
    "hi", "help", "what can you do?",
    "fp16 or bf16 for training?", "什么是KV cache",
    "what GPU for FooBarNet-9000?", "what GPU do I need?", "x" * 5000,
    "what GPU to serve acme/zeta-lm?",
    "tell me about the H100", "H100 显卡参数", "what can a 4090 run?", "24GB显存能跑什么模型",
    "H100 vs A100 vs L40S for Qwen-14B inference", "Qwen-7B vs Llama-3-8B inference",
    "can I LoRA Llama-3-8B on one A100 40GB?", "can I run Llama-3-70B on one 4090?",
    "full fine-tune Llama-3-70B with ZeRO-3", "QLoRA Qwen-72B", "Qwen-72B 4bit量化推理，上下文8k，并发10，要多少显存",
    "DeepSeek-V3 推理要幾張H800", "cheapest GPU for ChatGLM-6B inference", "Mixtral 8x7B vLLM 32k context 64 users",
    "SDXL inference", "is 24GB enough for a 13B model?", "asdf qwerty",
]


def _failing_fetch(repo_id: str) -> dict[str, Any]:
    raise HubError(f"could not reach the Hugging Face Hub to fetch {repo_id}/config.json")


def _payloads() -> Iterator[tuple[str, list[dict[str, Any]], str]]:
    advisor = Advisor(fetch_config=_failing_fetch)
    for index, question in enumerate(QUESTIONS):
        reply = advisor.respond(question, f"C0:{index}")
        for tables in (False, True):
            for ephemeral in (False, True):
                blocks, fallback = render_blocks(reply.answer, thread_key=f"C0:{index}", ephemeral=ephemeral,
                                                 table_blocks=tables, show_maths=index % 2 == 0)
                yield f"{question[:40]!r} tables={tables} ephemeral={ephemeral}", blocks, fallback


PAYLOADS = list(_payloads())


def _valid(block: dict[str, Any]) -> None:
    parsed = Block.parse(block)
    assert parsed is not None, f"slack_sdk knows no block of type {block.get('type')!r}"
    parsed.validate_json()
    assert parsed.to_dict() == block, "slack_sdk's model dropped or changed a field"


@pytest.mark.parametrize(("label", "blocks", "fallback"), PAYLOADS, ids=[label for label, _, _ in PAYLOADS])
def test_every_payload_validates(label: str, blocks: list[dict[str, Any]], fallback: str) -> None:
    assert 0 < len(blocks) <= 50 and fallback.strip()
    for block in blocks:
        _valid(block)
    ids = [b["block_id"] for b in blocks]
    assert len(set(ids)) == len(ids), "block_ids must be unique within a message"
    assert sum(b["type"] == "table" for b in blocks) <= 1, "Slack allows one table per message"


def test_the_sample_covers_every_kind_of_block_the_bot_sends() -> None:
    kinds = {block["type"] for _, blocks, _ in PAYLOADS for block in blocks}
    assert kinds == {"header", "section", "context", "actions", "table"}
    assert any(b["type"] == "section" and "fields" in b for _, blocks, _ in PAYLOADS for b in blocks)


def test_tables_only_when_asked() -> None:
    for label, blocks, _ in PAYLOADS:
        if "tables=False" in label:
            assert all(b["type"] != "table" for b in blocks)


def test_table_block_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    answer = Advisor(fetch_config=None).respond("Qwen-7B inference", "C0:x").answer
    monkeypatch.delenv("SLACK_TABLE_BLOCKS", raising=False)
    assert all(b["type"] != "table" for b in render_blocks(answer)[0])
    monkeypatch.setenv("SLACK_TABLE_BLOCKS", "1")
    [table] = [b for b in render_blocks(answer)[0] if b["type"] == "table"]
    header = [cell["text"] for cell in table["rows"][0]]
    assert header[:2] == ["#", "GPU"] and len(table["rows"]) == 1 + len(answer.picks)


def test_home_tab_validates() -> None:
    home = render_home(["what GPU for Qwen-7B?", "<!channel> & <@U123>"], default_knowledge())
    for block in home["blocks"]:
        _valid(block)
    View(**home).validate_json()


def test_rendering_again_gives_new_block_ids() -> None:
    answer = Advisor(fetch_config=None).respond("Qwen-7B inference", "C0:y").answer
    first = {b["block_id"] for b in render_blocks(answer)[0]}
    second = {b["block_id"] for b in render_blocks(answer)[0]}
    assert first.isdisjoint(second)


@pytest.fixture
def fake() -> Iterator[FakeSlack]:
    with FakeSlack(bot_token=BOT_TOKEN) as slack:
        yield slack


def test_chat_update_after_a_button_uses_new_block_ids(fake: FakeSlack) -> None:
    """The real advisor and renderer behind the Bolt app: a click's chat.update shares no block_id with the post."""
    store = MemoryStore()
    settings = Settings.from_env({"SLACK_BOT_TOKEN": BOT_TOKEN, "SLACK_SIGNING_SECRET": SIGNING_SECRET,
                                  "SLACK_API_URL": fake.api_url})
    app = build_app(settings, advisor=Advisor(store=store, fetch_config=None), store=store, renderer=renderer,
                    kb=default_knowledge(), client=build_web_client(settings, backoff_factor=0.05))
    try:
        from slack_bolt import BoltRequest

        def dispatch(payload: dict[str, Any]) -> None:
            body, headers = p.signed(SIGNING_SECRET, payload)
            app.dispatch(BoltRequest(body=body, headers=dict(headers.items())))

        dispatch(p.mention("what GPU for ChatGLM-6B inference", ts="1700000000.000400"))
        [post] = fake.wait_for("chat.postMessage")
        posted = post.args["blocks"]
        posted = json.loads(posted) if isinstance(posted, str) else posted
        buttons = p.buttons_of(posted)
        dispatch(p.block_action(buttons["gpu_advisor.int4"], response_url=fake.response_url("act"),
                                message_ts="1700000000.000500"))
        [update] = fake.wait_for("chat.update")
        updated = update.args["blocks"]
        updated = json.loads(updated) if isinstance(updated, str) else updated
        assert {b["block_id"] for b in posted}.isdisjoint({b["block_id"] for b in updated})
        for block in updated:
            _valid(block)
    finally:
        app.listener_runner.listener_executor.shutdown(wait=True)
