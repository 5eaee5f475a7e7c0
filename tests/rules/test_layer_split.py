"""llama.cpp's -ngl: the cards hold the last layer slots (the output layer is the last), the CPU the rest.

Expected values worked out by hand on the toy 7B model (32 layers, hidden 4096, 32 KV heads of 128, untied
32,000 vocabulary) in GGUF Q8_0 (1.0625 bytes per parameter; its output layer stays at Q8_0, above Q6_K).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from knowledge.schema import MoE
from rules import Workload, check_fit, estimate_memory
from rules import constants as C
from rules.alternatives import suggestions
from rules.speed import estimate_speed
from tests.rules._models import make_gpu, make_model

GIB = C.GIB
Q8 = 34 / 32
OUTPUT = 32_000 * 4096 * Q8
"""The output layer's bytes; the token-embedding table, in host RAM, is the same size."""
KV_TOTAL = 4096 * 524_288
"""4,096 tokens × 524,288 KV bytes per token (32 layers × 2 × 4096 × 2 B)."""
W = Workload(model=make_model(), engine="llama.cpp", context=4096, quant="gguf-q8_0", precision="int8")


def _body() -> float:
    """The 32 blocks' bytes: the card's weights with every layer loaded, less the output layer."""
    return estimate_memory(W).breakdown["weights"] * GIB - OUTPUT


def test_ngl_puts_the_last_slots_on_the_card_and_the_rest_with_their_kv_cache_in_ram() -> None:
    # -ngl 17: the output layer and the last 16 of the 32 blocks on the card; 16 blocks, their KV cache and
    # the token embeddings in system RAM.
    est = estimate_memory(replace(W, gpu_layers=17))
    body = _body()
    assert est.breakdown["weights"] == pytest.approx((body * 16 / 32 + OUTPUT) / GIB, abs=1e-3)
    assert est.breakdown["kv_cache"] == pytest.approx(KV_TOTAL * 16 / 32 / GIB, abs=1e-3)
    assert est.host_ram_gib == pytest.approx((body * 16 / 32 + KV_TOTAL * 16 / 32 + OUTPUT) / GIB, abs=0.06)
    assert est.chosen["gpu_layers"] == 17 and est.chosen["layer_slots"] == 33 and "cpu-layers" in est.notes


@pytest.mark.parametrize("slots", [None, 33, 99, 999])
def test_ngl_at_or_above_the_slot_count_loads_everything(slots: int | None) -> None:
    est = estimate_memory(replace(W, gpu_layers=slots))
    assert est.host_ram_gib is None and "cpu-layers" not in est.notes
    assert est.per_gpu_gib == pytest.approx(estimate_memory(W).per_gpu_gib)


def test_ngl_zero_leaves_the_card_only_the_compute_buffer() -> None:
    est = estimate_memory(replace(W, gpu_layers=0))
    assert est.breakdown["weights"] == 0 and est.breakdown["kv_cache"] == 0
    assert est.breakdown["activations"] == estimate_memory(W).breakdown["activations"]


def test_ngl_over_two_cards_splits_the_slots_as_the_loader_does() -> None:
    # -ngl 21 over two cards: 20 blocks and the output layer; block i goes to card 0 while i / 21 < 0.5 (blocks
    # 0-10 of the 20), card 1 takes 9 blocks and the output layer. Card 0 holds more (11 × 224 MB > 9 × 224 +
    # 139 MB): the figures are its.
    est = estimate_memory(replace(W, gpu_layers=21), 2)
    assert est.breakdown["weights"] == pytest.approx(_body() * 11 / 32 / GIB, abs=1e-3)
    assert est.breakdown["kv_cache"] == pytest.approx(KV_TOTAL * 11 / 32 / GIB, abs=1e-3)
    assert est.chosen["fullest_card"] == 0


def test_engines_that_cannot_leave_layers_on_the_cpu_ignore_ngl() -> None:
    for engine in ("vllm", "transformers"):
        w = replace(W, engine=engine, quant=None, precision="bf16")  # type: ignore[arg-type]
        assert estimate_memory(replace(w, gpu_layers=10)).per_gpu_gib == estimate_memory(w).per_gpu_gib


def test_a_model_the_card_cannot_hold_is_offered_the_most_layers_that_fit_clear_of_the_tight_band() -> None:
    card = make_gpu(memory_gb=6.0)
    offered = [s for s in suggestions(W, card, 1, [card]) if s.kind == "cpu-layers"]
    assert len(offered) == 1 and offered[0].gpu_layers is not None and offered[0].host_ram_gib
    slots = offered[0].gpu_layers
    fits = check_fit(replace(W, gpu_layers=slots), card, 1)
    assert fits.fits and not fits.tight
    one_more = check_fit(replace(W, gpu_layers=slots + 1), card, 1)
    assert not one_more.fits or one_more.tight
    # Stated layers are the user's own split: not offered again; vLLM cannot leave layers on the CPU.
    assert not [s for s in suggestions(replace(W, gpu_layers=5), card, 1, [card]) if s.kind == "cpu-layers"]
    vllm = replace(W, engine="vllm", quant=None, precision="bf16")
    assert not [s for s in suggestions(vllm, card, 1, [card]) if s.kind == "cpu-layers"]


def test_no_speed_is_claimed_for_layers_read_from_system_ram() -> None:
    card = make_gpu()
    assert estimate_speed(replace(W, gpu_layers=17), card, 1).decode_tokens_per_s is None
    assert estimate_speed(W, card, 1).decode_tokens_per_s


MOE = make_model(params_b=4.0, active_params_b=1.5,
                 moe=MoE(num_experts=8, experts_per_token=2, moe_intermediate_size=1024, first_k_dense=2))
EXPERT_PARAMS = 30 * 8 * 3 * 4096 * 1024
"""The routed experts: 30 MoE blocks (the first 2 dense) × 8 experts × gate, up and down of 4096 × 1024."""
BODY_PARAMS = 4e9 - 2 * 32_000 * 4096
WM = replace(W, model=MOE)


def _moe_body() -> float:
    return estimate_memory(WM).breakdown["weights"] * GIB - OUTPUT


def test_n_cpu_moe_moves_the_experts_of_the_first_blocks_to_ram() -> None:
    # --n-cpu-moe 10: blocks 0-9; the first two are dense, so 8 of the 30 MoE blocks' experts stay in RAM. The
    # experts' bytes are their share of the blocks' parameters; the KV cache stays on the card whole.
    est = estimate_memory(replace(WM, cpu_moe_layers=10))
    experts = _moe_body() * EXPERT_PARAMS / BODY_PARAMS
    assert est.breakdown["weights"] == pytest.approx((_moe_body() + OUTPUT - experts * 8 / 30) / GIB, abs=1e-3)
    assert est.breakdown["kv_cache"] == pytest.approx(KV_TOTAL / GIB, abs=1e-3)
    assert est.host_ram_gib == pytest.approx((experts * 8 / 30 + OUTPUT) / GIB, abs=0.06)
    assert est.chosen["cpu_moe_layers"] == 10 and "cpu-experts" in est.notes
    every = estimate_memory(replace(WM, cpu_moe_layers=999))  # --cpu-moe
    assert every.breakdown["weights"] == pytest.approx((_moe_body() - experts + OUTPUT) / GIB, abs=1e-3)


def test_n_cpu_moe_means_nothing_to_a_dense_model() -> None:
    assert estimate_memory(replace(W, cpu_moe_layers=10)).per_gpu_gib == estimate_memory(W).per_gpu_gib


def test_an_moe_the_card_cannot_hold_is_offered_the_fewest_expert_blocks_in_ram_and_layers_too() -> None:
    card = make_gpu(memory_gb=5.0)  # 6.5 GiB with every expert, 3.4 with none (2 GiB of it KV cache)
    offered = {s.kind: s for s in suggestions(WM, card, 1, [card])}
    experts = offered["cpu-experts"]
    assert experts.cpu_moe_layers and experts.gpu_layers is None and experts.host_ram_gib
    assert check_fit(replace(WM, cpu_moe_layers=experts.cpu_moe_layers), card, 1).fits
    fewer = check_fit(replace(WM, cpu_moe_layers=experts.cpu_moe_layers - 1), card, 1)
    assert not fewer.fits or fewer.tight
    assert "cpu-layers" in offered  # Ollama's way, which it takes by itself
    # A question's own --n-cpu-moe is raised, not combined with -ngl
    raised = [s for s in suggestions(replace(WM, cpu_moe_layers=2), card, 1, [card]) if s.kind.startswith("cpu")]
    assert [s.kind for s in raised] == ["cpu-experts"]


def test_what_each_token_reads_from_ram_bounds_the_decode_speed() -> None:
    # -ngl 17 (dense): the 16 CPU blocks whole and their KV cache, every token.
    est = estimate_memory(replace(W, gpu_layers=17))
    read = _body() * 16 / 32 + KV_TOTAL * 16 / 32
    assert est.chosen["host_read_gib_per_token"] == pytest.approx(read / GIB, abs=0.01)
    assert est.chosen["ram_bound_tokens_per_s"] == pytest.approx(C.REFERENCE_RAM_BANDWIDTH_GBPS * 1e9 / read, rel=0.01)
    # --n-cpu-moe 10 (MoE): of the 8 MoE blocks' experts kept in RAM a token reads the 2 of 8 it is routed to.
    moe = estimate_memory(replace(WM, cpu_moe_layers=10))
    routed = _moe_body() * EXPERT_PARAMS / BODY_PARAMS * 8 / 30 * 2 / 8
    assert moe.chosen["host_read_gib_per_token"] == pytest.approx(routed / GIB, abs=0.01)
    # -ngl 0: every block, the output layer and the whole KV cache
    cpu = estimate_memory(replace(W, gpu_layers=0))
    assert cpu.chosen["host_read_gib_per_token"] == pytest.approx((_body() + OUTPUT + KV_TOTAL) / GIB, abs=0.01)
