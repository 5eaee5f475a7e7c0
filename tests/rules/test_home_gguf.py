"""A model too big for a GeForce card is offered what people run at home: a Q4_K_M GGUF on llama.cpp / Ollama,
whole on the card or with part of it in system RAM; and GeForce cards are never planned across machines."""

from __future__ import annotations

from dataclasses import replace

import pytest

from knowledge.loader import load_knowledge
from rules import Workload, check_fit, estimate_memory, rank_picks
from rules.alternatives import HOME_GGUF_QUANT
from rules.limits import within_one_machine

KB = load_knowledge()


def test_a_model_that_fits_as_a_gguf_is_offered_it_with_its_figure() -> None:
    w = Workload(model=KB.model("qwen2.5-32b"))
    card = KB.gpus["rtx-4090"]
    check = check_fit(w, card, 1, candidates=[])
    [gguf] = [s for s in check.suggestions if s.engine == "llama.cpp"]
    assert (gguf.kind, gguf.quant) == ("quantise", HOME_GGUF_QUANT)
    on_llama = replace(w, engine="llama.cpp", precision="int4", quant=HOME_GGUF_QUANT, flash_attention=True)
    assert gguf.memory_per_gpu_gib == pytest.approx(estimate_memory(on_llama, 1, card).per_gpu_gib, abs=0.05)


def test_a_model_too_big_even_as_a_gguf_keeps_part_of_it_in_system_ram() -> None:
    check = check_fit(Workload(model=KB.model("llama-3.1-70b")), KB.gpus["rtx-4090"], 1, candidates=[])
    offload = [s for s in check.suggestions if s.engine == "llama.cpp"]
    assert offload and offload[0].kind == "cpu-layers" and offload[0].quant == HOME_GGUF_QUANT
    assert 0 < (offload[0].gpu_layers or 0) < 81 and (offload[0].host_ram_gib or 0) > 0


@pytest.mark.parametrize(("engine", "card"), [("vllm", "rtx-4090"), ("transformers", "a100-40gb")])
def test_no_gguf_route_for_a_serving_engine_or_a_datacenter_card(engine: str, card: str) -> None:
    w = Workload(model=KB.model("llama-3.1-70b"), engine=engine)  # type: ignore[arg-type]
    check = check_fit(w, KB.gpus[card], 1, candidates=[])
    assert not any(s.engine == "llama.cpp" for s in check.suggestions)


def test_geforce_cards_stay_in_one_machine() -> None:
    geforce, h100 = KB.gpus["rtx-3060-12gb"], KB.gpus["h100-sxm"]
    assert within_one_machine(geforce, 8) and not within_one_machine(geforce, 16)
    assert within_one_machine(h100, 64)
    # Mixtral 8x7B in bf16 (87 GiB of weights) takes 16 × 12 GB cards: no such pick, and no such suggestion.
    w = Workload(model=KB.model("mixtral-8x7b"))
    assert all(p.count <= 8 for p in rank_picks(w, [geforce], max_count=64))
    check = check_fit(w, geforce, 1, candidates=[])
    assert all((s.count or 1) <= 8 for s in check.suggestions)


def test_flux_on_a_12_gb_card_is_offered_a_4_bit_load_with_model_offload() -> None:
    # FLUX.1 keeps a 12B transformer (22 GiB in bf16) and a T5-XXL (8.9 GiB): offload alone still puts the
    # transformer on the card whole, NF4 alone leaves both resident; together one 4-bit part at a time fits.
    flux, card = KB.model("flux.1-schnell"), KB.gpus["rtx-3060-12gb"]
    w = Workload(model=flux)
    check = check_fit(w, card, 1, candidates=[])
    assert not check.fits
    [both] = [s for s in check.suggestions if s.kind == "model-offload"]
    assert (both.precision, both.quant) == ("int4", "nf4")
    alone = estimate_memory(replace(w, offload="all"), 1, card).per_gpu_gib
    assert alone > 11.5 > (both.memory_per_gpu_gib or 99)


def test_a_speech_model_is_offered_an_8_bit_load_not_a_gptq_checkpoint() -> None:
    from tests.rules._models import make_gpu

    # Whisper large-v3 in fp16 (2.9 GiB of weights) on a 4 GB laptop card (3.5 GiB usable): 8-bit fits.
    card = make_gpu(id="g4", memory_gb=4.0, memory_type="GDDR6", nvlink_gbps=None, form="consumer")
    check = check_fit(Workload(model=KB.model("whisper-large-v3"), precision="fp16", context=448), card, 1,
                      candidates=[])
    assert not check.fits
    quantised = [s for s in check.suggestions if s.kind == "quantise"]
    assert quantised and all(s.quant == "bnb-int8" for s in quantised)
