"""The job: inference, full training, LoRA (p-tuning and adapters are sized as LoRA), QLoRA; LoRA adapters served
(slots/lora_serving.py) are inference."""

from __future__ import annotations

from bot.understand.slots.base import SlotState, rx
from bot.understand.slots.lora_serving import parse_lora_serving

# -- task -------------------------------------------------------------------------------------------
_QLORA = rx(r"\bq[-_ ]?lora\b")
_LORA = rx(r"\blora\b|\bpeft\b|低秩")
_LORA_WORD = rx(r"\blora\b|低秩")
_PTUNING = rx(r"\bp[-_ ]?tuning(?:[-_ ]?v2)?\b|\bprefix[-_ ]tuning\b|\bprompt[-_ ]tuning\b|\badapters?\b|\bfreeze\b")
_FULL_TRAIN = rx(
    r"\bfine[-_ ]?tun\w*|\bfinetun\w*|\bsft\b|\btrain(?:ing|s)?\b|\bpre[-_ ]?train(?:ing)?\b|\bfrom\ scratch\b|"
    r"\bfull[-_ ]?(?:parameter|param)\b|微调|精调|全参|全量(?!推理|部署|模型|加载|运行|跑|版|精度)|预训练|训练|"
    r"继续训练|二次训练|训完|训得完|练完|炼丹|\brlhf\b|\bdpo\b|\bdream[-_ ]?booth\b|\bfull[-_ ]?ft\b|\bfft\b"
)
_ALL_PARAMETERS = rx(
    r"\bfull[-_ ]?(?:fine[-_ ]?tun\w*|finetun\w*|parameters?|params?|ft|sft|train\w*|weights?|model)\b|"
    r"\ball\s+(?:the\s+)?(?:parameters|params|weights|layers)\b|\bpre[-_ ]?train\w*|\bfrom\ scratch\b|"
    r"\bcontinued\s+pre|\bfft\b|全参|全量(?!推理|部署|模型|加载|运行|跑|版|精度)|预训练|从头|\bdream[-_ ]?booth\b"
)
"""Wording that trains every parameter, whatever the engine's own default method."""
_PREFERENCE = rx(r"\b(?:dpo|grpo|ppo|orpo|kto|simpo|rlhf|rlaif)\b|\breinforcement\s+learning\b"
                 r"|强化学习|偏好(?:对齐|优化)")
"""Preference and RL training other than DPO: sized as supervised fine-tuning of the policy, and the reply says
so (DPO itself is modelled: `preference_pairs`)."""
_PAIRED = rx(r"\b(?:dpo|ipo)\b|直接偏好优化")
"""A paired preference loss (DPO, IPO): chosen + rejected per sample, a frozen reference for full runs."""
_INFERENCE = rx(
    r"\binfer\w*|\bserv(?:e|es|ed|ing)\b|\bdeploy\w*|\brun(?:s|ning)?\b|\bgenerat\w*|\bchat(?:bot|ting)?\b|"
    r"\bhost(?:ing)?\b(?!\s*(?:ram|memory|mem|cpu|machine|side|os)\b)|\bpredict\w*|\bload\b|推理|推論|推论|部署|上线|跑|运行|服务(?!器)|生成|对话|调用|加载|问答|"
    r"\btokens?/s\b|\bthroughput\b|\blatency\b|吞吐|延迟"
)


_VERSUS = rx(r"\bvs\.?|\bversus\b|\bor\b|\bcompared?\b|对比|比较|还是|相比|哪个|哪种|区别|/")
"""A cue that methods named together are set side by side ("full fine-tune vs LoRA vs QLoRA")."""


def methods_compared(text: str) -> list[str]:
    """The training methods a question sets side by side, in the order full, LoRA, QLoRA; [] unless two or more
    are named with a comparison cue."""
    qlora = _QLORA.search(text)
    # PEFT is the library QLoRA runs on too: beside QLoRA it names no second method ("QLoRA … peft + bitsandbytes")
    lora = _LORA_WORD.search(text) if qlora else _LORA.search(text)
    named = [task for task, found in (("train", _ALL_PARAMETERS.search(text)), ("lora", lora), ("qlora", qlora))
             if found]
    return named if len(named) > 1 and _VERSUS.search(text) else []


_COMPUTE_OPTIMAL = rx(
    r"\bchinchilla\b|\bcompute[- ]optimal(?:ly)?\b|\bhow\s+many\s+tokens\s+(?:should|do\s+(?:i|we)\s+need\s+to|to)\s+"
    r"(?:\w+\s+){0,4}?train|计算最优|算力最优|(?:应该|需要)用?多少\s*(?:个)?\s*token\s*(?:来|去)?(?:预)?训练"
)
"""A training budget asked as the compute-optimal one (Hoffmann et al. 2022, "Chinchilla"): a pre-training job whose
tokens the reply sets at the paper's ≈ 20 a parameter (bot.reply.defaults.compute_optimal_tokens), and says so."""
COMPUTE_OPTIMAL_NOTE = "tokens-compute-optimal"


_SWITCH_BEFORE = rx(r"(?:改成|换成|改用|换用|转成|切到|切换到|\bswitch(?:ed|ing)?\s+to|\bmov(?:e|ed|ing)\s+to|"
                    r"\bgo(?:ing)?\s+to|\bif\s+(?:we|i|you)\s+(?:use|used|try|tried)|\bwhat\s+about)\s*$")


def _qlora_only_as_a_switch(text: str) -> bool:
    """QLoRA named only as a change to weigh ("如果改成 QLoRA 能不能只用 4 张卡", "if we switch to QLoRA") beside
    the LoRA the job runs (`finetuning_type: lora`): the job is that LoRA (audit 25 HIGH 24)."""
    spans = [m.span() for m in _QLORA.finditer(text)]
    if not all(_SWITCH_BEFORE.search(text[max(0, start - 14): start]) for start, _ in spans):
        return False
    rest = list(text)
    for start, end in spans:
        rest[start:end] = " " * (end - start)
    return _LORA.search("".join(rest)) is not None


def parse_task(state: SlotState) -> None:
    text = state.text
    if _COMPUTE_OPTIMAL.search(text):
        state.set("task", "train")
        state.notes.append(COMPUTE_OPTIMAL_NOTE)
        return
    compared = methods_compared(text)
    if compared:
        state.values["compare_tasks"] = compared  # not a stated slot: the reply shows each method's figures
    preference = _PREFERENCE.search(text) is not None
    if parse_lora_serving(state):
        state.set("task", "inference")  # adapters served (multi-LoRA, --enable-lora): not the LoRA fine-tune below
    elif _QLORA.search(text) and not _qlora_only_as_a_switch(text):
        state.set("task", "qlora")
    elif _LORA.search(text):
        state.set("task", "lora")
    elif _PTUNING.search(text):
        state.set("task", "lora")
        state.notes.append("ptuning-as-lora")
    elif preference or _FULL_TRAIN.search(text):
        state.set("task", "train")
        if not _ALL_PARAMETERS.search(text):
            state.values.setdefault("generic_fine_tune", True)  # not a stated slot: the engine may read it
    elif _INFERENCE.search(text):
        state.set("task", "inference")
    if _PAIRED.search(text):
        state.set("preference_pairs", True)
    elif preference:
        state.notes.append("preference-as-sft")


def names_training(text: str) -> bool:
    """Whether the text names a training method at all (full training, LoRA, P-Tuning, preference tuning): a day's
    token volume is then data to train on, otherwise a load to serve."""
    return any(p.search(text) for p in (_QLORA, _LORA, _PTUNING, _FULL_TRAIN, _PREFERENCE))
