"""Reading a model or GPU name: normalisation, checkpoint suffixes and the signature fuzzy lookup compares.

`normalise` folds case, width and separators so that "ChatGLM 6B", "chatglm-6b" and "THUDM/chatglm-6b" are one
key. `split_checkpoint_suffixes` takes the quantisation and chat/instruct labels off a checkpoint name.
`signature` reduces a name to its family letters, sizes and other numbers (knowledge/lookup.py scores on it).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

_SEPARATOR_TABLE = dict.fromkeys(map(ord, " \t\n\r\f\v\u00a0\u3000-_/:,;'\"`()[]{}<>|+"))
_LONE_DOT = re.compile(r"(?<!\d)\.|\.(?!\d)")
_DIGIT_UNDERSCORE = re.compile(r"(?<=\d)_(?=\d)")
_WORD_PLUS = re.compile(r"(?<=[a-z])\+(?![a-z0-9+])")
"""A '+' ending a word is part of the name ("Command R+" is "Command R plus", another model than Command R)."""
_HF_PREFIX = re.compile(
    r"^(?:https?://)?(?:www\.)?(?:huggingface\.co|hf\.co|modelscope\.cn/models|modelscope\.cn)/", re.I
)
_HF_URL_TAIL = re.compile(r"/(?:tree|blob|resolve)/.*$")
META_PREFIX = re.compile(r"^meta[-_ ]+(?=llama)")

CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"


def prepare(name: str) -> str:
    """NFKC, lower case, trimmed, without a Hugging Face / ModelScope URL prefix or /tree/... tail."""
    text = (name if name.isascii() else unicodedata.normalize("NFKC", name)).strip().lower()
    if text.startswith(("http", "www", "hf.co", "huggingface", "modelscope")) and _HF_PREFIX.match(text):
        text = _HF_URL_TAIL.sub("", _HF_PREFIX.sub("", text)).strip("/")
    return text


def normalise(name: str) -> str:
    """Canonical form for comparison: NFKC, lower case, no separators (dots between digits are kept,
    and an underscore between digits becomes one: "Qwen-1_8B" is "qwen1.8b")."""
    text = prepare(name)
    if "_" in text:
        text = _DIGIT_UNDERSCORE.sub(".", text)
    if "." in text:
        text = _LONE_DOT.sub("", text)
    if "+" in text:
        text = _WORD_PLUS.sub("plus", text)
    return text.translate(_SEPARATOR_TABLE)


# --------------------------------------------------------------------------------------------------------
# Checkpoint suffixes
# --------------------------------------------------------------------------------------------------------

# Suffixes a checkpoint name carries that do not change the architecture, tried in order at the end of the
# name (combined forms such as "gptq-int4" before their parts). Label None: stripped, not reported.
_QUANT_PATTERNS: tuple[tuple[str, str | None], ...] = (
    (r"gptq[-_ ]?(?:int8|w8|8[-_ ]?bits?)", "gptq-int8"),
    (r"gptq(?:[-_ ]?(?:int4|w4|4[-_ ]?bits?))?", "gptq"),
    (r"awq(?:[-_ ]?(?:int4|w4|4[-_ ]?bits?))?", "awq"),
    (r"(?:bnb[-_ ]?)?nf4", "nf4"),
    (r"i?q[2-8]_k(?:_[sml])?|q[4-8]_[01]|iq[1-4]_(?:xxs|xs|s|m|nl)", "gguf-"),
    (r"gguf", "gguf"),
    (r"(?:bnb[-_ ]?)?4[-_ ]?bits?|int4|w4a16(?:[-_ ]?g\d+)?", "int4"),
    (r"(?:bnb[-_ ]?)?8[-_ ]?bits?|int8|w8a8|w8a16", "int8"),
    (r"fp8(?:[-_ ]?dynamic)?", "fp8"),
    (r"fp16|bf16|fp32|f16|f32", None),
)
_VARIANT_PATTERN = r"chat|instruct|it|sft|dpo|rlhf|hf|base|v0\.\d+"
# One alternation, so each stripping step is a single regex search; the alternative that matched names
# the label (the last one is the chat/instruct variant).
_SUFFIX = re.compile(
    r"[-_ .,;:/]+(?:"
    + "|".join(f"(?P<s{i}>{pattern})" for i, (pattern, _) in enumerate(_QUANT_PATTERNS))
    + f"|(?P<variant>{_VARIANT_PATTERN}))$"
)
_SUFFIX_WINDOW = 40
"""Longest suffix one step can strip (with its separators): search only the tail of the name."""
_GGUF_EXTENSION = re.compile(r"\.gguf$")


def _weak_variant(variant: str) -> bool:
    return variant in {"hf", "base"} or variant.startswith("v0.")


QUANT_BITS = {"gptq": 4, "gptq-int8": 8, "awq": 4, "nf4": 4, "int4": 4, "int8": 8, "fp8": 8}


def split_checkpoint_suffixes(name: str) -> tuple[str, str | None, str | None]:
    """`Qwen2.5-7B-Instruct-GPTQ-Int4` → (`qwen2.5-7b`, `gptq`, `instruct`), on the raw (lower-cased) name.

    Quantisation labels: gptq, gptq-int8, awq, nf4, int4, int8, fp8, gguf and gguf-<type> such as
    gguf-q4_k_m. Variants: chat, instruct, it, sft, dpo, rlhf, hf, base, v0.N (the chat/instruct marker wins
    over hf/base when both are present). Version numbers such as "-v3" are part of the name and stay.
    """
    text = (name if name.isascii() else unicodedata.normalize("NFKC", name)).strip().lower()
    quant: str | None = None
    variant: str | None = None
    if _GGUF_EXTENSION.search(text):
        text, quant = text[:-5], "gguf"
    while True:
        found = _SUFFIX.search(text, max(0, len(text) - _SUFFIX_WINDOW))
        if found is None or found.start() == 0 or found.lastgroup is None:
            break
        text = text[: found.start()]
        value = found.group(found.lastgroup)
        if found.lastgroup == "variant":
            if variant is None or (_weak_variant(variant) and not _weak_variant(value)):
                variant = value
            continue
        label = _QUANT_PATTERNS[int(found.lastgroup[1:])][1]
        if label is not None:
            value = label + value if label == "gguf-" else label
            if quant is None or (quant == "gguf" and value.startswith("gguf-")):
                quant = value
    return text.strip(" -_.,;:/"), quant, variant


# --------------------------------------------------------------------------------------------------------
# Signatures: family letters, size tokens, other numbers
# --------------------------------------------------------------------------------------------------------

_SIZE_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"(?<![0-9.])(\d+)x(\d+(?:\.\d+)?)b(?![a-z0-9])"), "moe"),
    (re.compile(r"(?<![a-z0-9.])a(\d+(?:\.\d+)?)b(?![a-z0-9])"), "active"),
    (re.compile(r"(?<![0-9.])(\d+)b(\d)(?![a-z0-9.])"), "bloom"),
    (re.compile(r"(?<![0-9.])(\d+(?:\.\d+)?)\s?(gb|gib|g)(?![a-z0-9])"), "gb"),
    (re.compile(r"(?<![0-9.])(\d+(?:\.\d+)?)b(?![a-z0-9])"), "b"),
    (re.compile(r"(?<![0-9.])(\d{2,}(?:\.\d+)?)m(?![a-z0-9])"), "m"),
    (re.compile(r"(\d+(?:\.\d+)?)\s?亿"), "yi"),
)
_NUMBER = re.compile(r"\d+(?:\.\d+)*")
_NOT_FAMILY = re.compile(r"[\W\d_]+")
_DATE = re.compile(r"(?:2[3-9](?:0[1-9]|1[0-2])|(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])|20[2-3]\d)")


def _num(text: str) -> str:
    return f"{float(text):g}"


@dataclass(frozen=True, slots=True)
class Signature:
    """What a name says apart from its spelling: family letters, sizes, other numbers."""

    family: str
    sizes: frozenset[str]
    numbers: frozenset[str]
    """Numbers other than sizes (versions, model numbers), without date stamps such as 0324 or 2507."""


def signature(name: str) -> Signature:
    """`Qwen3-235B-A22B-Instruct-2507` → family "qwen", sizes {235b, a22b}, numbers {3}."""
    text = _DIGIT_UNDERSCORE.sub(".", prepare(name))
    text = text.rsplit("/", 1)[-1]
    sizes: set[str] = set()

    def take(kind: str) -> Callable[[re.Match[str]], str]:
        def repl(found: re.Match[str]) -> str:
            if kind == "moe":
                sizes.add(f"{int(found.group(1))}x{_num(found.group(2))}b")
            elif kind == "active":
                sizes.add(f"a{_num(found.group(1))}b")
            elif kind == "bloom":
                sizes.add(f"{_num(found.group(1) + '.' + found.group(2))}b")
            elif kind == "gb":
                sizes.add(f"{_num(found.group(1))}gb")
            elif kind == "b":
                sizes.add(f"{_num(found.group(1))}b")
            elif kind == "m":
                sizes.add(f"{_num(found.group(1))}m")
            else:
                sizes.add(f"{float(found.group(1)) / 10:g}b")
            return " "

        return repl

    for pattern, kind in _SIZE_PATTERNS:
        if pattern.search(text):
            text = pattern.sub(take(kind), text)
    numbers = frozenset(n for n in _NUMBER.findall(text) if not (len(n) == 4 and _DATE.fullmatch(n)))
    return Signature(_NOT_FAMILY.sub("", text), frozenset(sizes), numbers)


def size_value(token: str) -> tuple[str, float] | None:
    """'7b' → ('b', 7.0); '124m' → ('b', 0.124); '80gb' → ('gb', 80.0); MoE/active tokens → None."""
    if token.startswith("a") or "x" in token:
        return None
    if token.endswith("gb"):
        return "gb", float(token[:-2])
    if token.endswith("m"):
        return "b", float(token[:-1]) / 1000
    return "b", float(token[:-1])
