"""Old transformers modelling code keeps rotary cos/sin tables for every position in every attention layer.

Expected values by hand on the toy 7B model (32 layers, 32 heads of 128): 32 layers × 2 tables × positions ×
128 × 2 bytes. The version boundaries are the first transformers release without `_set_cos_sin_cache` in that
model's code (knowledge/data/engines.yaml)."""

from __future__ import annotations

import pytest

from rules import Workload, estimate_memory
from rules import constants as C
from rules.engine_profile import rope_table_bytes
from tests.rules._models import make_model

GIB = C.GIB


def tables(positions: int, layers: int = 32, head_dim: int = 128, dtype_bytes: int = 2) -> float:
    return layers * 2 * positions * head_dim * dtype_bytes


@pytest.mark.parametrize(("family", "last_with", "first_without"), [
    ("Llama 2", "4.37.2", "4.38.0"),
    ("Mistral", "4.41.2", "4.42.0"),
    ("Qwen2", "4.44.2", "4.45.0"),
    ("Qwen2.5", "4.44.2", "4.45.0"),
    ("Mixtral", "4.47.1", "4.48.0"),
])
def test_each_family_keeps_its_tables_until_the_release_that_dropped_them(family: str, last_with: str,
                                                                         first_without: str) -> None:
    model = make_model(family=family, max_context=32768)
    assert rope_table_bytes(Workload(model=model, engine_version=last_with)) == tables(32768)
    assert rope_table_bytes(Workload(model=model, engine_version=first_without)) == 0.0
    assert rope_table_bytes(Workload(model=model)) == 0.0  # no version: today's transformers


def test_a_family_whose_code_never_cached_them_has_none() -> None:
    model = make_model(family="Qwen3", max_context=32768)
    assert rope_table_bytes(Workload(model=model, engine_version="4.38")) == 0.0


def test_other_engines_have_none() -> None:
    model = make_model(family="Qwen2", max_context=32768)
    assert rope_table_bytes(Workload(model=model, engine="vllm", engine_version="0.4.2")) == 0.0


def test_the_deployed_checkpoints_max_position_embeddings_sizes_them_not_the_advertised_context() -> None:
    # Qwen2-0.5B: the base config says 131,072 positions, the instruct config 32,768; 24 layers, head_dim 64.
    model = make_model(family="Qwen2", num_layers=24, num_attention_heads=14, head_dim=64, max_context=131072,
                       max_position_embeddings=32768)
    assert rope_table_bytes(Workload(model=model, engine_version="4.38.2")) == \
        tables(32768, layers=24, head_dim=64)  # 0.1875 GiB
    assert tables(32768, layers=24, head_dim=64) / GIB == pytest.approx(0.1875)


def test_an_fp32_load_keeps_fp32_tables() -> None:
    model = make_model(family="Qwen2", max_context=32768)
    assert rope_table_bytes(Workload(model=model, precision="fp32", engine_version="4.40")) == \
        tables(32768, dtype_bytes=4)


def test_inference_counts_them_with_the_weights_and_says_so() -> None:
    model = make_model(family="Qwen2", max_context=32768)
    new = estimate_memory(Workload(model=model, context=1, engine_version="4.45"))
    old = estimate_memory(Workload(model=model, context=1, engine_version="4.44"))
    assert old.breakdown["weights"] - new.breakdown["weights"] == pytest.approx(tables(32768) / GIB, abs=1e-3)
    assert "rope-tables" in old.notes and "rope-tables" not in new.notes


def test_training_counts_them_on_every_card() -> None:
    model = make_model(family="Qwen2", max_context=32768)
    new = estimate_memory(Workload(model=model, task="lora", context=512, engine_version="4.45"), 2)
    old = estimate_memory(Workload(model=model, task="lora", context=512, engine_version="4.44"), 2)
    assert old.breakdown["weights"] - new.breakdown["weights"] == pytest.approx(tables(32768) / GIB, abs=1e-3)
    assert "rope-tables" in old.notes
