"""bot.understand.followup.follow_up: a follow-up replaces the slots it states and keeps the rest."""

from __future__ import annotations

import pytest

from bot.understand.followup import follow_up, is_follow_up
from bot.understand.parse import parse
from bot.understand.question import Question
from knowledge.base import KnowledgeBase
from knowledge.loader import load_knowledge


@pytest.fixture(scope="module")
def kb() -> KnowledgeBase:
    return load_knowledge()


def thread(kb: KnowledgeBase, *texts: str):  # type: ignore[no-untyped-def]
    previous = None
    for text in texts:
        previous = follow_up(previous, parse(text, kb))
    assert previous is not None
    return previous


def test_no_previous_question(kb: KnowledgeBase) -> None:
    current = parse("what about int4?", kb)
    assert follow_up(None, current) is current


@pytest.mark.parametrize(("text", "slot", "value"), [
    ("what about int4?", "precision", "int4"),
    ("and for training?", "task", "train"),
    ("用两张卡呢", "gpu_count", 2),
    ("on an L40S?", "gpu", "l40s"),
    ("换成4090呢", "gpu", "rtx-4090"),
    ("32k context?", "context", 32768),
    ("with vllm?", "engine", "vllm"),
    ("并发20呢", "batch", 20),
    ("LoRA呢", "task", "lora"),
    ("那Qwen-14B呢", "model", "qwen-14b"),
    ("what about a 70B model?", "params_b", 70),
    ("what about four of them?", "gpu_count", 4),
    ("what about 4x?", "gpu_count", 4),
    ("用四张呢", "gpu_count", 4),
    ("換成4張呢", "gpu_count", 4),
])
def test_follow_up_replaces_the_stated_slot(text: str, slot: str, value: object, kb: KnowledgeBase) -> None:
    previous = parse("两张3090能跑Baichuan2-13B吗，INT8量化，上下文4k", kb)
    current = parse(text, kb)
    merged = follow_up(previous, current)
    assert getattr(merged, slot) == value
    assert slot in merged.stated
    for kept in ("model", "task", "precision", "gpu", "gpu_count", "context"):
        if kept not in current.stated and not (slot == "params_b" and kept == "model"):
            assert getattr(merged, kept) == getattr(previous, kept), kept
    assert merged.intent == "check"


def test_changing_the_model_clears_the_bare_size(kb: KnowledgeBase) -> None:
    merged = thread(kb, "what GPU for a 13B model", "what about qwen-14b?")
    assert merged.model == "qwen-14b" and merged.params_b is None
    merged = thread(kb, "what GPU for qwen-14b", "what about a 70B model?")
    assert merged.model is None and merged.params_b == 70 and "model" not in merged.stated


def test_changing_precision_clears_the_format(kb: KnowledgeBase) -> None:
    merged = thread(kb, "serve qwen2.5-7b AWQ", "what about int8?")
    assert (merged.precision, merged.quant) == ("int8", None)


def test_intent_kept_unless_stated(kb: KnowledgeBase) -> None:
    assert thread(kb, "A10 vs A100 for stable diffusion", "and for training?").intent == "compare"
    assert thread(kb, "what GPU for llama-2-13b", "what about int4?").intent == "recommend"
    # naming a card after "which GPU?" asks whether that card will do
    assert thread(kb, "what GPU for llama-2-13b", "on an L40S?").intent == "check"
    assert thread(kb, "what GPU for llama-2-13b", "换成4090呢").intent == "check"


def test_implied_task_does_not_override(kb: KnowledgeBase) -> None:
    merged = thread(kb, "full fine-tune llama-3-8b on 8 A100 80GB", "32k context?")
    assert merged.task == "train" and merged.context == 32768


def test_compare_follow_up_adds_a_card(kb: KnowledgeBase) -> None:
    merged = thread(kb, "A10 vs A100 for stable diffusion", "what about an L40S?")
    assert merged.intent == "compare"
    assert merged.compare_gpus[-1] == "l40s" and len(merged.compare_gpus) == 3


def test_new_question_is_not_a_follow_up(kb: KnowledgeBase) -> None:
    previous = parse("两张3090能跑Baichuan2-13B吗", kb)
    for text in ("tell me about the H100", "what GPU for qwen2.5-72b inference", "显存不够怎么办", "help",
                 "how big is mixtral 8x7b"):
        current = parse(text, kb)
        assert not is_follow_up(previous, current), text
        assert follow_up(previous, current) is current


def test_after_help_or_faq_nothing_follows(kb: KnowledgeBase) -> None:
    assert follow_up(parse("help", kb), parse("int4?", kb)).model is None
    assert follow_up(parse("显存不够怎么办", kb), parse("what about int4?", kb)).intent != "faq"


def test_language_follows_the_latest_words(kb: KnowledgeBase) -> None:
    previous = parse("两张3090能跑Baichuan2-13B吗", kb)
    assert follow_up(previous, parse("int4?", kb)).lang == "zh-Hans"  # only slot words: keep Chinese
    assert follow_up(previous, parse("what about int4?", kb)).lang == "en"
    assert follow_up(parse("what GPU for qwen-7b", kb), parse("換成4090呢", kb)).lang == "zh-Hant"


def test_gpu_info_follow_up(kb: KnowledgeBase) -> None:
    merged = thread(kb, "tell me about the H100", "and the A100?")
    assert merged.intent == "gpu_info" and merged.gpu in ("a100-40gb", "a100-80gb")


# --- memory, capacity and model comparisons -------------------------------------------------------------

def test_memory_follow_up_changes_the_memory(kb: KnowledgeBase) -> None:
    merged = thread(kb, "is 24GB enough for llama 2 13b", "what about 48GB?")
    assert (merged.intent, merged.model, merged.memory_gb) == ("check", "llama-2-13b", 48)
    merged = thread(kb, "16G显存能跑ChatGLM3-6B吗", "24G呢")
    assert (merged.intent, merged.model, merged.memory_gb) == ("check", "chatglm3-6b", 24)


def test_card_and_memory_replace_each_other(kb: KnowledgeBase) -> None:
    merged = thread(kb, "两张3090能跑Baichuan2-13B吗", "48G呢")
    assert merged.memory_gb == 48 and merged.gpu is None and merged.gpu_count is None
    assert "gpu" not in merged.stated and "gpu_count" not in merged.stated and "memory_gb" in merged.stated
    merged = thread(kb, "is 24GB enough for llama 2 13b", "on a 4090?")
    assert merged.gpu == "rtx-4090" and merged.memory_gb is None and "memory_gb" not in merged.stated
    # after "which GPU?", a memory size asks whether that much will do, like a card
    assert thread(kb, "what GPU for qwen-14b", "with 24GB?").intent == "check"


def test_capacity_follow_up_keeps_asking_the_capacity(kb: KnowledgeBase) -> None:
    merged = thread(kb, "what can a 3090 run?", "on a 4090?")
    assert (merged.intent, merged.asks_capacity, merged.gpu, merged.model) == ("gpu_info", True, "rtx-4090", None)
    merged = thread(kb, "2x 3090 能跑多大的模型", "换成4090呢")
    assert (merged.asks_capacity, merged.gpu, merged.gpu_count) == (True, "rtx-4090", 2)
    merged = thread(kb, "what can a 3090 run?", "what about 48GB?")
    assert merged.asks_capacity and merged.memory_gb == 48 and merged.gpu is None


def test_naming_a_model_after_a_capacity_question_checks_it(kb: KnowledgeBase) -> None:
    merged = thread(kb, "我有一张3060，能跑什么模型", "那Qwen-7B呢")
    assert (merged.intent, merged.asks_capacity, merged.model, merged.gpu) == (
        "check", False, "qwen-7b", "rtx-3060-12gb")


def test_capacity_phrase_asks_about_the_previous_card(kb: KnowledgeBase) -> None:
    merged = thread(kb, "is a 4090 enough for llama 2 13b", "what can it run then?")
    assert (merged.intent, merged.asks_capacity, merged.gpu, merged.model) == ("gpu_info", True, "rtx-4090", None)
    assert "model" not in merged.stated
    merged = thread(kb, "两张3090能跑Baichuan2-13B吗", "那能微调多大的模型呢")
    assert (merged.asks_capacity, merged.gpu_count, merged.task, merged.model) == (True, 2, "train", None)
    # without a card before, a capacity phrase is not a follow-up of a model question
    previous = parse("what GPU for qwen-14b", kb)
    assert not is_follow_up(previous, parse("what models can I run?", kb))


def test_model_comparison_grows_only_with_an_and_cue(kb: KnowledgeBase) -> None:
    for added in ("and mistral 7b?", "mistral 7b too?", "还有mistral 7b呢", "加上mistral 7b呢"):
        merged = thread(kb, "qwen 14b vs llama 2 13b", added)
        assert merged.intent == "compare", added
        assert merged.compare_models == ["qwen-14b", "llama-2-13b", "mistral-7b"], added
        assert merged.model == "qwen-14b", added
    # without one, the new model replaces the comparison
    merged = thread(kb, "qwen 14b vs llama 2 13b", "what about mistral 7b?")
    assert (merged.intent, merged.model, merged.compare_models) == ("recommend", "mistral-7b", [])
    merged = thread(kb, "compare mistral 7b and gemma 7b on an A10", "那Qwen-7B呢")
    assert (merged.intent, merged.model, merged.compare_models, merged.gpu) == ("check", "qwen-7b", [], "a10")
    # a model already compared is not added twice
    assert thread(kb, "qwen 14b vs llama 2 13b", "and qwen 14b?").compare_models == ["qwen-14b", "llama-2-13b"]


def test_model_comparison_keeps_its_models_when_other_slots_change(kb: KnowledgeBase) -> None:
    merged = thread(kb, "qwen 14b vs llama 2 13b", "on a 4090?", "what about int4?")
    assert merged.intent == "compare" and merged.compare_models == ["qwen-14b", "llama-2-13b"]
    assert (merged.gpu, merged.precision, merged.compare_gpus) == ("rtx-4090", "int4", [])


def test_a_follow_up_comparing_models_replaces_the_list(kb: KnowledgeBase) -> None:
    merged = thread(kb, "qwen 14b vs llama 2 13b", "what about qwen2.5-7b vs gemma 7b?")
    assert merged.compare_models == ["qwen2.5-7b", "gemma-7b"] and merged.model == "qwen2.5-7b"


def test_versus_after_one_model_starts_a_comparison(kb: KnowledgeBase) -> None:
    merged = thread(kb, "what GPU for qwen-14b", "vs llama-3-8b?")
    assert (merged.intent, merged.model, merged.compare_models) == ("compare", "qwen-14b", ["qwen-14b", "llama-3-8b"])
    # "and X?" after a one-model question still just changes the model
    merged = thread(kb, "what GPU for qwen-14b", "and llama-3-8b?")
    assert (merged.model, merged.compare_models) == ("llama-3-8b", [])


def test_runtime_slots_follow_and_a_new_engine_drops_the_old_version(kb: KnowledgeBase) -> None:
    q = thread(kb, "serve llama 3 8b with transformers 4.38 at 8k", "what about fp8 KV cache?")
    assert (q.engine, q.engine_version, q.kv_cache, q.context) == ("transformers", "4.38", "fp8", 8192)
    q = thread(kb, "serve llama 3 8b with transformers 4.38 at 8k", "and without flash attention?")
    assert q.flash_attention is False and q.engine_version == "4.38"
    q = thread(kb, "serve llama 3 8b with transformers 4.38 at 8k", "what about with vllm?")
    assert q.engine == "vllm" and q.engine_version is None and "engine_version" not in q.stated


@pytest.mark.parametrize("text", ["llama 3 70b is 2x bigger than 34b", "Mixtral 8x7B inference",
                                  "生成一张图片用SDXL", "is qwen 7b x2 faster than llama?"])
def test_a_bare_multiple_inside_a_sentence_is_no_card_count(text: str, kb: KnowledgeBase) -> None:
    assert parse(text, kb).gpu_count is None


@pytest.mark.parametrize("text", ["how much would that cost?", "要多久", "cost per million tokens?"])
def test_a_money_or_time_question_follows_up_the_same_job(text: str, kb: KnowledgeBase) -> None:
    merged = thread(kb, "llama 3 8b qlora with unsloth on an A100 at 16k context, 1B tokens", text)
    assert (merged.model, merged.task, merged.engine, merged.gpu, merged.context, merged.tokens) == (
        "llama-3-8b", "qlora", "unsloth", "a100-80gb", 16384, 1e9)
    assert merged.asks_cost or merged.asks_time or merged.asks_token_cost


def test_a_money_question_without_a_thread_is_not_a_follow_up(kb: KnowledgeBase) -> None:
    assert not is_follow_up(parse("what GPU for ChatGLM-6B inference", kb), parse("how is the weather?", kb))


def test_an_image_thread_takes_a_new_size_and_step_count(kb: KnowledgeBase) -> None:
    question = thread(kb, "flux dev on a 4090", "what about 2048x2048?", "and with 4 steps?")
    assert question.model == "flux.1-dev" and question.gpu == "rtx-4090"
    assert question.image_resolution == 2048 and question.image_steps == 4


def test_training_steps_are_never_an_image_step_count(kb: KnowledgeBase) -> None:
    assert parse("and for 1000 steps?", kb).image_steps is None
    assert parse("and train for 40 steps?", kb).image_steps is None


@pytest.mark.parametrize(("text", "model", "size"), [
    ("what about 70B?", "llama-3.1-70b", None),  # Llama 3.1's 70.6B: the family member, not a generic 70B
    ("and 405b?", "llama-3.1-405b", None),
    ("what about a 13B model?", None, 13.0),  # no Llama 3.1 of that size: the size itself
])
def test_a_size_in_a_follow_up_is_the_previous_models_family_member_of_that_size(text: str, model: str | None,
                                                                                  size: float | None) -> None:
    from bot.understand.followup import follow_up
    from bot.understand.parse import parse
    from knowledge.loader import default_knowledge

    kb = default_knowledge()
    merged = follow_up(parse("serve Llama 3.1 8B for 20 users on an L4", kb), parse(text, kb), kb)
    assert (merged.model, merged.params_b) == (model, size)


def test_turning_a_served_model_into_a_fine_tune_drops_what_only_serving_has(kb: KnowledgeBase) -> None:
    # 32 users are no micro-batch of 32 sequences, vLLM trains nothing, and FP8 is a serving format; the model,
    # the card and the context carry over.
    q = thread(kb, "serve Llama 3.1 8B with vLLM on an L40S for 32 users at 8k context", "with fp8?",
               "and LoRA fine-tuning it?")
    assert (q.model, q.gpu, q.context, q.task) == ("llama-3.1-8b", "l40s", 8192, "lora")
    assert q.batch is None and q.engine is None and q.precision is None and q.quant is None
    assert not {"batch", "engine", "precision"} & set(q.stated)
    zh = thread(kb, "Qwen2.5-32B用vLLM部署，单卡A100，并发10，上下文8k", "那LoRA微调呢？")
    assert zh.task == "lora" and zh.engine is None and zh.batch is None and zh.context == 8192


def test_turning_a_fine_tune_into_serving_drops_what_only_training_has(kb: KnowledgeBase) -> None:
    q = thread(kb, "LoRA fine-tune Llama 3.1 8B with unsloth, rank 64, batch 8, on 50M tokens", "and serving it?")
    assert q.task == "inference" and q.engine is None
    assert q.batch is None and q.lora_rank is None and q.tokens is None
    # An engine that does both (transformers) stays, and a slot the follow-up restates is kept.
    both = thread(kb, "LoRA fine-tune Llama 3.1 8B with transformers, batch 8", "and inference at batch 4?")
    assert (both.task, both.engine, both.batch) == ("inference", "transformers", 4)
    # Within one kind of job nothing is dropped: QLoRA after LoRA keeps the engine and the batch.
    same = thread(kb, "LoRA fine-tune Llama 3.1 8B with unsloth, batch 8", "with QLoRA instead?")
    assert (same.task, same.engine, same.batch) == ("qlora", "unsloth", 8)


def test_a_follow_up_that_reads_like_a_faq_but_restates_the_job_stays_in_the_thread(kb: KnowledgeBase) -> None:
    first = "LoRA fine-tune Llama 3.1 8B on one A100 40GB"
    cost = thread(kb, first, "how long for 200M tokens and what does it cost")
    assert (cost.model, cost.task, cost.gpu, cost.tokens) == ("llama-3.1-8b", "lora", "a100-40gb", 2e8)
    assert cost.asks_cost and cost.asks_time and cost.intent != "faq"
    full = thread(kb, first, "what about full fine-tune on 8 of them with ZeRO-3")
    assert (full.model, full.task, full.gpu_count, full.zero_stage) == ("llama-3.1-8b", "train", 8, 3)
    # a question about a topic is not a change of the job
    assert thread(kb, first, "what is ZeRO-3?").intent == "faq"
    assert thread(kb, first, "why does it need ZeRO-3?").intent == "faq"


def test_training_said_after_a_lora_question_is_that_lora_unless_full_training_is_said(kb: KnowledgeBase) -> None:
    first = "LoRA fine-tune Llama 3.1 8B on one A100 40GB"
    assert thread(kb, first, "训练2亿token要多久，多少钱").task == "lora"
    assert thread(kb, first, "全参训练2亿token要多久").task == "train"


def test_a_follow_up_written_alike_in_both_scripts_keeps_a_traditional_thread(kb: KnowledgeBase) -> None:
    # 那 128k 上下文呢 has no character that differs between the scripts; the thread was Traditional
    question = thread(kb, "Llama 3.1 8B 在 RTX 4090 上跑得動嗎", "那 128k 上下文呢")
    assert question.lang == "zh-Hant" and question.context == 131072
    # a follow-up with Simplified characters switches, as the asker did
    assert thread(kb, "Llama 3.1 8B 在 RTX 4090 上跑得動嗎", "那两张呢").lang == "zh-Hans"


@pytest.mark.parametrize(("first", "then"), [
    ("Qwen3-14B AWQ 用 vLLM 在一张 4090 上，16k 上下文能跑几个并发？", "换成 L40S 呢？每月多少钱"),
    ("Qwen3-14B AWQ with vLLM on one 4090 at 16k, how many concurrent?", "what about an L40S? and per month?"),
])
def test_a_card_and_its_price_asked_after_a_sizing_size_the_job_on_that_card(first: str, then: str) -> None:
    # audit 22 HIGH 7: the price asked made it the card's spec sheet, and the concurrency asked was lost
    kb = load_knowledge()
    question = follow_up(parse(first, kb), parse(then, kb), kb)
    assert question.intent == "check" and question.gpu == "l40s" and question.model == "qwen3-14b"
    assert question.context == 16384


def test_the_longest_context_asked_after_a_set_up_is_that_set_ups() -> None:
    # audit 30 HIGH 62: "what's the longest context I can fit then?" fell to the generic size chart
    from bot.understand.followup import follow_up as _follow
    from bot.understand.parse import parse as _parse
    from knowledge.loader import default_knowledge as _kb

    kb = _kb()
    question = _parse("Can I run Llama-3.1-70B on my 2x RTX 3090?", kb)
    question = _follow(question, _parse("and with int4?", kb), kb)
    for text in ("what's the longest context I can fit then?", "how much context can it fit?", "最长能跑多长上下文"):
        asked = _follow(question, _parse(text, kb), kb)
        assert asked.model == "llama-3.1-70b" and asked.gpu == "rtx-3090" and asked.gpu_count == 2
        assert asked.asks_max_context and asked.precision == "int4"
    asked = _follow(question, _parse("how much context can it fit?", kb), kb)
    later = _follow(asked, _parse("what about 3 cards?", kb), kb)
    assert later.gpu_count == 3 and not later.asks_max_context


@pytest.mark.parametrize("text", ["how fast then?", "how fast is it?", "what speed?", "速度呢", "多快", "tok/s?",
                                  "how much memory then?", "is that enough?", "why?", "显存要多少", "够吗", "夠嗎",
                                  "那要几张", "为什么", "每秒多少 token"])
def test_a_figure_asked_after_a_set_up_is_that_set_ups(kb: KnowledgeBase, text: str) -> None:
    # audit 31 HIGH 75: "how fast then?", "显存要多少", "够吗" got the help card, a FAQ or the generic chart
    previous = parse("Can I run Qwen3-30B-A3B on my RTX 4090 with 64k context?", kb)
    assert is_follow_up(previous, parse(text, kb))
    asked = follow_up(previous, parse(text, kb), kb)
    intent = "recommend" if "几张" in text else "check"  # the count asked is a recommendation on that card
    assert (asked.intent, asked.model, asked.gpu, asked.context) == (intent, "qwen3-30b-a3b", "rtx-4090", 65536)


def test_a_speed_question_naming_a_model_is_a_new_question(kb: KnowledgeBase) -> None:
    previous = parse("Can I run Qwen3-30B-A3B on my RTX 4090?", kb)
    assert follow_up(previous, parse("how fast is Llama-3.1-8B on an L4?", kb), kb).model == "llama-3.1-8b"


def test_a_topic_question_after_a_set_up_stays_a_new_question(kb: KnowledgeBase) -> None:
    previous = parse("Can I run Qwen3-30B-A3B on my RTX 4090?", kb)
    assert not is_follow_up(previous, parse("what is NVLink?", kb))
    assert not is_follow_up(previous, parse("why does llama 70b need several GPUs?", kb))


def test_another_card_after_a_how_many_thread_asks_how_many_of_it(kb: KnowledgeBase) -> None:
    # audit 31 LOW-153: "… on H100s?" (4× H100) then "and on L40S instead?" checked one L40S
    question = parse("Llama-3.1-70B for 40 users at 8k on H100s?", kb)
    asked = follow_up(question, parse("and on L40S instead?", kb), kb)
    assert (asked.intent, asked.gpu, asked.gpu_count) == ("recommend", "l40s", None)
    counted = follow_up(parse("Llama-3.1-70B on 2 H100s?", kb), parse("and on L40S instead?", kb), kb)
    assert counted.intent == "check"  # the count asked about stays the set-up checked


def test_cards_named_in_the_plural_after_a_recommendation_ask_how_many(kb: KnowledgeBase) -> None:
    # audit 32 M-100: "what GPU for Llama 3.1 70B?" … "and with 64 concurrent users at 16k context on H100s?" was
    # checked on one H100 ("No: it needs 362 GiB per card") where the plural asks how many
    previous = parse("What GPU for Llama 3.1 70B inference?", kb)
    asked = follow_up(previous, parse("and with 64 concurrent users at 16k context on H100s?", kb), kb)
    assert (asked.intent, asked.gpu, asked.gpu_count, asked.batch) == ("recommend", "h100-sxm", None, 64)
    one = follow_up(previous, parse("and on an H100?", kb), kb)
    assert one.intent == "check"  # one card named: does it fit that card


def _merged_follow_up(first: str, then: str, kb: KnowledgeBase) -> Question:
    """`then` read as a follow-up of `first`, asserting that it is one."""
    previous, current = parse(first, kb), parse(then, kb)
    assert is_follow_up(previous, current)
    return follow_up(previous, current, kb)


@pytest.mark.parametrize("text", ["how many users at 32k?", "how many users can it serve?",
                                  "上下文 32k 时能同时服务几个人"])
def test_how_many_users_after_a_set_up_is_that_set_up_s_capacity(kb: KnowledgeBase, text: str) -> None:
    # audit 33 HIGH 91: the model was dropped and the generic chart came back
    merged = _merged_follow_up("Qwen3-235B-A22B int4 on 8x MI300X", text, kb)
    assert (merged.intent, merged.model, merged.gpu, merged.gpu_count, merged.precision) == (
        "check", "qwen3-235b-a22b", "mi300x", 8, "int4")


@pytest.mark.parametrize("text", ["要多久？10 萬筆資料，每筆 1k token，一個 epoch",
                                  "要多久？10万条数据，每条 1k token，一个 epoch"])
def test_a_dataset_said_after_a_fine_tune_is_that_fine_tune_s_data(kb: KnowledgeBase, text: str) -> None:
    # audit 33 HIGH 90: the zh follow-up lost the thread's model, task and card ("推理 · 上下文 1,024")
    merged = _merged_follow_up("LoRA bf16 微調 Qwen2.5-32B，單張 A100 80GB", text, kb)
    assert (merged.model, merged.task, merged.gpu) == ("qwen2.5-32b", "lora", "a100-80gb")
    assert merged.tokens == 102_400_000 or (merged.training_samples, merged.context) == (100_000, 1024)


def test_a_new_question_in_a_traditional_thread_keeps_its_script(kb: KnowledgeBase) -> None:
    # audit 31 LOW-159: a message alike in both scripts that starts a new question (the help card) came back
    # in Simplified inside a Traditional thread
    previous = parse("我們有 4 張 3090，想跑 Qwen2.5-72B 給 10 個人用", kb)
    assert previous.lang == "zh-Hant"
    assert follow_up(previous, parse("你好", kb), kb).lang == "zh-Hant"
    assert follow_up(previous, parse("你们好，请问这个怎么用", kb), kb).lang == "zh-Hans"  # Simplified as written


@pytest.mark.parametrize("text", ["how fast on an H100?", "how fast would an H100 be?", "换成 H100 多快"])
def test_a_cards_speed_asked_after_a_sizing_is_the_jobs_speed_there(kb: KnowledgeBase, text: str) -> None:
    # audit 31 HIGH 75 residue: "how fast on an H100?" gave the H100's spec card, the model and load dropped
    previous = parse("Llama-3.1-8B on an L4 for 10 users", kb)
    asked = follow_up(previous, parse(text, kb), kb)
    assert (asked.intent, asked.model, asked.gpu, asked.batch) == ("check", "llama-3.1-8b", "h100-sxm", 10)
    assert follow_up(previous, parse("tell me about the H100", kb), kb).intent == "gpu_info"
