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


def engine_version_in(framework: str, engine: str) -> str | None:
    """The version printed right after one of `engine`'s words ("PEFT 0.19.2, transformers 5.13.1" →
    transformers 5.13.1, not PEFT's 0.19.2); a framework naming one thing may print its version anywhere."""
    low = framework.lower()
    for word, named in ENGINE_WORDS:
        if named != engine or word == "peft":
            continue
        match = re.search(re.escape(word) + r"[^,;+()]*?\bv?(\d+\.\d+(?:\.\d+)*)\b", low)
        if match:
            return match.group(1)
    if len(VERSION_RE.findall(low)) == 1 and not re.search(r"[,+]", low):
        found = VERSION_RE.search(low)
        return found.group(1) if found else None
    return None


def engine_version_of(case: dict[str, Any], engine: str) -> str | None:
    """The version of `engine` the row ran: stated in its settings, printed in its framework text, else the one
    SOURCE_VERSIONS_FILE dates its source to."""
    settings: dict[str, Any] = case.get("settings") or {}
    framework = str(settings.get("framework") or settings.get("engine") or "")
    version = (settings.get("engine_version") or settings.get("version") or engine_version_in(framework, engine)
               or source_version(case, engine))
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
    engine = None if ambiguous_framework(low) else next((e for word, e in ENGINE_WORDS if word in low), None)
    if engine == "llama-factory" and settings.get("use_unsloth"):
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
