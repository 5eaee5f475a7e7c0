"""Round 2 of knowledge-base facts: Cohere Command R / R+, the Phi-3 4K and 128K checkpoints as separate entries,
the Ascend 910B's BF16 and a seconds-per-image for FLUX.1-schnell.

Each number is the one the entry's sources give (config.json copies on the Hub, model cards, the cited docs); the
tests read them through the public loader and the rules, as the bot does.
"""

from __future__ import annotations

import pytest

from knowledge.base import KnowledgeBase
from knowledge.loader import default_knowledge
from knowledge.schema import Model
from rules.hardware import supports_bf16
from rules.speed_media import diffusion_seconds_per_image, diffusion_steps


@pytest.fixture(scope="module")
def kb() -> KnowledgeBase:
    return default_knowledge()


# --------------------------------------------------------------------------------------------------------
# Cohere Command R family
# --------------------------------------------------------------------------------------------------------

# id: (layers, hidden, heads, kv heads, head_dim, intermediate, max_context, max_position_embeddings, qk_norm,
#      native precision, published params_b)
COHERE = {
    "command-r-v01": (40, 8192, 64, 64, 128, 22528, 131072, 8192, False, "fp16", 35.0),
    "c4ai-command-r-08-2024": (40, 8192, 64, 8, 128, 24576, 131072, None, False, "bf16", 32.3),
    "command-r-plus": (64, 12288, 96, 8, 128, 33792, 131072, 8192, True, "fp16", 104.0),
    "command-r-plus-08-2024": (64, 12288, 96, 8, 128, 33792, 131072, None, True, "bf16", 104.0),
}


def cohere_params(m: Model, qk_norm: bool) -> int:
    """CohereForCausalLM: per layer q, k, v, o (no bias), a gated MLP, one bias-free LayerNorm (parallel block) and,
    with use_qk_norm, LayerNorms of (heads, head_dim) and (kv heads, head_dim); then the tied embedding and the
    final norm."""
    assert m.num_layers and m.hidden_size and m.num_attention_heads and m.num_kv_heads and m.head_dim
    assert m.intermediate_size and m.vocab_size
    h, hd = m.hidden_size, m.head_dim
    attention = 2 * h * m.num_attention_heads * hd + 2 * h * m.num_kv_heads * hd
    norms = h + ((m.num_attention_heads + m.num_kv_heads) * hd if qk_norm else 0)
    layer = attention + 3 * h * m.intermediate_size + norms
    return m.num_layers * layer + m.vocab_size * h + h


@pytest.mark.parametrize("model_id", sorted(COHERE))
def test_command_r_entries_hold_their_configs(kb: KnowledgeBase, model_id: str) -> None:
    m = kb.model(model_id)
    layers, hidden, heads, kv, head_dim, inner, window, positions, _, precision, params = COHERE[model_id]
    assert (m.num_layers, m.hidden_size, m.num_attention_heads, m.num_kv_heads, m.head_dim) == (
        layers, hidden, heads, kv, head_dim)
    assert (m.intermediate_size, m.vocab_size, m.tie_embeddings, m.mlp) == (inner, 256000, True, "gated")
    assert (m.max_context, m.max_position_embeddings) == (window, positions)
    assert m.native_precision == precision and m.params_b == params
    assert m.attention == ("mha" if kv == heads else "gqa")
    assert m.kv_cache_kib_per_token_16bit == 2 * layers * kv * head_dim * 2 / 1024
    assert m.org == "Cohere" and m.family == "Command R"
    assert any("config.json" in line for line in m.source)
    assert "CC-BY-NC" in (m.notes or "")


@pytest.mark.parametrize("model_id", sorted(COHERE))
def test_command_r_shapes_give_the_parameter_count(kb: KnowledgeBase, model_id: str) -> None:
    m = kb.model(model_id)
    count = cohere_params(m, qk_norm=COHERE[model_id][8])
    assert m.params_b_computed == pytest.approx(count / 1e9, abs=0.005)
    # Tied embeddings are what reproduce the published sizes (35B, 32.3B on the Hub, 104B).
    assert count / 1e9 == pytest.approx(m.params_b, rel=0.01)


def test_command_r_has_no_gqa_and_the_plus_has_eight_kv_heads(kb: KnowledgeBase) -> None:
    assert kb.model("command-r-v01").num_kv_heads == 64
    assert kb.model("command-r-v01").kv_cache_kib_per_token_16bit == 1280.0
    plus = kb.model("command-r-plus")
    assert (plus.params_b, plus.num_kv_heads) == (104.0, 8)
    # The 08-2024 refresh moved Command R to GQA too.
    assert kb.model("c4ai-command-r-08-2024").num_kv_heads == 8


def test_command_r_v01_records_both_context_figures(kb: KnowledgeBase) -> None:
    """config.json says max_position_embeddings 8192, the card and model_max_length 128K: both are kept."""
    for model_id in ("command-r-v01", "command-r-plus"):
        m = kb.model(model_id)
        assert m.max_context == 131072 and m.rope_positions == 8192
        assert any("model_max_length 131072" in line for line in m.source)


@pytest.mark.parametrize(("name", "model_id"), [
    ("Command R+", "command-r-plus"),
    ("command-r-plus", "command-r-plus"),
    ("Command R plus", "command-r-plus"),
    ("CohereForAI/c4ai-command-r-plus", "command-r-plus"),
    ("Cohere Command R 35B", "command-r-v01"),
    ("c4ai-command-r-v01", "command-r-v01"),
    ("CohereForAI/c4ai-command-r-v01", "command-r-v01"),
    ("Command R 32B", "c4ai-command-r-08-2024"),
    ("c4ai-command-r-08-2024", "c4ai-command-r-08-2024"),
    ("Command R+ 08-2024", "command-r-plus-08-2024"),
    ("c4ai-command-r-plus-08-2024", "command-r-plus-08-2024"),
    ("phi-3-medium-128k-instruct", "phi-3-medium-128k"),
    ("microsoft/Phi-3-medium-128k-instruct", "phi-3-medium-128k"),
    ("Phi-3-medium-4k-instruct", "phi-3-medium"),
    ("Phi-3-medium", "phi-3-medium"),
    ("phi-3-mini-128k-instruct", "phi-3-mini-128k"),
    ("Phi-3-mini-4k-instruct", "phi-3-mini"),
    ("Phi-3-mini", "phi-3-mini"),
])
def test_command_r_and_phi3_names_resolve(kb: KnowledgeBase, name: str, model_id: str) -> None:
    found = kb.model_index.lookup(name)
    assert found.confident and found.best is not None and found.best.id == model_id


def test_the_plus_sign_tells_command_r_plus_from_command_r(kb: KnowledgeBase) -> None:
    """A '+' ending a word is part of the name: "Command R+" is the 104B model, "Command R" the 35B v01."""
    assert kb.model_index.exact("Command R+") == kb.model_index.exact("command r plus") == "command-r-plus"
    assert kb.model_index.exact("command r") == "command-r-v01"


def test_command_r_plus_on_four_a100s_with_vllm_is_the_104b_model(kb: KnowledgeBase) -> None:
    from bot.reply.request import answer_request

    result = answer_request({"text": "Command R+ on 4x A100 80GB with vLLM"}, kb)
    assert result.query.model == "command-r-plus"
    assert (result.query.gpu, result.query.gpu_count, result.query.engine) == ("a100-80gb", 4, "vllm")
    assert kb.model(result.query.model).params_b == 104.0
    for text, model_id in (("Cohere Command R 35B on an A100 80GB", "command-r-v01"),
                           ("Command R on an A100 80GB", "command-r-v01"),
                           ("Command R 32B on an H100", "c4ai-command-r-08-2024")):
        assert answer_request({"text": text}, kb).query.model == model_id, text


# --------------------------------------------------------------------------------------------------------
# Phi-3: the 4K and 128K checkpoints are separate entries
# --------------------------------------------------------------------------------------------------------

PHI3_WINDOWS = {"phi-3-mini": 4096, "phi-3-mini-128k": 131072, "phi-3-medium": 4096, "phi-3-medium-128k": 131072}


@pytest.mark.parametrize(("model_id", "window"), sorted(PHI3_WINDOWS.items()))
def test_each_phi3_checkpoint_has_its_own_window(kb: KnowledgeBase, model_id: str, window: int) -> None:
    m = kb.model(model_id)
    assert m.max_context == window and m.max_position_embeddings is None
    assert len(m.hf_ids) == 1 and m.hf_ids[0].endswith("-4k-instruct" if window == 4096 else "-128k-instruct")
    assert any("config.json" in line for line in m.source)


@pytest.mark.parametrize("size", ["mini", "medium"])
def test_the_4k_and_128k_checkpoints_share_every_shape(kb: KnowledgeBase, size: str) -> None:
    short, long = kb.model(f"phi-3-{size}"), kb.model(f"phi-3-{size}-128k")
    fields = ("num_layers", "hidden_size", "num_attention_heads", "num_kv_heads", "head_dim", "intermediate_size",
              "vocab_size", "tie_embeddings", "params_b", "params_b_computed", "kv_cache_kib_per_token_16bit")
    assert {f: getattr(short, f) for f in fields} == {f: getattr(long, f) for f in fields}
    assert any("original_max_position_embeddings 4096" in line for line in long.source)


def test_phi3_medium_128k_window_and_the_4k_one(kb: KnowledgeBase) -> None:
    assert kb.model("phi-3-medium-128k").max_context == 131072
    assert kb.model("phi-3-medium").max_context == 4096
    assert (kb.model("phi-3-medium").num_kv_heads, kb.model("phi-3-mini").num_kv_heads) == (10, 32)


def test_a_128k_question_gets_the_128k_checkpoint_with_no_window_warning(kb: KnowledgeBase) -> None:
    from bot.reply.request import answer_request

    result = answer_request({"text": "Phi-3-medium-128k at 128k context on an A100 80GB"}, kb)
    assert (result.query.model, result.query.context) == ("phi-3-medium-128k", 131072)
    assert not any(a.reason == "beyond-native-context" for a in result.assumptions)
    # The bare name is the 4K checkpoint, so the same question about it is told it is past the native window.
    bare = answer_request({"text": "Phi-3-medium at 128k context on an A100 80GB"}, kb)
    assert bare.query.model == "phi-3-medium"
    assert any(a.reason == "beyond-native-context" for a in bare.assumptions)


# --------------------------------------------------------------------------------------------------------
# Ascend 910B runs BF16
# --------------------------------------------------------------------------------------------------------

def test_ascend_910b_is_bf16_capable(kb: KnowledgeBase) -> None:
    card = kb.gpu("ascend-910b")
    assert supports_bf16(card)
    assert card.bf16_tflops == 328  # the measured BF16 GEMM rate, the only sourced BF16 figure
    assert "bf16_tflops" in card.unverified_fields
    assert any("limulidae" in line for line in card.source)
    assert any("bfloat16" in line for line in card.source)


def test_a_bf16_model_on_the_910b_keeps_bf16(kb: KnowledgeBase) -> None:
    from bot.reply.request import answer_request

    result = answer_request({"text": "昇腾910B能跑Qwen2.5-72B吗"}, kb)
    assert (result.query.model, result.query.gpu, result.query.precision) == ("qwen2.5-72b", "ascend-910b", "bf16")


# --------------------------------------------------------------------------------------------------------
# FLUX.1-schnell has a seconds-per-image
# --------------------------------------------------------------------------------------------------------

def test_flux_schnell_defaults_to_four_steps(kb: KnowledgeBase) -> None:
    schnell = kb.model("flux.1-schnell")
    assert diffusion_steps(schnell) == 4
    assert "4 for schnell" in schnell.details["default_steps_source"]


def test_flux_schnell_is_timed_from_devs_measurement_scaled_by_steps(kb: KnowledgeBase) -> None:
    schnell, dev = kb.model("flux.1-schnell"), kb.model("flux.1-dev")
    reference = schnell.details["reference_speed"]
    assert reference["measured_model"] == "black-forest-labs/FLUX.1-dev"
    # The same measurement as dev's own entry: 12 s for 50 steps at 1024² on an H100.
    for key in ("gpu", "seconds_per_image", "steps", "resolution"):
        assert reference[key] == dev.details["reference_speed"][key]
    h100 = kb.gpu(reference["gpu"])
    seconds = diffusion_seconds_per_image(schnell, h100, h100, steps=diffusion_steps(schnell), resolution=1024)
    assert seconds == pytest.approx(12 * 4 / 50)
    # On another card it scales by the dense fp16 peaks, like dev.
    a100 = kb.gpu("a100-80gb")
    slower = diffusion_seconds_per_image(schnell, a100, h100, steps=4, resolution=1024)
    assert slower is not None and slower > seconds


def test_flux_schnell_question_gets_a_time(kb: KnowledgeBase) -> None:
    from bot.reply.request import answer_request

    result = answer_request({"text": "FLUX.1 schnell on an H100, how fast"}, kb)
    assert result.query.model == "flux.1-schnell"
    assert result.speed is not None and result.speed["seconds_per_image"] == pytest.approx(0.96, rel=0.01)
