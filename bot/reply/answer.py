"""The one answer pipeline: `Question` → `Answer`. Every front end (ask, console, Slack) calls `answer()`.

It fills the slots the question left open with stated defaults, asks the rules for an estimate, the
ranked picks and (for "can X run on Y") the fit check, and attaches the FAQ entries the situation calls
for. It produces data only; the words come from the templates in `bot/render.py`.
"""

from __future__ import annotations

from dataclasses import replace

import rules
from bot.reply.all_cards import all_cards_figure
from bot.reply.attention_layout import better_layout, weighs_attention_layouts
from bot.reply.budget import budget_capacity, cheapest_variant
from bot.reply.budget_money import within_budget_first
from bot.reply.candidate_picks import MAX_PICKS, most_cards, named_card_picks, pool_picks
from bot.reply.capacity import capacity, max_context_out, memory_card, side_by_side
from bot.reply.checkpointing_both import other_checkpointing_figure
from bot.reply.cloud_choice import cloud_choice
from bot.reply.compare_picks import compared_picks_of
from bot.reply.convert import (
    check_out,
    estimate_out,
    finite,
    pick_out,
    query_of,
    understood_of,
    with_suggestion_speeds,
)
from bot.reply.convert_picks import compared_picks, roomier_count
from bot.reply.copies import copies_figure
from bot.reply.cost import attach_money, compare_prices, home_cloud_first
from bot.reply.deadline import assumed_deadline, meet_deadline, within_reach
from bot.reply.defaults import (
    DEFAULT_CONTEXT,
    MAX_INFERENCE_GPUS,
    TOKEN_ARCHS,
    gpu_assumptions,
    noted_assumptions,
    resolve_model,
    samples_as_tokens,
    workload_for,
)
from bot.reply.engine_compare import engines_compared
from bot.reply.engine_hardware import engine_for_card
from bot.reply.faq import faq_for
from bot.reply.fewer_cards import fewest_holding
from bot.reply.image_service import cheapest_service_first, images_wanted_per_minute
from bot.reply.load_ram import load_ram_figure
from bot.reply.logged_oom import room_makers
from bot.reply.mac_beside import mac_beside_figure
from bot.reply.media_figures import asked_card_image_speed, media_speed
from bot.reply.mixed import mixed_cards, mixed_check_out
from bot.reply.model import (
    REFERENCE_RAM,
    Answer,
    Assumption,
    ConfigRef,
    host_memory_of,
)
from bot.reply.offload import host_ram_check, ktransformers_split, offload_as_asked
from bot.reply.ollama_defaults import machine_vram_gib
from bot.reply.one_more_card import fewer_cpu_experts, one_more_card
from bot.reply.pick_order import named_scale_out_gives_way
from bot.reply.plan_speed import timed_as_planned
from bot.reply.pool import candidate_gpus
from bot.reply.precision_defaults import fp16_on_pre_ampere
from bot.reply.pricing import hourly_prices, price_choice
from bot.reply.quantised_path import quantised_path_figure
from bot.reply.reasoning_length import reasoning_length_figure
from bot.reply.request_cap import lowered_request_cap
from bot.reply.rules_choices import chosen_assumptions
from bot.reply.serving import (
    as_replicas,
    cheapest_for_the_load,
    copy_a_card,
    fits_at,
    one_replica,
    replica_layout,
    sets_serving_target,
    users_of,
)
from bot.reply.side_figures import (
    cpu_only_figure,
    engine_length_figure,
    lighter_task_figure,
    mac_speed,
    mac_speed_at_fix,
    other_engine_figure,
    other_kv_figure,
    other_stage_figure,
    serving_engine_speed,
    token_speed,
)
from bot.reply.smaller import smaller_for
from bot.reply.speed_target import meet_speed_target
from bot.reply.stack import others_alone, room_for_others, texts_for, with_stack
from bot.reply.variant import rented_variant
from bot.reply.weighed_layout import fewer_in_tensor_parallel, weighed_layout_figure
from bot.reply.whole_instance import on_whole_instances, widened
from bot.reply.work_money import rank_by_money
from bot.understand.question import PRETRAINING_TOKENS, Question
from knowledge.base import KnowledgeBase
from knowledge.loader import default_knowledge
from rules.constants import GPUS_PER_NODE
from rules.engine_profile import (
    measures_free_memory,
    profile_for,
    reservation_fraction,
    reserves_up_front,
    same_size_kv_cache,
)
from rules.fit import as_chosen, placeable, reserves_share_of_card
from rules.limits import unsupported_format
from rules.types import Pick

MOVE_AWAY = frozenset({"cpu-layers", "cpu-experts", "model-offload", "more-gpus", "bigger-gpu", "pipeline-parallel",
                       "one-card-replicas"})
"""Fixes that leave the cards or the memory asked about (system RAM, more or other cards)."""

TRAINING_SHORT_CONTEXT = 2048
"""The shortest sample length a fine-tune with no length stated is offered first as its fix: the max_seq_length of
the common single-GPU QLoRA recipes (Unsloth's and TRL's notebooks use 2,048)."""
MAX_TRAINING_GPUS = 64
"""ZeRO/FSDP data parallelism across nodes of 8; no alternative above 64 cards (8 nodes) is offered."""

SOURCE_NOTE = "sizing rules (rules/); GPU and model facts from knowledge/data with per-entry sources"


def answer(question: Question, kb: KnowledgeBase | None = None) -> Answer:
    """Size what `question` asks about. Never raises for a well-formed `Question`."""
    kb = kb or default_knowledge()
    base = dict(intent=question.intent, understood=understood_of(question), sources=[SOURCE_NOTE],
                suggestions=list(question.model_suggestions))
    if question.intent in ("help", "unknown"):
        return Answer(query=query_of(question, None, question.gpu_count), **base)
    if question.unmodelled_model and question.model is None and question.intent != "faq":
        kind, name = question.unmodelled_model
        base["understood"] = {**understood_of(question), "unmodelled_kind": kind, "unmodelled_name": name}
        return Answer(query=query_of(question, None, question.gpu_count), error="unmodelled-model", **base)
    if question.unmodelled_model and question.model is not None:
        kind, name = question.unmodelled_model
        base["understood"] = {**understood_of(question), "unmodelled_kind": kind, "unmodelled_name": name}
    if question.closed_model and question.model is None and question.intent not in ("faq", "gpu_info"):
        understood = {**understood_of(question), "closed_model": question.closed_model}
        base.update(suggestions=[], understood=understood)
        return Answer(query=query_of(question, None, question.gpu_count), error="closed-model", **base)
    if (by_budget := budget_capacity(question, kb)) is not None:
        return answer(by_budget, kb)  # "the biggest model 2,000 USD a month serves": what those cards hold
    if question.intent == "faq":
        result = Answer(query=query_of(question, None, question.gpu_count), **base)
        result.faq = faq_for(question, None, result, kb)
        return result
    if question.intent == "gpu_info":
        result = Answer(query=query_of(question, None, question.gpu_count), **base)
        card = kb.gpus.get(question.gpu or "") or (memory_card(question, kb) if question.memory_gb else None)
        if card is not None and (question.asks_capacity or question.memory_gb):
            result.capacity = capacity(question, card, question.gpu_count or 1, kb)
        if question.faq_hint in kb.faq:  # "what does the H100's Transformer Engine do?": the card and the entry
            result.faq = [question.faq_hint or ""]
        return attach_money(result, question, None, kb, (card, question.gpu_count or 1))

    gpu = kb.gpus.get(question.gpu) if question.gpu else None
    if (runnable := engine_for_card(question, gpu)) is not None:
        return answer(runnable, kb)  # "TensorRT-LLM on an RX 7900 XTX": it runs on NVIDIA only; sized with vLLM
    others = others_alone(question, kb, answer)  # models deployed beside this one on the same cards
    question = texts_for(question, question.model, kb)
    if gpu is None and question.memory_gb:
        gpu = memory_card(question, kb)
    model = resolve_model(question, kb)
    if model is None:
        missing = ["model"] + ([] if question.task else ["task"]) + ([] if question.budget else ["budget"])
        result = Answer(query=query_of(question, None, question.gpu_count), missing=missing,
                        **base)
        result.compare = list(question.compare_gpus) if question.intent == "compare" else []
        if result.compare and (question.asks_cost or question.hours):
            result.prices = compare_prices(kb, question)  # "rent an H200 vs a B200 for an hour": their prices
            result.missing = [] if result.prices else result.missing
        result.faq = faq_for(question, None, result, kb)
        return result

    if question.engine == "unsloth" and question.zero_stage in (2, 3) and question.task not in (None, "inference"):
        # Unsloth runs a whole copy on each card, no ZeRO or FSDP: the sharding asked is DeepSpeed's on transformers
        # (audit 39 M-162: "用两张卡 ZeRO-2 呢？" after Unsloth was sharded and offloaded "under Unsloth")
        sharded = answer(question.model_copy(update={"engine": None}), kb)
        sharded.assumptions = [a for a in sharded.assumptions if a.field != "engine"] + [
            Assumption(field="engine", value="transformers", reason="unsloth-no-sharding")]
        return sharded
    if (offloaded := offload_as_asked(question, model, gpu) or ktransformers_split(question, model)) is not None:
        return answer(offloaded, kb)  # "with partial offload": the split the suggestion would choose, as asked
    if (most := most_cards(model, question)) is not None:
        # "DeepSeek-R1 on 10,000 RTX 3060s": a pipeline stage holds at least one layer, so beyond a node's cards per
        # layer the rest would sit idle; bounded, and said so (audit 23 M-24: 1,250 stages of a 61-layer model)
        question = question.model_copy(update={"gpu_count": most,
                                               "clamped": sorted({*question.clamped, "gpu_count"})})
        base["understood"] = understood_of(question)
    cards = mixed_cards(question, kb)  # "a 3090 and a 3060": one machine, checked card by card
    workload, assumptions = workload_for(question, model, gpu, machine_vram_gib(question, gpu, cards))
    if weighs_attention_layouts(question, workload):
        return better_layout(question, kb, answer)  # MLA for many users: data-parallel attention weighed too
    if workload.task == "inference" and question.tokens and not question.output_tokens and model.arch == "decoder":
        # "how long for 10B tokens?" of a served model: a volume to generate, not training tokens, which an
        # inference job never totals (audit 35 HIGH 109: parsed, then neither timed nor priced)
        question = question.model_copy(update={"output_tokens": question.tokens, "tokens": None})
    if (rented := rented_variant(question, workload, kb)) is not None:
        return answer(rented, kb)  # "a Lambda A100": the variant that cloud rents cheapest for the job
    question, sampled = samples_as_tokens(question, workload)
    if sampled is not None:
        assumptions.append(sampled)
    if workload.kv_cache is not None and workload.task != "inference":
        # Training keeps no KV cache: its precision changes nothing, so it is set aside rather than refused.
        assumptions.append(Assumption(field="kv_cache", value=workload.kv_cache, reason="training-no-kv-cache"))
        workload = replace(workload, kv_cache=None)
    offered = profile_for(workload).kv_cache.bytes_per_element
    if workload.kv_cache is not None and workload.kv_cache not in offered and (
            same := same_size_kv_cache(workload.kv_cache, offered)) is not None:
        # "vLLM with an int8 KV cache": its fp8 cache is the same size, so the question is answered with it
        assumptions.append(Assumption(field="kv_cache", value=same, reason="kv-cache-same-size"))
        workload = replace(workload, kv_cache=same)
    if workload.kv_cache is not None and workload.kv_cache not in offered:
        understood = {**understood_of(question), "engine": workload.engine, "accepted": sorted(offered)}
        base.update(understood=understood)
        return Answer(query=query_of(question, workload, question.gpu_count), error="kv-cache-unsupported", **base)
    if question.model is None:
        moe = model.moe is not None  # "314B MoE with 86B active": every expert in memory, the active ones timed
        assumptions.insert(0, Assumption(
            field="model", value=f"{model.params_b:g}B" + (f", {model.active_params:g}B active" if moe else ""),
            reason="generic-moe-model" if moe else "generic-model"))
    assumptions.extend(noted_assumptions(question, workload))
    instances = list(kb.instance_families.values())
    count = question.gpu_count or 1
    assumptions.extend(gpu_assumptions(question))
    max_count = MAX_TRAINING_GPUS if workload.task != "inference" else MAX_INFERENCE_GPUS

    pool, narrowed = candidate_gpus(question, kb)
    choice = price_choice(question)
    priced = hourly_prices(kb, choice)
    workload, budget_note = cheapest_variant(question, workload, pool, instances, max_count, priced, kb)
    if budget_note is not None:
        assumptions = [a for a in assumptions if a.field not in ("precision", "quant")] + [budget_note]
    picks: list[Pick] = []
    if gpu is not None and gpu.id in kb.gpus and question.intent in ("recommend", "check") and not cards:
        named, lowered = named_card_picks(question, workload, gpu, instances, max_count, count, priced)
        if lowered is not None:
            return answer(lowered, kb)
        picks.extend(named)
    if narrowed:
        # the cheapest asked for (or llama.cpp, or a GeForce card named) already brings GeForce in: only the
        # vendor narrows the pool then
        with_geforce = any(g.form == "consumer" for g in pool)
        other_vendor = any(g.vendor.lower() != "nvidia" for g in pool)  # an AMD or Intel card named brings its own
        pool_value = ("consumer" if question.consumer else "with-named-vendor" if other_vendor
                      else "nvidia" if with_geforce else "nvidia-datacenter-workstation")
        reason = ("consumer-pool" if question.consumer else "named-vendor-pool" if other_vendor
                  else "vendor-pool" if with_geforce else "default-pool")
        assumptions.append(Assumption(field="pool", value=pool_value, reason=reason))
    if question.intent == "compare" and question.compare_gpus:
        pool, picks = compared_picks_of(question, workload, kb, instances, max_count, priced, assumptions)
    else:
        picks = pool_picks(question, workload, gpu, pool, instances, max_count, priced, picks)
    if question.intent != "compare" and any(p.fits for p in picks):
        # A card that cannot hold the job at any count is no recommendation beside cards that can (the named
        # card's "No" and what would fit are the check's to say).
        # The card named stays when replicas of it serve the users no one set of it holds (20,000 users of a 70B
        # on H100s: 58 replicas of 8); as_replicas lays it out below.
        picks = [p for p in picks if p.fits or (gpu is not None and p.gpu_id == gpu.id and users_of(question) > 1
                                                and replica_layout(question, workload, gpu, p.count,
                                                                   fits=False) is not None)]
    picks = room_for_others(picks, others, keep_if_none=gpu is None)
    # "cheaper?" about a training job of known length, on a card named: the job's bill decides, not the hourly rate
    # (audit 38 HIGH-118: an RTX A6000 at 78.50 USD for the job led the A100 named at 74.43, the H100 PCIe at 54.15
    # cut from the list)
    job_billed = (gpu is not None and question.budget and question.intent != "compare"
                  and workload.task != "inference" and bool(question.tokens))
    if job_billed:
        picks = rank_by_money(picks, workload, kb, choice, question)
    if gpu is not None and question.intent != "compare":
        picks = picks[:MAX_PICKS]
    if (gpu is not None and len(picks) > 1 and picks[0].gpu_id == gpu.id and picks[0].count != question.gpu_count
            and picks[0].tight and not picks[1].tight):
        # more of the card named holds the job only tightly: the next count of it that holds the job with room
        # answers "how many H800s" (4 rather than a tight 2); failing that (32 T4s with 0.3 GiB free for a 9B
        # LoRA) it stays listed, after a set-up that holds it with room
        roomier = roomier_count(picks[0], workload, gpu, instances, priced)
        if roomier is not None:
            picks = [roomier, *picks[1:]]
        elif picks[0].count > GPUS_PER_NODE:
            picks = picks[1:] + picks[:1]
        # else one machine of the card named holds it, tightly: still the answer to "how many H800s", said tight
    assumed = assumed_deadline(picks, workload, question, kb)
    if assumed is not None:
        # no deadline and years on the fewest cards: the picks finish within a month, said among the assumptions
        picks = meet_deadline(picks, workload, question.model_copy(update={"hours": assumed[0]}), kb, instances,
                              priced)
        assumptions.append(Assumption(field="hours", value=assumed[0], reason="deadline-assumed"))
    picks = meet_deadline(picks, workload, question, kb, instances, priced)
    if question.hours or assumed is not None:
        picks = within_reach(picks)
    if gpu is None and (question.budget or ((question.asks_cost or question.hours) and question.cloud
                                            and users_of(question) > 1)):
        # the bill asked on a cloud for a load: the set-ups by money per useful work there, so the monthly figure
        # is the cheapest that serves it, not an 8-GPU box billed whole at twice a 4-GPU one's (audit 30 HIGH 69)
        picks = rank_by_money(picks, workload, kb, choice, question)
    if gpu is None and question.intent != "compare":
        picks = cheapest_service_first(picks, question, workload, kb, priced)
        # the cheapest asked for: money decides, not the cloud a Chinese question is priced on by default
        home_first = picks if question.budget else home_cloud_first(picks, kb, choice)
        picks = within_budget_first(home_first, kb, question, choice)[:MAX_PICKS]
    # A stated speed target outranks the money order: a cheaper card that misses it answers another question.
    picks = meet_speed_target(picks, workload, question, kb, instances, priced, pool)
    on_cloud = kb.rented_on(question.cloud) if question.cloud and gpu is not None else frozenset()
    if on_cloud and gpu is not None and gpu.id not in on_cloud:
        # "and on Alibaba?" about a card that cloud does not rent (the L4): its cards lead, the one asked about
        # stays below them with its check (audit 29 M-57: two L4 lines led, the rentable L20 third)
        picks = sorted(picks, key=lambda p: p.gpu_id not in on_cloud)
    on_whole = False
    if question.intent != "compare":
        picks = as_replicas(picks, question, workload, kb, instances, priced)
        if gpu is None and question.intent == "recommend":
            picks = cheapest_for_the_load(picks, users_of(question), kb, priced)
        # "能跑吗 on a T4" checks one card as surely as "on one T4" does: its scale-out gives way alike (audit 27
        # LOW-58 residue, s10: 2× T4 at 30.94 CNY/h above one RTX A6000 at 0.50 USD/h)
        checked = "gpu_count" in question.stated or question.intent == "check"
        if checked and not (question.asks_cost or question.asks_token_cost):
            # a count asked ("on one A100 40GB") is answered by the check; the price of the card named is the
            # bill's to give on that card, so its scale-out then stays first
            picks = named_scale_out_gives_way(picks, gpu, question.gpu_count or 1, kb, priced,
                                              question.budget and not job_billed)
    # a training job compared on instances billed whole runs on all their cards too: "p4d 还是 p5" compared 8 A100s
    # with 4 H100s billed as the 8-card p5.48xlarge, 2× the hours and the bill of the whole box (audit 26 HIGH 36)
    sized_picks, picks = picks, on_whole_instances(picks, question, workload, kb, choice, instances, priced)
    on_whole = widened(sized_picks, picks)
    if on_whole:
        assumptions.append(Assumption(field="gpu_count", value=picks[0].count, reason="whole-instance"))
    # The estimate describes the configuration the reply is about: the cards named, else the top pick
    # (a 70B training job is spread over the picked cards, so its per-card figure is the sharded one).
    top_gpu = kb.gpus.get(picks[0].gpu_id) if picks else None
    if (question.gpu_count is None and question.intent == "recommend" and picks and picks[0].fits
            and gpu is not None and picks[0].gpu_id == gpu.id):
        count = picks[0].count  # "how many H100s": the count the rules found for the named card
    sized_gpu, sized_count = gpu, count
    if gpu is None and top_gpu is not None:
        sized_gpu = top_gpu
        sized_count = question.gpu_count or (picks[0].count if picks[0].fits else 1)
        if question.intent == "compare" and question.compare_counts:
            # cards compared at their own counts ("8x 4090 vs 1x A100"): the memory block is the first row's
            # set-up, not its card at the other's count (audit 36 HIGH 113: 8× A100 without checkpointing, 59.3
            # GiB a card, above rows of 8× 4090 at 8.2 and 1× A100 at 33.5)
            sized_count = picks[0].count
    workload = fp16_on_pre_ampere(workload, sized_gpu, assumptions, named=gpu is not None)
    # A serving engine's figure for a card is its reservation (vLLM 90% of the card, lmdeploy 80% of what the
    # weights leave, …); the reply's "memory needed" is what the job needs, and the reservation is explained by
    # the '<engine>-reserve' note (the picks give the sequences it holds).
    reserving = reserves_up_front(workload)
    laid_out = rules.split_by_memory(workload, cards) if cards else workload
    replica = one_replica(picks, question, workload, sized_gpu, sized_count)
    if replica is not None:
        laid_out = replica[0]  # many users on replicas: the figures are one replica's, at its share of them
    copies = (replica is None and not cards and sized_gpu is not None and sized_count > 1
              and copy_a_card(question, workload) and fits_at(workload, sized_gpu, 1, 1))
    if copies:
        replica = (workload, 1)  # files or documents shared out, a whole copy of the model on each card
    estimate = rules.needed_view(rules.estimate_memory(laid_out, replica[1] if replica else sized_count, sized_gpu))
    if replica is not None:
        estimate = replace(estimate, notes=[*estimate.notes, "one-copy-a-card" if copies else "one-replica"])
    if cards and not question.layer_split:  # the split is the engine's own, by each card's free memory
        estimate = replace(estimate, notes=[("memory-layer-split" if n == "uneven-layer-split" else n)
                                            for n in estimate.notes])
    # the same configuration the estimate describes: one replica at its share, when the picks are replicas
    compared, compared_count = replica if replica is not None else (workload, sized_count)
    other = other_engine_figure(question, compared, compared_count, sized_gpu, estimate)
    engines_side_by_side = engines_compared(question, compared, compared_count, sized_gpu)
    lighter = lighter_task_figure(question, compared, compared_count, sized_gpu, estimate.per_gpu_gib)
    if reserving:
        measured = measures_free_memory(profile_for(workload), workload.memory_fraction)
        estimate = replace(estimate, notes=[n for n in estimate.notes if not n.endswith(("-no-gpu", "-reserve"))]
                           + [f"{workload.engine}-reserve" + ("-measured" if measured else "")])
    if workload.precision == "fp16" and workload.model.fp16_overflow and "fp16-overflow" not in estimate.notes:
        estimate = replace(estimate, notes=[*estimate.notes, "fp16-overflow"])  # Gemma 3 on a T4: NaNs, not text
    if workload.model.arch == "diffusion" and workload.task != "inference" and (
            question.training_steps or question.asks_time or question.asks_cost):
        estimate = replace(estimate, notes=[*estimate.notes, "diffusion-training-untimed"])
    if "max-model-len-stated" in question.notes:  # they set the length flag already: no advice to set it
        estimate = replace(estimate, notes=[n for n in estimate.notes if not n.endswith("-set-max-model-len")])

    check = None
    set_decode: float | None = None
    if question.intent in ("check", "recommend") and gpu is not None and gpu.id not in kb.gpus:
        question = question.model_copy(update={"intent": "check"})  # "is 24GB enough": a check by nature
        base["intent"] = "check"
    owned = question.intent == "recommend" and question.gpu_count is not None  # "I have one 4090; what to buy"
    if (question.intent == "check" or owned) and gpu is not None:
        fraction = reservation_fraction(workload, profile_for(workload)) if reserves_share_of_card(workload) else None
        if cards:
            check, set_decode = mixed_check_out(workload, cards, fraction)
        else:
            # a bigger card is offered at the count asked only where that many can be had (one B300 comes in
            # an 8-card HGX board unless a priced instance rents it alone)
            bigger = [g for g in pool if g.recommended and placeable(g, count, priced)]
            # each card runs its own copy when the files are shared out: each holds the whole model (LOW-44)
            held_on = 1 if copies else count
            fit = rules.check_fit(workload, gpu, held_on, instances, candidates=bigger)
            if question.logged_oom:
                fit = room_makers(workload, gpu, held_on, fit, bigger)  # the log's OOM settles it: what makes room
            check = with_suggestion_speeds(check_out(fit, fraction), workload, gpu, held_on,
                                           question.tokens).model_copy(update={"count": count})
            if "context" not in question.stated:
                # a long context nobody asked for (Ollama's 32k default) is the first thing to cut, while the cut
                # still leaves the 4k a question with no length is sized at; a fine-tune's samples are often
                # 2k (Colab's T4 QLoRA recipes: audit 30 LOW-133 led with ZeRO-3 offload)
                floor = DEFAULT_CONTEXT if workload.task == "inference" else TRAINING_SHORT_CONTEXT
                check.suggestions.sort(key=lambda s: not (s.kind == "shorter-context" and (s.context or 0)
                                                          >= floor))
            elif workload.task == "inference":
                # a stated length that does not fit: the longest that does on the same cards, in the same format,
                # comes before RAM offload and more cards, and is timed (audit 38 M-152: "q4km on a 4090, tok/s?
                # can I do 128k?" listed it sixth, below the five shown)
                check.suggestions.sort(key=lambda s: 1 if s.kind in MOVE_AWAY else 0.5 if s.kind == "shorter-context"
                                       else 0)
        if (check is not None and not check.fits and not cards and question.engine is None
                and workload.engine == "vllm" and gpu.form == "consumer"
                and not any(s.engine == "llama.cpp" for s in check.suggestions)):
            # vLLM chosen by default for a large model on a GeForce card: the llama.cpp route people take at home
            # is offered too ("Llama 4 Scout on my 4090": AWQ on four 4090s had been the only fix; audit 37 M-142)
            home = check_out(rules.check_fit(replace(workload, engine="transformers"), gpu, count, instances,
                                             candidates=[]))
            routes = [s for s in home.suggestions if s.engine == "llama.cpp"]
            if routes:
                routes = with_suggestion_speeds(home.model_copy(update={"suggestions": routes}), workload, gpu,
                                                count, question.tokens).suggestions
                check = check.model_copy(update={"suggestions": [*check.suggestions, *routes]})
        check = host_ram_check(check, question, estimate.host_ram_gib)
        if check is not None and check.fits and not check.tight and not cards and not copies:
            fewer = fewest_holding(workload, gpu, count)
            if fewer is not None:
                check = check.model_copy(update={"fewer_count": fewer[0], "fewer_need_gb": round(fewer[1], 1)})
        if check is not None and (question.tokens or 0) >= PRETRAINING_TOKENS:
            # pre-training on billions of tokens: an adapter does another job (audit 31 LOW-161: LoRA offered)
            check.suggestions = [s for s in check.suggestions if s.kind not in ("lora", "qlora")]
        if (lowered := lowered_request_cap(question, workload, check)) is not None:
            return answer(lowered, kb)  # only vLLM's start-up warm-up of its request cap is too big: the cap lowered

    speed: dict[str, float | None] = {}
    runs = bool(picks) and (picks[0].fits or picks[0].tight)  # the closest of picks that do not fit is not timed
    top = (gpu, count) if gpu is not None else (top_gpu if runs else None, picks[0].count if picks else 1)
    if (check is None and gpu is not None and runs and top_gpu is not None and not cards
            and not fits_at(workload, gpu, count, workload.batch)):
        top = (top_gpu, picks[0].count)  # "I have one 4090, what should we buy": the card it cannot run on is not timed
    if cards:
        top = (None, 1)  # a home machine of mixed cards: its own decode speed, no bill
        if set_decode is not None:
            speed["decode_tokens_per_s"] = finite(set_decode, 1)
    if on_whole and gpu is not None and picks[0].gpu_id == gpu.id and top == (gpu, count):
        top = (gpu, picks[0].count)  # the card named is billed by the machine: the job is timed on all its cards
    if (gpu is not None and top == (gpu, count) and on_cloud and gpu.id not in on_cloud and runs
            and top_gpu is not None and top_gpu.id in on_cloud):
        # "and in CNY on Alibaba?" of an L4 that cloud does not rent: the job is timed and billed on the first
        # card it does (audit 35 M-132: an AWS L4 price in USD was all the answer gave)
        top = (top_gpu, picks[0].count)
    held = check.sequences_held if check is not None else None
    if (check is not None and not check.fits and not check.tight and held is None and picks and picks[0].fits
            and top_gpu is not None and gpu is not None
            and (not sets_serving_target(question) or not fits_at(workload, gpu, count, 1)
                 or unsupported_format(workload, gpu) is not None)):
        top = (top_gpu, picks[0].count)  # see Answer.speed_on; a serving target takes replicas of cards that hold one
    if (model.arch == "diffusion" and gpu is not None and count > 1 and question.image_count
            and fits_at(workload, gpu, 1, workload.batch)):
        top = (gpu, 1)  # images on the cards asked: a copy a card (bot.reply.job_hours.image_copies), not a pick
    # Timed as the plan runs it: one replica at its share of the users when the configuration timed is the top
    # pick laid out as replicas (the one sized, or the pick that replaced a named set that does not fit)
    timed_replica = one_replica(picks, question, workload, top[0], top[1])
    timed_on = (top[0], timed_replica[1]) if timed_replica is not None else top
    if timed_on[0] is not None and (timed_on[0].id in kb.gpus or rules.compute_known(timed_on[0])
                                    or rules.bandwidth_known(timed_on[0])) and model.arch in TOKEN_ARCHS:
        run = timed_replica[0] if timed_replica is not None else workload
        # the set-up the memory rules chose for the configuration timed (a pick that replaced the cards named
        # has its own checkpointing and ZeRO stage, as its line in the picks does)
        chosen = (estimate.chosen if timed_on == (sized_gpu, sized_count)
                  else rules.estimate_memory(run, timed_on[1], timed_on[0]).chosen)
        timed = as_chosen(run, chosen)
        if held is not None and top == (gpu, count):
            timed = replace(timed, batch=held)  # the cards named run the sequences their KV pool holds
        speed = token_speed(question, timed, timed_on[0], timed_on[1])
    if top[0] is not None and top[0].id in kb.gpus:
        speed.update(media_speed(workload, top[0], kb, speed.get("prefill_tokens_per_s"),
                                 images_wanted_per_minute(question), streams_asked=question.asks_concurrency,
                                 audio_requests=(question.qps, question.clip_seconds) if question.qps else None,
                                 live_audio=question.live_audio))
    if (check is not None and not check.fits and gpu is not None and gpu.id in kb.gpus
            and any(s.gpu is None and s.count in (None, check.count) for s in check.suggestions)):
        speed.update(asked_card_image_speed(workload, gpu, kb))  # "how long on my 3060": with the fix, on it
    on_mac = mac_speed(question, as_chosen(workload, estimate.chosen), gpu, check is None or check.fits or check.tight,
                       kb) or mac_speed_at_fix(question, as_chosen(workload, estimate.chosen), gpu, check, kb)
    if on_mac:
        # the speed is the Mac's, even where a pick replaced it as the configuration timed: no NVIDIA label on
        # it, and no cloud bill priced at its speed (a Mac is owned, not rented)
        speed, top, timed_on = on_mac, (gpu, count), (gpu, count)

    if gpu is not None and gpu.id in kb.gpus and check is not None and check.fits:
        speed.update(one_more_card(as_chosen(workload, estimate.chosen), gpu, count,
                                   getattr(estimate, "host_ram_gib", None)))
        ram = host_memory_of(question.host_ram, question.host_ram_gb) or REFERENCE_RAM
        speed.update(fewer_cpu_experts(as_chosen(workload, estimate.chosen), gpu, count, ram.bandwidth_gbps))
    if question.observed_tokens_per_s and (gpu is not None or "unified_memory_bandwidth_gbps" in speed
                                           or (question.intent == "compare" and bool(question.compare_gpus))):
        speed["observed_tokens_per_s"] = question.observed_tokens_per_s  # "is 15 tok/s normal?" (speed_view)
    assumptions += chosen_assumptions(getattr(estimate, "chosen", None) or {}, assumptions, question, workload,
                                      laid_out, sized_gpu, replica[1] if replica else sized_count)

    if workload.task != "inference" and speed.get("train_tokens_per_s") and timed_on[0] is not None \
            and rules.spans_machines(timed_on[1]) and question.inter_node_gbps is None:
        # the gradient traffic between machines is timed on an assumed fabric: said, as it can double the hours
        assumptions.append(Assumption(field="interconnect", value=rules.inter_node_gbps(timed_on[0]),
                                      reason="inter-node-fabric"))

    if (workload.task != "inference" and question.tokens and speed.get("train_tokens_per_s")
            and not speed.get("sharded_train_tokens_per_s")):
        # a training time rests on the utilisation the GEMMs reach: stated, as design.md asks ("6 × parameters ×
        # tokens at a stated utilisation"; audit 39 M-157: 15T tokens on 1,024 H100s at an unstated 55%)
        assumptions.append(Assumption(field="mfu", value=rules.train_mfu(workload), reason="train-mfu"))
    model_compare = side_by_side(question, workload, estimate, picks, kb, pool, instances, max_count, priced)
    result = Answer(
        model_compare=model_compare,
        query=query_of(question, workload, sized_count),
        estimate=estimate_out(estimate),
        picks=compared_picks([pick_out(p) for p in picks], question, workload, kb),
        check=check,
        compare=list(question.compare_gpus) if question.intent == "compare" else [],
        assumptions=assumptions,
        speed=speed,
        speed_on=(ConfigRef(gpu=timed_on[0].id, count=timed_on[1]) if timed_on[0] is not None
                  and timed_on[0].id in kb.gpus else None),
        other_engine=other, engines_compared=engines_side_by_side,
        lighter_task=lighter,
        other_stage=other_stage_figure(question, workload, kb),
        other_checkpointing=other_checkpointing_figure(question, workload, sized_gpu, sized_count),
        other_kv=other_kv_figure(question, workload, kb),
        all_cards=all_cards_figure(question, workload, kb),
        engine_length=engine_length_figure(question, workload, kb),
        weighed_layout=weighed_layout_figure(question, workload, kb),
        fewer_in_tp=fewer_in_tensor_parallel(question, workload, picks, kb),
        smaller_models=smaller_for(question, model.id, gpu, count, check, picks, kb),
        quantised_path=quantised_path_figure(question, workload, picks, kb, instances),
        cpu_only=cpu_only_figure(question, workload),
        mac_beside=mac_beside_figure(question, workload, kb),
        **base,
    )
    result.max_context = max_context_out(question, workload, sized_gpu, sized_count, check, kb)
    attach_money(result, question, workload, kb, top if top[0] is not None else (None, 1))
    timed_as_planned(result, question, workload, kb)
    result.faq = faq_for(question, workload, result, kb)
    result.copies_at_once = copies_figure(question, result.check, workload.context, workload.engine)
    if result.compare and not question.engine:
        # "RTX 5090 vs RTX 4090 tokens/s" under a launch-bound transformers loop hides the bandwidth gap (1.3× for
        # 1.78× the bandwidth): each set-up with vLLM too (audit 29 LOW-110)
        for p in result.picks:
            card = kb.gpus.get(p.gpu)
            if card is not None and p.fits and p.gpu in result.compare:
                served = serving_engine_speed(question, workload, card, p.count).get("vllm_decode_tokens_per_s")
                if served:
                    result.compare_serving_speeds[p.gpu] = float(served)
    result.reasoning_length = reasoning_length_figure(question, compared, sized_gpu, compared_count)
    result.load_ram = load_ram_figure(question, workload)
    result.cloud_choice = cloud_choice(question, kb, answer)
    return with_stack(result, question, kb, others)  # "X and Y together on one A10": checked for their sum
