"""The runtime a job runs on ("with vLLM", "ollama", "llama.cpp")."""

from __future__ import annotations

import re

from bot.understand.slots.base import SlotState, first_label, rx

ENGINES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("vllm", rx(r"\bvllm\b|(?<=with\s)vlm\b(?!\s+models?\b)|(?<=using\s)vlm\b(?!\s+models?\b)|用\s*vlm\b")),
    ("sglang", rx(r"\bsglang\b")),
    ("lmdeploy", rx(r"\blmdeploy\b|\bturbomind\b")),
    ("tensorrt-llm", rx(r"\btensorrt[-_ ]?llm\b|\btrt[-_ ]?llm\b")),
    ("unsloth", rx(r"\b(?:use_)?unsloth\b")),
    ("llama-factory", rx(r"\bllama[-_ ]?factory\b")),
    ("torchtune", rx(r"\btorchtune\b")),
    ("deepspeed", rx(r"\bdeepspeed\b")),
    ("fsdp-qlora", rx(r"\bfsdp_qlora\b|\banswer\.?ai\b|\banswerdotai\b")),
    ("fsdp", rx(r"\bfsdp\d?\b|fully[-_ ]sharded[-_ ]data[-_ ]parallel")),
    ("llama.cpp", rx(r"\bllama[.-_ ]?cpp\b|\bollama\b|\bgguf\b|\blm[-_ ]?studio\b|\bllamafile\b"
                     r"|\bllama[-_](?:server|cli)\b")),
    ("transformers", rx(r"\btransformers\b|(?<![-\w/.])hf(?![-\w/.])|\bhugging\s?face\s+(?:pipeline|generate)")),
)

UNMODELLED_ENGINES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("Text Generation Inference (TGI)", rx(r"\btgi\b|\btext[-_ ]generation[-_ ]inference\b")),
    ("ExLlama", rx(r"\bexllama(?:v[23])?\b|\bexl[23]\b|\btabby[-_ ]?api\b")),
    ("MLX", rx(r"\bmlx(?:[-_ ]lm)?\b")),
    ("KTransformers", rx(r"\bktransformers\b")),
    ("MLC LLM", rx(r"\bmlc[-_ ]?llm\b")),
    ("CTranslate2", rx(r"\bctranslate2?\b")),
    ("Aphrodite", rx(r"\baphrodite(?:[-_ ]engine)?\b")),
    ("LightLLM", rx(r"\blightllm\b")),
    ("OpenVINO", rx(r"\bopenvino\b")),
    ("ONNX Runtime", rx(r"\bonnx(?:[-_ ]?runtime)?\b")),
    ("axolotl", rx(r"\baxolotl\b")),
    ("XTuner", rx(r"\bxtuner\b")),
    ("ms-swift", rx(r"\bms[-_ ]?swift\b|\bmodelscope[-_ ]swift\b")),
    ("Megatron-LM", rx(r"\bmegatron(?:[-_ ]?(?:lm|core|deepspeed))?\b")),
)
"""Runtimes people name that have no engine profile here. Each holds memory its own way (TGI reserves KV
blocks up front, ExLlama's EXL2 stores a stated bits per weight, MLX runs in Apple's unified memory), so the
reply says the figures are another engine's instead of sizing that one in silence."""

UNSLOTH = dict(ENGINES)["unsloth"]
OLLAMA = rx(r"\bollama\b")
TRITON = rx(r"\btriton\b")
"""Triton Inference Server fronts several engines (its vLLM backend too): alone it means its TensorRT-LLM
backend, the one it is known for with LLMs."""
OLLAMA_NOTE = "runner-ollama"
"""Question note: the llama.cpp job runs under Ollama, whose defaults differ (bot.reply.defaults)."""


def unmodelled_engine(text: str) -> str | None:
    """The runtime without a profile that `text` names first, if any."""
    return first_label(UNMODELLED_ENGINES, text)


def parse_engine(state: SlotState) -> None:
    """The engine named; a GGUF file implies llama.cpp (call after `parse_precision`, which reads the format)."""
    engine = first_label(ENGINES, state.text)
    if engine == "llama-factory" and UNSLOTH.search(state.text):
        engine = "unsloth"  # use_unsloth hands LLaMA-Factory's model to Unsloth, whose memory then applies
    quant = state.values.get("quant")
    if engine is None and isinstance(quant, str) and quant.startswith("gguf"):
        engine = "llama.cpp"
    if engine is None and TRITON.search(state.text):
        engine = "tensorrt-llm"
    if engine is not None:
        state.set("engine", engine)
    if engine == "llama.cpp" and OLLAMA.search(state.text):
        state.notes.append(OLLAMA_NOTE)  # Ollama runs llama.cpp with its own defaults (flash attention)
