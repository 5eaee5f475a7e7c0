"""A Question built from what the slots read, with a number no slot capped brought inside its field's bound.

The slots cap the numbers they know to be absurd (cards, context, batch) and say so; a field a slot fills without
a cap ("20 quadrillion tokens") would otherwise fail the Question's own validation, and the parser's safety net
would turn a clear question into "I didn't understand" (audit 21 H-3).
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from bot.understand.question import Question

BOUND_ERRORS = {"less_than_equal": "le", "less_than": "lt", "greater_than_equal": "ge", "greater_than": "gt"}
"""pydantic's bound errors and the constraint each names."""


def bounded_question(**fields: Any) -> Question:
    """The Question, with a number beyond a field's bound that no slot capped ("20 quadrillion tokens") set to
    that bound and said as clamped, rather than the whole question lost to a validation error; another field
    that will not validate is dropped (None) and said the same way."""
    for _ in range(4):
        try:
            return Question(**fields)
        except ValidationError as error:
            clamped = list(fields.get("clamped") or [])
            for problem in error.errors():
                name = str(problem["loc"][0]) if problem["loc"] else ""
                if name not in fields or name in ("text", "intent", "lang"):
                    raise
                bound = BOUND_ERRORS.get(problem["type"])
                limit = (problem.get("ctx") or {}).get(bound) if bound else None
                fields[name] = limit if isinstance(limit, (int, float)) and bound in ("le", "ge") else None
                if name not in clamped:
                    clamped.append(name)
            fields["clamped"] = clamped
    return Question(**fields)
