"""The speed line in the units the job is judged by: tokens a second, real time for speech, seconds an image,
sequences a second, training tokens and hours."""

from __future__ import annotations

from typing import Any

from bot.reply.capacity import memory_of_card_id
from bot.reply.cost_view import amount
from bot.reply.formatting import count, gpu_name, per_hour, per_minute
from bot.reply.i18n import Translator
from bot.reply.model import Answer
from knowledge.base import KnowledgeBase
from rules.hardware import compute_known


def speed_parts(answer: Answer, kb: KnowledgeBase, t: Translator, task: str | None) -> list[str]:
    parts: list[str] = []
    s = answer.speed
    if s.get("decode_tokens_per_s"):
        parts.append(t("decode", v=count(s["decode_tokens_per_s"] or 0)))
        if s.get("mac_speed_context"):
            parts[-1] += t("at_fix_context", n=f"{s['mac_speed_context']:,.0f}")  # the Mac holds it only then
    if s.get("aggregate_tokens_per_s") and (answer.query.batch or 1) > 1:
        parts.append(t("aggregate", v=count(s["aggregate_tokens_per_s"] or 0)))
    if s.get("vllm_decode_tokens_per_s"):
        parts.append(t("decode_with", engine="vLLM", v=count(s["vllm_decode_tokens_per_s"] or 0)))
    if s.get("audio_seconds_per_s"):
        beam = answer.understood.get("beam_size") or next(  # stated, or the runner's default (under Assumed)
            (a.value for a in answer.assumptions if a.field == "beam_size"), None)
        parts.append(t("real_time_beam", v=count(s["audio_seconds_per_s"] or 0), k=beam)
                     if isinstance(beam, int) and beam > 1 else t("real_time", v=count(s["audio_seconds_per_s"] or 0)))
    if s.get("audio_streams_per_card") is not None:
        parts.append(live_streams_line(t, answer.query.batch or 1, s))
    if s.get("seconds_per_image"):
        seconds = f"{s['seconds_per_image']:.1f}"
        minute = per_minute(float(s["seconds_per_image"] or 0))
        hour = per_hour(float(s["seconds_per_image"] or 0))
        if s.get("image_steps") and s.get("image_resolution"):
            parts.append(t("seconds_per_image", v=seconds, res=f"{s['image_resolution']:.0f}",
                           steps=f"{s['image_steps']:.0f}", per_minute=minute, per_hour=hour))
        else:
            parts.append(t("seconds_per_image_plain", v=seconds, per_minute=minute, per_hour=hour))
    sized = kb.models.get(answer.query.model or "")
    if sized is not None and sized.arch == "diffusion" and not s.get("seconds_per_image") and task == "inference":
        parts.append(t("image_time_unknown", model=sized.name))  # no published time to scale: a gap, not a guess
    if s.get("seconds_per_image_asked") and answer.check is not None:
        parts.append(t("seconds_per_image_asked", gpu=gpu_name(kb, answer.check.gpu),
                       v=f"{s['seconds_per_image_asked']:.0f}"))
    if s.get("sequences_per_s"):
        # a batch job's own rate is in the time line; beside it this one is one sequence at a time, and says so
        # one at a time, said so whenever a batched figure follows (the job's, or the serving plan's: "22
        # sequences/s" above "46.6 a replica, batches of 32" read as two speeds of one card; audit 27 LOW-72)
        key = ("sequences_per_s_one" if s.get("documents_per_s")
               else "sequences_per_s_unbatched" if answer.serving is not None else "sequences_per_s")
        parts.append(t(key, v=count(s["sequences_per_s"] or 0)))
        texts = answer.understood.get("texts_per_request")
        if s.get("batched_sequences_per_s") and not s.get("documents_per_s") and answer.serving is None:
            batched = float(s["batched_sequences_per_s"] or 0)
            parts.append(t("batched_sequences_per_s", v=count(batched), batch=f"{s.get('encoder_batch') or 0:.0f}"))
            if isinstance(texts, int) and texts > 1:
                parts.append(t("requests_of_texts_per_s", v=f"{batched / texts:,.3g}", n=f"{texts:,}"))
    if s.get("prefill_tokens_per_s") and not s.get("audio_seconds_per_s"):
        parts.append(t("prefill", v=count(s["prefill_tokens_per_s"] or 0)))
    if s.get("train_tokens_per_s") and task in ("train", "lora", "qlora"):
        parts.append(t("train_speed", v=count(s["train_tokens_per_s"] or 0)))
    if s.get("offload_step_s") and s.get("train_tokens_per_s") and task in ("train", "lora", "qlora"):
        parts.append(t("offload_step", v=f"{s['offload_step_s']:,.2g}"))
    if s.get("train_hours_per_billion_tokens") and task in ("train", "lora", "qlora"):
        parts.append(t("train_hours", v=count(s["train_hours_per_billion_tokens"] or 0)))
        if s.get("train_tokens_per_s"):
            parts.append(t("train_per_day", v=amount((s["train_tokens_per_s"] or 0) * 86400)))
    compute, sync = s.get("step_compute_s"), s.get("step_sync_s")
    if compute and sync and task in ("train", "lora", "qlora") and sync > compute:
        # the traffic between the cards is longer than the compute it overlaps: what binds, by how much
        parts.append(t("step_sync_binds", sync=f"{sync:,.3g}", compute=f"{compute:,.3g}",
                       times=f"{sync / compute:,.3g}"))
    if s.get("sharded_train_tokens_per_s") and s.get("train_tokens_per_s") and task == "train":
        sharded = float(s["sharded_train_tokens_per_s"] or 0)
        parts.append(t("expert_parallel_rate", sharded=count(sharded),
                       times=f"{float(s['train_tokens_per_s'] or 0) / max(sharded, 1e-9):,.2g}"))
    if s.get("handoff_ms_per_token") is not None and s.get("decode_tokens_per_s"):
        step_ms = 1000.0 / float(s["decode_tokens_per_s"] or 1)
        prefill_ms = 1000.0 * float(s.get("handoff_prompt_tokens") or 0) / float(s.get("prefill_tokens_per_s") or 1)
        parts.append(t("pipeline_handoff", gbit=f"{s.get('network_gbit') or 0:,.0f}",
                       token=f"{s['handoff_ms_per_token']:.3g}", step=f"{step_ms:,.0f}",
                       prompt=f"{s.get('handoff_prompt_tokens') or 0:,.0f}",
                       prompt_ms=f"{s.get('handoff_ms_per_prompt') or 0:,.1f}", prefill=f"{prefill_ms:,.0f}"))
    if s.get("request_generation_s") is not None and s.get("decode_tokens_per_s"):
        sizes = {"prompt": f"{s.get('request_prompt_tokens') or 0:,.0f}",
                 "out": f"{s.get('request_output_tokens') or 0:,.0f}", "decode": count(s["decode_tokens_per_s"] or 0),
                 "assumed": t("output_assumed") if s.get("request_output_assumed") else ""}
        if s.get("request_s") is not None:
            parts.append(t("request_time", total=seconds_text(s["request_s"] or 0),
                           ttft=seconds_text(s.get("first_token_s") or 0), **sizes))
        else:
            parts.append(t("request_generation_time", gen=seconds_text(s["request_generation_s"] or 0), **sizes))
    timed_on = kb.gpus.get(answer.speed_on.gpu) if answer.speed_on is not None else None
    if timed_on is not None and not compute_known(timed_on):
        parts.append(t("no_compute_figure", gpu=gpu_name(kb, timed_on.id)))
    elif timed_on is None and answer.query.card_bandwidth_gbps and answer.query.gpu is None \
            and (answer.speed_on is None or memory_of_card_id(answer.speed_on.gpu) is not None):
        parts.append(t("no_compute_stated", bw=f"{answer.query.card_bandwidth_gbps:,.4g}"))
    return parts


def seconds_text(seconds: float) -> str:
    """Seconds to the precision a latency is read at: 0.35, 4.2, 38."""
    return f"{seconds:.2f}" if seconds < 1 else f"{seconds:.1f}" if seconds < 10 else f"{seconds:,.0f}"


def live_streams_line(t: Translator, streams: int, speed: dict[str, Any]) -> str:
    """How many live speech streams one card keeps up with, and how many cards the asked number takes; beside a
    count of batched windows, what a captioner refreshing every second keeps up with (audit 27 LOW-84: 362 "live"
    streams on a T4 was the offline count)."""
    line = _live_streams_count(t, streams, speed)
    refreshed = int(speed.get("audio_streams_refreshed_per_card") or 0)
    if line and 0 < refreshed < int(speed.get("audio_streams_per_card") or 0):
        key = "live_streams_refreshed_capacity" if speed.get("audio_streams_asked") else "live_streams_refreshed"
        line += t(key, r=f"{refreshed:,}", cards=f"{-(-streams // refreshed):,}", n=f"{streams:,}")
    return line


def _live_streams_count(t: Translator, streams: int, speed: dict[str, Any]) -> str:
    per_card = int(speed.get("audio_streams_per_card") or 0)
    factor = float(speed.get("audio_seconds_per_s_per_stream") or 0.0)
    if speed.get("audio_streams_asked") and per_card:
        memory_bound = per_card == int(speed.get("audio_streams_per_card_memory") or 0)
        return t("live_streams_capacity", k=f"{per_card:,}", v=count(factor),
                 bound=t("bound_memory" if memory_bound else "bound_speed"))
    if per_card >= streams:
        return t("real_time_streams", n=f"{streams:,}", v=count(factor), total=count(factor * streams))
    if per_card == 0:
        return t("live_stream_falls_behind")
    memory_bound = per_card == int(speed.get("audio_streams_per_card_memory") or 0)
    return t("live_streams_per_card", n=f"{streams:,}", k=f"{per_card:,}", v=count(factor),
             bound=t("bound_memory" if memory_bound else "bound_speed"), cards=f"{-(-streams // per_card):,}")


OBSERVED_BAND = (0.7, 1.3)
"""A measured decode speed within this share of the estimate is "in line with it": the speed rules' own error
(bench/speed_accuracy.py: median about 11%, p90 about 46%) leaves no finer verdict."""


def observed_line(answer: Answer, t: Translator) -> str:
    """The speed the asker measured ("is 15 tok/s normal?") against the estimate for their set-up, and what
    usually explains a gap."""
    seen, expected = answer.speed.get("observed_tokens_per_s"), answer.speed.get("decode_tokens_per_s")
    check = answer.check
    mac_unsized = check is None and bool(answer.speed.get("unified_memory_bandwidth_gbps"))  # its memory unsaid
    # cards compared after a measured speed ("is ~38 tok/s normal, and would a 4090 be faster?"): the speed block
    # is the first card's, the one the asker runs (audit 28 M-51)
    compared = check is None and bool(answer.compare) and answer.speed_on is not None \
        and answer.speed_on.gpu == answer.compare[0]
    if not seen or (check is None and not mac_unsized and not compared):
        return ""
    if check is not None and not check.fits and not check.tight:
        # the set-up as read cannot hold the model: what runs it is a quantised file or system RAM
        return t("observed_no_fit", seen=count(float(seen)))
    on = answer.speed_on
    if not expected or (on is not None and check is not None and (on.gpu, on.count) != (check.gpu, check.count)):
        return ""
    ceiling = answer.speed.get("decode_ceiling_tokens_per_s")
    if ceiling and float(seen) > float(ceiling):
        return t("observed_above_ceiling", seen=count(float(seen)), ceiling=count(float(ceiling)),
                 expected=count(float(expected)))
    ratio = float(seen) / float(expected)
    slow = "observed_slow_mac" if answer.speed.get("unified_memory_bandwidth_gbps") else "observed_slow"
    key = slow if ratio < OBSERVED_BAND[0] else "observed_fast" if ratio > OBSERVED_BAND[1] else "observed_ok"
    return t(key, seen=count(float(seen)), expected=count(float(expected)), pct=f"{100 * ratio:.0f}")


def speculative_text(answer: Answer, t: Translator) -> str:
    """The draft's decode speed-up at each acceptance rate the speed block carries (rules.speculative), or why
    there is none: the figure someone weighing a draft model asks for, given per rate since the rate is theirs."""
    rates = sorted(int(key.rsplit("_", 1)[1]) for key in answer.speed
                   if key.startswith("speculative_decode_tokens_per_s_") and answer.speed[key])
    alone = answer.speed.get("decode_tokens_per_s")
    if not rates or not alone or answer.speed.get("speculative_draft_tokens") is None:
        return t("speculative_untimed")
    speeds = [float(answer.speed[f"speculative_decode_tokens_per_s_{rate}"] or 0) for rate in rates]
    return t("speculative_timed", k=f"{answer.speed['speculative_draft_tokens']:.0f}",
             speeds=" / ".join(count(v) for v in speeds),
             ratios=" / ".join(f"×{v / float(alone):.1f}" for v in speeds),
             rates=" / ".join(f"{rate}%" for rate in rates))



def mac_beside_line(answer: Answer, kb: KnowledgeBase, t: Translator) -> str:
    """The Mac named beside the card: whether it holds the job and its decode speed, against the card's."""
    mac = answer.mac_beside
    if not mac:
        return ""
    chip = kb.apple_chips.get(mac["chip"])
    name = chip.name if chip is not None else str(mac["chip"])
    tps = float(mac["decode_tokens_per_s"] or 0)
    values = {"chip": name, "memory": f"{mac['memory_gb']:g}" if mac["memory_gb"] else "",
              "tps": count(tps), "bandwidth": f"{mac['bandwidth_gbps']:g}"}
    if mac["fits"] is None:
        return t("mac_beside_unsized", **values)
    if not mac["fits"]:
        return t("mac_beside_short", need=f"{mac['need_gib']:.1f}", usable=f"{mac['usable_gib']:.1f}", **values)
    line = t("mac_beside_fits", need=f"{mac['need_gib']:.1f}", usable=f"{mac['usable_gib']:.1f}", **values)
    card = answer.speed.get("decode_tokens_per_s")
    if card and tps and answer.speed_on is not None and not answer.speed.get("unified_memory_bandwidth_gbps"):
        faster = card / tps
        card_name = gpu_name(kb, answer.speed_on.gpu)
        if answer.speed_on.count > 1:
            card_name = f"{answer.speed_on.count}× {card_name}"
        line += " " + (t("mac_beside_card_faster", card=card_name, ratio=f"{faster:.1f}") if faster >= 1.05
                       else t("mac_beside_mac_faster", card=card_name, ratio=f"{1 / faster:.1f}") if faster <= 0.95
                       else t("mac_beside_even", card=card_name))
    return line
