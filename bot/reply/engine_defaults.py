"""When the reply runs a model on a serving engine, or on llama.cpp, though the question named no engine, and
what a serving engine's LoRA slots default to.

The engine decides which memory and speed figures apply: a 405B model or a million-token prompt on transformers
sizes a job nobody runs. The thresholds and tests that move a question off transformers are kept here, with
their sources, so bot.reply.defaults.workload_for reads as the order of its choices.
"""

from __future__ import annotations

from bot.reply.model import Assumption
from bot.understand.intent import WHY_SLOW_NOTE
from bot.understand.question import Question
from knowledge.schema import GPU, Model
from rules import memory_lora_serving as LS
from rules import weight_formats as WF
from rules.types import Workload

SERVING_ENGINE_MIN_PARAMS_B = 100.0
"""From this size a model is run on a serving engine even for one prompt: its makers point to vLLM, SGLang,
LMDeploy or TensorRT-LLM for it (DeepSeek-V3's README "How to Run Locally" lists those and no transformers
path; Llama 3.1 405B FP8 ships for vLLM), and transformers' generate over a layer split of many cards
decodes a few tokens a second."""


LONG_PROMPT_SERVING_TOKENS = 131_072
"""Past this many tokens a prompt is run on a serving engine that prefills it in chunks (vLLM): transformers
prefills a prompt whole, one layer's MLP for every token at once, which is tens of GiB at a million tokens, and
the makers of the 1M-token models show them on vLLM."""


def lora_serving_assumptions(question: Question, engine: str) -> list[Assumption]:
    """Served LoRA adapters: the GPU slots and their rank when the text leaves them to the engine
    (rules.memory_lora_serving: vLLM --max-loras 1 at --max-lora-rank 16, SGLang --max-loras-per-batch 8, every
    adapter on the card elsewhere), said under Assumed since they, not the adapter count, size the memory."""
    out = []
    if question.max_loras is None:
        slots = LS.gpu_slots(engine, question.lora_adapters, None)
        reason = f"{engine}-lora-slots" if engine in LS.SLOT_RULES else "lora-adapters-on-card"
        out.append(Assumption(field="max_loras", value=slots, reason=reason))
    if question.lora_rank is None:
        rank = LS.VLLM_DEFAULT_MAX_LORA_RANK if engine == "vllm" else Workload.lora_rank  # both 16
        reason = "vllm-max-lora-rank" if engine == "vllm" else "default"
        out.append(Assumption(field="lora_rank", value=rank, reason=reason))
    return out


def spills_on_desktop(question: Question, model: Model, gpu: GPU | None, task: str) -> bool:
    """A model asked to be slow on a desktop card whose memory cannot hold its released weights: the asker runs
    it already, and what runs a model past a GeForce card's memory is llama.cpp or Ollama with a GGUF and layers in
    system RAM, the reason it is slow (audit 30 HIGH 64: sized in bf16 on transformers, an answer to a job nobody
    runs). Stated engines and precisions stay as asked."""
    if (WHY_SLOW_NOTE not in question.notes or question.engine is not None or "precision" in question.stated
            or question.quant is not None or task != "inference" or model.arch != "decoder" or gpu is None
            or gpu.form != "consumer"):
        return False
    native_bytes = WF.BYTES_PER_PARAM_PLAIN.get(model.native_precision, 2.0)
    return model.params_b * 1e9 * native_bytes > gpu.memory_gb * 1e9 * (question.gpu_count or 1)
