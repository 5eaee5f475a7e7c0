"""Renderers: one Answer, terminal text and Block Kit, asserted as strings (rich-style)."""

from __future__ import annotations

import json

import pytest

from bot.reply.model import Answer, Assumption, Breakdown, CheckOut, EstimateOut, PickOut, Query, SuggestionOut
from bot.reply.render import MAX_BLOCKS, MAX_HEADER_CHARS, MAX_SECTION_CHARS, render_blocks, render_home, render_text
from knowledge.loader import default_knowledge


def _answer(lang: str = "en", **changes: object) -> Answer:
    base = Answer(
        intent="check",
        query=Query(model="llama-3-8b", params_b=8.03, task="lora", precision="bf16", context=4096, batch=1,
                    gpu="a100-40gb", gpu_count=1, lang=lang),  # type: ignore[arg-type]
        estimate=EstimateOut(total_gb=21.3, per_gpu_gb=21.3, breakdown=Breakdown(
            weights=14.96, kv_cache=0.0, activations=4.1, gradients=0.1, optimizer=0.3, overhead=1.84)),
        picks=[PickOut(gpu="a100-40gb", count=1, fits=True, memory_per_gpu_gb=21.3, headroom_gb=13.6, free_gb=17.2,
                       decode_tokens_per_s=None, instance="ecs.gn7-c12g1.3xlarge")],
        check=CheckOut(gpu="a100-40gb", count=1, fits=True, headroom_gb=18.2, free_gb=18.2,
                       memory_per_gpu_gb=21.3, gpu_memory_gb=40, limit_gb=39.5),
        assumptions=[Assumption(field="precision", value="bf16"), Assumption(field="context", value=4096)],
        understood={"model": "llama-3-8b", "task": "lora", "gpu": "a100-40gb", "gpu_count": 1},
    )
    return base.model_copy(update=changes)


def test_text_reply_states_verdict_breakdown_pick_and_assumptions() -> None:
    text = render_text(_answer())
    assert ("Yes: it needs 21.3 GiB per card and 1× A100 40GB can give it 39.5 GiB each "
            "(40.0 GB card less the CUDA context): 18.2 GiB to spare.") in text
    assert "Weights: 15.0 GiB" in text
    assert "1× A100 40GB (40.0 GB) — 21.3 GiB used, 17.2 GiB free" in text
    assert "ecs.gn7-c12g1.3xlarge" in text
    assert "Assumed: precision bf16 (not stated); context 4,096 (not stated)" in text
    assert "No public list price known for A100 40GB" in text  # said once, not per line


def test_failed_check_lists_what_would_fit() -> None:
    answer = _answer(check=CheckOut(gpu="rtx-3090", count=1, fits=False, headroom_gb=-4.5, memory_per_gpu_gb=28.0,
                                    gpu_memory_gb=24, limit_gb=23.5, suggestions=[
                                        SuggestionOut(kind="quantise", precision="int4", quant="gptq",
                                                      memory_per_gpu_gb=9.5),
                                        SuggestionOut(kind="more-gpus", gpu="rtx-3090", count=2,
                                                      memory_per_gpu_gb=15.0)]))
    text = render_text(answer)
    assert ("No: it needs 28.0 GiB per card and 1× GeForce RTX 3090 can give it 23.5 GiB each "
            "(24.0 GB card less the CUDA context).") in text
    assert "quantise to INT4 (gptq) — needs 9.5 GiB per card" in text
    assert "2× GeForce RTX 3090" in text


def test_tight_verdict_names_the_limit_and_what_to_change() -> None:
    answer = _answer(check=CheckOut(gpu="rtx-4090", count=1, fits=True, headroom_gb=0.3, memory_per_gpu_gb=23.2,
                                    gpu_memory_gb=24, limit_gb=23.5, tight=True, suggestions=[
                                        SuggestionOut(kind="shorter-context", context=1024, memory_per_gpu_gb=20.0)]))
    text = render_text(answer)
    assert "Tight: it needs 23.2 GiB per card against the 23.5 GiB 1× GeForce RTX 4090 can give it" in text
    assert "context 1,024 tokens — needs 20.0 GiB per card" in text or "context 1024 tokens" in text
    assert "No:" not in text


def test_vllm_verdict_names_its_reservation() -> None:
    answer = _answer(check=CheckOut(gpu="l40s", count=1, fits=False, headroom_gb=-2.0, memory_per_gpu_gb=44.0,
                                    gpu_memory_gb=48, limit_gb=42.0, limit_basis="reservation",
                                    reserve_fraction=0.9))
    answer.query.engine = "vllm"
    assert "can give it 42.0 GiB each (vLLM reserves 90% of the card)" in render_text(answer)


@pytest.mark.parametrize(("task", "engine", "check"), [
    ("lora", "unsloth", "`torch.cuda.max_memory_reserved()` after the first steps"),
    ("inference", "vllm", "vLLM logs the weights, activations and KV-cache size at start-up"),
    ("inference", "llama.cpp", "llama.cpp (and Ollama's server log) prints the model, KV-cache and compute buffer"),
    ("inference", "transformers", "Check on the card with `nvidia-smi` or `torch.cuda.max_memory_reserved()`."),
])
def test_footer_says_where_this_engine_reports_its_memory(task: str, engine: str, check: str) -> None:
    answer = _answer()
    answer.query.task, answer.query.engine = task, engine  # type: ignore[assignment]
    text = render_text(answer)
    assert check in text
    assert ("vLLM" in text.splitlines()[-1]) == (engine == "vllm")  # no vLLM advice under a training job


def test_one_concurrent_sequence_is_said_in_the_singular() -> None:
    answer = _answer()
    answer.picks[0].max_concurrent_sequences = 1
    assert "room for 1 sequence at a time" in render_text(answer)
    answer.picks[0].max_concurrent_sequences = 12
    assert "12 concurrent sequences fit" in render_text(answer)


def test_simplified_and_traditional_chinese() -> None:
    simplified = render_text(_answer("zh-Hans"))
    traditional = render_text(_answer("zh-Hant"))
    assert "显存需求" in simplified and "默认假设" in simplified
    assert "顯存需求" in traditional and "預設假設" in traditional
    assert "显存" not in traditional
    assert "爲" not in traditional and "峯" not in traditional  # Taiwan-standard characters (s2tw), not variants


def test_a_traditional_reply_cites_a_simplified_document_by_its_own_title() -> None:
    from bot.reply.answer import answer as answer_question
    from bot.understand.parse import parse

    kb = default_knowledge()
    reply = render_text(answer_question(parse("阿里雲做大模型怎麼選GPU？", kb), kb), kb)
    assert "阿里云做大模型怎么选GPU？" in reply and "阿里雲做大模型怎麼選GPU？" not in reply.splitlines()[-1]
    assert "出自" in reply and "我的理解: 阿里雲" in reply  # the reply itself is Traditional


def test_blocks_escape_user_text_and_respect_limits() -> None:
    hostile = "<!channel> & <https://evil.example|click>"
    answer = _answer(intent="recommend", check=None, estimate=None, picks=[], suggestions=["llama-2-13b"],
                     understood={"model_text": hostile})
    blocks, fallback = render_blocks(answer, thread_key="C1:1.0")
    dumped = json.dumps(blocks)
    assert "<!channel>" not in dumped and "<https://evil" not in dumped
    assert "&lt;!channel&gt; &amp;" in dumped
    assert "<!channel>" not in fallback
    assert len(blocks) <= MAX_BLOCKS
    for block in blocks:
        if block["type"] == "header":
            assert len(block["text"]["text"]) <= MAX_HEADER_CHARS
        if block["type"] == "section":
            assert len(block["text"]["text"]) <= MAX_SECTION_CHARS


def test_blocks_have_header_fields_actions_and_context() -> None:
    blocks, fallback = render_blocks(_answer(), thread_key="C1:1.0", ephemeral=True)
    kinds = [block["type"] for block in blocks]
    assert kinds[0] == "header" and "actions" in kinds and "context" in kinds
    estimate = next(b for b in blocks if b.get("fields"))
    assert any("15.0 GiB" in field["text"] for field in estimate["fields"])
    actions = next(b for b in blocks if b["type"] == "actions")["elements"]
    ids = [a["action_id"] for a in actions]
    assert "gpu_advisor.post" in ids and "gpu_advisor.int4" in ids
    value = json.loads(actions[0]["value"])
    assert value["thread"] == "C1:1.0" and "overrides" in value
    assert fallback.startswith("== ")


@pytest.mark.parametrize("lang", ["en", "zh-Hans", "zh-Hant"])
def test_help_reply(lang: str) -> None:
    text = render_text(Answer(intent="help", query=Query(lang=lang)))  # type: ignore[arg-type]
    assert ("GPU Advisor" in text) or ("GPU 选型助手" in text) or ("GPU 選型助手" in text)


def test_home_tab_lists_knowledge_and_recent_questions() -> None:
    view = render_home(["what GPU for <!here> llama"], default_knowledge())
    dumped = json.dumps(view)
    assert view["type"] == "home"
    assert "&lt;!here&gt;" in dumped and "<!here>" not in dumped
    assert "GPUs" in dumped and "models" in dumped


def test_missing_facts_offer_the_common_choices_as_buttons() -> None:
    answer = Answer(intent="recommend", query=Query(), missing=["model", "task", "budget"])
    blocks, _ = render_blocks(answer, thread_key="C1:2.0")
    text = render_text(answer)
    assert "To size this precisely, tell me: the model (or its size, e.g. 13B) · training or inference" in text
    actions = next(b for b in blocks if b["type"] == "actions")["elements"]
    overrides = [json.loads(a["value"])["overrides"] for a in actions]
    assert {"params_b": 13.0} in overrides and {"task": "inference"} in overrides


@pytest.mark.parametrize(("lang", "asks"), [("en", "Did you mean Llama 3.1 405B?"),
                                            ("zh-Hans", "你是不是指 Llama 3.1 405B？")])
def test_a_generic_size_for_an_unknown_name_offers_the_model_it_resembles(lang: str, asks: str) -> None:
    answer = _answer(lang, query=Query(model=None, params_b=405.0, task="inference", precision="bf16", context=4096,
                                       batch=1, lang=lang),  # type: ignore[arg-type]
                     understood={"params_b": 405.0, "task": "inference", "model_text": "llama 3 405b"},
                     suggestions=["llama-3.1-405b"], check=None)
    text = render_text(answer, default_knowledge())
    assert "llama 3 405b" in text and asks in text


@pytest.mark.parametrize(("lang", "line"), [
    ("en", "Longest context that fits 1× GeForce RTX 4090: ≈ 33,792 tokens at batch 1 "
           "(the model's window is 131,072)."),
    ("zh-Hans", "1× GeForce RTX 4090 上能放下的最长上下文：约 33,792 token（批量 1；模型原生窗口 131,072）。"),
])
def test_the_longest_context_line(lang: str, line: str) -> None:
    from bot.reply.model import MaxContextOut

    answer = _answer(lang, max_context=MaxContextOut(gpu="rtx-4090", count=1, tokens=33_792, window=131_072,
                                                     kv_kib_per_token=128.0))
    text = render_text(answer, default_knowledge())
    assert line in text and "128 KiB" in text
    blocks = json.dumps(render_blocks(answer), ensure_ascii=False)
    assert "33,792" in blocks


def test_a_training_speed_line_gives_the_tokens_a_day() -> None:
    from bot.reply.render import render_text
    from bot.reply.request import answer_request
    from knowledge.loader import default_knowledge

    kb = default_knowledge()
    result = answer_request({"text": "continued pretraining of Llama 3 8B on 4x H100 at 8k"}, kb)
    per_day = result.speed["train_tokens_per_s"] * 86400
    line = next(x for x in render_text(result, kb).splitlines() if x.startswith("Speed"))
    assert f"≈ {per_day / 1e9:.3g}B tokens a day" in line


def test_a_set_of_different_cards_names_the_card_its_per_card_figures_are_for() -> None:
    from bot.reply.answer import answer as answer_question
    from bot.understand.parse import parse

    kb = default_knowledge()
    text = render_text(answer_question(parse("Llama-3-70B AWQ on an H100 and an A100 40GB together?", kb), kb), kb)
    assert "on the fullest card (H100 SXM5 80GB)" in text and "On H100 SXM5 80GB:" in text
    assert "GiB per GPU (over 2 GPUs)" not in text and "Per GPU:" not in text
    same = render_text(answer_question(parse("Llama-3-70B AWQ on 2x A100 40GB", kb), kb), kb)
    assert "GiB per GPU (over 2 GPUs)" in same and "fullest" not in same
