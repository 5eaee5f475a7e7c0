"""Training options: ZeRO stage (FSDP is an engine, slots/engine.py), gradient checkpointing, LoRA rank, and the
memory techniques a recipe turns on (activation offloading, optimizer step in backward, a chunked loss, compile)."""

from __future__ import annotations

import re

from bot.understand.slots.base import SlotState, rx

_ZERO = rx(r"\bzero[-_ ]?(?:stage[-_ ]?)?(?P<stage>[0-3])\b|\bds_z(?P<file>[0-3])(?:_offload)?_config\b"
          r"|zero_optimization\W{0,8}stage\W{0,4}(?P<key>[0-3])\b")
"""ZeRO stages as written: "ZeRO-3", "zero stage 2", a DeepSpeed config named by its stage (LLaMA-Factory's
examples/deepspeed/ds_z3_config.json), or its "zero_optimization": {"stage": 3}."""
_SWITCH_OFF = r"\s*[=:]?\s*[\"']?(?:false|off|0|no|none|disabled?)(?![\w.])"
_CHECKPOINTING_OFF = rx(
    r"(?:without|no|disable\w*|不(?:开启?|用|使用|启用)?|关闭|关掉|关|禁用|去掉|取消)\s*(?:gradient|activation)?[-_ ]?"
    r"(?:checkpoint\w*|重计算|梯度检查点|激活检查点)"
    r"|(?:(?:enable|use)[-_])?(?:gradient|activation)[-_ ]?checkpoint\w*" + _SWITCH_OFF
    + r"|(?:梯度检查点|激活检查点|重计算)\s*(?:关闭|关掉|关|禁用|不开|off)"
)
"""Said in words ("no gradient checkpointing", 关闭梯度检查点, 不开梯度检查点, 梯度检查点关) or as a setting turned
off: HF/axolotl `gradient_checkpointing: false`, torchtune `enable_activation_checkpointing: False`, Unsloth
`use_gradient_checkpointing = False`."""
_CHECKPOINTING_BOTH = rx(
    r"(?:开启|打开|启用|开|\bon|\bwith)\s*(?:与|和|跟|及|/|\band\b|\bor\b|\bvs\.?|还是|或)\s*"
    r"(?:关闭|关掉|不开|关|\boff\b|\bwithout\b)|(?:开|关)\s*(?:和|与|跟|或)\s*(?:不开|关)")
"""Both settings of gradient checkpointing asked ("开启与关闭", "with and without", "on vs off")."""
CHECKPOINTING_BOTH_NOTE = "checkpointing-both"
"""Question note: the text asks the memory with and without gradient checkpointing."""
_CHECKPOINTING_ON = rx(r"\b(?:gradient|activation)[-_ ]?checkpoint\w*|重计算|梯度检查点|\bcheckpointing\b")
_ACTIVATION_OFFLOAD = rx(
    r"\b(?:activation|checkpoint)s?[-_\s]?offload\w*|\boffload\w*[-_\s](?:the\s)?activations?\b"
    r"|激活(?:值)?(?:卸载|offload)"
)
_OPTIMIZER_IN_BACKWARD = rx(
    r"\boptimi[sz]er[-_\s]?in[-_\s]?(?:the[-_\s]?)?(?:backward|bwd)\b"
    r"|\bfused?\s(?:the\s)?optimi[sz]er\s(?:step\s)?into\s(?:the\s)?backward|\bfused[-_\s]backward(?:[-_\s]pass)?\b"
)
_CHUNKED_LOSS = rx(
    r"\bchunked[-_\s]?(?:cross[-_\s]?entropy|ce|loss)\b|\bcewithchunkedoutputloss\b|\blinearcrossentropyloss\b"
    r"|分块(?:交叉熵|损失)"
)
_COMPILE = rx(r"\btorch[._\s]?compile\w*|\bcompile\s?[:=]\s?true\b")
_OFFLOAD_OPTIMIZER = rx(
    r"\b(?:zero[-_\s]?)?offload(?:ing|ed)?(?:[-_\s](?:the\s)?optimi[sz]er\w*)?\b|\bcpu[-_\s]offload\w*"
    r"|优化器(?:状态)?卸载|卸载到\s?cpu|\boffload\s?(?:to|into)\s?(?:the\s)?cpu"
)
"""DeepSpeed ZeRO-Offload ("zero3 offload", "offload_optimizer", "CPU offload"): the optimizer states in host RAM.
Read for training only, after activation offloading has claimed its own words."""
_OFFLOAD_PARAMS = rx(
    r"\boffload[-_\s]?param(?:eter)?s?\b|\bparam(?:eter)?s?[-_\s]offload\w*|\boffload\w*\s(?:the\s)?param(?:eter)?s\b"
    r"|\bzero[-_\s]?infinity\b|参数卸载|卸载参数"
)
"""ZeRO-3 offload_param ("offload_param", "parameter offload", "ZeRO-Infinity"): parameters in host RAM too."""
_TECHNIQUES = (("activation_offloading", _ACTIVATION_OFFLOAD), ("optimizer_in_backward", _OPTIMIZER_IN_BACKWARD),
               ("chunked_loss", _CHUNKED_LOSS), ("compiled", _COMPILE))
_DEVICE_NONE = rx(r"^[\"']?(?:\s*[:=]\s*\{\s*[\"']?device[\"']?)?\s*[:=]\s*[\"']?none\b|"
                  r"^\s*(?:device\s*)?(?:=|:|is|set\s+to)?\s*(?:none|off|disabled|false)\b")
"""The offload key switched off right after it: `"offload_optimizer": {"device": "none"}`, `offload_optimizer_device:
none` (DeepSpeed's JSON and accelerate's YAML write the key whether or not anything is offloaded)."""


def _switched_on(pattern: re.Pattern[str], text: str) -> bool:
    """Whether `pattern` names an offload that is on: a key whose device is "none" offloads nothing (audit 24
    HIGH 12: ZeRO-2 with `"offload_optimizer": {"device": "none"}` was sized with its optimizer in host RAM, 41.0
    GiB a card for 85.9)."""
    return any(_DEVICE_NONE.search(text[m.end(): m.end() + 40]) is None
               and _NEGATED_BEFORE.search(text[max(0, m.start() - 16): m.start()]) is None
               for m in pattern.finditer(text))


_NEGATED_BEFORE = rx(r"(?:\bwithout|\bno|\bnot|\bw/o|\bdisabl\w*|\bturn\w*\s+off|\bavoid\w*|"
                     r"不用|不开|不要|关闭|关掉|无|没有)"
                     r"[\s_-]*(?:the\s+|any\s+|fsdp[-_\s]*)?(?:cpu[-_\s]*)?$")
"""An offload ruled out just before its name: "does it fit without CPU offload?", "不开 offload" (audit 26
LOW-59: sized with the optimizer in host RAM)."""


_GRAD_ACCUMULATION = rx(
    r"\b(?:gradient[-_ ]?accumulation(?:[-_ ]?steps)?|grad[-_ ]?accum\w*|ga)\s*(?:=|:|of|is)?\s*(?P<num>\d{1,4})\b|"
    r"\b(?P<num2>\d{1,4})\s*(?:gradient[-_ ]?accumulation|grad[-_ ]?accum\w*)\s*steps?\b|"
    r"梯度累(?:积|加)\s*(?:步数|次数)?\s*(?:为|是|=|:)?\s*(?P<num3>\d{1,4})"
)
"""Micro-steps per optimizer step ("gradient accumulation 8", "gradient_accumulation_steps=16", "梯度累积8步"):
an offloaded optimizer runs once per that many micro-steps."""
_LORA_RANK = rx(r"\b(?:lora[-_ ]?)?rank\s*(?:=|:|of|is)?\s*(?P<num>\d{1,5})\b|\br\s*=\s*(?P<num2>\d{1,5})\b"
                r"|\blora_r\s*[=:]\s*(?P<num3>\d{1,5})\b")
"""A LoRA rank: "rank 64", "lora_rank: 64" (LLaMA-Factory), "r=64" (PEFT), "lora_r: 64" (axolotl)."""


def parse_grad_accumulation(state: SlotState) -> None:
    m = _GRAD_ACCUMULATION.search(state.text)
    if m is not None:
        steps = int(m.group("num") or m.group("num2") or m.group("num3"))
        if steps > 0:
            state.set("grad_accumulation", min(steps, 4096))
            state.mask(m.start(), m.end())


_FSDP_UNDER = rx(r"\bfsdp\d?\b(?![-_ ]?qlora)|fully[-_ ]sharded[-_ ]data[-_ ]parallel")
_DDP = rx(r"\bddp\b|\bdistributed\s*data\s*parallel\b|\bdistributeddataparallel\b")
"""Plain data parallelism ("accelerate DDP", "torchrun with DDP"): every card keeps all the weights, gradients and
optimizer states, ZeRO stage 0, where the rules would otherwise shard them to fit (audit 30 HIGH 63)."""
_NO_DEEPSPEED = rx(r"(?:\bno|\bwithout|\bnot\s+using|\bnot\s+with|不用|不使用|没有用?|沒有用?)\s*deepspeed\b")
"""DeepSpeed ruled out with no FSDP named ("accelerate (no DeepSpeed)"): accelerate's multi-GPU default is DDP."""
_NO_FSDP = rx(r"(?:\bno|\bwithout|\bnot\s+using|不用|不使用|没有|沒有)\s*(?:fsdp\d?\b|fully[-_ ]sharded)")


def parse_training_options(state: SlotState) -> None:
    text = state.text
    stages = [int(z.group("stage") or z.group("file") or z.group("key")) for z in _ZERO.finditer(text)]
    if stages:
        state.set("zero_stage", stages[0])
        other = next((stage for stage in stages[1:] if stage != stages[0]), None)
        if other is not None:
            state.set("other_zero_stage", other)
    elif state.values.get("engine") not in (None, "fsdp", "fsdp-qlora") and _FSDP_UNDER.search(text):
        # "LLaMA-Factory … with FSDP": the framework named runs FSDP, whose default FULL_SHARD shards weights,
        # gradients and optimizer states as ZeRO-3 does (audit 18 M-6: it was sized as ZeRO-1)
        state.set("zero_stage", 3)
    elif ((_DDP.search(text) or _NO_DEEPSPEED.search(text))
          and not _FSDP_UNDER.search(_NO_FSDP.sub(" ", text))):
        state.set("zero_stage", 0)
    if _CHECKPOINTING_BOTH.search(text) and _CHECKPOINTING_ON.search(text):
        # "开启与关闭梯度检查点各需要多少显存": sized on, the off figure said beside it (audit 39 M-153)
        state.set("gradient_checkpointing", True)
        state.notes.append(CHECKPOINTING_BOTH_NOTE)
    elif _CHECKPOINTING_OFF.search(text):
        state.set("gradient_checkpointing", False)
    elif _CHECKPOINTING_ON.search(text):
        state.set("gradient_checkpointing", True)
    for key, pattern in _TECHNIQUES:
        found = pattern.search(text)
        if found is not None:
            state.set(key, True)
            state.mask(found.start(), found.end())
    text = state.text
    if state.values.get("task") not in (None, "inference"):
        if _switched_on(_OFFLOAD_PARAMS, text):
            state.set("offload", "all")
        elif _switched_on(_OFFLOAD_OPTIMIZER, text):
            state.set("offload", "optimizer")
    m = _LORA_RANK.search(text)
    if m is not None and (state.values.get("task") != "train" or "lora" in m.group(0).lower()):
        # a full fine-tune's log ("(rank 2, the others are the same)") names a process, not an adapter's rank
        rank = int(m.group("num") or m.group("num2") or m.group("num3"))
        if rank > 0:
            state.set("lora_rank", min(rank, 4096))
