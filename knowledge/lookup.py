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
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rapidfuzz import fuzz, process

if TYPE_CHECKING:
    from knowledge.schema import GPU, Model

CONFIDENT_SCORE = 90.0
"""At or above this score a fuzzy match is taken without asking; below it the reply offers "did you mean"."""

SUGGEST_SCORE = 60.0
"""Candidates below this score are not worth suggesting."""

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

_SEPARATOR_TABLE = dict.fromkeys(map(ord, " \t\n\r\f\v\u00a0\u3000-_/:,;'\"`()[]{}<>|+"))
_LONE_DOT = re.compile(r"(?<!\d)\.|\.(?!\d)")
_DIGIT_UNDERSCORE = re.compile(r"(?<=\d)_(?=\d)")
_HF_PREFIX = re.compile(
    r"^(?:https?://)?(?:www\.)?(?:huggingface\.co|hf\.co|modelscope\.cn/models|modelscope\.cn)/", re.I
)
_HF_URL_TAIL = re.compile(r"/(?:tree|blob|resolve)/.*$")
_META_PREFIX = re.compile(r"^meta[-_ ]+(?=llama)")

_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"


def _prepare(name: str) -> str:
    """NFKC, lower case, trimmed, without a Hugging Face / ModelScope URL prefix or /tree/... tail."""
    text = (name if name.isascii() else unicodedata.normalize("NFKC", name)).strip().lower()
    if text.startswith(("http", "www", "hf.co", "huggingface", "modelscope")) and _HF_PREFIX.match(text):
        text = _HF_URL_TAIL.sub("", _HF_PREFIX.sub("", text)).strip("/")
    return text


def normalise(name: str) -> str:
    """Canonical form for comparison: NFKC, lower case, no separators (dots between digits are kept,
    and an underscore between digits becomes one: "Qwen-1_8B" is "qwen1.8b")."""
    text = _prepare(name)
    if "_" in text:
        text = _DIGIT_UNDERSCORE.sub(".", text)
    if "." in text:
        text = _LONE_DOT.sub("", text)
    return text.translate(_SEPARATOR_TABLE)


# --------------------------------------------------------------------------------------------------------
# Checkpoint suffixes
# --------------------------------------------------------------------------------------------------------

# Suffixes a checkpoint name carries that do not change the architecture, tried in order at the end of the
# name (combined forms such as "gptq-int4" before their parts). Label None: stripped, not reported.
_QUANT_PATTERNS: tuple[tuple[str, str | None], ...] = (
    (r"gptq[-_ ]?(?:int8|w8|8[-_ ]?bits?)", "gptq-int8"),
    (r"gptq(?:[-_ ]?(?:int4|w4|4[-_ ]?bits?))?", "gptq"),
    (r"awq(?:[-_ ]?(?:int4|w4|4[-_ ]?bits?))?", "awq"),
    (r"(?:bnb[-_ ]?)?nf4", "nf4"),
    (r"i?q[2-8]_k(?:_[sml])?|q[4-8]_[01]|iq[1-4]_(?:xxs|xs|s|m|nl)", "gguf-"),
    (r"gguf", "gguf"),
    (r"(?:bnb[-_ ]?)?4[-_ ]?bits?|int4|w4a16(?:[-_ ]?g\d+)?", "int4"),
    (r"(?:bnb[-_ ]?)?8[-_ ]?bits?|int8|w8a8|w8a16", "int8"),
    (r"fp8(?:[-_ ]?dynamic)?", "fp8"),
    (r"fp16|bf16|fp32|f16|f32", None),
)
_VARIANT_PATTERN = r"chat|instruct|it|sft|dpo|rlhf|hf|base|v0\.\d+"
# One alternation, so each stripping step is a single regex search; the alternative that matched names
# the label (the last one is the chat/instruct variant).
_SUFFIX = re.compile(
    r"[-_ .]+(?:"
    + "|".join(f"(?P<s{i}>{pattern})" for i, (pattern, _) in enumerate(_QUANT_PATTERNS))
    + f"|(?P<variant>{_VARIANT_PATTERN}))$"
)
_SUFFIX_WINDOW = 40
"""Longest suffix one step can strip (with its separators): search only the tail of the name."""
_GGUF_EXTENSION = re.compile(r"\.gguf$")


def _weak_variant(variant: str) -> bool:
    return variant in {"hf", "base"} or variant.startswith("v0.")


_QUANT_BITS = {"gptq": 4, "gptq-int8": 8, "awq": 4, "nf4": 4, "int4": 4, "int8": 8, "fp8": 8}


def split_checkpoint_suffixes(name: str) -> tuple[str, str | None, str | None]:
    """`Qwen2.5-7B-Instruct-GPTQ-Int4` → (`qwen2.5-7b`, `gptq`, `instruct`), on the raw (lower-cased) name.

    Quantisation labels: gptq, gptq-int8, awq, nf4, int4, int8, fp8, gguf and gguf-<type> such as
    gguf-q4_k_m. Variants: chat, instruct, it, sft, dpo, rlhf, hf, base, v0.N (the chat/instruct marker wins
    over hf/base when both are present). Version numbers such as "-v3" are part of the name and stay.
    """
    text = (name if name.isascii() else unicodedata.normalize("NFKC", name)).strip().lower()
    quant: str | None = None
    variant: str | None = None
    if _GGUF_EXTENSION.search(text):
        text, quant = text[:-5], "gguf"
    while True:
        found = _SUFFIX.search(text, max(0, len(text) - _SUFFIX_WINDOW))
        if found is None or found.start() == 0 or found.lastgroup is None:
            break
        text = text[: found.start()]
        value = found.group(found.lastgroup)
        if found.lastgroup == "variant":
            if variant is None or (_weak_variant(variant) and not _weak_variant(value)):
                variant = value
            continue
        label = _QUANT_PATTERNS[int(found.lastgroup[1:])][1]
        if label is not None:
            value = label + value if label == "gguf-" else label
            if quant is None or (quant == "gguf" and value.startswith("gguf-")):
                quant = value
    return text.strip(" -_."), quant, variant


# --------------------------------------------------------------------------------------------------------
# Signatures: family letters, size tokens, other numbers
# --------------------------------------------------------------------------------------------------------

_SIZE_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"(?<![0-9.])(\d+)x(\d+(?:\.\d+)?)b(?![a-z0-9])"), "moe"),
    (re.compile(r"(?<![a-z0-9.])a(\d+(?:\.\d+)?)b(?![a-z0-9])"), "active"),
    (re.compile(r"(?<![0-9.])(\d+)b(\d)(?![a-z0-9.])"), "bloom"),
    (re.compile(r"(?<![0-9.])(\d+(?:\.\d+)?)\s?(gb|gib|g)(?![a-z0-9])"), "gb"),
    (re.compile(r"(?<![0-9.])(\d+(?:\.\d+)?)b(?![a-z0-9])"), "b"),
    (re.compile(r"(?<![0-9.])(\d{2,}(?:\.\d+)?)m(?![a-z0-9])"), "m"),
    (re.compile(r"(\d+(?:\.\d+)?)\s?亿"), "yi"),
)
_NUMBER = re.compile(r"\d+(?:\.\d+)*")
_NOT_FAMILY = re.compile(r"[\W\d_]+")
_DATE = re.compile(r"(?:2[3-9](?:0[1-9]|1[0-2])|(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])|20[2-3]\d)")


def _num(text: str) -> str:
    return f"{float(text):g}"


@dataclass(frozen=True, slots=True)
class Signature:
    """What a name says apart from its spelling: family letters, sizes, other numbers."""

    family: str
    sizes: frozenset[str]
    numbers: frozenset[str]
    """Numbers other than sizes (versions, model numbers), without date stamps such as 0324 or 2507."""


def signature(name: str) -> Signature:
    """`Qwen3-235B-A22B-Instruct-2507` → family "qwen", sizes {235b, a22b}, numbers {3}."""
    text = _DIGIT_UNDERSCORE.sub(".", _prepare(name))
    text = text.rsplit("/", 1)[-1]
    sizes: set[str] = set()

    def take(kind: str) -> Callable[[re.Match[str]], str]:
        def repl(found: re.Match[str]) -> str:
            if kind == "moe":
                sizes.add(f"{int(found.group(1))}x{_num(found.group(2))}b")
            elif kind == "active":
                sizes.add(f"a{_num(found.group(1))}b")
            elif kind == "bloom":
                sizes.add(f"{_num(found.group(1) + '.' + found.group(2))}b")
            elif kind == "gb":
                sizes.add(f"{_num(found.group(1))}gb")
            elif kind == "b":
                sizes.add(f"{_num(found.group(1))}b")
            elif kind == "m":
                sizes.add(f"{_num(found.group(1))}m")
            else:
                sizes.add(f"{float(found.group(1)) / 10:g}b")
            return " "

        return repl

    for pattern, kind in _SIZE_PATTERNS:
        if pattern.search(text):
            text = pattern.sub(take(kind), text)
    numbers = frozenset(n for n in _NUMBER.findall(text) if not (len(n) == 4 and _DATE.fullmatch(n)))
    return Signature(_NOT_FAMILY.sub("", text), frozenset(sizes), numbers)


def _size_value(token: str) -> tuple[str, float] | None:
    """'7b' → ('b', 7.0); '124m' → ('b', 0.124); '80gb' → ('gb', 80.0); MoE/active tokens → None."""
    if token.startswith("a") or "x" in token:
        return None
    if token.endswith("gb"):
        return "gb", float(token[:-2])
    if token.endswith("m"):
        return "b", float(token[:-1]) / 1000
    return "b", float(token[:-1])


# --------------------------------------------------------------------------------------------------------
# Results
# --------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Match:
    id: str
    score: float
    matched: str
    """The alias (as written in the knowledge base) that produced the score."""
    mismatch: str | None = None
    """'size' or 'version' when the score was capped because that part of the name disagrees."""


class LookupResult:
    """The best match and its runners-up; `quant` and `variant` come from the checkpoint suffix.

    For an exact hit the runners-up are computed only when `alternatives` is first read, so the common
    case (a name the base knows) costs a dictionary probe.
    """

    __slots__ = ("_alternatives", "_pending", "best", "quant", "variant")

    def __init__(
        self,
        best: Match | None,
        alternatives: list[Match] | None = None,
        quant: str | None = None,
        variant: str | None = None,
        *,
        pending: Callable[[], list[Match]] | None = None,
    ) -> None:
        self.best = best
        self._alternatives = list(alternatives) if alternatives is not None else []
        self._pending = pending
        self.quant = quant
        self.variant = variant

    @property
    def alternatives(self) -> list[Match]:
        if self._pending is not None:
            self._alternatives, self._pending = self._pending(), None
        return self._alternatives

    @property
    def confident(self) -> bool:
        return self.best is not None and self.best.score >= CONFIDENT_SCORE

    @property
    def quant_bits(self) -> int | None:
        """Weight bits the quantisation suffix implies (gptq → 4, int8 → 8, gguf-q5_k_m → 5), if known."""
        if self.quant is None:
            return None
        if self.quant.startswith("gguf-"):
            digits = re.search(r"\d", self.quant)
            return int(digits.group()) if digits else None
        return _QUANT_BITS.get(self.quant)

    @property
    def suggestions(self) -> list[Match]:
        """What a "did you mean" should list: the best match too when it is not confident."""
        if self.best is None or self.confident:
            return list(self.alternatives)
        return [self.best, *self.alternatives]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, LookupResult):
            return NotImplemented
        return (self.best, self.alternatives, self.quant, self.variant) == (
            other.best,
            other.alternatives,
            other.quant,
            other.variant,
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"LookupResult(best={self.best!r}, alternatives={self.alternatives!r}, quant={self.quant!r}, "
            f"variant={self.variant!r})"
        )


@dataclass(frozen=True)
class Mention:
    """An exact alias occurrence in free text: `text[start:end]` names `match.id`."""

    match: Match
    start: int
    end: int
    quant: str | None = None
    variant: str | None = None
    text: str = ""


@dataclass(frozen=True, slots=True)
class _Alias:
    key: str
    """Normalised full alias (the exact-lookup key)."""
    fuzzy_key: str
    """Normalised alias without organisation prefix and checkpoint suffixes (what fuzzy queries meet)."""
    entry_id: str
    display: str
    sig: Signature


_TOKEN = re.compile(rf"[{_CJK}]|[^\W_{_CJK}](?:(?:[^\W{_CJK}]|[.\-/:+])*[^\W_{_CJK}])?")
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
            base, _, _ = split_checkpoint_suffixes(_prepare(name).rsplit("/", 1)[-1])
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
        text = _prepare(name)
        if not text:
            return LookupResult(None)
        base, quant, variant = split_checkpoint_suffixes(text)
        key = normalise(text)
        hit = self._exact.get(key)
        if hit is not None:
            return self._exact_result(key, hit, limit, quant, variant)
        short = base.rsplit("/", 1)[-1]
        candidates = [text, base, short]
        unprefixed = _META_PREFIX.sub("", short)
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
        base, _, _ = split_checkpoint_suffixes(_prepare(name))
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
            prepared = _prepare(span)
            if _SUFFIX_HINT.search(prepared):
                _, quant, variant = split_checkpoint_suffixes(prepared)
        else:
            prepared = _prepare(span)
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
                        value = _size_value(token)
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
