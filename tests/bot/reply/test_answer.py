"""The answer pipeline over hand-built Questions: defaults stated, numbers finite, picks consistent."""

from __future__ import annotations

import math

import pytest

from bot.errors import BadRequestError
from bot.reply.answer import answer
from bot.reply.overrides import apply_overrides
from bot.understand.question import Question
from knowledge.loader import default_knowledge

KB = default_knowledge()


def _fields(result: object) -> set[str]:
    return {a.field for a in result.assumptions}  # type: ignore[attr-defined]


def test_unstated_slots_become_assumptions() -> None:
    result = answer(Question(text="", intent="recommend", model="chatglm-6b", stated=["model"]), KB)
    assert {"task", "precision", "context", "batch", "engine"} <= _fields(result)
    top = KB.gpus[result.picks[0].gpu]
    # 16-bit release: bf16, or fp16 when the recommended card has none (V100, T4).
    assert result.query.task == "inference"
    assert result.query.precision == ("bf16" if top.bf16_tflops else "fp16")
    assert result.query.context == 2048  # ChatGLM-6B's native window is shorter than the 4,096 default


def test_stated_slots_are_not_assumptions() -> None:
    question = Question(intent="recommend", model="llama-2-13b", task="inference", precision="fp16",
                        context=2048, batch=4, stated=["model", "task", "precision", "context", "batch"])
    result = answer(question, KB)
    assert not {"task", "precision", "context", "batch"} & _fields(result)
    assert result.understood["context"] == 2048


def test_context_beyond_the_native_window_is_flagged() -> None:
    question = Question(intent="recommend", model="llama-2-13b", context=32768, stated=["model", "context"])
    result = answer(question, KB)
    assert any(a.field == "context" and a.reason == "beyond-native-context" for a in result.assumptions)


def test_pre_ampere_card_defaults_to_fp16() -> None:
    result = answer(Question(intent="check", model="chatglm-6b", gpu="t4", gpu_count=1,
                             stated=["model", "gpu"]), KB)
    assert result.query.precision == "fp16"
    assert any(a.reason == "no-bf16-on-gpu" for a in result.assumptions)


def test_check_answers_and_every_number_is_finite() -> None:
    result = answer(Question(intent="check", model="llama-2-70b", task="inference", precision="fp16",
                             gpu="rtx-4090", gpu_count=1, stated=["model", "task", "precision", "gpu"]), KB)
    assert result.check is not None and not result.check.fits
    assert result.check.suggestions, "a failed check must say what would fit"
    assert result.estimate is not None
    for value in result.estimate.breakdown.model_dump().values():
        assert math.isfinite(value) and value >= 0
    assert result.estimate.total_gb >= result.estimate.per_gpu_gb > 0


def test_picks_never_include_cards_not_recommended() -> None:
    result = answer(Question(intent="recommend", model="qwen2.5-7b", stated=["model"]), KB)
    assert result.picks
    assert all(KB.gpus[p.gpu].recommended for p in result.picks)
    assert "quadro-p2200" not in {p.gpu for p in result.picks}


def test_bare_size_uses_a_generic_model_and_says_so() -> None:
    result = answer(Question(intent="recommend", params_b=13, stated=["params_b"]), KB)
    assert result.estimate is not None
    assert any(a.reason == "generic-model" for a in result.assumptions)
    assert 24 < result.estimate.breakdown.weights < 26  # 13e9 × 2 bytes = 24.2 GiB


def test_no_model_asks_for_the_missing_facts() -> None:
    result = answer(Question(intent="recommend"), KB)
    assert result.estimate is None
    assert result.missing[:2] == ["model", "task"]


def test_overrides_win_and_count_as_stated() -> None:
    question = Question(intent="recommend", model="qwen-7b", stated=["model"])
    updated = apply_overrides(question, {"task": "lora", "context": 2048, "gpu": "A10", "quant": "awq"}, KB)
    assert updated.task == "lora" and updated.context == 2048 and updated.gpu == "a10"
    assert updated.precision == "int4"  # AWQ implies 4-bit
    assert {"task", "context", "gpu", "quant"} <= set(updated.stated)


@pytest.mark.parametrize("overrides", [{"context": -5}, {"task": "dance"}, {"model": "zzzzqqq-999b"},
                                       {"gpus": 10**9}, {"bogus": 1}])
def test_bad_overrides_are_refused_with_a_reason(overrides: dict[str, object]) -> None:
    with pytest.raises(BadRequestError):
        apply_overrides(Question(), overrides, KB)


def test_training_after_a_quantised_question_trains_in_16bit() -> None:
    question = Question(intent="recommend", model="llama-2-13b", task="train", precision="int4",
                        stated=["model", "task", "precision"])
    result = answer(question, KB)
    assert result.query.precision in ("bf16", "fp16")
    assert any(a.reason == "train-needs-16bit" for a in result.assumptions)


@pytest.mark.parametrize("task", ["train", "lora"])
def test_an_mxfp4_release_is_trained_dequantised_to_16bit(task: str) -> None:
    # gpt-oss ships its experts in MXFP4; a full fine-tune crashed sizing its ZeRO-3 gathers in that format.
    question = Question(intent="check", model="gpt-oss-20b", task=task, gpu="h100-sxm", gpu_count=8,
                        stated=["model", "task", "gpu", "gpu_count"])
    result = answer(question, KB)
    assert result.error is None and result.query.precision == "bf16"
    [note] = [a for a in result.assumptions if a.field == "precision"]
    assert note.reason == "mxfp4-dequantised"
    assert result.estimate is not None and result.estimate.per_gpu_gb > 0


def test_a_card_not_for_ml_gets_the_correction_and_no_more_of_itself() -> None:
    question = Question(intent="check", model="llama-7b", gpu="quadro-p2200", gpu_count=1,
                        stated=["model", "gpu"])
    result = answer(question, KB)
    assert result.check is not None and not result.check.fits
    assert all(s.gpu != "quadro-p2200" for s in result.check.suggestions)
    assert result.faq and "p2200" in result.faq[0]


def test_memory_without_a_card_is_checked_against_a_generic_card() -> None:
    result = answer(Question(intent="recommend", model="llama-2-13b", memory_gb=24,
                             stated=["model", "memory_gb"]), KB)
    assert result.intent == "check" and result.check is not None
    assert not result.check.fits and result.check.gpu_memory_gb == 24
    assert result.query.precision == "bf16"
    assert any(s.kind == "quantise" for s in result.check.suggestions)


def test_capacity_of_a_card_grows_with_quantisation() -> None:
    result = answer(Question(intent="gpu_info", gpu="rtx-4090", asks_capacity=True, stated=["gpu"]), KB)
    sizes = {(c.task, c.precision): c.max_params_b for c in result.capacity}
    # 24 GB: 16-bit weights of a 7-9B model (~14-18 GB) fit, 13B (~24 GB) does not; 4-bit takes ~30B.
    assert sizes[("inference", "bf16")] in (7.0, 8.0, 9.0)
    assert sizes[("inference", "int4")] >= 20.0
    assert sizes[("inference", "int4")] > sizes[("inference", "int8")] > sizes[("inference", "bf16")]
    assert all(c.examples for c in result.capacity if c.max_params_b)


def test_models_compared_side_by_side() -> None:
    result = answer(Question(intent="compare", model="qwen2.5-7b", compare_models=["qwen2.5-7b", "llama-3-8b"],
                             stated=["model"]), KB)
    assert [row.model for row in result.model_compare] == ["qwen2.5-7b", "llama-3-8b"]
    assert all(row.total_gb > 14 for row in result.model_compare)


@pytest.mark.parametrize(("engine", "task"), [("unsloth", "qlora"), ("llama-factory", "lora")])
def test_a_plain_fine_tune_on_an_adapter_first_engine_is_its_own_default_method(engine: str, task: str) -> None:
    question = Question(intent="recommend", model="llama-3-8b", task="train", engine=engine,  # type: ignore[arg-type]
                        generic_fine_tune=True, stated=["model", "task", "engine"])
    result = answer(question, KB)
    assert result.query.task == task
    assert any(a.field == "task" and a.value == task and a.reason == "engine-default" for a in result.assumptions)
    assert "task" not in result.understood  # read back as an assumption, not as "full training"


def test_full_training_named_or_a_full_training_engine_keeps_every_parameter() -> None:
    stated = Question(intent="recommend", model="llama-3-8b", task="train", engine="unsloth",
                      stated=["model", "task", "engine"])
    assert answer(stated, KB).query.task == "train"
    plain = Question(intent="recommend", model="llama-3-8b", task="train", engine="deepspeed",
                     generic_fine_tune=True, stated=["model", "task", "engine"])
    assert answer(plain, KB).query.task == "train"


def test_max_context_is_the_longest_that_still_fits_the_card() -> None:
    from dataclasses import replace

    from bot.reply.defaults import workload_for
    from bot.reply.request import answer_request
    from rules.limits import CONTEXT_STEP, fits_on

    result = answer_request({"text": "what is the max context for llama 3.1 8b on one RTX 4090"}, KB)
    found = result.max_context
    assert found is not None and found.gpu == "rtx-4090" and found.count == 1 and found.window == 131_072
    assert found.tokens is not None and 0 < found.tokens < found.window
    # Llama 3.1 8B: 32 layers × 2 × 8 KV heads × 128 × 2 B = 128 KiB per token.
    assert found.kv_kib_per_token == 128.0
    question = Question(intent="check", model="llama-3.1-8b", gpu="rtx-4090", gpu_count=1,
                        stated=["model", "gpu", "gpu_count"])
    workload, _ = workload_for(question, KB.models["llama-3.1-8b"], KB.gpus["rtx-4090"])
    gpu = KB.gpus["rtx-4090"]
    assert fits_on(replace(workload, context=found.tokens), gpu, 1)[0]
    assert not fits_on(replace(workload, context=found.tokens + CONTEXT_STEP), gpu, 1)[0]


def test_max_context_stops_at_the_model_window() -> None:
    from bot.reply.request import answer_request

    text = "longest context for qwen2.5-7b on an L4 with vllm and fp8 kv cache"
    found = answer_request({"text": text}, KB).max_context
    assert found is not None and found.tokens == found.window == 32_768
    # 28 layers × 2 × 4 KV heads × 128 × 1 B (fp8) = 28 KiB per token.
    assert found.kv_kib_per_token == 28.0


def test_samples_beside_a_serving_question_are_not_read_back_as_a_training_job() -> None:
    from bot.reply.request import answer_request

    result = answer_request({"text": "serve llama 3 8b to 10k samples per day"}, KB)
    assert result.query.task == "inference" and result.query.tokens is None
    assert "training_samples" not in result.understood


def test_a_stated_reply_length_sizes_the_serving_plan_by_littles_law() -> None:
    from bot.reply.request import answer_request

    plan = answer_request({"text": "serve Llama 3.1 8B at 50 QPS with 200 tokens per request"}, KB).serving
    assert plan is not None and plan.met
    # Users held at once = QPS × (first token + 200 tokens at the per-user speed), not × half the context. The
    # plan times a request at a full replica's speed, a little slower than the load it ends up with (shown).
    request_s = plan.ttft_s + 200 / plan.decode_tokens_per_s
    assert 50 * request_s <= plan.concurrent_needed <= 1.15 * 50 * request_s
    by_memory = -(-plan.concurrent_needed // plan.sequences_per_replica)
    # as many replicas as hold the users, or more where prefilling 50 prompts a second takes more compute
    assert plan.replicas == by_memory or (plan.binding == "compute" and plan.replicas > by_memory)


def test_a_bigger_card_is_offered_only_at_a_count_that_can_be_had() -> None:
    from bot.reply.request import answer_request
    from rules.fit import placeable

    # 249 GiB a card: one B300 (288 GB) would hold it, but B300s come eight to an HGX board and no price row
    # rents one alone, so "a bigger card: 1× B300" is no advice (and the picks, which check, never list it).
    kb = default_knowledge()
    answer = answer_request({"text": "SDXL with batch 64 at 1024x1024 on an A100 40GB"}, kb)
    assert answer.check is not None and not answer.check.fits
    for s in answer.check.suggestions:
        if s.kind == "bigger-gpu" and s.gpu:
            assert placeable(kb.gpus[s.gpu], s.count or 1, lambda g, n: 1.0 if any(
                p.gpu == g.id and p.count == n for p in kb.prices.values()) else None), s


def test_more_of_the_named_card_leads_only_when_it_holds_the_job_in_one_machine_with_room() -> None:
    from bot.reply.request import answer_request

    lora = answer_request({"text": "Fine-tune Gemma-2-9B with LoRA on a T4 16GB?"}, KB)
    # 32 T4s over 4 machines with 0.3 GiB free is listed, after a card that holds the job alone
    assert lora.picks[0].gpu != "t4" and any(p.gpu == "t4" and p.count == 32 for p in lora.picks)
    h20 = answer_request({"text": "is a single H20 enough for DeepSeek-V3"}, KB)
    assert (h20.picks[0].gpu, h20.picks[0].count) == ("h20", 8)  # one machine with room: the card asked leads


def test_a_modified_card_is_sized_at_the_memory_stated_and_timed_as_the_stock_card() -> None:
    from bot.reply.render import render_text
    from bot.reply.request import answer_request

    result = answer_request({"text": "two RTX 2080 Ti 22GB for Yi-34B-Chat AWQ"}, KB)
    assert result.check is not None and result.check.fits and result.check.limit_gb > 20  # not the 11 GB card's
    assert result.speed.get("decode_tokens_per_s")  # the 2080 Ti's bandwidth, not a generic card's nothing
    assert "A GeForce RTX 2080 Ti with 22 GB (the stock card has 11 GB)" in render_text(result, KB)
