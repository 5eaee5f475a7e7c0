"""The serving plan's lines in the cost block: replicas for a load (tokens, encoded texts, images, speech windows or
live streams), what binds the plan, and what a busier or shorter load would change.

Split from `bot.reply.cost_view`, whose one function had grown past what a reader holds at once.
"""

from __future__ import annotations

import math

from bot.reply.cost_view import ENCODER_BUSY_SHARE, rate_text
from bot.reply.formatting import gpu_name
from bot.reply.i18n import Translator
from bot.reply.model import Answer
from knowledge.base import KnowledgeBase
from rules.constants import GPUS_PER_NODE

_PIPELINE_FLAGS = {"vllm": "vLLM --pipeline-parallel-size"}
"""The flag that pipelines a replica across nodes where the engine profile sources it (vLLM's engine arguments); other
engines are told by what it does, not by a flag guessed for them."""


def plan_lines(answer: Answer, kb: KnowledgeBase, t: Translator) -> list[str]:
    """The serving plan, as lines; [] without one."""
    lines: list[str] = []
    query = answer.query
    if answer.serving is not None and answer.serving.binding == "throughput":
        s = answer.serving
        lines.append(t("serving_plan_encoder", replicas=s.replicas, count=s.gpus_per_replica,
                       gpu=gpu_name(kb, s.gpu), rate=f"{s.targets.get('sequences_per_s_per_replica', 0):,.1f}",
                       batch=s.sequences_per_replica, qps=rate_text(s.targets.get("qps", 0.0)),
                       agg=f"{s.aggregate_tokens_per_s or 0:,.0f}", latency=f"{s.ttft_s or 0:.2f}"))
        capacity = s.replicas * s.targets.get("sequences_per_s_per_replica", 0.0)
        if not s.met:
            lines.append(t("encoder_replica_cap", replicas=f"{s.replicas:,}", capacity=f"{capacity:,.0f}"))
        elif capacity and (s.concurrent_needed or 0) > ENCODER_BUSY_SHARE * capacity:
            # 278 texts a second on one V100 that encodes 279.6: busy 99.5% of the time (audit 29 M-64)
            # room means the replicas busy no more than ENCODER_BUSY_SHARE of the time, not one more replica on
            # 537 (0.2% headroom: audit 32 LOW-173)
            roomy = math.ceil((s.concurrent_needed or 0) / (ENCODER_BUSY_SHARE * capacity / s.replicas))
            lines.append(t("encoder_busy", share=f"{100 * (s.concurrent_needed or 0) / capacity:.0f}",
                           more=f"{max(roomy, s.replicas + 1):,}"))
    elif answer.serving is not None and answer.serving.binding == "images":
        s = answer.serving
        lines.append(t("image_service_assumed" if s.targets.get("images_per_user_assumed") else "image_service",
                       wanted=f"{s.targets.get('images_per_minute', 0):,.4g}", replicas=f"{s.replicas:,}",
                       count=s.gpus_per_replica, gpu=gpu_name(kb, s.gpu),
                       per_card=f"{s.targets.get('images_per_minute_per_replica', 0):,.1f}"))
    elif answer.serving is not None and answer.serving.binding == "embedded_images":
        s = answer.serving
        lines.append(t("embedding_service", wanted=f"{s.targets.get('images_per_s', 0):,.4g}",
                       replicas=f"{s.replicas:,}", count=s.gpus_per_replica, gpu=gpu_name(kb, s.gpu),
                       per_card=f"{s.targets.get('images_per_s_per_replica', 0):,.0f}"))
    elif answer.serving is not None and answer.serving.binding == "live_audio":
        s = answer.serving
        lines.append(t("live_audio_plan", streams=f"{s.targets.get('streams', 0):,.0f}", replicas=f"{s.replicas:,}",
                       count=s.gpus_per_replica, gpu=gpu_name(kb, s.gpu),
                       per_card=f"{s.targets.get('streams_per_replica', 0):,.0f}"))
    elif answer.serving is not None and answer.serving.binding == "audio_requests":
        s = answer.serving
        clip = s.targets.get("clip_seconds") or 0.0
        each = t("audio_clip_assumed") if s.targets.get("clip_assumed") else t("audio_clip", s=f"{clip:g}")
        lines.append(t("audio_request_plan", rate=rate_text(s.targets.get("qps", 0.0)), clip=each,
                       windows=rate_text(s.targets.get("windows_per_s", 0.0)), replicas=f"{s.replicas:,}",
                       count=s.gpus_per_replica, gpu=gpu_name(kb, s.gpu),
                       per_card=f"{s.targets.get('windows_per_s_per_replica', 0):,.2f}"))
    elif answer.serving is not None:
        s = answer.serving
        lines.append(t("serving_plan", replicas=s.replicas, count=s.gpus_per_replica, gpu=gpu_name(kb, s.gpu),
                       per_replica=s.sequences_per_replica, users=f"{s.concurrent_needed:,}",
                       agg=f"{s.aggregate_tokens_per_s or 0:,.0f}",
                       speed=f"{s.decode_tokens_per_s or 0:,.1f}", ttft=f"{s.ttft_s or 0:.2f}"))
        output = answer.speed.get("request_output_tokens")
        if output and s.decode_tokens_per_s and s.ttft_s is not None:
            # the latency asked ("what p95?"): a request's mean at the plan's load, its p95 said to be longer
            mean = s.ttft_s + (float(output) - 1.0) / s.decode_tokens_per_s
            lines.append(t("plan_request_time", s=f"{mean:.1f}", out=f"{output:,.0f}"))
        if s.targets.get("short_reply_tokens"):
            short = int(s.targets.get("short_reply_replicas", 0)), int(s.targets.get("short_reply_cards", 0))
            lines.append(t("short_reply_plan", assumed=f"{s.targets.get('assumed_reply_tokens', 0):,.0f}",
                           short=f"{s.targets['short_reply_tokens']:,.0f}", replicas=f"{short[0]:,}",
                           config=f"{short[1]}× {gpu_name(kb, s.gpu)}", cards=f"{short[0] * short[1]:,}"))
        if s.targets.get("max_qps"):
            lines.append(t("max_rate", rate=rate_text(s.targets["max_qps"]), replicas=f"{s.replicas:,}",
                           config=f"{s.gpus_per_replica}× {gpu_name(kb, s.gpu)}",
                           tokens=f"{query.context or 0:,}", prefill=f"{s.targets.get('max_qps_prefill', 0):,.0f}"))
        if s.targets.get("busy_qps"):
            busy = int(s.targets.get("busy_replicas", 0))
            lines.append(t("busy_turnover", users=f"{s.concurrent_needed:,}", rate=rate_text(s.targets["busy_qps"]),
                           replicas=f"{busy:,}", cards=f"{busy * s.gpus_per_replica:,}", gpu=gpu_name(kb, s.gpu),
                           kept=rate_text(s.targets.get("plan_qps", 0.0))))
        if s.targets.get("users_at_target"):
            lines.append(t("users_at_target", users=f"{s.targets['users_at_target']:,.0f}",
                           target=f"{s.targets.get('per_user_target', 0):,.3g}",
                           config=f"{s.gpus_per_replica}× {gpu_name(kb, s.gpu)}",
                           held=f"{s.targets.get('users_by_memory', 0):,.0f}"))
        if s.binding == "compute_cap":
            needed = int(s.targets.get("compute_replicas", 0))
            lines.append(t("binding_compute_cap", replicas=f"{s.targets.get('replica_cap', 0):,.0f}",
                           needed=f"{needed:,}", cards=f"{needed * s.gpus_per_replica:,}", gpu=gpu_name(kb, s.gpu)))
        elif s.targets.get("busy_qps") and s.binding in ("memory", "sequence_cap"):
            pass  # what binds is the prefill the busy users would bring, said above
        elif s.binding in ("memory", "sequence_cap") and s.met and s.replicas == 1 \
                and s.concurrent_needed < s.sequences_per_replica:
            # one replica holds the load with room to spare: nothing binds (audit 25 LOW-49)
            lines.append(t("binding_none", held=f"{s.sequences_per_replica:,}", users=f"{s.concurrent_needed:,}"))
        elif s.binding in ("full_load", "concurrency", "volume", "sequence_cap", "replica_cap"):
            lines.append(t(f"binding_{s.binding}", cap=f"{s.targets.get('sequence_cap', 0):,.0f}",
                           context=f"{query.context or 0:,}", replicas=f"{s.targets.get('replica_cap', 0):,.0f}",
                           served=f"{s.replicas * s.sequences_per_replica:,}",
                           needed=f"{-(-s.concurrent_needed // max(1, s.sequences_per_replica)):,}",
                           cards=f"{-(-s.concurrent_needed // max(1, s.sequences_per_replica)) * s.gpus_per_replica:,}",
                           gpu=gpu_name(kb, s.gpu)))
        elif s.binding == "speed" and s.met and s.targets.get("together_tokens_per_s"):
            lines.append(t("binding_speed_together", users=f"{s.targets['together_users']:,.0f}",
                           cards=f"{s.gpus_per_replica:,}", gpu=gpu_name(kb, s.gpu),
                           v=f"{s.targets['together_tokens_per_s']:,.3g}",
                           target=f"{s.targets.get('per_user_target', 0):,.3g}"))
        else:
            lines.append(t(f"binding_{s.binding}", nodes=s.gpus_per_replica // GPUS_PER_NODE,
                           flag=_PIPELINE_FLAGS.get(answer.query.engine or "", t("pipeline_flag_other")))
                         if s.met or s.binding == "ttft" else t("speed_not_met"))
    return lines


__all__ = ["plan_lines"]
