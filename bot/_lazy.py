"""Lazy re-exports for the rooms' `__init__` modules.

Each room names its small public surface in `__init__`, but importing a room must not import all of it:
`from bot.understand.question import Question` should not pay for the parser's vocabulary, nor should
`python -m bot kb check` pay for Jinja2. `lazy_exports` resolves a name on first use (PEP 562).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def lazy_exports(package: str, exports: Mapping[str, str]) -> Callable[[str], Any]:
    """A module `__getattr__` that imports `exports[name]` (a module path relative to `package`) on demand."""

    def __getattr__(name: str) -> Any:
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(f"{package}.{module}"), name)

    return __getattr__
