"""Which runtime (and version, KV-cache type) a published row measured, read from its settings: the engine the
rules size it on. Split from bench/_cases.py, which maps the rest of a row."""

from __future__ import annotations

import re
from typing import Any

from _sources import source_version

from knowledge.engines import resolve_engine_id

ENGINE_WORDS = (("unsloth", "unsloth"), ("llama-factory", "llama-factory"), ("llamafactory", "llama-factory"),
                ("vllm", "vllm"), ("sglang", "sglang"), ("lmdeploy", "lmdeploy"), ("turbomind", "lmdeploy"),
                ("tensorrt", "tensorrt-llm"), ("trt-llm", "tensorrt-llm"), ("llama.cpp", "llama.cpp"),
                ("ollama", "llama.cpp"), ("deepspeed", "deepspeed"), ("fsdp_qlora", "fsdp-qlora"), ("fsdp", "fsdp"),
                ("torchtune", "torchtune"),
                ("transformers", "transformers"), ("peft", "transformers"))
"""Words in a row's `settings.framework` that name the runtime it measured (first match wins). A framework
that names two back ends as alternatives ("transformers or vLLM") names none: see `ambiguous_framework`."""

VERSION_RE = re.compile(r"\bv?(\d+\.\d+(?:\.\d+)*)\b")

VERSION_MARK = r"(?:\babout|~|≈|\bv)\s*"
"""What marks a number in a gloss as a version: approximate or tagged ("about 0.3.0", "~0.8", "≈ 0.10.2",
"v4.2.0")."""

# Reading a setting's free text --------------------------------------------------------------------------------

ABSENT_RE = re.compile(r"(?:not stated|unstated|unknown|not set|default)\b")
"""A setting's head that gives no value: the row did not say, or ran the runtime's default."""

FLAG_TRUE = frozenset({"true", "yes", "on", "1", "enabled"})
FLAG_FALSE = frozenset({"false", "no", "off", "0", "disabled", "none"})


def setting_head(value: Any) -> str:
    """The value of an enum-like setting without its gloss: the text before the first "(", ";" or " - ",
    lower-cased ("false (not in launch.sh at the commit) - assumed" → "false")."""
    return re.split(r"\(|;|\s-\s", str(value), maxsplit=1)[0].strip().lower()


def stated_head(value: Any) -> str | None:
    """`setting_head`, or None when the setting is missing or gives no value ("not stated", "unknown",
    "default (…)")."""
    if value is None:
        return None
    head = setting_head(value)
    return None if not head or ABSENT_RE.match(head) else head


def flag_setting(value: Any, also_true: tuple[str, ...] = ()) -> bool | None:
    """A yes/no setting: True (true, yes, on, 1, enabled, or one of `also_true`), False (false, no, off, 0,
    disabled, none), None for anything else ("not stated", "2.7.4", "unclear (…)"). The first word of the head
    decides, after an "assumed" qualifier ("assumed true (launch.sh)", "true in launch.sh (assumed)" → True)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int | float):
        return True if value == 1 else False if value == 0 else None
    head = stated_head(value)
    if head is None:
        return None
    word = re.match(r"(?:assumed\s+)?([a-z0-9_.]+)", head)
    if word is None:
        return None
    if word.group(1) in FLAG_TRUE or word.group(1) in also_true:
        return True
    return False if word.group(1) in FLAG_FALSE else None


NEGATION = r"\b(?:no|not|without)\s+"
"""The words that negate the word after them ("no DeepSpeed", "not 8bit", "without … 8-bit optimizers")."""
NEGATION_RE = re.compile(NEGATION + "$")


def negated(text: str, start: int) -> bool:
    """The word at `start` of `text` is preceded by "no", "not" or "without" ("plain single-GPU, no DeepSpeed")."""
    return NEGATION_RE.search(text[:start]) is not None


def names_word(low: str, word: str) -> bool:
    """`word` occurs in `low` other than negated."""
    return any(not negated(low, m.start()) for m in re.finditer(re.escape(word), low))


# ---------------------------------------------------------------------------------------------------------------


def engine_version_in(framework: str, engine: str) -> str | None:
    """The version printed right after one of `engine`'s words ("PEFT 0.19.2, transformers 5.13.1" →
    transformers 5.13.1, not PEFT's 0.19.2), or marked as approximate in the gloss that follows the word
    ("vLLM (Feb 2024, about 0.3.0; version not stated)" → 0.3.0); a framework naming one thing may print its
    version anywhere."""
    low = framework.lower()
    for word, named in ENGINE_WORDS:
        if named != engine or word == "peft":
            continue
        match = (re.search(re.escape(word) + r"[^,;+()]*?\bv?(\d+\.\d+(?:\.\d+)*)\b", low)
                 # into the gloss the word opens: a version first in it, or marked anywhere before its ";"
                 or re.search(re.escape(word) + r"[^,;+()]*?\((?:[^;()]*?" + VERSION_MARK + r"|\s*)"
                              r"(\d+\.\d+(?:\.\d+)*)\b", low))
        if match:
            return match.group(1)
    if len(VERSION_RE.findall(low)) == 1 and not re.search(r"[,+]", low):
        found = VERSION_RE.search(low)
        return found.group(1) if found else None
    return None


def lone_version(framework: str, engine: str) -> str | None:
    """The one version number of a framework text that names `engine` (not negated), whatever commas surround
    it ("vLLM (V0 engine, Dec 2024; log format of v0.6.4)" → 0.6.4); None for a text naming none or several."""
    low = framework.lower()
    if not any(names_word(low, word) for word, named in ENGINE_WORDS if named == engine and word != "peft"):
        return None
    versions = VERSION_RE.findall(low)
    return versions[0] if len(versions) == 1 and "+" not in low else None


def approximate_version(evidence: str) -> str | None:
    """The version a row's version evidence gives as approximate ("comment dated 2025-09-18, about 0.10.2")."""
    match = re.search(r"(?:\babout|~|≈)\s*v?(\d+\.\d+(?:\.\d+)*)\b", evidence.lower())
    return match.group(1) if match else None


def engine_version_of(case: dict[str, Any], engine: str) -> str | None:
    """The version of `engine` the row ran: stated in its settings, printed in its framework text, else the one
    SOURCE_VERSIONS_FILE dates its source to, else the framework text's lone version number, else the version its
    `engine_version_evidence` gives as approximate."""
    settings: dict[str, Any] = case.get("settings") or {}
    framework = str(settings.get("framework") or settings.get("engine") or "")
    version = (settings.get("engine_version") or settings.get("version") or engine_version_in(framework, engine)
               or source_version(case, engine) or lone_version(framework, engine)
               or approximate_version(str(settings.get("engine_version_evidence") or "")))
    return str(version) if version else None


def map_kv_cache(text: str) -> str | None:
    """A published KV-cache dtype (kv_cache_dtype=fp8_e4m3, q8_0, quant_policy=8) → the Workload value."""
    low = text.lower()
    if "fp8" in low:
        return "fp8"
    if "q8" in low or "int8" in low or "policy=8" in low:
        return "int8"
    if "q4" in low or "int4" in low or "policy=4" in low:
        return "int4"
    return None


TENSORRT_ENGINE_WORDS = ("triton", "tensorrtllm_backend", "trtllm-build", "build.py", "gptmanagerbenchmark")
"""A TensorRT-LLM row that built or served a TensorRT engine (the Triton backend, trtllm-build, the 2023
examples/*/build.py and its gptManagerBenchmark), whatever the release."""


def trtllm_backend(low: str) -> str | None:
    """TensorRT-LLM's backend as the row's framework text names it: `pytorch` ("PyTorch-backend log lines"),
    `tensorrt` (TENSORRT_ENGINE_WORDS), else None (the release's default)."""
    if "pytorch" in low:
        return "pytorch"
    return "tensorrt" if any(word in low for word in TENSORRT_ENGINE_WORDS) else None


def ambiguous_framework(low: str) -> bool:
    """The row names back ends as alternatives ("backend not stated; transformers or vLLM"): not a runtime."""
    return " or " in low and "not stated" in low


def map_engine(case: dict[str, Any]) -> dict[str, Any]:
    """engine (+ engine_version, kv_cache) of a row: its stated framework, else the engine whose own repository
    published it, else transformers (the published tables are transformers peaks unless they say otherwise)."""
    settings: dict[str, Any] = case.get("settings") or {}
    framework = str(settings.get("framework") or settings.get("engine") or "")
    low = framework.lower()
    engine = None if ambiguous_framework(low) else next((e for word, e in ENGINE_WORDS if names_word(low, word)),
                                                            None)
    if engine == "llama-factory" and flag_setting(settings.get("use_unsloth")):
        # use_unsloth hands loading and the LoRA wrap to Unsloth's FastLanguageModel with its offloaded
        # checkpointing (use_gradient_checkpointing="unsloth" in llamafactory/model/model_utils/unsloth.py)
        engine = "unsloth"
    if engine is None and not framework and "vllm" in str(case.get("notes") or "").lower():
        engine = "vllm"
    if engine is None and not framework:
        repo = str((case.get("source") or {}).get("repo") or "")
        engine = resolve_engine_id(repo.split("/")[-1]) if repo else None
    out: dict[str, Any] = {"engine": engine or "transformers"}
    version = engine_version_of(case, out["engine"])
    backend = trtllm_backend(low) if out["engine"] == "tensorrt-llm" else None
    if backend:
        out["engine_backend"] = backend
    if version:
        out["engine_version"] = version
    kv = map_kv_cache(str(settings.get("kv_cache_dtype") or settings.get("kv_cache") or ""))
    if kv:
        out["kv_cache"] = kv
    return out


UNPROFILED_ENGINES = {"text-generation-inference": "text-generation-inference", "tgi ": "text-generation-inference",
                      "ik_llama": "ik_llama.cpp, a llama.cpp fork with its own kernels and KV cache"}
"""Runtimes the knowledge base has no profile for (framework word → name): sizing their rows as another engine
would misjudge them."""
