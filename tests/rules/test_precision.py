"""Weights per format: parameters × bytes, with the 16-bit embeddings quantised checkpoints keep."""

from __future__ import annotations

import pytest

from knowledge.schema import Kept16Bit, Model, MoE
from rules import constants as C
from rules import weight_formats as WF
from rules.precision import largest_linear_params, normalise_quant, param_split, quant_workspace_bytes, weight_bytes
from tests.rules._models import make_model

# Toy: 7e9 parameters; embedding 32,000 × 4,096 = 131,072,000, untied → 262,144,000 kept 16-bit.
EMB = 2 * 32000 * 4096
BODY = 7e9 - EMB


def test_plain_precisions() -> None:
    m = make_model()
    assert weight_bytes(m, "fp32", None)[0] == 7e9 * 4
    assert weight_bytes(m, "bf16", None)[0] == 7e9 * 2
    assert weight_bytes(m, "fp16", None)[0] == 7e9 * 2


def test_fp8_quantises_the_linear_layers_and_keeps_embeddings_16bit() -> None:
    # Qwen3-FP8 / DeepSeek-V3 / vLLM --quantization fp8: 1 B per body parameter, lm_head and embeddings bf16.
    got, notes = weight_bytes(make_model(), "fp8", normalise_quant(None, "fp8"))
    assert got == pytest.approx(BODY * 1 + EMB * 2)  # 6.738e9 + 0.524e9 = 7.262e9 B, 3.7% above 7e9 × 1
    assert "embeddings-16bit" in notes


def test_an_official_fp8_release_that_keeps_attention_and_end_layers_16bit() -> None:
    # Meta's Llama-3.1-405B-FP8 recipe on the toy: attention per layer 4 × 4096 × 4096 = 67,108,864 (q, k, v, o
    # with 32 heads and 32 KV heads of 128) → 2,147,483,648 over 32 layers; a layer holds BODY / 32 =
    # 210,558,000, so the 2 end layers add 2 × (210,558,000 − 67,108,864) = 286,898,272 → 2,434,381,920 kept.
    kept = Kept16Bit(attention=True, end_layers=2, source="test")
    model = make_model(official_quants=["fp8"], official_quant_16bit={"fp8": kept})
    got, notes = weight_bytes(model, "fp8", "fp8")
    assert got == pytest.approx((BODY - 2_434_381_920) * 1 + 2_434_381_920 * 2 + EMB * 2)
    assert "official-quant-keeps-16bit" in notes
    assert weight_bytes(model, "int4", "awq")[1] == ["embeddings-16bit"]  # other formats quantise it all


def test_the_kept_parts_must_name_an_official_quant() -> None:
    with pytest.raises(ValueError, match="official_quant_16bit"):
        make_model(official_quant_16bit={"fp8": Kept16Bit(attention=True, source="test")})


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


def test_gguf_on_the_card_is_the_body_and_a_q6_k_output_without_the_embedding_table() -> None:
    # Toy: body BODY = 6,737,856,000 at the file's type; output 32,000 × 4,096 = 131,072,000 at Q6_K (210/256 B)
    # below Q8_0, at its own type from Q8_0 up; token_embd (another 131,072,000) stays in host RAM.
    m = make_model()
    out = 32000 * 4096
    assert weight_bytes(m, "int8", "gguf-q8_0")[0] == pytest.approx((BODY + out) * 34 / 32)
    assert weight_bytes(m, "int4", "gguf-q4_k_m")[0] == pytest.approx(BODY * 4.84 / 8 + out * 210 / 256)
    got, notes = weight_bytes(m, "int4", "gguf-q4_0")
    assert got == pytest.approx(BODY * 18 / 32 + out * 210 / 256)
    assert notes == ["gguf-embeddings-on-host"]
    # Tied: the one table is quantised as the output and copied to the card; the body is 7e9 − 131,072,000.
    tied = make_model(tie_embeddings=True)
    assert weight_bytes(tied, "int4", "gguf-q4_k_m")[0] == pytest.approx((7e9 - out) * 4.84 / 8 + out * 210 / 256)


def test_an_i_quant_is_its_block_size_a_weight() -> None:
    # gguf-py GGML_QUANT_SIZES: IQ1_S packs 256 weights in 50 bytes (1.5625 bits), IQ2_XXS in 66: DeepSeek-R1's
    # "1.58-bit" file is 671e9 × 50 / 256 ≈ 131 GB, as published (audit 33 HIGH 87: sized at int8, 663 GiB)
    m = make_model()
    out = 32000 * 4096
    assert weight_bytes(m, "int4", "gguf-iq1_s")[0] == pytest.approx(BODY * 50 / 256 + out * 210 / 256)
    assert weight_bytes(m, "int4", "gguf-iq2_xxs")[0] == pytest.approx(BODY * 66 / 256 + out * 210 / 256)
    assert normalise_quant("IQ1_S", "int4", "llama.cpp") == "gguf-iq1_s"


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


def _gpt_oss(layers: int, experts: int, params_b: float) -> Model:
    """gpt-oss shape from its config.json: hidden 2880, expert intermediate 2880, 64 q / 8 kv heads of 64."""
    return make_model(
        params_b=params_b, num_layers=layers, hidden_size=2880, num_attention_heads=64, num_kv_heads=8,
        head_dim=64, attention="gqa", intermediate_size=2880, vocab_size=201088,
        moe=MoE(num_experts=experts, experts_per_token=4, moe_intermediate_size=2880), active_params_b=3.6,
    )


def test_mxfp4_is_four_and_a_quarter_bits() -> None:
    # E2M1 element (4 bits) + one E8M0 scale (8 bits) per 32 elements = 4.25 bits.
    assert WF.MXFP4_BYTES_PER_PARAM == 4.25 / 8
    assert normalise_quant(None, "mxfp4") == "mxfp4"
    assert normalise_quant(None, "mxfp4", "llama.cpp") == "mxfp4"
    assert normalise_quant("MXFP4", "bf16") == "mxfp4"


def test_mxfp4_quantises_only_the_moe_experts_of_gpt_oss_20b() -> None:
    # Experts: 24 layers × 32 experts × 3 matrices × 2880 × 2880 = 19,110,297,600 params × 0.53125 B
    # = 10,152,345,600 B. The rest (attention, router, embeddings, lm_head): 21e9 − 19.110e9 = 1,889,702,400
    # params × 2 B = 3,779,404,800 B. Sum 13,931,750,400 B = 12.97 GiB: below 16 GB, as OpenAI says it runs.
    got, notes = weight_bytes(_gpt_oss(24, 32, 21.0), "mxfp4", "mxfp4")
    assert got == pytest.approx(19_110_297_600 * 0.53125 + 1_889_702_400 * 2)
    assert 12.8 <= got / C.GIB <= 13.5
    assert "mxfp4-experts-only" in notes


def test_mxfp4_gpt_oss_120b_fits_one_80gb_card() -> None:
    # Experts: 36 × 128 × 3 × 2880² = 114,661,785,600 params × 0.53125 = 60,914,073,600 B; the other
    # 117e9 − 114.662e9 = 2,338,214,400 params × 2 = 4,676,428,800 B. Total 65,590,502,400 B = 61.09 GiB.
    got, _ = weight_bytes(_gpt_oss(36, 128, 117.0), "mxfp4", "mxfp4")
    assert got == pytest.approx(114_661_785_600 * 0.53125 + 2_338_214_400 * 2)
    assert 60 <= got / C.GIB <= 65


def test_mxfp4_on_a_dense_model_quantises_the_body_and_keeps_embeddings_16bit() -> None:
    got, notes = weight_bytes(make_model(), "mxfp4", "mxfp4")
    assert got == pytest.approx(BODY * 0.53125 + EMB * 2)
    assert "embeddings-16bit" in notes


def test_bnb_workspace_is_a_layer_under_the_caching_allocator_and_one_matrix_otherwise() -> None:
    # Caching allocator: BNB_4BIT_WORKSPACE_LAYERS × a layer's body in 16-bit, (7e9 − 2·32,000·4096) / 32 × 2 B.
    # Allocated bytes or expandable segments: only the widest weight is live, 4096 × 11008 × 2 B = 90,177,536 B.
    model = make_model()
    layer = (7e9 - 2 * 32_000 * 4096) / 32 * 2
    assert quant_workspace_bytes(model, "nf4") == pytest.approx(C.BNB_4BIT_WORKSPACE_LAYERS * layer)
    assert largest_linear_params(model) == 4096 * 11008
    assert quant_workspace_bytes(model, "nf4", one_matrix=True) == 90_177_536
    assert quant_workspace_bytes(model, "awq", one_matrix=True) == 0.0


@pytest.mark.parametrize(("quant", "expected"), [("bpw-4.0", "bpw-4"), ("exl2-4.65", "bpw-4.65"), ("BPW_6", "bpw-6"),
                                                 ("exl3-3", "bpw-3")])
def test_variable_rate_formats_are_named_by_their_bits(quant: str, expected: str) -> None:
    assert normalise_quant(quant, "int4") == expected
    with pytest.raises(ValueError, match=r"bits per weight go from 2 to 8\.5"):
        normalise_quant("bpw-9", "int8")


def test_exl2_card_weights_are_the_body_at_its_bits_and_a_6_bit_head() -> None:
    """Toy 7B, untied 32,000 × 4,096 tables: the body at 4.0 bits, the head at 6, the input table in system RAM."""
    table = 32000 * 4096  # 131,072,000
    body = 7e9 - 2 * table  # 6,737,856,000
    got, _ = weight_bytes(make_model(), "int4", "bpw-4")
    assert got == pytest.approx(body * 4.0 / 8 + table * 6 / 8)  # 3,368,928,000 + 98,304,000 B
    tied, _ = weight_bytes(make_model(tie_embeddings=True), "int4", "bpw-4")
    assert tied == pytest.approx((7e9 - table) * 4.0 / 8 + table * 6 / 8)  # a tied table is quantised as the head


def test_nvfp4_stores_four_bits_and_an_fp8_scale_per_16_in_the_linear_layers() -> None:
    # (4 + 8/16) / 8 = 0.5625 B per body parameter; embeddings and lm_head stay 16-bit
    from rules.precision import param_split, weight_bytes
    from tests.rules._models import make_model

    model = make_model()
    split = param_split(model)
    stored, _ = weight_bytes(model, "int4", "nvfp4")
    assert WF.QUANT_BYTES_PER_PARAM["nvfp4"] == 0.5625
    assert stored == pytest.approx(split.body * 0.5625 + split.embedding * WF.EMBEDDING_BYTES_QUANTISED)


def test_a_gguf_of_a_model_released_in_mxfp4_keeps_its_experts_in_mxfp4() -> None:
    # gpt-oss-120b: its routed experts are most of its 117B parameters; a "Q2_K" file still holds them in MXFP4
    # (about 0.53 B a weight), so it is about as large as the MXFP4 one, never 2.6 bits a weight all through
    from knowledge.loader import load_knowledge
    from rules.precision import moe_expert_params

    model = load_knowledge().models["gpt-oss-120b"]
    experts = moe_expert_params(model)
    q2k, _ = weight_bytes(model, "int4", "gguf-q2_k")
    mxfp4, _ = weight_bytes(model, "mxfp4", "mxfp4")
    assert experts > 0.9 * model.params_b * 1e9
    assert q2k > 0.9 * mxfp4 and q2k > experts * 0.5


def test_kimi_k2_thinkings_int4_experts_take_4_5_bits_and_the_rest_16() -> None:
    from knowledge.loader import load_knowledge
    from rules.weight_formats import INT4_EXPERTS_G32_BYTES_PER_PARAM

    # audit 27 LOW-70: sized as GPTQ g128 over a rounded 1T, 487 GiB against ≈ 594 GB on disk.
    # Experts: 60 MoE layers × 384 × 3 × 7168 × 2048 = 1,014,686,023,680 params × (4 + 16/32)/8 B; the rest of
    # the config's 1,026.41B (attention, shared experts, the dense layer, embeddings) in bf16.
    model = load_knowledge().model("kimi-k2-thinking")
    experts = 60 * 384 * 3 * 7168 * 2048
    got, notes = weight_bytes(model, "int4", "int4-experts-g32")
    assert INT4_EXPERTS_G32_BYTES_PER_PARAM == 0.5625
    assert got == pytest.approx(experts * 0.5625 + (1026.41e9 - experts) * 2)
    assert 590e9 < got < 600e9  # the release's ≈ 594 GB
    assert "int4-experts-g32-experts-only" in notes
