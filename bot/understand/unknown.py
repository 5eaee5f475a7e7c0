"""Model names the knowledge base cannot size: closed models, and unknown names that carry a size.

A closed model (GPT-4, Claude, Gemini) has no published weights, so no GPU runs it: the reply says so in one
line instead of sizing something else. An unknown name with a size in it ("Zephyrine-13B") is sized as a
generic model of that size, but the reply must say that the name was not known and how to get an exact
figure; `sized_unknown_name` finds the name so the reply can quote it. An unknown name without a size
("quasar-llm", "FooBarLM") cannot be sized at all: `unsized_unknown_name` finds it where a model is expected
(after "for", "fine-tune", "deploy", "部署"…) and shaped like a model name, so the reply can say which name
it did not know instead of a vague "which model?".
"""

from __future__ import annotations

import re

from bot.understand.question import SHARED_MEMORY_NOTE
from bot.understand.slots.base import SlotState

CLOSED_MODELS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("GPT-5", re.compile(r"(?<![\w.-])gpt[-_ ]?5(?:\.\d)?(?:[-_ ]?(?:mini|nano|pro))?(?![\w.])", re.A)),
    ("GPT-4", re.compile(r"(?<![\w.-])gpt[-_ ]?4(?:\.\d)?(?:o|[-_ ]?turbo|[-_ ]?o[-_ ]?mini)?(?![\w.])", re.A)),
    ("GPT-3.5", re.compile(r"(?<![\w.-])gpt[-_ ]?3\.5(?:[-_ ]?turbo)?(?![\w.])", re.A)),
    ("ChatGPT", re.compile(r"(?<![\w.-])chat[-_ ]?gpt(?![\w.-])", re.A)),
    ("Claude", re.compile(r"(?<![\w.-])claude(?:[-_ ]?\d(?:\.\d)?)?(?:[-_ ](?:opus|sonnet|haiku))?(?![\w.])", re.A)),
    ("Gemini", re.compile(r"(?<![\w.-])gemini(?:[-_ ]?\d(?:\.\d)?)?(?:[-_ ](?:pro|flash|ultra|nano))?(?![\w.])", re.A)),
    ("文心一言", re.compile(r"文心一言")),
)
"""API-only models people ask about; open relatives (gpt-oss, Gemma, ERNIE 4.5) are in the knowledge base."""

UNMODELLED_MODELS: tuple[tuple[str, str, re.Pattern[str]], ...] = (
    ("video", "Wan", re.compile(r"(?<![\w.-])wan[-_ ]?2\.\d|(?<![\w.-])wan[-_ ]?(?:video|t2v|i2v)\b|万相", re.A)),
    ("video", "CogVideoX", re.compile(r"cog[-_ ]?video\w*", re.A)),
    ("video", "HunyuanVideo", re.compile(r"hunyuan[-_ ]?video|混元视频", re.A)),
    ("video", "Mochi 1", re.compile(r"(?<![\w.-])mochi(?:[-_ ]?1)?(?![\w.])", re.A)),
    ("video", "LTX-Video", re.compile(r"(?<![\w.-])ltx[-_ ]?(?:video|v)\b", re.A)),
    ("video", "Open-Sora", re.compile(r"open[-_ ]?sora", re.A)),
    ("video", "Stable Video Diffusion",
     re.compile(r"stable[-_ ]?video[-_ ]?diffusion|(?<![\w.-])svd[-_ ]?xt\b", re.A)),
    ("tts", "XTTS", re.compile(r"(?<![\w.-])xtts(?:[-_ ]?v?\d)?\b", re.A)),
    ("tts", "CosyVoice", re.compile(r"cosy[-_ ]?voice\d?", re.A)),
    ("tts", "F5-TTS", re.compile(r"(?<![\w.-])f5[-_ ]?tts\b", re.A)),
    ("tts", "ChatTTS", re.compile(r"chat[-_ ]?tts\b", re.A)),
    ("tts", "Fish Speech", re.compile(r"fish[-_ ]?speech", re.A)),
    ("tts", "GPT-SoVITS", re.compile(r"gpt[-_ ]?sovits", re.A)),
    ("tts", "Bark", re.compile(r"(?<![\w.-])(?:suno[-_ ]?)?bark(?:[-_ ](?:small|large))?\s+"
                               r"(?:tts|text[-_ ]to[-_ ]speech)", re.A)),
)
"""Open models of kinds the sizing rules do not cover (video generation, speech synthesis): named, they get "not
sized yet" instead of a generic LLM of their size, which would be wrong in every figure."""


def unmodelled_model(folded: str) -> tuple[str, str] | None:
    """(kind, name) of an open model of a kind the rules do not size, named in `folded` text, if any."""
    for kind, label, pattern in UNMODELLED_MODELS:
        if pattern.search(folded):
            return kind, label
    return None


_SIZED_NAME = re.compile(
    r"(?<![\w./-])(?P<name>[a-z][a-z0-9.]*(?:[-_][a-z0-9.]+)*?[-_]?\d+(?:\.\d+)?[bm])(?![\w])"
    r"|(?<![\w./-])(?P<spaced>[a-z]{3,}[a-z0-9]*\s\d+(?:\.\d+)?\s\d+(?:\.\d+)?[bm])(?![\w])", re.A)
"""A name glued to a size ("zephyrine-13b"), or a family, its version and its size written apart ("falcon 3 10b")."""


def closed_model(folded: str) -> str | None:
    """The closed model named in `folded` text (lower case), if any."""
    for label, pattern in CLOSED_MODELS:
        if pattern.search(folded):
            return label
    return None


def sized_unknown_name(folded: str, original: str, taken: list[tuple[int, int]] | None = None) -> str | None:
    """"zephyrine-13b": a name glued to a size, quoted from the original text; None for a bare "13B". `taken` are
    spans already read as something else: "p4d.24xlarge" is an instance, never an unknown model (audit 29 M-58)."""
    for match in _SIZED_NAME.finditer(folded):
        group = "name" if match.group("name") else "spaced"
        name = match.group(group)
        if taken and _overlaps(match.start(group), match.end(group), taken):
            continue
        letters = re.sub(r"[-_\s]?\d+(?:\.\d+)?[bm]$", "", name)
        if len(re.sub(r"[^a-z]", "", letters)) >= 2:
            return original[match.start(group): match.end(group)]
    return None


def _overlaps(start: int, end: int, taken: list[tuple[int, int]]) -> bool:
    return any(a < end and start < b for a, b in taken)


def _family_name(match: re.Match[str], original: str, taken: list[tuple[int, int]]) -> str | None:
    """The accelerator family's name as written, up to where another reading took the text: "Jetson Orin Nano
    8GB" is still the unknown Jetson when its "8GB" was read as the memory (audit 15 B-M11)."""
    start, end = match.span("name")
    end = min([end, *(a for a, b in taken if start < a < end)])
    if _overlaps(start, end, taken):
        return None
    return original[start:end].strip() or None


_NAME_CUE = re.compile(
    r"(?:\bfor|\bfine[- ]?tun(?:e|ing)|\bfinetun(?:e|ing)|\btrain(?:ing)?|\bdeploy(?:ing)?|\bserv(?:e|ing)|"
    r"\brun(?:ning)?|\bhost(?:ing)?|\bload(?:ing)?|\b(?:q?lora)|\bmodels?\b|部署|微调|跑|推理|训练|运行)\s*"
    r"(?:(?:the|a|an|my|our|model)\s+)?(?P<name>[a-z][a-z0-9._-]{2,40})(?![\w])|"
    r"^\s*(?P<lead>[a-z][a-z0-9._-]{2,40})(?=\s+(?:inference|serving|fine[- ]?tun|finetun|training|deploy|"
    r"image\s+generation|generation|embeddings?|rerank\w*|推理|微调|训练|部署|生成|文生图|向量|(?:on|with|using)\s+(?:an?|the|one|two|my|our)?\s*\S))",
    re.A | re.I)
"""A name where a model is expected: after a verb or "model" ("embedding model bge-large"), or leading a
question that goes on with the job or the hardware ("bge-large inference gpu", "Mochi-1 on an H100?")."""
_NOT_LEAD = re.compile(r"tun|train|gpu|bit|node|param|precision|^(?:self|low|high|real|on|long|short|open|multi|single|"
                       r"mixed|full|half|cost|large|small|batch|local|cloud|cpu|edge|offline|online)-", re.A)
"""Words that lead a question without naming a model ("self-hosted inference", "low-latency serving")."""
_MODEL_SHAPED = re.compile(r"\d|[-_]|(?:lm|llm|gpt|bert|chat|coder|former|net|instruct)$", re.A)
_NOT_A_NAME = frozenset({
    "inference", "training", "serving", "deployment", "production", "chat", "chatbot", "finetuning",
    "fine-tuning", "pretraining", "pre-training", "lora", "qlora", "this", "that", "it", "model", "models", "llm",
    "llms", "gpt", "bert", "agent", "agents", "rag", "embedding", "embeddings", "local", "cheap", "cheapest",
    "users", "people", "requests", "batch", "tokens", "context", "h100", "a100",
})
"""Words a cue is often followed by that are not model names (tasks, pronouns, generic nouns)."""


def unsized_unknown_name(folded: str, original: str, taken: list[tuple[int, int]]) -> str | None:
    """"for quasar-llm", "deploy FooBarLM": a model-shaped word where a model is expected that no lookup
    matched, quoted from the original text; None when nothing there looks like a model name. `taken` are
    spans already read as something else (cards, engines, sizes)."""
    for match in _NAME_CUE.finditer(folded):
        group = "name" if match.group("name") is not None else "lead"
        start, end = match.span(group)
        name = match.group(group).strip(".-_")
        if name in _NOT_A_NAME or _overlaps(start, end, taken) or (group == "lead" and _NOT_LEAD.search(name)):
            continue
        written = original[start:end]
        camel = sum(1 for ch in written if ch.isupper()) >= 2 and any(ch.islower() for ch in written)
        if _MODEL_SHAPED.search(name) or camel:
            return written.strip(".-_")
    return None


_CARD_SHAPED = re.compile(
    r"(?<![\w.-])(?P<name>(?:(?:geforce\s+)?(?:rtx|gtx)|tesla|quadro|radeon(?:\s+rx)?|rx|instinct\s+mi|mi|gh|gb|[ahblvt])"
    r"[\s-]?\d{2,4}[a-z]{0,3}(?:\s?(?:ti|super|ultra|pro))?)(?![\w.])", re.A)
_CARD_CONTEXT = re.compile(
    r"\b(?:on|with|using|about|of|vs|an?|the)\s*$|(?:用|在|上|张|块)\s*$|(?<![\w.])\d{1,3}\s?[x×*]\s*$"
    r"|[,，;；]\s*$", re.A)
"""Where a card is expected: after a preposition, a count ("2x"), or as one item of a comma-separated list of
settings ("vLLM, A10G")."""
_CARD_AFTER = re.compile(r"^\s*(?:gpus?|cards?|显卡|卡)", re.A)
_NAMED_CARD = re.compile(r"(?<![\w.-])(?P<name>[a-z]{1,8}[-\s]?\d{3,5}[a-z]{0,3})\s*(?:gpus?|cards?|显卡)\b", re.A)
"""Any letters-and-digits name the text itself calls a GPU or card ("the XYZ9000 GPU")."""
_ACCELERATOR_FAMILY = re.compile(
    r"(?<![\w.-])(?P<name>(?:nvidia\s+)?jetson(?:\s+(?:agx|orin|xavier|nano|thor|nx|tx2))*(?:\s+\d{1,3}\s?gb)?|"
    r"(?:intel\s+)?(?:arc\s+(?:pro\s+)?[ab]\d{2,3}|gaudi\s?\d?)|(?:google\s+)?tpu\s?v\d[a-z]*|"
    r"(?:amd\s+)?radeon\s+(?:pro\s+)?[a-z]?\d{3,4}\s?(?:xtx|xt)?|"
    r"(?:摩尔线程\s*)?mtt\s?[sx]\d{2,4}|摩尔线程|moore\s+threads(?:\s+mtt\s?[sx]\d{2,4})?|"
    r"(?:华为\s*)?(?:昇腾|ascend)\s?\d{3}[a-z]?|寒武纪(?:\s*mlu\s?\d{3})?|cambricon(?:\s+mlu\s?\d{3})?|"
    r"海光\s*dcu|海光|hygon\s+dcu|壁仞(?:\s*br\d{3})?|biren\s+br\d{3}|沐曦|metax\s+c\d{3}|天数智芯|iluvatar)(?![\w.])",
    re.A)
"""Accelerator families no card pattern above catches (Jetson modules, Intel Arc and Gaudi, TPUs, Radeon, China's
own accelerators (Moore Threads, Ascend, Cambricon, Hygon, Biren, MetaX, Iluvatar: none of them CUDA)): named
back as unknown rather than passed over when the knowledge base does not list them. Single-board computers are
not among them: they have no GPU the runtimes use (`cpu_board`)."""


NOT_A_GPU = re.compile(
    r"(?<![\w.-])(?:intel\s+)?(?:xeon\s+phi|knights\s+(?:landing|mill|corner))(?:\s+\d{4}[a-z]?)?(?![\w.])|"
    r"(?<![\w.-])(?:xilinx\s+|amd\s+)?alveo(?:\s+[a-z]\d{2,3})?(?![\w.])|(?<![\w.-])fpgas?(?![\w.])", re.A)
"""Accelerators that are not GPUs and no model runs on with today's LLM software (Xeon Phi, FPGAs): read as
hardware, so "Xeon Phi" is not taken for the Phi models, and answered by the FAQ's correction."""


_NO_GPU = re.compile(
    r"\bcpu[- ]?only\b|\bno\s+(?:gpus?|graphics\s+card|dedicated\s+gpu)\b|\bwithout\s+(?:a\s+|any\s+)?gpus?\b|"
    r"\b(?:on|with|using)\s+(?:a\s+|an\s+|my\s+|the\s+)?(?:laptop\s+|desktop\s+|server\s+)?cpus?\b(?!\s*(?:offload|ram|memory|side))|"
    r"\bcpu\s+(?:server|machine|box|inference)\b|\b(?:amd\s+)?epyc\b|\b(?:intel\s+)?xeon\b(?!\s+phi)|"
    r"\biphone\b|\bipad\b|\bandroid\b|"
    r"没有(?:独立)?显卡|无显卡|没显卡|不用显卡|纯\s*cpu|(?:在|用)\s*cpu\s*(?:上|跑|推理)|cpu\s*推理|手机上?", re.A)
"""A job said to run with no GPU at all: on a CPU server or a laptop, or on a phone."""


_COUNT = r"\d{1,2}|dual|two|quad|four|six|eight|twelve"
_RAM_CHANNELS = re.compile(
    r"(?:(?P<n>" + _COUNT + r")[- ]?channels?\s+(?P<kind>ddr[45])(?:[- ](?P<mts>\d{4}))?"
    r"|(?P<kind2>ddr[45])(?:[- ](?P<mts2>\d{4}))?[\s,]+(?P<n2>" + _COUNT + r")[- ]?channels?)"
    r"|(?P<kind4>ddr[45])(?:[- ](?P<mts4>\d{4}))?\s*(?P<n4>\d{1,2}|双|四|六|八|十二)\s*通道"
    r"|(?P<n3>\d{1,2}|双|四|六|八|十二)\s*通道\s*(?P<kind3>ddr[45])?(?:[- ](?P<mts3>\d{4}))?", re.A)
_CHANNEL_WORDS = {"dual": 2, "two": 2, "quad": 4, "four": 4, "six": 6, "eight": 8, "twelve": 12,
                  "双": 2, "四": 4, "六": 6, "八": 8, "十二": 12}
_RAM_KIND = re.compile(r"(?<![a-z])(?P<kind>ddr[45])(?:[- ]?(?P<mts>\d{4}))?(?!\d)", re.A)
"""A memory kind with no channel count ("64GB DDR4", "DDR5-6000"): a desktop board's two channels are assumed.
LPDDR is left out (a laptop's or a Mac's bus width is not its channel count)."""
JEDEC_BASE_MTS = {"ddr4": 3200, "ddr5": 4800}
"""The base data rate assumed when only the memory kind is given (JEDEC JESD79-4/-5: DDR4-3200, DDR5-4800)."""


def host_ram(folded: str) -> tuple[int, str, int] | None:
    """The host's memory as written ("8-channel DDR5", "DDR4-3200 quad channel", "8通道DDR5", "DDR4-3200 八通道"):
    channels, kind, MT/s."""
    m = _RAM_CHANNELS.search(folded)
    if m is None:
        bare = _RAM_KIND.search(folded)
        if bare is None:
            return None
        kind = bare.group("kind")
        mts = int(bare.group("mts") or JEDEC_BASE_MTS[kind])
        return (2, kind, mts) if 1600 <= mts <= 12000 else None
    raw = m.group("n") or m.group("n2") or m.group("n3") or m.group("n4") or ""
    channels = _CHANNEL_WORDS.get(raw) or (int(raw) if raw.isdigit() else 0)
    kind = (m.group("kind") or m.group("kind2") or m.group("kind3") or m.group("kind4") or "ddr5").lower()
    mts = int(m.group("mts") or m.group("mts2") or m.group("mts3") or m.group("mts4") or JEDEC_BASE_MTS[kind])
    return (channels, kind, mts) if 1 <= channels <= 24 else None


_CPU_BOARD = re.compile(
    r"(?<![\w.-])(?:raspberry\s?pi|树莓派)(?:\s?(?:model\s)?(?P<gen>[1-5])(?:\s?model\s?b|b)?)?(?![\w.])"
    r"|(?<![\w.-])orange\s?pi(?:\s?\d{1,2}\w*)?(?![\w.])", re.A)
"""Single-board computers people ask to run a model on: their GPUs (VideoCore, Mali) run none of the LLM runtimes'
GPU back ends, so llama.cpp and Ollama run on their Arm cores from system RAM (audit 24 LOW-41)."""
BOARD_RAM: dict[str, tuple[str, int, int]] = {"Raspberry Pi 5": ("LPDDR4X", 4267, 32)}
"""(kind, MT/s, bus bits) of a board's RAM where a source gives all three: the Raspberry Pi 5's "LPDDR4X-4267
SDRAM" (Raspberry Pi 5 product brief; education.raspberrypiaustralia.online's specification table), "a 32-bit
LPDDR4, running at 4267MT/s" (circuitdigest.com, "The New Raspberry Pi 5 is Here"): 17.1 GB/s at peak."""


def cpu_board(folded: str) -> str | None:
    """The single-board computer the text runs on ("raspberry pi 5 8gb", "树莓派5"), by name, or None."""
    m = _CPU_BOARD.search(folded)
    if m is None:
        return None
    if m.group(0).startswith("orange"):
        return "Orange Pi"
    return f"Raspberry Pi {m.group('gen')}" if m.group("gen") else "Raspberry Pi"


def says_no_gpu(folded: str) -> bool:
    """Whether the text says the job has no GPU (so a list of GPUs answers a question nobody asked)."""
    return _NO_GPU.search(folded) is not None and "offload" not in folded


def unknown_family_name(folded: str, original: str, taken: list[tuple[int, int]]) -> str | None:
    """An accelerator family the knowledge base does not list, named beside a card it does ("Jetson or T4?"): the
    reply says it knows only the other."""
    for match in _ACCELERATOR_FAMILY.finditer(folded):
        name = _family_name(match, original, taken)
        if name is not None:
            return name
    return None


def unknown_card_name(folded: str, original: str, taken: list[tuple[int, int]]) -> str | None:
    """"on an RTX 9090", "H300 显卡": a card-shaped name where a card is expected that no lookup matched,
    quoted from the original text, so the reply can say it does not know that card instead of ignoring it."""
    for match in _CARD_SHAPED.finditer(folded):
        start, end = match.span("name")
        if _overlaps(start, end, taken):
            continue
        before, after = folded[max(0, start - 12): start], folded[end: end + 8]
        if _CARD_CONTEXT.search(before) or _CARD_AFTER.match(after):
            return original[start:end].strip()
    for match in _NAMED_CARD.finditer(folded):
        start, end = match.span("name")
        if not _overlaps(start, end, taken):
            return original[start:end].strip()
    return unknown_family_name(folded, original, taken)


SHARED_MEMORY_OS_GIB = 2.0
"""Memory a Jetson module's operating system and runtime hold before a model loads: "On an 8 GB Orin Nano, the OS
and runtime consume ~1.5–2 GB before inference begins" (edgeaistack.app, memory-estimator). The upper end is taken;
a desktop session takes more."""
_SHARED_MEMORY_FAMILY = re.compile(r"^(?:nvidia\s+)?jetson\b", re.I)


def shared_memory_reserve(state: SlotState, unknown_card: str | None) -> None:
    """A Jetson named with its memory ("Jetson AGX Orin 32GB") shares that memory with its CPU and operating system:
    it is sized with what is left for the model (audit 16 C-H5: 29.7 GiB was a Yes on a 32 GB AGX Orin), the
    memory stated kept in a note for the reply to say."""
    stated = state.values.get("memory_gb")
    if not unknown_card or not isinstance(stated, (int, float)) or not _SHARED_MEMORY_FAMILY.match(unknown_card):
        return
    state.values["memory_gb"] = max(1.0, float(stated) - SHARED_MEMORY_OS_GIB)
    state.notes.append(f"{SHARED_MEMORY_NOTE}{stated:g}")


def unknown_hardware(state: SlotState, folded: str, original: str, cards_named: bool, instance_named: bool,
                     taken: list[tuple[int, int]], model_text: str | None) -> tuple[str | None, str | None]:
    """(a card name the knowledge base does not know, a CPU board named) in the text: an unknown card where none
    is known ("RTX 9090"), an unknown member of a known family beside a known card, never the unknown model's own
    name ("MyCorp-A100-LM") nor the board's ("raspberry pi 5"). A board's "8gb" is its RAM, not a card's memory."""
    unknown_card = None
    if not cards_named and not instance_named:
        unknown_card = unknown_card_name(folded, original, taken)
    elif not instance_named:
        unknown_card = unknown_family_name(folded, original, taken)
        if unknown_card and model_text and unknown_card in model_text:
            unknown_card = None
    board = cpu_board(folded)
    if board is not None and unknown_card is not None and unknown_card.lower() in board.lower():
        unknown_card = None
    if board is not None and not cards_named and "memory_gb" in state.values and "host_ram_gb" not in state.values:
        state.values["host_ram_gb"] = state.values.pop("memory_gb")
        state.stated[state.stated.index("memory_gb")] = "host_ram_gb"
    return unknown_card, board


_NAME_BEFORE_SIZE = re.compile(r"(?P<name>[A-Za-z][A-Za-z0-9._-]*(?:\s+[A-Za-z][A-Za-z0-9._-]*)?)\s+$")
"""One or two words written right before a parameter count ("deepseek coder 6.7b", "my-model 7b")."""
_NOT_A_NAME_BEFORE_SIZE = re.compile(
    r"(?:(?:a|an|the|my|our|your|this|that|any|some|of|for|to|with|on|in|run|running|serve|serving|train|training|"
    r"tune|tuning|fine-tune|finetune|fine-tuning|finetuning|deploy|deploying|host|hosting|load|loading|use|using|"
    r"need|want|model|models|llm|llms|size|sized|about|around|approx|approximately|is|are|be|of|and|or|vs|"
    r"what|which|how|can|could|would|gpu|gpus|card|cards|dense|moe|base|chat|instruct|new|open|custom|generic|"
    r"parameter|parameters|params|full|lora|qlora|inference|pretrain|pre-train|pretraining|distill|distilled|"
    r"like|something|maybe|roughly|under|over|than|larger|smaller|bigger|up|at|least|most|between|from|each|per|"
    r"another|other|one|two|first|second|local|quantized|quantised|fp16|bf16|int8|int4|fp8|awq|gptq|gguf|"
    r"i|we|you|they|me|us|it|do|does|did|should|will|may|might|must|get|got|have|has|try|trying|just|only|"
    r"still|also|then|so|if|whether|fit|fits|hold|holds|put|buy|rent|pick|choose)\s*)+")
"""Words before a size that name no model ("a 7b model", "train our 13b", "serve the 70b")."""


def name_before_size(original: str, size_start: int, size_end: int) -> str | None:
    """The name written just before a parameter count that matched no model ("deepseek coder 6.7b", "my-model
    7b"), with the size, or None when the words there name nothing ("train our 13b"). Such a name is said to be
    unknown with did-you-mean, as "deepseek-coder-6.7b" is (audit 36 HIGH 110: sized as a generic model without a
    word)."""
    window = max(0, size_start - 40)
    written = _NAME_BEFORE_SIZE.search(original[window: size_start])
    if written is None:
        return None
    words = written.group("name").split()
    while words and _NOT_A_NAME_BEFORE_SIZE.fullmatch(words[0].lower()):
        words = words[1:]  # "can minicpm4 8b": the verb before the name is not part of it (audit 37 LOW-207)
    if not words:
        return None
    start = window + written.start() + written.group("name").rfind(" ".join(words))
    return original[start: size_end].strip()
