"""Writing knowledge files the way the loader reads them: YAML, whole or not at all."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

import yaml


def write_yaml_atomically(path: Path, data: Any) -> Path:
    """Write `data` as YAML to `path` through a temporary file and a rename, so a reader (another replica's
    loader, an operator's editor) never sees half a file and a crash leaves the old one intact."""
    text = yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=110)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.stem}.", suffix=".yaml", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return path
