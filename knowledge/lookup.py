"""Fuzzy lookup of models and GPUs by name, alias or Hugging Face id.

People write "chatglm6b", "ChatGLM 6B", "THUDM/chatglm-6b" or "lama2 13b" and mean one entry. Names are
normalised (case, width, separators) before an exact dictionary probe, so the common case costs a hash
lookup however large the base grows. Only when that misses does rapidfuzz score candidates, and never all
of them:

* every alias is reduced to a *signature*: its family letters ("qwen", "chatglm", "rtx"), its size tokens
  ("7b", "72b", "0.5b", "8x7b", "a22b", "80gb"; "1_8b" is 1.8b, "7b1" is 7.1b, "70亿" is 7b) and its other
  numbers (versions and model numbers: the "2.5" of Qwen2.5, the "4090" of an RTX 4090);
* the fuzzy fallback first matches the query's family against the distinct family strings (far fewer than
  the aliases), plus the aliases that share a rare number with the query, and scores only those;
* the score is number-aware. A size or version that disagrees ("qwen2.5-7b" against "qwen2.5-72b", which
  plain edit-distance scores 95) caps the score at `MISMATCH_CAP`, below `CONFIDENT_SCORE`, so a typo can
  never silently change the model size; it becomes a "did you mean". When every number agrees, a misspelt
  family ("mistrel 7b", "lama2 13b", "qwen3 235b" for Qwen3-235B-A22B) still matches with confidence.

`NameIndex.find_in_text` finds the longest exact alias occurrence in free text (for the message parser).
Reading a name (normalising, suffixes, signatures) is knowledge/names.py; the answers are knowledge/matches.py.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rapidfuzz import fuzz, process

from knowledge.matches import CONFIDENT_SCORE, SUGGEST_SCORE, LookupResult, Match, Mention
from knowledge.names import (
    CJK,
    META_PREFIX,
    Signature,
    normalise,
    prepare,
    signature,
    size_value,
    split_checkpoint_suffixes,
)

if TYPE_CHECKING:
    from knowledge.schema import GPU, Model

MISMATCH_CAP = CONFIDENT_SCORE - 5
"""Highest score a candidate whose size or version disagrees with the query can reach."""

FAMILY_BOOST = 5.0
"""Added to the family-name similarity when every number agrees (so "mistrel 7b" is confident, "llava 7b"
against LLaMA 7B is not: a one-letter slip in a five-letter name is too likely to be another model)."""

_FAMILY_LIMIT = 12
_FAMILY_CUTOFF = 50.0
_MAX_SCORED = 400
_POOL_LIMIT = 32
_BIG_FAMILY = 256
_RARE_POSTING = 64
_SIZE_TOLERANCE = 0.2

@dataclass(frozen=True, slots=True)
class _Alias:
    key: str
    """Normalised full alias (the exact-lookup key)."""
    fuzzy_key: str
    """Normalised alias without organisation prefix and checkpoint suffixes (what fuzzy queries meet)."""
    entry_id: str
    display: str
    sig: Signature


_TOKEN = re.compile(rf"[{CJK}]|[^\W_{CJK}](?:(?:[^\W{CJK}]|[.\-/:+])*[^\W_{CJK}])?")
_SUFFIX_HINT = re.compile(
    r"(?:chat|instruct|it|sft|dpo|rlhf|hf|base|v0\.\d+|gptq\S*|awq|nf4|gguf|int[48]|[48][-_ ]?bits?|fp8"
    r"|fp16|bf16|q\d_\S+)$"
)


class NameIndex:
    """Normalised names → entry ids, with a blocked, number-aware fuzzy fallback over the same names.

    `names` are (entry id, name) pairs; `magnitudes` optionally gives each entry's size (billions of
    parameters for models, GiB for GPUs) so a query's size can be checked against an entry whose names
    state none ("deepseek v3 671b").
    """

    def __init__(
        self,
        names: Iterable[tuple[str, str]],
        magnitudes: Mapping[str, float] | None = None,
        unit: str = "b",
    ) -> None:
        self._exact: dict[str, str] = {}
        self._ambiguous: dict[str, set[str]] = {}
        self._display: dict[str, str] = {}
        self._aliases: list[_Alias] = []
        self._alias_of_key: dict[str, int] = {}
        self._entry_sizes: dict[str, set[str]] = {}
        self._magnitude = dict(magnitudes or {})
        self._unit = unit
        for entry_id, name in names:
            key = normalise(name)
            if not key:
                continue
            owner = self._exact.setdefault(key, entry_id)
            if owner != entry_id:
                self._ambiguous.setdefault(key, {owner}).add(entry_id)
                continue
            if key in self._display:
                continue
            self._display[key] = name
            base, _, _ = split_checkpoint_suffixes(prepare(name).rsplit("/", 1)[-1])
            sig = signature(base)
            alias = _Alias(key, normalise(base) or key, entry_id, name, sig)
            self._alias_of_key[key] = len(self._aliases)
            self._aliases.append(alias)
            self._entry_sizes.setdefault(entry_id, set()).update(sig.sizes)
        # Blocks: family letters → aliases; number/size token → aliases.
        self._family_members: dict[str, list[int]] = {}
        self._number_members: dict[str, list[int]] = {}
        for position, alias in enumerate(self._aliases):
            self._family_members.setdefault(alias.sig.family, []).append(position)
            for token in alias.sig.sizes | alias.sig.numbers:
                self._number_members.setdefault(token, []).append(position)
        self._families = [family for family in self._family_members if family]
        self._family_keys = {
            family: [self._aliases[i].fuzzy_key for i in members] for family, members in self._family_members.items()
        }
        self._family_numbers: dict[tuple[str, frozenset[str]], list[int]] = {}
        for position, alias in enumerate(self._aliases):
            self._family_numbers.setdefault((alias.sig.family, alias.sig.numbers), []).append(position)
        self._family_sizes: dict[tuple[str, str], list[int]] = {}
        for family in (f for f, members in self._family_members.items() if len(members) > _BIG_FAMILY):
            for position in self._family_members[family]:
                for token in self._aliases[position].sig.sizes:
                    self._family_sizes.setdefault((family, token), []).append(position)

    @classmethod
    def for_models(cls, models: Iterable[Model]) -> NameIndex:
        models = list(models)
        return cls(
            ((m.id, name) for m in models for name in (m.id, m.name, *m.aliases, *m.hf_ids)),
            {m.id: m.params_b for m in models},
            unit="b",
        )

    @classmethod
    def for_gpus(cls, gpus: Iterable[GPU]) -> NameIndex:
        gpus = list(gpus)
        return cls(
            ((g.id, name) for g in gpus for name in (g.id, g.name, *g.aliases)),
            {g.id: g.memory_gb for g in gpus},
            unit="gb",
        )

    def __len__(self) -> int:
        return len(self._exact)

    @property
    def ambiguous(self) -> dict[str, set[str]]:
        """Normalised names claimed by more than one entry (a knowledge-base check reports these)."""
        return self._ambiguous

    def display(self, key: str) -> str:
        """The name as first written in the knowledge base for a normalised key."""
        return self._display.get(key, key)

    def exact(self, name: str) -> str | None:
        return self._exact.get(normalise(name))

    # ---------------------------------------------------------------------------------------------------

    def lookup(self, name: str, limit: int = 5) -> LookupResult:
        """Best entry for `name` plus up to `limit` runners-up (limit=0: no runners-up, fastest)."""
        text = prepare(name)
        if not text:
            return LookupResult(None)
        base, quant, variant = split_checkpoint_suffixes(text)
        key = normalise(text)
        hit = self._exact.get(key)
        if hit is not None:
            return self._exact_result(key, hit, limit, quant, variant)
        short = base.rsplit("/", 1)[-1]
        candidates = [text, base, short]
        unprefixed = META_PREFIX.sub("", short)
        if unprefixed != short:
            candidates.append(unprefixed)
        for candidate in candidates[1:]:
            key = normalise(candidate)
            hit = self._exact.get(key)
            if hit is not None:
                return self._exact_result(key, hit, limit, quant, variant)
        ranked = self._fuzzy(candidates[-1], max(limit, 0) + 1)
        if not ranked or ranked[0].score < SUGGEST_SCORE:
            return LookupResult(None, ranked[:limit], quant, variant)
        return LookupResult(ranked[0], ranked[1 : limit + 1], quant, variant)

    def _exact_result(self, key: str, hit: str, limit: int, quant: str | None, variant: str | None) -> LookupResult:
        best = Match(hit, 100.0, self._display[key])
        if limit <= 0:
            return LookupResult(best, [], quant, variant)
        return LookupResult(best, None, quant, variant, pending=lambda: self._siblings(key, hit, limit))

    def suggest(self, name: str, limit: int = 5) -> list[Match]:
        """Fuzzy candidates only (no exact short-cut), best first, each at least SUGGEST_SCORE."""
        base, _, _ = split_checkpoint_suffixes(prepare(name))
        return self._fuzzy(base.rsplit("/", 1)[-1], limit)

    def find_in_text(self, text: str, max_tokens: int = 5) -> list[Mention]:
        """Exact alias occurrences in free text, longest first, left to right, not overlapping.

        Tokens are runs of letters/digits (with inner . - _ / : +, so "Qwen2.5-7B-Instruct" and a Hugging
        Face URL are one token) or single CJK characters; n-grams of up to `max_tokens` tokens separated
        only by spaces (or nothing, between CJK characters) are probed as exact normalised names, also
        without checkpoint suffixes ("qwen 7b chat int4" names qwen-7b with quant int4). No fuzzy matching:
        the parser calls `lookup` on whatever span it suspects is a name.
        """
        tokens = list(_TOKEN.finditer(text))
        mentions: list[Mention] = []
        i = 0
        while i < len(tokens):
            found: Mention | None = None
            last = min(len(tokens), i + max_tokens)
            # Extend only across whitespace gaps.
            end_index = i
            while end_index + 1 < last and not text[tokens[end_index].end() : tokens[end_index + 1].start()].strip():
                end_index += 1
            for j in range(end_index, i - 1, -1):
                start, end = tokens[i].start(), tokens[j].end()
                found = self._probe(text[start:end], start, end)
                if found is not None:
                    mentions.append(found)
                    i = j + 1
                    break
            else:
                i += 1
        return mentions

    # ---------------------------------------------------------------------------------------------------

    def _probe(self, span: str, start: int, end: int) -> Mention | None:
        key = normalise(span)
        hit = self._exact.get(key)
        quant = variant = None
        if hit is not None:
            prepared = prepare(span)
            if _SUFFIX_HINT.search(prepared):
                _, quant, variant = split_checkpoint_suffixes(prepared)
        else:
            prepared = prepare(span)
            single = not any(ch.isspace() for ch in prepared)
            if not _SUFFIX_HINT.search(prepared) and not (single and "/" in prepared):
                return None
            base, quant, variant = split_checkpoint_suffixes(prepared)
            for candidate in (base, base.rsplit("/", 1)[-1]) if single else (base,):
                key = normalise(candidate)
                hit = self._exact.get(key)
                if hit is not None:
                    break
            if hit is None:
                return None
        return Mention(Match(hit, 100.0, self._display[key]), start, end, quant, variant, span)

    def _agreement(self, query: Signature, alias: _Alias) -> str | None:
        """None when every size and number of the query agrees with the alias, else what disagrees."""
        if query.sizes:
            known = self._entry_sizes.get(alias.entry_id, set())
            if known:
                if not query.sizes <= known:
                    return "size"
            else:
                magnitude = self._magnitude.get(alias.entry_id)
                if magnitude is not None:
                    for token in query.sizes:
                        value = size_value(token)
                        if (
                            value is not None
                            and value[0] == self._unit
                            and value[1] > 0
                            and abs(value[1] / magnitude - 1) > _SIZE_TOLERANCE
                        ):
                            return "size"
        elif alias.sig.sizes:
            return "size"
        if query.numbers != alias.sig.numbers:
            return "version"
        return None

    def _score(self, query_key: str, query: Signature, alias: _Alias) -> tuple[Match, float]:
        """(the number-aware match, the plain edit-distance score that breaks ties)."""
        base = fuzz.ratio(query_key, alias.fuzzy_key)
        mismatch = self._agreement(query, alias)
        if mismatch is not None:
            score = min(base, MISMATCH_CAP)
        elif query.family and alias.sig.family:
            family_score = fuzz.ratio(query.family, alias.sig.family)
            score = max(base, min(99.0, family_score + FAMILY_BOOST))
        else:
            score = base
        return Match(alias.entry_id, float(score), alias.display, mismatch), float(base)

    def _candidates(self, query_key: str, query: Signature) -> dict[int, None]:
        """Alias positions worth scoring (an insertion-ordered set), never the whole base.

        The query's family is matched against the distinct family strings. Of the near families, the
        aliases closest in spelling are picked by rapidfuzz (in C); in the families close enough for the
        family boost to matter, the aliases whose version numbers equal the query's (a dictionary probe)
        join them, since only those can be boosted. Aliases sharing a rare number with the query ("4090",
        "235b") are added too.
        """
        chosen: dict[int, None] = {}
        if query.family and self._families:
            families = process.extract(
                query.family,
                self._families,
                scorer=fuzz.ratio,
                limit=_FAMILY_LIMIT,
                score_cutoff=_FAMILY_CUTOFF,
            )
            pool_positions: list[int] = []
            pool_keys: list[str] = []
            for family, family_score, _ in families:
                if family_score + FAMILY_BOOST >= CONFIDENT_SCORE:
                    for position in self._family_numbers.get((family, query.numbers), ())[:_MAX_SCORED]:
                        chosen[position] = None
                if len(self._family_members[family]) > _BIG_FAMILY:
                    for position in self._narrow(query_key, query, family):
                        chosen[position] = None
                else:
                    pool_positions.extend(self._family_members[family])
                    pool_keys.extend(self._family_keys[family])
            if pool_keys:
                for _, _, index in process.extract(
                    query_key, pool_keys, scorer=fuzz.ratio, limit=_POOL_LIMIT, score_cutoff=SUGGEST_SCORE
                ):
                    chosen[pool_positions[index]] = None
        for token in query.sizes | query.numbers:
            posting = self._number_members.get(token, ())
            if len(posting) <= _RARE_POSTING:
                for position in posting:
                    chosen[position] = None
        if not query.family and not chosen:
            # Only common numbers ("7b"): the closest spellings among the aliases sharing them.
            posting_keys: list[int] = []
            for token in query.sizes | query.numbers:
                posting_keys.extend(self._number_members.get(token, ()))
            if posting_keys:
                keys = [self._aliases[p].fuzzy_key for p in posting_keys]
                for _, _, index in process.extract(
                    query_key, keys, scorer=fuzz.ratio, limit=32, score_cutoff=SUGGEST_SCORE
                ):
                    chosen[posting_keys[index]] = None
        return chosen

    def _narrow(self, query_key: str, query: Signature, family: str) -> list[int]:
        """A very large family: its aliases sharing a size with the query plus the closest spellings."""
        members = self._family_members[family]
        picked = [
            members[index]
            for _, _, index in process.extract(
                query_key, self._family_keys[family], scorer=fuzz.ratio, limit=64, score_cutoff=SUGGEST_SCORE
            )
        ]
        for token in query.sizes:
            picked.extend(self._family_sizes.get((family, token), ())[:_MAX_SCORED])
        return picked

    def _rank(self, matches: Iterable[tuple[Match, float]], limit: int, exclude: str | None) -> list[Match]:
        best: dict[str, tuple[Match, float]] = {}
        for match, base in matches:
            if match.id == exclude or match.score < SUGGEST_SCORE:
                continue
            held = best.get(match.id)
            if held is None or (match.score, base) > (held[0].score, held[1]):
                best[match.id] = (match, base)
        ordered = sorted(best.values(), key=lambda item: (-item[0].score, -item[1], item[0].id))
        return [match for match, _ in ordered[:limit]]

    def _fuzzy(self, name: str, limit: int, exclude: str | None = None) -> list[Match]:
        query_key = normalise(name)
        if not query_key or limit <= 0:
            return []
        query = signature(name)
        scored = [self._score(query_key, query, self._aliases[p]) for p in self._candidates(query_key, query)]
        return self._rank(scored, limit, exclude)

    def _siblings(self, key: str, entry_id: str, limit: int) -> list[Match]:
        """Runners-up for an exact hit: the closest other entries of the same family, number-aware."""
        position = self._alias_of_key.get(key)
        if position is None:
            return []
        alias = self._aliases[position]
        members = self._family_members.get(alias.sig.family, [])
        if len(members) <= 1:
            return []
        keys = [self._aliases[p].fuzzy_key for p in members]
        scored = []
        for _, _, index in process.extract(
            alias.fuzzy_key, keys, scorer=fuzz.ratio, limit=limit * 3 + 4, score_cutoff=SUGGEST_SCORE
        ):
            other = self._aliases[members[index]]
            if other.entry_id != entry_id:
                scored.append(self._score(alias.fuzzy_key, alias.sig, other))
        return self._rank(scored, limit, entry_id)
