"""Explicit slot values (ask flags, JSON-line keys, Slack buttons) applied over a parsed `Question`.

A flag always wins over what the text said, and counts as stated: the reply must not call a value the
user typed on the command line an assumption.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, get_args

from bot.errors import BadRequestError
from bot.understand.numbers import scaled_number
from bot.understand.question import (
    MAX_BATCH,
    MAX_CONTEXT,
    MAX_GPU_COUNT,
    MAX_GPU_LAYERS,
    MAX_IMAGE_SIDE,
    MAX_IMAGE_STEPS,
    MAX_PARAMS_B,
    MAX_PREFILL_CHUNK,
    MIN_IMAGE_SIDE,
    TRAINING_SWITCHES,
    Question,
)
from bot.understand.slots.budget import default_budget_currency
from bot.understand.slots.context import BATCH_UNITS, CONTEXT_UNITS
from bot.understand.slots.engine import OLLAMA_NOTE
from bot.understand.slots.runtime import share_of
from knowledge.base import KnowledgeBase
from knowledge.engines import load_engine_profiles, resolve_engine_id, version_tuple
from rules.precision import bits_per_weight, bpw_precision
from rules.types import ENGINES, KV_CACHES, PRECISIONS, TASKS, Optimizer

QUANT_PRECISION: dict[str, str] = {
    "gptq": "int4",
    "gptq-int4": "int4",
    "gptq-int8": "int8",
    "awq": "int4",
    "nf4": "int4",
    "nf4-dq": "int4",
    "fp4": "int4",
    "bnb-int4": "int4",
    "bnb-int8": "int8",
    "llm.int8": "int8",
    "gguf-q8_0": "int8",
    "gguf-q6_k": "int8",
    "gguf-q5_k_m": "int4",
    "gguf-q4_k_m": "int4",
    "gguf-q4_0": "int4",
    "gguf-q3_k_m": "int4",
    "gguf-q2_k": "int4",
    "gguf-iq1_s": "int4",
    "gguf-iq2_xxs": "int4",
    "gguf-iq4_xs": "int4",
}
"""The precision a quantisation format implies, when the precision itself is not given."""

TASK_ALIASES = {"full-ft": "train", "finetune": "train", "fine-tune": "train", "training": "train",
                "serve": "inference", "serving": "inference", "p-tuning": "lora", "freeze": "lora"}

FLAG_KEYS = ("model", "task", "precision", "quant", "engine", "context", "batch", "gpu", "gpus",
             "gen_tokens", "zero_stage", "gradient_checkpointing", "lora_rank", "grad_accumulation", "optimizer",
             "lang",
             "params_b", "budget", "cloud", "intent", "flash_attention", "offload", "pure_16bit",
             "train_embeddings", "engine_version", "engine_backend", "kv_cache", "memory_fraction",
             "max_num_seqs", "prefill_chunk", "layer_split", "gpu_layers", "cpu_moe_layers", "budget_amount",
             "resolution", "steps", "text_encoders",
             "budget_currency", "budget_period", *TRAINING_SWITCHES)


def _bounded_int(key: str, value: Any, upper: int, lower: int = 1) -> int:
    number = _whole_number(key, value)
    if not lower <= number <= upper:
        raise BadRequestError(f"{key} must be between {lower} and {upper:,}, not {number:,}")
    return number


def _share(key: str, value: Any) -> float:
    """A fraction in (0, 1]: 0.85, "0.85" or "85%", read as the text slot reads it."""
    number = share_of(str(value).strip())
    if number is None:
        raise BadRequestError(f"{key} must be a fraction of the card between 0 and 1, such as 0.85, not {value!r}")
    return number


def _shares(key: str, value: Any) -> list[float]:
    """"10,6" or [10, 6]: positive shares, one per card (2 to 8 of them)."""
    parts = value if isinstance(value, (list, tuple)) else str(value).split(",")
    try:
        shares = [float(part) for part in parts]
    except (TypeError, ValueError):
        raise BadRequestError(f"{key} must be comma-separated shares such as 10,6, not {value!r}") from None
    if not 2 <= len(shares) <= 8 or not all(0 < s < 1e6 for s in shares):
        raise BadRequestError(f"{key} must give 2 to 8 positive shares, one per card, not {value!r}")
    return shares


def _choice(key: str, value: Any, allowed: tuple[str, ...]) -> str:
    text = str(value).strip().lower()
    text = TASK_ALIASES.get(text, text) if key == "task" else text
    if text not in allowed:
        raise BadRequestError(f"{key} must be one of {', '.join(allowed)}, not {value!r}")
    return text


def _money(key: str, value: Any) -> float:
    """A sum from a flag or a JSON line: 1500, "1.5k", "1万"; a clear error otherwise."""
    parsed = float(value) if isinstance(value, int | float) and not isinstance(value, bool) else (
        scaled_number(str(value), BATCH_UNITS))
    if parsed is None or not math.isfinite(parsed) or not 0 < parsed <= 1e12:
        raise BadRequestError(f"{key} must be a positive sum such as 1500, 1.5k or 1万, not {value!r}")
    return parsed


FLAG_UNITS: dict[str, dict[str, float]] = {"context": CONTEXT_UNITS, "gen_tokens": CONTEXT_UNITS}
"""Flags read suffixes as the text does: a context "32k" is 32,768 tokens; any other count's "10k" is 10,000."""


def _whole_number(key: str, value: Any) -> int:
    """A count from a flag, a JSON line or a button: 8, "8", "10k", "1.5万", "两万五"; a clear error otherwise."""
    if isinstance(value, bool):
        parsed: float | None = None
    elif isinstance(value, int | float):
        parsed = float(value)
    else:
        parsed = scaled_number(str(value), FLAG_UNITS.get(key, BATCH_UNITS))
    if parsed is None or not math.isfinite(parsed) or parsed != int(parsed):
        raise BadRequestError(f"{key} must be a whole number such as 8, 4096, 32k or 1.5万, not {value!r}")
    return int(parsed)


def apply_overrides(question: Question, overrides: Mapping[str, Any], kb: KnowledgeBase) -> Question:
    """Return `question` with every non-None override applied and recorded in `stated`."""
    unknown = set(overrides) - set(FLAG_KEYS) - {"text"}
    if unknown:
        raise BadRequestError(f"unknown key(s) {sorted(unknown)}; known: {', '.join(FLAG_KEYS)}")
    updates: dict[str, Any] = {}
    for key, value in overrides.items():
        if value is None or key == "text":
            continue
        if key == "model":
            result = kb.model_index.lookup(str(value))
            if not result.confident or result.best is None:
                raise BadRequestError(
                    f"unknown model {value!r}"
                    + (f"; did you mean {', '.join(m.id for m in result.alternatives[:3] if m)}"
                       if result.alternatives or result.best else "")
                )
            updates.update(model=result.best.id, model_text=str(value), model_score=result.best.score,
                           params_b=None)
            if result.quant and "quant" not in overrides:
                updates["quant"] = result.quant
        elif key == "gpu":
            gpu = kb.gpu_index.lookup(str(value))
            if not gpu.confident or gpu.best is None:
                raise BadRequestError(f"unknown GPU {value!r}")
            updates.update(gpu=gpu.best.id, gpu_text=str(value))
        elif key == "gpus":
            updates["gpu_count"] = _bounded_int("gpus", value, MAX_GPU_COUNT)
        elif key == "task":
            updates["task"] = _choice("task", value, TASKS)
        elif key == "precision":
            updates["precision"] = _choice("precision", value, PRECISIONS)
        elif key == "quant":
            quant = str(value).strip().lower()
            updates["quant"] = None if quant in {"none", ""} else quant
        elif key == "engine":
            updates["engine"] = _choice("engine", resolve_engine_id(str(value)) or value, ENGINES)
            ollama = str(value).strip().lower() == "ollama"
            notes = [n for n in question.notes if n != OLLAMA_NOTE]
            updates["notes"] = [*notes, OLLAMA_NOTE] if ollama else notes
        elif key == "engine_version":
            if version_tuple(str(value)) is None:
                raise BadRequestError(f"engine_version must be a version number such as 4.38 or 0.6.3, not {value!r}")
            updates["engine_version"] = str(value).strip().lstrip("vV")
        elif key == "engine_backend":
            backends = tuple(dict.fromkeys(b for p in load_engine_profiles().values() for b in p.backends))
            updates["engine_backend"] = _choice("engine_backend", value, backends)
        elif key == "kv_cache":
            updates["kv_cache"] = _choice("kv_cache", value, KV_CACHES)
        elif key == "memory_fraction":
            updates["memory_fraction"] = _share("memory_fraction", value)
        elif key == "max_num_seqs":
            updates["max_num_seqs"] = _bounded_int("max_num_seqs", value, 65_536)
        elif key == "layer_split":
            updates["layer_split"] = _shares("layer_split", value)
        elif key == "prefill_chunk":
            updates["prefill_chunk"] = _bounded_int("prefill_chunk", value, MAX_PREFILL_CHUNK)
        elif key in ("gpu_layers", "cpu_moe_layers"):
            updates[key] = _bounded_int(key, value, MAX_GPU_LAYERS, lower=0)
        elif key in {"context", "gen_tokens"}:
            updates[key] = _bounded_int(key, value, MAX_CONTEXT)
        elif key == "batch":
            updates["batch"] = _bounded_int("batch", value, MAX_BATCH)
        elif key == "resolution":
            updates["image_resolution"] = _bounded_int("resolution", value, MAX_IMAGE_SIDE, lower=MIN_IMAGE_SIDE)
        elif key == "steps":
            updates["image_steps"] = _bounded_int("steps", value, MAX_IMAGE_STEPS)
        elif key in ("lora_rank", "grad_accumulation"):
            updates[key] = _bounded_int(key, value, 4096)
        elif key == "zero_stage":
            updates["zero_stage"] = _bounded_int("zero_stage", value, 3, lower=0)
        elif key in ("gradient_checkpointing", "flash_attention", "pure_16bit", "train_embeddings", *TRAINING_SWITCHES):
            updates[key] = bool(value)
        elif key == "offload":
            updates["offload"] = _choice("offload", value, ("none", "optimizer", "all"))
        elif key == "text_encoders":
            updates["text_encoders"] = _choice("text_encoders", value, ("cached", "resident", "trained"))
        elif key == "optimizer":
            updates["optimizer"] = _choice("optimizer", value, get_args(Optimizer))
        elif key == "params_b":
            try:
                size = float(value)
            except (TypeError, ValueError):
                raise BadRequestError(f"params_b must be a number, not {value!r}") from None
            if not 0 < size <= MAX_PARAMS_B:
                raise BadRequestError(f"params_b must be between 0 and {MAX_PARAMS_B:,.0f}")
            updates.update(params_b=size, model=None)
        elif key == "lang":
            updates["lang"] = _choice("lang", value, ("en", "zh-Hans", "zh-Hant"))
        elif key == "intent":
            updates["intent"] = str(value)
        elif key == "budget":
            updates["budget"] = bool(value)
        elif key == "budget_amount":
            updates.update(budget_amount=_money("budget_amount", value), budget=True)
        elif key == "budget_currency":
            updates["budget_currency"] = _choice("budget_currency", str(value).lower(), ("usd", "cny", "eur")).upper()
        elif key == "budget_period":
            updates["budget_period"] = _choice("budget_period", value, ("hour", "day", "month", "total", "purchase"))
        elif key == "cloud":
            updates["cloud"] = str(value).lower()
    if "budget_amount" in updates:
        # a sum alone is in the reply's language's currency and covers the whole job, as the text reads it
        updates.setdefault("budget_currency",
                           question.budget_currency or default_budget_currency(updates.get("lang") or question.lang))
        updates.setdefault("budget_period", question.budget_period or "total")
    if "quant" in updates and updates["quant"] and "precision" not in updates:
        bits = bits_per_weight(str(updates["quant"]))
        implied = bpw_precision(bits) if bits is not None else QUANT_PRECISION.get(updates["quant"])
        if implied:
            updates["precision"] = implied
    slot_names = {"gpus": "gpu_count"}
    stated = list(question.stated)
    for key in updates:
        name = slot_names.get(key, key)
        if name not in stated and not name.endswith("_text") and name not in ("model_score", "notes"):
            stated.append(name)
    merged = question.model_dump()
    merged.update(updates)
    merged["stated"] = stated
    return Question.model_validate(merged)
