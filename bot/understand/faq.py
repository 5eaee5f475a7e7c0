"""Which FAQ entry a question is about: fuzzy resemblance to its questions plus its keywords found."""

from __future__ import annotations

from rapidfuzz import fuzz, process

from bot.understand.lang import has_cjk
from bot.understand.tokens import faq_text
from bot.understand.vocab import Vocab

FAQ_MATCH_SCORE = 70.0
"""A FAQ entry scoring at least this is attached as `faq_hint`."""
FAQ_INTENT_SCORE = 86.0
"""Without any model/GPU/size named, a FAQ question this close is intent faq even without a cue word."""


def faq_match(vocab: Vocab, folded: str) -> tuple[str | None, float]:
    """Best FAQ entry for the text: fuzzy resemblance to one of its questions, plus its keywords found."""
    if not vocab.faq_texts:
        return None, 0.0
    query = faq_text(folded)
    if not query:
        return None, 0.0
    # token_sort_ratio, not token_set_ratio: a three-word follow-up is a subset of many questions
    scorer = fuzz.ratio if has_cjk(query) else fuzz.token_sort_ratio
    scores: dict[str, float] = {}
    for _text, score, index in process.extract(query, vocab.faq_texts, scorer=scorer, limit=12, score_cutoff=30):
        entry_id = vocab.faq_ids[index]
        scores[entry_id] = max(scores.get(entry_id, 0.0), float(score))
    hits: dict[str, set[str]] = {}
    for entry_id, keyword in vocab.faq_keywords:
        if keyword.search(folded):
            hits.setdefault(entry_id, set()).add(keyword.pattern)
    best_id: str | None = None
    best = 0.0
    for entry_id in sorted(set(scores) | set(hits)):  # a tie goes the same way in every process (no set order)
        fuzzy = scores.get(entry_id, 0.0)
        keyword_hits = len(hits.get(entry_id, ()))
        combined = max(fuzzy, 55.0 + 12.0 * keyword_hits if keyword_hits else 0.0) + 6.0 * keyword_hits
        if combined > best:
            best_id, best = entry_id, combined
    return best_id, min(100.0, best)
