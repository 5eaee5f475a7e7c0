"""A context length read against the model's own window."""

from __future__ import annotations

from bot.understand.slots.base import SlotState


def window_in_thousands(state: SlotState, window: int | None) -> None:
    """A length in "k" just past a round window is that window: "200k" is 204,800 tokens read as k = 1,024 (the
    convention that makes "128k" 131,072), but for a model whose window is 200,000 (Yi-34B-200K) it means the
    window, which the decimal reading fits and the binary one runs past."""
    context = state.values.get("context")
    if (window and isinstance(context, int) and context > window and context % 1024 == 0
            and context * 1000 // 1024 <= window):
        state.values["context"] = window
