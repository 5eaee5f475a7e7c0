"""Importing Hugging Face config.json files: parameter counts within 2% of the published sizes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from knowledge.check import run_checks
from knowledge.errors import KnowledgeDataError
from knowledge.importer import import_hf_config, write_user_entry
from knowledge.loader import load_knowledge
from tests.knowledge import hf_configs as hf
from tests.knowledge.conftest import Writer

# (config, published total B, published active B or None, KV KiB/token at 16 bits, kv heads, attention)
CASES: list[tuple[str, dict[str, Any], float, float | None, float, int, str]] = [
    ("llama-2-7b", hf.LLAMA_2_7B, 6.74, None, 512.0, 32, "mha"),
    ("qwen2.5-7b", hf.QWEN2_5_7B, 7.61, None, 56.0, 4, "gqa"),
    ("chatglm2-6b", hf.CHATGLM2_6B, 6.24, None, 28.0, 2, "gqa"),
    ("glm-4-9b", hf.GLM_4_9B, 9.4, None, 40.0, 2, "gqa"),
    ("deepseek-v3", hf.DEEPSEEK_V3, 671.0, 37.0, 68.625, 128, "mla"),
    ("mixtral-8x7b", hf.MIXTRAL_8X7B, 46.7, 12.9, 128.0, 8, "gqa"),
    ("qwen-7b", hf.QWEN_7B, 7.72, None, 512.0, 32, "mha"),
    ("falcon-7b", hf.FALCON_7B, 7.0, None, 8.0, 1, "mqa"),
    ("gpt2", hf.GPT2, 0.124, None, 36.0, 12, "mha"),
    ("bloom-7b1", hf.BLOOM_7B1, 7.07, None, 480.0, 32, "mha"),
    ("gpt-j-6b", hf.GPT_J_6B, 6.05, None, 448.0, 16, "mha"),
    ("qwen3-235b-a22b", hf.QWEN3_235B_A22B, 235.0, 22.0, 188.0, 4, "gqa"),
]


@pytest.mark.parametrize(("model_id", "config", "total", "active", "kv", "kv_heads", "attention"), CASES)
def test_published_sizes(
    model_id: str,
    config: dict[str, Any],
    total: float,
    active: float | None,
    kv: float,
    kv_heads: int,
    attention: str,
) -> None:
    model = import_hf_config(config, model_id)
    assert model.params_b == pytest.approx(total, rel=0.02)
    assert model.params_b_computed == model.params_b
    if active is None:
        assert model.moe is None and model.active_params_b is None
    else:
        assert model.active_params_b == pytest.approx(active, rel=0.02)
    assert model.kv_cache_kib_per_token_16bit == pytest.approx(kv, rel=0.001)
    assert (model.num_kv_heads, model.attention) == (kv_heads, attention)
    assert model.source[0].startswith("user config.json (imported ")


def test_family_specific_fields() -> None:
    qwen1 = import_hf_config(hf.QWEN_7B, "qwen-7b")
    assert (qwen1.intermediate_size, qwen1.mlp_branch, qwen1.max_context) == (22016, 11008, 8192)
    glm = import_hf_config(hf.CHATGLM2_6B, "chatglm2-6b")
    assert (glm.num_layers, glm.vocab_size, glm.head_dim, glm.max_context) == (28, 65024, 128, 32768)
    assert glm.tie_embeddings is False
    v3 = import_hf_config(hf.DEEPSEEK_V3, "deepseek-v3")
    assert v3.mla is not None and (v3.mla.kv_lora_rank, v3.mla.qk_rope_head_dim) == (512, 64)
    assert v3.moe is not None
    assert (v3.moe.num_experts, v3.moe.experts_per_token, v3.moe.num_shared_experts, v3.moe.first_k_dense) == (
        256,
        8,
        1,
        3,
    )
    assert v3.details["rope_scaling"]["type"] == "yarn" and "yarn" in (v3.notes or "")
    qwen25 = import_hf_config(hf.QWEN2_5_7B, "qwen2.5-7b")
    assert qwen25.sliding_window is None  # use_sliding_window: false
    mistral = import_hf_config(
        {
            **hf.LLAMA_2_7B,
            "model_type": "mistral",
            "num_key_value_heads": 8,
            "sliding_window": 4096,
            "max_position_embeddings": 32768,
        },
        "mistral-7b",
    )
    assert mistral.sliding_window == 4096 and mistral.attention == "gqa"
    falcon40 = import_hf_config(
        {
            **hf.FALCON_7B,
            "hidden_size": 8192,
            "num_attention_heads": 128,
            "num_hidden_layers": 60,
            "new_decoder_architecture": True,
            "num_kv_heads": 8,
        },
        "falcon-40b",
    )
    assert falcon40.num_kv_heads == 8 and falcon40.params_b == pytest.approx(41.8, rel=0.02)
    gpt2 = import_hf_config(hf.GPT2, "gpt2")
    assert gpt2.tie_embeddings is True and gpt2.mlp == "plain" and gpt2.intermediate_size == 3072


def test_nested_text_config() -> None:
    model = import_hf_config(hf.LLAVA_STYLE_NESTED, "my-llava", name="My LLaVA")
    assert model.name == "My LLaVA" and model.modality == "multimodal"
    assert model.num_layers == 32 and model.hidden_size == 4096
    assert 6.74 < model.params_b < 7.2  # language model + an estimated vision tower


def test_a_config_without_model_type_takes_it_from_its_architecture_class() -> None:
    # a config trimmed to its shape: LlamaForCausalLM is a llama (SwiGLU: 3 MLP matrices; untied head)
    trimmed = {"architectures": ["LlamaForCausalLM"], "hidden_size": 4096, "intermediate_size": 14336,
               "num_attention_heads": 32, "num_hidden_layers": 32, "num_key_value_heads": 8, "vocab_size": 128256}
    model = import_hf_config(trimmed, "trimmed-llama", name="Trimmed")
    assert model.mlp == "gated"
    per_layer = 4096 * (4096 + 2 * 1024 + 4096) + 3 * 4096 * 14336  # q, k, v, o + gate, up, down
    assert model.params_b == pytest.approx((32 * per_layer + 2 * 128256 * 4096) / 1e9, rel=0.002)  # 8.03B


def test_reads_a_path_and_names_source(tmp_path: Path) -> None:
    path = tmp_path / "config.json"
    path.write_text(json.dumps(hf.LLAMA_2_7B), encoding="utf-8")
    model = import_hf_config(path, "our-llama", source="s3://models/our-llama/config.json")
    assert model.source == ["s3://models/our-llama/config.json"]
    assert model.org == "meta-llama" and model.family == "Llama"
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(KnowledgeDataError, match="not valid JSON"):
        import_hf_config(path, "our-llama")


@pytest.mark.parametrize(
    ("config", "field"),
    [
        (
            {"model_type": "mystery", "hidden_size": 1024, "num_attention_heads": 16, "vocab_size": 1000},
            "num_hidden_layers",
        ),
        ({**hf.LLAMA_2_7B, "num_attention_heads": None}, "num_attention_heads"),
        ({"model_type": "t5", "is_encoder_decoder": True}, "is_encoder_decoder"),
        ({**hf.MIXTRAL_8X7B, "num_experts_per_tok": None}, "num_experts_per_tok"),
        ({**hf.LLAMA_2_7B, "num_hidden_layers": "32"}, "num_hidden_layers"),
    ],
)
def test_unsupported_configs_name_the_field(config: dict[str, Any], field: str) -> None:
    with pytest.raises(KnowledgeDataError) as caught:
        import_hf_config(config, "x")
    assert caught.value.field == field
    assert field in str(caught.value)


def test_bad_id() -> None:
    with pytest.raises(KnowledgeDataError, match="ids are lower case"):
        import_hf_config(hf.LLAMA_2_7B, "My Model")


def test_write_user_entry_merges_over_shipped(tmp_path: Path, write_kb: Writer) -> None:
    shipped = write_kb("shipped")
    user = tmp_path / "user"
    first = import_hf_config(hf.QWEN2_5_7B, "our-qwen", name="Our Qwen")
    path = write_user_entry(first, user)
    assert path == user / "models.yaml"
    # Replace by id, keep the others and any other section of the file.
    data = yaml.safe_load(path.read_text())
    data["models"].append({**data["models"][0], "id": "other", "name": "Other"})
    data["gpus"] = []
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    second = import_hf_config(hf.QWEN2_5_7B, "our-qwen", name="Our Qwen v2")
    write_user_entry(second, user)
    data = yaml.safe_load(path.read_text())
    assert [m["id"] for m in data["models"]] == ["our-qwen", "other"]
    assert data["models"][0]["name"] == "Our Qwen v2" and "gpus" in data

    kb = load_knowledge([shipped, user])
    assert kb.model("our-qwen") == second
    assert kb.model_index.lookup("our qwen v2").best is not None
    assert run_checks(kb, shipped_dir=shipped) == []


def test_imported_models_pass_the_checks(write_kb: Writer, tmp_path: Path) -> None:
    user = tmp_path / "imported"
    for model_id, config, *_ in CASES:
        write_user_entry(import_hf_config(config, f"imported-{model_id}"), user)
    kb = load_knowledge([write_kb("shipped"), user])
    assert run_checks(kb, shipped_dir=None) == []
