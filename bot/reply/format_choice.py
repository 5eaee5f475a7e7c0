"""The formats weighed when a precision is asked for and none named ("can we run Llama-3.3-70B on it, and in what
precision?", "4090 跑 32B 该选什么量化").

Answered at the 16-bit default alone, the question was not answered (audit 29 HIGH 51: FP8, native on the L40S
asked about, never offered). The formats set side by side are the model's release precision and the smaller ones
its cards run: FP8 where they have FP8 tensor cores or vLLM's weight-only FP8 path, INT8 where they have neither,
and 4-bit AWQ. A model released in 4 bits has no smaller format to weigh. When a pasted nvidia-smi table shows
cards busy with another job, the formats are weighed on the free cards: what runs now.
"""

from __future__ import annotations

from bot.understand.question import Question
from knowledge.schema import GPU, Model
from rules.hardware import runs_precision, supports_bf16

GGUF_ENGINES = frozenset({"llama.cpp", "ollama"})


def formats_to_weigh(question: Question, model: Model, gpu: GPU | None) -> Question | None:
    """`question` with `compare_formats` (and, beside busy cards, the free cards as each format's count) when a
    precision is asked for and none named; None otherwise."""
    if not question.asks_precision or len(question.compare_formats) >= 2:
        return None
    native = model.native_precision
    if native in ("mxfp4", "int4"):
        return None
    if question.engine in GGUF_ENGINES:
        # llama.cpp and Ollama run GGUF files: their ladder, not vLLM's formats (audit 38 HIGH-117: "what quant do I
        # need" with Ollama was weighed in BF16, FP8 and AWQ)
        return question.model_copy(update={"compare_formats": ["q8_0", "q4_k_m", "q3_k_m", "q2_k"]})
    eight_bit = "fp8" if gpu is None or runs_precision(gpu, "fp8", "vllm") else "int8"
    sixteen = "bf16" if gpu is None or supports_bf16(gpu) else "fp16"
    formats = ["fp8", "awq"] if native == "fp8" else [sixteen, eight_bit, "awq"]
    update: dict[str, object] = {"compare_formats": formats}
    count = question.gpu_count or 1
    free = count - len(question.smi_busy)
    if question.smi_busy and free >= 1:
        update["compare_format_counts"] = dict.fromkeys(formats, free)
    return question.model_copy(update=update)


__all__ = ["formats_to_weigh"]
