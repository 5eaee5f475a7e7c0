"""Every number the sizing rules use, named, with where it comes from.

Two kinds of constants live here:

* **sourced** — read off a public specification or source file (the vLLM defaults, the ZeRO accounting of
  DeepSpeed's own estimator). The comment names the source. Bytes per parameter of each weight format live in
  rules/weight_formats.py, the speed model's figures in rules/speed_constants.py.
* **calibrated** — fitted so that the estimates match the published GPU-memory figures in
  `../shared/groundtruth/published.yaml` (run `python bench/accuracy.py`). The comment names the published
  groups the value was fitted on. They are fitted *generally* (one value for every model), never per
  model.

Memory figures are GiB (2**30 bytes).
"""

from __future__ import annotations

GIB = float(2**30)

# --------------------------------------------------------------------------------------------------------
# Quantisation-library workspace (calibrated)
# --------------------------------------------------------------------------------------------------------

BNB_4BIT_WORKSPACE_LAYERS = 1.0
"""bitsandbytes 4-bit: what the card holds beyond the packed weights, in decoder layers' worth of weights
dequantised to 16-bit. `matmul_4bit` dequantises each weight to the compute dtype for its matmul (forward, and
again for the input gradient in backward), and the caching allocator keeps one block per weight shape, so the
extra is about one layer's linears in 16-bit — it grows with the width of a layer, not with the depth of the model
(a fraction of all packed weights, the form used before, charged a 70B model 5 GiB and lost the Unsloth 48 GB
fits). The evidence: `qwen1-readme-2023-08-bnb` (Qwen-7B nf4: 0.46 GiB more than bf16 at equal KV; one layer's
linears are 0.38 GiB in 16-bit) and `transformers-llm-optimization-guide` (OctoCoder 4-bit: 9.54 GiB vs 8.5 GiB
packed; one layer 0.7 GiB). Grid-fitted (0–4 layers) with the other calibrated constants; bench/_loso.py
refits it without each source. 1 and 2 layers score alike on the error rows (LOSO median 9.2 vs 9.1%);
1 keeps two more fits/OOM verdicts right (34 vs 32 of 42) and matches the two direct readings better.
Allocated-byte readings and expandable segments (Unsloth) keep no block per shape: there the workspace is the
widest single weight (rules/precision.py `quant_workspace_bytes`)."""

# --------------------------------------------------------------------------------------------------------
# KV cache
# --------------------------------------------------------------------------------------------------------

KV_BYTES: dict[str, float] = {"fp32": 4.0, "fp16": 2.0, "bf16": 2.0, "fp8": 2.0, "int8": 2.0, "int4": 2.0,
                              "mxfp4": 2.0}
"""KV cache element size by the weights' precision: the cache stays in the 16-bit compute dtype for
weight-only quantised models (fp8 KV cache is a separate vLLM option, `kv_cache_dtype=fp8`, not assumed)."""

VLLM_BLOCK_TOKENS = 16
"""vLLM pages the KV cache in blocks of 16 tokens (`--block-size` default)."""

# --------------------------------------------------------------------------------------------------------
# Inference activations and overhead (transformers)
# --------------------------------------------------------------------------------------------------------

PREFILL_BYTES_PER_INTERMEDIATE = 4.0
PREFILL_BYTES_PER_HIDDEN = 14.0
"""Peak transient of one layer's forward pass at prefill, bytes per prompt token: a·intermediate + b·hidden
(the gated-MLP gate/up/activation tensors in 16-bit, plus the fp32-upcast norm and residual copies).
Calibrated on `qwen2.5-speed-benchmark-transformers` (memory at input 6k/14k/30k minus input 1, equal for
bf16/GPTQ/AWQ: ≈135 KiB/token for 7B, 118 for 14B, 175 for 32B → a≈4.2, b≈12–14). FlashAttention/SDPA (the
transformers default) is assumed: no seq² scores."""

LLAMA_CPP_UBATCH_TOKENS = 512
"""llama.cpp evaluates a prompt in micro-batches of `n_ubatch` = 512 tokens: its prefill transient (compute
buffer) never covers more than 512 tokens at a time."""

GGML_KQ_BYTES_PER_SCORE = 4.0
"""llama.cpp without flash attention: each layer's KQ product over the whole KV cache, [n_kv × n_ubatch ×
n_head], is an fp32 tensor (ggml-org/llama.cpp@434f71a src/llama-graph.cpp `build_attn_mha`: `ggml_mul_mat(k,
q)` set to GGML_PREC_F32, then `ggml_soft_max_ext`, which ggml's allocator may run in place). At reservation the
KV view spans every cell of the context. Checked against start-up logs, not fitted: Mistral-7B at n_ctx 32000
(32 heads × 512 × 32000 × 4 B = 2000 MiB; "CUDA0 compute buffer size = 2094.50 MiB", llama.cpp issue 7450) and
Llama-3.1-8B in Ollama 0.5.4 at n_ctx 8192 (512 MiB; 560 MiB logged), bench/groundtruth."""

EAGER_ATTENTION_BYTES_PER_SCORE = 6.0
"""Eager attention only (flash_attention=False): heads × s² scores in 16-bit plus the fp32 softmax (2 + 4
bytes) for one layer at a time."""

LOGITS_BYTES_PER_VOCAB_INFERENCE = 6.0
"""Logits of the last position only (transformers ≥ 4.45 `num_logits_to_keep`/`logits_to_keep` in
`generate`): 16-bit + fp32 upcast, per sequence. The Qwen2.5 tables (transformers 4.46) show no
per-prompt-token vocab term, so full-prompt logits are not counted (older Qwen-1 remote code computed
them)."""

REFERENCE_RAM_CHANNELS = 2
REFERENCE_RAM_MTS = 4800
REFERENCE_RAM_BANDWIDTH_GBPS = REFERENCE_RAM_CHANNELS * REFERENCE_RAM_MTS * 8 / 1000
"""System RAM bandwidth the reply bounds a partly offloaded job's speed by when the question states none:
dual-channel DDR5-4800 at its theoretical peak, 4,800 MT/s × 8 bytes per 64-bit channel × 2 channels = 76.8 GB/s
(JEDEC JESD79-5 data rates). A desktop
reaches less; a server's 8-12 channels several times more. Each token reads what stays in RAM once, so
bandwidth / bytes read is a ceiling on tokens/s, never an estimate."""

INFERENCE_OVERHEAD_GIB = 0.5
INFERENCE_OVERHEAD_FRACTION = 0.02
"""Framework/allocator overhead above the tensors at inference: a constant (cuBLAS workspace, rotary and mask
buffers, allocator rounding) + a fraction of the weights (fragmentation grows with the tensor count). The
CUDA context is not in it (allocator peaks such as torch.cuda.max_memory_allocated exclude it); the fit
check subtracts CUDA_CONTEXT_GIB from the card instead. Grid-fitted (0.25–1.1 GiB × 0–10%) to minimise median
+ p90 |error| over every inference group of the groundtruth (qwen2.5-speed-benchmark-transformers, qwen1-readme-
inference-perf, qwen1-readme-2023-08-bnb, chatglm2-6b-readme-mem-table, transformers-llm-optimization-guide,
lmdeploy-w4a16-llama2, accelerate-big-model-inference-bench, …). The groups disagree: clean allocator peaks
(Qwen2.5) sit at +0.1–0.3 GiB, nvidia-smi-style tables at +1–2 GiB; 0.5 GiB + 2% is the compromise."""

# --------------------------------------------------------------------------------------------------------
# vLLM
# --------------------------------------------------------------------------------------------------------

VLLM_GPU_MEMORY_UTILIZATION = 0.9
"""vLLM `gpu_memory_utilization` default: the engine takes 90% of the card and fills what the weights and the
profiled activation peak leave with KV-cache blocks."""

VLLM_SAMPLER_BYTES_PER_VOCAB = 38.5
"""Bytes per (request, vocabulary entry) of vLLM's sampler warm-up at start-up (max_num_seqs dummy requests
through the top-k/top-p path: fp32 logits, their sort values and int64 indices, softmax, cumulative sum, masks,
the scattered result and the sampling probabilities). Fitted on llm-d/llm-d-benchmark
config_explorer/empirical-vllm-memory-results.md (vLLM V1 on an H100, max_num_seqs 1024): "Peak Activation"
4.76 GiB (Llama-3.1-8B, vocabulary 128,256), 5.56 (Qwen3-0.6B) and 5.64 (Qwen3-32B, both 151,936), 7.38
(gpt-oss-20b, 201,088), 4.84 (Llama-3.3-70B FP8 at TP 2): less the kept hidden states (tokens × hidden × 2 B)
that is 38.3–38.9 B for every model. Checked on another source: vLLM PR 10511's V0 run of Meta-Llama-3-8B (256
requests) predicts 1.23 GiB for a published 1.26."""

VLLM_ACTIVATION_GIB_DENSE = 4.8
VLLM_ACTIVATION_GIB_MOE = 8.0
"""Activation + CUDA-graph peak vLLM profiles at start-up on an H100 (llm-d capacity planner: 4.8–5.6 GiB
dense, 8 GiB MoE, at the default max_num_batched_tokens). Used for serving engines with CUDA graphs and no
profile of their own (SGLang); vLLM sizes its own from `profile_run`. Scaled down by hidden size for small
models (below)."""

VLLM_ACTIVATION_REFERENCE_HIDDEN = 4096
"""The llm-d figure is for 7–8B models (hidden 4096); smaller hidden sizes scale the activation peak
linearly, with a floor of VLLM_ACTIVATION_MIN_GIB."""

VLLM_ACTIVATION_MIN_GIB = 1.0

# --------------------------------------------------------------------------------------------------------
# Training
# --------------------------------------------------------------------------------------------------------

OPTIMIZER_BYTES_PER_PARAM: dict[str, float] = {"adamw": 12.0, "adamw-8bit": 6.0, "sgd": 8.0, "adafactor": 4.0}
"""Optimizer states per trainable parameter beyond the 16-bit weights and gradients. Mixed precision keeps an
fp32 master of every weight whatever the optimizer (transformers docs, "Model training anatomy": mixed precision
"maintains a model in fp32 and one in fp16"; DeepSpeed's optimizer holds an fp32 partition), so each entry is
that master (4) plus the optimizer's own states: AdamW two fp32 moments (8) = 12, 2 + 2 + 12 = 16 B/param (ZeRO
paper, "Transformer Math 101"); bitsandbytes 8-bit Adam two 1-byte moments (2) = 6, 10 B/param in all; SGD with
momentum one fp32 momentum (4) = 8, 12 B/param; Adafactor a second moment factored into one row and one column
vector per matrix, with no first moment by default (Shazeer & Stern 2018, "Adafactor: Adaptive Learning Rates with
Sublinear Memory Cost"; transformers' Adafactor beta1=None), so the master alone = 4. `pure bf16` (no fp32
master, bf16 moments) is 2 + 2 + 4 = 8 B/param (LLaMA-Factory's "8x")."""

PURE_16BIT_ADAM_BYTES = 4.0
"""AdamW with bf16 moments and no fp32 master copy (LLaMA-Factory `pure_bf16`)."""

DEEPSPEED_FP32_GRAD_BYTES = 4.0
"""DeepSpeed's fp16/bf16 optimizer keeps an fp32 gradient partition for the step: its own estimator
(`estimate_zero2_model_states_mem_needs`: 4·P + 16·P/N; `estimate_zero3_…`: 18·P/N + 4·largest layer)
counts 12 + 4 bytes per parameter of optimizer state. Matches `deepspeed-memory-estimator-docs` exactly."""

OFFLOAD_HOST_BYTES_ZERO3 = 16.0
OFFLOAD_HOST_BYTES_PER_GPU_ZERO2 = 4.0
OFFLOAD_HOST_BUFFER = 1.5
"""Host RAM an offloaded optimizer needs, per node, by DeepSpeed's own estimators
(deepspeed/runtime/zero/stage3.py `estimate_zero3_model_states_mem_needs`, optimizer offloaded, parameters on the
GPU, zero_init: 16 B per parameter; stage_1_and_2.py `estimate_zero2_model_states_mem_needs`:
max(4 × GPUs, 16) B per parameter), each × `additional_buffer_factor` 1.5. The ZeRO-2 form matches
`deepspeed-memory-estimator-docs` (t5-3b on 8 GPUs: 127.48 GB per CPU = 2.851e9 × 32 × 1.5 B)."""

ZERO3_LARGEST_LAYER_BYTES = 4.0
"""ZeRO-3 gathers the largest layer's 16-bit parameters (and its gradients) whole: 4 × largest layer
(DeepSpeed `estimate_zero3_model_states_mem_needs`)."""

OFFLOAD_HOST_BYTES_ZERO3_PARAMS = 18.0
"""ZeRO-3 with parameters offloaded too (offload_param=cpu, zero_init): 18 B per parameter of host RAM per node,
× the 1.5 buffer (DeepSpeed `estimate_zero3_model_states_mem_needs`, cpu_offload_params branch; its docs print
71.71 GB per CPU for t5-3b = 2.851e9 × 18 × 1.5 B). The card keeps only the gathered largest layer
(ZERO3_LARGEST_LAYER_BYTES), the same estimator's `gpu_mem = largest_layer_memory`."""

TRAIN_ACT_BYTES_PER_HIDDEN = 18.0
TRAIN_ACT_BYTES_PER_INTERMEDIATE_GATED = 6.0
TRAIN_ACT_BYTES_PER_INTERMEDIATE_PLAIN = 4.0
"""Activations stored for the backward pass, per token per layer, 16-bit, no recomputation, flash attention
(Korthikanti et al. 2022, "Reducing Activation Recomputation", eq. 1 without the 5·a·s/h score term and
the dropout masks): attention 11·h + two norms 4·h + MLP input 2·h + 2 bytes per intermediate unit for
every intermediate tensor kept (plain GeLU MLP: fc1 out + GeLU out = 4·i; gated SwiGLU: gate, up, SiLU out
= 6·i). For a GPT MLP (i = 4h) this is 18h + 16h = 34·h, Korthikanti's figure."""

TRAIN_ACT_EAGER_SCORE_BYTES = 5.0
"""Eager attention keeps 5·a·s² bytes per layer per sequence (Korthikanti: softmax output 2, dropout mask 1,
scores 2)."""

CHECKPOINT_BYTES_PER_HIDDEN = 2.0
"""Full activation checkpointing keeps only each layer's 16-bit input, 2·s·b·h per layer (Korthikanti, sec.
4), plus one layer's full activations while it is recomputed."""

LOGITS_BYTES_PER_VOCAB_TRAIN = 10.0
"""Training loss: the logits over the whole sequence — 16-bit logits (2) + fp32 upcast (4) + fp32 log-softmax
/ its gradient (4) ≈ 10 bytes per token per vocabulary entry (design note: "fp32 logits 4·s·b·V", here with
the copies that coexist at the peak). A loss that first copies the shifted logits adds that copy on top
(engine profile `loss_shift_copy_bytes`: 4 in transformers before 4.49, 2 in Qwen-1's own code). Calibrated on
the slope of `qwen1-readme-finetune-profile` LoRA rows with sequence length (Qwen-1.8B: +2.04 MB per token, of
which ≈1.87 MB is the 151,936-entry vocabulary → 12.3 B, less Qwen-1's 2 B copy → 10.3); those runs
checkpoint, so the logits do not coexist with the recomputed layer (rules/memory_training.py). The pooled fit
over every group (bench/_loso.py) lands on 8–10."""

LORA_ACT_BYTES_PER_INPUT = 3.0
"""LoRA keeps, per adapted linear and token, its input after `lora_dropout` (16-bit, 2 B) and the dropout
mask (1 B) for the adapter's backward — 3 bytes per input feature (PEFT `lora.Linear.forward`)."""

KBIT_TRAINING_EMBEDDING_EXTRA_BYTES = 2.0
"""`prepare_model_for_kbit_training` upcasts the non-quantised parameters (embeddings, lm_head, norms) to
fp32: +2 bytes per embedding/lm_head parameter over the 16-bit copy."""

LOGITS_BYTES_PER_VOCAB_TRAIN_FP32_HEAD = 8.0
"""k-bit training (lm_head upcast to fp32 by prepare_model_for_kbit_training): the logits come out in fp32
directly — fp32 logits 4 + their fp32 gradient 4 = 8 bytes per token per vocabulary entry. Calibrated on
the slope of the `qwen1-readme-finetune-profile` Q-LoRA rows (Qwen-1.8B: +1.35 MB per token of which ≈1.18
MB is the vocabulary → 7.8 B), against 12 B for the bf16 LoRA rows of the same table."""

LORA_PARAM_BYTES = 16.0
"""A LoRA adapter parameter trains in fp32 with AdamW: weight 4 + gradient 4 + two moments 8 = 16 bytes."""

ADAPTER_OPTIMIZER_BYTES: dict[str, float] = {"adamw": 8.0, "adamw-8bit": 2.0, "sgd": 4.0, "adafactor": 0.0}
"""Optimizer states per adapter parameter: the adapter is already fp32 (PEFT and Unsloth upcast it), so no master
copy: AdamW's two fp32 moments 8, bitsandbytes 8-bit Adam's two 1-byte moments 2 (LoRA matrices are far above its
`min_8bit_size` of 4,096 elements), SGD momentum 4, Adafactor's factored second moment next to nothing. The same
holds for every parameter an image trainer trains, which it keeps in fp32 too (rules/memory_diffusion_training.py;
Adafactor is what kohya's sd-scripts recommend for full fine-tuning of SDXL and FLUX)."""

TRAINABLE_EMBEDDING_BYTES = 12.0
"""PEFT `modules_to_save` (trainable embedding + lm_head, Qwen's "LoRA (emb)"): a trainable 16-bit copy (2) +
its gradient (2) + fp32 Adam moments (8). Calibrated on `qwen1-readme-finetune-profile` LoRA vs LoRA (emb)
(Qwen-1.8B: +7.0 GiB for 0.62 B embedding parameters → 12.1 B)."""

DEFAULT_LORA_TARGETS_PER_LAYER = "all-linear"
"""LoRA adapts every linear of the decoder layers by default (q,k,v,o + MLP) — QLoRA paper, PEFT
`target_modules="all-linear"`, Qwen/LLaMA-Factory scripts."""

TRAIN_OVERHEAD_GIB = 1.0
TRAIN_OVERHEAD_FRACTION = 0.10
"""Training overhead above the counted tensors: a constant (CUDA-graph free, but cuBLAS/NCCL workspaces,
autograd bookkeeping) and a fraction of the resident weights (allocator fragmentation from the gradient
and recompute churn; the published training tables are mostly nvidia-smi/`memory_reserved`-style).
Grid-fitted (0.5–2 GiB × 0–20%) on every training group, mainly `qwen1-readme-finetune-profile` (81 rows;
LoRA/Q-LoRA at 256 tokens sit +1.9 GiB over the counted tensors at 1.8B, +3.1 at 7B, +4 at 14B); 5% fitted
the error rows marginally better but lost two `hf-blog-4bit-bnb-t4` OOM verdicts, so 10% was kept. Not
applied to the bitsandbytes workspace (counted separately)."""

GRADIENT_CHECKPOINTING_MIN_PARAMS_B = 1.0
"""Practitioners turn gradient checkpointing on when fine-tuning models above ~1B parameters (HF Trainer
recipes, Qwen/LLaMA-Factory scripts); below that it is off by default."""

# --------------------------------------------------------------------------------------------------------
# Non-transformer models (sized from params_b and details)
# --------------------------------------------------------------------------------------------------------

DIFFUSION_ACTIVATION_GIB_PER_MPIXEL = 1.8
"""Diffusion pipeline activation peak per megapixel of output per image, 16-bit, on top of the weights. The
latents' decode sets it (SDXL's fp16 and fp32 runs peak alike beyond their weights), so an fp32 decode doubles
it: fp32 runs, and SDXL's pipeline in fp16, which casts its VAE to fp32 for the decode (the model's
`vae_decodes_fp32_when_fp16`). Fitted across the image rows of bench/groundtruth/diffusion.yaml whose peak is
the generation, not a load-time transient: FLUX.1-dev bf16 at batch 1-16 (diffusers-torchao README, 2024:
1.85 GiB per added 1024² image), SDXL fp16/fp32 at batch 4 (HF SDXL-optimisations blog, 2023: fp16 and fp32
peaks 6 GiB apart, the weights' difference, so the decode is fp32 in both) and at batch 1 (diffusers loading
docs, 2025). bench/_loso.py refits it with the other fitted constants. Before the fp32 decode was modelled,
2.2 had been read off SDXL fp16 batch-1 runs alone."""

DIFFUSION_TRAIN_ACT_GIB_PER_MPIXEL = 4.0
DIFFUSION_TRAIN_ACT_GIB_PER_MPIXEL_CHECKPOINTED = 1.25
DIFFUSION_TRAIN_ACT_PARAMS_EXPONENT = 0.25
"""What training a diffusion denoiser keeps for backward per megapixel of each image, 16-bit (fp32 doubles it):
without gradient checkpointing, and with it (each block's input kept, one block recomputed at a time), times
(denoiser parameters in billions) ** the exponent, a stand-in for the width × depth of the blocks whose inputs
checkpointing keeps (FLUX's 11.9B transformer needs more per megapixel than the 0.86B SD 1.x UNet). Fitted, and
refitted by bench/_loso.py with the other fitted constants, on bench/groundtruth/diffusion_training.yaml and the
FLUX rows of diffusion.yaml: ShivamShrirao's DreamBooth table (SD 1.4 on a T4 at 512², 2-4 images per step with
and without checkpointing: +1.25 GB per added image without, +0.24 with), the HF FLUX QLoRA blog (FLUX.1-dev at
512×768 with checkpointing, 9-36.6 GB), the SimpleTuner FLUX quickstart's rank-16 LoRA by base precision, and the
fits/OOM statements of the diffusers, kohya and SimpleTuner documents. The fit is flat: (4, 1.25, 0.25) is within
0.002 of the best mean log error on those rows, (4, 1.5, 0), and has the lowest 90th percentile; the data cannot
tell the exponent from 0 and 0.25 apart."""

DIFFUSION_ADAPTER_SHARE = 0.02
"""Adapter parameters as a share of the model adapted when its entry gives no count per rank: a stand-in (rank
16-32 on the attention projections of a UNet is 1-2% of it), flagged in the model's notes rather than fitted."""

CNN_ACTIVATION_MIB_PER_GFLOP = 6.0
"""CNN/ViT inference activation peak ≈ 6 MiB per GFLOP of one image at 16-bit (ResNet-50: 4.1 GFLOP ≈ 25 MiB
of live activations per image); training keeps all of them: ×TRAIN_CNN_ACT_MULTIPLIER."""

TRAIN_CNN_ACT_MULTIPLIER = 8.0
"""Training a CNN keeps every layer's output for backward: ≈8× the inference live set (ResNet-50 bs 32 fp16
trains in ≈ 6–8 GiB)."""

SPEECH_TOKENS_PER_WINDOW = 100
"""Decoder tokens for one 30-second window of continuous speech: ~150 words a minute (conversational English)
≈ 75 words, × ~1.3 BPE tokens a word. Silence needs fewer, fast or non-English speech more: stated with the
figures. Both the speed (decoder steps a window) and the memory (the self-attention cache, which grows a token a
step in CTranslate2 and transformers and stops far short of Whisper's 448-token ceiling) are sized at it. Checked
against faster-whisper's measured VRAM (SYSTRAN/faster-whisper README, large-v2, fp16, 5 beams): 4,525 MB for one
stream and 6,090 MB batched 8; at the 448-token ceiling on every beam the batch of 8 would need ≈ 2 GB more."""

ENCODER_DEFAULT_CONTEXT = 512
"""Encoders (BERT-class) run at their max sequence length (512) when none is given; an embedding request with no
length stated is sized at it too, even on a long-window embedder (bge-m3's 8,192): retrieval pipelines embed
chunks of a few hundred tokens, and BERT-class embedders cannot take more."""

# --------------------------------------------------------------------------------------------------------
# Fit and ranking
# --------------------------------------------------------------------------------------------------------

HEADROOM_FRACTION = 0.10
"""The margin the reply recommends leaving free (design note: 10–20%: allocator fragmentation, longer
prompts). A recommendation, not a limit: a job fits when it needs no more than the engine can use, and a
fitting configuration with less than this free is ranked after the comfortable ones and says so."""
TIGHT_FRACTION = 0.03
"""Within this share of the engine's limit, either side, the verdict is "tight" (with what to change),
never a bare yes or no: allocator behaviour and prompt lengths move a real job by a few percent."""
GPUS_PER_NODE = 8
"""Tensor parallelism stays inside a node of 8 (NVLink/NVSwitch domain of HGX boards); more cards are
nodes × 8, tensor parallel inside a node and pipeline parallel across nodes (vLLM, SGLang, TensorRT-LLM)."""
SMALL_JOB_SHARE = 0.25
"""A job needing less than this share of a card's limit is "small" for that card: the reply prefers cards it
fills better, and among cards it barely uses, the cheapest per hour (picks sized to the job)."""
MACHINES_OVER_LEANEST = 2
"""A recommended set-up spans at most this many times the machines (of GPUS_PER_NODE) of the leanest set-up
that holds the job, and no fewer than this many: every machine added brings its inter-node traffic, its share
of failures and its operations, which a cost per token does not price. 64 A10s over eight machines for
DeepSeek-V3, when eight H200s in one machine hold it, is not advice; 16 A100s over two machines is."""
MAX_PICK_GPUS = 64
"""No configuration above this many cards is offered as an alternative (8 nodes of 8)."""

CUDA_CONTEXT_GIB = 0.5
"""The CUDA context + framework kernels take 0.5–1 GiB outside PyTorch's allocator (gpu_poor 650 MB, llmfit
0.5 GB); subtracted from the card before comparing with an allocator-peak estimate."""

GDDR_ECC_RESERVE_FRACTION = 1 / 16
"""GDDR6 datacenter cards with ECC on lose 1/16 of the memory to ECC (A10 shows 23028 MiB of 24 GiB, T4 15360
MiB of 16 GiB in nvidia-smi)."""

MIN_FP16_TENSOR_TFLOPS = 25.0
"""Cards below this dense fp16 peak have no usable tensor cores (Pascal: P40 0.18, P100 21, Quadro P2200
0.06 TFLOPS): rank_picks puts them after every card that has them, whatever their price."""

MIN_DECODE_TOKENS_PER_S = 5.0
"""A chat stream slower than ~5 tokens/s is below reading speed: such configurations rank after the usable ones."""

TP_DEGREES: tuple[int, ...] = (1, 2, 4, 8, 16, 32, 64)
"""Card counts tried for inference: tensor-parallel degrees within a node (powers of two, as instance types
come), then whole nodes of GPUS_PER_NODE (tensor × pipeline parallel)."""

TRAIN_GPU_COUNTS: tuple[int, ...] = (1, 2, 4, 8, 16, 32, 64)
"""Card counts tried for training: data parallel with ZeRO/FSDP across nodes of 8 (up to `max_count`)."""
BEYOND_TRAINING_GPUS: tuple[int, ...] = (128, 256, 512, 1024)
"""Counts of a card the question names tried for a training job no 64 of it hold (a 671B full fine-tune), and
the more-cards fix offered for a set of 64 or more that does not hold it (128 H100s for DeepSeek-V3: 512)."""

PRICE_PROXY_BANDWIDTH_WEIGHT = 1.0
PRICE_PROXY_MEMORY_WEIGHT = 5.0
PRICE_PROXY_TFLOPS_WEIGHT = 2.0
"""When no price is known, a card's relative hourly cost is proxied by bandwidth (GB/s) + 5 × memory (GB) + 2
× dense fp16 TFLOPS. It orders the cards as on-demand prices do (T4 530 < A10 970 < V100-16 1230 < V100-32
1310 < A100-40 2379 < A100-80 3063 < H100 5729) with ratios close to public per-GPU prices (A10/T4 ≈ 1.8,
A100-80/A10 ≈ 3, H100/A100-80 ≈ 1.9 on AWS g4dn/g5/p4de/p5 and Lambda). Relative only; never shown as a
price."""

# --------------------------------------------------------------------------------------------------------
# Money
# --------------------------------------------------------------------------------------------------------

HOURS_PER_MONTH = 730.0
"""A month of continuous rental: 8760 h / 12 = 730 h, the convention of the AWS and Alibaba Cloud price
calculators for monthly on-demand estimates (and the figure issue 10 asks replies to use)."""
