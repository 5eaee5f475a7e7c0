"""`kb check`: consistency checks over a loaded knowledge base.

The schema catches malformed entries at load time; these checks catch entries that are well-formed but
implausible or contradictory — a KV figure that does not follow from the fields, two models claiming one
alias, a cloud family naming a GPU the base does not hold. Each problem names the file, the entry and the
field, so whoever edits the YAML can fix it.
"""

from __future__ import annotations

import datetime as _dt
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from knowledge.base import KnowledgeBase
from knowledge.engines import version_tuple
from knowledge.loader import SECTIONS, SHIPPED_DIR, raw_entry_id
from knowledge.prices import DATE_PATTERN, KNOWN_CURRENCIES, Price
from knowledge.schema import GPU, Entry, InstanceLayout, Model, compact_vm_name

PARAMS_TOLERANCE = 0.15
"""params_b_computed (and active_params_b_computed) may differ from the published figure by this much."""
KV_TOLERANCE = 0.02
HEAD_DIM_RANGE = (32, 512)
MEMORY_GB_RANGE = (1.0, 1024.0)

OFFICIAL_QUANTS = frozenset(
    {"fp8", "mxfp4", "nvfp4", "int4", "int8", "awq-int4", "gptq-int4", "gptq-int8", "gguf", "w4a16", "w8a8"}
)
"""Names `official_quants` may use: one per published checkpoint format (the rules map them to byte sizes)."""
QUANT_TOKENS = frozenset({"fp8", "mxfp4", "nvfp4", "int4", "int8", "awq", "gptq", "gguf", "w4a16", "w8a8"})
"""Words in a repository name or a source line that mark a quantised release."""
PRECISION_EVIDENCE: dict[str, tuple[str, ...]] = {
    "fp32": ("fp32", "float32"),
    "fp16": ("fp16", "float16"),
    "fp8": ("fp8", "float8", "e4m3", "quantization_config"),
    "mxfp4": ("mxfp4", "quantization_config"),
    "int4": ("int4", "quantization_config"),
}
"""What a source line must mention to back a native precision other than bf16 (the default)."""

# Pascal consumer/workstation chips (everything but GP100) run FP16 at 1/64 of the FP32 rate.
_SLOW_FP16 = re.compile(r"pascal.*gp10[2-8]", re.IGNORECASE)


@dataclass(frozen=True)
class Problem:
    file: str
    entry: str | None
    field: str | None
    message: str

    def __str__(self) -> str:
        where = self.file
        if self.entry is not None:
            where += f": entry {self.entry!r}"
        if self.field is not None:
            where += f", field {self.field!r}"
        return f"{where}: {self.message}"


def run_checks(kb: KnowledgeBase, shipped_dir: Path | None = SHIPPED_DIR) -> list[Problem]:
    """Every problem found, in a stable order (files, then checks). An empty list means clean.

    `shipped_dir`: the directory whose files must not define one id twice (an id in a user directory that
    overrides a shipped one is allowed; that is what the directory is for). None skips that check.
    """
    problems: list[Problem] = []
    if shipped_dir is not None:
        problems.extend(_duplicate_ids(Path(shipped_dir)))
    problems.extend(_ambiguous_names(kb))
    for model in kb.models.values():
        problems.extend(_model_problems(kb, model))
    for gpu in kb.gpus.values():
        problems.extend(_gpu_problems(kb, gpu))
    for family in kb.instance_families.values():
        where = _origin(kb, "instance_families", family.family)
        if family.gpu_id is not None and family.gpu_id not in kb.gpus:
            problems.append(Problem(where, family.family, "gpu_id", f"no GPU with id {family.gpu_id!r}"))
    for entry in kb.faq.values():
        where = _origin(kb, "faq", entry.id)
        if not entry.answer.en.strip():
            problems.append(Problem(where, entry.id, "answer.en", "the English answer is empty"))
        if not entry.answer.zh_hans.strip():
            problems.append(Problem(where, entry.id, "answer.zh-Hans", "the Chinese answer is empty"))
        for lang, questions in (("en", entry.questions.en), ("zh", entry.questions.zh)):
            if not any(q.strip() for q in questions):
                problems.append(Problem(where, entry.id, f"questions.{lang}", "no non-empty question"))
    for price in kb.prices.values():
        problems.extend(price_problems(kb, price))
    for layout in kb.instance_types.values():
        problems.extend(instance_type_problems(kb, layout))
    problems.extend(_instance_name_clashes(kb))
    for section in ("models", "gpus", "instance_families", "products", "faq", "prices", "instance_types"):
        for entry_id, entry in getattr(kb, section).items():
            problems.extend(_entry_problems(_origin(kb, section, entry_id), entry_id, entry))
    for engine_id, profile in kb.engines.items():
        # A version rule whose `before` does not parse would silently never apply.
        for rule in profile.version_rules:
            if version_tuple(rule.before) is None:
                problems.append(Problem(_origin(kb, "engines", engine_id), engine_id, "version_rules.before",
                                        f"{rule.before!r} is not a version number"))
    return problems


def summary(kb: KnowledgeBase) -> str:
    """One line for a clean check: what the base holds."""
    return (
        f"knowledge base OK: {len(kb.models)} models, {len(kb.gpus)} GPUs, "
        f"{len(kb.instance_families)} instance families, {len(kb.products)} cloud products, "
        f"{len(kb.faq)} FAQ entries, {len(kb.prices)} prices, {len(kb.instance_types)} VM types"
    )


# --------------------------------------------------------------------------------------------------------


def _origin(kb: KnowledgeBase, section: str, entry_id: str) -> str:
    return kb.origins.get((section, entry_id), f"<{section}>")


def _duplicate_ids(directory: Path) -> Iterator[Problem]:
    """The loader merges by id, so one id in two shipped files silently drops one of them."""
    if not directory.is_dir():
        return
    first_seen: dict[tuple[str, str], Path] = {}
    for path in sorted(p for p in directory.iterdir() if p.suffix in {".yaml", ".yml"} and p.is_file()):
        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        except (OSError, yaml.YAMLError):
            continue  # the loader reports unreadable files
        if not isinstance(data, dict):
            continue
        for section, raw_entries in data.items():
            if section not in SECTIONS or not isinstance(raw_entries, list):
                continue
            key = SECTIONS[section][1]
            for raw in raw_entries:
                found_id = raw_entry_id(section, raw)
                if found_id is None:
                    continue
                entry_id = found_id
                earlier = first_seen.setdefault((section, entry_id), path)
                if earlier != path:
                    yield Problem(str(path), entry_id, key, f"{section} id already defined in {earlier}")


def _ambiguous_names(kb: KnowledgeBase) -> Iterator[Problem]:
    for section, index in (("models", kb.model_index), ("gpus", kb.gpu_index)):
        for key, ids in sorted(index.ambiguous.items()):
            owners = sorted(ids)
            yield Problem(
                _origin(kb, section, owners[-1]),
                ", ".join(owners),
                "aliases",
                f"the name {index.display(key)!r} (normalised {key!r}) is claimed by "
                f"{len(owners)} {section}: {', '.join(owners)}",
            )


def _entry_problems(where: str, entry_id: str, entry: Any) -> Iterator[Problem]:
    if not isinstance(entry, Entry):
        return
    if not entry.source or not all(isinstance(s, str) and s.strip() for s in entry.source):
        yield Problem(where, entry_id, "source", "every entry needs a non-empty source")


def expected_kv_kib(model: Model) -> float | None:
    """KV cache per token at 16 bits (KiB) from the architecture fields, or None when they are missing."""
    layers = model.num_layers
    if layers is None:
        return None
    if model.mla is not None:
        return layers * (model.mla.kv_lora_rank + model.mla.qk_rope_head_dim) * 2 / 1024
    head_dim = model.head_dim
    if head_dim is None and model.hidden_size and model.num_attention_heads:
        head_dim = model.hidden_size // model.num_attention_heads
    if model.num_kv_heads is None or head_dim is None:
        return None
    return 2 * layers * model.num_kv_heads * head_dim * 2 / 1024


def _model_problems(kb: KnowledgeBase, m: Model) -> Iterator[Problem]:
    where = _origin(kb, "models", m.id)
    for smaller in m.smaller_versions:
        if smaller not in kb.models:
            yield Problem(where, m.id, "smaller_versions", f"no model with id {smaller!r}")
    heads, kv = m.num_attention_heads, m.num_kv_heads
    if heads and kv:
        if kv > heads:
            yield Problem(where, m.id, "num_kv_heads", f"{kv} KV heads but only {heads} attention heads")
        elif heads % kv:
            yield Problem(where, m.id, "num_kv_heads", f"{heads} attention heads are not divisible by {kv} KV heads")
        if m.attention == "mha" and kv != heads:
            yield Problem(where, m.id, "attention", f"'mha' but {kv} KV heads for {heads} attention heads")
        if m.attention == "mqa" and kv != 1:
            yield Problem(where, m.id, "attention", f"'mqa' but {kv} KV heads (MQA shares one)")
        if m.attention == "gqa" and not 1 < kv < heads:
            yield Problem(where, m.id, "attention", f"'gqa' but {kv} KV heads for {heads} attention heads")
    if m.hidden_size and heads:
        derived = m.hidden_size / heads
        if m.head_dim is None:
            if m.hidden_size % heads:
                yield Problem(
                    where,
                    m.id,
                    "head_dim",
                    f"hidden_size {m.hidden_size} is not divisible by {heads} heads: state head_dim",
                )
        elif m.head_dim != derived and not HEAD_DIM_RANGE[0] <= m.head_dim <= HEAD_DIM_RANGE[1]:
            yield Problem(
                where,
                m.id,
                "head_dim",
                f"{m.head_dim} is neither hidden_size/heads ({derived:g}) nor within {HEAD_DIM_RANGE}",
            )
    elif m.head_dim is not None and not HEAD_DIM_RANGE[0] <= m.head_dim <= HEAD_DIM_RANGE[1]:
        yield Problem(where, m.id, "head_dim", f"{m.head_dim} is outside {HEAD_DIM_RANGE}")
    for stated_field, computed_field in (
        ("params_b", "params_b_computed"),
        ("active_params_b", "active_params_b_computed"),
    ):
        stated, computed = getattr(m, stated_field), getattr(m, computed_field)
        if stated and computed and abs(computed / stated - 1) > PARAMS_TOLERANCE:
            yield Problem(
                where,
                m.id,
                computed_field,
                f"{computed:g}B is more than {PARAMS_TOLERANCE:.0%} from {stated_field} {stated:g}B",
            )
    expected = expected_kv_kib(m)
    stated_kv = m.kv_cache_kib_per_token_16bit
    if stated_kv is not None and expected is not None and abs(stated_kv / expected - 1) > KV_TOLERANCE:
        formula = (
            "layers × (kv_lora_rank + qk_rope_head_dim) × 2 B" if m.mla else "2 × layers × kv_heads × head_dim × 2 B"
        )
        yield Problem(
            where,
            m.id,
            "kv_cache_kib_per_token_16bit",
            f"{m.kv_cache_kib_per_token_16bit:g} KiB but {formula} gives {expected:g} KiB",
        )
    if m.moe is not None:
        if m.active_params_b is not None and m.active_params_b >= m.params_b:
            yield Problem(
                where,
                m.id,
                "active_params_b",
                f"{m.active_params_b:g}B active is not below {m.params_b:g}B total for a MoE model",
            )
        if m.moe.experts_per_token > m.moe.num_experts:
            yield Problem(
                where,
                m.id,
                "moe.experts_per_token",
                f"{m.moe.experts_per_token} routed experts per token but only {m.moe.num_experts} experts",
            )
        if m.num_layers is not None and m.moe.first_k_dense >= m.num_layers:
            yield Problem(where, m.id, "moe.first_k_dense", f"{m.moe.first_k_dense} dense layers of {m.num_layers}")
    elif m.active_params_b is not None and m.active_params_b > m.params_b:
        yield Problem(where, m.id, "active_params_b", f"{m.active_params_b:g}B active exceeds {m.params_b:g}B")
    if m.sliding_window and m.max_context and m.sliding_window > m.max_context * 64:
        yield Problem(where, m.id, "sliding_window", f"{m.sliding_window} is implausibly larger than the context")
    yield from _precision_problems(where, m)


def _tokens(text: str) -> set[str]:
    return set(re.split(r"[^a-z0-9]+", text.lower()))


def _precision_problems(where: str, m: Model) -> Iterator[Problem]:
    """The release precision and the official variants must be named where the entry says it read them.

    A native precision other than bf16 changes every default sizing of the model, so a source line has to back
    it; a repository in `hf_ids` that names a quantised release (…-FP8, …-AWQ) must appear in
    `official_quants`, or a user asking for that checkpoint is sized in the wrong format.
    """
    source_text = " ".join(m.source).lower()
    evidence = PRECISION_EVIDENCE.get(m.native_precision)
    if evidence is not None and not any(word in source_text for word in evidence):
        yield Problem(
            where,
            m.id,
            "native_precision",
            f"{m.native_precision!r} is not backed by a source line (expected one naming {', '.join(evidence)})",
        )
    if m.native_precision in m.official_quants:
        yield Problem(where, m.id, "official_quants", f"lists the native precision {m.native_precision!r}")
    listed: set[str] = set()
    for quant in m.official_quants:
        if quant not in OFFICIAL_QUANTS:
            yield Problem(where, m.id, "official_quants", f"{quant!r} is not one of {sorted(OFFICIAL_QUANTS)}")
        listed |= _tokens(quant)
    named = _tokens(source_text) | set().union(*(_tokens(h) for h in m.hf_ids))
    for quant in m.official_quants:
        if not _tokens(quant) & named:
            yield Problem(where, m.id, "official_quants", f"{quant!r} is named by no source line or hf_id")
    for hf_id in m.hf_ids:
        missing = sorted((_tokens(hf_id) & QUANT_TOKENS) - listed)
        if missing:
            yield Problem(
                where, m.id, "official_quants", f"hf_id {hf_id!r} is a {'/'.join(missing)} release not listed here"
            )


def _gpu_problems(kb: KnowledgeBase, g: GPU) -> Iterator[Problem]:
    where = _origin(kb, "gpus", g.id)
    if not g.bandwidth_gbps > 0:
        yield Problem(where, g.id, "bandwidth_gbps", "must be positive")
    low, high = MEMORY_GB_RANGE
    if not low <= g.memory_gb <= high:
        yield Problem(where, g.id, "memory_gb", f"{g.memory_gb:g} GB is outside {low:g}..{high:g}")
    slow_fp16 = bool(_SLOW_FP16.search(g.architecture or ""))
    if g.fp16_tflops and g.fp32_tflops and g.fp16_tflops < g.fp32_tflops and not slow_fp16:
        yield Problem(
            where,
            g.id,
            "fp16_tflops",
            f"{g.fp16_tflops:g} is below fp32_tflops {g.fp32_tflops:g} (a dense FP16 tensor peak "
            "is at least the FP32 rate except on Pascal GP102-GP108)",
        )
    if g.bf16_tflops and g.fp32_tflops and g.bf16_tflops < g.fp32_tflops:
        yield Problem(where, g.id, "bf16_tflops", f"{g.bf16_tflops:g} is below fp32_tflops {g.fp32_tflops:g}")


def price_problems(kb: KnowledgeBase, p: Price) -> Iterator[Problem]:
    """A price row that loads but cannot be quoted: the bot would multiply it into a wrong total."""
    where = _origin(kb, "prices", p.key)
    for name in ("price_per_hour", "spot_price_per_hour", "median_price_per_hour"):
        value = getattr(p, name)
        if value is not None and not value > 0:
            yield Problem(where, p.key, name, f"{value:g} is not a positive price")
    if p.currency not in KNOWN_CURRENCIES:
        yield Problem(where, p.key, "currency", f"{p.currency!r} is not one of {', '.join(KNOWN_CURRENCIES)}")
    if p.gpu not in kb.gpus:
        yield Problem(where, p.key, "gpu", f"no GPU with id {p.gpu!r}")
    if p.count < 1:
        yield Problem(where, p.key, "count", f"{p.count} GPUs per instance; at least 1")
    if p.date is not None and not _valid_date(p.date):
        yield Problem(where, p.key, "date", f"{p.date!r} is not a YYYY-MM-DD date (leave it null when unknown)")


def instance_type_problems(kb: KnowledgeBase, layout: InstanceLayout) -> Iterator[Problem]:
    """A VM layout that loads but would size a question wrong: a card the base does not hold, or no card."""
    where = _origin(kb, "instance_types", layout.key)
    if layout.gpu not in kb.gpus:
        yield Problem(where, layout.key, "gpu", f"no GPU with id {layout.gpu!r}")
    if layout.count < 1:
        yield Problem(where, layout.key, "count", f"{layout.count} GPUs per VM; at least 1")
    for alias in layout.aliases:
        if not compact_vm_name(alias):
            yield Problem(where, layout.key, "aliases", f"{alias!r} is empty once spaces, '_' and '-' are dropped")


def _instance_name_clashes(kb: KnowledgeBase) -> Iterator[Problem]:
    """A name two VM types claim, or one a price row gives other cards: the bot reads such a name as neither, so
    the entry that claims it would be silently unreadable."""
    owners: dict[str, set[str]] = {}
    cards: dict[str, set[tuple[str, int]]] = {}
    for layout in kb.instance_types.values():
        for name in layout.names:
            owners.setdefault(compact_vm_name(name), set()).add(layout.key)
            cards.setdefault(compact_vm_name(name), set()).add((layout.gpu, layout.count))
    priced = {compact_vm_name(p.instance): (p.gpu, p.count, p.key) for p in kb.prices.values()}
    for name, keys in sorted(owners.items()):
        last = sorted(keys)[-1]
        if len(keys) > 1:
            yield Problem(_origin(kb, "instance_types", last), ", ".join(sorted(keys)), "aliases",
                          f"the name {name!r} is claimed by {len(keys)} VM types")
        elif name in priced and {priced[name][:2]} != cards[name]:
            gpu, count, key = priced[name]
            yield Problem(_origin(kb, "instance_types", last), last, "gpu",
                          f"the price row {key!r} gives {name!r} {count}× {gpu}")


def _valid_date(text: str) -> bool:
    if not re.match(DATE_PATTERN, text):
        return False
    try:
        _dt.date.fromisoformat(text)
    except ValueError:
        return False
    return True
