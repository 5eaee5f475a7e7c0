"""The runtime a job runs on ("with vLLM", "ollama", "llama.cpp")."""

from __future__ import annotations

import re

from bot.understand.question import GGUF_SERVER_NOTE, ROLLOUT_ENGINE_NOTE
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
    ("transformers", rx(r"\btransformers\b|(?<![-\w/.])hf(?![-\w/.])|\bhugging\s?face\s+(?:pipeline|generate)|"
                        r"\btrl\b|\bsft_?trainer\b|\bdpo_?trainer\b")),  # TRL's trainers are transformers' Trainer
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
    ("MindIE", rx(r"\bmind[-_ ]?ie\b")),
    ("MindSpeed", rx(r"\bmind[-_ ]?speed(?:[-_ ]?(?:llm|mm|rl))?\b")),
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


_RULED_OUT_BEFORE = rx(r"(?:\binstead\s+of|\brather\s+than|\bnot(?:\s+using|\s+with)?|\bwithout|\bother\s+than|"
                      r"\bexcept|\bno\s+longer(?:\s+using)?|(?:^|[\s(,;])no|而不是|不用|不使用|不是用|没有?用|没有|沒有|"
                      r"不想用|放弃了?|除了)\s*(?:the\s+)?$")
"""Words that put the engine after them aside ("instead of vLLM", "不用 vLLM", "accelerate (no DeepSpeed)": audit 30
HIGH 63 had sized that as DeepSpeed ZeRO-3)."""
_WEIGHED_BEFORE = rx(r"\b(?:looked\s+(?:at|into)|considered|thought\s+about|evaluated|checked\s+out|compared)"
                     r"\s+(?:\w+\s+){0,2}$")
_BUT_AFTER = rx(r"^[^.;!?。；]{0,12}?\b(?:but|however|though)\b")
"""An engine weighed and turned down: "we also looked at Unsloth but it does not do multi-GPU"."""
_CHOSEN_BEFORE = rx(r"(?:\bso\s+(?:we(?:'ll|\s+will|'re|\s+are)?\s+)?(?:(?:use|go\s+with|went\s+with|going\s+with|"
                    r"chose|picked|stick\s+with|settled\s+on)\s+)?|\b(?:went|going|go)\s+with|\bsettled\s+on|"
                    r"所以(?:就)?用|最后(?:选了?|用了?)|改用|决定用)\s*$")
_CHOSEN_AFTER = rx(r"^(?:\s*\+\s*\w+)?\s+(?:it\s+is|instead|then)\b")
"""An engine settled on: "so LLaMA-Factory + DeepSpeed it is", "改用 SGLang"."""


def _mentions(text: str) -> list[tuple[int, str, bool, bool]]:
    """Every engine named, in order: (where, which, put aside, settled on)."""
    found: list[tuple[int, str, bool, bool]] = []
    for label, pattern in ENGINES:
        for m in pattern.finditer(text):
            before, after = text[max(0, m.start() - 40): m.start()], text[m.end(): m.end() + 40]
            ruled_out = bool(_RULED_OUT_BEFORE.search(before)
                             or (_WEIGHED_BEFORE.search(before) and _BUT_AFTER.search(after)))
            chosen = bool(_CHOSEN_BEFORE.search(before) or _CHOSEN_AFTER.search(after))
            found.append((m.start(), label, ruled_out, chosen))
    return sorted(found)


def named_engine(text: str) -> str | None:
    """The engine the text settles on: one said to be chosen, else the first not put aside ("instead of vLLM",
    "looked at Unsloth but …"), else None."""
    found = _mentions(text)
    settled = [label for _, label, _, chosen in found if chosen] or [
        label for _, label, ruled_out, _ in found if not ruled_out]
    return settled[0] if settled else None


_LLAMA_CPP_BY_NAME = rx(r"\bllama[.-_ ]?cpp\b|\bollama\b|\blm[-_ ]?studio\b|\bllamafile\b|\bllama[-_](?:server|cli)\b")


def _server_beside_gguf(text: str) -> str | None:
    """The serving engine named beside a GGUF file when llama.cpp is read from the file's format alone ("GGUF Q8_0
    on vLLM"): its GGUF loading is experimental, so the job is sized as llama.cpp runs the file, and said (audit 24
    M-29: it was switched silently)."""
    if _LLAMA_CPP_BY_NAME.search(text):
        return None
    return next((label for _, label, ruled_out, _ in _mentions(text)
                 if label in ("vllm", "sglang", "lmdeploy", "tensorrt-llm") and not ruled_out), None)


_COMPARED = rx(r"\b(?:vs\.?|versus|or|compared?|comparison|against|better|faster|more\s+throughput|which)\b"
              r"|对比|對比|比较|比較|还是|還是|哪个|哪個|和|与|與|跟")
"""Words that set engines named together against each other ("TensorRT-LLM vs vLLM", "vLLM 和 SGLang 哪个吞吐更高")."""


def compared_engines(text: str) -> list[str]:
    """The engines a question weighs against each other, in the order named: two or more not put aside, with a
    word of comparison (audit 34 HIGH 96: "TensorRT-LLM vs vLLM … which gives more tokens/s?" was sized on the
    first alone). A training stack's parts ("LLaMA-Factory with DeepSpeed", "FSDP + QLoRA") are no comparison."""
    found: list[str] = []
    for _, label, ruled_out, _ in _mentions(text):
        if not ruled_out and label not in found:
            found.append(label)
    serving = [label for label in found if label in SERVING_COMPARABLE]
    if len(serving) < 2 or _COMPARED.search(text) is None:
        return []
    return serving


SERVING_COMPARABLE = frozenset({"vllm", "sglang", "lmdeploy", "tensorrt-llm", "llama.cpp", "transformers"})
"""Engines that serve a model, whose memory and speed are set side by side when a question weighs them."""


def parse_engine(state: SlotState) -> None:
    """The engine named; a GGUF file implies llama.cpp (call after `parse_precision`, which reads the format)."""
    engine = named_engine(state.text)
    if engine == "llama-factory" and any(label == "unsloth" and not ruled_out
                                         for _, label, ruled_out, _ in _mentions(state.text)):
        engine = "unsloth"  # use_unsloth hands LLaMA-Factory's model to Unsloth, whose memory then applies
    quant = state.values.get("quant")
    if engine is None and isinstance(quant, str) and quant.startswith("gguf"):
        engine = "llama.cpp"
    if engine is None and TRITON.search(state.text):
        engine = "tensorrt-llm"
    server = _server_beside_gguf(state.text) if engine == "llama.cpp" else None
    if server is not None:
        state.notes.append(GGUF_SERVER_NOTE + server)
    if engine is not None:
        state.set("engine", engine)
    compared = compared_engines(state.text)
    if compared:
        state.values["compare_engines"] = compared
    if engine == "llama.cpp" and OLLAMA.search(state.text):
        state.notes.append(OLLAMA_NOTE)  # Ollama runs llama.cpp with its own defaults (flash attention)


ROLLOUT_ENGINES = frozenset({"vllm", "sglang", "lmdeploy", "tensorrt-llm"})


def rollout_engine(state: SlotState) -> None:
    """An RL job ("GRPO … with vLLM rollouts") names a serving engine that generates its rollouts; the policy trains
    on the usual trainer, so the engine is a note the reply answers, not the job's runtime (audit 36 M-137: read
    back as vLLM training)."""
    if "preference-as-sft" in state.notes and state.values.get("engine") in ROLLOUT_ENGINES:
        state.notes.append(ROLLOUT_ENGINE_NOTE + str(state.values.pop("engine")))
        state.stated = [slot for slot in state.stated if slot != "engine"]
