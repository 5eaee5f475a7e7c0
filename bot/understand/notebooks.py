"""Free notebook services named instead of a card: "QLoRA on Colab free tier", "Llama 3 8B on Kaggle".

People size a job against the notebook they have and name the service, not its card. Colab's free tier
assigns one T4 (16 GB) when a GPU is free (NetDevInfraWiki "DNET_GoogleColaboratory", Sep 2026: 無料 … T4 GPU;
loganthorneloe/free-gpus: "usually NVIDIA T4"). Kaggle Notebooks offer one P100 16 GB or two T4s ("GPU T4x2":
memosite.jp kaggle_t4x2_guide, Dec 2025); the pair is what LLM work picks, so a bare "Kaggle" reads as it
("Kaggle P100" names its card). Paid Colab tiers hand out different cards (L4, A100) from one session to the next:
they are not read as a card.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.understand.slots.base import rx


@dataclass(frozen=True)
class NotebookCard:
    gpu_id: str
    count: int
    note: str
    """The reason code the reply's assumption line explains."""


_KAGGLE_CARD = NotebookCard("t4", 2, "notebook-kaggle-t4x2")
_COLAB_FREE_CARD = NotebookCard("t4", 1, "notebook-colab-free")
NOTEBOOK_NOTES = (_KAGGLE_CARD.note, _COLAB_FREE_CARD.note)
"""The reason codes a notebook read as a card leaves in `Question.notes`."""

_COLAB_FREE = rx(r"\b(?:google\s+)?colab(?:oratory)?\b(?!\s*(?:pro|enterprise|\+|pay))")
_KAGGLE = rx(r"\bkaggle\b")


def notebook_card(folded: str) -> NotebookCard | None:
    """The card a free notebook named in `folded` text gives, or None."""
    if _KAGGLE.search(folded):
        return _KAGGLE_CARD
    if _COLAB_FREE.search(folded):
        return _COLAB_FREE_CARD
    return None
