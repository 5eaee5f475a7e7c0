"""Loading the YAML knowledge files into a validated `KnowledgeBase`.

The shipped data lives in `knowledge/data/`. A team can add or override entries (its own fine-tunes, a
GPU its cloud rents) in a directory named by `GPU_ADVISOR_KB`: files there are merged over the shipped
ones by id, so nothing needs to be edited inside the installed package.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar, cast

import yaml
from pydantic import BaseModel, ValidationError

from knowledge.base import KnowledgeBase
from knowledge.engines import EngineProfile
from knowledge.errors import KnowledgeDataError
from knowledge.prices import Price, price_key
from knowledge.schema import GPU, AppleChip, CloudProduct, FaqEntry, InstanceFamily, InstanceLayout, Model

SHIPPED_DIR = Path(__file__).with_name("data")
USER_DIR_ENV = "GPU_ADVISOR_KB"

# Top-level key in a knowledge file → (schema, the field that identifies an entry).
SECTIONS: dict[str, tuple[type[BaseModel], str]] = {
    "models": (Model, "id"),
    "gpus": (GPU, "id"),
    "instance_families": (InstanceFamily, "family"),
    "products": (CloudProduct, "id"),
    "faq": (FaqEntry, "id"),
    "prices": (Price, "key"),  # key = cloud/instance/region, a property: a user row replaces the shipped one
    "engines": (EngineProfile, "id"),
    "apple_chips": (AppleChip, "id"),
    "instance_types": (InstanceLayout, "key"),  # key = cloud/instance: a user entry replaces the shipped one
}

EntryT = TypeVar("EntryT", bound=BaseModel)

# libyaml's C parser reads the shipped files about ten times faster than the pure-Python one (0.06 s against
# 0.7 s for the ~270 KB shipped here), which is most of the start-up of `ask`. PyYAML's wheels bundle libyaml;
# a PyYAML built without it still works, only slower. Both accept the same safe subset of YAML.
try:
    from yaml import CSafeLoader as YamlLoader
except ImportError:  # PyYAML built without libyaml
    from yaml import SafeLoader as YamlLoader  # type: ignore[assignment]


def _read_yaml(path: Path) -> dict[str, Any]:
    try:
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=YamlLoader)
    except yaml.YAMLError as exc:
        raise KnowledgeDataError(str(path), None, None, f"not valid YAML: {exc}") from exc
    except OSError as exc:
        raise KnowledgeDataError(str(path), None, None, f"cannot be read: {exc}") from exc
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise KnowledgeDataError(str(path), None, None, "the top level must be a mapping such as 'models:'")
    unknown = set(data) - set(SECTIONS)
    if unknown:
        raise KnowledgeDataError(
            str(path), None, None, f"unknown section(s) {sorted(unknown)}; expected some of {sorted(SECTIONS)}"
        )
    return data


def raw_entry_id(section: str, raw: Any) -> str | None:
    """The id of a raw (unvalidated) entry, so errors and duplicate checks can name it before it loads."""
    if not isinstance(raw, dict):
        return None
    if section == "prices":
        parts = [raw.get(name) for name in ("cloud", "instance", "region")]
        return price_key(*map(str, parts)) if all(parts) else None
    if section == "instance_types":
        cloud, instance = raw.get("cloud"), raw.get("instance")
        return f"{cloud}/{instance}" if cloud and instance else None
    value = raw.get(SECTIONS[section][1])
    return str(value) if value else None


def _validated(path: Path, section: str, raw_entries: Any) -> Iterator[BaseModel]:
    schema = SECTIONS[section][0]
    if not isinstance(raw_entries, list):
        raise KnowledgeDataError(str(path), None, section, "must be a list of entries")
    for position, raw in enumerate(raw_entries):
        name = raw_entry_id(section, raw) or f"#{position + 1}"
        try:
            yield schema.model_validate(raw)
        except ValidationError as exc:
            first = exc.errors()[0]
            field = ".".join(str(part) for part in first["loc"]) or None
            raise KnowledgeDataError(str(path), name, field, first["msg"]) from None


def _yaml_files(directory: Path) -> list[Path]:
    return sorted(p for p in directory.iterdir() if p.suffix in {".yaml", ".yml"} and p.is_file())


def load_knowledge(directories: Iterable[Path | str] | None = None) -> KnowledgeBase:
    """Validate and merge the knowledge files of `directories` (later ones win on the same id).

    With no argument: the shipped data, then `$GPU_ADVISOR_KB` if set.
    """
    if directories is None:
        directories = [SHIPPED_DIR]
        user_dir = os.environ.get(USER_DIR_ENV)
        if user_dir:
            directories.append(Path(user_dir))
    merged: dict[str, dict[str, tuple[BaseModel, str]]] = {section: {} for section in SECTIONS}
    for directory in map(Path, directories):
        if not directory.is_dir():
            raise KnowledgeDataError(str(directory), None, None, "knowledge directory does not exist")
        for path in _yaml_files(directory):
            seen_here: set[tuple[str, str]] = set()
            for section, raw_entries in _read_yaml(path).items():
                key = SECTIONS[section][1]
                for entry in _validated(path, section, raw_entries):
                    entry_id = str(getattr(entry, key))
                    if (section, entry_id) in seen_here:
                        raise KnowledgeDataError(str(path), entry_id, key, "duplicate id in the same file")
                    seen_here.add((section, entry_id))
                    merged[section][entry_id] = (entry, str(path))
    def entries(section: str, schema: type[EntryT]) -> dict[str, EntryT]:
        return {k: cast(EntryT, v[0]) for k, v in merged[section].items()}

    return KnowledgeBase(
        models=entries("models", Model),
        gpus=entries("gpus", GPU),
        instance_families=entries("instance_families", InstanceFamily),
        products=entries("products", CloudProduct),
        faq=entries("faq", FaqEntry),
        prices=entries("prices", Price),
        engines=entries("engines", EngineProfile),
        apple_chips=entries("apple_chips", AppleChip),
        instance_types=entries("instance_types", InstanceLayout),
        origins={(section, k): v[1] for section, items in merged.items() for k, v in items.items()},
    )


@lru_cache(maxsize=1)
def default_knowledge() -> KnowledgeBase:
    """The process-wide knowledge base, loaded once: start-up pays for validation, answers do not."""
    return load_knowledge()
