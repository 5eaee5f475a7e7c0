"""One-sentence notices about what the reading changed, or what the verdict alone does not say.

Each returns "" when it has nothing to say: a card's memory said wrongly or modified, a fine-tune read as its base,
several models deployed together, a card no count of which holds a training job's activations, a card that holds
a job but not its rate, a training pick sized without gradient checkpointing.
"""

from __future__ import annotations

import math

from rapidfuzz import fuzz

from bot.reply.cost_view import cloud_name
from bot.reply.formatting import format_label, gb, gpu_name, hours_figure
from bot.reply.i18n import Translator
from bot.reply.model import Answer
from bot.reply.ollama_defaults import ollama_context
from bot.reply.readback import engine_name
from bot.reply.stack import short_of_load, stack_bill
from bot.understand.mention_fit import modified_size
from knowledge.base import KnowledgeBase
from knowledge.engines import load_engine_profiles
from knowledge.names import normalise
from knowledge.schema import GPU
from rules import constants as C
from rules.hardware import usable_gib, visible_gib

GIB_PER_GB = 1024**3 / 1e9
"""A card's GB (datasheet) in GiB: the figures the reply sizes in."""


def reading_notices(answer: Answer, kb: KnowledgeBase, t: Translator) -> dict[str, str]:
    """How the question was read where it differs from what it says: a modified card sized at its memory, a
    memory said wrongly, a fine-tune sized as its base."""
    stock = kb.gpus.get(str(answer.understood.get("modified_card") or ""))
    modified = (t("modified_card", name=stock.name.removeprefix("NVIDIA "),
                  gb=f"{answer.understood.get('memory_gb') or 0:g}", stock=f"{stock.memory_gb:g}")
                if stock is not None else "")
    claimed, asked = answer.understood.get("claimed_memory_gb"), kb.gpus.get(answer.query.gpu or "")
    corrected = ""
    if isinstance(claimed, (int, float)) and asked is not None:
        corrected = (t("claimed_memory", name=asked.name.removeprefix("NVIDIA "), gb=f"{claimed:g}",
                       has=f"{asked.memory_gb:g}")
                     + (t("claimed_memory_modified", gb=f"{claimed:g}")
                        if modified_size(asked, claimed) else ""))
    derived, sized = answer.understood.get("derived_name"), kb.models.get(answer.query.model or "")
    base = ((t("misspelt_name", text=str(derived), name=sized.name) if _misspelt(str(derived), sized.name)
             else t("derived_name", text=str(derived), name=sized.name)) if derived and sized is not None else "")
    assumed = (t("assumed_model", name=sized.name)
               if answer.understood.get("assumed_model") and sized is not None else "")
    if answer.understood.get("family_release") and sized is not None:
        assumed = (t("family_release", name=sized.name) if sized.modality == "audio"
                   else t("family_release_only", name=sized.name))  # "InternLM3": its one release (LOW-210)
    written, card = answer.understood.get("no_such_variant"), kb.gpus.get(answer.query.gpu or "")
    no_such = t("no_such_variant", text=str(written), name=card.name.removeprefix("NVIDIA ")) \
        if written and card is not None else ""
    dies = _devices_per_card(answer, card, t)
    asked_engine = load_engine_profiles().get(str(answer.understood.get("engine_not_on_card") or ""))
    on_mac = bool(answer.understood.get("unified_memory"))
    off_maker = (t("engine_not_on_mac" if on_mac else "engine_not_on_card", engine=asked_engine.name,
                   card=card.name if card is not None else "Mac",
                   makers=" / ".join(asked_engine.hardware.vendors), used=engine_name(answer.query.engine))
                 if asked_engine is not None and asked_engine.hardware is not None and (card is not None or on_mac)
                 else "")
    cloud = answer.query.cloud
    elsewhere = (t("card_not_on_cloud", card=card.name.removeprefix("NVIDIA "), cloud=cloud_name(t, cloud),
                   clouds=" / ".join(cloud_name(t, c) for c in card.only_on))
                 if card is not None and cloud and card.only_on and cloud not in card.only_on else "")
    kind, name = answer.understood.get("unmodelled_kind"), answer.understood.get("unmodelled_name")
    beside = (t(f"unmodelled_{kind}", name=str(name)) + t.sentence_gap
              + t("unmodelled_beside", model=sized.name)
              if kind and name and answer.error is None and sized is not None else "")
    # a context far past the model's own window, beyond what RoPE scaling stretches (YaRN factor 4 at most in the
    # makers' own guides; a 50-million-token "context window" for Qwen3-8B): no card makes the
    # model read it, whatever the cache it would take (audit 28 LOW-87)
    # within RoPE scaling's reach but past the window, a fit is still no yes to reading it (audit 29 M-62: Gemma 2
    # 27B at 32k was an unqualified Yes with its 8,192 window in a footnote)
    window, length = (sized.max_context if sized is not None else None), answer.query.context
    beyond = (t("beyond_window" if length > 4 * window else "beyond_window_scaled", model=sized.name,
                window=f"{window:,}", asked=f"{length:,}")
              if sized is not None and window and length and length > window and answer.query.task == "inference"
              else "")
    rollout = answer.understood.get("rollout_engine")
    rollouts = t("rollout_not_sized", engine=engine_name(rollout)) if rollout else ""
    return {"rollout_not_sized": rollouts, "modified_card": modified, "claimed_memory": corrected,
            "derived_name": base, "assumed_model": assumed,
            "no_such_variant": no_such, "devices_per_card": dies, "engine_not_on_card": off_maker,
            "card_not_on_cloud": elsewhere,
            "no_bf16": (t("no_bf16_asked", card=card.name.removeprefix("NVIDIA "),
                          arch=(card.architecture or "").split(" ")[0])
                        if card is not None and any(a.reason == "asked-bf16-no-bf16" for a in answer.assumptions)
                        else ""),
            "unmodelled_beside": beside, "beyond_window": beyond, "ollama_tier": _ollama_tier(answer, kb, t),
            "user_base": _user_base(answer, t), "logged_capacity": _logged_capacity(answer, t),
            "smi_busy": _smi_busy(answer, kb, t)}


def _devices_per_card(answer: Answer, card: GPU | None, t: Translator) -> str:
    """A card sized per device the runtime sees (an MI250X's two GCDs): the figures are per GCD, and a count of
    modules the question stated is that many GCDs times two, which the header alone does not say."""
    if card is None or card.devices_per_card == 1:
        return ""
    module = card.name.removesuffix(" GCD")
    count = answer.query.gpu_count
    if count is None:
        return t("devices_per_card", card=module, n=card.devices_per_card, gb=card.memory_gb)
    return t("devices_per_card_count", card=module, n=card.devices_per_card, gb=card.memory_gb,
             modules=count / card.devices_per_card, devices=count,
             unit=t("module_one" if count == card.devices_per_card else "module_many"))


def _smi_busy(answer: Answer, kb: KnowledgeBase, t: Translator) -> str:
    """Cards of a pasted nvidia-smi table that another job already uses: the figures count them free."""
    busy = answer.understood.get("smi_busy")
    if not isinstance(busy, dict) or not busy:
        return ""
    cards = t.list_sep.join(f"GPU {index}" for index in sorted(busy))
    used = max(busy.values()) / 1024
    free = (answer.query.gpu_count or 0) - len(busy)
    name = gpu_name(kb, answer.query.gpu) if answer.query.gpu in kb.gpus else "GPU"
    return t("smi_busy", cards=cards, gib=f"{used:.1f}", free=str(max(free, 0)), card=name)


SHORT_REQUEST_TOKENS = 4096
"""A chat-sized request (prompt and reply), for what a logged cache holds when requests are shorter than the cap."""


def companions_line(answer: Answer, kb: KnowledgeBase, t: Translator) -> str:
    """The smaller models of a pipeline beside the generator sized ("bge-m3 + reranker + Qwen2.5-14B"): their
    16-bit weights, so the total asked for is not read as the generator's alone (audit 31 HIGH 79)."""
    named = answer.understood.get("companion_models")
    sized = kb.models.get(answer.query.model or "")
    if not isinstance(named, list) or not named or sized is None:
        return ""
    parts = [t("companion_part", name=kb.models[m].name, gib=f"{kb.models[m].params_b * 2e9 / 2**30:,.1f}")
             for m in named if m in kb.models]
    return t("companions", generator=sized.name, parts=t.list_sep.join(parts)) if parts else ""


QUEUE_FULL_PERCENT = 90.0
"""KV-cache use past which vLLM's waiting requests wait for room in the cache, not for a scheduling step."""


def logged_queue_line(answer: Answer, t: Translator) -> str:
    """vLLM's metrics pasted with requests waiting and the KV cache full: why they wait, and what makes room
    (audit 31 M-93: the reply had been an unrelated FAQ)."""
    queue = answer.understood.get("logged_queue")
    if not isinstance(queue, list) or len(queue) != 3:
        return ""
    running, pending, used = queue
    if pending <= 0 or used < QUEUE_FULL_PERCENT:
        return ""
    return t("logged_queue", running=f"{running:,.0f}", pending=f"{pending:,.0f}", used=f"{used:g}")


def _logged_capacity(answer: Answer, t: Translator) -> str:
    """What a pasted engine log's own KV-cache size holds at the requests' length (85,040 tokens: 10 of 8,192),
    whatever card it ran on, and a request cap above it (vLLM then preempts requests when the cache runs out)."""
    logged, context = answer.understood.get("logged_kv_tokens"), answer.query.context
    if not isinstance(logged, int) or not context or answer.query.task != "inference":
        return ""
    held = logged // context
    line = t("logged_capacity" if held else "logged_capacity_none", tokens=f"{logged:,}", n=f"{held:,}",
             context=f"{context:,}")
    users = answer.query.batch or 1
    if context > 2 * SHORT_REQUEST_TOKENS and users <= max(held, 1):
        # the length is the engine's cap, not each request's: a paged cache gives a request only what it uses
        line += t.sentence_gap + t("logged_capacity_shorter", short=f"{SHORT_REQUEST_TOKENS:,}",
                                   m=f"{logged // SHORT_REQUEST_TOKENS:,}")
    if users > max(held, 1):
        # "will this handle ~50 concurrent chats?": the log's pool divided among them is each one's length
        line += t.sentence_gap + t("logged_capacity_users", users=f"{users:,}", each=f"{logged // users:,}")
    cap = answer.understood.get("max_num_seqs")
    if isinstance(cap, int) and cap > held and answer.query.engine == "vllm":
        line += t.sentence_gap + t("logged_capacity_cap", cap=f"{cap:,}", n=f"{held:,}")
    return line


_BASE_PERIODS = {"day": {"en": "day", "zh-Hans": "日活"}, "week": {"en": "week", "zh-Hans": "周活"},
                 "month": {"en": "month", "zh-Hans": "月活"}}


def _user_base(answer: Answer, t: Translator) -> str:
    """A user base stated with no load at once: what sizes the cards instead, and that the figures are for one."""
    base, period = answer.understood.get("user_base"), answer.understood.get("user_base_period") or "day"
    if not isinstance(base, int) or (answer.query.batch or 1) > 1 or answer.understood.get("qps"):
        return ""
    return t("user_base", n=f"{base:,}", period=t.pick(_BASE_PERIODS, str(period)))


def _ollama_tier(answer: Answer, kb: KnowledgeBase, t: Translator) -> str:
    """Ollama's default context follows the machine's VRAM in all: sized at one card's tier, a pick of several
    cards would start the model at a longer one (8 RTX 4090s: 131,072 rather than 32,768), with a cache that no
    longer fits, unless the context is set."""
    if not any(a.reason == "ollama-vram-default" for a in answer.assumptions) or not answer.picks:
        return ""
    if answer.check is not None and (answer.picks[0].gpu, answer.picks[0].count) != (answer.check.gpu,
                                                                                      answer.check.count):
        # the set-up asked about leads the reply: another card's default, or two of the one card the asker has,
        # is not news before "I read this as" (audit 30 LOW-129, audit 32 LOW-174)
        return ""
    top, sized = answer.picks[0], kb.models.get(answer.query.model or "")
    card = kb.gpus.get(top.gpu)
    if card is None or sized is None or not answer.query.context:
        return ""
    vram = visible_gib(card) * top.count
    started = ollama_context(sized, vram)
    if started <= answer.query.context:
        return ""
    return t("ollama_tier", count=top.count, card=gpu_name(kb, top.gpu), vram=f"{vram:,.0f}",
             started=f"{started:,}", context=f"{answer.query.context:,}", plain=str(answer.query.context),
             ratio=f"{started / answer.query.context:.3g}")


def _misspelt(written: str, name: str) -> bool:
    """"deepsek-r1" for DeepSeek-R1: a spelling, not a fine-tune built on it (audit 29 LOW-102)."""
    return fuzz.ratio(normalise(written), normalise(name)) >= MISSPELT_RATIO


MISSPELT_RATIO = 85.0
"""Similarity (rapidfuzz ratio of the names' canonical forms, knowledge.names.normalise) from which a name read as
a model's is its spelling: "deepsekr1" / "deepseekr1" is 95; "openhermes2.5mistral7b" / "mistral7b" is 58."""


def stack_line(t: Translator, answer: Answer) -> str:
    """"Together on 1× A10: Qwen3-Embedding-8B 14.9 GiB + Qwen3-Reranker-4B 8.1 GiB + 0.5 GiB …": what each model
    deployed on the same cards takes, and their sum (the check above is for the sum)."""
    parts = " + ".join(f"{p.name} {gb(p.per_gpu_gb)} GiB" for p in answer.stack)
    extra = C.CUDA_CONTEXT_GIB * (len(answer.stack) - 1)
    total = sum(p.per_gpu_gb for p in answer.stack) + extra
    key = ("stack_line_checked" if answer.check is not None
           else "stack_line_picks" if answer.stack_picks_checked else "stack_line")
    line = t(key, parts=parts, extra=gb(extra), n=len(answer.stack) - 1, total=gb(total))
    reserving = [p for p in answer.stack if p.engine in ("vllm", "sglang")]
    if reserving and answer.check is not None and answer.check.fits:
        # a reserving engine takes the memory it finds: each instance capped at its share leaves the others theirs
        card = answer.check.gpu_memory_gb / GIB_PER_GB
        shares = ", ".join(f"{p.name} {math.ceil(p.per_gpu_gb / card * 20) / 20:.2f}" for p in reserving)
        line += " " + t("stack_cap_reserving", engine=engine_name(reserving[0].engine), shares=shares)
    billed = stack_bill(answer)
    if billed is not None:
        parts_billed, per_hour, currency = billed
        line += t.sentence_gap + t("stack_bill", parts=t("list_sep").join(
            f"{p.name} {p.serving_cards:,}× {p.serving_gpu_name or p.serving_gpu}" for p in parts_billed),
            per_hour=f"{per_hour:,.2f}", per_month=f"{per_hour * C.HOURS_PER_MONTH:,.0f}", currency=currency,
            first=parts_billed[0].name)
    return line


def activations_exceed_line(answer: Answer, kb: KnowledgeBase, t: Translator) -> str:
    """Why the card asked about ("how many H100 nodes?") is missing from a training job's picks when no count of
    it can hold the job: the activations alone exceed it, and data-parallel sharding (FSDP, ZeRO) does not divide
    them; context parallelism would, and is not sized here."""
    named = kb.gpus.get(answer.query.gpu or "")
    if (named is None or answer.check is not None or answer.estimate is None or answer.query.task == "inference"
            or any(p.gpu == named.id for p in answer.picks)):
        return ""
    activations = answer.estimate.breakdown.activations
    if activations <= usable_gib(named):
        return ""
    return t("activations_exceed_card", gpu=gpu_name(kb, named.id), act=gb(activations),
             context=f"{answer.query.context or 0:,}")


def _held_at_fix(answer: Answer, kb: KnowledgeBase, t: Translator) -> str:
    """"最多多少并发" on cards whose weights alone overflow them: the sequences they hold at the quantisation the
    check offers, which is what the question then asks (audit 36 M-139: one L20, left unanswered beside "FP8 —
    30.9 GiB")."""
    check, e = answer.check, answer.estimate
    if (not answer.understood.get("asks_concurrency") or check is None or check.fits or e is None
            or e.breakdown.kv_cache <= 0 or (answer.query.batch or 1) != 1):
        return ""
    if check.limit_gb - (e.breakdown.weights + e.breakdown.activations + e.breakdown.overhead) > 0:
        return ""  # the weights fit: the count as asked is the answer (rate_not_kept_line)
    fix = next((s for s in check.suggestions if s.kind == "quantise" and s.gpu is None and s.count is None
                and s.memory_per_gpu_gb is not None and s.memory_per_gpu_gb <= check.limit_gb), None)
    if fix is None or fix.memory_per_gpu_gb is None:
        return ""
    kv_per_card = e.breakdown.kv_cache
    spare = check.limit_gb - (fix.memory_per_gpu_gb - kv_per_card)
    return t("sequences_held_at_fix", count=check.count, gpu=gpu_name(kb, check.gpu),
             fix=format_label(fix.quant or fix.precision or ""), n=max(0, int(spare // kv_per_card)),
             context=f"{answer.query.context or 0:,}", each=f"{kv_per_card:.2f}")


def rate_not_kept_line(answer: Answer, kb: KnowledgeBase, t: Translator) -> str:
    """"Is a T4 enough for 500 pairs a second?": the memory verdict answers only half. When the cards asked about
    hold the job but the serving plan for the rate asked needs more of them, the reply says so next to it."""
    check, plan = answer.check, answer.serving
    e = answer.estimate
    at_fix = _held_at_fix(answer, kb, t)
    if at_fix:
        return at_fix
    if (answer.understood.get("asks_concurrency") and plan is None and check is not None
            and e is not None and e.breakdown.kv_cache > 0 and (answer.query.batch or 1) == 1):
        # "128k 上下文能支持几个并发" on cards that hold the weights but barely one sequence, or on a card known by
        # its memory alone ("24G 的卡 … 最多几路并发", which no serving plan is laid out on: audit 34 HIGH 98): the
        # count is the answer
        left = check.limit_gb - (e.breakdown.weights + e.breakdown.activations + e.breakdown.overhead)
        held = max(0, int(left // e.breakdown.kv_cache))
        small_cache = answer.query.kv_cache in ("fp8", "int8", "int4")  # already quantised: not offered again
        return t("sequences_held_asked_small_cache" if small_cache else "sequences_held_asked",
                 count=check.count, gpu=gpu_name(kb, check.gpu), n=held,
                 context=f"{answer.query.context or 0:,}", each=f"{e.breakdown.kv_cache:.1f}",
                 left=f"{max(0.0, left):.1f}")
    wanted, alone = answer.understood.get("tokens_per_s_per_user"), answer.speed.get("decode_tokens_per_s")
    if (check is not None and check.fits and plan is None and isinstance(wanted, (int, float))
            and isinstance(alone, (int, float)) and alone < wanted):
        # no plan (a card with no compute figure), but even one sequence alone decodes slower than asked
        return t("speed_not_kept_alone", count=check.count, gpu=gpu_name(kb, check.gpu), v=f"{alone:,.0f}",
                 wanted=f"{wanted:,.0f}")
    if (check is not None and check.fits and answer.understood.get("logged_oom")
            and answer.understood.get("unmodelled_engine")):
        # a pasted OOM on an engine sized here as another (TGI as transformers): the fit is this sizing's, not the
        # log's (audit 30 HIGH 65: "It fits, with nothing spilled" above the OOM)
        return t("oom_logged_other_engine", engine=str(answer.understood.get("unmodelled_engine")))
    if (check is not None and (check.fits or check.tight) and answer.understood.get("logged_oom")
            and not answer.understood.get("unmodelled_engine")):
        # a pasted start-up failure for want of memory ("No available memory for the cache blocks") on the engine
        # sized here: the log settles what a figure within a few percent cannot (audit 31 M-89)
        return t("oom_logged_same_engine", count=check.count, gpu=gpu_name(kb, check.gpu))
    took, deadline = answer.speed.get("train_hours"), answer.speed.get("deadline_hours")
    if check is not None and check.fits and took and deadline and took > deadline:
        # "can 4 A100s train a 7B on 100B tokens within 3 days?": the memory fits, the deadline does not (audit 30
        # HIGH 71: "Yes" above a time 28× the one given)
        return t("deadline_not_kept", count=check.count, gpu=gpu_name(kb, check.gpu), took=hours_figure(took),
                 deadline=hours_figure(deadline), cards=f"{answer.speed.get('cards_for_deadline') or 0:,.0f}")
    short = short_of_load(answer)
    if check is not None and check.fits and short:
        return t("stack_rate_not_kept", count=check.count, gpu=gpu_name(kb, check.gpu),
                 parts=", ".join(t("stack_part_cards", name=p.name, cards=f"{p.serving_cards:,}") for p in short))
    if check is None or plan is None or not check.fits or plan.gpu != check.gpu:
        return ""
    if not plan.met and plan.binding in ("speed", "ttft"):
        # "200 tokens within 2 s on an L4?": the memory fits, the speed asked does not, on any number of them
        return t("speed_not_kept", count=check.count, gpu=gpu_name(kb, check.gpu))
    cards = plan.replicas * plan.gpus_per_replica
    if cards <= check.count and plan.targets.get("busy_qps"):
        # the users fit in memory, but kept busy they start more prompts than the cards prefill (audit 26 M-32:
        # "Yes" above the paragraph that says the plan does not keep up)
        return t("busy_not_kept", count=check.count, gpu=gpu_name(kb, check.gpu),
                 kept=f"{plan.targets.get('plan_qps', 0.0):.3g}")
    if cards <= check.count:
        return ""
    return t("rate_not_kept", count=check.count, gpu=gpu_name(kb, check.gpu), cards=f"{cards:,}")


def other_stage_line(answer: Answer, kb: KnowledgeBase, t: Translator) -> str:
    """The second ZeRO stage asked about, on the cards asked: its need and whether it fits, then at micro-batch 1
    when the batch asked does not."""
    other = answer.other_stage
    if not other:
        return ""
    cards = f"{other['count']}× {gpu_name(kb, other['gpu'])}"
    line = t("other_stage", stage=other["stage"], mine=other["mine"], gb=gb(other["per_gpu_gb"]),
             cards=cards, limit=gb(other["limit_gb"]),
             verdict=t("other_stage_fits" if other["fits"] else "other_stage_short"))
    if "batch_one_gb" in other:
        line += t("other_stage_batch_one", gb=gb(other["batch_one_gb"]),
                  verdict=t("other_stage_fits" if other["batch_one_fits"] else "other_stage_short"))
    return line


def other_kv_line(answer: Answer, kb: KnowledgeBase, t: Translator) -> str:
    """The KV-cache type weighed beside the running set-up: sequences of the length asked one replica holds with
    it and with the cache it runs, and the engine's batch when that is smaller."""
    other = answer.other_kv
    if not other:
        return ""
    if "other_gib" in other:
        return t("other_kv_sizes", kv=other["kv_cache"], now_kv=other["now_kv"], other=gb(other["other_gib"]),
                 now=gb(other["now_gib"]), diff=gb(abs(other["other_gib"] - other["now_gib"])))
    line = t("other_kv", kv=other["kv_cache"], context=f"{other['context']:,}", now=f"{other['now']:,}",
             other=f"{other['other']:,}", cards=f"{other['count']}× {gpu_name(kb, other['gpu'])}")
    seqs = other.get("max_num_seqs")
    if seqs and seqs < other["other"]:
        line += t("other_kv_engine_cap", seqs=f"{seqs:,}")
    return line


def engine_length_line(answer: Answer, kb: KnowledgeBase, t: Translator) -> str:
    """Whether the engine starts with the length flag written, beside requests shorter than it."""
    figure = answer.engine_length
    if not figure:
        return ""
    engine = engine_name(answer.query.engine)
    cards = f"{figure['count']}× {gpu_name(kb, figure['gpu'])}"
    if figure["starts"]:
        line = t("engine_length_starts", engine=engine, length=f"{figure['length']:,}", cards=cards)
    else:
        line = t("engine_length_refused", engine=engine, length=f"{figure['length']:,}", cards=cards,
                 longest=f"{figure['longest']:,}")
    logged = figure.get("logged")
    if logged:
        # the log is their own measurement of this set-up: it decides what starts and what the cache holds
        key = "engine_length_logged_short" if logged < figure["length"] else "engine_length_logged"
        line += t.sentence_gap + t(key, tokens=f"{logged:,}", length=f"{figure['length']:,}",
                                                    n=f"{logged // max(1, figure['requests']):,}",
                                                    requests=f"{figure['requests']:,}")
    return line


def weighed_layout_line(answer: Answer, kb: KnowledgeBase, t: Translator) -> str:
    """The replica layout weighed: the users split over its replicas, each replica's need, its per-user decode
    and what each holds, or that it does not fit."""
    layout = answer.weighed_layout
    if not layout:
        return ""
    config = t("weighed_layout_config", replicas=layout["replicas"], cards=layout["cards"],
               gpu=gpu_name(kb, layout["gpu"]))
    if not layout["fits"]:
        return t("weighed_layout_short", config=config, users=f"{layout['users_each']:,}",
                 gb=gb(layout["per_gpu_gb"]), limit=gb(layout["limit_gb"]))
    return t("weighed_layout", config=config, users=f"{layout['users_each']:,}", gb=gb(layout["per_gpu_gb"]),
             limit=gb(layout["limit_gb"]), speed=f"{layout['decode_tokens_per_s']:,.0f}",
             each=f"{layout['sequences_each']:,}", total=f"{layout['sequences_each'] * layout['replicas']:,}")


def pick_setup(answer: Answer, checkpointing: bool | None, t: Translator) -> str:
    """A training pick run otherwise than the estimate above ("without gradient checkpointing": a card that holds
    the job without it trains faster), so its memory figure is not read as a contradiction."""
    sized = next((a.value for a in answer.assumptions if a.field == "gradient_checkpointing"), None)
    if checkpointing is None or sized is None or checkpointing == sized:
        return ""
    return t("pick_with_checkpointing" if checkpointing else "pick_without_checkpointing")


def vae_tiling_line(answer: Answer, kb: KnowledgeBase, t: Translator) -> str:
    """An image pipeline whose decode sets the peak (SDXL's VAE upcast to fp32) that does not fit the card asked
    about: VAE tiling, with model offload, is how such a card runs it, but the tiled decode's memory is not
    modelled here, so it is named without a figure (audit 29 M-63)."""
    model, check = kb.models.get(answer.query.model or ""), answer.check
    if (model is None or check is None or check.fits or model.arch != "diffusion" or answer.query.task != "inference"
            or not model.details.get("vae_decodes_fp32_when_fp16")):
        return ""
    return t("vae_tiling_hint", model=model.name)
