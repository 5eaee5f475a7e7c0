"""Language of a question, and a Traditional → Simplified folding used for keyword matching.

Rules (issue): Chinese characters present → Chinese; Traditional when the text has more characters that
OpenCC's t2s conversion changes than characters that its s2t conversion changes ("and not the other way
round": a Simplified-only character such as 后 or 显 counts for Simplified).

OpenCC's character tables (TSCharacters / STCharacters, shipped with opencc-python-reimplemented) are read
once into sets and a `str.translate` table, so detecting and folding cost a set probe per character instead
of OpenCC's phrase segmentation (≈45 µs for a short question). If the tables cannot be found, the OpenCC
converter itself is used.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from bot.understand.question import Lang

_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


def _read_table(path: Path) -> dict[str, str]:
    """One character → its first conversion candidate, for the characters the conversion changes."""
    table: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        source, _, targets = line.partition("\t")
        if len(source) != 1 or not targets:
            continue
        first = targets.split(" ", 1)[0]
        if len(first) == 1 and first != source:
            table[source] = first
    return table


@lru_cache(maxsize=1)
def _tables() -> tuple[dict[str, str], frozenset[str]] | None:
    """(t2s character map, characters s2t changes), or None when OpenCC's tables are not where expected."""
    try:
        import opencc

        directory = Path(opencc.__file__).with_name("dictionary")
        t2s = _read_table(directory / "TSCharacters.txt")
        s2t = _read_table(directory / "STCharacters.txt")
    except Exception:  # pragma: no cover - depends on the installed package layout
        return None
    if not t2s or not s2t:  # pragma: no cover
        return None
    return t2s, frozenset(s2t)


@lru_cache(maxsize=1)
def _translate_table() -> dict[int, str]:
    tables = _tables()
    return {} if tables is None else {ord(k): v for k, v in tables[0].items()}


@lru_cache(maxsize=1)
def _opencc(config: str) -> object:  # pragma: no cover - fallback path
    import opencc

    return opencc.OpenCC(config)


def has_cjk(text: str) -> bool:
    return _CJK.search(text) is not None


_ENGLISH_WORD = re.compile(r"(?<![\w-])[a-z]{2,}(?![\w-])", re.A | re.I)
"""A plain English word: model names ("Qwen2.5-72B", "DeepSeek-R1-Distill") and config keys ("max_model_len")
do not count, so a Chinese question full of them stays Chinese."""


NAME_WORDS = frozenset({"mac", "mini", "pro", "max", "ultra", "studio", "macbook", "air", "imac"})
"""Words of a machine's name, which a Chinese question carries as often as an English one ("Mac mini M4 24GB 跑
Qwen2.5-32B"): not counted as English words."""


_CODE_BLOCK = re.compile(r"```.*?(?:```|$)|`[^`\n]*`", re.S)
"""Code pasted into a question (a config, a log line): its words are not the language the asker writes in."""


_RECORD_LINE = re.compile(
    r"^\s*(?:INFO|WARNING|WARN|DEBUG|ERROR|CRITICAL|I\d{4}|W\d{4})\b|^\s*[\[({|+]|\||"
    r"^\s*[\w.\-/]+\s*[:=]\s*\S|^\s*\d{2,4}[-/]\d\d[-/ ]", re.A)
"""A line of a pasted log, table or config (a record, not prose): "INFO 05-12 10:21:33 …", "| 0  NVIDIA …",
"lora_rank: 16", "(model: …)". Its English words are the tool's, not the asker's language."""


def _prose(text: str) -> str:
    """The lines the asker wrote: with Chinese in the message, pasted record lines without Chinese are left out,
    so a Traditional question under a five-line vLLM log is answered in Traditional (audit 33 HIGH 92, M-119)."""
    return "\n".join(line for line in text.splitlines() if has_cjk(line) or not _RECORD_LINE.search(line))


_ERROR_TEXT = re.compile(
    r"(?:\b[\w.]*(?:Error|Exception)\b|\bCUDA\s+out\s+of\s+memory|\bTried\s+to\s+allocate|\bTraceback\b)"
    r"[^\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]*", re.I)
"""An error message quoted inline, up to the next Chinese character ("vLLM 报错：torch.OutOfMemoryError: CUDA out of
memory. Tried to allocate 2.00 GiB. GPU 0 has … is free. 模型是 …"): the library's English, not the asker's (audit 34
HIGH 99: a Chinese question quoting one was answered in English)."""


_FULL_WIDTH_ONLY = re.compile(r"[\s\d]*[？！。，、…～（）]+[\s？！。，、…～（）\d]*")


def detect_lang(text: str) -> Lang:
    prose = _CODE_BLOCK.sub(" ", text)
    if has_cjk(prose):
        text = _prose(_ERROR_TEXT.sub(" ", prose))  # "```…```能跑吗", a log then "为什么…": the prose outside decides
    if not has_cjk(text):
        # "？？", "。。。": full-width punctuation and no letters is typed on a Chinese keyboard (audit 29 LOW-101)
        return "zh-Hans" if _FULL_WIDTH_ONLY.fullmatch(text) else "en"
    english = [word for word in _ENGLISH_WORD.findall(text) if word.lower() not in NAME_WORDS]
    if len(english) > len(_CJK.findall(text)):
        # an English question with a Chinese name or a "谢谢" in it: answered in English
        return "en"
    tables = _tables()
    if tables is None:  # pragma: no cover
        converter = _opencc("t2s")
        return "zh-Hant" if converter.convert(text) != text else "zh-Hans"  # type: ignore[attr-defined]
    t2s, simplified_only = tables
    traditional = sum(1 for ch in text if ch in t2s)
    simplified = sum(1 for ch in text if ch in simplified_only)
    return "zh-Hant" if traditional > simplified else "zh-Hans"


def script_neutral(text: str) -> bool:
    """Chinese written alike in both scripts ("那 128k 上下文呢"): nothing says Traditional or Simplified, so a
    follow-up like it keeps the thread's script."""
    tables = _tables()
    if tables is None or not has_cjk(text):  # pragma: no cover - the fallback cannot tell
        return False
    t2s, simplified_only = tables
    return not any(ch in t2s or ch in simplified_only for ch in text)


def to_simplified(text: str) -> str:
    """Character-level Traditional → Simplified (same length as the input, so offsets stay valid)."""
    table = _translate_table()
    if table:
        return text.translate(table)
    converted = str(_opencc("t2s").convert(text))  # type: ignore[attr-defined]  # pragma: no cover
    return converted if len(converted) == len(text) else text  # pragma: no cover
