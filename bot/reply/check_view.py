"""The check's view: the verdict's figures, the cards of a set, and each alternative's label as people type it."""

from __future__ import annotations

from typing import Any

from bot.reply.capacity import memory_of_card_id
from bot.reply.cost_view import amount
from bot.reply.formatting import count, gb, gpu_name, hours_figure
from bot.reply.i18n import Translator
from bot.reply.model import REFERENCE_RAM, Answer, CheckOut, HostMemory
from bot.reply.readback import engine_name
from knowledge.base import KnowledgeBase
from knowledge.engines import engine_min_capability, format_min_capability, load_engine_profiles, offloads_parameters
from knowledge.schema import Model
from rules.alternatives import ONLINE_FP8_ENGINES
from rules.constants import GIB, HEADROOM_FRACTION
from rules.engine_profile import measures_free_memory
from rules.speed import tensor_parallel
from rules.weight_formats import GGUF_BYTES_PER_PARAM

KV_CACHE_FLAGS: dict[tuple[str, str], str] = {
    ("vllm", "fp8"): "--kv-cache-dtype fp8", ("sglang", "fp8"): "--kv-cache-dtype fp8_e5m2",
    ("tensorrt-llm", "fp8"): "--kv_cache_dtype fp8 at quantisation", ("lmdeploy", "int8"): "--quant-policy 8",
    ("lmdeploy", "int4"): "--quant-policy 4",
    ("llama.cpp", "int8"): "-fa on -ctk q8_0 -ctv q8_0; Ollama: OLLAMA_FLASH_ATTENTION=1 OLLAMA_KV_CACHE_TYPE=q8_0",
    ("llama.cpp", "int4"): "-fa on -ctk q4_0 -ctv q4_0; Ollama: OLLAMA_FLASH_ATTENTION=1 OLLAMA_KV_CACHE_TYPE=q4_0",
}
"""How each engine is told to store its KV cache smaller (its documented flag), for the suggestion's label.
Ollama's environment variables are the ones its server prints in its config line (ollama/ollama issue 11471)."""

FLASH_ATTENTION_FLAGS: dict[str, str] = {
    "transformers": 'attn_implementation="sdpa" or "flash_attention_2"',
    "llama.cpp": "-fa on; Ollama: OLLAMA_FLASH_ATTENTION=1",
    "unsloth": 'attn_implementation="sdpa"', "llama-factory": "--flash_attn fa2",
}
"""How each engine is told to use a fused attention kernel, for the suggestion's label."""

ONLINE_FP8_FLAG = "--quantization fp8"
"""How the engines of rules.alternatives.ONLINE_FP8_ENGINES are told to quantise a 16-bit checkpoint at load."""


def suggestion_label(t: Translator, kb: KnowledgeBase, s: Any, engine: str | None = None,
                      version: str | None = None, model: str | None = None, *, ollama: bool = False,
                      card_bandwidth_gbps: float | None = None, ram: HostMemory | None = None) -> str:
    kind = s.kind.replace("-", "_")
    if s.engine and s.engine != engine:
        # another engine's route (a Q4_K_M GGUF on llama.cpp / Ollama): said first, then its own flags
        # the card's and the RAM's bandwidth go along: the RAM part's decode ceiling is the speed asked of a laptop
        # (audit 39 M-161: "several times slower" where the same route elsewhere gave a figure)
        label = suggestion_label(t, kb, s.model_copy(update={"engine": None}), s.engine, version, model,
                                 card_bandwidth_gbps=card_bandwidth_gbps, ram=ram)
        route = t("sugg_on_engine", quant=(s.quant or "").removeprefix("gguf-").upper(), engine=engine_name(s.engine))
        return route if kind == "quantise" else f"{route}, {label}"
    if kind == "quantise":
        quant = ONLINE_FP8_FLAG if s.quant == "fp8" and engine in ONLINE_FP8_ENGINES else s.quant
        sized = kb.models.get(model or "")
        if sized is not None and s.precision == sized.native_precision:
            # the format the model is released in ("DeepSeek-R1 … FP8"): its own checkpoint, not a quantisation
            # of it (audit 36 LOW-206: "量化到 FP8 (--quantization fp8)")
            label = t("sugg_release_format", precision=(s.precision or "").upper())
        elif quant in GGUF_BYTES_PER_PARAM:
            # a GGUF type is its own name and bits (Q2_K is 2.6 bits a weight, not "INT4")
            label = t("sugg_quantise_gguf", quant=quant.removeprefix("gguf-").upper(),
                      bits=f"{8 * GGUF_BYTES_PER_PARAM[quant]:.1f}")
        else:
            label = t("sugg_quantise", precision=(s.precision or "").upper(), quant=f" ({quant})" if quant else "")
        if s.kv_cache:
            flag = KV_CACHE_FLAGS.get((engine or "", s.kv_cache or ""))
            label += t("sugg_and_kv_cache", kv=s.kv_cache.upper(), flag=f" ({flag})" if flag else "")
        return label + (t("sugg_on_cards", count=s.count, gpu=gpu_name(kb, s.gpu)) if s.count and s.gpu else "")
    if kind == "other_format":
        return t("sugg_other_format", precision=(s.precision or "").upper(), quant=f" ({s.quant})" if s.quant else "")
    if kind in ("more_gpus", "bigger_gpu"):
        return t(f"sugg_{kind}", count=s.count or 1, gpu=gpu_name(kb, s.gpu))
    if kind == "shorter_context":
        return t("sugg_shorter_context_ollama" if ollama else "sugg_shorter_context",
                 context=f"{s.context:,}" if s.context else "?", n=s.context or 0)
    if kind == "smaller_batch":
        return t("sugg_smaller_batch", batch=s.batch or 1)
    if kind == "zero3" and (s.batch or s.optimizer):
        return (t("sugg_zero3") + (t("sugg_with_8bit_adam") if s.optimizer else "")
                + (t("sugg_at_micro_batch", batch=s.batch) if s.batch else ""))
    if kind == "fewer_requests":
        return t("sugg_fewer_requests", n=s.max_num_seqs or 1)
    if kind == "engine_build":
        return t("sugg_engine_build", slots=s.max_num_seqs or 1, length=s.context or 0)
    if kind == "kv_cache":
        flag = KV_CACHE_FLAGS.get((engine or "", s.kv_cache or ""))
        return t("sugg_kv_cache", kv=(s.kv_cache or "").upper(), flag=f" ({flag})" if flag else "")
    if kind == "flash_attention":
        flag = FLASH_ATTENTION_FLAGS.get(engine or "")
        return t("sugg_flash_attention", flag=f" ({flag})" if flag else "")
    if kind in ("lora", "qlora") and s.batch:
        return t(f"sugg_{kind}") + t("sugg_at_micro_batch", batch=s.batch)
    if kind == "qlora" and s.context:
        return t("sugg_qlora") + t("sugg_at_samples", context=f"{s.context:,}")
    if kind == "pipeline_parallel":
        flag = {"vllm": f"--tensor-parallel-size 1 --pipeline-parallel-size {s.count}",
                "sglang": f"--tp-size 1 --pp-size {s.count}"}.get(engine or "", "")
        return t("sugg_pipeline_parallel", n=s.count or "?", flag=f" ({flag})" if flag else "")
    if kind == "one_card_replicas":
        return t("sugg_one_card_replicas", n=s.count or "?")
    if kind == "dp_attention":
        profile = load_engine_profiles().get(engine or "")
        flag = profile.dp_attention.flag.replace(" N", f" {s.count}") if profile and profile.dp_attention else ""
        return t("sugg_dp_attention", flag=f" ({flag})" if flag else "")
    if kind == "newer_engine":
        label = t("sugg_newer_engine", engine=engine_name(engine or "transformers"), version=version or "?")
        if s.flash_attention:
            flag = FLASH_ATTENTION_FLAGS.get(engine or "")
            label += t("sugg_and_flash_attention", flag=f" ({flag})" if flag else "")
        return label
    if kind == "cpu_layers":
        sized = kb.models.get(model or "")
        share = routed_share(sized)  # an MoE token reads only its routed experts, in RAM and on the card alike
        ram = ram or REFERENCE_RAM
        ceiling = split_decode_ceiling((s.host_ram_gb or 0.0) * share,
                                       (s.memory_per_gpu_gb or 0.0) * (s.count or 1) * share, card_bandwidth_gbps,
                                       ram.bandwidth_gbps)
        fields = dict(slots=s.gpu_layers or 0, total=(sized.num_layers or 0) + 1 if sized else "?",
                      where=t("the_cards" if (s.count or 1) > 1 else "the_card"),
                      host=f"{s.host_ram_gb:,.0f}" if s.host_ram_gb else "?")
        if not ceiling:
            return t("sugg_cpu_layers", **fields)
        return t("sugg_cpu_layers_speed", tps=count(ceiling), memory=ram_name(t, ram), **fields)
    if kind == "cpu_experts":
        sized = kb.models.get(model or "")
        layers = (sized.num_layers or 0) if sized else 0
        key = "sugg_cpu_experts_all" if layers and (s.cpu_moe_layers or 0) >= layers else "sugg_cpu_experts"
        label = t(key, n=s.cpu_moe_layers or 0, layers=layers or "?",
                  host=f"{s.host_ram_gb:,.0f}" if s.host_ram_gb else "?")
        return label + t("sugg_not_in_ollama") if ollama else label
    if kind in ("offload_optimizer", "offload_all"):
        if kind == "offload_all" and offloads_parameters(engine):
            kind = "offload_all_fsdp"  # FSDP's one CPU offload, of the parameters, not DeepSpeed's ZeRO-3 switch
        return t(f"sugg_{kind}", host=f"{s.host_ram_gb:,.0f}" if s.host_ram_gb else "?")
    if kind == "model_offload" and s.quant:
        # the 4-bit load labelled as a quantise suggestion is, followed by the offload
        quantised = suggestion_label(t, kb, s.model_copy(update={"kind": "quantise"}), engine, version, model)
        return quantised + t("sugg_and_model_offload")
    key = f"sugg_{kind}"
    try:
        return t(key)
    except KeyError:
        return s.kind


def routed_share(model: Model | None) -> float:
    """The share of an MoE's weights one token reads (its active parameters over all of them); 1 for a dense
    model or one whose active count is unknown."""
    if model is None or not model.active_params_b or not model.params_b:
        return 1.0
    return min(1.0, model.active_params_b / model.params_b)


def ram_name(t: Translator, ram: HostMemory) -> str:
    """"2-channel DDR4-3200": the memory a RAM-bound ceiling is computed at."""
    return t("ram_kind", channels=ram.channels, kind=ram.kind, mts=ram.mts)


def _host_ram_short(answer: Answer, kb: KnowledgeBase, s: Any, t: Translator) -> str:
    """An offload the instance named cannot take: ZeRO-Offload's 170 GiB of host RAM on an
    ecs.gn6v-c8g1.8xlarge of 128 GiB (audit 35 M-129) is no fix on that machine."""
    name = answer.understood.get("instance")
    if not name or not s.host_ram_gb or s.kind.replace("-", "_") not in ("offload_optimizer", "offload_all"):
        return ""
    memory = kb.instance_ram_gib(str(name))
    if memory is None or s.host_ram_gb <= memory:
        return ""
    return t("sugg_host_ram_short", instance=str(name), gib=f"{memory:,.0f}")


def ram_of(answer: Answer) -> HostMemory:
    """The system memory the question names, else the reference one."""
    return answer.query.host_memory or REFERENCE_RAM


def split_decode_ceiling(ram_gib: float | None, card_gib: float, card_bandwidth_gbps: float | None,
                         ram_bandwidth_gbps: float = REFERENCE_RAM.bandwidth_gbps) -> float | None:
    """Tokens a second at most when each token reads `ram_gib` from system RAM (at `ram_bandwidth_gbps`) and then
    `card_gib` on the cards: both reads in turn, as llama.cpp runs the layers in order. An upper bound (the RAM
    side holds the token embeddings too, of which a token reads one row); None without the figures."""
    if not ram_gib or not card_bandwidth_gbps:
        return None
    return 1.0 / (ram_gib * GIB / (ram_bandwidth_gbps * 1e9) + card_gib * GIB / (card_bandwidth_gbps * 1e9))


def card_bandwidth(answer: Answer, kb: KnowledgeBase) -> float | None:
    """The bandwidth of the card the estimate is for, when it is one known card (not a mixed set)."""
    gpu = kb.gpus.get(answer.query.gpu or "")
    return gpu.bandwidth_gbps if gpu is not None and not answer.query.gpu_set else None


def host_ram_line(t: Translator, e: Any, model: Any, card_bandwidth_gbps: float | None = None,
                  ram: HostMemory = REFERENCE_RAM) -> str | None:
    """What the host holds, in words: the layers llama.cpp leaves below -ngl or the experts of --n-cpu-moe (with
    the ceiling reading them puts on decoding), or an adapter run's offloaded model; None for DeepSpeed's
    estimator (the template's own line). A token reads the card's layers too, one after the RAM's: with the
    card's bandwidth known the ceiling counts both (audit 15 B-M8: the RAM part alone put it 2× too high)."""
    if not e.host_ram_gb:
        return None
    if e.gpu_layers is not None and e.layer_slots:
        line = t("host_ram_layers", gb=gb(e.host_ram_gb), slots=e.gpu_layers, cpu=e.layer_slots - e.gpu_layers,
                 total=e.layer_slots)
    elif "offload-adapters" in e.notes:
        return t("host_ram_adapters", gb=gb(e.host_ram_gb))
    elif e.cpu_moe_layers:
        layers = (model.num_layers or 0) if model is not None else 0
        key = "host_ram_experts_all" if layers and e.cpu_moe_layers >= layers else "host_ram_experts"
        line = t(key, gb=gb(e.host_ram_gb), n=e.cpu_moe_layers, layers=layers or "?")
        if e.tensor_split:
            line += " " + t("tensor_split_experts", split=",".join(str(b) for b in e.tensor_split))
    else:
        return None
    if e.host_read_gb_per_token and e.ram_bound_tokens_per_s:
        # of an MoE's weights on the card a token reads about its active share (low where --n-cpu-moe left the card
        # mostly attention, all of it read: the RAM's part dominates the time then)
        share = routed_share(model)
        card_gib = (e.breakdown.weights * share + e.breakdown.kv_cache) * max(e.gpu_count, 1)
        if card_bandwidth_gbps:
            ceiling = split_decode_ceiling(e.host_read_gb_per_token, card_gib, card_bandwidth_gbps,
                                           ram.bandwidth_gbps) or 0.0
            line += " " + t("ram_bound_with_card", read=f"{e.host_read_gb_per_token:.1f}", card=f"{card_gib:.1f}",
                            bandwidth=f"{card_bandwidth_gbps:g}", tps=count(ceiling), memory=ram_name(t, ram),
                            ram_bandwidth=f"{ram.bandwidth_gbps:g}")
        else:
            tps = ram.bandwidth_gbps * 1e9 / (e.host_read_gb_per_token * GIB)
            line += " " + t("ram_bound", read=f"{e.host_read_gb_per_token:.1f}", tps=count(tps),
                            memory=ram_name(t, ram), ram_bandwidth=f"{ram.bandwidth_gbps:g}")
    return line


def format_floor(engine: str | None, unsupported: str | None) -> str:
    """"7.5": the compute capability the engine's kernels for a weight format need ("" when the format is not
    restricted that way, as FP8 is by its tensor cores instead)."""
    # the format's own floor: SGLang's engine floor (8.0) is no reason an A100 cannot run FP8 (audit 33 HIGH 88)
    floor = format_min_capability(engine, unsupported, with_engine_floor=False)
    return f"{floor:.1f}" if floor is not None else ""


def family_of(kb: KnowledgeBase, model_id: str | None) -> str:
    model = kb.models.get(model_id or "")
    return (model.family or model.name) if model is not None else "?"


def heads_text(kb: KnowledgeBase, model_id: str | None) -> str:
    """"32 attention heads and 4 KV heads": what a tensor-parallel degree must divide."""
    model = kb.models.get(model_id or "")
    if model is None or not model.num_attention_heads:
        return "?"
    kv = model.num_kv_heads or model.num_attention_heads
    return f"{model.num_attention_heads}/{kv}"


def _machine_words(mac: bool, count: int, t: Translator) -> dict[str, str]:
    """The words a verdict counts the hardware in: per card and each of `count` cards, or the one Mac."""
    zh = t.lang != "en"
    if mac:
        return {"per_card": "", "each": "", "count_of": "" if zh else "the "}
    return {"per_card": "每卡" if zh else " per card", "each": "每张" if zh else " each",
            "count_of": f"{count} 张 " if zh else f"{count}× "}


def _no_sequence_asked(answer: Answer, c: CheckOut) -> bool:
    """"能支持几个并发" where the cards' room beside the weights holds not one sequence of the length asked: a No,
    not "tight", beside a concurrency line that says 0 (audit 30 LOW-127)."""
    e = answer.estimate
    if not answer.understood.get("asks_concurrency") or c.fits or e is None or e.breakdown.kv_cache <= 0:
        return False
    left = c.limit_gb - (e.breakdown.weights + e.breakdown.activations + e.breakdown.overhead)
    return left < e.breakdown.kv_cache


def check_view(answer: Answer, c: CheckOut, kb: KnowledgeBase, t: Translator) -> dict[str, Any]:
    """What the verdict template prints: the figures of the card (or the set's card) the verdict is about."""
    reserve = f"{100 * (c.reserve_fraction or 0):g}"
    engine = load_engine_profiles().get(str(answer.query.engine)) if answer.query.engine else None
    profile = engine.at_version(answer.query.engine_version) if engine is not None else None
    beside = profile is not None and profile.reservation.covers == "weights_and_kv"
    measured = profile is not None and measures_free_memory(profile, c.reserve_fraction)
    reserve_key = f"limit_measured{_runtime_suffix(kb, c.gpu)}" if measured \
        else "limit_reserve_beside" if beside else "limit_reserve"
    memory = memory_of_card_id(c.gpu)
    limit_what = (t(reserve_key, engine=engine_name(answer.query.engine), fraction=reserve)
                  if c.limit_basis == "reservation" and c.reserve_fraction
                  else t("limit_unified", have=gb(c.gpu_memory_gb), total=f"{memory[0]:g}") if memory and memory[1]
                  else t(f"limit_usable{_runtime_suffix(kb, c.gpu)}", have=gb(c.gpu_memory_gb)))
    return {
        "fits": c.fits, "count": c.count, "gpu_name": gpu_name(kb, c.gpu), "free": gb(c.headroom_gb),
        "need": gb(c.memory_per_gpu_gb), "have": gb(c.gpu_memory_gb), "limit": gb(c.limit_gb),
        "limit_what": limit_what, "tight": c.tight and not _no_sequence_asked(answer, c),
        "unsupported": (c.unsupported_precision or "").upper(),
        "engine": engine_name(answer.query.engine), "memory_fits": c.memory_per_gpu_gb <= c.limit_gb,
        "split_invalid": c.split_invalid and not c.unsupported_precision,
        # a Mac has no cards: its GPU's share of the unified memory, not "1× Mac … each" (audit 29 LOW-107)
        **_machine_words(bool(answer.understood.get("unified_memory")) and c.count == 1, c.count, t),
        # transformers and llama.cpp split by layers: past the layers (a node's worth a layer at most) cards idle
        "layer_split": not tensor_parallel(answer.query.engine or "transformers"),
        "image_copies": answer.query.model in kb.models and kb.models[answer.query.model].arch == "diffusion",
        "layers": f"{model.num_layers:,}" if (model := kb.models.get(answer.query.model or "")) and model.num_layers
        else "?",
        "floor": (f"{engine_min_capability(answer.query.engine) or 0:.1f}" if c.unsupported_precision == "engine"
                  else format_floor(answer.query.engine, c.unsupported_precision)),
        "heads": heads_text(kb, answer.query.model),
        "family": family_of(kb, answer.query.model),
        "overflow": "_overflow" if answer.understood.get("asks_overflow") else "",
        "snug": c.fits and not c.tight and c.memory_per_gpu_gb > c.limit_gb * (1 - HEADROOM_FRACTION),
        # the log's OOM settles a fit within a few percent: the changes that make room are listed (HIGH-116)
        "oom_logged": bool(answer.understood.get("logged_oom")) and c.fits,
        "cap_lowered": next((f"{a.value:,}" for a in answer.assumptions if a.reason == "request-cap-lowered"), ""),
        "pool": gb(c.kv_pool_gb) if c.kv_pool_gb is not None else None, "held": c.sequences_held,
        "host_ram": f"{c.host_ram_gb:g}" if c.host_ram_gb else None, "host_ram_needed": gb(c.host_ram_needed_gb),
        "batch": f"{answer.query.batch or 1:,}", "context": f"{answer.query.context or 0:,}",
        "cards": [{"name": gpu_name(kb, card.gpu), "need": gb(card.needed_gb), "limit": gb(card.limit_gb),
                   "layers": card.layers} for card in c.cards],
        "split_how": t(f"split_{c.split.replace('-', '_')}", engine=engine_name(answer.query.engine))
        if c.split else "",
        "fewer": (t("check_fewer_hold" if answer.query.task in (None, "inference") else "check_fewer_hold_training",
                    n=c.fewer_count, gpu=gpu_name(kb, c.gpu), need=gb(c.fewer_need_gb))
                  if c.fewer_count and c.fewer_need_gb is not None else ""),
        "suggestions": [{"label": suggestion_label(t, kb, s, answer.query.engine, answer.query.engine_version,
                                               answer.query.model,
                                               ollama=answer.understood.get("runner") == "ollama",
                                               card_bandwidth_gbps=card_bandwidth(answer, kb), ram=ram_of(answer))
                         # the same need, a larger share of the card: said, or the fix reads as a no-op (LOW-176)
                         + (t("sugg_newer_engine_share") if s.kind == "newer-engine" and s.memory_per_gpu_gb
                            and abs(s.memory_per_gpu_gb - c.memory_per_gpu_gb) < 0.05 else "")
                         + _host_ram_short(answer, kb, s, t),
                         "need": gb(s.memory_per_gpu_gb) if s.memory_per_gpu_gb else None,
                         "decode": count(s.decode_tokens_per_s) if s.decode_tokens_per_s else None,
                         "train_time": (t("sugg_train_time", time=hours_figure(s.train_hours),
                                          tokens=amount(answer.query.tokens or 0))
                                        if s.train_hours and answer.query.tokens else None)}
                        for s in c.suggestions[:5]],
    }


def smaller_line(answer: Answer, kb: KnowledgeBase, t: Translator) -> str:
    """The makers' smaller versions that fit the card the model does not (bot.reply.smaller), largest first."""
    if not answer.smaller_models:
        return ""
    items = []
    for found in answer.smaller_models:
        model = kb.models.get(str(found["model"]))
        name = model.name if model is not None else str(found["model"])
        quant = str(found.get("quant") or found.get("precision") or "")
        label = quant.removeprefix("gguf-").upper() if quant.startswith("gguf-") else quant
        items.append(f"{name} ({label}{', ' + engine_name(str(found['engine'])) if found.get('engine') else ''}: "
                     f"{gb(float(found['per_gpu_gb']))} GiB)")
    model = kb.models.get(answer.query.model or "")
    first = answer.smaller_models[0]
    on = gpu_name(kb, str(first["gpu"]))
    return t("smaller_versions", model=model.name if model is not None else "?",
             gpu=on if int(first.get("count") or 1) == 1 else f"{first['count']}× {on}", list="; ".join(items))


_RUNTIME_SUFFIXES = {"amd": "_rocm", "intel": "_oneapi", "huawei": "_cann"}
"""Cards whose runtime context is not CUDA's (ROCm's HIP; oneAPI's Level Zero; Ascend's CANN), though it takes about
the same room."""


def _runtime_suffix(kb: KnowledgeBase, gpu_id: str) -> str:
    """The message-key suffix naming the card's runtime: "" for CUDA."""
    card = kb.gpus.get(gpu_id)
    return _RUNTIME_SUFFIXES.get(card.vendor.lower(), "") if card is not None else ""
