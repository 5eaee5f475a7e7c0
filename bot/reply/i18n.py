"""The reply's words in English and Simplified Chinese; Traditional Chinese is converted with OpenCC.

Templates look phrases up by key (`t.key`), so a template is written once for every language and a missing
translation fails at start-up (or in a test) rather than showing a key to a user. The phrases themselves are
data, in `messages.yaml` beside this module.
"""

from __future__ import annotations

import string
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

CATALOG_LANGUAGES = ("en", "zh-Hans")
MESSAGES_FILE = Path(__file__).with_name("messages.yaml")


class CatalogError(ValueError):
    """The phrase catalog is malformed; the message names the file, the key and the field."""


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def load_messages(path: Path = MESSAGES_FILE) -> dict[str, dict[str, str]]:
    """Read and check the catalog: every key has a phrase in each catalog language, and both phrases take the
    same `{fields}`, so no reply can show a bare key or fail to fill a placeholder in one language only."""
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    if not isinstance(raw, dict):
        raise CatalogError(f"{path.name}: expected a mapping of keys to phrases")
    for key, entry in raw.items():
        if not isinstance(entry, dict):
            raise CatalogError(f"{path.name}: {key}: expected en / zh-Hans phrases")
        for lang in CATALOG_LANGUAGES:
            if not isinstance(entry.get(lang), str):
                raise CatalogError(f"{path.name}: {key}: field {lang} is missing or not text")
        extra = set(entry) - set(CATALOG_LANGUAGES)
        if extra:
            raise CatalogError(f"{path.name}: {key}: unknown field {sorted(extra)[0]}")
        if _fields(entry["en"]) != _fields(entry["zh-Hans"]):
            raise CatalogError(f"{path.name}: {key}: the phrases take different {{fields}}")
    return raw


MESSAGES: dict[str, dict[str, str]] = load_messages()

EXAMPLES = {
    "en": ["what GPU for ChatGLM-6B inference", "can I LoRA Llama-3-8B on one A100 40GB?",
           "qwen2.5-72b int4 with 32k context, 16 concurrent users", "A10 vs A100 for stable diffusion"],
    "zh-Hans": ["ChatGLM-6B推理用什么GPU？", "两张3090能跑Baichuan2-13B吗，INT8量化",
                "Qwen-72B 4bit量化推理，上下文8k，并发10，要多少显存", "为什么大模型训练需要多GPU协同工作？"],
}


def base_lang(lang: str) -> str:
    """Catalog language for `lang`: Traditional Chinese is rendered as Simplified, then converted."""
    return "en" if lang == "en" else "zh-Hans"


class Translator:
    """`t.key` / `t('key', **values)` in the question's language (Traditional is converted later)."""

    def __init__(self, lang: str) -> None:
        self.lang = base_lang(lang)

    def __call__(self, key: str, **values: Any) -> str:
        text = MESSAGES[key][self.lang]
        return text.format(**values) if values else text

    def __getattr__(self, key: str) -> str:
        try:
            return MESSAGES[key][self.lang]
        except KeyError:
            raise AttributeError(key) from None

    def pick(self, table: dict[str, dict[str, str]], key: str) -> str:
        entry = table.get(key)
        return entry[self.lang] if entry else key


@lru_cache(maxsize=1)
def _to_traditional() -> Any:
    import opencc

    return opencc.OpenCC("s2tw")


TAIWAN_TERMS: tuple[tuple[str, str], ...] = (
    ("默認", "預設"), ("緩存", "快取"), ("數據", "資料"), ("內存", "記憶體"), ("軟件", "軟體"), ("硬件", "硬體"),
    ("網絡", "網路"), ("信息", "資訊"), ("帶寬", "頻寬"), ("存儲", "儲存"), ("運行時", "執行時"),
)
"""Mainland words s2tw leaves as they are, in the words Taiwan writes: only those whose meaning here is single
(內存 is system RAM in these replies; 顯存 does not contain it and stays as users write it)."""


@lru_cache(maxsize=4096)
def to_traditional(text: str) -> str:
    """Simplified → Traditional with OpenCC for zh-Hant questions: characters in the Taiwan standard (s2tw: 為,
    開啟, 峰值, not OpenCC's s2t variants 爲, 開啓, 峯值), terms kept as users write them ("显存" → "顯存"; s2twp's
    phrase conversion would write 視訊記憶體), then TAIWAN_TERMS."""
    converted = str(_to_traditional().convert(text))
    for mainland, taiwan in TAIWAN_TERMS:
        converted = converted.replace(mainland, taiwan)
    return converted
