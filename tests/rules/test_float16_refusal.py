"""vLLM refuses float16 for Gemma 2 and 3 (vllm/config/model.py _FLOAT16_NOT_SUPPORTED_MODELS): on a card without
bf16 such a model cannot be served in 16 bits, and a quantised checkpoint still computes in float16 there."""

from __future__ import annotations

import pytest

from knowledge.engines import refuses_float16
from knowledge.loader import load_knowledge
from rules import Workload, check_fit
from rules.limits import unsupported_format
from tests.rules._models import make_gpu

KB = load_knowledge()


def test_the_refusal_is_vllms_and_for_gemma_2_and_3_only() -> None:
    assert refuses_float16("vllm", "Gemma 2") and refuses_float16("vllm", "Gemma 3")
    assert not refuses_float16("vllm", "Llama 3.1") and not refuses_float16("transformers", "Gemma 2")


@pytest.mark.parametrize(("precision", "quant"), [("bf16", None), ("fp16", None), ("int4", "awq")])
def test_a_card_without_bf16_cannot_serve_gemma_2_on_vllm(precision: str, quant: str | None) -> None:
    gemma, t4, l4 = KB.model("gemma-2-9b"), KB.gpus["t4"], KB.gpus["l4"]
    w = Workload(model=gemma, engine="vllm", precision=precision, quant=quant)  # type: ignore[arg-type]
    assert unsupported_format(w, t4) == "fp16"
    assert unsupported_format(w, l4) is None  # Ada has bf16
    check = check_fit(w, t4, 1, candidates=[])
    assert not check.fits and check.unsupported_precision == "fp16"


def test_fp32_other_engines_other_models_and_unknown_cards_are_not_refused() -> None:
    gemma, t4 = KB.model("gemma-2-9b"), KB.gpus["t4"]
    assert unsupported_format(Workload(model=gemma, engine="vllm", precision="fp32"), t4) is None
    assert unsupported_format(Workload(model=gemma, engine="transformers", precision="fp16"), t4) is None
    assert unsupported_format(Workload(model=KB.model("llama-3.1-8b"), engine="vllm", precision="fp16"), t4) is None
    memory_only = make_gpu(id="g24", memory_gb=24.0, architecture=None, bf16_tflops=None)
    assert unsupported_format(Workload(model=gemma, engine="vllm", precision="fp16"), memory_only) is None
