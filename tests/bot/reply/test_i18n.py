"""The phrase catalog: every key the templates and views ask for exists, in both catalog languages, and a
malformed catalog is refused at start-up with the file, key and field named."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.reply.i18n import MESSAGES, CatalogError, Translator, load_messages, to_traditional

REPLY = Path(__file__).resolve().parents[3] / "bot" / "reply"
PICK_METHOD = "pick"


def _keys_used() -> set[str]:
    keys: set[str] = set()
    for template in (REPLY / "templates").glob("*.j2"):
        keys |= set(re.findall(r"\bt\.([a-z_][a-z_0-9]*)", template.read_text(encoding="utf-8")))
    for module in REPLY.glob("*.py"):
        if module.name == "i18n.py":
            continue  # its docstrings show the syntax (`t.key`), not phrases
        text = module.read_text(encoding="utf-8")
        keys |= set(re.findall(r"\bt\(\"([a-z_0-9]+)\"", text))
        keys |= set(re.findall(r"\bt\.([a-z_][a-z_0-9]*)", text))
    return keys - {PICK_METHOD, "lang"}


def test_every_key_the_reply_reads_is_in_the_catalog() -> None:
    missing = sorted(_keys_used() - set(MESSAGES))
    assert missing == []


def test_the_scan_finds_keys_in_templates_and_views() -> None:
    used = _keys_used()
    assert {"read_as", "sugg_cpu_layers"} <= used


def test_both_languages_fill_the_same_fields() -> None:
    en = Translator("en")("sugg_cpu_layers", slots=42, total=81, where="the card", host=20)
    zh = Translator("zh-Hant")("sugg_cpu_layers", slots=42, total=81, where="显卡", host=20)
    assert "42 of the 81 layers on the card" in en
    assert "81 层中的 42 层放在显卡上" in zh


def test_traditional_is_converted_from_simplified() -> None:
    assert to_traditional(Translator("zh-Hant").memory) == "顯存需求"


@pytest.mark.parametrize(("text", "named"), [
    ("greeting:\n  en: Hello\n", "greeting: field zh-Hans is missing"),
    ("greeting:\n  en: Hello {name}\n  zh-Hans: 你好\n", "greeting: the phrases take different {fields}"),
    ("greeting:\n  en: Hello\n  zh-Hans: 你好\n  fr: Bonjour\n", "greeting: unknown field fr"),
    ("- a list\n", "expected a mapping"),
])
def test_a_malformed_catalog_names_the_key_and_field(tmp_path: Path, text: str, named: str) -> None:
    path = tmp_path / "messages.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CatalogError, match=re.escape(named)) as raised:
        load_messages(path)
    assert str(raised.value).startswith("messages.yaml: ")


def test_traditional_replies_use_the_words_taiwan_writes() -> None:
    from bot.reply.i18n import to_traditional

    assert (to_traditional("默认上下文 4096；KV 缓存；数据中心；系统内存；显存")
            == "預設上下文 4096；KV 快取；資料中心；系統記憶體；顯存")
    assert to_traditional("运行时开销；存储") == "執行時開銷；儲存"
