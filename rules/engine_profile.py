"""The engine profile a workload runs on, and the numbers the memory rules take from it.

The profiles are data (knowledge/data/engines.yaml, each field sourced); this module only picks the one a
workload names, applies its version, and turns its facts into bytes: KV element size, whether attention
scores are materialised, how many prompt positions keep logits, what the engine reserves up front, and how
training checkpoints and the loss hold memory.
"""

from __future__ import annotations

from collections.abc import Mapping

from knowledge.engine_facts import LogitsFact, ProfileRunFact, ReservationFact, TrainingFact
from knowledge.engines import EngineProfile, load_engine_profiles, version_tuple
from knowledge.schema import GPU
from rules import constants as C
from rules.hardware import usable_gib, visible_gib
from rules.memory_common import head_dim, num_layers
from rules.precision import normalise_quant
from rules.types import KVCache, Optimizer, Workload
from rules.vision_encoder import serves_as_encoder_decoder

DEFAULT_ENGINE = "transformers"


class UnsupportedKVCache(ValueError):
    """The workload asks for a KV-cache type its engine does not offer; the message names the accepted ones."""

    def __init__(self, engine: str, kv_cache: str, accepted: list[str]) -> None:
        self.engine, self.kv_cache, self.accepted = engine, kv_cache, accepted
        super().__init__(f"{engine} has no {kv_cache} KV cache; it accepts {', '.join(accepted)}")


def profile_for(w: Workload) -> EngineProfile:
    """The profile of `w.engine` at `w.engine_version` on `w.engine_backend` (an unknown engine sizes as
    transformers); an encoder-decoder model runs on the backend the engine keeps for those when none is named."""
    profiles = load_engine_profiles()
    profile = profiles.get(w.engine) or profiles[DEFAULT_ENGINE]
    return _at_version(profile, w.engine_version, backend_for(w, profile))


def backend_for(w: Workload, profile: EngineProfile) -> str | None:
    """The backend the workload runs on: the one it names if the engine offers it, else the engine's
    encoder-decoder backend for such a model, else None (the version's default)."""
    if w.engine_backend in profile.backends:
        return w.engine_backend
    return profile.encoder_decoder_backend if serves_as_encoder_decoder(w.model) else None


_RESOLVED: dict[tuple[int, str | None, str | None], tuple[EngineProfile, EngineProfile]] = {}
"""Profiles already resolved for a version and backend: a pick search sizes the same workload on hundreds of
card sets, and applying the version rules each time took most of a reply's time (0.4 s of 0.5 for Llama 3.2
Vision on vLLM). Keyed by the profile object, which the entry keeps alive, so a reloaded profile is not
confused with an old one."""


def _at_version(profile: EngineProfile, version: str | None, backend: str | None) -> EngineProfile:
    key = (id(profile), version, backend)
    hit = _RESOLVED.get(key)
    if hit is not None and hit[0] is profile:
        return hit[1]
    resolved = profile.at_version(version, backend)
    if len(_RESOLVED) >= 512:
        _RESOLVED.clear()
    _RESOLVED[key] = (profile, resolved)
    return resolved


def runs_on_encoder_decoder_backend(w: Workload) -> bool:
    """Whether the workload's model runs on the engine's encoder-decoder backend although the release asked
    for (an unstated one is the newest) defaults to another: what the reply should say it was sized as."""
    profile = load_engine_profiles().get(w.engine)
    if profile is None or w.engine_backend in profile.backends:
        return False
    backend = backend_for(w, profile)
    if backend is None:
        return False
    default_until = max((version_tuple(rule.before) or () for rule in profile.version_rules
                         if rule.backend == backend), default=())
    return w.engine_version is None or (version_tuple(w.engine_version) or ()) >= default_until


KV_DTYPE_BYTES: dict[str, float] = {"fp16": 2.0, "bf16": 2.0, "fp8": 1.0, "int8": 1.0, "int4": 0.5}
"""Bytes per element of each KV-cache type as the engines store it (fp8 and int8 one byte, int4 half)."""


def same_size_kv_cache(requested: str, offered: Mapping[KVCache, float]) -> KVCache | None:
    """The KV-cache type the engine offers at the size of the one asked, when it lacks that one (vLLM has no int8
    cache, but fp8 holds the same tokens in the same memory); None when it offers none of that size."""
    size = KV_DTYPE_BYTES.get(requested)
    return next((kind for kind, bytes_ in offered.items() if size is not None and bytes_ == size), None)


def kv_element_bytes(w: Workload, profile: EngineProfile) -> float:
    """Bytes per KV-cache element: the model's compute dtype unless `w.kv_cache` names one the engine offers."""
    if w.kv_cache is None:
        return C.KV_BYTES.get(w.precision, 2.0)
    table = profile.kv_cache.bytes_per_element
    if w.kv_cache not in table:
        raise UnsupportedKVCache(profile.id, w.kv_cache, list(table))
    if kv_quantisation_inert(w, profile):
        return table.get("fp16", 2.0)
    return table[w.kv_cache]


def kv_quantisation_inert(w: Workload, profile: EngineProfile) -> bool:
    """A quantised KV type asked for without flash attention on an engine that quantises only with it: the
    cache stays 16-bit (Ollama ignores the setting; llama.cpp refuses a quantised V cache)."""
    table = profile.kv_cache.bytes_per_element
    return (profile.kv_cache.quantised_needs_flash_attention and not w.flash_attention
            and w.kv_cache is not None and table.get(w.kv_cache, 2.0) < table.get("fp16", 2.0))


def mla_head_sizes(w: Workload, profile: EngineProfile) -> tuple[int, int] | None:
    """K and V elements per attention head when the engine caches a multi-head latent attention model per
    head (transformers always; vLLM before its MLA back end, or with a weight format that back end did not
    take); None when it caches the compressed latent, or the model has no latent attention.

    DeepSeek-V3 per head in transformers: K 128 + 64, V 128 for 128 heads × 61 layers = 4.77 MiB per token in
    16-bit, where the latent is 61 × 576 × 2 B = 69 KiB: 70 times less."""
    mla = w.model.mla
    if w.model.attention != "mla" or mla is None:
        return None
    fact = profile.kv_cache
    if fact.mla_cache == "latent":
        allowed = fact.mla_latent_quants
        quant = normalise_quant(w.quant, w.precision, profile.id)
        if allowed is None or quant is None or quant in allowed:
            return None
    query_key = (mla.qk_nope_head_dim or 0) + mla.qk_rope_head_dim
    value = mla.v_head_dim or query_key
    if fact.mla_head_size == "qk":
        return query_key, query_key
    if isinstance(fact.mla_head_size, int):
        return fact.mla_head_size, fact.mla_head_size
    return query_key, value


def scores_materialised(w: Workload, profile: EngineProfile) -> bool:
    """Eager attention (heads × s² scores in memory): asked for, or the engine's (version's) default."""
    return (not w.flash_attention) or profile.attention.scores_materialised


def prefill_logits_bytes(logits: LogitsFact, vocab: int, prompt: int, batch: int) -> float:
    """Logits held at the end of prefill: the last position, or every prompt position (old transformers)."""
    positions = prompt if logits.positions == "all" else 1
    return logits.bytes_per_value * vocab * positions * batch


def rope_table_bytes(w: Workload, profile: EngineProfile | None = None) -> float:
    """Rotary cos/sin tables an old modelling code keeps in every attention layer: 2 tables ×
    max_position_embeddings × head_dim in the load dtype (fp32 when the model loads in fp32, else 16-bit), per
    layer. Qwen2-7B on transformers 4.38: 28 × 2 × 32768 × 128 × 2 B = 0.44 GiB; Qwen2-0.5B's 0.19 GiB is a
    fifth of its weights. 0 where the engine (version) computes only the positions in use."""
    model = w.model
    profile = profile or profile_for(w)
    positions = model.rope_positions
    if model.family not in profile.runtime.rope_tables_per_layer or not positions or not model.num_attention_heads:
        return 0.0
    table_bytes = 4.0 if w.precision == "fp32" else 2.0
    return num_layers(model) * 2 * positions * head_dim(model) * table_bytes


def reservation(profile: EngineProfile) -> ReservationFact:
    return profile.reservation


def training_fact(w: Workload, profile: EngineProfile | None = None) -> TrainingFact:
    """How checkpointing and the loss hold memory: the engine's, else transformers' (the base every training
    front end here builds on). `profile`: w's profile when the caller has it already."""
    profile = profile or profile_for(w)
    if profile.training is not None:
        return profile.training
    base = load_engine_profiles()[DEFAULT_ENGINE].at_version(w.engine_version)
    assert base.training is not None
    return base.training


def loss_shift_copy_bytes(w: Workload, fact: TrainingFact | None = None) -> float:
    """Bytes per (token, vocab) value of the shifted logits copy the loss makes: the model's own code's when
    transformers runs its remote code, else the engine (version)'s."""
    fact = fact or training_fact(w)
    if w.model.remote_code is not None and not fact.own_modelling:
        return w.model.remote_code.loss_shift_copy_bytes
    return fact.loss_shift_copy_bytes


def runs_model_code(w: Workload, fact: TrainingFact | None = None) -> bool:
    """Whether the engine can run the model at all: one with its own implementations (Unsloth, torchtune) has
    none for a model that ships its own modelling code (ChatGLM, Qwen-1), so it is never offered for one."""
    if w.model.remote_code is None or w.task == "inference":
        return True
    return not (fact or training_fact(w)).own_modelling


def optimizer_for(w: Workload, fact: TrainingFact | None = None) -> Optimizer:
    """The optimizer the job trains with: the one named, else the engine's documented default, else AdamW (the
    HF Trainer's)."""
    return w.optimizer or (fact or training_fact(w)).optimizer_default or "adamw"


def caches_blocks_by_shape(w: Workload, profile: EngineProfile | None = None) -> bool:
    """Whether the figure includes the caching allocator's blocks kept per tensor shape: not when sizing
    allocated bytes, nor under expandable segments (Unsloth), which grow one region in place."""
    return not (w.allocated_only or (profile or profile_for(w)).allocator.kind == "pytorch-expandable")


def reserves_up_front(w: Workload) -> bool:
    """Inference on an engine that sizes its KV pool from the card, not from the job."""
    return w.task == "inference" and profile_for(w).reservation.kind != "none"


def engine_limit_gib(w: Workload, gpu: GPU, activations_gib: float = 0.0) -> float:
    """The most one card can give the job on this engine, CUDA context excluded.

    `fraction_of_total` engines (vLLM `gpu_memory_utilization`, SGLang `mem_fraction_static`) never use more
    than their fraction of the card, and the rest is their headroom; the others can use the whole card (the
    reply recommends leaving HEADROOM_FRACTION of it free, but that is advice, not the limit).
    """
    profile = profile_for(w)
    if w.task == "inference" and profile.reservation.kind == "fraction_of_total":
        return reserved_share_gib(profile, gpu, w.memory_fraction, activations_gib)
    return usable_gib(gpu)


def reservation_fraction(w: Workload, profile: EngineProfile) -> float | None:
    """The share a reserving engine takes: the one the job states (its flag), else the profile's default."""
    return w.memory_fraction if w.memory_fraction is not None else profile.reservation.fraction


def measures_free_memory(profile: EngineProfile, fraction: float | None) -> bool:
    """Whether the engine sizes its KV cache from the memory measured free after warmup (vLLM's extensible KV
    cache, reservation.margin_gib) rather than from a share of the card: its own default, or a stated share of
    the whole card (`fraction` 1.0); a smaller stated share caps it instead."""
    return profile.reservation.margin_gib is not None and (fraction is None or fraction >= 1.0)


def reserved_share_gib(profile: EngineProfile, gpu: GPU, fraction: float | None = None,
                       activations_gib: float = 0.0) -> float:
    """What a `fraction_of_total` engine lets the job use on `gpu`: its fraction of the card (`fraction`, else
    the profile's), less the CUDA context unless the engine's own profile accounts for it (vLLM counts its
    non-KV memory itself, and V1 leaves the context outside the fraction). An engine that sizes its KV cache
    from the memory free after warmup (reservation.margin_gib) gets at most the card less the CUDA context and
    its margin, which grows with the activation peak `activations_gib`."""
    res = profile.reservation
    share = (fraction or res.fraction or 1.0) * visible_gib(gpu)
    share = share if profile.profile_run is not None else share - C.CUDA_CONTEXT_GIB
    if res.margin_gib is not None:
        margin = max(res.margin_gib, (res.margin_activation_fraction or 0.0) * activations_gib)
        share = min(share, visible_gib(gpu) - C.CUDA_CONTEXT_GIB - margin)
    return share


def is_large_card(fact: ProfileRunFact, gpu: GPU | None) -> bool:
    """Whether vLLM picks its bigger defaults on this card: by memory (and not an excluded name) or by name."""
    if gpu is None:
        return False
    name = f"{gpu.id} {gpu.name}".lower()
    if any(excluded in name for excluded in fact.large_card_excluded):
        return False
    if any(named in name for named in fact.large_card_names):
        return True
    return fact.large_card_gib is not None and visible_gib(gpu) >= fact.large_card_gib


def takes_prefill_chunk(profile: EngineProfile) -> bool:
    """Whether a stated tokens-per-forward-pass (`Workload.prefill_chunk`) changes this engine's figures: it
    replaces the engine's own chunk (llama.cpp's micro-batch, TensorRT-LLM's max_num_tokens) or the profiled
    forward pass (vLLM). Engines that prefill a prompt whole, or fold it into a planner figure (SGLang), ignore
    it."""
    return profile.runtime.prefill_chunk_tokens is not None or profile.profile_run is not None


def profile_run_size(fact: ProfileRunFact, gpu: GPU | None, context: int, max_num_seqs: int | None = None,
                     batched_tokens: int | None = None, multimodal: bool = False) -> tuple[int, int]:
    """(requests in the sampler warm-up, tokens in the profiled forward pass) on `gpu`: `max_num_seqs` and
    `batched_tokens` (max_num_batched_tokens) when the job sets them, else the engine's defaults for that card;
    with no card named, the ordinary cards' (most cards are not large). A `multimodal` model may have its own
    floor and no automatic chunking (V0)."""
    large = is_large_card(fact, gpu)
    sequences = max_num_seqs or (fact.large_card_sequences if large else None) or fact.sequences
    tokens = batched_tokens or (fact.large_card_tokens if large else None) or fact.tokens
    if tokens is None:
        chunked = (fact.chunked_above is not None and fact.chunked_tokens is not None
                   and context > fact.chunked_above and (fact.multimodal_chunked or not multimodal))
        if chunked:
            assert fact.chunked_tokens is not None
            tokens = fact.chunked_tokens
        else:
            floor = fact.multimodal_tokens_floor if multimodal else None
            tokens = max(context, fact.tokens_floor or 0, floor or 0)
    return sequences, tokens
