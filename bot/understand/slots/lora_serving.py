"""Serving LoRA adapters ("multi-LoRA serving", "--enable-lora", "50 LoRA adapters with vLLM", 挂 100 个 LoRA):
an inference job, however often the word LoRA appears.

Read before the task (slots/task.py), because "LoRA" alone means fine-tuning there. A question serves adapters
when it uses an engine's adapter flag (vLLM --enable-lora / --max-loras / --lora-modules, SGLang --lora-paths /
--max-loras-per-batch), mounts them (挂 N 个 LoRA), or counts adapters or says multi-LoRA together with a
serving engine named, or with a serving word and no training word ("train 3 LoRA adapters" stays training).

Slots: `lora_adapters` (the adapters counted), `max_loras` (the engine's slot setting: --max-loras N,
--max-loras-per-batch N, or the count itself when the text says every adapter is active at once) and
`lora_rank` from --max-lora-rank (vLLM sizes every slot at it; a plain "rank 16" is read by slots/training.py).
"""

from __future__ import annotations

import re

from bot.understand.numbers import CN_NUMERAL_PATTERN, number
from bot.understand.question import MAX_LORA_ADAPTERS
from bot.understand.slots.base import EN_COUNT_WORDS, SlotState, bounded, rx

SERVING_ENGINES = frozenset({"vllm", "sglang", "lmdeploy", "tensorrt-llm"})
"""Engines that serve, never train: LoRA adapters named with one of them are served."""

_FLAG = rx(
    r"--enable[-_]lora\b|\benable_lora\b|--lora[-_]modules\b|--lora[-_]paths?\b|\blora_paths?\b"
    r"|--max[-_](?:cpu[-_])?loras\b|\bmax_(?:cpu_)?loras\b|--max[-_]lora[-_]rank\b|\bmax_lora_rank\b"
    r"|--max[-_]loaded[-_]loras\b|\bmax_loras_per_batch\b"
)
"""The serving engines' adapter settings (vLLM engine args, SGLang server args): only a served adapter has them."""
_MULTI = rx(r"\bmulti[-_\s]?loras?\b|多\s*(?:个\s*)?lora|\bs[-_]lora\b|\bpunica\b|\blorax\b")
"""Multi-LoRA serving by name (S-LoRA, Punica, LoRAX are multi-adapter servers)."""
_HANG = rx(r"挂(?:载)?\s*(?:" + CN_NUMERAL_PATTERN + r"|\d{1,6})\s*(?:个|种)?\s*(?:不同的?\s*)?(?:lora|适配器|adapter)")
"""挂 N 个 LoRA: adapters mounted on a served base model (挂 folded from 掛)."""
_COUNT = rx(
    r"(?<![a-z0-9.=])(?P<num>\d{1,6}(?!\.\d)|" + CN_NUMERAL_PATTERN + "|" + EN_COUNT_WORDS + r")\s*(?:个|种|套)?\s*"
    r"(?:(?:different|distinct|separate|fine[-_\s]?tuned|custom|task[-_\s]specific|domain[-_\s]specific|customer"
    r"|tenant)\s+){0,2}"
    r"(?P<what>q?loras?(?:\s*(?:adapters?|适配器|模型|models?))?|adapters?|适配器)(?![a-z])"
)
"""A number of adapters: "50 LoRA adapters", "100 个 LoRA", "30 个 LoRA adapter", "20 fine-tuned LoRAs"."""
_AFTER_RANK = re.compile(r"(?:rank|\br|秩)\s*(?:=|:|of|is)?\s*$")
"""A count right after "rank" / "r=" is the rank ("rank 16 LoRA adapters"), not how many."""
_MAX_LORAS = rx(r"-{0,2}max[-_]loras(?:[-_]per[-_]batch)?\s*[=:]?\s*(?P<num>\d{1,6})\b")
_MAX_LORA_RANK = rx(r"-{0,2}max[-_]lora[-_]rank\s*[=:]?\s*(?P<num>\d{1,4})\b")
_SERVE = rx(
    r"\bserv(?:e|es|ed|ing)\b|\binfer\w*|\bdeploy\w*|\bhost(?:s|ed|ing)?\b|\bproduction\b|\brun(?:s|ning)?\b"
    r"|\bgenerat\w*|\bchat\w*|推理|部署|服务(?!器)|上线|运行|跑|加载|调用"
)
_TRAIN = rx(r"\bfine[-_\s]?tun(?:e|es|ing)\b|\bfinetun(?:e|es|ing)\b|\btrain(?:s|ing)?\b|\bsft\b|微调|训练|精调")
"""Training said in the present ("fine-tune", "training"): "fine-tuned adapters" are served, not trained."""
_ALL_ACTIVE = rx(
    r"\ball\b(?:\s+\w+){0,4}?\s+(?:active|resident|on\s+the\s+(?:gpu|card))\b"
    r"|(?:adapters?|loras?)\b(?:\s+\w+){0,3}?\s+(?:at\s+once|concurrently|simultaneously|at\s+the\s+same\s+time)\b"
    r"|同时(?:激活|生效|加载|驻留)|全部(?:激活|常驻|加载|放在显存)"
)
"""Every adapter on the card at once ("all 50 active at once", "adapters served concurrently", 同时激活): the
count is the slot setting."""


def _adapter_count(text: str) -> re.Match[str] | None:
    for m in _COUNT.finditer(text):
        if _AFTER_RANK.search(text[: m.start()]):
            continue
        word = m.group("num")[0].isascii() and m.group("num")[0].isalpha()
        if word and m.group("what") in ("lora", "qlora"):
            continue  # "a LoRA" is the method ("do a LoRA on Qwen"), "an adapter" / "two LoRAs" are adapters
        return m
    return None


def _retract_batch(state: SlotState, value: int) -> None:
    """SGLang's "--max-loras-per-batch 4" ends like a batch size, and the batch cue (slots/context.py) reads
    first: that number is the adapter slots, so the batch it set is withdrawn."""
    if state.values.get("batch") == value:
        state.values.pop("batch")
        state.stated = [slot for slot in state.stated if slot != "batch"]


def parse_lora_serving(state: SlotState) -> bool:
    """Read the LoRA-serving slots; True when the question serves adapters (the task is then inference)."""
    text = state.text
    count = _adapter_count(text)
    multi = _MULTI.search(text) is not None
    named = count is not None or multi
    engine_serves = state.values.get("engine") in SERVING_ENGINES
    said_serving = _SERVE.search(text) is not None or multi
    flagged = _FLAG.search(text) is not None or _HANG.search(text) is not None
    if not (flagged or (named and (engine_serves or (said_serving and _TRAIN.search(text) is None)))):
        return False
    for pattern, slot in ((_MAX_LORA_RANK, "lora_rank"), (_MAX_LORAS, "max_loras")):
        m = pattern.search(state.folded)  # unmasked: the batch cue may have read "--max-loras-per-batch 4"
        if m is None or int(m.group("num")) <= 0:
            continue
        if slot == "max_loras" and not state.text[m.start("num"): m.end("num")].strip():
            _retract_batch(state, int(m.group("num")))
        state.set(slot, int(bounded(state, slot, int(m.group("num")), 4096 if slot == "lora_rank"
                                    else MAX_LORA_ADAPTERS)))
        state.mask(m.start(), m.end())
    value = number(count.group("num")) if count is not None else None
    if count is not None and value is not None and value >= 1:
        adapters = int(bounded(state, "lora_adapters", value, MAX_LORA_ADAPTERS))
        state.set("lora_adapters", adapters)
        state.mask(count.start("num"), count.end("num"))
        if _ALL_ACTIVE.search(text):
            state.set("max_loras", adapters)
    return True
