"""A Mac as the machine: checked against the part of its unified memory macOS gives the GPU, never the whole."""

from __future__ import annotations

import pytest

from bot.reply.answer import answer
from bot.reply.render import render_text
from bot.understand.parse import parse
from knowledge.loader import default_knowledge
from rules.hardware import gpu_share_of_unified_memory

KB = default_knowledge()


# 48 GB: a 48 GB M3 Max logs recommendedMaxWorkingSetSize = 38654.71 MB, 36 GiB (audit 33 M-112)
@pytest.mark.parametrize(("memory", "share"), [(192, 0.75), (128, 0.75), (64, 0.75), (48, 0.75), (36, 2 / 3),
                                               (32, 2 / 3), (16, 2 / 3)])
def test_gpu_share_of_unified_memory(memory: float, share: float) -> None:
    assert gpu_share_of_unified_memory(memory) == pytest.approx(share)


@pytest.mark.parametrize(("text", "memory"), [
    ("can I run Llama-3-70B Q4 on a Mac Studio M2 Ultra 192GB with ollama", 192),
    ("run qwen2.5 32b on my macbook pro m4 max 128gb", 128),
    ("苹果M2 Max 64G能跑Qwen2.5-32B吗", 64),
    ("Llama-3-8B on M3 Max", None),
])
def test_a_mac_is_read_with_its_unified_memory(text: str, memory: float | None) -> None:
    q = parse(text, KB)
    assert q.unified_memory and q.memory_gb == memory and q.gpu is None


@pytest.mark.parametrize("text", ["Llama-3-8B on a 4090, what is its mac address", "llama 8b on m2",
                                  "Qwen2.5-7B on 24GB"])
def test_other_text_is_not_a_mac(text: str) -> None:
    assert not parse(text, KB).unified_memory


def test_64gb_mac_gives_the_gpu_48gb_not_64() -> None:
    result = answer(parse("can I run Qwen2.5-32B in bf16 on a Mac M2 Max 64GB?", KB), KB)
    assert result.check is not None and not result.check.fits
    assert result.check.gpu_memory_gb == 48.0  # 64 × 3/4: the 63.9 GiB bf16 job fits 64 GB but not the GPU's part
    assert all(s.kind != "more-gpus" for s in result.check.suggestions)  # not "2× Mac"
    text = render_text(result, kb=KB)
    assert "about 75% of it by default (48 GB of 64 GB" in text and "iogpu.wired_limit_mb" in text
    assert "less the CUDA context" not in text


def test_a_mac_without_its_memory_is_asked_for_it() -> None:
    result = answer(parse("Llama-3-8B on M3 Max", KB), KB)
    assert result.check is None
    assert "say how much the Mac has" in render_text(result, kb=KB)


def test_capacity_of_a_mac_uses_the_gpu_share() -> None:
    mac = answer(parse("what can my M2 Max 32GB run?", KB), KB)
    card = answer(parse("what can a 32GB GPU run?", KB), KB)
    assert mac.capacity and card.capacity
    sizes = [(m.max_params_b or 0, c.max_params_b or 0) for m, c in zip(mac.capacity, card.capacity, strict=True)]
    assert all(m <= c for m, c in sizes) and any(m < c for m, c in sizes)
    assert "Largest model Mac 32 GB holds" in render_text(mac, kb=KB)


def test_a_mac_runs_a_chat_model_through_llama_cpp_in_a_gguf_not_cuda_formats() -> None:
    result = answer(parse("gemma 3 27b on a mac studio 64gb", KB), KB)
    assert result.query.engine == "llama.cpp" and (result.query.quant or "").startswith("gguf")
    assert any(a.field == "engine" and a.reason == "apple-silicon" for a in result.assumptions)
    bf16 = answer(parse("gemma 3 27b bf16 on a mac studio 64gb", KB), KB)
    assert bf16.check is not None and not bf16.check.fits
    quantised = [s for s in bf16.check.suggestions if s.kind == "quantise"]
    assert quantised and all((s.quant or "").startswith("gguf") for s in quantised)  # never GPTQ/AWQ on Metal
    named = answer(parse("gemma 3 27b on a mac studio 64gb with transformers", KB), KB)
    assert named.query.engine == "transformers"  # an engine the question names stays


def test_a_mac_named_with_its_chip_gets_a_decode_speed_at_that_chips_bandwidth() -> None:
    # M3 Max with 36 GB is the 30-core, 300 GB/s configuration (Apple's support page; apple_silicon.yaml)
    from bot.reply.request import answer_request
    from knowledge.loader import default_knowledge

    kb = default_knowledge()
    result = answer_request({"text": "Qwen3-30B-A3B GGUF Q4_K_M on a MacBook Pro M3 Max 36GB, tokens/sec?"}, kb)
    assert result.speed.get("unified_memory_bandwidth_gbps") == 300.0
    assert result.speed.get("decode_tokens_per_s")
    assert "llama.cpp's Metal back end reading the M3 Max's 300 GB/s" in render_text(result, kb=kb)
    assert kb.apple_chips["m3-max"].bandwidth_for(64) == 400.0 and kb.apple_chips["m3-max"].bandwidth_for(None) == 400.0
    unnamed = answer_request({"text": "Qwen3-8B on a Mac mini 16GB"}, kb)
    assert unnamed.speed.get("unified_memory_bandwidth_gbps") is None  # no chip named: no Mac speed


def test_a_mac_that_is_tight_keeps_its_own_speed_label_and_no_cloud_bill() -> None:
    from bot.service import ask

    # 386 GiB against the 384 GiB macOS gives the GPU: tight, so a pick leads the list, but the speed asked
    # for is still the Mac's and must not be printed under the pick's name or billed at its price.
    answer = ask({"text": "DeepSeek-R1 671B Q4_K_M on a Mac Studio M3 Ultra 512GB, tokens per second?"})
    assert answer.check is not None and not answer.check.fits and answer.picks
    assert answer.speed.get("unified_memory_bandwidth_gbps") == 819.0
    assert answer.speed_on is None and answer.cost is None
    text = render_text(answer)
    assert "Speed (1× Mac 512 GB): decode" in text


def test_a_mac_is_offered_no_offload_to_system_ram_and_no_speed_when_the_model_does_not_fit() -> None:
    # DeepSeek-V3 Q4_K_M (about 378 GiB of weights) on a 192 GB M2 Ultra: "--n-cpu-moe 42, 248 GiB of RAM" was
    # offered beside 134 GiB on the GPU, 382 GiB in a 192 GB machine, and a decode speed for a Mac that cannot
    # load the model. The Mac's RAM is the GPU's memory: no offload, no speed.
    question = parse("Mac Studio M2 Ultra 192G 能跑 DeepSeek-V3 的 Q4 量化吗，速度大概多少", KB)
    result = answer(question, KB)
    assert result.check is not None and not result.check.fits
    kinds = {s.kind for s in result.check.suggestions}
    assert not kinds & {"cpu-experts", "cpu-layers", "offload-all", "offload-optimizer", "model-offload"}
    assert "decode_tokens_per_s" not in result.speed or result.speed.get("unified_memory_bandwidth_gbps") is None
    assert "无法卸载到系统内存" in render_text(result, KB)


def test_a_model_one_size_too_big_for_a_mac_is_offered_a_smaller_gguf() -> None:
    # Qwen3-235B-A22B: Q4_K_M is 235e9 × 4.84/8 ≈ 132 GiB, over the 95.5 a 128 GB Mac's GPU may use; Q3_K_M
    # (≈ 106 GiB) is still over, Q2_K (0.328 B a weight, ≈ 72 GiB plus the Q6_K output layer) fits.
    result = answer(parse("Qwen3-235B-A22B Q4_K_M on a MacBook Pro M4 Max 128GB", KB), KB)
    assert result.check is not None and not result.check.fits
    quantise = [s for s in result.check.suggestions if s.kind == "quantise"]
    assert quantise and quantise[0].quant == "gguf-q2_k"
    assert quantise[0].memory_per_gpu_gb is not None and quantise[0].memory_per_gpu_gb < 95.5


@pytest.mark.parametrize("text", ["ollama 跑 qwen3:8b，mac mini m4 16g 内存，能跑多快？上下文开到 32k 会不会爆内存？",
                                  "qwen3 8b with ollama on a Mac mini M4 with 16 GB of RAM, 32k context: how fast?"])
def test_a_macs_ram_written_as_ram_is_its_unified_memory(text: str) -> None:
    # audit 25 HIGH 23: "16G 内存" was host RAM, so the reply asked for the size it had been given and answered
    # for an RTX 3060. Q4_K_M 4.4 GiB + 36 layers × 8 × 128 × 2 × 2 B × 32,768 = 4.5 GiB of cache: a tight fit in
    # the 10.7 GB macOS lets the GPU use of 16 GB, at most 120 GB/s ÷ ≈ 5 GB ≈ 24 tok/s
    result = answer(parse(text, KB), KB)
    assert result.check is not None and result.check.fits
    rendered = render_text(result, kb=KB)
    assert "16 GB" in rendered and "M3 Max 64GB" not in rendered
    assert result.speed.get("unified_memory_bandwidth_gbps") == 120
