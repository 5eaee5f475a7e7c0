"""Published ground-truth rows → `ask` requests: the mapping bench/accuracy.py and its siblings share.

A row (schema of ../shared/groundtruth/published.yaml) names a model, a task, a precision string, tokens,
cards and the runtime's settings; `to_request` turns it into the keys `ask` accepts (model, task, precision,
quant, engine, engine_version, kv_cache, context, batch, gpu, gpus, gen_tokens, zero_stage,
gradient_checkpointing, lora_rank, optimizer) plus rules-only keys (flash_attention, offload, pure_16bit,
train_embeddings, params_b). `load_cases` reads the shared file and every *.yaml under bench/groundtruth/.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import yaml
from _engines import (  # noqa: F401  (re-exported: accuracy.py and speed_accuracy.py read them from here)
    ENGINE_WORDS,
    NEGATION,
    UNPROFILED_ENGINES,
    ambiguous_framework,
    engine_version_in,
    engine_version_of,
    flag_setting,
    map_engine,
    map_kv_cache,
    negated,
    stated_head,
)
from _sources import source_counter

from knowledge.base import KnowledgeBase
from rules.memory_inference import default_build_length
from rules.types import Workload
from rules.weight_formats import DEFAULT_GGUF, GGUF_BYTES_PER_PARAM

GROUNDTRUTH_ENV = "GPU_ADVISOR_GROUNDTRUTH"
DEFAULT_GROUNDTRUTH = Path(__file__).resolve().parents[1].parent / "shared/groundtruth/published.yaml"
ADDED_GROUNDTRUTH_DIR = Path(__file__).resolve().parent / "groundtruth"
"""Rows the project adds from other sources (same schema); the directory may be absent."""

FSDP_SHARDING_STAGES = {"full_shard": 3, "shard_grad_op": 2, "ddp": 0, "no_shard": 0}
"""FSDP's sharding strategies in ZeRO's terms (FULL_SHARD = stage 3, SHARD_GRAD_OP = stage 2, NO_SHARD = DDP)."""

GENERIC_RE = re.compile(r"generic\s*~?\s*(\d+(?:\.\d+)?)\s*B", re.I)


def load_cases(path: Path | None = None, extra_dir: Path | None = ADDED_GROUNDTRUTH_DIR) -> list[dict[str, Any]]:
    """The shared published rows (or `$GPU_ADVISOR_GROUNDTRUTH`) + every *.yaml of `extra_dir`, if present.

    A row id seen twice keeps its first occurrence (the added files must not silently replace shared rows).
    """
    path = path or Path(os.environ.get(GROUNDTRUTH_ENV) or DEFAULT_GROUNDTRUTH)
    files = [path] if path.exists() else []
    if extra_dir is not None and extra_dir.is_dir():
        files += sorted(p for p in extra_dir.glob("*.yaml") if p.is_file())
    cases: list[dict[str, Any]] = []
    seen: set[str] = set()
    for file in files:
        rows = yaml.safe_load(file.read_text(encoding="utf-8")) or []
        if isinstance(rows, dict):  # a file may wrap its rows as {rows: [...]}
            rows = rows.get("rows") or rows.get("cases") or []
        for row in rows:
            if not isinstance(row, dict) or "id" not in row or str(row["id"]) in seen:
                continue
            seen.add(str(row["id"]))
            row.setdefault("origin", file.name)
            cases.append(row)
    return cases


class Skip(Exception):
    """A case that cannot be evaluated (model not in the knowledge base, format not modelled)."""


def _hf_name(text: str) -> str:
    name = text.split(" (")[0].strip()
    return name.replace("(-Chat)", "").replace("(-Instruct)", "")


def resolve_model(case: dict[str, Any], kb: KnowledgeBase) -> dict[str, Any]:
    text = str(case["model"])
    generic = GENERIC_RE.search(text)
    if generic and text.lower().startswith("generic"):
        return {"params_b": float(generic.group(1))}
    result = kb.model_index.lookup(_hf_name(text))
    if result.best is None or not result.confident:
        raise Skip(f"model not in knowledge base: {text}")
    return {"model": result.best.id}


def map_precision(case: dict[str, Any]) -> dict[str, Any]:
    """The published precision string → precision / quant (+ rules-only flags)."""
    p = str(case["precision"]).lower()
    gguf = re.search(r"\bgguf[-_ ]?((?:i?q\d\w*)|f16|bf16)\b", p)
    if gguf:
        quant = "gguf-" + gguf.group(1)
        if quant not in GGUF_BYTES_PER_PARAM:
            raise Skip(f"GGUF type not in the rules: {gguf.group(1)}")
        bits = {"gguf-f16": "fp16", "gguf-bf16": "bf16"}.get(quant, "int8" if quant.startswith("gguf-q8") else "int4")
        return {"precision": bits, "quant": quant}
    if "2-bit" in p:
        return {"precision": "int4", "quant": "int2"}
    if "pure bf16" in p:
        return {"precision": "bf16", "pure_16bit": True}
    if "unstated" in p and "fp32" in p:
        return {"precision": "fp32"}
    if "gptq-int8" in p:
        return {"precision": "int8", "quant": "gptq-int8"}
    if "gptq-int4" in p:
        return {"precision": "int4", "quant": "gptq"}
    if "awq" in p:
        return {"precision": "int4", "quant": "awq"}
    if "nf4" in p:
        dq = "double quant" in p or "+ nq" in p
        return {"precision": "int4", "quant": "nf4-dq" if dq else "nf4"}
    if "mxfp4" in p:
        return {"precision": "mxfp4", "quant": "mxfp4"}
    if "fp4" in p or "bnb-4bit" in p:
        return {"precision": "int4", "quant": "fp4"}
    if "llm.int8" in p or "bnb-int8" in p or p.strip() == "8-bit":
        return {"precision": "int8", "quant": "bnb-int8"}
    if p.strip() == "4-bit":
        return {"precision": "int4", "quant": "nf4"}
    for plain in ("fp32", "fp8", "int8", "int4"):
        if p.startswith(plain):
            return {"precision": plain, **bnb_quant(case, plain)}
    if p.startswith("fp16"):
        return {"precision": "fp16"}
    if "bf16" in p or "16-bit" in p or "fp16" in p:
        return {"precision": "bf16"}
    raise Skip(f"precision not mapped: {case['precision']}")


def bnb_quant(case: dict[str, Any], bits: str) -> dict[str, Any]:
    """The bitsandbytes format a row with a bare int8/int4 precision names in `settings.quantization`
    ("bitsandbytes 8-bit (load_in_8bit: true)" → LLM.int8, "bitsandbytes 4-bit (QLoRA)" → NF4), as
    map_precision names them; {} when the head of that setting names no bitsandbytes format."""
    head = stated_head((case.get("settings") or {}).get("quantization")) or ""
    if not re.search(r"bitsandbytes|\bbnb\b", head):
        return {}
    if bits == "int8" and re.search(r"\b8[- ]?bit\b|\bint8\b", head):
        return {"quant": "bnb-int8"}
    if bits == "int4" and re.search(r"\b4[- ]?bit\b|\bint4\b|\bnf4\b|\bfp4\b", head):
        return {"quant": "fp4" if "fp4" in head else "nf4"}
    return {}


ZERO_STAGE_RE = re.compile(r"(?<![a-z])(?:zero[-_ ]?(?:stage[-_ ]?)?|ds_z)([0-3])(?!\d)")
"""A ZeRO stage in a DeepSpeed or framework text: "ZeRO-3", "ZeRO stage 2", "zero2", "ds_z3_config.json"."""


def _stage_in(text: str) -> int | None:
    low = text.lower()
    return next((int(m.group(1)) for m in ZERO_STAGE_RE.finditer(low) if not negated(low, m.start())), None)


def _zero_stage(settings: dict[str, Any], gpus: int) -> int | None:
    """The ZeRO stage a training row states: its `zero_stage`, else its `deepspeed` text ("none" or "disabled"
    on several cards is plain data parallelism, stage 0), else a stage its framework text names."""
    stated = re.match(r"\s*([0-3])\b", str(settings.get("zero_stage", "")))
    if stated:
        return int(stated.group(1))
    ds = str(settings.get("deepspeed") or "")
    if ds and flag_setting(ds) is False:
        return 0 if gpus > 1 else None
    if "single-GPU" in ds and gpus == 1:
        return None
    stage = _stage_in(ds)
    return stage if stage is not None else _stage_in(str(settings.get("framework") or settings.get("engine") or ""))


GPU_PATTERNS = (("a100", "80", "a100-80gb"), ("a100", "40", "a100-40gb"), ("t4", "", "t4"),
                ("4090", "", "rtx-4090"), ("titan rtx", "", None), ("a10", "", "a10"),
                ("h100", "", "h100-sxm"))
"""(word, size, gpu id): the word must stand alone ("a10" is not "a100"), the size appear anywhere."""


def resolve_gpu(text: str | None, kb: KnowledgeBase) -> str | None:
    """The card a row names: the patterns above first, then a confident knowledge-base match."""
    if not text:
        return None
    low = text.lower()
    for key, size, gpu_id in GPU_PATTERNS:
        if re.search(rf"(?<![a-z0-9]){re.escape(key)}(?![0-9])", low) and size in low:
            return gpu_id if gpu_id in kb.gpus else None
    result = kb.gpu_index.lookup(text)
    return result.best.id if result.best is not None and result.confident else None


def weights_only(case: dict[str, Any]) -> bool:
    """The figure is weights (or model states) only: a load-time footprint, no tokens in flight."""
    settings = case.get("settings") or {}
    return ("load only" in str(settings.get("phase", "")) or "NO activations" in str(case.get("notes") or "")
            or str(case.get("memory_scope")) == "total (weights)")


MODULE_WORDS = {"q_proj": "q", "k_proj": "k", "v_proj": "v", "o_proj": "o", "gate_proj": "gate", "up_proj": "up",
                "down_proj": "down", "q": "q", "k": "k", "v": "v", "o": "o", "gate": "gate", "up": "up",
                "down": "down", "mlp": "gate,up,down", "self_attn": "q,k,v,o"}
"""Module names of PEFT `target_modules` / a README's target list → the rules' linear names."""

NO_LINEAR_ADAPTER = ("PROMPT_TUNING", "PREFIX_TUNING", "P_TUNING", "ADAPTION_PROMPT", "LN_TUNING", "TRAINABLE_TOKENS")
"""PEFT types that put no adapter on the decoder's linears (virtual tokens, prefixes, norms, token rows)."""


def adapter_settings(case: dict[str, Any]) -> dict[str, Any]:
    """The adapter a row trains: its PEFT type, the linears it targets, its stated trainable parameters."""
    settings: dict[str, Any] = case.get("settings") or {}
    out: dict[str, Any] = {}
    peft_type = str(settings.get("peft_type") or "").upper()
    if peft_type in NO_LINEAR_ADAPTER or case.get("task") == "p-tuning":
        out["peft_method"] = "prompt"
    targets_text = stated_head(settings.get("target_modules") or settings.get("lora_targets")
                               or settings.get("lora_target")) or ""
    if targets_text and out.get("peft_method") != "prompt":
        words = [w.strip() for w in re.split(r"[,+ ]+", targets_text.replace("mlp", ",mlp")) if w.strip()]
        names = {n for w in words for n in MODULE_WORDS.get(w, "").split(",") if n}
        if names:
            out["lora_targets"] = tuple(sorted(names))
    trainable = re.match(r"\s*([\d,]+(?:\.\d+)?)", str(settings.get("trainable_params")
                                                         or settings.get("trainable_parameters") or ""))
    if trainable:
        out["trainable_params"] = float(trainable.group(1).replace(",", ""))  # "110,428,160 (printed by PEFT)"
    return out


def training_flags(case: dict[str, Any]) -> dict[str, Any]:
    """Memory techniques a training row states (torchtune's flags, activation offloading, chunked loss)."""
    settings: dict[str, Any] = case.get("settings") or {}
    out: dict[str, Any] = {}
    if flag_setting(settings.get("optimizer_in_bwd")):
        out["optimizer_in_backward"] = True
    if flag_setting(settings.get("activation_offloading")):
        out["activation_offloading"] = True
    if flag_setting(settings.get("chunked_cross_entropy")):
        out["chunked_loss"] = True
    if flag_setting(settings.get("compile")):
        out["compiled"] = True
    if "technique" in settings and "gradient_checkpointing" not in settings:
        out["gradient_checkpointing"] = False  # a stacked-techniques table: a technique not listed is off
    if ("technique" in settings or "config" in settings) and "chunked_cross_entropy" not in settings:
        # Off in a stacked-techniques table until listed; a row whose config was read at the cited commit
        # records the chunked loss when the config has it (torchtune's 405B QLoRA config: plain CrossEntropyLoss).
        out["chunked_loss"] = False
    return out


COUNTER_KEYS = ("memory_counter", "counter", "measured_with")
"""The keys under which rows say what their figure counted."""


def reading_flags(case: dict[str, Any]) -> dict[str, Any]:
    """allocated_only for a row whose figure counts allocated bytes (torch.cuda.max_memory_allocated, torchtune's
    "Peak Memory Active"): tensors only, no CUDA context and no caching-allocator reserve."""
    settings: dict[str, Any] = case.get("settings") or {}
    if ("active" in str(case.get("memory_published") or "").lower()
            or any("allocated" in str(settings.get(key) or "").lower() for key in COUNTER_KEYS)
            or source_counter(case) == "allocated"):
        return {"allocated_only": True}
    return {}


UNMODELLED_OPTIMIZERS = ("lion", "prodigy", "came")
"""Optimizers the rules do not size (their rows are skipped)."""


def optimizer_head(settings: dict[str, Any]) -> str | None:
    """The optimizer a row names: the head of its `optimizer` setting, without a word that "no", "not" or
    "without" negates; None when it names none ("not stated (README examples: prodigy)")."""
    head = stated_head(settings.get("optimizer"))
    return None if head is None else re.sub(NEGATION + r"(?:an?\s+|the\s+)?[\w.-]+", " ", head)


def map_optimizer(settings: dict[str, Any]) -> dict[str, Any]:
    """optimizer (+ paged_optimizer) of a training row. Adafactor and SGD are tested before "8-bit" ("Adafactor
    (AdamW 8bit 'doesn't seem to work')" is Adafactor); a plain AdamW (torch, adamw_torch, torch.optim.AdamW,
    DeepSpeed's default) is "adamw", whatever the runtime's own default; other names are left to the runtime."""
    head = optimizer_head(settings)
    if head is None:
        return {}
    out: dict[str, Any] = {}
    if "adafactor" in head:
        out["optimizer"] = "adafactor"
    elif re.search(r"(?<![a-z])sgd", head):
        out["optimizer"] = "sgd"
    elif re.search(r"8[-_ ]?bit", head):
        out["optimizer"] = "adamw-8bit"
    elif re.search(r"(?<![a-z])adamw?(?:_(?:torch|hf|apex)\w*)?(?!\w)", head):
        out["optimizer"] = "adamw"
    if "paged" in head:
        out["paged_optimizer"] = True  # bitsandbytes paged optimizer: its states can leave the card
    return out


def unmappable(case: dict[str, Any]) -> str | None:
    """Why a row cannot be mapped honestly (counted as skipped), or None."""
    settings: dict[str, Any] = case.get("settings") or {}
    framework = str(settings.get("framework") or settings.get("engine") or "").lower()
    for word, name in UNPROFILED_ENGINES.items():
        if word in framework:
            return f"runtime without an engine profile ({name})"
    optimizer = optimizer_head(settings) or ""
    for name in UNMODELLED_OPTIMIZERS:
        if re.search(rf"(?<![a-z]){name}", optimizer):
            return f"optimizer not modelled ({name})"
    dataset = str(settings.get("dataset") or "").lower()
    if case.get("seq_len") is None and "unpacked" in dataset:
        return "sequence length not stated (unpacked samples of variable length)"
    if "technique" in settings and not flag_setting(settings.get("packed")) and case.get("task") != "inference":
        return "unpacked samples hold fewer tokens than max_seq_len (not stated)"
    if "cache_max_entry_count 1000" in str(settings.get("cache_max_entry_count") or ""):
        return "KV pool sized by the benchmark script to fill the card: a reservation, not the job's need"
    return None


def memory_share(case: dict[str, Any]) -> float | None:
    """The serving engine's share the row states (vLLM gpu_memory_utilization, SGLang mem_fraction_static,
    TensorRT-LLM's free-memory fraction for the KV pool), or None when it gives the default or none."""
    settings: dict[str, Any] = case.get("settings") or {}
    for key in ("gpu_memory_utilization", "mem_fraction_static", "free_gpu_memory_fraction",
                "kv_cache_free_gpu_mem_fraction"):
        # "0.9", or the default the row ran with, as it states it: "default (0.9)", "not set (default 0.9)"
        match = re.match(r"\s*(?:default\s*\(|not\s+set\s*\(default\s+)?(0?\.\d+|1(?:\.0+)?)\b",
                         str(settings.get(key) or ""))
        if match and 0 < float(match.group(1)) <= 1:
            return float(match.group(1))
    return None


def stated_count(case: dict[str, Any], keys: tuple[str, ...]) -> int | None:
    """The first positive whole number a row's settings give under one of `keys` ("2048 (trtllm-build
    default)" → 2048), or None when they give the default in words or nothing."""
    settings: dict[str, Any] = case.get("settings") or {}
    for key in keys:
        match = re.match(r"\s*(\d+)\b", str(settings.get(key) or ""))
        if match and int(match.group(1)) > 0:
            return int(match.group(1))
    return None


def built_request_cap(case: dict[str, Any]) -> int | None:
    """The max_batch_size a TensorRT engine was built with: it sizes the engine's per-slot runtime buffers."""
    return stated_count(case, ("max_batch_size",))


def stated_tensor_split(case: dict[str, Any]) -> tuple[float, ...] | None:
    """llama.cpp's --tensor-split as the row gives it ("10,6"), or None."""
    settings: dict[str, Any] = case.get("settings") or {}
    match = re.match(r"\s*(\d+(?:\.\d+)?(?:\s*,\s*\d+(?:\.\d+)?)+)", str(settings.get("tensor_split") or ""))
    return tuple(float(part) for part in match.group(1).split(",")) if match else None


def not_fullest_card(case: dict[str, Any], request: dict[str, Any], kb: KnowledgeBase) -> None:
    """Skip a per-card row (its log line names CUDA<i>) for a card other than the one the estimate's figures are
    for: under an uneven split the rules size the card it loads most (`chosen["fullest_card"]`)."""
    from rules import estimate_memory

    device = re.search(r"\bCUDA(\d+)\b", str((case.get("source") or {}).get("fragment") or ""))
    if device is None:
        return
    fullest = estimate_memory(workload_for(request, kb), int(request.get("gpus", 1))).chosen.get("fullest_card")
    if fullest is not None and int(device.group(1)) != fullest:
        raise Skip(f"card {device.group(1)} of an uneven --tensor-split: the estimate sizes the fullest card "
                   f"({fullest}), not this one")


PREFILL_CHUNK_KEYS = ("n_ubatch", "max_num_batched_tokens", "chunked_prefill_size", "max_num_tokens")
"""The engines' tokens-per-forward-pass settings: llama.cpp, vLLM, SGLang, TensorRT-LLM."""


def stated_prefill_chunk(case: dict[str, Any]) -> int | None:
    """The tokens per forward pass the row's engine was set to, or None when it gives the default or none."""
    return stated_count(case, PREFILL_CHUNK_KEYS)


def reserves_memory(engine: str) -> bool:
    """The engine sizes its KV pool from the card (vLLM, SGLang, lmdeploy, TensorRT-LLM): without the card
    there is no pool to compare."""
    from knowledge.engines import load_engine_profiles

    profile = load_engine_profiles().get(engine)
    return profile is not None and profile.reservation.kind != "none"


ENGINE_CONTEXT_KEYS = ("max_model_len", "context_length")
"""vLLM's and SGLang's length flags; left unset, each takes the model's whole window (vLLM
`ModelConfig.max_model_len` from `max_position_embeddings`, SGLang `context_length` likewise)."""


def engine_length_at_default(case: dict[str, Any]) -> str | None:
    """The row's text for a serving engine's length flag it left at the default, or None: "default", "not set"
    (either maybe with the default's number), a flag not stated whose gloss gives the default's number ("not
    stated (model default 131072 unless set)"), or that number glossed as the default ("131072 (model default;
    context_len=131072 in the log)"). A bare "not stated" is no statement: like a missing key, it is None."""
    settings: dict[str, Any] = case.get("settings") or {}
    for key in ENGINE_CONTEXT_KEYS:
        text = str(settings.get(key) or "").lower()
        if re.match(r"\s*(default|not set)", text) or re.match(r"\s*\d+\b.*\bdefault\b", text):
            return text
        if text.strip() and stated_head(text) is None and re.search(r"\bdefault\D*\d{3,7}", text):
            return text
    return None


def engine_default_context(case: dict[str, Any], kb: KnowledgeBase, model_id: str | None) -> int | None:
    """The context a serving run had when it left the length flag at the engine's default: the number the row
    gives ("131072 (model default; …)", "default (8192, the model's)", "not set (model default 32768)"), else
    the model's window. A bare number ("4096") is not read here: without seq_len, the row's other fields decide."""
    text = engine_length_at_default(case)
    if text is None:
        return None
    stated = re.match(r"\s*(\d+)\b", text) or re.search(r"(\d{3,7})", text)
    if stated:
        return int(stated.group(1))
    return kb.model(model_id).max_context if model_id is not None else None


FORMAT_FREE_COMPONENTS = ("component: kv_cache", "component: compute_buffer")
"""llama.cpp figures that do not depend on the weights' GGUF type: the KV buffer (its own cache type) and the
compute buffer (activations, KQ and logits in fp32)."""


def format_free(case: dict[str, Any]) -> bool:
    """A GGUF row whose quant type the source does not give, measuring a part that does not depend on it."""
    return (str(case.get("precision", "")).lower().startswith("gguf")
            and str(case.get("memory_relation")) in FORMAT_FREE_COMPONENTS)


def to_request(case: dict[str, Any], kb: KnowledgeBase) -> dict[str, Any]:
    why = unmappable(case)
    if why:
        raise Skip(why)
    req: dict[str, Any] = {}
    req.update(resolve_model(case, kb))
    task = str(case["task"])
    req["task"] = {"full-ft": "train", "p-tuning": "lora", "freeze": "lora"}.get(task, task)
    try:
        req.update(map_precision(case))
    except Skip:
        if not format_free(case):
            raise
        req.update(precision="int4", quant=DEFAULT_GGUF)  # the figure does not depend on the weights' format
    if req["task"] == "qlora" and "quant" not in req:
        req.update(precision="int4", quant="nf4")
    settings: dict[str, Any] = case.get("settings") or {}
    seq, gen = case.get("seq_len"), case.get("gen_len")
    if seq is not None or gen is not None:
        req["context"] = max(1, int(seq or 0) + int(gen or 0))
        if gen:
            req["gen_tokens"] = min(int(gen), req["context"])
    elif weights_only(case):
        req["context"] = 1  # weights / model states only: no tokens in flight
    elif (default := engine_default_context(case, kb, req.get("model"))) is not None:
        req["context"] = default
    # Say the engine explicitly, since ask's own default for concurrent serving is vLLM.
    req.update(map_engine(case))
    share = memory_share(case)
    if share is not None and req["task"] == "inference":
        req["memory_fraction"] = share
    cap = (built_request_cap(case) if req.get("engine") == "tensorrt-llm"
           else stated_count(case, ("max_num_seqs",)) if req["task"] == "inference" else None)
    if cap is not None:
        req["max_num_seqs"] = cap
    chunk = stated_prefill_chunk(case)
    if chunk is not None and req["task"] == "inference":
        req["prefill_chunk"] = chunk
    split = stated_tensor_split(case)
    if split is not None and req.get("engine") == "llama.cpp":
        req["layer_split"] = split
    req.update(reading_flags(case))
    gpus = int(case.get("num_gpus") or 1)
    req["gpus"] = gpus
    if "layer_split" in req:
        not_fullest_card(case, req, kb)
    req["batch"] = int(case.get("batch_size") or 1)
    gpu = resolve_gpu(case.get("gpu"), kb)
    if gpu:
        req["gpu"] = gpu
    elif str(case.get("memory_relation")) == "component: kv_cache" and reserves_memory(str(req.get("engine"))):
        raise Skip("KV pool of a reserving engine on a card the knowledge base does not have")
    if req["task"] != "inference":
        stage = _zero_stage(settings, gpus)
        if stage is not None:
            req["zero_stage"] = stage
        checkpointing = flag_setting(settings.get("gradient_checkpointing"), also_true=("unsloth",))
        if checkpointing is not None:
            req["gradient_checkpointing"] = checkpointing
        rank = re.match(r"\s*(\d+)", str(settings.get("lora_r") or settings.get("lora_rank") or settings.get("rank")
                                           or ""))
        if rank:
            req["lora_rank"] = int(rank.group(1))
        elif task == "p-tuning":
            req["lora_rank"] = 8  # P-Tuning v2 trains a prefix of a few million parameters: a rank-8 stand-in
        req.update(map_optimizer(settings))
        if flag_setting(settings.get("trainable_embedding_and_lm_head")):
            req["train_embeddings"] = True
        if (flag_setting(settings.get("amp")) is False and req.get("precision") in ("bf16", "fp16")
                and "quant" not in req):
            req["pure_16bit"] = True  # 16-bit weights trained without autocast: no fp32 master copy or moments
        options = str(settings.get("options") or "")
        deepspeed = str(settings.get("deepspeed") or "").lower()
        if "offload_param=cpu" in options or "offload of optimizer and parameters" in deepspeed:
            req["offload"] = "all"  # ZeRO-3 offload_param: parameters in CPU RAM too
        elif ("offload_optimizer=cpu" in options or "zero-offload" in deepspeed
              or flag_setting(settings.get("adam_offload"))):
            req["offload"] = "optimizer"  # ZeRO-Offload (Ren et al. 2021) moves the optimizer states to the CPU
        if any(flag_setting(settings.get(k)) for k in ("fsdp_cpu_offload", "fsdp_offload_params", "use_cpu_offload")):
            req["offload"] = "all"  # FSDP CPUOffload(offload_params=True): parameters and gradients in CPU RAM
        if settings.get("expert_parallel") is True and req["task"] == "train":
            req["expert_parallel"] = True  # an MoE run whose experts stay on their cards (NeMo, Megatron)
        sharding = (str(settings.get("sharding_strategy") or "").lower().split() or [""])[0]  # "ddp (NO_SHARD…)"
        if sharding in FSDP_SHARDING_STAGES:
            req["zero_stage"] = FSDP_SHARDING_STAGES[sharding]
        req.update(adapter_settings(case))
        req.update(training_flags(case))
    framework = str(settings.get("framework") or "")
    attention = str(settings.get("attention") or "")
    if (flag_setting(settings.get("flash_attention")) is False or "eager" in attention
            or framework == "HF transformers"
            or flag_setting(settings.get("flash_attn")) is False):  # llama.cpp's -fa / n_ctx log line
        req["flash_attention"] = False
    if "cpu offloading" in str(settings.get("deepspeed") or "").lower() and "options" not in settings:
        raise Skip("CPU offload of unstated scope")
    if "model" in req and kb.models[req["model"]].arch == "diffusion":
        from _diffusion import Unmodelled, diffusion_request
        try:
            req.update(diffusion_request(case, req))
        except Unmodelled as why:
            raise Skip(str(why)) from None
    return req


WORKLOAD_KEYS = ("task", "precision", "quant", "engine", "engine_version", "engine_backend", "kv_cache", "context",
                 "batch",
                 "gen_tokens", "zero_stage", "gradient_checkpointing", "lora_rank", "optimizer", "flash_attention",
                 "offload", "pure_16bit", "train_embeddings", "lora_targets", "peft_method", "trainable_params",
                 "activation_offloading", "optimizer_in_backward", "chunked_loss", "compiled", "allocated_only",
                 "paged_optimizer", "memory_fraction", "max_num_seqs", "prefill_chunk", "layer_split",
                 "image_resolution", "quantise_text_encoders", "text_encoders", "expert_parallel")
"""Request keys that are Workload fields (the others name the model and the cards)."""

DEFAULT_CONTEXT = 4096
"""bot.reply.defaults' default context, capped at the model's window."""


def workload_for(request: dict[str, Any], kb: KnowledgeBase) -> Workload:
    """The Workload the rules size for `request` (a generic model when the request gives only params_b)."""
    from rules import generic_model

    model = kb.model(request["model"]) if "model" in request else generic_model(request["params_b"])
    kwargs = {k: request[k] for k in WORKLOAD_KEYS if k in request}
    if "context" not in kwargs:
        kwargs["context"] = min(DEFAULT_CONTEXT, model.max_context or DEFAULT_CONTEXT)
        # as bot.reply.defaults: a length nobody stated leaves trtllm-build's --max_seq_len at the window
        built = default_build_length(str(request.get("engine") or ""), model, kwargs["context"])
        if built is not None:
            kwargs["engine_max_seq_len"] = built
    return Workload(model=model, **kwargs)
