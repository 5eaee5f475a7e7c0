"""Model names the knowledge base cannot size: closed models, and unknown names that carry a size.

A closed model (GPT-4, Claude, Gemini) has no published weights, so no GPU runs it: the reply says so in one
line instead of sizing something else. An unknown name with a size in it ("Zephyrine-13B") is sized as a
generic model of that size, but the reply must say that the name was not known and how to get an exact
figure; `sized_unknown_name` finds the name so the reply can quote it.
"""

from __future__ import annotations

import re

CLOSED_MODELS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("GPT-5", re.compile(r"(?<![\w.-])gpt[-_ ]?5(?:\.\d)?(?:[-_ ]?(?:mini|nano|pro))?(?![\w.])", re.A)),
    ("GPT-4", re.compile(r"(?<![\w.-])gpt[-_ ]?4(?:\.\d)?(?:o|[-_ ]?turbo|[-_ ]?o[-_ ]?mini)?(?![\w.])", re.A)),
    ("GPT-3.5", re.compile(r"(?<![\w.-])gpt[-_ ]?3\.5(?:[-_ ]?turbo)?(?![\w.])", re.A)),
    ("ChatGPT", re.compile(r"(?<![\w.-])chat[-_ ]?gpt(?![\w.-])", re.A)),
    ("Claude", re.compile(r"(?<![\w.-])claude(?:[-_ ]?\d(?:\.\d)?)?(?:[-_ ](?:opus|sonnet|haiku))?(?![\w.])", re.A)),
    ("Gemini", re.compile(r"(?<![\w.-])gemini(?:[-_ ]?\d(?:\.\d)?)?(?:[-_ ](?:pro|flash|ultra|nano))?(?![\w.])", re.A)),
    ("文心一言", re.compile(r"文心一言")),
)
"""API-only models people ask about; open relatives (gpt-oss, Gemma, ERNIE 4.5) are in the knowledge base."""

_SIZED_NAME = re.compile(
    r"(?<![\w./-])(?P<name>[a-z][a-z0-9.]*(?:[-_][a-z0-9.]+)*?[-_]?\d+(?:\.\d+)?[bm])(?![\w])", re.A)


def closed_model(folded: str) -> str | None:
    """The closed model named in `folded` text (lower case), if any."""
    for label, pattern in CLOSED_MODELS:
        if pattern.search(folded):
            return label
    return None


def sized_unknown_name(folded: str, original: str) -> str | None:
    """"zephyrine-13b": a name glued to a size, quoted from the original text; None for a bare "13B"."""
    for match in _SIZED_NAME.finditer(folded):
        name = match.group("name")
        letters = re.sub(r"[-_]?\d+(?:\.\d+)?[bm]$", "", name)
        if len(re.sub(r"[^a-z]", "", letters)) >= 2:
            return original[match.start("name"): match.end("name")]
    return None
