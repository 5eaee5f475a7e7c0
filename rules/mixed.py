"""One job on cards of different sizes ("a 3090 and a 3060", "4090 + 3090").

How an engine shares the job decides which card runs out first:
* layer-split engines (llama.cpp, transformers' device_map) give each card a slice of the layers. llama.cpp's
  default split is each card's free memory (src/llama-model.cpp load_tensors: with no --tensor-split,
  `splits[i] = free` from ggml_backend_dev_memory); a stated --tensor-split is used as stated. Each card then
  holds its blocks and their KV cache, and its own compute buffer; the job fits when every card does.
* tensor-parallel engines and data-parallel training give every card the same shard: the smallest card's limit
  decides, and the larger cards' extra memory goes unused.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal

from knowledge.schema import GPU
from rules.engine_profile import profile_for
from rules.hardware import usable_gib
from rules.layer_split import holds_on_host, split_layer_counts
from rules.limits import fits_on, is_tight, limit_gib, needed_gib
from rules.memory import estimate_memory, is_transformer
from rules.search import largest_true
from rules.speed import decode_step
from rules.types import Suggestion, Workload


@dataclass(frozen=True)
class CardFit:
    gpu_id: str
    need_gib: float
    limit_gib: float
    blocks: int | None = None
    """The blocks a layer split gives this card (None when every card holds the same shard)."""


@dataclass(frozen=True)
class MixedFit:
    fits: bool
    split: Literal["by-memory", "stated", "equal"]
    cards: list[CardFit]
    governing: int
    """The card with the least room left: the one a "no" or a "tight" is about."""
    tight: bool


def splits_layers(workload: Workload) -> bool:
    return profile_for(workload).multi_gpu.mode == "layer-split" and workload.task == "inference"


def _split_stated(workload: Workload, n: int) -> bool:
    """A --tensor-split with one share for each of the `n` cards."""
    return workload.layer_split is not None and len(workload.layer_split) == n


def split_by_memory(workload: Workload, cards: Sequence[GPU]) -> Workload:
    """The workload as a layer-split engine lays it over `cards`: a stated --tensor-split as stated, else each
    card's share of the layers is its free memory (llama.cpp's default); other engines unchanged."""
    if not splits_layers(workload) or _split_stated(workload, len(cards)):
        return workload
    return replace(workload, layer_split=tuple(usable_gib(card) for card in cards))


def check_mixed(workload: Workload, cards: Sequence[GPU]) -> MixedFit:
    """Whether `workload` fits `cards` (one entry per card, in the order named) as its engine shares it."""
    n = len(cards)
    if splits_layers(workload):
        w = split_by_memory(workload, cards)
        est = estimate_memory(w, n, cards[0])
        loads = est.chosen.get("card_loads_gib")
        blocks = est.chosen.get("card_blocks")
        if not isinstance(loads, list) or not isinstance(blocks, list):  # equal shares: an even split
            loads = [needed_gib(est)] * n
            blocks = split_layer_counts((1.0,) * n, workload.model.num_layers or 1)[0]
        fits = [CardFit(card.id, float(load), limit_gib(w, card), block)
                for card, load, block in zip(cards, loads, blocks, strict=True)]
        split: Literal["by-memory", "stated", "equal"] = "stated" if _split_stated(workload, n) else "by-memory"
    else:
        smallest = min(cards, key=lambda card: limit_gib(workload, card))
        _, est = fits_on(workload, smallest, n)
        need = needed_gib(est)
        fits = [CardFit(card.id, need, limit_gib(workload, card)) for card in cards]
        split = "equal"
    governing = min(range(n), key=lambda i: fits[i].limit_gib - fits[i].need_gib)
    worst = fits[governing]
    return MixedFit(fits=all(card.need_gib <= card.limit_gib for card in fits), split=split, cards=fits,
                    governing=governing, tight=is_tight(worst.need_gib, worst.limit_gib))


def mixed_alternatives(workload: Workload, cards: Sequence[GPU]) -> list[Suggestion]:
    """What lets a set of cards that cannot hold the job run it: for llama.cpp and Ollama, the most layer slots
    the set holds clear of the tight band with the rest in system RAM (-ngl; the set splits those slots by
    free memory). Other engines need other cards, which the picks give."""
    layers = workload.model.num_layers or 0
    if not layers or workload.gpu_layers is not None or not profile_for(workload).multi_gpu.host_offload_layers:
        return []

    def clear(slots: int) -> bool:
        fit = check_mixed(replace(workload, gpu_layers=slots), cards)
        return fit.fits and not fit.tight

    most = largest_true(clear, 1, layers)
    if most == 0:
        return []
    est = estimate_memory(split_by_memory(replace(workload, gpu_layers=most), cards), len(cards), cards[0])
    # no single per-card figure: each card of the set takes its own share
    return [Suggestion(kind="cpu-layers", count=len(cards), gpu_layers=most, host_ram_gib=est.host_ram_gib)]


def mixed_decode_tokens_per_s(workload: Workload, cards: Sequence[GPU], fit: MixedFit) -> float | None:
    """Decode tokens/s per sequence on a set of different cards shared as `fit` (check_mixed) says, or None
    where no figure is given (not a decoder, training, layers or experts read from system RAM).

    A layer split reads each card's blocks at that card's bandwidth, one card after another: the step's read
    time is the sum of each card's share of the single-card read time (rules/speed.decode_step). An engine that
    shards every layer equally waits for the slowest card at every layer: its step is the slowest card's."""
    model = workload.model
    profile = profile_for(workload)
    if (workload.task != "inference" or model.arch != "decoder" or not is_transformer(model)
            or holds_on_host(workload, profile)):
        return None
    n = len(cards)
    laid_out = split_by_memory(workload, cards)
    steps = [decode_step(laid_out, card, n) for card in cards]
    if fit.split == "equal":
        return 1.0 / max(step.total_s for step in steps)
    layers = model.num_layers or 1
    memory = sum(step.memory_s * (card.blocks or 0) / layers for step, card in zip(steps, fit.cards, strict=True))
    compute = max(step.compute_s for step in steps)
    return 1.0 / (max(memory, compute) + steps[0].overhead_s)
