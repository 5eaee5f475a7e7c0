"""The view: everything the templates print, computed once from an `Answer` in the question's language.

Numbers are formatted here (GiB with their unit, counts, parameter sizes), names resolved from the knowledge
base, and the reply's sections chosen (`sections`), so both transports show the same reply.
"""

from __future__ import annotations

from typing import Any

from bot.reply.all_cards import all_cards_line
from bot.reply.capacity import memory_card_id
from bot.reply.check_view import card_bandwidth, check_view, host_ram_line, ram_of, smaller_line
from bot.reply.checkpointing_both import other_checkpointing_line
from bot.reply.cloud_choice import cloud_choice_line
from bot.reply.compare_view import compare_rows, compare_verdict, stated_load
from bot.reply.copies import copies_line
from bot.reply.cost_view import cost_view, money, pick_place, train_time
from bot.reply.engine_compare import engines_compared_text
from bot.reply.engine_flags import engine_flags_line
from bot.reply.first_token import first_token_line
from bot.reply.formatting import billed_hours, count, format_label, gb, gpu_name, hours_figure, model_name_of, params
from bot.reply.i18n import EXAMPLES, Translator
from bot.reply.info_view import gpu_views, model_view
from bot.reply.labels import ASSUMPTION_REASONS, FIELD_LABELS, NOTE_TEXT, TASK_NAMES
from bot.reply.load_ram import load_ram_line
from bot.reply.machine_notices import apple_notice, chip_name, no_gpu_notice
from bot.reply.maths_view import maths_lines
from bot.reply.mixed_load import shared_cache_notice
from bot.reply.model import Answer, PickOut
from bot.reply.model_compare_view import faster_of, row_name
from bot.reply.notices import (
    activations_exceed_line,
    companions_line,
    engine_length_line,
    logged_queue_line,
    other_kv_line,
    other_stage_line,
    pick_setup,
    rate_not_kept_line,
    reading_notices,
    stack_line,
    vae_tiling_line,
    weighed_layout_line,
)
from bot.reply.offload import KTRANSFORMERS
from bot.reply.owned_running import owned_running_line
from bot.reply.progress_view import progress_line
from bot.reply.quantised_path import quantised_path_line
from bot.reply.readback import card_set_text, engine_name, understood, value_text
from bot.reply.reasoning_length import reasoning_length_line
from bot.reply.speed_view import mac_beside_line, observed_line, speculative_text, speed_parts
from knowledge.base import KnowledgeBase
from knowledge.engines import load_engine_profiles
from rules.constants import GPUS_PER_NODE
from rules.hardware import compute_known
from rules.speed import tensor_parallel


def _max_context_line(answer: Answer, kb: KnowledgeBase) -> str:
    """"The max context on this card", answered in one line: the tokens, what each costs, the model's window."""
    found = answer.max_context
    assert found is not None
    t = Translator(answer.query.lang)
    cards = f"{found.count}× {gpu_name(kb, found.gpu)}"
    if found.tokens is None:
        return t("max_context_none", cards=cards)
    key = "max_context_window" if found.window and found.tokens >= found.window else "max_context"
    line = t(key, cards=cards, tokens=f"{found.tokens:,}", window=f"{found.window or 0:,}",
             batch=answer.query.batch or 1)
    if found.precision:  # nothing fits as asked: the figure is for the quantised fix, and says so first
        fix = found.precision.upper() + (f" ({found.quant})" if found.quant else "")
        line = t("max_context_with_fix", cards=cards, fix=fix) + line
    if found.kv_kib_per_token:
        key = "max_context_kv" if answer.query.kv_cache is None else "max_context_kv_set"
        line += t.sentence_gap + t(key, kib=f"{found.kv_kib_per_token:,.0f}")
    longer = kb.models.get(found.longer_release or "")
    if longer is not None:
        line += t.sentence_gap + t("max_context_longer_release", name=longer.name,
                                   window=f"{longer.max_context or 0:,}")
    return line

def _timed_rate(answer: Answer, pick: PickOut) -> float | None:
    """A training pick's tokens a second: the speed line's when the pick is the configuration it times."""
    on, rate = answer.speed_on, answer.speed.get("train_tokens_per_s")
    if on is not None and rate and (on.gpu, on.count) == (pick.gpu, pick.count):
        return float(rate)
    return pick.work_tokens_per_s


def _model_name(kb: KnowledgeBase, answer: Answer) -> str | None:
    if len(answer.stack) > 1:
        # models deployed together: the header names them all (audit 32 LOW-175 named only the first)
        return " + ".join(part.name for part in answer.stack)
    if answer.query.model and answer.query.model in kb.models:
        return kb.models[answer.query.model].name
    if answer.query.params_b:
        # "7B 模型" in a Chinese reply's header (audit 30 LOW-135)
        noun = "model" if (answer.query.lang or "en") == "en" else "模型"
        return f"{params(answer.query.params_b)}B {noun}"
    return None



def build_view(answer: Answer, kb: KnowledgeBase, *, show_maths: bool = False) -> dict[str, Any]:
    """Everything the templates print, formatted, in the question's (catalog) language."""
    t = Translator(answer.query.lang)
    view: dict[str, Any] = {"lang": t.lang, "traditional": answer.query.lang == "zh-Hant"}
    model_name = _model_name(kb, answer)
    task = answer.query.task
    title_parts = [p for p in (model_name, t.pick(TASK_NAMES, task) if task and model_name else None) if p]
    if answer.error == "unmodelled-model":
        title_parts = [str(answer.understood.get("unmodelled_name"))]
    elif answer.intent in ("help", "unknown"):
        title_parts = [t.help_title]
    elif answer.intent == "gpu_info":
        title_parts = [gpu_name(kb, answer.query.gpu) if answer.query.gpu else "GPU"]
    elif answer.intent == "faq" and not title_parts:
        title_parts = ["GPU Advisor"]
    elif answer.model_compare and answer.model_compare[0].format:
        title_parts = [model_name_of(kb, answer.model_compare[0].model),
                       " vs ".join(format_label(r.format or "") for r in answer.model_compare)]
    elif answer.model_compare and answer.model_compare[0].task:
        title_parts = [model_name_of(kb, answer.model_compare[0].model),
                       " vs ".join(t.pick(TASK_NAMES, r.task or "") for r in answer.model_compare)]
    elif answer.intent == "compare" and answer.model_compare:
        title_parts = [" vs ".join(model_name_of(kb, r.model) for r in answer.model_compare)]
    elif answer.intent == "compare" and answer.compare:
        title_parts = [" vs ".join(gpu_name(kb, g) for g in answer.compare), *title_parts[:1]]
    if answer.check is not None and answer.check.cards:
        title_parts.append(card_set_text([card.gpu for card in answer.check.cards], kb))
    elif answer.check is not None:
        title_parts.append(f"{answer.check.count}× {gpu_name(kb, answer.check.gpu)}")
    view["title"] = " · ".join(title_parts) or "GPU Advisor"
    view["understood"] = understood(answer, t, kb)
    asked = answer.understood.get("clamped_asked") or {}
    view["clamped"] = [t.pick(FIELD_LABELS, c) + (t("clamped_asked", v=_asked_text(asked[c])) if c in asked else "")
                       for c in answer.understood.get("clamped", [])] if isinstance(
        answer.understood.get("clamped"), list) else []

    if answer.estimate is not None:
        e = answer.estimate
        view.update(total=gb(e.total_gb), per_gpu=gb(e.per_gpu_gb), gpu_count=e.gpu_count,
                    breakdown=[(_part_label(t, k, e.breakdown.kv_cache, e.gpu_count, answer),
                                gb(getattr(e.breakdown, k)))
                               for k in ("weights", "kv_cache", "activations", "gradients", "optimizer", "overhead")
                               if getattr(e.breakdown, k) > 0.005],
                    host_ram=gb(e.host_ram_gb) if e.host_ram_gb else None,
                    host_ram_layers=host_ram_line(t, e, kb.models.get(answer.query.model or ""),
                                                  card_bandwidth(answer, kb), ram_of(answer)))
    if view.get("host_ram_layers") and answer.speed.get("one_more_card_tokens_per_s") and answer.check is not None:
        view["host_ram_layers"] += t.sentence_gap + t(
            "one_more_card", n=f"{answer.speed.get('one_more_card_count') or 0:.0f}",
            gpu=gpu_name(kb, answer.check.gpu), v=count(float(answer.speed["one_more_card_tokens_per_s"] or 0)))
    if view.get("host_ram_layers") and answer.speed.get("fewer_cpu_moe_tokens_per_s"):
        layers = int(answer.speed.get("fewer_cpu_moe_layers") or 0)
        view["host_ram_layers"] += t.sentence_gap + t(
            "fewer_cpu_experts" if layers else "no_cpu_experts", n=layers,
            v=count(float(answer.speed["fewer_cpu_moe_tokens_per_s"] or 0)))
    cards = answer.check.cards if answer.check is not None else []
    # a set of different cards: the per-card figures are the fullest card's, and say so
    view["fullest"] = gpu_name(kb, max(cards, key=lambda card: card.needed_gb).gpu) \
        if len({card.gpu for card in cards}) > 1 else ""
    sized = kb.models.get(answer.query.model) if answer.query.model else None
    values = {"percent": f"{100 * (answer.query.memory_fraction or 0.0):g}",
              "fraction": f"{answer.query.memory_fraction or 0.0:g}",
              "context": f"{answer.query.context or 0}",
              "max_context": f"{(sized.max_context if sized else None) or 0:,}",
              "buffers": f"{(answer.estimate.batch_buffers_gb if answer.estimate else None) or 0:.1f}",
              "slots": f"{(answer.estimate.max_batch_size if answer.estimate else None) or 0:,}",
              "images": f"{(answer.estimate.profiled_images if answer.estimate else None) or 0:,}",
              "encoder": f"{(answer.estimate.image_encoder_gb if answer.estimate else None) or 0:.1f}",
              "draft": f"{(answer.estimate.draft_gb if answer.estimate else None) or 0:.1f}",
              "spec": speculative_text(answer, t) if answer.estimate and answer.estimate.draft_gb else "",
              "engine": engine_name(answer.query.engine or "vllm"),
              "replicas": f"{answer.picks[0].replicas:,}" if answer.picks and answer.picks[0].replicas else "",
              "replicas_total": (f"{answer.estimate.total_gb * answer.picks[0].replicas:,.0f}"
                                 if answer.estimate and answer.picks and answer.picks[0].replicas else "")}
    view["notes"] = [_filled(t.pick(NOTE_TEXT, code), values)
                     for code in (answer.estimate.notes if answer.estimate else []) if code in NOTE_TEXT][:4]
    picks = []
    load = stated_load(answer)
    users = int(answer.understood.get("users") or 0)
    for p in answer.picks:
        gpu = kb.gpus.get(p.gpu)
        picks.append({
            "gpu_name": gpu_name(kb, p.gpu), "gpu_memory": gb(gpu.memory_gb) if gpu else "?", "count": p.count,
            "fits": p.fits, "used": gb(p.memory_per_gpu_gb), "headroom": gb(p.free_gb),
            "decode": count(p.decode_tokens_per_s) if p.decode_tokens_per_s else None,
            "decode_load": f"{p.decode_at_load:,}" if p.decode_at_load else None,
            # per replica, as the line's other figures ("figures per replica"); the JSON keeps all of them
            "concurrent": (p.max_concurrent_sequences // p.replicas if p.replicas and p.max_concurrent_sequences
                           else p.max_concurrent_sequences),
            "price": (f"{p.price_per_hour:,.0f} {p.price_currency or ''}".strip() if (p.price_per_hour or 0) >= 100
                      else f"{p.price_per_hour:,.2f} {p.price_currency or ''}".strip() if p.price_per_hour else None),
            "instance": p.instance,
            "nodes": p.count // GPUS_PER_NODE if p.count > GPUS_PER_NODE and not p.replicas else None,
            "replicas": p.replicas,
            # the most replicas planned hold fewer than the users asked: the line says so, or it reads as a fit
            "short_of": (t("pick_short_of", held=f"{p.max_concurrent_sequences:,}", users=f"{users:,}")
                         if p.replicas and p.max_concurrent_sequences and users > p.max_concurrent_sequences
                         else ""),
            "per_replica": p.count // p.replicas if p.replicas else None,
            "tight": p.tight,
            # the configuration the speed line times gives its own rate, so the two totals agree (audit 30 LOW-125)
            "train_time": train_time(answer, _timed_rate(answer, p), t, p.price_per_hour, p.price_currency),
            "setup": pick_setup(answer, p.gradient_checkpointing, t),
            # a load to meet on a card with no compute figure: its count is the memory's, not the load's
            "load_untimed": (t("pick_load_untimed", gpu=gpu_name(kb, p.gpu)) if load and gpu is not None and p.fits
                             and not p.replicas and not compute_known(gpu) else ""),
            "token_cost": (t("cost_per_million_short", v=money(p.work_cost), cur=p.price_currency)
                           if p.work_cost is not None and p.price_currency and answer.query.task == "inference"
                           and answer.intent != "compare" and not p.seconds_per_image else ""),
            **pick_place(p, t, kb, answer.estimate.host_ram_gb if answer.estimate else None),
        })
    view["picks"] = picks
    view["lighter"] = (t("lighter_task", gb=gb(answer.lighter_task["per_gpu_gb"]),
                         gpu=gpu_name(kb, answer.lighter_task["gpu"]))
                       if answer.lighter_task and answer.estimate is not None else "")
    view["any_fits"] = any(p["fits"] for p in picks)
    view["other_stage"] = other_stage_line(answer, kb, t)
    view["other_checkpointing"] = other_checkpointing_line(answer, kb, t)
    view["progress"] = progress_line(answer, t)
    # speculative decoding or prefix caching named: what each changes, not ignored (audit 39 M-156)
    view["serving_features"] = t.sentence_gap.join(
        t(key) for key in ("speculative_unnamed", "prefix_caching") if answer.understood.get(key))
    view["other_kv"] = other_kv_line(answer, kb, t)
    fewer = answer.fewer_in_tp
    view["fewer_in_tp"] = (t("fewer_in_tp", cards=f"{fewer['count']}× {gpu_name(kb, fewer['gpu'])}",
                             users=f"{fewer['users']:,}", gb=gb(fewer["per_gpu_gb"]), n=fewer["replica_cards"])
                           if fewer else "")
    compared_on = answer.engines_compared[0] if answer.engines_compared else None
    view["engines_compared"] = (engines_compared_text(answer.engines_compared, int(compared_on["count"]),
                                                      gpu_name(kb, str(compared_on["gpu"])), t)
                                if compared_on is not None and answer.estimate is not None else "")
    view["all_cards"] = all_cards_line(answer, kb, t)
    view["copies"] = copies_line(answer, t)
    view["vae_tiling"] = vae_tiling_line(answer, kb, t)
    view["engine_flags"] = engine_flags_line(answer, kb, t)
    view["load_ram"] = load_ram_line(answer, t)
    view["first_token"] = first_token_line(answer, kb, t)
    view["logged_queue"] = logged_queue_line(answer, t)
    view["companions"] = companions_line(answer, kb, t)
    view["quantised_path"] = quantised_path_line(answer, kb, t)
    view["reasoning_length"] = reasoning_length_line(answer, kb, t)
    view["cloud_choice"] = cloud_choice_line(answer, kb, t)
    view["owned_running"] = owned_running_line(answer, kb, t)
    view["engine_length"] = engine_length_line(answer, kb, t)
    view["weighed_layout"] = weighed_layout_line(answer, kb, t)
    view["smaller"] = smaller_line(answer, kb, t)
    view["activations_exceed"] = activations_exceed_line(answer, kb, t)
    view["rate_not_kept"] = rate_not_kept_line(answer, kb, t)

    if answer.check is not None:
        view["check"] = check_view(answer, answer.check, kb, t)
    view["speed"] = speed_parts(answer, kb, t, task)
    view["observed"] = observed_line(answer, t)
    view["mac_beside"] = mac_beside_line(answer, kb, t)
    if answer.speed_on is not None:
        view["speed_on"] = f"{answer.speed_on.count}× {gpu_name(kb, answer.speed_on.gpu)}"
    elif answer.check is not None and answer.check.cards:
        view["speed_on"] = card_set_text([card.gpu for card in answer.check.cards], kb)
    elif answer.check is not None:
        view["speed_on"] = f"{answer.check.count}× {gpu_name(kb, answer.check.gpu)}"
    elif answer.speed.get("unified_memory_bandwidth_gbps"):
        view["speed_on"] = chip_name(answer)
    elif answer.picks:
        view["speed_on"] = f"{answer.picks[0].count}× {gpu_name(kb, answer.picks[0].gpu)}"
    else:
        view["speed_on"] = ""
    view["assumptions"] = [
        f"{t.pick(FIELD_LABELS, a.field)} {value_text(t, a.field, a.value, kb)} "
        f"({t.pick(ASSUMPTION_REASONS, a.reason)})"
        for a in answer.assumptions
    ]
    view["faq"] = []
    for faq_id in answer.faq:
        entry = kb.faq.get(faq_id)
        if entry is None:
            continue
        view["faq"].append({
            "question": entry.questions.en[0] if t.lang == "en" else entry.questions.zh[0],
            "answer": entry.answer.en if t.lang == "en" else entry.answer.zh_hans,
            "document": entry.document,
            "document_en": entry.document_en if t.lang == "en" else None,
        })
    view.update(reading_notices(answer, kb, t))
    view["examples"] = EXAMPLES[t.lang]
    view["unknown"] = answer.intent == "unknown"
    view["thanks"] = bool(answer.understood.get("thanks"))
    view["did_you_mean"] = [kb.models[m].name for m in answer.suggestions if m in kb.models][:5]
    view["model_text"] = answer.understood.get("model_text") or ""
    view["missing"] = [t(f"missing_{m}") for m in answer.missing if f"missing_{m}" in ("missing_model",
                                                                                       "missing_task",
                                                                                       "missing_budget")]
    view["training"] = task in ("train", "lora", "qlora")
    view["layer_split"] = not tensor_parallel(answer.query.engine or "transformers")
    view["source"] = ("" if t.lang.startswith("zh") else " ").join((t.source, t(_check_key(answer, view["training"]))))
    view["max_context_line"] = _max_context_line(answer, kb) if answer.max_context is not None else ""
    view["gpus"] = gpu_views(answer, kb) if answer.intent == "gpu_info" else []
    view["known_gpus"] = sorted(g.name.removeprefix("NVIDIA ") for g in kb.gpus.values() if g.recommended)[:40]
    view["model_info"] = model_view(answer, kb) if answer.intent == "model_info" else None
    view["compare"] = compare_rows(answer, kb, t) if answer.intent == "compare" else []
    view["compare_verdict"] = compare_verdict(answer, kb, t) if answer.intent == "compare" else ""
    view["maths"] = maths_lines(answer, kb) if show_maths else []
    view.update(cost_view(answer, kb, t))
    view["capacity"] = [{
        "job": f"{t.pick(TASK_NAMES, c.task)}, {c.precision.upper() if c.precision != 'bf16' else '16-bit'}",
        "size": f"{params(c.max_params_b)}B" if c.max_params_b else None,
        "examples": ", ".join(kb.models[m].name for m in c.examples if m in kb.models),
    } for c in answer.capacity]
    view["capacity_on"] = (f"{answer.query.gpu_count}× " if (answer.query.gpu_count or 1) > 1 else "") + (
        gpu_name(kb, answer.query.gpu) if answer.query.gpu
        else gpu_name(kb, memory_card_id(answer.query.memory_gb, bool(answer.understood.get("unified_memory"))))
        if answer.query.memory_gb else "")
    view["model_compare"] = [{
        "name": row_name(r, kb, t), "total": gb(r.total_gb),
        "per_gpu": gb(r.per_gpu_gb), "pick": f"{r.count}× {gpu_name(kb, r.gpu)}" if r.gpu else None,
        "fits": r.fits, "decode": count(r.decode_tokens_per_s) if r.decode_tokens_per_s else None,
        "held": t("concurrent", n=f"{r.max_concurrent_sequences:,}") if r.max_concurrent_sequences else "",
        "fix": t("compare_model_fix", fix=format_label(r.fix["quant"]) if r.fix["quant"]
                 else str(r.fix["precision"]).upper(), need=gb(r.fix["per_gpu_gb"])) if r.fix else "",
        "job": t("compare_job", hours=billed_hours(r.job_hours),
                 total=(" · " + t("compare_job_cost", v=money(r.job_cost), cur=r.job_currency))
                 if r.job_cost is not None and r.job_currency else "") if r.job_hours is not None else "",
    } for r in answer.model_compare]
    view["model_compare_verdict"] = faster_of(answer, kb, t)
    view["methods_compared"] = bool(answer.model_compare) and answer.model_compare[0].task is not None
    view["formats_compared"] = bool(answer.model_compare) and answer.model_compare[0].format is not None
    return view


def sections(answer: Answer, view: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    """(block kind, template, extra context) in reply order."""
    out: list[tuple[str, str, dict[str, Any]]] = [("header", "header", {})]
    if answer.error == "closed-model":
        message = Translator(answer.query.lang)("closed_model", name=str(answer.understood.get("closed_model")))
        return [*out, ("section", "notice", {"message": message})]
    if answer.error == "unmodelled-model":
        t = Translator(answer.query.lang)
        message = t(f"unmodelled_{answer.understood.get('unmodelled_kind')}",
                    name=str(answer.understood.get("unmodelled_name")))
        return [*out, ("section", "notice", {"message": message})]
    if answer.error == "kv-cache-unsupported":
        message = Translator(answer.query.lang)("kv_cache_unsupported", kv=str(answer.query.kv_cache),
                                                 engine=str(answer.understood.get("engine")),
                                                 accepted=", ".join(answer.understood.get("accepted") or []))
        return [*out, ("section", "notice", {"message": message})]
    if answer.error == "too-long":
        message = Translator(answer.query.lang)("too_long", n=int(answer.understood.get("length", 0)),
                                                 limit=int(answer.understood.get("limit", 0)))
        return [("section", "notice", {"message": message})]
    if answer.error == "config-unavailable":
        message = Translator(answer.query.lang)("config_unavailable", subject=answer.understood.get("subject", ""),
                                                 reason=answer.understood.get("reason", ""))
        return [("section", "notice", {"message": message})]
    unknown_card = answer.understood.get("unknown_gpu_text")
    if unknown_card:
        sized_memory = answer.query.memory_gb if answer.query.gpu is None else None
        shared = answer.understood.get("shared_memory_stated")
        t_notice = Translator(answer.query.lang)
        message = (t_notice("unknown_card_shared", text=str(unknown_card), gb=f"{sized_memory:g}", stated=f"{shared:g}")
                   if sized_memory and isinstance(shared, float)
                   else t_notice("unknown_card_sized_bandwidth", text=str(unknown_card), gb=f"{sized_memory:g}",
                                 bw=f"{answer.query.card_bandwidth_gbps:,.4g}")
                   if sized_memory and answer.query.card_bandwidth_gbps
                   else t_notice("unknown_card_sized", text=str(unknown_card), gb=f"{sized_memory:g}")
                   if sized_memory else t_notice("unknown_card", text=str(unknown_card)))
        out.append(("section", "notice", {"message": message}))
    if answer.understood.get("gguf_server"):
        out.append(("section", "notice", {"message": Translator(answer.query.lang)(
            "gguf_server", engine=engine_name(str(answer.understood["gguf_server"])))}))
    if shared := shared_cache_notice(answer, Translator(answer.query.lang)):
        out.append(("section", "notice", {"message": shared}))
    if answer.understood.get("records_folded"):
        out.append(("section", "notice", {"message": Translator(answer.query.lang)(
            "records_folded", n=f"{answer.understood['records_folded']:,}")}))
    for notice in ("rollout_not_sized", "no_bf16", "unmodelled_beside", "assumed_model", "no_such_variant",
                   "devices_per_card",
                   "derived_name", "claimed_memory", "modified_card", "engine_not_on_card", "card_not_on_cloud",
                   "beyond_window", "ollama_tier",
                   "user_base", "logged_capacity", "smi_busy"):
        if view.get(notice):
            out.append(("section", "notice", {"message": view[notice]}))
    if answer.understood.get("no_gpu"):
        out.append(("section", "notice", {"message": no_gpu_notice(answer)}))
    unmodelled = answer.understood.get("unmodelled_engine")
    if unmodelled and answer.estimate is not None and answer.query.engine:
        key = ("unmodelled_ktransformers" if unmodelled == KTRANSFORMERS and answer.query.engine == "llama.cpp"
               else "unmodelled_engine" if answer.query.task in (None, "inference") else "unmodelled_trainer")
        message = Translator(answer.query.lang)(key, name=str(unmodelled), engine=engine_name(answer.query.engine))
        if str(unmodelled).startswith("Text Generation Inference") and answer.query.prefill_chunk:
            # TGI warms up with one prefill of --max-batch-prefill-tokens: the OOM its log shows (audit 30 HIGH 65)
            message += " " + Translator(answer.query.lang)("tgi_warmup", chunk=f"{answer.query.prefill_chunk:,}")
        out.append(("section", "notice", {"message": message}))
    if answer.understood.get("unified_memory") and answer.intent != "faq":
        out.append(("section", "notice", {"message": apple_notice(answer)}))
    if answer.intent in ("help", "unknown") or (answer.intent == "faq" and not view["faq"]):
        return [*out, ("section", "help", {})]
    if view["understood"] or view["clamped"]:
        out.append(("context", "understood", {}))
    if answer.understood.get("other_jobs"):
        quotes = "; ".join(f"“{q}”" for q in answer.understood["other_jobs"])
        out.append(("context", "notice", {"message": Translator(answer.query.lang)("other_jobs", quotes=quotes)}))
    if answer.estimate is not None and view["model_text"] and answer.query.model is None and answer.query.params_b:
        translate = Translator(answer.query.lang)
        message = translate("unknown_sized", text=view["model_text"], size=params(answer.query.params_b))
        if view["did_you_mean"]:  # "llama 3 405b": the model they most likely meant, to ask for by name
            gap = " " if translate.lang == "en" else ""
            message += gap + translate("unknown_sized_suggest", names=", ".join(view["did_you_mean"]))
        out.append(("section", "notice", {"message": message}))
    if answer.intent == "gpu_info":
        out.append(("section", "gpu_info", {}))
    if view["capacity"]:
        out.append(("section", "capacity", {}))
    if view["model_compare"]:
        out.append(("section", "model_compare", {}))
    if answer.intent == "model_info" and view["model_info"]:
        out.append(("section", "model_info", {}))
    if (answer.estimate is None and answer.intent in ("recommend", "check", "compare", "model_info")
            and not (answer.intent == "compare" and answer.prices)):  # prices compared: no model was the point
        out.append(("section", "guidance", {}))
    if view.get("check"):
        out.append(("section", "verdict", {}))
    if answer.stack:
        out.append(("section", "notice", {"message": stack_line(Translator(answer.query.lang), answer)}))
    out += _notices(view, ("companions", "load_ram", "logged_queue", "first_token", "cloud_choice", "engine_flags",
                           "copies", "rate_not_kept", "max_context_line"))
    if answer.other_engine and answer.estimate is not None:
        other = answer.other_engine
        t_other = Translator(answer.query.lang)
        message = t_other("other_engine", engine=engine_name(other["engine"]), gb=gb(other["per_gpu_gb"]),
                          mine=engine_name(answer.query.engine))
        profile = load_engine_profiles().get(str(other["engine"]))
        if (answer.query.gpu_count or 1) > 1 and profile is not None and profile.multi_gpu is not None \
                and profile.multi_gpu.mode == "data-parallel":
            # "Unsloth needs 64.8 GiB per card" read as Unsloth needing more memory (audit 34 LOW-194)
            message += t_other("other_engine_whole_copy", engine=engine_name(other["engine"]))
        if other.get("train_hours"):
            message += t_other("other_engine_time", hours=hours_figure(other["train_hours"]))
            if other.get("checkpointing"):
                message += t_other("other_engine_checkpointing")
        if other.get("profiled_images"):
            images = t_other("other_engine_images", images=f"{other['profiled_images']:,}",
                             gb=gb(other.get("image_encoder_gb") or 0.0))
            message += ("" if message.endswith("。") else " ") + images
        out.append(("section", "notice", {"message": message}))
    out += _notices(view, ("progress", "engines_compared", "serving_features", "fewer_in_tp", "lighter", "other_stage",
                           "other_checkpointing",
                           "other_kv", "engine_length", "weighed_layout", "all_cards",
                           "owned_running", "activations_exceed", "smaller", "vae_tiling", "reasoning_length",
                           "quantised_path"))
    if answer.estimate is not None:
        out.append(("fields", "estimate", {}))
    if answer.intent == "compare" and view["compare"]:
        out.append(("section", "compare", {}))
    elif view["picks"]:
        out.append(("section", "picks", {}))
    if view["speed"]:
        out.append(("section", "speed", {}))
    if view["cost_lines"] or view["price_rows"] or (view["price_gap"] and not view["picks"]):
        out.append(("section", "cost", {}))
    if view["maths"]:
        out.append(("section", "maths", {}))
    if view["notes"]:
        out.append(("context", "notes", {}))
    if view["assumptions"]:
        out.append(("context", "assumptions", {}))
    for entry in view["faq"]:
        out.append(("section", "faq", {"f": entry}))
    if answer.estimate is not None:
        out.append(("context", "source", {}))
    return out


def _notices(view: dict[str, Any], keys: tuple[str, ...]) -> list[tuple[str, str, dict[str, Any]]]:
    """A notice section for each of `keys` the view has a line for, in that order."""
    return [("section", "notice", {"message": view[key]}) for key in keys if view.get(key)]


CHECK_BY_ENGINE = {"vllm": "check_vllm", "sglang": "check_sglang", "tensorrt-llm": "check_trtllm",
                   "llama.cpp": "check_llamacpp"}
"""Where the engine itself reports what it allocated, the footer points there: its log is what a user compares."""


def _check_key(answer: Answer, training: bool) -> str:
    if training:
        return "check_training"
    return CHECK_BY_ENGINE.get(answer.query.engine or "", "check_generic")


def _part_label(t: Translator, part: str, kv_per_card: float, cards: int, answer: Answer) -> str:
    """A breakdown line's label; over several cards alike the KV cache also says what it takes in all, the figure
    "how much memory does the KV cache need" asks for."""
    if part != "kv_cache" or cards < 2 or (answer.check is not None and answer.check.cards):
        return t(part)
    return t("kv_cache_in_all", total=gb(kv_per_card * cards), n=cards)


def _filled(text: str, values: dict[str, str]) -> str:
    """A note with the job's own numbers in it (a reserving engine's share, the context sized, the model's
    whole context); a note without placeholders comes back as it is."""
    for key, value in values.items():
        text = text.replace("{" + key + "}", value)
    return text


def _asked_text(value: float) -> str:
    """A number written beyond its bound, as written: whole from one up ("2,000,000,000"), else as it is."""
    return f"{value:,.0f}" if value >= 1 else f"{value:g}"
