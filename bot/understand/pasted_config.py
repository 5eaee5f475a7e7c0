"""A Hugging Face `config.json` pasted into a message: found, parsed, and cut out of the text.

People paste a config when the model is their own or too new for the knowledge base: in a Slack code
block ("```{...}```", with or without a "json" tag) or as raw JSON. It is cut out before the text is
parsed, or its numbers ("hidden_size": 4096, "max_position_embeddings": 32768) would be read as the
question's context, batch or sizes.
"""

from __future__ import annotations

import json
import re
from typing import Any

_FENCE = re.compile(r"```(?:json|JSON)?\s*(?P<body>\{.*?\})\s*```", re.S)
_ARCH_KEYS = frozenset({"model_type", "hidden_size", "num_hidden_layers", "n_embd", "d_model", "text_config"})
"""A JSON object with one of these is a model config, not some other JSON a user pasted."""


def _is_config(value: Any) -> bool:
    return isinstance(value, dict) and bool(_ARCH_KEYS & set(value))


def _balanced_object(text: str, start: int) -> int | None:
    """The end (exclusive) of the JSON object opening at `start`, counting braces outside strings."""
    depth, in_string, escaped = 0, False, False
    for position in range(start, len(text)):
        ch = text[position]
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                return position + 1
    return None


def split_pasted_config(text: str) -> tuple[str, dict[str, Any] | None]:
    """(the text without the config, the config) or (text, None) when no model config is pasted."""
    for fence in _FENCE.finditer(text):
        try:
            value = json.loads(fence.group("body"))
        except ValueError:
            continue
        if _is_config(value):
            return (text[: fence.start()] + " " + text[fence.end():]).strip(), value
    start = text.find("{")
    while start != -1:
        end = _balanced_object(text, start)
        if end is None:
            break
        try:
            value = json.loads(text[start:end])
        except ValueError:
            value = None
        if _is_config(value):
            return (text[:start] + " " + text[end:]).strip(), value
        start = text.find("{", start + 1)
    return text, None


def config_label(config: dict[str, Any]) -> str:
    """What a pasted config calls itself: its `_name_or_path`, else its architecture, else its model_type."""
    name = config.get("_name_or_path")
    if isinstance(name, str) and name.strip():
        return name.strip().rstrip("/").rsplit("/", 2)[-1] if name.count("/") > 1 else name.strip()
    architectures = config.get("architectures")
    if isinstance(architectures, list) and architectures and isinstance(architectures[0], str):
        return architectures[0]
    return str(config.get("model_type") or "pasted model")
