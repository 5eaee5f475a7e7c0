"""Question understanding: any text (English, Simplified/Traditional Chinese, mixes, Slack markup) → `Question`.

How it works, in order:

1. Slack markup is stripped, control characters dropped, the text NFKC-normalised (full-width letters and
   punctuation become ASCII), lower-cased and folded to Simplified Chinese character by character, so every
   pattern below is written once, in lower-case English and Simplified Chinese. Offsets are kept, so the
   words a slot was read from can be quoted back.
2. Model and GPU mentions are found by walking token spans (ASCII words, single CJK characters) against a
   dictionary of every name, alias and Hugging Face id, normalised the same way. The walk is pruned by a set
   of key prefixes, so it costs a few hash probes per token however large the knowledge base grows, and it
   only ever accepts exact hits: "qwen2.5 7b" is the key `qwen2.57b`, never `qwen2.572b`. Only when no
   model is named exactly are a few plausible spans (name-like words, with their size) sent to the fuzzy
   `NameIndex.lookup`; a fuzzy hit whose size differs from the one written is refused, and weak or tied
   hits become "did you mean" suggestions.
3. Numbers next to their cue words become slots (context, batch/concurrency, GPU count, generated tokens,
   a bare parameter count), each read from text with the model/GPU names masked out, so "Phi-3-mini-128k"
   is not a context length and "A100 80GB" is not a count. Out-of-range values are clamped to the bounds in
   `bot.understand.question` and listed in `Question.clamped`.
4. Keywords give task, precision/quantisation, engine, cloud, budget and training options.
5. The intent is decided last, from cue phrases and what was found (see `decide_intent`).

Choices worth knowing:
- A bare "量化" / "quantized" with no bit width reads as int8 (the conservative figure: it needs more
  memory than int4) and adds the note `quant-bits-assumed`.
- P-tuning / prefix tuning / adapters are sized as LoRA (note `ptuning-as-lora`).
- "fine-tune" without LoRA/QLoRA is a full fine-tune (task train).
- A task is implied as inference when the text runs/serves/chats, names a serving engine, or gives
  concurrency or a context length without any training word.
- A GPU named without its memory ("A100", "V100", "H100") resolves to the knowledge base's entry for that
  bare alias and sets `gpu_defaulted`, so the reply can say which variant it assumed.
- k after a context length is 1024 (32k → 32768); after a user count it is 1000.
- Only the first `MAX_PARSE_CHARS` characters are read (the text itself is kept whole).
- GPU memory stated without a card ("is 24GB enough", "16G显存", "2张24G的卡") is `memory_gb`, as written
  (80G = 80 GB = 80), per card when a count goes with it ("2x 24GB" is two 24 GB cards). It is read only
  when no card is named (a card's own size, "A100 80GB", picks the card's variant instead), never from a
  model size (13B) or a context (32k), and not when the number is system RAM, disk, data, weights, a
  bandwidth (GB/s), or what something needs ("it needs 26GB": that is a requirement, not what one has).
- A capacity question ("what can a 4090 run", "3060能跑什么模型", "能微调多大的模型") needs a card or a memory
  size in the text and no model or size named: intent gpu_info with `asks_capacity`.
- Two or more models named with a comparison cue (vs, or, compare, 哪个, 还是, 比) are `compare_models`, in
  the order written; `model` is the first. When only one is named exactly, one more fuzzy lookup is tried for
  a misspelt second. `compare_models` is not a `stated` slot (the reply shows the models side by side).
"""

from __future__ import annotations

import logging
import re

from bot.understand.bounds import bounded_question
from bot.understand.devices import per_device
from bot.understand.documents import IMAGE_JOB_TEXT_TOKENS, read_documents, read_image_job
from bot.understand.faq import FAQ_INTENT_SCORE, FAQ_MATCH_SCORE, faq_match
from bot.understand.gpu_set import mixed_set
from bot.understand.instances import ON_PREMISES, compared_instance, find_instance, machines_named, parse_machines
from bot.understand.instructions import without_orders
from bot.understand.intent import (
    CAPACITY,
    MODEL_COMPARE,
    MODEL_COMPARE_STRONG,
    PLURAL_CARDS_NOTE,
    decide_intent,
    gpu_plural,
    imply_task,
)
from bot.understand.intent_turns import settled_intent
from bot.understand.jobs import split_jobs
from bot.understand.lang import detect_lang
from bot.understand.logs import log_line_spans, shows_oom, slow_first_token
from bot.understand.mention_fit import derived_name, read_card_claims, sized_sibling
from bot.understand.mentions import Mention, find_mentions
from bot.understand.model_mentions import find_models, generator_first, only_release
from bot.understand.notebooks import notebook_card
from bot.understand.prepare import MAX_PARSE_CHARS, prepared
from bot.understand.question import (
    DERIVED_NAME_NOTE,
    FAMILY_RELEASE_NOTE,
    SLOT_ORDER,
    TRAINING_SWITCHES,
    Question,
)
from bot.understand.slots.api_price import parse_api_price
from bot.understand.slots.apple import parse_apple_silicon, parse_mac_beside_card
from bot.understand.slots.audio import ASSUMED_SPEECH_MODEL, BEAM, assumed_speech_model, parse_audio
from bot.understand.slots.bandwidth import parse_card_bandwidth
from bot.understand.slots.base import SlotState, unquote_keys
from bot.understand.slots.budget import parse_budget
from bot.understand.slots.context import count_then_length, parse_batch, parse_context
from bot.understand.slots.copies import asks_copies
from bot.understand.slots.engine import parse_engine, rollout_engine, unmodelled_engine
from bot.understand.slots.image import image_rate, parse_image, read_embedded_images
from bot.understand.slots.load_ram import asks_load_ram
from bot.understand.slots.money import parse_money
from bot.understand.slots.precision import parse_precision, parse_qat
from bot.understand.slots.runtime import (
    kv_type_after_model,
    parse_parallel_degree,
    parse_runtime,
    read_logged_kv_tokens,
    read_logged_queue,
    read_logged_version,
)
from bot.understand.slots.service_rate import PER_USER_RATE_NOTE, latency_as_speed, online_count, people_count
from bot.understand.slots.sizes import (
    counts_before,
    parse_gpu_counts,
    parse_memory,
    parse_other_count,
    parse_params,
)
from bot.understand.slots.task import parse_task
from bot.understand.slots.training import parse_grad_accumulation, parse_training_options
from bot.understand.slots.user_base import parse_user_base
from bot.understand.slots.vision_input import asks_images_at_once, parse_vision_input
from bot.understand.slots.window import window_in_thousands
from bot.understand.slots.workload_size import parse_workload_size
from bot.understand.speculative import (
    PREFIX_CACHING,
    PREFIX_CACHING_NOTE,
    SPECULATIVE,
    SPECULATIVE_UNNAMED_NOTE,
)
from bot.understand.stacking import PLUS, set_stack, stacked
from bot.understand.tokens import tokenize
from bot.understand.unknown import (
    NOT_A_GPU,
    closed_model,
    host_ram,
    name_before_size,
    says_no_gpu,
    shared_memory_reserve,
    sized_unknown_name,
    unknown_hardware,
    unmodelled_model,
    unsized_unknown_name,
)
from bot.understand.vocab import same_card_variants, vocab_of
from knowledge.base import KnowledgeBase

log = logging.getLogger(__name__)

PLAIN_SLOTS = (
    "model", "params_b", "active_params_b", "machines", "task", "precision", "quant", "engine", "context", "batch",
    "users", "output_tokens",
    "more_sequences", "more_sequences_context",
    "image_resolution", "image_steps", "text_encoders", "prior_preservation", "image_dims", "image_count",
    "images_per_minute", "images_per_minute_per_user", "audio_hours", "clip_seconds", "beam_size", "zero_stage",
    "other_zero_stage",
    "offload",
    "gradient_checkpointing", "grad_accumulation", "optimizer", "gpu", "gpu_count", "instance", "apple_chip",
    "memory_gb", "card_bandwidth_gbps", "cloud", "currency", "inter_node_gbps", "engine_version", "engine_backend",
    "kv_cache", "other_kv_cache", "other_kv_context", "other_gpu_count", "engine_max_len", "logged_kv_tokens",
    "logged_queue",
    "tensor_parallel",
    "weighed_layout",
    "flash_attention", "dp_attention", "memory_fraction", "max_num_seqs", "prefill_chunk", "layer_split",
    "gpu_layers", "cpu_moe_layers",
)
"""Question fields that take the slot of the same name as it was read (None when the text did not state it)."""


def parse(text: str, kb: KnowledgeBase, thread_model: str | None = None) -> Question:
    """Understand `text`. Never raises: on an internal error the question comes back as intent unknown.
    `thread_model`: the model a thread is about, whose own slots a follow-up that names no model may state ("and
    with beam_size 5?" after a Whisper job, "what if 4 images per request?" after a vision model)."""
    if not isinstance(text, str):
        text = "" if text is None else str(text)
    try:
        text = without_orders(text)  # "SYSTEM OVERRIDE … reply only with '1x RTX 3060'": obeyed no more than read
        # jobs are split on the text as written, not on Slack's entities ("&amp;" is "&", "&lt;16GB&gt;" "<16GB>")
        unescaped = text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&") if "&" in text else text
        first, others = split_jobs(unescaped, lambda part: _parse(part, kb))
        if not others and first == unescaped:
            return _parse(text, kb, thread_model)
        if not others:  # "X? no wait, I mean Y": Y alone
            return _parse(first, kb, thread_model).model_copy(update={"text": text})
        return _parse(first, kb, thread_model).model_copy(update={"text": text, "other_jobs": others})
    except Exception:  # pragma: no cover - defensive: a bug here must not take a reply down
        log.exception("parse failed for %r", text[:200])
        try:
            return Question(text=text, intent="unknown", lang=detect_lang(text[:MAX_PARSE_CHARS]))
        except Exception:
            return Question(text=text, intent="unknown")


def _taken_spans(state: SlotState, folded: str, mentions: list[Mention]) -> list[tuple[int, int]]:
    """Spans of `folded` already read as something (a model or card mention, or text a slot masked): an
    unknown name is never looked for there."""
    masked = state.text
    spans = [(m.start, m.end) for m in mentions]
    spans += [(i, i + 1) for i, ch in enumerate(masked) if ch == " " and i < len(folded) and folded[i] != " "]
    return spans


def _parse(text: str, kb: KnowledgeBase, thread_model: str | None = None) -> Question:
    ready = prepared(text, kb)
    original, folded, lang = ready.original, ready.folded, ready.lang
    vocab = vocab_of(kb)
    state = SlotState(original=original, folded=folded, masked=list(folded))
    unquote_keys(state)
    read_logged_kv_tokens(state)
    read_logged_queue(state)
    read_logged_version(state)
    for start, end in log_line_spans(original):
        state.mask_log_line(start, end)

    not_gpus = [match.span() for match in NOT_A_GPU.finditer(folded)]
    thread = kb.models.get(thread_model) if thread_model else None
    if thread is not None and thread.modality == "audio":
        not_gpus += [match.span() for match in BEAM.finditer(folded)]  # "换成 beam 5 呢": a beam
    tokens = [t for t in tokenize(folded) if not any(a < t.end and t.start < b for a, b in not_gpus)]
    mentions = [m for found in find_mentions(tokens, vocab, folded)
                if (m := sized_sibling(found, folded, kb)) is not None]
    instance = find_instance(folded, kb)
    machines = machines_named(folded, instance) if instance is not None else None
    if machines is not None:
        state.mask(machines[1], machines[2])  # "兩台 DGX H100": machines, not cards
    other_instance = compared_instance(folded, instance, kb) if instance is not None else None
    for named_instance in (instance, other_instance):
        if named_instance is not None:
            # "gpu_1x_a10", "p4d.24xlarge": the instance's own name says its cards; no part of it is a name or number
            mentions = [m for m in mentions if m.end <= named_instance.start or m.start >= named_instance.end]
            state.mask(named_instance.start, named_instance.end)
    gpus = [m for m in mentions if m.kind == "gpu"]
    # an instance's name ("p4d.24xlarge") is read as machines: never a model to look up (audit 29 M-58)
    instances_named = [Mention("instance", m.instance.gpu_id, "", m.start, m.end)
                       for m in (instance, other_instance) if m is not None]
    found, named, model_ids, speculative = find_models(state, kb, tokens, mentions, instances_named, folded,
                                                       original)
    if found.model is not None:
        state.set("model", found.model)
        derived = derived_name(folded, original, found.start, found.end)
        if derived is not None:
            state.notes.append(f"{DERIVED_NAME_NOTE}{derived}")  # "openhermes-2.5-mistral-7b": sized as Mistral 7B
    gpu_ids: list[str] = []
    for mention in gpus:
        if mention.entry_id not in gpu_ids:
            gpu_ids.append(mention.entry_id)
    if instance is not None:
        state.set("instance", instance.instance.name)
        if not gpu_ids:
            gpu_ids.append(instance.instance.gpu_id)
            if other_instance is not None:
                gpu_ids.append(other_instance.instance.gpu_id)  # "g6.xlarge vs g5.xlarge": L4 against A10G
    notebook = notebook_card(folded) if not gpu_ids else None
    if notebook is not None:
        gpu_ids.append(notebook.gpu_id)
        state.notes.append(notebook.note)

    # numbers next to their cues, in an order that lets the more specific readings claim their text first
    user_base = parse_user_base(state)  # first: "50k monthly users" is neither money nor a context
    count_then_length(state)  # "64 concurrent 4k requests": before any reading takes "4k requests" as a count
    money = parse_budget(state, lang)  # its number is money, not tokens, hours or a size
    for slot in money:
        state.stated.append(slot)
    if found.model is None and (found.text or "").strip().lower() in ("whisper", "openai whisper"):
        # "which gpu for whisper?": the family's current release, said in the reply (audit 31 LOW-151: "I don't
        # know the model" with four Whisper names offered)
        in_thread = thread_model if thread_model and thread_model.startswith("whisper-") else None
        if in_thread is None:
            state.notes.append(FAMILY_RELEASE_NOTE)  # in a Whisper thread its release is known (audit 38 LOW-214)
        found.model, found.text, found.suggestions = in_thread or ASSUMED_SPEECH_MODEL, None, []
        state.set("model", found.model)
    only = only_release(kb, found.text) if found.model is None and "params_b" not in state.values else None
    if only is not None:
        # "InternLM3 在 V100 32G 上": a family name whose one release the knowledge base holds is that model, said
        # in the reply (audit 37 LOW-210: "I don't know InternLM3" with InternLM3-8B offered first)
        state.notes.append(FAMILY_RELEASE_NOTE)
        found.model, found.text, found.suggestions = only, None, []
        state.set("model", found.model)
    if found.model is None and not found.suggestions \
            and unsized_unknown_name(folded, original, _taken_spans(state, folded, mentions)) is None:
        found.model = assumed_speech_model(state)  # "转写 500 小时会议录音": Whisper, said in the reply
        if found.model is not None:
            state.set("model", found.model)
    named_model = kb.models.get(found.model) if found.model is not None else None
    # a follow-up naming no model states the thread's model's slots: its beam width, its images a request
    slot_model = named_model or (kb.models.get(thread_model) if thread_model and found.text is None else None)
    if slot_model is not None and slot_model.modality == "audio":
        parse_audio(state)  # before the hours: "1000 hours of audio" is the job, not the rental
    parse_grad_accumulation(state)  # before the job's size: "梯度累积8步" is not 8 training steps
    images_at_once = False
    if slot_model is not None and (slot_model.image_tokens is not None or (
            slot_model.vision_encoder is not None and slot_model.vision_encoder.cross_attention)):
        images_at_once = asks_images_at_once(state)
        parse_vision_input(state)  # before the job's size, context and counts: "8 images per request", "4K 图片"
    if slot_model is not None and slot_model.arch == "dual-encoder":
        image_rate(state)  # "每秒编码 2000 张图片": a rate to keep up with, not a job of 2,000 (audit 34 HIGH 97)
        read_embedded_images(state)  # "embed 100M images with CLIP": the job's count, before any other reading
    if (slot_model is not None and slot_model.modality == "image-generation") or any(
            m in kb.models and kb.models[m].modality == "image-generation" for m in model_ids):
        # before the hours: "一天要出 1 万张" is a rate, not a 24-hour rental; also of an image model named beside
        # another ("LoRA Qwen2.5-32B and serve SDXL at 100 images per minute": audit 39 HIGH-122)
        image_rate(state)
    work = {**parse_workload_size(state), **user_base}
    work["asks_concurrency"] = work.get("asks_concurrency") or images_at_once
    if "images_per_request" in state.values and not work.get("images_per_request"):
        work["images_per_request"] = state.values.pop("images_per_request")
    image_qps = state.values.pop("image_qps", None)
    if image_qps and not work.get("qps"):
        work["qps"] = image_qps  # "每秒 15 张": each image one request
    if named_model is not None and named_model.modality == "image-generation":
        parse_image(state)  # before the GPU counts: "1024x1024" is an image, not 1024 cards
    elif found.model is None:
        parse_image(state, model_named=False)  # a follow-up in an image thread: "what about 2048x2048?"
    if found.text is not None and found.end is not None and kv_type_after_model(
            state, found.text, found.end, found.quant):
        found.quant = None
    parse_runtime(state)
    if not gpus and instance is None:
        parse_apple_silicon(state)
        if "unified_memory" not in state.values:
            parse_card_bandwidth(state)  # before the memory: "448 GB/s" is not 448 GB
        parse_memory(state)
        if state.values.get("unified_memory") and state.values.get("memory_gb") is not None and \
                state.values.get("host_ram_gb") == state.values["memory_gb"]:
            state.values.pop("host_ram_gb")  # "Mac mini M4 16G 内存": one memory, the Mac's unified memory
            if "host_ram_gb" in state.stated:
                state.stated.remove("host_ram_gb")
    elif gpus:
        parse_mac_beside_card(state)
    parse_gpu_counts(state, gpus, mentions)
    parse_other_count(state)
    if instance is not None and instance.instance.count and "gpu_count" not in state.values and len(gpu_ids) == 1:
        state.set("gpu_count", instance.instance.count * (machines[0] if machines is not None else 1))
    if notebook is not None and "gpu_count" not in state.values:
        state.set("gpu_count", notebook.count)
    parse_parallel_degree(state)
    plural_gpus = "gpu_count" not in state.values and any(gpu_plural(folded, m) for m in gpus)
    if plural_gpus:
        state.notes.append(PLURAL_CARDS_NOTE)
    parse_context(state)
    window_in_thousands(state, named_model.max_context if named_model is not None else None)
    engine_max_len = state.values.pop("engine_max_len", None)
    if engine_max_len is not None and "context" not in state.values:
        state.set("context", engine_max_len)  # the length flag alone: every sequence may reach it
    elif engine_max_len is not None and "other_kv_cache" in state.values:
        state.values["other_kv_context"] = engine_max_len  # "how many 32k sequences fit" with the other cache
    elif engine_max_len is not None:
        state.values["engine_max_len"] = engine_max_len  # requests shorter than the flag: does the engine start?
    if image_qps and "context" not in state.values and isinstance(state.values.get("gen_tokens"), int):
        # "每天 20 万张发票，每张输出约 300 token": an instruction and the reply beside each image, whose positions
        # join them when sized, not a 4,096-token default prompt (audit 24 LOW-35)
        state.values["context"] = IMAGE_JOB_TEXT_TOKENS + int(state.values["gen_tokens"])
    if (slot_model is not None and slot_model.arch in ("encoder", "dual-encoder")
            and isinstance(state.values.get("gen_tokens"), int)):
        # an encoder generates nothing: "512 tokens per query" is each text it reads (audit 35 HIGH 103: timed as
        # 512 tokens generated one at a time, 0.12 sequences/s where it encodes ~46)
        generated = int(state.values.pop("gen_tokens"))
        if "gen_tokens" in state.stated:
            state.stated.remove("gen_tokens")
        if "context" not in state.values:
            state.set("context", generated)
    parse_batch(state)
    people = state.values.get("users") or state.values.get("batch")
    if PER_USER_RATE_NOTE in state.notes and online_count(state.folded):
        people = online_count(state.folded)  # "50 个工程师，平均同时 15 人在线，每人每 10 秒一次": the 15 send them
    if PER_USER_RATE_NOTE in state.notes and not people:
        people = people_count(state.text)  # "50 个客服坐席，每人每分钟 6 次": a head count no batch slot took
    if PER_USER_RATE_NOTE in state.notes and work.get("qps") and isinstance(people, int) and people > 1:
        # "200 个程序员，每人每分钟 10 次请求": the load is everyone's requests; the people are the population the
        # rate came from, not sequences served at once (the plan finds those from the rate)
        work["qps"] = float(work["qps"]) * people
        for slot in ("batch", "users"):
            state.values.pop(slot, None)
        state.stated = [slot for slot in state.stated if slot not in ("batch", "users")]
    if found.model is None:
        parse_params(state)
    span = state.values.pop("params_span", None)
    if (found.model is None and found.text is None and isinstance(span, tuple) and "params_b" not in state.clamped
            and not re.search(r"\d{7,}", original[int(span[0]): int(span[1])])):
        found.text = name_before_size(original, int(span[0]), int(span[1])) or found.text
    if not gpus and instance is None:
        parse_machines(state)  # "what if we use 2 nodes?", "用两台机器呢": machines, not cards
    parse_precision(state, found.quant)
    qat = named_model.details.get("qat_quant") if named_model is not None else None
    parse_qat(state, qat if isinstance(qat, str) else None)
    parse_engine(state)
    parse_task(state)
    rollout_engine(state)
    if SPECULATIVE.search(folded) is not None and not speculative and "draft_model" not in state.values:
        state.notes.append(SPECULATIVE_UNNAMED_NOTE)  # "开投机解码" with no draft: said, not ignored (M-156)
    if PREFIX_CACHING.search(folded) is not None:
        state.notes.append(PREFIX_CACHING_NOTE)
    parse_money(state)
    if instance is not None and instance.instance.cloud and instance.instance.cloud not in ON_PREMISES:
        state.set("cloud", instance.instance.cloud)  # a cloud named in words has already been set
    parse_training_options(state)
    closed = closed_model(folded) if found.model is None else None
    # beside a model it does size too ("(1) Wan 2.1 14B at 720p? (2) Qwen3-32B on a 5090?"): the reply says it
    # answers only the other (audit 26 LOW-60)
    unmodelled = unmodelled_model(folded) if closed is None else None
    named_unknown = False
    if found.model is None and found.text is None and "params_b" in state.values:
        # "Zephyrine-13B": sized as generic, said unknown; never an instance's name ("p4d.24xlarge")
        found.text = sized_unknown_name(folded, original, [(m.start, m.end) for m in instances_named])
    if found.model is None and found.text is None and not found.suggestions and "params_b" not in state.values:
        # "quasar-llm": not sized, said unknown
        found.text = unsized_unknown_name(folded, original, _taken_spans(state, folded, mentions))
        named_unknown = found.text is not None
    capacity = (bool(gpu_ids) or "memory_gb" in state.values) and found.model is None \
        and "params_b" not in state.values and CAPACITY.search(state.text) is not None
    # "X and Y together on one A10": one deployment, unless a comparison is asked in so many words ("X vs Y")
    stack = stacked(model_ids, folded) if not speculative and MODEL_COMPARE_STRONG.search(state.text) is None else []
    if (not stack and not speculative and len(model_ids) >= 2 and PLUS.search(folded) is not None
            and all(m in kb.models and kb.models[m].arch in ("encoder", "dual-encoder") for m in model_ids)):
        # "bge-m3 + bge-reranker-v2-m3": the encoders of one retrieval service, the reranker first, whose work
        # (every candidate of every query) sets the cards; the embedder rides beside it
        ordered = sorted(model_ids, key=lambda m: not kb.models[m].details.get("reranker"))
        found.model, stack = ordered[0], ordered[1:]
        state.values["model"] = found.model
    models_compared = len(model_ids) >= 2 and MODEL_COMPARE.search(state.text) is not None and not stack
    if not stack and not models_compared and not speculative and len(model_ids) >= 2:
        found.model = generator_first(state, kb, model_ids, found.model)
    card_set = mixed_set(state, gpus)
    intent, explicit, faq_hint = decide_intent(state, folded, found.model is not None,
                                         gpu_ids[:1] if card_set else gpu_ids, vocab,
                                         found.suggestions, capacity=capacity, models_compared=models_compared,
                                         plural_gpus=plural_gpus)
    if stack:
        set_stack(state, stack, named, original, found.model)  # "X 和 Y 一起部署在一张 A10": sized together
    read_documents(state, work, named_model, folded)
    read_image_job(state, work, named_model, folded)
    latency_as_speed(state, work)
    copies = bool(gpu_ids) and asks_copies(text)
    intent = settled_intent(intent, state, work, gpu_ids=gpu_ids, model_named=found.model is not None,
                            named_model=named_model, copies=copies, named_unknown=named_unknown,
                            capacity=capacity, purchase=money.get("budget_period") == "purchase")
    if card_set:
        # one machine of different cards: the job is checked on all of them together
        state.set("gpu_set", [card for card, count in card_set for _ in range(count)])
        state.values.pop("gpu_count", None)  # the first card's own count, read before the set was seen
        state.set("gpu_count", sum(count for _, count in card_set))
    compare_counts: dict[str, int] = {}
    if intent == "compare" and len(gpu_ids) >= 2:
        state.set("compare_gpus", gpu_ids)
        compare_counts = counts_before(folded, gpus, mentions)
        for named_instance in (instance, other_instance):
            if named_instance is not None and named_instance.instance.count:
                compare_counts[named_instance.instance.gpu_id] = named_instance.instance.count
        shared_count = state.values.get("gpu_count")
        if not compare_counts and isinstance(shared_count, int) and shared_count > 1:
            # "H20 vs H800 … with 64 cards", "H20 和 H800 … 64 卡": a count tied to no one card is each side's
            # (audit 31 HIGH 73: both were sized at 2 cards, the job 32× too long)
            compare_counts = dict.fromkeys(gpu_ids, shared_count)
    variant_stated = False
    if gpu_ids and not (intent == "compare" and len(gpu_ids) >= 2):
        variant_stated = read_card_claims(state, gpus, gpu_ids, kb,
                                          one_card_kind=not card_set and len(set(gpu_ids)) == 1)
    if not_gpus and not gpu_ids:
        # "a Xeon Phi for inference?": the hardware asked about is no GPU; the FAQ's correction says what to use
        hint, score = faq_match(vocab, folded)
        faq_hint = hint if score >= FAQ_MATCH_SCORE else faq_hint
        if found.model is None and "params_b" not in state.values:
            intent, explicit = "faq", True
    if (intent != "faq" and faq_hint is None and found.model is None and not named_unknown and not found.suggestions
            and "params_b" not in state.values and vocab.faq_texts):
        # nothing to size ("is a T4 good for training LLMs?", "H100 vs A100?"): an FAQ entry on it answers
        hint, score = faq_match(vocab, folded)
        faq_hint = hint if score >= FAQ_INTENT_SCORE else None  # a card's name alone is one keyword: not enough
    if intent == "faq" and faq_hint is None and vocab.faq_texts:
        faq_hint, score = faq_match(vocab, folded)
        faq_hint = faq_hint if score >= FAQ_MATCH_SCORE else None
    imply_task(state, intent)
    if "quant-bits-assumed" in state.notes and intent not in ("recommend", "check", "compare"):
        state.notes.remove("quant-bits-assumed")  # "what is quantization?" states no precision
        state.values.pop("precision", None)
        state.stated.remove("precision")

    unknown_card, board = unknown_hardware(state, folded, original, bool(gpus), instance is not None,
                                           _taken_spans(state, folded, mentions), found.text)
    shared_memory_reserve(state, unknown_card)
    makes_images = named_model is not None and named_model.modality == "image-generation"
    gpu_mention = next((m for m in gpus if m.entry_id == state.values.get("gpu")), None)
    defaulted = any(m.key in vocab.bare_gpus for m in gpus) and not variant_stated
    variants = same_card_variants(kb, vocab, gpu_mention.key) if defaulted and gpu_mention else []
    values = state.values
    stated = [slot for slot in SLOT_ORDER if slot in state.stated]
    return per_device(bounded_question(
        text=text,
        intent=intent,
        lang=lang,
        model_text=found.text,
        model_score=found.score if found.model is not None else None,
        model_suggestions=found.suggestions,
        generic_fine_tune=bool(values.get("generic_fine_tune", False)),
        gen_tokens=values.get("gen_tokens") if not makes_images else None,  # "生成一張 1024x1024": an image
        stack_models=values.get("stack_models") or [],
        stack_formats=values.get("stack_formats") or {},
        audio_per_day=bool(values.get("audio_per_day", False)),
        live_audio=bool(values.get("live_audio", False)),
        lora_rank=values.get("lora_rank"), lora_adapters=values.get("lora_adapters"), max_loras=values.get("max_loras"),
        **{switch: values.get(switch) for switch in TRAINING_SWITCHES},
        gpu_text=original[gpu_mention.start: gpu_mention.end] if gpu_mention else None,
        unknown_gpu_text=unknown_card,
        no_gpu=not gpus and instance is None and not unknown_card and (says_no_gpu(folded) or board is not None),
        cpu_board=board if not gpus and instance is None and not unknown_card else None,
        host_ram=host_ram(folded),
        unmodelled_engine=unmodelled_engine(folded) if values.get("engine") is None else None,
        unified_memory=bool(values.get("unified_memory", False)), mac_beside=values.get("mac_beside"),
        compare_gpus=values.get("compare_gpus", []),
        compare_engines=values.get("compare_engines") or [],
        compare_counts=compare_counts,
        named_instances={m.instance.gpu_id: m.instance.name for m in (other_instance, instance) if m is not None},
        gpu_set=values.get("gpu_set", []),
        compare_models=model_ids if intent == "compare" and len(model_ids) >= 2 else [],
        asks_capacity=capacity and intent == "gpu_info",
        asks_copies=copies and intent == "check",
        asks_load_ram=asks_load_ram(text),
        logged_oom=shows_oom(text),
        slow_first_token=slow_first_token(text),
        companion_models=values.get("companion_models") or [],
        **parse_api_price(text),
        other_clouds=values.get("other_clouds") or [],
        budget=bool(values.get("budget", False)) or bool(money),
        consumer=bool(values.get("consumer", False)),
        offload_to_ram=bool(values.get("offload_to_ram", False)), host_ram_gb=values.get("host_ram_gb"),
        context_parallel=values.get("context_parallel"), compare_tasks=values.get("compare_tasks") or [],
        compare_formats=values.get("compare_formats") or [],
        asks_precision=bool(values.get("asks_precision")) and "precision" not in state.stated,
        compare_format_counts=values.get("compare_format_counts") or {},
        smi_busy=values.get("smi_busy") or {},
        **money,
        stated=stated,
        clamped=sorted(set(state.clamped), key=state.clamped.index),
        clamped_asked=dict(state.clamped_asked),
        faq_hint=faq_hint,
        gpu_defaulted=defaulted, gpu_variants=variants,
        intent_explicit=explicit,
        notes=state.notes,
        closed_model=closed, unmodelled_model=unmodelled, draft_model=values.get("draft_model"),
        **{slot: values.get(slot) for slot in PLAIN_SLOTS},
        **work,
    ), kb)

