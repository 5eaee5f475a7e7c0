"""Engine profiles: how each runtime holds a job in GPU memory, as data with a source for every field.

The same model and workload need very different memory on different runtimes: transformers before
`num_logits_to_keep` materialises fp32 logits for every prompt token, eager attention materialises
heads × s² scores, serving engines reserve a fixed share of the card up front and may store the KV cache in
8 or 4 bits, Unsloth offloads its checkpoints to host RAM. The sizing rules read these profiles instead of
branching on engine names, and the reply states which profile it used.

`knowledge/data/engines.yaml` holds the shipped profiles; `load_engine_profiles()` reads them (and a user
directory's overrides, as the knowledge loader does) without loading the rest of the knowledge base, so the
rules can reach them cheaply.
"""

from __future__ import annotations

import os
import re
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from knowledge.engine_facts import (
    AllocatorFact,
    AttentionFact,
    BatchBuffersFact,
    DpAttentionFact,
    ExpertPaddingFact,
    Fact,
    Float16RefusalFact,
    FormatFloorFact,
    HardwareFact,
    KVCacheFact,
    LogitsFact,
    MultiGpuFact,
    ProfileRunFact,
    ReservationFact,
    RuntimeFact,
    TrainingFact,
)
from knowledge.errors import KnowledgeDataError
from knowledge.schema import Entry


def engine_min_capability(engine: str | None) -> float | None:
    """The oldest compute capability the engine runs on at all (vLLM: 7.0), or None when it states none."""
    profile = load_engine_profiles().get(engine or "")
    return profile.format_floor.engine_min_capability if profile is not None and profile.format_floor else None


def format_min_capability(engine: str | None, quant: str | None, *, with_engine_floor: bool = True) -> float | None:
    """The compute capability the engine's kernels for weight format `quant` need (its profile's format_floor),
    at least the engine's own floor unless `with_engine_floor` is False (a reply explaining why the format cannot
    run names the format's floor, not the engine's); None when the engine states no floor for it."""
    profile = load_engine_profiles().get(engine or "")
    floor = profile.format_floor if profile is not None else None
    if floor is None:
        return None
    engine_floor = floor.engine_min_capability if with_engine_floor else None
    found = [f for f in (floor.min_capability.get(quant or ""), engine_floor) if f is not None]
    return max(found) if found else None


def refuses_float16(engine: str | None, family: str | None) -> bool:
    """Whether the engine refuses float16 for the model's family (vLLM and Gemma 2/3): such a job needs bf16."""
    profile = load_engine_profiles().get(engine or "")
    refused = profile.float16_refused if profile is not None else None
    return refused is not None and family in refused.families


def offloads_parameters(engine: str | None) -> bool:
    """Whether the engine's one "CPU offload" moves the parameters (FSDP) rather than the optimizer states
    (DeepSpeed's ZeRO-Offload): how the rules size it and how the reply names it."""
    profile = load_engine_profiles().get(engine or "")
    return profile is not None and profile.training is not None and profile.training.cpu_offload == "parameters"


RULE_FACTS: dict[str, type[Fact]] = {}
"""Profile field → its fact class, for the facts a version rule may change (filled below the classes)."""


class VersionRule(BaseModel):
    """Behaviour that applies to versions before `before` (the version that changed it) — or, for a rule of a
    `backend`, whenever a question names that backend, and never when it names another.

    Each fact states only the fields that were different, with the source that says so; the rest is the
    newer behaviour's. A fact the newer profile lacks (training on a serving engine) must be stated whole.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    before: str
    backend: str | None = None
    """The execution backend this behaviour belongs to, one of the profile's `backends` (TensorRT-LLM's TensorRT
    engine, the default before 1.0 and still chosen with trtllm-build or the Triton backend)."""
    logits: dict[str, Any] | None = None
    attention: dict[str, Any] | None = None
    reservation: dict[str, Any] | None = None
    training: dict[str, Any] | None = None
    allocator: dict[str, Any] | None = None
    runtime: dict[str, Any] | None = None
    profile_run: dict[str, Any] | None = None
    batch_buffers: dict[str, Any] | None = None
    kv_cache: dict[str, Any] | None = None

    def changes(self) -> dict[str, dict[str, Any]]:
        """The facts this rule changes, by profile field."""
        return {key: value for key in RULE_FACTS if (value := getattr(self, key)) is not None}


class EngineProfile(Entry):
    """One runtime. `aliases` are other names for the same runtime (ollama → llama.cpp)."""

    id: str
    name: str
    aliases: list[str] = Field(default_factory=list)
    role: Literal["serving", "training", "both"]
    built_on: str | None = None
    """Training front ends built on another engine (LLaMA-Factory on transformers) inherit what they do not
    state."""
    attention: AttentionFact
    logits: LogitsFact
    kv_cache: KVCacheFact
    reservation: ReservationFact
    multi_gpu: MultiGpuFact
    runtime: RuntimeFact
    allocator: AllocatorFact
    training: TrainingFact | None = None
    profile_run: ProfileRunFact | None = None
    """Serving engines that size their KV pool from a start-up profiling run (vLLM); None = the reservation's
    generic rule."""
    batch_buffers: BatchBuffersFact | None = None
    """Per-slot runtime buffers taken before the KV pool (None: the runtime allocates none worth sizing)."""
    hardware: HardwareFact | None = None
    """The GPU makers the engine runs on (None: not restricted here; the profile names none it cannot run on)."""
    format_floor: FormatFloorFact | None = None
    """Weight formats that need a newer card than the engine itself (None: none restricted here)."""
    dp_attention: DpAttentionFact | None = None
    """How the engine runs attention data-parallel across its ranks (None: it cannot)."""
    float16_refused: Float16RefusalFact | None = None
    """Model families the engine will not run in float16 (None: it runs every model in float16)."""
    expert_padding: list[ExpertPaddingFact] = Field(default_factory=list)
    """Quantised MoE formats whose expert matrices the runtime pads on some cards (empty: none)."""
    backends: list[str] = Field(default_factory=list)
    """Execution backends a question may name, the current default first (empty: the engine has one)."""
    encoder_decoder_backend: str | None = None
    """The backend that runs encoder-decoder models (cross-attention vision models) whatever the version asked
    for (vLLM: V0, the engine that serves them until its removal); None = the version's default."""
    version_rules: list[VersionRule] = Field(default_factory=list)

    @model_validator(mode="after")
    def _rules_apply(self) -> EngineProfile:
        """Every version a rule describes must make a valid profile: a rule's fields are checked at start-up
        against the fact they change (a misspelt or missing field names the rule's version)."""
        if self.encoder_decoder_backend is not None and self.encoder_decoder_backend not in self.backends:
            raise ValueError(f"encoder_decoder_backend {self.encoder_decoder_backend!r} is not one of the "
                             f"profile's backends {self.backends}")
        for rule in self.version_rules:
            if version_tuple(rule.before) is None:
                raise ValueError(f"version rule before {rule.before!r}: not a version number")
            if rule.backend is not None and rule.backend not in self.backends:
                raise ValueError(f"version rule before {rule.before}: backend {rule.backend!r} is not one of "
                                 f"the profile's backends {self.backends}")
            for key, fields in rule.changes().items():
                if "source" not in fields:
                    raise ValueError(f"version rule before {rule.before}: {key} needs its own source")
            try:
                self.at_version(_just_below(rule.before))
            except ValueError as exc:
                raise ValueError(f"version rule before {rule.before}: {exc}") from None
        return self

    def at_version(self, version: str | None, backend: str | None = None) -> EngineProfile:
        """This profile as it behaved at `version` (None or unparsable = the current behaviour) on `backend`
        (None = the version's default): the rules of every version it predates, newest first, each changing
        only the fields it states; a backend's rules apply whenever it is named and never when another is."""
        if not self.version_rules or not (version or backend):
            return self
        wanted = version_tuple(version) if version else None
        facts: dict[str, dict[str, Any]] = {}
        for rule in sorted(self.version_rules, key=lambda r: version_tuple(r.before) or (), reverse=True):
            before = version_tuple(rule.before)
            named = backend is not None and rule.backend == backend
            dated = (wanted is not None and before is not None and wanted < before
                     and (backend is None or rule.backend in (None, backend)))
            if not (named or dated):
                continue
            for key, fields in rule.changes().items():
                current = facts.get(key)
                if current is None:
                    fact = getattr(self, key)
                    # A newer fact's notes describe that fact: an older one keeps only its own.
                    current = fact.model_dump(exclude_unset=True, exclude={"notes"}) if fact is not None else {}
                facts[key] = {**current, **fields}
        if not facts:
            return self
        updates: dict[str, Fact] = {}
        for key, fields in facts.items():
            try:
                updates[key] = RULE_FACTS[key].model_validate(fields)
            except ValidationError as exc:
                first = exc.errors()[0]
                where = ".".join([key, *(str(part) for part in first["loc"])])
                raise ValueError(f"{where}: {first['msg']}") from None
        return self.model_copy(update=updates)


def _just_below(version: str) -> str:
    """A version just older than `version` ("4.49" → "4.48.9999"), to check what a rule describes."""
    parts = list(version_tuple(version) or (0,))
    while parts and parts[-1] == 0:
        parts.pop()
    if not parts:
        return "0"
    parts[-1] -= 1
    return ".".join(map(str, parts)) + ".9999"


RULE_FACTS.update(logits=LogitsFact, attention=AttentionFact, reservation=ReservationFact, training=TrainingFact,
                  allocator=AllocatorFact, runtime=RuntimeFact, profile_run=ProfileRunFact,
                  batch_buffers=BatchBuffersFact, kv_cache=KVCacheFact)


def version_tuple(text: str) -> tuple[int, ...] | None:
    """'4.38.2' → (4, 38, 2); 'v0.6' → (0, 6); None when no number leads the text."""
    match = re.match(r"\s*v?(\d+(?:\.\d+)*)", text)
    if not match:
        return None
    return tuple(int(part) for part in match.group(1).split("."))


ENGINES_FILE = Path(__file__).with_name("data") / "engines.yaml"
USER_DIR_ENV = "GPU_ADVISOR_KB"


def _read_profiles(path: Path) -> dict[str, EngineProfile]:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError) as exc:
        raise KnowledgeDataError(str(path), None, None, f"cannot be read: {exc}") from exc
    profiles: dict[str, EngineProfile] = {}
    for raw in data.get("engines", []) or []:
        try:
            profile = EngineProfile.model_validate(raw)
        except ValidationError as exc:
            first = exc.errors()[0]
            field = ".".join(str(part) for part in first["loc"]) or None
            raise KnowledgeDataError(str(path), str(raw.get("id")), field, first["msg"]) from None
        profiles[profile.id] = profile
    return profiles


@lru_cache(maxsize=1)
def load_engine_profiles() -> dict[str, EngineProfile]:
    """Shipped profiles, then `$GPU_ADVISOR_KB/engines.yaml` over them by id."""
    profiles = _read_profiles(ENGINES_FILE)
    user_dir = os.environ.get(USER_DIR_ENV)
    if user_dir and (Path(user_dir) / "engines.yaml").is_file():
        profiles.update(_read_profiles(Path(user_dir) / "engines.yaml"))
    return profiles


def resolve_engine_id(name: str, profiles: dict[str, EngineProfile] | None = None) -> str | None:
    """The profile id for an engine name or alias (case-insensitive), or None."""
    profiles = profiles if profiles is not None else load_engine_profiles()
    low = name.strip().lower()
    for profile in profiles.values():
        if low == profile.id or low in (a.lower() for a in profile.aliases):
            return profile.id
    return None
