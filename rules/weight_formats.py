"""Bytes per parameter of every weight format the sizing rules know: plain tensors, GPTQ/AWQ and the other
grouped integer formats, block-scaled floats, GGUF's file types, and what quantised checkpoints keep in 16 bits.

All are sourced (format specifications and the quantisers' own code), none is fitted: rules/constants.py holds
the calibrated figures.
"""

from __future__ import annotations

BYTES_PER_PARAM_PLAIN: dict[str, float] = {"fp32": 4.0, "fp16": 2.0, "bf16": 2.0, "fp8": 1.0, "int8": 1.0,
                                           "int4": 0.5}
"""Plain tensors: IEEE sizes. `int4` alone (no format named) is treated like a group-128 int4 format below."""

GROUP_SIZE_GPTQ_AWQ = 128
"""GPTQ / AWQ default group size (AutoGPTQ `BaseQuantizeConfig(group_size=128)`, AutoAWQ
`q_group_size=128`)."""

QUANT_BYTES_PER_PARAM: dict[str, float] = {
    # GPTQ / AWQ, group 128: packed 4-bit weight + one fp16 scale and one packed 4-bit zero point per group of
    # 128 → (4 + 16/128 + 4/128) / 8 = 0.5195 B (AutoGPTQ qweight/scales/qzeros layout; AutoAWQ is the same).
    "gptq": (4 + 16 / 128 + 4 / 128) / 8,
    "awq": (4 + 16 / 128 + 4 / 128) / 8,
    "gptq-int4": (4 + 16 / 128 + 4 / 128) / 8,
    "awq-int4": (4 + 16 / 128 + 4 / 128) / 8,
    # GPTQ 8-bit, group 128: (8 + 16/128 + 8/128) / 8 = 1.0234 B.
    "gptq-int8": (8 + 16 / 128 + 8 / 128) / 8,
    # bitsandbytes NF4/FP4 (`Linear4bit`): packed 4-bit + one fp32 absmax per block of 64 → (4 + 32/64)/8
    # = 0.5625 B. With double quantisation (`bnb_4bit_use_double_quant`) the absmax is 8-bit plus one fp32
    # per 256 blocks: (4 + 8/64 + 32/(64·256))/8 = 0.5159 B (QLoRA paper, section 3).
    "nf4": (4 + 32 / 64) / 8,
    "fp4": (4 + 32 / 64) / 8,
    "nf4-dq": (4 + 8 / 64 + 32 / (64 * 256)) / 8,
    # bitsandbytes LLM.int8 (`Linear8bitLt`): int8 weight + one fp32 scale per output row (negligible).
    "bnb-int8": 1.0,
    # Built-in weight-only quantisers (ChatGLM `quantize(8|4)`, plain int8/int4 per-channel): one fp16 scale
    # per output row, negligible.
    "int8": 1.0,
    "int4": (4 + 16 / 128 + 4 / 128) / 8,
    "fp8": 1.0,
    # 2-bit (HQQ/AQLM-class, LLaMA-Factory's "QLoRA 2-bit" row): 2 bits + fp16 scale and zero per group of 64
    # → (2 + 32/64) / 8 = 0.3125 B (HQQ default `group_size=64`).
    "int2": (2 + 32 / 64) / 8,
}
"""Bytes per *quantised* parameter of each named weight format (the layers the format quantises)."""

MXFP4_BYTES_PER_PARAM = (4 + 8 / 32) / 8
"""OCP Microscaling MXFP4: a 4-bit E2M1 element plus one shared 8-bit E8M0 scale per block of 32 elements →
4.25 bits = 0.53125 B per parameter (OCP "Microscaling Formats (MX) v1.0" spec, table of MX-compliant formats;
the gpt-oss checkpoints store `*_blocks` uint8 pairs of nibbles and `*_scales` uint8 per 32 values). Only the
tensors the checkpoint quantises take this size: gpt-oss's config.json `quantization_config` is
`{"quant_method": "mxfp4", "modules_to_not_convert": ["model.layers.*.self_attn", "model.layers.*.mlp.router",
"model.embed_tokens", "lm_head"]}` (huggingface.co/openai/gpt-oss-120b config.json), so attention, router,
embeddings and lm_head stay bf16 and only the MoE expert weights are MXFP4."""
QUANT_BYTES_PER_PARAM["mxfp4"] = MXFP4_BYTES_PER_PARAM
NVFP4_BYTES_PER_PARAM = (4 + 8 / 16) / 8
"""NVIDIA's NVFP4: a 4-bit E2M1 element plus one FP8 E4M3 scale per block of 16 (and one fp32 scale per tensor)
→ 0.5625 B (NVIDIA technical blog "Introducing NVFP4 for efficient and accurate low-precision inference", 2025;
TensorRT Model Optimizer's NVFP4 checkpoints such as nvidia/Llama-3.1-8B-Instruct-FP4). The linear layers are
quantised, embeddings and lm_head stay 16-bit."""
QUANT_BYTES_PER_PARAM["nvfp4"] = NVFP4_BYTES_PER_PARAM
INT4_EXPERTS_G32_BYTES_PER_PARAM = (4 + 16 / 32) / 8
"""compressed-tensors `pack-quantized` INT4, symmetric, one bf16 scale per group of 32 and no zero point →
4.5 bits = 0.5625 B: the routed experts of Kimi K2 Thinking's quantisation-aware-trained release (its config.json
`quantization_config`: format pack-quantized, num_bits 4, group_size 32, symmetric, targets the experts' Linear
layers; attention, shared experts, dense layers, embeddings and lm_head are left in bf16). About 594 GB on disk for
1.04T parameters."""
QUANT_BYTES_PER_PARAM["int4-experts-g32"] = INT4_EXPERTS_G32_BYTES_PER_PARAM
EXPERTS_ONLY_FORMATS: frozenset[str] = frozenset({"mxfp4", "int4-experts-g32"})
"""Formats a release applies to its routed experts only, every other tensor left in 16 bits."""
BLOCK_SCALE_BYTES_PER_PARAM: dict[str, float] = {"mxfp4": 1 / 32}
"""The share of a block-scaled format that is its scales: MXFP4's one E8M0 byte per 32 elements."""

GGUF_BYTES_PER_PARAM: dict[str, float] = {
    # gguf-py `GGML_QUANT_SIZES` (block bytes / block elements) for the uniform types:
    "gguf-q8_0": 34 / 32,  # 1.0625
    "gguf-q6_k": 210 / 256,  # 0.8203
    "gguf-q5_k": 176 / 256,  # 0.6875
    "gguf-q5_0": 22 / 32,  # 0.6875
    "gguf-q5_1": 24 / 32,  # 0.75
    "gguf-q4_k": 144 / 256,  # 0.5625
    "gguf-q4_0": 18 / 32,  # 0.5625
    "gguf-q4_1": 20 / 32,  # 0.625
    "gguf-q3_k": 110 / 256,  # 0.4297
    "gguf-q2_k": 84 / 256,  # 0.3281
    "gguf-f16": 2.0,
    "gguf-bf16": 2.0,
    # the i-quants (gguf-py GGML_QUANT_SIZES): importance-matrix types people run very large models in, down to
    # the "1.58-bit" DeepSeek-R1 files (Unsloth's dynamic UD-IQ1_S, 131 GB for 671B: IQ1_S's 1.5625 bits a weight)
    "gguf-iq1_s": 50 / 256,  # 0.1953
    "gguf-iq1_m": 56 / 256,  # 0.2188
    "gguf-iq2_xxs": 66 / 256,  # 0.2578
    "gguf-iq2_xs": 74 / 256,  # 0.2891
    "gguf-iq2_s": 82 / 256,  # 0.3203
    "gguf-iq3_xxs": 98 / 256,  # 0.3828
    "gguf-iq3_s": 110 / 256,  # 0.4297
    "gguf-iq4_xs": 136 / 256,  # 0.5313
    "gguf-iq4_nl": 18 / 32,  # 0.5625
    # The "_M"/"_S"/"_L" mixes keep some tensors (attn_v, ffn_down, output) at a higher type; their
    # whole-file bits per weight are llama.cpp's figures for LLaMA-7B (`llama-quantize` type list and the
    # k-quants PR #1684 table: Q4_K_M file 3.80 GiB for 6.74 B parameters = 4.84 bpw).
    "gguf-q6_k_m": 6.56 / 8,
    "gguf-q5_k_m": 5.67 / 8,
    "gguf-q5_k_s": 5.52 / 8,
    "gguf-q4_k_m": 4.84 / 8,
    "gguf-q4_k_s": 4.58 / 8,
    "gguf-q3_k_m": 3.89 / 8,
    "gguf-q3_k_s": 3.50 / 8,
    "gguf-q3_k_l": 4.27 / 8,
    "gguf-q2_k_s": 2.96 / 8,
}
"""GGUF: bytes per parameter of the file's body (every tensor but the token embeddings and the output layer,
which `gguf_card_bytes` places apart)."""

GGUF_OUTPUT_TYPE = "gguf-q6_k"
"""llama.cpp quantises output.weight (or, with tied embeddings, token_embd as the output) to Q6_K for every file
type below Q8_0 (ggml-org/llama.cpp src/llama-quant.cpp `llama_tensor_get_type`: `else if (new_type !=
GGML_TYPE_Q8_0) new_type = GGML_TYPE_Q6_K` for the output tensor); Q8_0/F16/BF16 files keep their own type. The
token-embedding table itself stays in host RAM at any -ngl (src/llama-model.cpp: "there is very little benefit
to offloading the input layer, so always keep it on the CPU", `dev_input = { cpu_dev, … }`); a tied table is
duplicated onto the card as the output. Checked against start-up logs in bench/groundtruth/llamacpp_ollama_logs.yaml
(Llama-3.1-8B Q4_K_M: CUDA0 4403 MiB of weights with the 282 MiB table on the CPU)."""

DEFAULT_GGUF = "gguf-q4_k_m"
"""llama.cpp's most common download and Ollama's default tag. Sources are secondary guides, not Ollama's own
documentation (not in the reference corpus): martinkollie.com/blog/llm-naming-explained-what-does-it-mean ("If
not specified, it's usually q4_K_M by default") and likeone.ai/academy/local-ai-privacy/choosing-models ("Q4
(4-bit): The default for most Ollama models"). The reply sizes a llama.cpp/Ollama job in it when no precision
is given, and says so under Assumed."""

EMBEDDING_BYTES_QUANTISED = 2.0
"""Embeddings and lm_head stay 16-bit in GPTQ/AWQ/bitsandbytes/ChatGLM checkpoints (AutoGPTQ quantises only
the decoder layers' Linear modules; transformers' bnb integration skips `lm_head` via
`get_keys_to_not_convert`, and `nn.Embedding` is never a Linear). Untied embeddings count twice."""
