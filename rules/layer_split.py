"""Where a layer-split engine puts each layer: which card, or the CPU.

llama.cpp (and accelerate's `device_map`) give each card a contiguous slice of the blocks; the output layer sits
whole on one card. llama.cpp can also leave the first layers in system RAM (-ngl). These helpers say what each
card then holds, for the memory rules and the speed rules alike.
"""

from __future__ import annotations

from dataclasses import dataclass

from knowledge.engines import EngineProfile
from knowledge.schema import Model
from rules import weight_formats as WF
from rules.precision import moe_expert_params, param_split
from rules.types import Workload


def split_layer_counts(shares: tuple[float, ...], blocks: int) -> tuple[list[int], int]:
    """(blocks per card, the card holding the output layer) for llama.cpp's --tensor-split: it counts the output
    layer as block number `blocks` and gives block i to the first card whose cumulative share exceeds
    i / (blocks + 1) (src/llama-model.cpp load_tensors, `std::upper_bound(splits, …, float(il) /
    act_gpu_layers)`, all layers offloaded)."""
    total = sum(shares)
    cumulative, running = [], 0.0
    for share in shares:
        running += share / total
        cumulative.append(running)
    counts = [0] * len(shares)
    output = len(shares) - 1
    for index in range(blocks + 1):
        card = next((d for d, edge in enumerate(cumulative) if index / (blocks + 1) < edge), len(shares) - 1)
        if index == blocks:
            output = card
        else:
            counts[card] += 1
    return counts, output


@dataclass(frozen=True)
class CardLayers:
    """The blocks one card of a layer split holds (`blocks` of them from block `first`) and whether it holds the
    output layer."""

    first: int
    blocks: int
    output: bool

    def share(self, layers: int) -> float:
        return self.blocks / layers if layers else 0.0


def _cards(counts: list[int], output: int, first: int) -> list[CardLayers]:
    cards = []
    for card, count in enumerate(counts):
        cards.append(CardLayers(first=first, blocks=count, output=card == output))
        first += count
    return cards


def stated_split(w: Workload, n: int) -> list[CardLayers] | None:
    """Each card's layers under a stated uneven --tensor-split, or None when the split is even or does not name
    one share per card."""
    shares, layers = w.layer_split, w.model.num_layers
    if not shares or len(shares) != n or n <= 1 or not layers or len(set(shares)) == 1:
        return None
    return _cards(*split_layer_counts(shares, layers), first=0)


def offloaded_slots(w: Workload, profile: EngineProfile) -> int | None:
    """The layer slots on the cards when -ngl / num_gpu leaves some in system RAM; None when all are loaded
    (or the engine cannot leave layers on the CPU)."""
    layers = w.model.num_layers
    if w.gpu_layers is None or not profile.multi_gpu.host_offload_layers or not layers:
        return None
    return w.gpu_layers if w.gpu_layers < layers + 1 else None


def experts_on_host(w: Workload, profile: EngineProfile) -> int:
    """How many of the first blocks keep their routed experts in system RAM (--n-cpu-moe N; --cpu-moe: all of
    them); 0 for a dense model or an engine that cannot."""
    layers = w.model.num_layers or 0
    if not w.cpu_moe_layers or not w.model.is_moe or not profile.multi_gpu.host_offload_layers:
        return 0
    return min(w.cpu_moe_layers, layers)


def holds_on_host(w: Workload, profile: EngineProfile) -> bool:
    """Whether part of the model stays in system RAM (-ngl below every slot, or --n-cpu-moe): each token then
    reads it from there."""
    return offloaded_slots(w, profile) is not None or experts_on_host(w, profile) > 0


def card_layers(w: Workload, n: int, profile: EngineProfile) -> list[CardLayers] | None:
    """Each card's layers when they differ from an even split of every layer: a stated uneven --tensor-split,
    layers left on the CPU (-ngl: the CPU holds the first blocks, the cards the last `gpu_layers` slots, split
    over them as --tensor-split says, evenly by default, the output layer last), or experts left there."""
    layers = w.model.num_layers
    slots = offloaded_slots(w, profile)
    if not layers or (slots is None and not experts_on_host(w, profile)):
        return stated_split(w, n)
    slots = layers + 1 if slots is None else slots
    if slots == 0:
        return [CardLayers(first=layers, blocks=0, output=False)] * n
    experts_off = experts_on_host(w, profile)
    if experts_off and n > 1 and not w.layer_split and slots == layers + 1:
        return balanced_expert_split(w.model, n, experts_off)
    shares = tuple(w.layer_split) if w.layer_split and len(w.layer_split) == n else (1.0,) * n
    return _cards(*split_layer_counts(shares, slots - 1), first=layers + 1 - slots)


def balanced_expert_split(model: Model, n: int, experts_off: int) -> list[CardLayers]:
    """The blocks each of `n` cards holds when the first `experts_off` blocks keep their experts in RAM, given the
    --tensor-split that evens out the cards' bytes (the reply states it). llama.cpp's default splits by block
    count, which would give the last card every block whose experts stay on the cards while the first ones hold
    attention alone (audit 17: 4 × 3090 then held no more than one 3090 does)."""
    layers = model.num_layers or 1
    expert_share = _expert_bytes_per_block(model, 1.0) * layers
    first_moe = model.moe.first_k_dense if model.moe else 0
    weights = [1.0 - expert_share if first_moe <= block < experts_off else 1.0 for block in range(layers)]
    total, counts, running, card = sum(weights), [0] * n, 0.0, 0
    for weight in weights:
        if card < n - 1 and running + weight / 2 > total * (card + 1) / n:
            card += 1
        counts[card] += 1
        running += weight
    return _cards(counts, n - 1, first=0)


def host_embedding_bytes(model: Model, quant: str | None) -> float:
    """The token-embedding table llama.cpp keeps in system RAM for a GGUF file (precision.gguf_card_bytes),
    at the file's type."""
    if quant not in WF.GGUF_BYTES_PER_PARAM or not model.vocab_size or not model.hidden_size:
        return 0.0
    return float(model.vocab_size * model.hidden_size) * WF.GGUF_BYTES_PER_PARAM[quant]


def _output_matrices(model: Model, precision: str, quant: str | None) -> tuple[float, float]:
    """(bytes of the weights outside the blocks, bytes of the one matrix a card holds whole): a GGUF file's output
    layer (its token embeddings stay in host RAM: precision.gguf_card_bytes), else the embedding and lm_head."""
    if quant in WF.GGUF_BYTES_PER_PARAM and model.vocab_size and model.hidden_size:
        output = float(model.vocab_size * model.hidden_size) * max(
            WF.GGUF_BYTES_PER_PARAM[quant], WF.GGUF_BYTES_PER_PARAM[WF.GGUF_OUTPUT_TYPE])
        return output, output
    per_param = WF.EMBEDDING_BYTES_QUANTISED if quant else WF.BYTES_PER_PARAM_PLAIN.get(precision, 2.0)
    embedding = param_split(model).embedding * per_param
    return embedding, embedding if (model.tie_embeddings or model.arch == "encoder") else embedding / 2


def _expert_bytes_per_block(model: Model, blocks_bytes: float) -> float:
    """One MoE block's routed experts: the experts' part of the blocks' bytes is their part of the blocks'
    parameters (the format's bytes per parameter apply to both alike)."""
    body = param_split(model).body
    if not model.moe or body <= 0:
        return 0.0
    moe_layers = max(1, (model.num_layers or 1) - model.moe.first_k_dense)
    return blocks_bytes * min(1.0, moe_expert_params(model) / body) / moe_layers


def _experts_moved(model: Model, card: CardLayers, experts_off: int) -> int:
    """How many of `card`'s blocks keep their experts in RAM (--n-cpu-moe: the MoE blocks among the first)."""
    first_moe = model.moe.first_k_dense if model.moe else 0
    return max(0, min(card.first + card.blocks, experts_off) - max(card.first, first_moe))


def layer_split_weights(model: Model, weights: float, precision: str, quant: str | None, n: int,
                        card: CardLayers | None = None, experts_off: int = 0) -> float:
    """Weights on the fullest card of a layer split over `n` cards: an n-th of the blocks plus one whole
    embedding / lm_head matrix (accelerate's `device_map="auto"` never splits a module) — or, for a stated
    uneven split or layers left on the CPU, that `card`'s blocks (less the routed experts of those among the
    first `experts_off` blocks, which stay in system RAM) and the output matrix if it holds it."""
    if n <= 1 and card is None:
        return weights
    layers = model.num_layers or 1
    if param_split(model).embedding <= 0:
        return weights * card.share(layers) if card is not None else weights / n
    embedding, one_matrix = _output_matrices(model, precision, quant)
    if card is None:
        return (weights - embedding) / n + one_matrix
    blocks = (weights - embedding) * card.share(layers)
    if experts_off:
        blocks -= _expert_bytes_per_block(model, weights - embedding) * _experts_moved(model, card, experts_off)
    return blocks + (one_matrix if card.output else 0.0)


def host_read_bytes(model: Model, weights: float, precision: str, quant: str | None, cards: list[CardLayers],
                    experts_off: int, kv: float) -> float:
    """Bytes each generated token reads from system RAM: every weight of the blocks left on the CPU (but of
    their routed experts only the ones a token is routed to), the routed experts kept there for the cards'
    blocks, the output layer if no card holds it, and the KV cache of the CPU's layers."""
    layers = model.num_layers or 1
    embedding, one_matrix = _output_matrices(model, precision, quant)
    blocks_bytes = weights - embedding
    per_expert_block = _expert_bytes_per_block(model, blocks_bytes)
    routed = model.moe.experts_per_token / model.moe.num_experts if model.moe else 1.0
    on_cards = sum(card.blocks for card in cards)
    first_on_card = min((card.first for card in cards), default=layers)
    cpu_moe_blocks = max(0, min(first_on_card, layers) - (model.moe.first_k_dense if model.moe else 0))
    read = blocks_bytes * (layers - on_cards) / layers - per_expert_block * cpu_moe_blocks * (1.0 - routed)
    read += per_expert_block * routed * sum(_experts_moved(model, card, experts_off) for card in cards)
    if not any(card.output for card in cards):
        read += one_matrix
    return read + kv * (layers - on_cards) / layers
