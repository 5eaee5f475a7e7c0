"""The notes a reading leaves on a Question, and the Question's properties that read them back.

A note is a string in `Question.notes`: a bare name ("family-release") or a prefix with a value after it
("modified-card:rtx-4090"). The parser and the slots write them, the reply reads them; each name and what it
means is kept here beside the property that reads it, so a note cannot be written under one spelling and read
under another. `Question` takes the properties from `NoteViews`; the names stay importable from
bot.understand.question.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

MODDED_NOTE = "modified-card:"
"""Question note prefix: the card named (its id follows) was stated with more memory than it ships with."""
SHARED_MEMORY_NOTE = "shared-memory-stated:"
"""Noted with the memory stated for a module whose memory its CPU and OS share (a Jetson): it is sized with less
(bot.understand.unknown.shared_memory_reserve), and the reply says from what."""
NO_SUCH_VARIANT_NOTE = "no-such-variant:"
"""Noted with the name written when a card suffix names a variant that does not exist ("RTX 4090 Ti")."""
ENGINE_NOT_ON_CARD_NOTE = "engine-not-on-card:"
"""Noted with the engine asked for when the card named is of a maker it does not run on (TensorRT-LLM on a Radeon):
the job is sized with an engine that does, and the reply says why."""
GGUF_SERVER_NOTE = "gguf-server:"
"""Noted with the serving engine named beside a GGUF file ("GGUF Q8_0 on vLLM"): sized as llama.cpp runs it."""
ROLLOUT_ENGINE_NOTE = "rollout-engine:"
"""Noted with the serving engine an RL job (GRPO, PPO) names for its rollouts; the reply says what it leaves out."""
FAMILY_RELEASE_NOTE = "family-release"
"""A model family named alone ("which gpu for whisper?"): its current release is sized and the reply says so."""
ASSUMED_MODEL_NOTE = "assumed-model:"
"""Noted with the model sized when the text names none but its job implies one (a transcription job: Whisper):
the reply says which model it assumed, so the asker can name theirs."""
DERIVED_NAME_NOTE = "derived-name:"
"""Noted with the whole name written when a known model's name ends another name ("openhermes-2.5-mistral-7b"): the
reply says which model it was sized as (bot.understand.mention_fit.derived_name)."""
CLAIMED_MEMORY_NOTE = "claimed-memory:"
"""Noted with the GB the text says the card asked about has when it does not ("the 4090 has 48GB right?"): the
reply corrects it and sizes the card as it ships (bot.understand.mention_fit.claimed_memory)."""


class NoteViews:
    """The properties of `Question` that read its notes back."""

    if TYPE_CHECKING:
        notes: list[str]

    def _noted(self, prefix: str) -> str | None:
        """What the first note with `prefix` carries after it, or None when no note has it."""
        return next((n.removeprefix(prefix) for n in self.notes if n.startswith(prefix)), None)

    @property
    def family_release(self) -> bool:
        """Whether a family was named alone ("whisper") and its current release sized (`FAMILY_RELEASE_NOTE`)."""
        return FAMILY_RELEASE_NOTE in self.notes

    @property
    def assumed_model(self) -> bool:
        """Whether the model was assumed from the job (`ASSUMED_MODEL_NOTE`) rather than named."""
        return any(n.startswith(ASSUMED_MODEL_NOTE) for n in self.notes)

    @property
    def shared_memory_stated(self) -> float | None:
        """The memory stated for a shared-memory module (`SHARED_MEMORY_NOTE`), before its OS's share came off."""
        noted = self._noted(SHARED_MEMORY_NOTE)
        return float(noted) if noted is not None else None

    @property
    def no_such_variant(self) -> str | None:
        """A card name written with a suffix no such card has (`NO_SUCH_VARIANT_NOTE`): "RTX 4090 Ti"."""
        return self._noted(NO_SUCH_VARIANT_NOTE)

    @property
    def engine_not_on_card(self) -> str | None:
        """The engine asked for that cannot run on the card named (`ENGINE_NOT_ON_CARD_NOTE`)."""
        return self._noted(ENGINE_NOT_ON_CARD_NOTE)

    @property
    def gguf_server(self) -> str | None:
        """The serving engine named beside a GGUF file that was sized as llama.cpp (`GGUF_SERVER_NOTE`)."""
        return self._noted(GGUF_SERVER_NOTE)

    @property
    def derived_name(self) -> str | None:
        """The name written around the model read (`DERIVED_NAME_NOTE`), when it names a derivative of it."""
        return self._noted(DERIVED_NAME_NOTE)

    @property
    def claimed_memory_gb(self) -> float | None:
        """The memory the text wrongly says the card asked about has (`CLAIMED_MEMORY_NOTE`), if it says one."""
        noted = self._noted(CLAIMED_MEMORY_NOTE)
        return float(noted) if noted is not None else None

    @property
    def modified_card(self) -> str | None:
        """The id of the card the text named with more memory than it ships with (`MODDED_NOTE`), if any."""
        return self._noted(MODDED_NOTE)
