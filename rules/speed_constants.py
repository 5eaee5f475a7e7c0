"""Constants of the speed model (rules/speed.py), each with its public source and what it was fitted on.

`bench/speed_accuracy.py` prints the error of the model against every published throughput and, for each
constant marked *fitted*, a leave-one-group-out figure (refit without a group, error on that group).
Fitting is across groups, never per model or per table.

Groups referred to (ids of ../shared/groundtruth/published.yaml and bench/groundtruth/*.yaml):
`qwen2.5-speed-benchmark-transformers`, `qwen1-readme-inference-perf`, `qwen1-readme-2023-08-bnb`,
`chatglm2-6b-readme-mem-table` (HF transformers, batch 1, A100-80GB); `lmdeploy-w4a16-llama2` (TurboMind,
RTX 4090); `qwen1-readme-finetune-profile` (HF Trainer + PEFT + DeepSpeed training, A100-80GB).
"""

from __future__ import annotations

TENSOR_PARALLEL_ENGINES: frozenset[str] = frozenset({"vllm", "sglang", "lmdeploy", "tensorrt-llm"})
"""Serving engines that split every layer across the cards (Megatron-style tensor parallelism): each card
reads 1/n of the weights per step, and every layer ends in an all-reduce. transformers (`device_map="auto"`),
llama.cpp (`--split-mode layer`) and unsloth split the *layers* instead: a token visits the cards one after
another, so one card's bandwidth serves it at a time."""

METAL_DECODE_BANDWIDTH_EFFICIENCY = 0.875
METAL_DECODE_TOKEN_OVERHEAD_S = 0.0053
"""llama.cpp's Metal back end on Apple silicon, one sequence: a token takes the bytes it reads over 0.875 of the
unified memory's bandwidth plus 5.3 ms. Least-squares fit of 1/tg128 against bytes / bandwidth over the 81 decode
rows of llama.cpp's own Apple silicon table (ggml-org/llama.cpp discussion 4167: Llama-2-7B F16, Q8_0 and Q4_0 on
M1 to M5, 7 to 80 GPU cores; bench/groundtruth/speed/llamacpp_apple_silicon.yaml), with the table's bandwidth
column: in-sample median |error| 3.9%, p90 10.6%. One source, so no leave-one-source-out; left out one chip
generation at a time (M1 … M5) the refits give η 0.86-0.89 and 4.8-5.7 ms, and the held-out rows a median of
4.6%, p90 13.5%."""

METAL_MOE_EXPERT_VISIT_S = 1.8e-5
"""llama.cpp's Metal back end, one sequence: seconds each routed expert an MoE layer visits adds to a token beyond
the bytes it reads (the mul_mat_id dispatch, gather and per-expert kernels). Many small experts cost more than
their bytes: Qwen3-30B-A3B (48 layers × 8 of 128) decodes at about half the rate its 3.3B active parameters allow
on an M1 Max, DeepSeek-R1 (58 × 8 of 256) at 20 tok/s on an M3 Ultra where the bytes allow 28, while Mixtral
(32 × 2 of 8) and gpt-oss-20b (24 × 4 of 32) run near the dense rate. *Fitted* as the median of the per-source
medians of (1/measured − 1/modelled) / (MoE layers × experts per token) over the 9 llama.cpp/Ollama rows of
bench/groundtruth/apple_moe/rows.yaml (6 sources: geerlingguy's benchmarks, llama.cpp PRs 4406 and 15616,
ik_llama.cpp discussion 656, ferrum-infer-rs, itsmostafa/inference-speed-tests). Those rows' median |error| falls
from 20.5% to 11.1% in-sample and 10.2% left-one-source-out, p90 from 129% to 46% and 66% (`python
bench/apple_moe.py`; the ik_llama.cpp IQ4_XS row stays 46% high). Dense models visit no experts and are unchanged."""

DECODE_BANDWIDTH_EFFICIENCY: dict[str, float] = {
    "transformers": 0.9, "unsloth": 0.9, "vllm": 0.85, "sglang": 0.87, "lmdeploy": 0.9,
    "tensorrt-llm": 0.9, "llama.cpp": 0.85,
}
"""η: fraction of the memory bandwidth the weight and KV reads of a decode step reach once the per-layer
overhead (below) is counted separately. Streaming GEMV kernels reach 85–92% of the bandwidth (llama.cpp
RTX 4090 `llama-bench` tg128 in ggml-org/llama.cpp#4766: F16 13.5 GB at 61 t/s and Q8_0 7.2 GB at 98 t/s,
a slope of ≈1 ms per GB = 0.98 × 1,008 GB/s plus ≈3 ms per token; lmdeploy `docs/en/benchmark/a100_fp16.md`
batch-1 TurboMind: Llama-2-7B 100 and 13B 57.5 tok/s on one A100-80GB → η ≈ 0.9 plus ≈80 µs per layer).
transformers: 0.9 *fitted* on the HF rows (best 0.925; the per-layer floor below takes the rest of the step).
lmdeploy 0.9 from its own A100 table (not the 2 groundtruth rows, which alone would ask for 0.97: the RTX 4090's
72 MB L2 cache). vLLM 0.85 / SGLang 0.87 / TensorRT-LLM 0.9: set from the published batch-1 ordering
(TensorRT-LLM ≥ SGLang ≥ vLLM at concurrency 1 in the engine comparisons); not fitted (no rows of their own)."""

MARLIN_MOE_EXPERT_LAUNCH_S = 2.2e-6
"""Seconds per expert GEMM of the pre-rewrite Marlin MoE kernel, which launches one per expert for each of an MoE
layer's two projections (routed or not; engine runtime `quantised_moe_kernel: per-expert`), under CUDA graphs.
Fitted across two sources: https://github.com/vllm-project/vllm/pull/12185 (DeepSeek-V3-AWQ on 8 A100s, CUDA
graphs: 11.1 tok/s with the Marlin MoE kernel against 29.6 with the fused Triton one, 58 MoE layers × 256
experts × 2 GEMMs → 1.9 µs each) and the Qwen3 speed benchmark's SGLang 0.4.6.post1 rows (Qwen3-30B-A3B and
235B-A22B GPTQ-Int4 on H20s, batch 1: 2.2 and 2.35 µs beyond the rest of the step as modelled)."""

TRANSFORMERS_MOE_EXPERT_ITERATION_S = 9.0e-5
"""Seconds per expert visited by transformers' Python loop over an MoE layer's experts (a torch.where that
syncs with the host, an index, three small matmuls and an index_add_). Before 4.52/4.53 the loop visited
every expert at every step, which makes batch-1 decode launch-bound far below what the active weights allow:
Qwen2-57B-A14B (28 MoE layers × 64 experts) decoded at 4.8 tok/s on A100s under transformers 4.38.2
(qwen2-speed-benchmark-2024-06-transformers) and Qwen3-30B-A3B (48 × 128) at 1.9 tok/s on an H20 under 4.51.3
(qwen3-speed-benchmark-2025-05-transformers), ≈ 97 and ≈ 80 µs per expert visited beyond the dense model's
step. Fitted on those two groups (the speed benchmark's leave-one-group-out refits it without each)."""

DECODE_STEP_OVERHEAD_S: dict[str, float] = {"vllm": 3.0e-3, "sglang": 2.0e-3}
"""Per decode step, whatever the model's depth: a serving engine's scheduler, sampling and detokenisation on
the host between two forward passes (the layer floor below is the GPU side). At batch 1 it caps small models:
Qwen2-0.5B decoded at 270 tok/s under vLLM 0.4.2 on an A100 (3.7 ms a step for 1 GB of reads) and Qwen3-0.6B at
414 tok/s under SGLang 0.4.6 on an H20. *Fitted* (grid 0–4 ms, minimising the median |error|) on
qwen2-speed-benchmark-2024-06-vllm (vLLM 0.4.2: 3 ms, with η 0.85 unchanged) before the Qwen2.5 page's vLLM
0.6.3 tables were added, which it then scored at 6.1% median, 14.3% p90 (147 rows); SGLang's 2 ms rests on
qwen3-speed-benchmark-2025-05-sglang alone. vLLM V1's asynchronous scheduling (0.8 on) may well be faster per
step; no measurement of it is in the groundtruth."""

CROSS_MACHINE_DECODE_STEP_S = 1.5e-2
"""Per decode step and per machine boundary a set-up spans, beyond its all-reduces inside a machine: the step's
network round trips (tensor parallelism over InfiniBand pays a network hop in every layer's two all-reduces; a
pipeline across machines hands each token's activations on and waits on the next stage's scheduler), which no
memory read or FLOP explains. *Fitted* (grid 0–30 ms, median |error|) on the only two cross-machine single-
stream decode measurements found, both two machines of 8: DeepSeek-R1-0528 on 16 H100s under SGLang, TP16 over
InfiniBand, 43.25 tok/s (tenstorrent/tt-inference-server#356: the rest of the model leaves ≈ 12 ms a step), and
Kimi-K2 on 16 H800s under vLLM, TP8 × PP2, 31.5 ms a token (vLLM recipes: ≈ 19 ms left); without it the rules
decoded them 2.0× and 2.5× too fast (audit 23 M-23). The two mechanisms differ and each source refits it alone
(bench/speed_accuracy.py leave-one-group-out), so it is a middle value of the two, not a law."""

DECODE_LAYER_OVERHEAD_S: dict[str, float] = {
    "transformers": 6.8e-4, "unsloth": 6.8e-4, "vllm": 5.0e-5, "sglang": 4.5e-5, "lmdeploy": 4.0e-5,
    "tensorrt-llm": 3.5e-5, "llama.cpp": 9.0e-5,
}
"""Per-layer, per-step time that does not depend on the bytes read: kernel launches, norms, rotary, sampling
and (eager PyTorch) Python dispatch. This is the per-token floor: it scales with the number of layers.
HF `generate` in eager mode is launch-bound at batch 1 (Qwen2.5 speed benchmark on an A100: 7B with 28
layers 40 tok/s, 14B with 48 layers 25 tok/s, although the weights alone allow ~95 and ~50) → 0.68 ms per
layer, *fitted* on the transformers groups. CUDA-graph engines: tens of µs per layer (lmdeploy: 40 µs splits
the difference between its A100 batch-1 table, ≈60–80 µs, and the RTX 4090 w4a16 rows, ≈20 µs; llama.cpp
#4766: ≈3 ms / 32 layers ≈ 90 µs). vLLM/SGLang/TensorRT-LLM are set at or
below lmdeploy's figure (their batch-1 latency is published as similar or lower than TurboMind's); not fitted
(no rows of their own in the groundtruth)."""

TRANSFORMERS_QUANT_LAYER_FACTOR: dict[str, float] = {
    "gptq": 1.0, "int4": 1.0, "awq": 1.3, "gptq-int8": 1.3, "int8": 1.3, "nf4": 1.7, "fp4": 1.7,
    "nf4-dq": 1.7, "bnb-int8": 5.0, "fp8": 3.0,
}
"""transformers with a quantised format: the per-layer overhead is multiplied by this (dequantising kernels
at batch 1 are launch/compute-bound: fewer bytes do not mean a faster step; bitsandbytes LLM.int8 splits
outliers into a second matmul). *fitted* on the `qwen2.5-speed-benchmark-transformers`,
`qwen1-readme-inference-perf` and `qwen1-readme-2023-08-bnb` quantised rows (7B: GPTQ-Int4 43 / AWQ 32 /
GPTQ-Int8 32 / bf16 40 tokens/s; bnb NF4 21.4 and LLM.int8 7.9 vs bf16 30). vLLM/SGLang/lmdeploy/llama.cpp
kernels (Marlin, TurboMind, GGML) stay bandwidth-bound: fewer bytes, faster. FP8 (transformers' fine-grained
FP8, a Triton activation-quantise + block-scaled matmul per linear) *fitted* on the one group that measures it,
`qwen3-speed-benchmark-2025-05-transformers` (Qwen3-0.6B 24.6 vs 58.6 tok/s in bf16, Qwen3-32B 7.4 vs 26.2; the
page: "the inference speed of Transformers in FP8 mode is currently not optimal"): no held-out check."""

TRANSFORMERS_KV_BANDWIDTH_EFFICIENCY = 0.04
"""HF transformers reads its KV cache far below the bandwidth (the `DynamicCache` grows by concatenation and
is re-read per layer outside a paged kernel): decode at a 30k-token context is 2–3× slower than at 1 token in
the Qwen2.5 speed benchmark (7B 40 → 19, 14B 25 → 8.2, 32B 17.5 → 5.6 tok/s), ≈14 ms per GB of cache on an
A100 for all three sizes. *fitted* on `qwen2.5-speed-benchmark-transformers` (the only group with long
prompts, so its leave-one-group-out figure is not defined). Paged engines read the cache at η."""

ALLREDUCE_LATENCY_S: dict[str, float] = {"nvlink": 12e-6, "pcie": 36e-6}
"""Latency of one small all-reduce per doubling of the tensor-parallel group (log2 n steps: NCCL's tree and
low-latency protocols, the engines' one-shot kernels on NVLink), ~3× over PCIe. Fitted on published batch-1
decode rates: lmdeploy's A100 table (InternLM-20B on TP2 61 tok/s and Llama-2-70B on TP4 34 tok/s leave ≈12 and
≈24 µs an all-reduce beyond the weights and the per-layer overhead), Qwen2.5's vLLM table (Qwen2.5-72B on 4 A100s,
within 3% at 24 µs) and Qwen3's SGLang table, which decodes Qwen3-235B-A22B at the same speed in bf16 on 8 H20s
(74.5 tok/s) as in FP8 on 4 (71.6): the same bytes per card, so going from 4 to 8 cards adds one step, not four
(a ring's n − 1 steps put 56 µs on TP8 and 24 µs on TP4, 20-25% under the TP8 rows)."""

ALLREDUCES_PER_LAYER = 2
"""Megatron tensor parallelism: one all-reduce after attention and one after the MLP in every layer."""

PCIE_GBPS = 25.0
"""Usable one-direction bandwidth of a PCIe 4.0 x16 link between cards without NVLink (~32 GB/s nominal)."""

DECODE_MFU = 0.5
"""At large batch a decode step is bound by compute: batch × 2·P_active FLOPs at this fraction of the dense
peak (the same utilisation as prefill GEMMs of that many rows; design note 0.5–0.7)."""

UNLISTED_COMPUTE_DECODE_BATCH = 8
"""The largest batch whose decode is timed on a card with no tensor peak (one known only by its memory and
bandwidth), from its memory bandwidth alone. A 16-bit decode step does 2 FLOPs per weight read for each sequence,
so `batch` FLOPs per byte; the cards in the knowledge base with a figure have a 16-bit ridge (dense peak /
bandwidth) of about 116 FLOPs/byte or more (A10G: 69.5 measured TFLOPS over 600 GB/s; A10 125 over 600, T4 65 over
320, L4 121 over 300), about 58 at DECODE_MFU. At batch 8 the compute term is therefore at most ≈ 14% of the memory
term on any tensor-core card, and the figure errs by less than that; above it the compute the card lacks a figure
for starts to decide the step."""

PREFILL_MFU = 0.5
"""Prefill reaches 50% of the dense tensor peak (design note: 0.5–0.7; lmdeploy A100 table: Llama-2-7B
2,048-token first-token latency 0.14 s = 2·6.7e9·2048 / 0.14 s ≈ 200 TFLOPS ≈ 0.63 of 312)."""

TRAIN_MFU: dict[str, float] = {"transformers": 0.55, "unsloth": 0.55}
"""Model FLOPs utilisation of the GEMMs of a training step (FLOPs counted as k·P + attention), HF Trainer
with FlashAttention-2 on an A100. *fitted* on the long-sequence rows of `qwen1-readme-finetune-profile`
(best 0.55–0.575: 7B/14B LoRA at 4–8k tokens); Megatron/DeepSpeed report 0.35–0.55 on A100/H100. unsloth's
published 2× speed-up over HF + FA2 (unsloth README, 2023-12, A100 40GB QLoRA) comes from its fused kernels
cutting the per-layer overhead, not from a higher GEMM peak."""

TRAIN_LAYER_OVERHEAD_S: dict[str, float] = {"transformers": 4.2e-3, "unsloth": 2.1e-3}
"""Per-layer, per-micro-step time of a training step that does not scale with tokens (forward, recompute and
backward launches, PEFT/DeepSpeed hooks): Qwen-1.8B/7B/14B LoRA at 256 tokens take 0.125/0.15/0.2 s per
micro-step whatever the length up to ~1k tokens (24/32/40 layers → ≈5 ms per layer; fit 4.2 ms with the
compute term added). *fitted* on the
short-sequence rows of `qwen1-readme-finetune-profile`. unsloth: half (its published ≈2× over HF). Applied to
LoRA/QLoRA (PEFT) and ZeRO-3 steps, the only ones it was measured on: a plain full fine-tune without ZeRO-3
has no published figure here and gets none."""

EXPERT_PARALLEL_TRAIN_MFU = 0.245
"""Full training of an MoE model with expert parallelism reaches 24.5% of the cards' dense 16-bit peak in model
FLOPs (6·P_active + attention per token, no recomputation counted): the all-to-all that carries each token to its
experts and back, and the small per-expert GEMMs, keep it well below a dense model's. *Fitted* as the median over
the six MoE rows of NeMo AutoModel's performance summary (docs.nvidia.com/nemo/automodel, DGX-H100, BF16, FSDP2 +
EP with DeepEP, 4,096-token sequences; bench/groundtruth/speed/nemo_automodel_moe.yaml): DeepSeek-V3 on 256 and
1,024 cards (0.236, 0.203), Kimi K2 on 256 (0.189), Qwen3-30B-A3B on 8 (0.270), gpt-oss-120b on 64 (0.255) and
gpt-oss-20b on 8 (0.307), each from its tokens/s per GPU with this model's own FLOP count. Left out one model
family at a time the refit median errs on the family left out by 11-29% (DeepSeek), 35% (Kimi), 13% (Qwen3),
14-29% (gpt-oss). One source, so no leave-one-source-out; ms-swift's Megatron-SWIFT page is a check, not a row:
"typically a 10x speedup" for MoE over DeepSpeed, and Qwen3-30B-A3B on 16 A100s at 9.6 s/it with Megatron
against 91.2 with ZeRO-3."""

QLORA_DEQUANT_S_PER_BPARAM = 0.028
"""QLoRA dequantises every frozen 4-bit weight on each pass (forward, recompute, backward): an extra time per
micro-step proportional to the parameters, ≈30 ms per billion (Qwen Q-LoRA on GPTQ-Int4 bases vs LoRA at 256
tokens: 1.8B +0.05 s, 7B +0.23 s, 14B +0.46 s, 72B +3.0 s per micro-step). *fitted* on the Q-LoRA rows of
`qwen1-readme-finetune-profile` (one group: no leave-one-group-out figure)."""

COLLECTIVE_EFFICIENCY = 0.5
"""The fraction of a link's one-direction bandwidth the data-parallel collectives of training reach (bucketed
all-gathers, reduce-scatters and all-reduces: roughly half the NCCL bus bandwidth). ZeRO-3 gathers every
weight shard before each pass (forward, recompute, backward): 3 × weight bytes × (n−1)/n per micro-step.
Qwen-72B LoRA + ZeRO-3 on 4 A100s takes 2.2 s per 256-token micro-step, ≈ 3 × 144 GB × 0.75 / (0.5 × 300
GB/s). *fitted* on that group."""

INTER_NODE_GBPS_PER_GPU: dict[str, float] = {"ndr": 50.0, "hdr": 25.0}
"""One-direction bytes/s (GB/s) a card has to cards in other machines: one InfiniBand port per GPU, as the
training clusters of its generation are built. NDR, 400 Gb/s per GPU, for cards launched from 2022: the DGX
H100/H200 and B200 compute fabric is "eight single-port NVIDIA ConnectX-7 VPI, up to 400 Gb/s" (NVIDIA DGX
BasePOD reference architecture, core components), i.e. 8 × 400 Gb/s = 400 GB/s a node (stas00/ml-engineering
network/README.md@0030e63: "NVIDIA Quantum-2 IB 8x400, 400 GBps, H100"). HDR, 200 Gb/s per GPU, for older cards:
the DGX A100 has eight 200 Gb/s Mellanox adapters. Clouds without RDMA between machines (plain TCP) give a
fraction of this; the reply states the assumption."""

COLLECTIVE_FABRIC_YEAR = 2022
"""Cards launched from this year are assumed on NDR InfiniBand across machines, older ones on HDR."""

CPU_ADAM_PARAMS_PER_S_PER_MACHINE = 1.0e9
"""Parameters a machine's CPU updates per second when the optimizer runs there (DeepSpeed ZeRO-Offload's
DeepSpeedCPUAdam, and the CPU AdamW of FSDP/Megatron offload), shared by every card of the machine: the step is
bound by the host's memory bandwidth, not by how many ranks call it. The median of seven rates derived from
separate sources (bench/README.md, "Offloaded optimizer", quotes each): DeepSpeed's ZeRO-Offload
tutorial log (GPT-2 10B, optimizer_step 6.2-6.5 s: 1.6e9/s), DeepSpeed PR 735 (GPT-2 11.6B in 8.2 s: 1.4e9/s),
DeepSpeed's core-binding blog (Qwen2.5-1.5B on 2× A100, 240 → 1,365 ms a step: ≥1.4e9/s), torchao's optimizer
README (ViT-g 1.1B on a Ryzen 5600, 1.27 → 3.13 s/it: ≥0.6e9/s), prime-rl PR 3210 (Qwen3-4B, fused CPU AdamW:
1.0e9/s), DeepSpeed issue 6695 (Llama2 0.3B/1.2B: 0.8-1.0e9/s) and NeMo RL PR 3628 (Qwen3-0.6B: 0.65e9/s).
Healthy machines span 0.6-1.7e9; a starved or scalar build runs 10-30x slower. Not fitted to any scored row."""

TRAIN_FLOPS_PER_PARAM_TOKEN = 6.0
"""Full fine-tuning/pre-training: forward 2 + backward 4 FLOPs per parameter per token (Kaplan et al.)."""

RECOMPUTE_EXTRA_FLOPS_PER_PARAM_TOKEN = 2.0
"""Full activation checkpointing repeats the forward: 8·P·D in all."""

LORA_FLOPS_PER_PARAM_TOKEN = 4.0
"""LoRA/QLoRA: forward 2 + activation gradients 2; the frozen base gets no weight gradient."""

REFERENCE_FLOPS_PER_PARAM_TOKEN = 2.0
"""DPO's frozen reference model: one forward pass over every chosen and rejected token (TRL's DPOTrainer runs it
beside the policy's unless precompute_ref_log_probs computes the same pass beforehand), 2 FLOPs per parameter."""

TP_EFFICIENCY = 0.85
"""Tensor parallelism over NVLink: each extra card adds 85% of its bandwidth/compute (one all-reduce per
layer costs ~10–20% of a decode step on NVLink; vLLM/TensorRT-LLM TP scaling reports)."""

TP_EFFICIENCY_PCIE = 0.6
"""Tensor parallelism over PCIe only (cards without NVLink: T4, A10, L4, L20, RTX 4090): the per-layer
all-reduce over PCIe costs ~40% of each extra card (vLLM TP on PCIe cards scales ~1.5–1.7× on 2 cards)."""
