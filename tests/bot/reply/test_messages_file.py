"""The message catalogue has each key once: PyYAML keeps the last of two silently, so a key added twice (with other
placeholders) broke a reply at render time instead of failing here."""

from __future__ import annotations

from pathlib import Path

import yaml

MESSAGES = Path(__file__).parents[3] / "bot" / "reply" / "messages.yaml"


class _UniqueKeys(yaml.SafeLoader):
    pass


def _no_duplicates(loader: _UniqueKeys, node: yaml.MappingNode, deep: bool = False) -> dict[object, object]:
    keys = [loader.construct_object(key, deep=deep) for key, _ in node.value]
    repeated = sorted({str(k) for k in keys if keys.count(k) > 1})
    assert not repeated, f"keys given twice in {MESSAGES.name}: {repeated}"
    return loader.construct_mapping(node, deep=deep)


_UniqueKeys.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _no_duplicates)  # type: ignore[arg-type]


def test_every_message_key_is_given_once() -> None:
    yaml.load(MESSAGES.read_text(encoding="utf-8"), Loader=_UniqueKeys)
