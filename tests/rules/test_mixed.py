"""One job on cards of different sizes: llama.cpp splits the layers by free memory, tensor-parallel engines give
every card the same shard. Hand-computed on the toy 7B model (32 layers) in GGUF Q8_0."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules import Workload, check_mixed, estimate_memory, split_by_memory
from rules.hardware import usable_gib
from rules.layer_split import split_layer_counts
from rules.limits import limit_gib
from tests.rules._models import make_gpu, make_model

BIG = make_gpu(id="big", memory_gb=24.0)
SMALL = make_gpu(id="small", memory_gb=8.0)
W = Workload(model=make_model(), engine="llama.cpp", context=4096, quant="gguf-q8_0", precision="int8")


def test_llama_cpp_splits_the_layers_by_each_cards_free_memory() -> None:
    laid = split_by_memory(W, [BIG, SMALL])
    assert laid.layer_split == (usable_gib(BIG), usable_gib(SMALL))
    counts, output = split_layer_counts(laid.layer_split, 32)
    fit = check_mixed(W, [BIG, SMALL])
    assert fit.split == "by-memory" and [c.blocks for c in fit.cards] == counts and output == 1
    # each card's need: its blocks' weights and KV cache, plus its own compute buffer and overhead
    est = estimate_memory(laid, 2, BIG)
    assert [c.need_gib for c in fit.cards] == pytest.approx(est.chosen["card_loads_gib"])
    assert fit.fits == all(c.need_gib <= c.limit_gib for c in fit.cards)
    assert fit.governing == min(range(2), key=lambda i: fit.cards[i].limit_gib - fit.cards[i].need_gib)


def test_a_stated_tensor_split_is_kept() -> None:
    stated = replace(W, layer_split=(1.0, 1.0))
    assert split_by_memory(stated, [BIG, SMALL]).layer_split == (1.0, 1.0)
    assert check_mixed(stated, [BIG, SMALL]).split == "stated"


def test_tensor_parallel_engines_are_held_to_the_smallest_card() -> None:
    vllm = replace(W, engine="vllm", quant=None, precision="bf16")
    fit = check_mixed(vllm, [BIG, SMALL])
    assert fit.split == "equal" and fit.cards[0].need_gib == fit.cards[1].need_gib
    assert fit.cards[1].limit_gib == pytest.approx(limit_gib(vllm, SMALL))
    assert fit.governing == 1 and not fit.fits  # half of 14 GB of weights, and activations, past 90% of 8 GB
    assert split_by_memory(vllm, [BIG, SMALL]) == vllm


def test_a_set_that_cannot_hold_a_llama_cpp_model_is_offered_layers_in_ram() -> None:
    from rules import mixed_alternatives

    small = make_gpu(id="tiny", memory_gb=3.0)
    assert not check_mixed(W, [SMALL, small]).fits  # 7.4 GB of Q8_0 weights and 2 GiB of KV over 8 + 3 GB
    offered = mixed_alternatives(W, [SMALL, small])
    assert [s.kind for s in offered] == ["cpu-layers"] and offered[0].host_ram_gib
    slots = offered[0].gpu_layers or 0
    fit = check_mixed(replace(W, gpu_layers=slots), [SMALL, small])
    assert fit.fits and not fit.tight
    more = check_mixed(replace(W, gpu_layers=slots + 1), [SMALL, small])
    assert not more.fits or more.tight
    assert mixed_alternatives(replace(W, engine="vllm", quant=None, precision="bf16"), [SMALL, small]) == []


def test_a_layer_split_over_different_cards_decodes_at_the_sum_of_their_read_times() -> None:
    from rules import mixed_decode_tokens_per_s
    from rules.speed import decode_step

    fit = check_mixed(W, [BIG, SMALL])
    laid = split_by_memory(W, [BIG, SMALL])
    big, small = decode_step(laid, BIG, 2), decode_step(laid, SMALL, 2)
    blocks = [card.blocks or 0 for card in fit.cards]
    memory = big.memory_s * blocks[0] / 32 + small.memory_s * blocks[1] / 32
    expected = 1.0 / (max(memory, big.compute_s, small.compute_s) + big.overhead_s)
    assert mixed_decode_tokens_per_s(W, [BIG, SMALL], fit) == pytest.approx(expected)
    slow = make_gpu(id="slow", memory_gb=24.0, bandwidth_gbps=500.0)
    # a slower card holding part of the layers slows the token down, but less than if it held them all
    mixed = mixed_decode_tokens_per_s(W, [BIG, slow], check_mixed(W, [BIG, slow])) or 0.0
    assert 1.0 / decode_step(W, slow, 2).total_s < mixed < 1.0 / decode_step(W, BIG, 2).total_s
    # vLLM waits for the slowest card at every layer; layers in system RAM get no figure
    vllm = replace(W, engine="vllm", quant=None, precision="bf16")
    both = [BIG, make_gpu(id="slow80", bandwidth_gbps=500.0)]
    assert mixed_decode_tokens_per_s(vllm, both, check_mixed(vllm, both)) == pytest.approx(
        1.0 / max(decode_step(vllm, card, 2).total_s for card in both))
    offloaded = replace(W, gpu_layers=10)
    assert mixed_decode_tokens_per_s(offloaded, [BIG, SMALL], check_mixed(offloaded, [BIG, SMALL])) is None
