"""Weights per format: parameters × bytes, with the 16-bit embeddings quantised checkpoints keep."""

from __future__ import annotations

import pytest

from rules import constants as C
from rules.precision import normalise_quant, param_split, weight_bytes
from tests.rules._models import make_model

# Toy: 7e9 parameters; embedding 32,000 × 4,096 = 131,072,000, untied → 262,144,000 kept 16-bit.
EMB = 2 * 32000 * 4096
BODY = 7e9 - EMB


def test_plain_precisions() -> None:
    m = make_model()
    assert weight_bytes(m, "fp32", None)[0] == 7e9 * 4
    assert weight_bytes(m, "bf16", None)[0] == 7e9 * 2
    assert weight_bytes(m, "fp16", None)[0] == 7e9 * 2
    assert weight_bytes(m, "fp8", None)[0] == 7e9 * 1


def test_param_split_counts_untied_embeddings_twice_and_tied_once() -> None:
    assert param_split(make_model()).embedding == EMB
    assert param_split(make_model(tie_embeddings=True)).embedding == EMB / 2


def test_gptq_int4_group128_keeps_embeddings_16bit() -> None:
    # 4 bits + fp16 scale/128 + 4-bit zero/128 = 4.15625 bits = 0.51953 B per body parameter.
    got, notes = weight_bytes(make_model(), "int4", "gptq")
    assert got == pytest.approx(BODY * 4.15625 / 8 + EMB * 2)
    assert "embeddings-16bit" in notes
    # 6.738e9 × 0.51953 = 3.50e9 B (3.26 GiB) + 0.262e9 × 2 = 0.52e9 B (0.49 GiB) = 3.75 GiB,
    # 15% above the naive 7e9 × 0.5 B = 3.26 GiB.
    assert got / C.GIB == pytest.approx(3.75, abs=0.01)


def test_bnb_formats() -> None:
    m = make_model()
    assert weight_bytes(m, "int4", "nf4")[0] == pytest.approx(BODY * 0.5625 + EMB * 2)  # 4 + 32/64 bits
    assert weight_bytes(m, "int4", "nf4-dq")[0] == pytest.approx(BODY * (4 + 0.125 + 32 / 16384) / 8 + EMB * 2)
    assert weight_bytes(m, "int8", "bnb-int8")[0] == pytest.approx(BODY * 1.0 + EMB * 2)
    assert weight_bytes(m, "int8", "gptq-int8")[0] == pytest.approx(BODY * 8.1875 / 8 + EMB * 2)


def test_gguf_applies_to_the_whole_file() -> None:
    m = make_model()
    # GGUF quantises token_embd/output too: whole-file bits per weight.
    assert weight_bytes(m, "int8", "gguf-q8_0")[0] == pytest.approx(7e9 * 34 / 32)
    assert weight_bytes(m, "int4", "gguf-q4_k_m")[0] == pytest.approx(7e9 * 4.84 / 8)
    assert weight_bytes(m, "int4", "gguf-q4_0")[0] == pytest.approx(7e9 * 18 / 32)


@pytest.mark.parametrize(("quant", "precision", "engine", "expected"), [
    ("GGUF-Q4_K_M", "int4", "transformers", "gguf-q4_k_m"),
    ("q8_0", "int8", "transformers", "gguf-q8_0"),
    ("gguf", "int4", "transformers", "gguf-q4_k_m"),
    ("AWQ", "int4", "transformers", "awq"),
    ("gptq-int4", "int4", "transformers", "gptq"),
    ("llm.int8", "int8", "transformers", "bnb-int8"),
    (None, "int4", "llama.cpp", "gguf-q4_k_m"),
    (None, "bf16", "llama.cpp", "gguf-f16"),
    (None, "bf16", "transformers", None),
    (None, "int8", "transformers", "int8"),
])
def test_normalise_quant(quant: str | None, precision: str, engine: str, expected: str | None) -> None:
    assert normalise_quant(quant, precision, engine) == expected


def test_unknown_format_is_an_error() -> None:
    with pytest.raises(ValueError, match="unknown weight format"):
        normalise_quant("exl9", "int4")
