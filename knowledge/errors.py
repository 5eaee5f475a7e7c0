"""Errors raised by the knowledge layer.

Hierarchy (catch the base class to handle any of them):

    KnowledgeError
    ├── KnowledgeDataError   a YAML file is malformed or an entry breaks the schema or a check
    └── UnknownEntryError    an id that the knowledge base does not hold was asked for
"""

from __future__ import annotations


class KnowledgeError(Exception):
    """Base class of every knowledge-layer error."""


class KnowledgeDataError(KnowledgeError):
    """Bad data, located: the file, the entry and the field, so whoever edits the YAML can fix it."""

    def __init__(self, file: str, entry: str | None, field: str | None, problem: str) -> None:
        self.file = file
        self.entry = entry
        self.field = field
        self.problem = problem
        where = file
        if entry is not None:
            where += f": entry {entry!r}"
        if field is not None:
            where += f", field {field!r}"
        super().__init__(f"{where}: {problem}")


class UnknownEntryError(KnowledgeError, KeyError):
    """An id was looked up that no knowledge file defines."""

    def __init__(self, kind: str, entry_id: str) -> None:
        self.kind = kind
        self.entry_id = entry_id
        super().__init__(f"unknown {kind} id {entry_id!r}")

    def __str__(self) -> str:
        return f"unknown {self.kind} id {self.entry_id!r}"
