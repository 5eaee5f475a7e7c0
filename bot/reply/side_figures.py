"""Side figures a reply adds beside its own: the other common engine's need, and LoRA beside a full fine-tune.

A user who did not name an engine or asked for "微调" without saying how should see the path most people take
when it changes the answer: vLLM instead of transformers' generate, Unsloth instead of PEFT, LoRA instead of
every weight. Each figure is computed by the same rules as the reply's own.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

import rules
from bot.reply.convert import finite
from bot.reply.model import REFERENCE_RAM, HostMemory, host_memory_of
from bot.reply.precision_defaults import bf16_capable, kv_cache_for
from bot.reply.request_pace import sequences_held
from bot.understand.question import PRETRAINING_TOKENS, Question
from bot.understand.slots.service_rate import LATENCY_OUTPUT_TOKENS
from bot.understand.unknown import BOARD_RAM
from knowledge.base import KnowledgeBase
from knowledge.schema import GPU
from rules import speed_media
from rules.constants import GPUS_PER_NODE, GRADIENT_CHECKPOINTING_MIN_PARAMS_B
from rules.engine_profile import UnsupportedKVCache
from rules.fit import as_chosen, limit_gib
from rules.limits import fits_on, needed_gib
from rules.search import largest_true
from rules.speculative import ACCEPTANCE_RATES, DRAFT_TOKENS, speculative_decode_speeds
from rules.speed import prefill_seconds, train_step_parts, weights_read_bytes
from rules.types import Engine, Workload

CPU_QUANT = "gguf-q4_k_m"
"""The GGUF most CPU users run (llama.cpp's and Ollama's default download)."""

OTHER_ENGINE_SHARE = 0.15
"""Beyond this difference in the per-card need, the reply names the other common engine's figure."""


def cpu_only_figure(question: Question, workload: Workload) -> dict[str, Any] | None:
    """For a question that says there is no GPU: llama.cpp's RAM need for the model in Q4_K_M (weights, KV
    cache at the question's context and its buffers) and the weights each token reads, whose ratio to the RAM
    bandwidth bounds the decode speed (a ceiling at the reference dual-channel DDR5 the host-offload lines use)."""
    if not question.no_gpu or workload.task != "inference" or workload.model.arch != "decoder":
        return None
    stated = workload.quant if (workload.quant or "").startswith("gguf") else None  # "with llama.cpp Q8_0"
    quant = stated or CPU_QUANT
    on_cpu = replace(workload, engine="llama.cpp", precision="int8" if quant.startswith("gguf-q8") else "int4",
                     quant=quant)
    ram = rules.estimate_memory(on_cpu, 1, None).total_gib
    read = weights_read_bytes(on_cpu, 1) / 1e9
    board = BOARD_RAM.get(question.cpu_board or "")
    memory = host_memory_of(question.host_ram, question.host_ram_gb) or (
        HostMemory(channels=1, kind=board[0], mts=board[1], bus_bits=board[2]) if board else REFERENCE_RAM)
    bandwidth = memory.bandwidth_gbps
    return {"quant": quant, "ram_gb": round(ram, 1), "read_gb_per_token": round(read, 2),
            "ram_bound_tokens_per_s": round(bandwidth / read, 1) if read else None,
            "ram_channels": memory.channels, "ram_kind": memory.kind, "ram_mts": memory.mts,
            "ram_bus_bits": memory.bus_bits, "ram_bandwidth_gbps": round(bandwidth, 1), "board": question.cpu_board}


def other_engine_figure(question: Question, workload: Workload, count: int, gpu: GPU | None,
                        estimate: Any) -> dict[str, Any] | None:
    """The other common engine's per-card need, when the engine was not stated and it differs by > 15%; and
    Unsloth's, stated engine or not, for a LoRA or QLoRA that transformers does not fit on the card asked (a
    pasted OOM of PEFT + bitsandbytes: switching the engine is the change that keeps the card, audit 31 M-84)."""
    peft_oom = (question.engine == "transformers" and workload.task in ("lora", "qlora") and gpu is not None
                and (estimate.required_per_gpu_gib or estimate.per_gpu_gib) > limit_gib(workload, gpu))
    if (question.engine is not None and not peft_oom) or workload.model.arch != "decoder":
        return None
    pairs: dict[str, Engine] = {"transformers": "vllm", "vllm": "transformers"} if workload.task == "inference" else (
        {"transformers": "unsloth"} if workload.task in ("lora", "qlora") else {})
    other = pairs.get(workload.engine)
    if other is None:
        return None
    on_other = replace(workload, engine=other)
    if not rules.runs_model_code(on_other):
        return None
    try:
        alternative = rules.estimate_memory(on_other, count, gpu)
    except UnsupportedKVCache:
        return None  # the KV-cache type asked for exists on this engine only: no like-for-like figure
    mine = estimate.required_per_gpu_gib or estimate.per_gpu_gib
    theirs = alternative.required_per_gpu_gib or alternative.per_gpu_gib
    if not mine or abs(theirs - mine) <= OTHER_ENGINE_SHARE * mine:
        return None
    figure: dict[str, Any] = {"engine": other, "per_gpu_gb": round(theirs, 2)}
    holds = gpu is not None and theirs <= limit_gib(on_other, gpu)
    if question.tokens and gpu is not None and holds and rules.compute_known(gpu) and workload.task != "inference":
        # "how long for 50M tokens" on the card asked, which the other engine fits (audit 16 C-L8); none on cards
        # it does not fit (audit 26 LOW-56: "≈ 14.2 h on these cards" for 29.9 GiB on 23.5 GiB cards)
        rate = rules.estimate_speed(as_chosen(on_other, alternative.chosen), gpu, count).train_tokens_per_s
        if rate:
            figure["train_hours"] = round(question.tokens / rate / 3600.0, 2)
            # its time is with the checkpointing it sets up: said when the stack above runs without it, or the
            # faster engine reads as the slower one (audit 27 LOW-75: Unsloth 25.3 h beside transformers 18.9 h)
            mine_checkpoints = bool(getattr(estimate, "chosen", {}).get("gradient_checkpointing"))
            if alternative.chosen.get("gradient_checkpointing") and not mine_checkpoints:
                figure["checkpointing"] = True
    if alternative.chosen.get("profiled_images"):
        # An image model's figure on vLLM is mostly its start-up profile: say so, or it reads as the model's need.
        figure.update(profiled_images=alternative.chosen["profiled_images"],
                      image_encoder_gb=alternative.chosen.get("image_encoder_gib"))
    return figure


def other_stage_figure(question: Question, workload: Workload, kb: KnowledgeBase) -> dict[str, Any] | None:
    """The need of the second ZeRO stage the text names ("we run ZeRO-2 … would ZeRO-3 fit on these 4 cards?") on
    the cards it names, by the same rules as the reply's own figure, and at micro-batch 1 when the batch asked does
    not fit: the sub-question is answered, not left to a fix list that may name another change."""
    named = question.gpu or next(iter(question.compare_gpus), None)  # "these 4 cards" against what to rent
    gpu = kb.gpus.get(named or "")
    if question.other_zero_stage is None or workload.task == "inference" or gpu is None:
        return None
    count = question.gpu_count or 1
    on_other = replace(workload, zero_stage=question.other_zero_stage)
    fits, estimate = fits_on(on_other, gpu, count)
    figure: dict[str, Any] = {"stage": question.other_zero_stage, "mine": question.zero_stage, "gpu": gpu.id,
                              "count": count, "fits": fits, "per_gpu_gb": round(needed_gib(estimate), 1),
                              "limit_gb": round(limit_gib(on_other, gpu), 1)}
    if not fits and on_other.batch > 1:
        fits_one, one = fits_on(replace(on_other, batch=1), gpu, count)
        figure.update(batch_one_gb=round(needed_gib(one), 1), batch_one_fits=fits_one)
    return figure


def replica_cards(question: Question) -> int:
    """The cards one replica of the set-up asked runs on: the tensor-parallel degree written, when below the cards
    asked ("4x L40S … --tensor-parallel-size 2"), else those cards."""
    count = question.gpu_count or 1
    return question.tensor_parallel if question.tensor_parallel and question.tensor_parallel < count else count


def other_kv_figure(question: Question, workload: Workload, kb: KnowledgeBase) -> dict[str, Any] | None:
    """The KV-cache type the text weighs beside the set-up it runs ("if we switch the KV cache to fp8, how many
    32k sequences fit per replica?"): sequences of the length asked that one replica's memory holds with the cache
    it runs and with the one weighed, on a replica's cards (the tensor-parallel degree written, else the cards
    asked). The job above stays sized as it runs (audit 25 HIGH 22)."""
    gpu = kb.gpus.get(question.gpu or "")
    other = question.other_kv_cache
    if other is None or workload.task != "inference" or workload.model.arch != "decoder":
        return None
    if gpu is None:
        # "KV cache 用 int8 和 fp16 比…差多少显存": no card to fill, so the two caches' sizes for the job asked
        # (audit 31 LOW-147: only the first was given)
        asked_kv = kv_cache_for(other, workload.engine, [])
        if asked_kv is None or asked_kv == workload.kv_cache:
            return None
        try:
            sizes = {key: rules.estimate_memory(replace(workload, kv_cache=kv), 1, None).breakdown["kv_cache"]
                     for key, kv in (("now_gib", workload.kv_cache), ("other_gib", asked_kv))}
        except UnsupportedKVCache:
            return None
        return {"kv_cache": asked_kv, "now_kv": workload.kv_cache or workload.precision, **sizes}
    count = replica_cards(question)
    length = question.other_kv_context or workload.context
    asked = kv_cache_for(other, workload.engine, [])
    if asked is None or asked == workload.kv_cache:
        return None
    figure: dict[str, Any] = {"kv_cache": asked, "gpu": gpu.id, "count": count, "context": length,
                              "max_num_seqs": question.max_num_seqs}
    for key, kv in (("now", workload.kv_cache), ("other", asked)):
        sized = replace(workload, context=length, kv_cache=kv)
        try:
            held = sequences_held(sized, gpu, count)
        except UnsupportedKVCache:
            return None  # the engine takes no such cache: the reply's own notes say what it does take
        figure[key] = held
    return figure


def engine_length_figure(question: Question, workload: Workload, kb: KnowledgeBase) -> dict[str, Any] | None:
    """The engine's length flag written beside shorter requests ("--max-model-len 32768 … 输入 3k、输出 800"):
    vLLM and SGLang refuse to start when one sequence of the flag's length does not fit the KV cache they leave
    (the log's "max seq len (32768) is larger than the maximum number of tokens that can be stored in KV cache"),
    so the reply says whether that length starts on a replica's cards and, if not, the longest that does. The job
    above stays sized at the requests' lengths (audit 26 LOW-61)."""
    gpu = kb.gpus.get(question.gpu or "")
    length = question.engine_max_len
    if (length is None or gpu is None or workload.task != "inference" or workload.model.arch != "decoder"
            or workload.engine not in ("vllm", "sglang") or length <= workload.context):
        return None
    count = replica_cards(question)
    figure: dict[str, Any] = {"length": length, "gpu": gpu.id, "count": count, "logged": question.logged_kv_tokens,
                              "requests": workload.context}
    one = replace(workload, context=length, batch=1, gen_tokens=None)
    if sequences_held(one, gpu, count, most=1) >= 1:
        return {**figure, "starts": True, "longest": length}
    longest = largest_true(
        lambda tokens: sequences_held(replace(one, context=tokens), gpu, count, most=1) >= 1,
        workload.context, length)
    if longest < workload.context:
        return None  # not even the requests fit: the check above says so
    return {**figure, "starts": False, "longest": longest // LENGTH_FLAG_STEP * LENGTH_FLAG_STEP}


LENGTH_FLAG_STEP = 1024
"""The longest length that starts is given rounded down to this, as people set the flag."""


FULL_WORDS = re.compile(
    r"\bfull\b|full[-_ ]?(?:fine[-_ ]?tun|ft|param)|from scratch|pre-?train|全参|全量|全部参数|预训练|從頭|全參", re.I)
"""Words that ask for full training explicitly: then no LoRA alternative is offered."""


LIGHTER_TASK_MIN_GIB = 80.0
"""A full fine-tune on one card above this (a B200-class card) also gets the LoRA figure."""


def lighter_task_figure(question: Question, workload: Workload, count: int, gpu: GPU | None,
                        per_gpu_gib: float) -> dict[str, Any] | None:
    """What LoRA needs on one of `gpu`, for a full fine-tune that takes several cards (or one very large one)
    and was not asked for as full, on hardware the question did not fix ("微调 ChatGLM3-6B"): most people
    mean adapters, and the reply should show that path too."""
    if workload.task != "train" or gpu is None or question.gpu_count is not None:
        return None
    if FULL_WORDS.search(question.text or "") or (count < 2 and per_gpu_gib <= LIGHTER_TASK_MIN_GIB):
        return None
    if (question.tokens or 0) >= PRETRAINING_TOKENS:
        return None  # "training a 13B model on 200B tokens" is pre-training: no adapter does that job
    if workload.model.arch != "decoder":
        return None
    # With gradient checkpointing, as LoRA recipes above 1B run: on a roomy card the rules would leave it off
    # and show a figure nobody plans for.
    lora = replace(workload, task="lora", zero_stage=None,
                   gradient_checkpointing=workload.model.params_b > GRADIENT_CHECKPOINTING_MIN_PARAMS_B)
    estimate = rules.estimate_memory(lora, 1, gpu)
    need = estimate.required_per_gpu_gib or estimate.per_gpu_gib
    if need > limit_gib(lora, gpu):
        return None
    return {"task": "lora", "gpu": gpu.id, "count": 1, "per_gpu_gb": round(need, 2)}


def image_settings(workload: Workload) -> tuple[int | None, int | None]:
    """(steps, pixels per side) a diffusion job runs at: as asked, else the model card's steps and native size."""
    model = workload.model
    steps = workload.image_steps or speed_media.diffusion_steps(model)
    resolution = workload.image_resolution or int(model.details.get("native_resolution") or 0) or None
    return steps, resolution


def image_seconds(workload: Workload, gpu: GPU, kb: KnowledgeBase) -> float | None:
    """Seconds per image of a diffusion job on `gpu`, at its `image_settings`."""
    model = workload.model
    reference = model.details.get("reference_speed")
    ref_gpu = kb.gpus.get(str(reference.get("gpu"))) if isinstance(reference, dict) else None
    steps, resolution = image_settings(workload)
    return speed_media.diffusion_seconds_per_image(model, gpu, ref_gpu, steps, resolution)


def serving_engine_speed(question: Question, workload: Workload, gpu: GPU, count: int) -> dict[str, float | None]:
    """transformers' `generate` is launch-bound (single-digit tok/s for large models); when the engine was not
    stated, the reply also gives what the usual serving engine does on the same cards."""
    if (question.engine or workload.task != "inference" or workload.engine != "transformers"
            or workload.model.arch != "decoder" or not bf16_capable(gpu)):
        return {}
    figures = rules.estimate_speed(replace(workload, engine="vllm"), gpu, count)
    return {"vllm_decode_tokens_per_s": finite(figures.decode_tokens_per_s, 1)}


def token_speed(question: Question, timed: Workload, gpu: GPU, count: int) -> dict[str, float | None]:
    """The speed figures of `count` × `gpu` running `timed` (the configuration the reply is about), in the units
    the reply shows, with the usual serving engine's decode beside a transformers one."""
    figures = rules.estimate_speed(timed, gpu, count)
    speed = {
        "decode_tokens_per_s": finite(figures.decode_tokens_per_s, 1),
        "prefill_tokens_per_s": finite(figures.prefill_tokens_per_s, 0),
        "aggregate_tokens_per_s": finite(figures.aggregate_tokens_per_s, 1),
        "train_tokens_per_s": finite(figures.train_tokens_per_s, 0),
        "offload_step_s": finite(figures.offload_step_s, 2),
        "sharded_train_tokens_per_s": finite(figures.sharded_train_tokens_per_s, 0),
        "train_hours_per_billion_tokens": (finite(rules.training_hours(timed, gpu, count, 1e9), 1)
                                           if timed.task != "inference" else None),
    }
    if timed.task != "inference" and count > 1 and rules.compute_known(gpu):
        # the micro-step's compute beside its data-parallel traffic: what a slow fabric costs (audit 30 M-73)
        compute, sync = train_step_parts(timed, gpu, count)
        speed.update(step_compute_s=finite(compute, 2), step_sync_s=finite(sync, 2))
    speed.update(serving_engine_speed(question, timed, gpu, count))
    # "how long to generate a 1,000-token answer": a time asked for one stated output is that request's time
    one_request = question.asks_time and "gen_tokens" in question.stated and not question.output_tokens
    if (question.asks_latency or one_request) and timed.task == "inference" and figures.decode_tokens_per_s:
        speed.update(request_time(timed, gpu, count, figures.decode_tokens_per_s))
    stated_network = timed.inter_node_gbps is not None
    if timed.task == "inference" and rules.spans_machines(count) and timed.model.hidden_size and stated_network:
        # a pipeline across machines hands each token's activations over the network stated: what that costs
        # per token and per prompt, against the step and the prefill ("100G Ethernet between them: slow?")
        one = replace(timed, batch=1)
        prompt = max(1, timed.context - (timed.gen_tokens or 0))
        speed.update(handoff_ms_per_token=finite(1000 * rules.pipeline_handoff_seconds(one, gpu, count, 1), 4),
                     handoff_ms_per_prompt=finite(1000 * rules.pipeline_handoff_seconds(one, gpu, count, prompt), 1),
                     handoff_prompt_tokens=float(prompt),
                     network_gbit=finite(8 * GPUS_PER_NODE * rules.inter_node_gbps(gpu, timed.inter_node_gbps), 0))
    if timed.task == "inference" and timed.draft_model is not None:
        speed.update(speculative_speeds(timed, gpu, count))
    on_cards = timed.gpu_layers is None and not timed.cpu_moe_layers
    if question.observed_tokens_per_s and timed.task == "inference" and on_cards:
        # "is 40 tok/s normal?": a measured speed above what the bandwidth allows is not "in line"
        speed["decode_ceiling_tokens_per_s"] = finite(rules.decode_ceiling_tokens_per_s(timed, gpu, count), 1)
    return speed


def speculative_speeds(timed: Workload, gpu: GPU, count: int) -> dict[str, float | None]:
    """One sequence's decode with the draft at each acceptance rate of rules.speculative, keyed by the rate in
    percent: "what speed-up does the draft give" has no single answer, but one per rate the engine will log."""
    speeds = speculative_decode_speeds(timed, gpu, count, ACCEPTANCE_RATES)
    if speeds is None:
        return {}
    out: dict[str, float | None] = {f"speculative_decode_tokens_per_s_{round(100 * rate)}": finite(value, 1)
                                    for rate, value in zip(ACCEPTANCE_RATES, speeds, strict=True)}
    out["speculative_draft_tokens"] = float(DRAFT_TOKENS)
    return out


def request_time(timed: Workload, gpu: GPU, count: int, decode_tokens_per_s: float) -> dict[str, float | None]:
    """One request on the configuration timed, for "what latency will users see": its prompt's prefill and first
    decode step (the first token), then the rest of its output at the per-sequence decode of the batch timed.
    Prefills of other users' requests interleaved with it are not counted, so a loaded p95 is longer. On a card
    with no compute figure only the output's generation is timed."""
    output = timed.gen_tokens or LATENCY_OUTPUT_TOKENS
    prompt = max(1, timed.context - output)
    figures: dict[str, float | None] = {"request_output_tokens": float(output), "request_prompt_tokens": float(prompt),
                                        "request_generation_s": finite(output / decode_tokens_per_s, 2),
                                        "request_output_assumed": None if timed.gen_tokens else 1.0}
    if rules.compute_known(gpu):
        first = prefill_seconds(replace(timed, batch=1), gpu, count, prompt) + 1.0 / decode_tokens_per_s
        figures["first_token_s"] = finite(first, 3)
        figures["request_s"] = finite(first + (output - 1) / decode_tokens_per_s, 2)
    return figures


def mac_speed_at_fix(question: Question, timed: Workload, gpu: GPU | None, check: Any,
                     kb: KnowledgeBase) -> dict[str, float | None]:
    """A Mac that holds the job only at a shorter context (Ollama's default for its memory is longer): the
    decode speed at the context that fits, which is what the asker runs once num_ctx is set (audit 16 C-M4)."""
    if check is None or check.fits or check.tight:
        return {}
    fix = next((s for s in check.suggestions if s.kind == "shorter-context" and s.context), None)
    if fix is None:
        return {}
    figures = mac_speed(question, replace(timed, context=int(fix.context)), gpu, True, kb)
    return {**figures, "mac_speed_context": float(fix.context)} if figures else {}


def mac_speed(question: Question, timed: Workload, gpu: GPU | None, holds: bool,
              kb: KnowledgeBase) -> dict[str, float | None]:
    """A Mac named with its chip: llama.cpp's Metal decode, bound by the unified memory's bandwidth, when the job
    is held (`holds`) or a speed measured on it shows it loaded (its memory then unsaid); {} otherwise."""
    chip = kb.apple_chips.get(question.apple_chip or "") if question.unified_memory else None
    measured = gpu is None and bool(question.observed_tokens_per_s)
    if (chip is None or not (measured or (gpu is not None and gpu.id not in kb.gpus)) or not holds
            or timed.task != "inference" or timed.model.arch != "decoder" or timed.engine != "llama.cpp"):
        return {}
    bandwidth = chip.bandwidth_for(question.memory_gb)
    return {"decode_tokens_per_s": finite(rules.unified_memory_decode_tokens_per_s(timed, bandwidth), 1),
            "unified_memory_bandwidth_gbps": bandwidth}
