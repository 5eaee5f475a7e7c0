"""The loss's shifted copy of the logits: fp32 in transformers before 4.49, none after, 16-bit in Qwen-1's own code.

Toy 7B model (vocabulary 32,000; rules/_models.py), LoRA at 2,048 tokens without checkpointing, so the logits
add to the layers' activations and the difference between two versions is the copy alone:
4 B × 32,000 × 2,048 = 0.2441 GiB (fp32), 2 B × … = 0.1221 GiB (16-bit)."""

from __future__ import annotations

import pytest

from knowledge.schema import RemoteCode
from rules import Workload, estimate_memory
from rules import constants as C
from rules.engine_profile import loss_shift_copy_bytes, runs_model_code
from tests.rules._models import make_model

GIB = C.GIB
QWEN1_CODE = RemoteCode(loss_shift_copy_bytes=2.0, source="test")


def lora(model: object = None, **kw: object) -> Workload:
    return Workload(model=model or make_model(), task="lora", context=2048,  # type: ignore[arg-type]
                    gradient_checkpointing=False, **kw)  # type: ignore[arg-type]


def test_transformers_copied_the_fp32_logits_until_4_49() -> None:
    assert loss_shift_copy_bytes(lora(engine_version="4.48.3")) == 4.0
    assert loss_shift_copy_bytes(lora(engine_version="4.49.0")) == 0.0
    assert loss_shift_copy_bytes(lora()) == 0.0


def test_llama_factory_before_0_9_2_pinned_a_transformers_that_copied() -> None:
    assert loss_shift_copy_bytes(lora(engine="llama-factory", engine_version="0.9.1")) == 4.0
    assert loss_shift_copy_bytes(lora(engine="llama-factory", engine_version="0.8.3")) == 4.0
    assert loss_shift_copy_bytes(lora(engine="llama-factory", engine_version="0.9.2")) == 0.0
    assert loss_shift_copy_bytes(lora(engine="llama-factory")) == 0.0


def test_the_copy_adds_to_the_activations() -> None:
    old = estimate_memory(lora(engine_version="4.48"))
    new = estimate_memory(lora(engine_version="4.49"))
    assert old.breakdown["activations"] - new.breakdown["activations"] == \
        pytest.approx(4 * 32_000 * 2048 / GIB, abs=1e-3)


def test_a_models_own_code_states_its_own_copy_whatever_the_transformers_version() -> None:
    model = make_model(remote_code=QWEN1_CODE)
    assert loss_shift_copy_bytes(lora(model, engine_version="4.40")) == 2.0
    assert loss_shift_copy_bytes(lora(model)) == 2.0
    with_code = estimate_memory(lora(model))
    library = estimate_memory(lora())
    assert with_code.breakdown["activations"] - library.breakdown["activations"] == \
        pytest.approx(2 * 32_000 * 2048 / GIB, abs=1e-3)


def test_front_ends_on_transformers_run_the_remote_code_too() -> None:
    model = make_model(remote_code=QWEN1_CODE)
    assert loss_shift_copy_bytes(lora(model, engine="llama-factory")) == 2.0
    assert loss_shift_copy_bytes(lora(model, engine="deepspeed")) == 2.0


def test_engines_with_their_own_modelling_ignore_it_and_cannot_run_it() -> None:
    model = make_model(remote_code=QWEN1_CODE)
    assert loss_shift_copy_bytes(lora(model, engine="unsloth")) == 0.0
    assert loss_shift_copy_bytes(lora(model, engine="torchtune")) == 0.0
    assert not runs_model_code(lora(model, engine="unsloth"))
    assert "engine-lacks-model-code" in estimate_memory(lora(model, engine="unsloth")).notes
    assert runs_model_code(lora(model)) and runs_model_code(lora(make_model(), engine="unsloth"))


def test_the_shipped_qwen1_models_carry_their_codes_fact() -> None:
    from knowledge.loader import load_knowledge

    kb = load_knowledge()
    codes = [kb.models[m].remote_code for m in ("qwen-1.8b", "qwen-7b", "qwen-14b", "qwen-72b", "chatglm2-6b",
                                                 "chatglm3-6b")]
    # Qwen-1 shifts its 16-bit logits; ChatGLM2/3 transpose them contiguous (2 B) and shift the fp32 upcast (4 B).
    assert [code.loss_shift_copy_bytes if code else None for code in codes] == [2.0] * 4 + [6.0] * 2
    assert kb.models["qwen2-7b"].remote_code is None  # Qwen2 runs transformers' own implementation
