"""The reply's words in English and Simplified Chinese; Traditional Chinese is converted with OpenCC.

Templates look phrases up here by key (`t.key`), so a template is written once for every language and a
missing translation fails a test rather than showing a key to a user.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

MESSAGES: dict[str, dict[str, str]] = {
    "read_as": {"en": "I read this as", "zh-Hans": "我的理解"},
    "memory": {"en": "Memory needed", "zh-Hans": "显存需求"},
    "total": {"en": "total", "zh-Hans": "合计"},
    "per_gpu": {"en": "per GPU", "zh-Hans": "每卡"},
    "over_gpus": {"en": "over {n} GPUs", "zh-Hans": "分布在 {n} 张卡上"},
    "weights": {"en": "Weights", "zh-Hans": "权重"},
    "kv_cache": {"en": "KV cache", "zh-Hans": "KV 缓存"},
    "activations": {"en": "Activations", "zh-Hans": "激活"},
    "gradients": {"en": "Gradients", "zh-Hans": "梯度"},
    "optimizer": {"en": "Optimizer states", "zh-Hans": "优化器状态"},
    "overhead": {"en": "Runtime overhead", "zh-Hans": "运行时开销"},
    "picks": {"en": "Recommended", "zh-Hans": "推荐配置"},
    "col_gpu": {"en": "GPU", "zh-Hans": "显卡"},
    "col_memory": {"en": "GB per card", "zh-Hans": "单卡显存 GB"},
    "col_used": {"en": "GB used", "zh-Hans": "已用 GB"},
    "col_free": {"en": "GB free", "zh-Hans": "剩余 GB"},
    "col_decode": {"en": "tok/s per sequence", "zh-Hans": "tok/s（单序列）"},
    "col_concurrent": {"en": "concurrent sequences", "zh-Hans": "可并发序列"},
    "col_price": {"en": "price/h", "zh-Hans": "价格/小时"},
    "col_bandwidth": {"en": "GB/s", "zh-Hans": "带宽 GB/s"},
    "col_fp16": {"en": "FP16 TFLOPS", "zh-Hans": "FP16 TFLOPS"},
    "col_fit": {"en": "for this job", "zh-Hans": "本任务"},
    "col_model": {"en": "Model", "zh-Hans": "模型"},
    "col_total": {"en": "GB total", "zh-Hans": "合计 GB"},
    "col_fits_on": {"en": "fits on", "zh-Hans": "可放在"},
    "col_per_gpu": {"en": "GB per GPU", "zh-Hans": "每卡 GB"},
    "breakdown_per_gpu": {"en": "Per GPU", "zh-Hans": "每卡明细"},
    "pool_value": {"en": "NVIDIA datacenter and workstation GPUs", "zh-Hans": "NVIDIA 数据中心与工作站显卡"},
    "alternatives": {"en": "Alternatives", "zh-Hans": "备选"},
    "nothing_fits": {"en": "Nothing fits as asked; the closest options", "zh-Hans": "按当前设置没有能放下的配置，最接近的方案"},
    "used": {"en": "used", "zh-Hans": "已用"},
    "free": {"en": "free", "zh-Hans": "剩余"},
    "does_not_fit": {"en": "does not fit", "zh-Hans": "放不下"},
    "tok_s": {"en": "tok/s per sequence", "zh-Hans": "tok/s（单序列）"},
    "concurrent": {"en": "{n} concurrent sequences fit", "zh-Hans": "可并发 {n} 条序列"},
    "backend_tensorrt": {"en": "TensorRT engine", "zh-Hans": "TensorRT 引擎"},
    "backend_pytorch": {"en": "PyTorch backend", "zh-Hans": "PyTorch 后端"},
    "backend_v0": {"en": "V0 engine", "zh-Hans": "V0 引擎"},
    "backend_v1": {"en": "V1 engine", "zh-Hans": "V1 引擎"},
    "cpu_moe_read": {"en": "--n-cpu-moe {n} (experts of the first {n} layers in system RAM)",
                     "zh-Hans": "--n-cpu-moe {n}（前 {n} 层的专家放在内存）"},
    "cpu_moe_all_read": {"en": "--cpu-moe (every layer's experts in system RAM)", "zh-Hans": "--cpu-moe（所有专家放在内存）"},
    "gpu_layers_read": {"en": "-ngl {n} (layers on the GPU)", "zh-Hans": "-ngl {n}（放在 GPU 上的层数）"},
    "prefill_chunk_read": {"en": "{n} tokens per forward pass", "zh-Hans": "每次前向 {n} 个 token"},
    "concurrent_one": {"en": "room for 1 sequence at a time", "zh-Hans": "一次只能容纳 1 条序列"},
    "price_unknown": {"en": "price unknown", "zh-Hans": "价格未知"},
    "per_hour": {"en": "/h", "zh-Hans": "/小时"},
    "instance": {"en": "Alibaba Cloud", "zh-Hans": "阿里云"},
    "no_instance": {"en": "no Alibaba Cloud instance listed", "zh-Hans": "阿里云无对应实例"},
    "check_fits": {"en": "Yes: it needs {need} GiB per card and {count}× {gpu} can give it {limit} GiB each ({limit_what}): {free} GiB to spare.",
                   "zh-Hans": "可以：每卡需要 {need} GiB，{count} 张 {gpu} 每张可用 {limit} GiB（{limit_what}），还剩 {free} GiB。"},
    "check_fits_snug": {"en": "Yes: it needs {need} GiB per card and {count}× {gpu} can give it {limit} GiB each ({limit_what}); only {free} GiB to spare, less than the ~10% worth keeping free for fragmentation and longer prompts.",
                        "zh-Hans": "可以：每卡需要 {need} GiB，{count} 张 {gpu} 每张可用 {limit} GiB（{limit_what}）；只剩 {free} GiB，低于建议为碎片和更长输入预留的约 10%。"},
    "check_tight": {"en": "Tight: it needs {need} GiB per card against the {limit} GiB {count}× {gpu} can give it ({limit_what}). Within a few percent it runs or not depending on the allocator and prompt lengths; to be safe:",
                    "zh-Hans": "很紧：每卡需要 {need} GiB，而 {count} 张 {gpu} 每张可用 {limit} GiB（{limit_what}）。差距只有几个百分点，能否跑起来取决于显存分配和输入长度；稳妥的做法："},
    "check_unsupported": {"en": "No: {gpu} cannot run {format} weights with {engine} (no FP8 tensor cores; vLLM alone runs FP8 checkpoints weight-only on Turing and Ampere), although the {need} GiB per card would fit.",
                          "zh-Hans": "不行：{gpu} 无法用 {engine} 运行 {format} 权重（没有 FP8 张量核心；只有 vLLM 能在 Turing/Ampere 上以仅权重方式运行 FP8 模型），虽然每卡 {need} GiB 的显存放得下。"},
    "check_format_floor": {"en": "No: {engine} cannot run {format} weights on {gpu}: its kernels for them need compute capability {floor} or newer.",
                           "zh-Hans": "不行：{engine} 无法在 {gpu} 上运行 {format} 权重：它的相应内核需要计算能力 {floor} 或更新的显卡。"},
    "check_split_invalid": {"en": "No: {engine} splits a model over cards by tensor parallelism, and the count must divide its attention and KV heads ({heads}); {count} does not, though {need} GiB per card would fit the {limit} GiB each {gpu} can give.",
                            "zh-Hans": "不行：{engine} 用张量并行把模型切到多张卡上，卡数必须能整除注意力头和 KV 头数（{heads}）；{count} 不行，虽然每卡 {need} GiB 放得进每张 {gpu} 可用的 {limit} GiB。"},
    "check_unsupported_nor_fits": {"en": "No: {gpu} cannot run {format} weights with {engine} (no FP8 tensor cores; vLLM alone runs FP8 checkpoints weight-only on Turing and Ampere), and the {need} GiB per card would not fit its {limit} GiB either.",
                                   "zh-Hans": "不行：{gpu} 无法用 {engine} 运行 {format} 权重（没有 FP8 张量核心；只有 vLLM 能在 Turing/Ampere 上以仅权重方式运行 FP8 模型），而且每卡 {need} GiB 也超过它可用的 {limit} GiB。"},
    "set_fits": {"en": "Yes: {how}, and every card holds its share:", "zh-Hans": "可以：{how}，每张卡都放得下它那一份："},
    "set_fails": {"en": "No: {how}, and the {gpu} would need {need} GiB of the {limit} GiB it can give:",
                  "zh-Hans": "不行：{how}，{gpu} 需要 {need} GiB，而它只能给 {limit} GiB："},
    "set_tight": {"en": "Tight: {how}, and the {gpu} needs {need} GiB of the {limit} GiB it can give:",
                  "zh-Hans": "很紧：{how}，{gpu} 需要 {need} GiB，它能给 {limit} GiB："},
    "set_layers": {"en": "{n} layers", "zh-Hans": "{n} 层"},
    "set_card": {"en": "{need} of {limit} GiB", "zh-Hans": "{need} / {limit} GiB"},
    "split_by_memory": {"en": "{engine} splits the layers by each card's free memory", "zh-Hans": "{engine} 按每张卡的空闲显存分层"},
    "split_stated": {"en": "with the stated --tensor-split", "zh-Hans": "按所给的 --tensor-split 分层"},
    "split_equal": {"en": "{engine} gives every card the same share, so the smallest card decides",
                    "zh-Hans": "{engine} 给每张卡分同样多，所以由最小的那张卡决定"},
    "check_fails": {"en": "No: it needs {need} GiB per card and {count}× {gpu} can give it {limit} GiB each ({limit_what}).",
                    "zh-Hans": "不行：每卡需要 {need} GiB，而 {count} 张 {gpu} 每张可用 {limit} GiB（{limit_what}）。"},
    "limit_usable": {"en": "{have} GB card less the CUDA context", "zh-Hans": "{have} GB 显存减去 CUDA 上下文"},
    "limit_unified": {"en": "the {have} GB of its {total} GB unified memory macOS lets the GPU use, less the runtime's context",
                      "zh-Hans": "{total} GB 统一内存中 macOS 允许 GPU 使用的 {have} GB，减去运行时上下文"},
    "budget_read": {"en": "budget {amount} {cur}{per}", "zh-Hans": "预算{per} {amount} {cur}"},
    "budget_within": {"en": "Within your budget of {amount} {cur}{per}: this set-up costs {cost} {cur}{per}.",
                      "zh-Hans": "在你的预算内（{per}{amount} {cur}）：这套配置{per}约 {cost} {cur}。"},
    "budget_over": {"en": "Over your budget of {amount} {cur}{per}: no priced set-up found that holds the job is within it; this one costs {cost} {cur}{per}. A smaller precision, a shorter context or fewer concurrent requests would cost less.",
                    "zh-Hans": "超出你的预算（{per}{amount} {cur}）：找到的能放下这个任务的有标价配置都超出预算，这套{per}约 {cost} {cur}。降低精度、缩短上下文或减少并发可以更便宜。"},
    "budget_unpriced": {"en": "Your budget of {amount} {cur}{per} is not compared: {reason}.",
                        "zh-Hans": "未与你的预算（{per}{amount} {cur}）比较：{reason}。"},
    "budget_reason_currency": {"en": "the prices found are in {cur}, and no exchange rate is set (GPU_ADVISOR_FX)",
                               "zh-Hans": "找到的价格以 {cur} 计价，且未设置汇率（GPU_ADVISOR_FX）"},
    "budget_reason_duration": {"en": "the job's length is not known (say how many hours, or the tokens to train on)",
                               "zh-Hans": "不知道任务时长（请说明小时数或训练 token 数）"},
    "budget_reason_price": {"en": "no public price was found for the cards that hold the job",
                            "zh-Hans": "能放下这个任务的显卡没有找到公开标价"},
    "mac_read": {"en": "Mac (Apple silicon)", "zh-Hans": "Mac（Apple 芯片）"},
    "unified_of": {"en": "{memory} GB unified memory", "zh-Hans": "{memory} GB 统一内存"},
    "apple_silicon": {"en": "A Mac's GPU shares its unified memory with macOS, which lets it use about {share}% of it by default ({have} GB of {total} GB; `sudo sysctl iogpu.wired_limit_mb=<MiB>` raises that): the check uses that part. Speed on Apple silicon is not modelled; the speeds below are for the NVIDIA cards named.",
                      "zh-Hans": "Mac 的 GPU 与 macOS 共用统一内存，默认只能使用其中约 {share}%（{total} GB 中的 {have} GB；可用 `sudo sysctl iogpu.wired_limit_mb=<MiB>` 调高），这里按这部分判断。未对 Apple 芯片的速度建模，下面的速度是所列 NVIDIA 显卡的。"},
    "apple_silicon_timed": {"en": "A Mac's GPU shares its unified memory with macOS, which lets it use about {share}% of it by default ({have} GB of {total} GB; `sudo sysctl iogpu.wired_limit_mb=<MiB>` raises that): the check uses that part. Its decode speed is llama.cpp's Metal back end reading the {chip}'s {bandwidth} GB/s; the other speeds below are the NVIDIA cards'.",
                            "zh-Hans": "Mac 的 GPU 与 macOS 共用统一内存，默认只能使用其中约 {share}%（{total} GB 中的 {have} GB；可用 `sudo sysctl iogpu.wired_limit_mb=<MiB>` 调高），这里按这部分判断。生成速度按 llama.cpp 的 Metal 后端读取 {chip} 的 {bandwidth} GB/s 估算；下面其他速度是所列 NVIDIA 显卡的。"},
    "apple_silicon_no_memory": {"en": "A Mac's GPU uses part of its unified memory: say how much the Mac has (e.g. “M3 Max 64GB”) to check the job on it. The figures below are for NVIDIA cards.",
                                "zh-Hans": "Mac 的 GPU 只能使用部分统一内存：请说明这台 Mac 的内存大小（如“M3 Max 64GB”）以便判断。下面的数字针对 NVIDIA 显卡。"},
    "limit_measured": {"en": "the card less the CUDA context and the margin {engine}'s KV cache leaves free", "zh-Hans": "整卡减去 CUDA 上下文和 {engine} KV 缓存预留的余量"},
    "limit_reserve": {"en": "{engine} reserves {fraction}% of the card", "zh-Hans": "{engine} 预留整卡的 {fraction}%"},
    "limit_reserve_beside": {"en": "{engine} keeps weights and KV cache in {fraction}% of the card and activations beside it",
                             "zh-Hans": "{engine} 把权重和 KV 缓存放在整卡的 {fraction}% 内，激活放在其外"},
    "nodes_of_8_training": {"en": "{n} nodes × 8 (data parallel, states sharded with ZeRO/FSDP)", "zh-Hans": "{n} 台 × 8 卡（数据并行，ZeRO/FSDP 分片）"},
    "replicas_cell": {"en": "{n} replicas × {per}", "zh-Hans": "{n} 个副本 × {per} 卡"},
    "pick_replicas": {"en": "{n} replicas × {per} (tensor parallel in each, behind a load balancer; figures per replica)",
                      "zh-Hans": "{n} 个副本 × {per} 卡（副本内张量并行，负载均衡分发；数字按单个副本）"},
    "pick_replicas_one_card": {"en": "{n} replicas × 1 (one card each, behind a load balancer; figures per replica)",
                               "zh-Hans": "{n} 个副本 × 1 卡（每个副本一张卡，负载均衡分发；数字按单个副本）"},
    "nodes_of_8": {"en": "{n} nodes × 8 (tensor parallel in a node, pipeline across nodes)", "zh-Hans": "{n} 台 × 8 卡（节点内张量并行，节点间流水线并行）"},
    "tight": {"en": "tight", "zh-Hans": "很紧"},
    "what_fits": {"en": "What would fit", "zh-Hans": "可行的方案"},
    "sugg_quantise": {"en": "quantise to {precision}{quant}", "zh-Hans": "量化到 {precision}{quant}"},
    "sugg_on_cards": {"en": " on {count}× {gpu}", "zh-Hans": "，用 {count} 张 {gpu}"},
    "sugg_lora": {"en": "LoRA instead of full fine-tuning", "zh-Hans": "用 LoRA 代替全参数微调"},
    "sugg_qlora": {"en": "QLoRA (4-bit base + adapters)", "zh-Hans": "QLoRA（4-bit 底座 + 适配器）"},
    "sugg_more_gpus": {"en": "{count}× {gpu}", "zh-Hans": "{count} 张 {gpu}"},
    "sugg_bigger_gpu": {"en": "a bigger card: {count}× {gpu}", "zh-Hans": "换更大显存的卡：{count} 张 {gpu}"},
    "sugg_shorter_context": {"en": "context {context} tokens", "zh-Hans": "上下文缩短到 {context}"},
    "sugg_smaller_batch": {"en": "batch {batch}", "zh-Hans": "批量降到 {batch}"},
    "sugg_fewer_requests": {"en": "--max-num-seqs {n} (fewer requests in its start-up profile)",
                            "zh-Hans": "--max-num-seqs {n}（启动探测时的请求更少）"},
    "sugg_zero3": {"en": "DeepSpeed ZeRO-3 / FSDP sharding", "zh-Hans": "DeepSpeed ZeRO-3 / FSDP 分片"},
    "sugg_optimizer_8bit": {"en": "8-bit AdamW (bitsandbytes; optim=\"adamw_bnb_8bit\" in the HF Trainer, --use_8bit_adam in "
                                  "diffusers' scripts): its two moments take 2 bytes per parameter instead of 8, every "
                                  "weight still trained",
                            "zh-Hans": "8-bit AdamW（bitsandbytes；HF Trainer 中 optim=\"adamw_bnb_8bit\"，diffusers 脚本中 "
                                       "--use_8bit_adam）：两个动量从每参数 8 字节降到 2 字节，仍训练全部权重"},
    "sugg_fp8_base": {"en": "an 8-bit base under the adapters (kohya --fp8_base, ai-toolkit quantize: true): the frozen "
                            "weights in float8, upcast a layer at a time",
                      "zh-Hans": "冻结底模用 8 位（kohya 的 --fp8_base，ai-toolkit 的 quantize: true）：冻结权重存为 float8，"
                                 "逐层升精度计算"},
    "sugg_adafactor_fused": {"en": "Adafactor stepped inside backward (kohya sd-scripts: --optimizer_type adafactor "
                                   "--fused_backward_pass): factored optimizer states and no full set of gradients",
                             "zh-Hans": "在反向传播中直接更新的 Adafactor（kohya sd-scripts：--optimizer_type adafactor "
                                        "--fused_backward_pass）：优化器状态被分解，也不必保留全部梯度"},
    "sugg_cache_text_encoders": {"en": "cache the text encoders' outputs and free them (kohya --cache_text_encoder_outputs; "
                                       "SimpleTuner caches them by default)",
                                 "zh-Hans": "缓存文本编码器的输出并释放编码器（kohya 的 --cache_text_encoder_outputs；SimpleTuner "
                                            "默认缓存）"},
    "sugg_bf16": {"en": "bf16 instead of fp16 (torch_dtype=torch.bfloat16: the VAE then decodes in bf16, not fp32)",
                  "zh-Hans": "用 bf16 代替 fp16（torch_dtype=torch.bfloat16：VAE 随之以 bf16 解码，不再升到 fp32）"},
    "sugg_model_offload": {"en": "`pipe.enable_model_cpu_offload()` (one part of the pipeline on the card at a time; slower per image)",
                           "zh-Hans": "`pipe.enable_model_cpu_offload()`（每次只把流水线的一个部分放在显卡上；每张图更慢）"},
    "sugg_checkpointing": {"en": "gradient checkpointing", "zh-Hans": "梯度检查点"},
    "sugg_kv_cache": {"en": "KV cache in {kv}{flag}", "zh-Hans": "KV 缓存改用 {kv}{flag}"},
    "sugg_and_kv_cache": {"en": " and the KV cache in {kv}{flag}", "zh-Hans": "，KV 缓存也改用 {kv}{flag}"},
    "sugg_flash_attention": {"en": "turn on flash attention{flag}", "zh-Hans": "开启 flash attention{flag}"},
    "sugg_newer_engine": {"en": "a current {engine} release instead of {version}",
                          "zh-Hans": "改用当前版本的 {engine}（而非 {version}）"},
    "sugg_offload_optimizer": {"en": "offload the optimizer states to CPU (ZeRO-Offload, ≈ {host} GiB host RAM)",
                               "zh-Hans": "把优化器状态卸载到 CPU（ZeRO-Offload，约需 {host} GiB 主机内存）"},
    "sugg_offload_all": {"en": "ZeRO-3 with parameters and optimizer offloaded to CPU (≈ {host} GiB host RAM; much slower)",
                         "zh-Hans": "ZeRO-3 并把参数和优化器卸载到 CPU（约需 {host} GiB 主机内存；慢很多）"},
    "sugg_offload_all_fsdp": {"en": "FSDP CPU offload of the parameters (fsdp_offload_params; Answer.AI's fsdp_qlora by default): ≈ {host} GiB host RAM, slower",
                              "zh-Hans": "FSDP 把参数卸载到 CPU（fsdp_offload_params；Answer.AI 的 fsdp_qlora 默认如此）：约需 {host} GiB 主机内存，会变慢"},
    "sugg_cpu_layers": {"en": "{slots} of the {total} layers on {where}, the rest in system RAM (-ngl {slots}; Ollama does this by itself): ≈ {host} GiB of RAM, several times slower",
                        "zh-Hans": "{total} 层中的 {slots} 层放在显卡上，其余放在内存里（-ngl {slots}；Ollama 会自动这样做）：约需 {host} GiB 内存，速度慢好几倍"},
    "sugg_cpu_experts": {"en": "the experts of the first {n} of {layers} layers in system RAM (--n-cpu-moe {n}): ≈ {host} GiB of RAM, slower (a token reads only its routed experts from RAM)",
                         "zh-Hans": "把 {layers} 层中前 {n} 层的专家放在内存里（--n-cpu-moe {n}）：约需 {host} GiB 内存，会变慢（每个 token 只从内存读取被路由到的专家）"},
    "sugg_cpu_experts_all": {"en": "every layer's experts in system RAM (--cpu-moe): ≈ {host} GiB of RAM, slower (a token reads only its routed experts from RAM)",
                             "zh-Hans": "把所有层的专家放在内存里（--cpu-moe）：约需 {host} GiB 内存，会变慢（每个 token 只从内存读取被路由到的专家）"},
    "host_ram_experts_all": {"en": "System RAM: ≈ {gb} GiB for every layer's routed experts (--cpu-moe) and the token embeddings.",
                             "zh-Hans": "内存：约 {gb} GiB，放所有层的路由专家（--cpu-moe）和词嵌入。"},
    "host_ram_experts": {"en": "System RAM: ≈ {gb} GiB for the routed experts of the first {n} of {layers} layers (--n-cpu-moe {n}) and the token embeddings.",
                         "zh-Hans": "内存：约 {gb} GiB，放前 {n}/{layers} 层的路由专家（--n-cpu-moe {n}）和词嵌入。"},
    "ram_bound": {"en": "Each token reads ≈ {read} GiB from system RAM, so decoding tops out near {tps} tok/s on dual-channel DDR5-4800 (76.8 GB/s peak) and runs slower in practice; more memory channels raise the ceiling.",
                  "zh-Hans": "每个 token 要从内存读取约 {read} GiB，所以在双通道 DDR5-4800（峰值 76.8 GB/s）上生成速度最多约 {tps} tok/s，实际更慢；内存通道越多，上限越高。"},
    "the_card": {"en": "the card", "zh-Hans": "显卡"},
    "the_cards": {"en": "the cards", "zh-Hans": "显卡"},
    "host_ram_layers": {"en": "System RAM: ≈ {gb} GiB for the {cpu} of {total} layers left on the CPU (-ngl {slots}), their KV cache and the token embeddings.",
                        "zh-Hans": "内存：约 {gb} GiB，放留在 CPU 上的 {cpu}/{total} 层（-ngl {slots}）、它们的 KV 缓存和词嵌入。"},
    "needs": {"en": "needs {gb} GiB per card", "zh-Hans": "每卡需 {gb} GiB"},
    "speed": {"en": "Speed", "zh-Hans": "速度"},
    "decode": {"en": "decode ≈ {v} tok/s per sequence", "zh-Hans": "生成约 {v} tok/s（单序列）"},
    "real_time": {"en": "≈ {v}× real time (30 s windows, greedy decoding, ~100 tokens per window)", "zh-Hans": "约 {v} 倍实时（30 秒窗口，贪心解码，每窗口约 100 个 token）"},
    "seconds_per_image": {"en": "≈ {v} s per image ({res}×{res}, {steps} steps)", "zh-Hans": "每张图约 {v} 秒（{res}×{res}，{steps} 步）"},
    "seconds_per_image_plain": {"en": "≈ {v} s per image", "zh-Hans": "每张图约 {v} 秒"},
    "sequences_per_s": {"en": "≈ {v} sequences/s at this length", "zh-Hans": "该长度下约 {v} 条序列/秒"},
    "decode_with": {"en": "with {engine} ≈ {v} tok/s per sequence", "zh-Hans": "用 {engine} 约 {v} tok/s（单序列）"},
    "no_compute_figure": {"en": "no prefill, training or serving-plan time: {gpu} has no published throughput figure",
                          "zh-Hans": "不估算预填充、训练和服务规划时间：{gpu} 没有公开的算力数据"},
    "aggregate": {"en": "≈ {v} tok/s across the batch", "zh-Hans": "整批约 {v} tok/s"},
    "prefill": {"en": "prefill ≈ {v} tok/s", "zh-Hans": "预填充约 {v} tok/s"},
    "train_speed": {"en": "training ≈ {v} tok/s", "zh-Hans": "训练约 {v} tok/s"},
    "train_hours": {"en": "≈ {v} h per billion training tokens", "zh-Hans": "每十亿训练 token 约 {v} 小时"},
    "cost_per_million_short": {"en": "{v} {cur} per million output tokens", "zh-Hans": "每百万输出 token {v} {cur}"},
    "cost_per_thousand_images_short": {"en": "{v} {cur} per 1,000 images", "zh-Hans": "每千张图 {v} {cur}"},
    "cost_per_billion_short": {"en": "{v} {cur} per billion training tokens", "zh-Hans": "每十亿训练 token {v} {cur}"},
    "train_per_day": {"en": "≈ {v} tokens a day", "zh-Hans": "每天约 {v} token"},
    "assumptions": {"en": "Assumed", "zh-Hans": "默认假设"},
    "faq": {"en": "Related", "zh-Hans": "相关问答"},
    "from_doc": {"en": "from", "zh-Hans": "出自"},
    "source": {"en": "Sizing rules; figures from the knowledge base's cited sources.",
               "zh-Hans": "依据内置估算规则与知识库中注明来源的数据。"},
    "check_vllm": {"en": "Check on the card: vLLM logs the weights, activations and KV-cache size at start-up; `nvidia-smi` shows its whole reservation.",
                   "zh-Hans": "实测核对：vLLM 启动日志会打印权重、激活和 KV 缓存大小；`nvidia-smi` 显示的是整个预留量。"},
    "check_sglang": {"en": "Check on the card: SGLang logs the KV-cache pool it allocates at start-up; `nvidia-smi` shows its whole reservation.",
                     "zh-Hans": "实测核对：SGLang 启动日志会打印分配的 KV 缓存池；`nvidia-smi` 显示的是整个预留量。"},
    "check_trtllm": {"en": "Check on the card: TensorRT-LLM logs the memory of the engine and of the paged KV cache it allocates at start-up.",
                     "zh-Hans": "实测核对：TensorRT-LLM 启动日志会打印引擎和分页 KV 缓存占用的显存。"},
    "check_llamacpp": {"en": "Check on the card: llama.cpp (and Ollama's server log) prints the model, KV-cache and compute buffer sizes per device at load.",
                       "zh-Hans": "实测核对：llama.cpp（以及 Ollama 的服务日志）加载时会打印每张卡上模型、KV 缓存和计算缓冲区的大小。"},
    "check_training": {"en": "Check on the card: `torch.cuda.max_memory_reserved()` after the first steps (or `nvidia-smi`) is the figure to compare; the longest batch sets the peak.",
                       "zh-Hans": "实测核对：训练最初几步后看 `torch.cuda.max_memory_reserved()`（或 `nvidia-smi`）；峰值由最长的批次决定。"},
    "check_generic": {"en": "Check on the card with `nvidia-smi` or `torch.cuda.max_memory_reserved()`.",
                      "zh-Hans": "可用 `nvidia-smi` 或 `torch.cuda.max_memory_reserved()` 实测核对。"},
    "did_you_mean": {"en": "I don't know the model “{text}”. Did you mean", "zh-Hans": "没有找到模型“{text}”。你是不是指"},
    "closed_model": {"en": "{name} is only offered through its vendor's API: its weights are not published, so no GPU of yours can run it and there is nothing to size. For an open model of that class, ask about e.g. DeepSeek-V3, Qwen3-235B-A22B, Llama 3.1 70B or gpt-oss-120b.",
                     "zh-Hans": "{name} 只通过厂商的 API 提供，权重没有公开，自己的 GPU 无法运行，因此无从估算。想部署同级别的开源模型，可以问 DeepSeek-V3、Qwen3-235B-A22B、Llama 3.1 70B 或 gpt-oss-120b。"},
    "other_jobs": {"en": "This answers the first job in your message. I also saw {quotes}: ask me about it separately, so its numbers are not mixed with these.",
                   "zh-Hans": "这里回答的是消息里的第一项任务。我还看到了 {quotes}：请单独再问，免得两项任务的参数混在一起。"},
    "unknown_sized": {"en": "I don't know “{text}”, so this is a generic {size}B dense transformer (Llama-like shape), not that model. For an exact figure: `gpu-advisor kb import config.json --id NAME`, or paste the model's config.json here.",
                      "zh-Hans": "我不认识“{text}”，下面按通用的 {size}B 稠密 Transformer（类 Llama 结构）估算，并非该模型本身。要精确结果：运行 `gpu-advisor kb import config.json --id NAME`，或把模型的 config.json 贴到这里。"},
    "max_context": {"en": "Longest context that fits {cards}: ≈ {tokens} tokens at batch {batch} (the model's window is {window}).",
                    "zh-Hans": "{cards} 上能放下的最长上下文：约 {tokens} token（批量 {batch}；模型原生窗口 {window}）。"},
    "max_context_window": {"en": "The model's whole window, {window} tokens, fits {cards} at batch {batch}.",
                           "zh-Hans": "{cards} 在批量 {batch} 下能放下模型的完整窗口 {window} token。"},
    "max_context_none": {"en": "Not even a short prompt fits {cards}: see what would fit above.",
                         "zh-Hans": "{cards} 连很短的输入都放不下：请看上面的可行方案。"},
    "max_context_kv_set": {"en": "Each token's KV cache takes {kib} KiB per card.",
                           "zh-Hans": "每个 token 的 KV 缓存每卡占 {kib} KiB。"},
    "max_context_kv": {"en": "Each token's KV cache takes {kib} KiB per card; an FP8 KV cache halves that.",
                       "zh-Hans": "每个 token 的 KV 缓存每卡占 {kib} KiB；FP8 KV 缓存可减半。"},
    "unknown_sized_suggest": {"en": "Did you mean {names}? Ask with that name to size it exactly.",
                              "zh-Hans": "你是不是指 {names}？用这个名称再问一次即可精确估算。"},
    "kv_cache_unsupported": {"en": "{engine} has no {kv} KV cache; it offers: {accepted}. Ask again with one of those (or another engine).",
                             "zh-Hans": "{engine} 不支持 {kv} 的 KV 缓存，可选：{accepted}。请换用其中一种（或换一个引擎）再问。"},
    "card_of": {"en": "{count}× {memory} GB GPU", "zh-Hans": "{count} 张 {memory} GB 显卡"},
    "paged_optimizer": {"en": "paged optimizer", "zh-Hans": "分页优化器"},
    "activation_offloading": {"en": "activation offloading", "zh-Hans": "激活卸载"},
    "target_qps": {"en": "{v} requests/s", "zh-Hans": "每秒 {v} 个请求"},
    "target_tokens_per_s_per_user": {"en": "{v} tok/s per user", "zh-Hans": "每用户 {v} tok/s"},
    "target_ttft_s": {"en": "first token within {v} s", "zh-Hans": "首 token ≤ {v} 秒"},
    "cards_n": {"en": "{n}× GPU", "zh-Hans": "{n} 张卡"},
    "offload_optimizer": {"en": "optimizer offloaded to CPU", "zh-Hans": "优化器卸载到 CPU"},
    "offload_all": {"en": "optimizer and parameters offloaded to CPU", "zh-Hans": "优化器和参数卸载到 CPU"},
    "offload_model": {"en": "model CPU offload", "zh-Hans": "模型 CPU 卸载"},
    "host_ram": {"en": "Host RAM for the offloaded state: ≈ {gb} GiB per machine (DeepSpeed's own estimator, with its 1.5× buffer).",
                 "zh-Hans": "卸载到 CPU 的训练状态需要主机内存：每台机器约 {gb} GiB（按 DeepSpeed 自带估算器，含 1.5 倍缓冲）。"},
    "host_ram_adapters": {"en": "Host RAM for the offloaded model: ≈ {gb} GiB per machine, more while it loads.",
                          "zh-Hans": "卸载到 CPU 的模型需要主机内存：每台机器约 {gb} GiB，加载时更多。"},
    "optimizer_in_backward": {"en": "optimizer step in backward", "zh-Hans": "优化器步骤融入反向传播"},
    "chunked_loss": {"en": "chunked loss", "zh-Hans": "分块交叉熵"},
    "compiled": {"en": "torch.compile", "zh-Hans": "torch.compile"},
    "preference_pairs": {"en": "DPO (chosen + rejected per sample)", "zh-Hans": "DPO（每条样本含正负两条回复）"},
    "flash_on": {"en": "flash attention", "zh-Hans": "flash attention"},
    "flash_off": {"en": "eager attention (no flash/SDPA)", "zh-Hans": "eager 注意力（不用 flash/SDPA）"},
    "lighter_task": {"en": "This is full fine-tuning. LoRA (base frozen, adapters trained) needs {gb} GiB on 1× {gpu}, with gradient checkpointing: say “LoRA” to size that instead.",
                     "zh-Hans": "以下按全参数微调估算。若用 LoRA（冻结底座、只训练适配器，开梯度检查点），1 张 {gpu} 只需 {gb} GiB；说“LoRA”即可按它估算。"},
    "other_engine": {"en": "With {engine} instead of {mine} this job needs {gb} GiB per card: name the engine to size it that way.",
                     "zh-Hans": "若用 {engine} 而不是 {mine}，每卡需要 {gb} GiB；说明引擎即可按它估算。"},
    "other_engine_images": {"en": "Of that, {gb} GiB is its start-up profile encoding {images} dummy images at once; a lower --max-num-seqs shrinks it.",
                            "zh-Hans": "其中 {gb} GiB 是它启动探测时同时编码 {images} 张虚拟图片所占；调低 --max-num-seqs 可以减少。"},
    "kv_quantised": {"en": "quantised", "zh-Hans": "量化"},
    "unknown_card": {"en": "I don't know the card “{text}”, so nothing below is about it: the cards named are ones I know. Name one of them, or give its memory (e.g. 48GB), to check it.",
                     "zh-Hans": "我不认识显卡“{text}”，下面的内容与它无关，列出的都是我认识的卡。请换成其中一张，或直接说显存大小（如 48GB）来核对。"},
    "unmodelled_engine": {"en": "I have no profile for {name}, which holds memory its own way: the figures below are for {engine}. Name vLLM, SGLang, llama.cpp/Ollama or transformers to size one of those.",
                          "zh-Hans": "我没有 {name} 的显存模型，它有自己的显存占用方式：下面的数字按 {engine} 估算。说明 vLLM、SGLang、llama.cpp/Ollama 或 transformers，即可按它估算。"},
    "unknown_model_named": {"en": "I don't know the model “{text}”, so I can't size it. Tell me its size (e.g. 13B), or paste its config.json, and I'll size it; meanwhile, the general picture:",
                            "zh-Hans": "我不认识模型“{text}”，没法直接估算。告诉我它的参数量（如 13B），或贴上它的 config.json，我就能按它估算；先给一个大致参考："},
    "unknown_model_plain": {"en": "I couldn't tell which model you mean.", "zh-Hans": "没能识别出你说的是哪个模型。"},
    "missing": {"en": "To size this precisely, tell me", "zh-Hans": "想要更准确的建议，请告诉我"},
    "missing_model": {"en": "the model (or its size, e.g. 13B)", "zh-Hans": "模型名称（或参数量，如 13B）"},
    "missing_task": {"en": "training or inference", "zh-Hans": "训练还是推理"},
    "missing_budget": {"en": "your budget", "zh-Hans": "预算范围"},
    "guidance_title": {"en": "General guidance by model size", "zh-Hans": "按模型规模的一般建议"},
    "guidance_inference": {
        "en": "• Inference, up to ~1B parameters (BERT, ResNet): T4 or A10.\n"
              "• Inference, 1–13B: one A10 (24 GB) at 16-bit up to ~8B; A100/L40S for 13B or long contexts.\n"
              "• Inference, 30–70B: 2–4× A100/H100 80 GB at 16-bit, or one 80 GB card with 4-bit quantisation.",
        "zh-Hans": "• 推理，约 10 亿参数以下（BERT、ResNet）：T4 或 A10。\n"
                   "• 推理，10 亿–130 亿：约 80 亿以内单张 A10（24 GB）16 位即可；130 亿或长上下文用 A100/L40S。\n"
                   "• 推理，300 亿–700 亿：16 位需 2–4 张 A100/H100 80 GB，4-bit 量化后单张 80 GB 卡可行。"},
    "guidance_training": {
        "en": "• Training, under 1B: A10 or V100. 1–100B: A100/H100, several cards with ZeRO/FSDP "
              "(full fine-tuning needs ~16 bytes per parameter before activations). Over 100B: H100 clusters.",
        "zh-Hans": "• 训练，10 亿以下：A10 或 V100；10 亿–1000 亿：多张 A100/H100 配合 ZeRO/FSDP"
                   "（全参数训练每个参数约 16 字节，另加激活）；千亿以上：H100 集群。"},
    "help_title": {"en": "GPU Advisor: which GPU, how many, and why", "zh-Hans": "GPU 选型助手：用什么卡、几张、为什么"},
    "help_body": {
        "en": "Ask me about a model and a job, in English or Chinese. I estimate the memory (weights, KV cache, "
              "activations, optimizer), pick GPUs and Alibaba Cloud instances, and say what I assumed.",
        "zh-Hans": "用中文或英文告诉我模型和用途，我会估算显存（权重、KV 缓存、激活、优化器），"
                   "推荐 GPU 和阿里云实例，并说明默认假设。"},
    "examples": {"en": "Try", "zh-Hans": "可以这样问"},
    "unknown_intro": {"en": "I didn't understand that as a GPU question.", "zh-Hans": "我没看懂这个问题。"},
    "gpu_info": {"en": "{name}: {memory} GB {mtype}, {bandwidth} GB/s", "zh-Hans": "{name}：{memory} GB {mtype}，带宽 {bandwidth} GB/s"},
    "gpu_tflops": {"en": "Dense tensor peak: {parts}", "zh-Hans": "稠密张量算力峰值：{parts}"},
    "gpu_no_tflops": {"en": "Throughput: no published figure (prefill, training and serving plans are not timed on it)",
                      "zh-Hans": "算力：没有公开数据（不估算其预填充、训练和服务规划时间）"},
    "gpu_interconnect": {"en": "Interconnect", "zh-Hans": "互联"},
    "gpu_mig": {"en": "MIG: up to {n} instances", "zh-Hans": "MIG：最多 {n} 个实例"},
    "gpu_not_recommended": {"en": "Not recommended for ML work", "zh-Hans": "不建议用于机器学习"},
    "gpu_unknown": {"en": "Which GPU? I know", "zh-Hans": "哪张卡？我知道这些"},
    "model_info": {"en": "{name}: {params}B parameters", "zh-Hans": "{name}：{params}B 参数"},
    "model_active": {"en": "{active}B active per token ({experts} experts, {routed} routed)",
                     "zh-Hans": "每个 token 激活 {active}B（{experts} 个专家，路由 {routed} 个）"},
    "model_arch": {"en": "{layers} layers, hidden {hidden}, {heads} heads / {kv} KV heads ({attention}), "
                          "native context {context}",
                   "zh-Hans": "{layers} 层，隐藏维度 {hidden}，{heads} 个注意力头 / {kv} 个 KV 头（{attention}），"
                              "原生上下文 {context}"},
    "kv_per_token": {"en": "KV cache {kib} KiB per token at 16-bit", "zh-Hans": "16 位下每 token KV 缓存 {kib} KiB"},
    "capacity_title": {"en": "Largest model {on} holds (4k context, batch 1)", "zh-Hans": "{on} 能容纳的最大模型（4k 上下文，批量 1）"},
    "capacity_none": {"en": "nothing from 0.5B up", "zh-Hans": "0.5B 起都放不下"},
    "capacity_examples": {"en": "e.g.", "zh-Hans": "例如"},
    "model_compare_title": {"en": "Models side by side", "zh-Hans": "模型对比"},
    "compare_fits_on": {"en": "fits on", "zh-Hans": "可放在"},
    "compare_total": {"en": "total", "zh-Hans": "合计"},
    "compare_title": {"en": "Side by side", "zh-Hans": "对比"},
    "config_unavailable": {"en": "I could not size {subject} from its config.json: {reason}.",
                           "zh-Hans": "无法根据 config.json 估算 {subject}：{reason}。"},
    "too_long": {"en": "That message is too long for me to read ({n:,} characters; the limit is {limit:,}). "
                        "Please send just the question.",
                 "zh-Hans": "消息太长了（{n:,} 个字符，上限 {limit:,}），请只发送问题本身。"},
    "error": {"en": "Sorry, something went wrong on my side while answering. Please try again.",
              "zh-Hans": "抱歉，回答时出了点问题，请再试一次。"},
    "rate_limited": {"en": "You're asking faster than I can answer ({limit} questions a minute). "
                            "Please wait a moment.",
                     "zh-Hans": "提问太频繁了（每分钟最多 {limit} 个），请稍等片刻。"},
    "clamped": {"en": "Some numbers were out of range and were capped", "zh-Hans": "部分数值超出范围，已按上限处理"},
    "btn_int4": {"en": "Try INT4", "zh-Hans": "试试 INT4"},
    "btn_training": {"en": "Show training", "zh-Hans": "看训练需求"},
    "btn_inference": {"en": "Show inference", "zh-Hans": "看推理需求"},
    "btn_cheaper": {"en": "Cheaper options", "zh-Hans": "更省钱的方案"},
    "btn_maths": {"en": "Show the maths", "zh-Hans": "计算过程"},
    "btn_post": {"en": "Post to channel", "zh-Hans": "发到频道"},
    "maths_title": {"en": "How this was computed", "zh-Hans": "计算过程"},
    "cost_title": {"en": "Time and cost", "zh-Hans": "时间与费用"},
    "cost_on": {"en": "{instances}{instance} on {cloud} ({region})", "zh-Hans": "{cloud} {instances}{instance}（{region}）"},
    "cost_rates": {"en": "{per_hour} {cur}/h · {per_month} {cur} per month (730 h)",
                   "zh-Hans": "每小时 {per_hour} {cur} · 每月 {per_month} {cur}（按 730 小时）"},
    "cost_per_million": {"en": "{v} {cur} per million output tokens at ≈ {tps} tok/s",
                         "zh-Hans": "每百万输出 token {v} {cur}（按约 {tps} tok/s）"},
    "cost_per_million_encoded": {"en": "{v} {cur} per million tokens encoded at ≈ {tps} tok/s",
                                 "zh-Hans": "每百万编码 token {v} {cur}（按约 {tps} tok/s）"},
    "cost_per_billion": {"en": "{v} {cur} per billion training tokens", "zh-Hans": "每十亿训练 token {v} {cur}"},
    "cost_total_hours": {"en": "for {hours} h: ≈ {total} {cur}", "zh-Hans": "{hours} 小时合计约 {total} {cur}"},
    "train_total": {"en": "Training {tokens} tokens on {config}: ≈ {hours} h wall-clock ({days} days, {gpu_hours} GPU-hours)",
                    "zh-Hans": "在 {config} 上训练 {tokens} token：约 {hours} 小时（{days} 天，{gpu_hours} GPU·小时）"},
    "train_total_minutes": {"en": "Training {tokens} tokens on {config}: ≈ {minutes} min wall-clock ({gpu_hours} GPU-hours)",
                            "zh-Hans": "在 {config} 上训练 {tokens} token：约 {minutes} 分钟（{gpu_hours} GPU·小时）"},
    "month_plan": {"en": "To finish within a month instead: {cards}× {gpu}, ≈ {hours} h ({days} days), {gpu_hours} "
                         "GPU-hours (more cards lose some speed to communication, so more GPU-hours)",
                   "zh-Hans": "若要一个月内完成：{cards} 张 {gpu}，约 {hours} 小时（{days} 天），{gpu_hours} GPU·小时"
                              "（卡越多通信损耗越大，GPU·小时也更多）"},
    "deadline_met": {"en": "within the {deadline} h ({days} days) given",
                     "zh-Hans": "在给定的 {deadline} 小时（{days} 天）之内"},
    "deadline_missed": {"en": "longer than the {deadline} h ({days} days) given: at this rate per card it takes about "
                              "{cards} cards to finish in time, more once communication at that scale is counted",
                        "zh-Hans": "超出给定的 {deadline} 小时（{days} 天）：按这个单卡速度约需 {cards} 张卡才能按时完成，"
                                   "计入这种规模下的通信开销还要更多"},
    "train_total_cost": {"en": "job total ≈ {total} {cur}", "zh-Hans": "整个任务约 {total} {cur}"},
    "price_from": {"en": "Price: {authority}; {date}; source {source}",
                   "zh-Hans": "价格来源：{authority}；{date}；出处 {source}"},
    "as_of": {"en": "as of {date}", "zh-Hans": "截至 {date}"},
    "date_unknown": {"en": "date unknown (the source does not say when it was read)", "zh-Hans": "日期未知（来源未注明）"},
    "fx_converted": {"en": "converted from {orig} at the operator's rate {rate}",
                     "zh-Hans": "按运维设定的汇率 {rate} 由 {orig} 换算"},
    "price_unknown_once": {"en": "No public list price known for {gpus}{cloud}: none is guessed.",
                           "zh-Hans": "{gpus}{cloud}没有找到公开标价，不做估计。"},
    "price_how": {"en": "To use your own price: gpu-advisor kb prices import FILE --cloud NAME --date YYYY-MM-DD "
                        "(or a prices file in $GPU_ADVISOR_KB).",
                  "zh-Hans": "可自行提供价格：gpu-advisor kb prices import 文件 --cloud 云 --date YYYY-MM-DD"
                             "（或在 $GPU_ADVISOR_KB 中放价格文件）。"},
    "on_cloud": {"en": " on {cloud}", "zh-Hans": "在{cloud}上"},
    "prices_title": {"en": "Known prices", "zh-Hans": "已知价格"},
    "serving_plan": {"en": "Serving plan: {replicas} replica(s) × {count}× {gpu}, up to {per_replica} sequences each; "
                           "at {users} concurrent: ≈ {agg} tok/s in all, ≈ {speed} tok/s per user, first token ≈ {ttft} s",
                     "zh-Hans": "服务方案：{replicas} 个副本 × {count} 张 {gpu}，每副本最多 {per_replica} 路；"
                                "{users} 路并发时合计约 {agg} tok/s，每用户约 {speed} tok/s，首 token 约 {ttft} 秒"},
    "serving_plan_encoder": {"en": "Serving plan: {replicas} replica(s) × {count}× {gpu}, each encoding ≈ {rate} sequences/s "
                                   "(batches of {batch}); at {qps} requests/s: ≈ {agg} tokens/s encoded in all, ≈ {latency} s "
                                   "for one request alone (an encoder has no KV cache and generates nothing)",
                             "zh-Hans": "服务方案：{replicas} 个副本 × {count} 张 {gpu}，每个副本约 {rate} 条序列/秒（每批 {batch} 条）；"
                                        "每秒 {qps} 个请求时合计约 {agg} token/秒，单个请求单独处理约 {latency} 秒（编码模型没有 KV 缓存，也不生成内容）"},
    "encoder_replica_cap": {"en": "not met: {replicas} replicas, the most planned, encode ≈ {capacity} requests/s; the "
                                  "rest would queue",
                            "zh-Hans": "达不到：最多规划 {replicas} 个副本，每秒约能处理 {capacity} 个请求，其余需要排队"},
    "binding_memory": {"en": "the binding target is memory (the KV cache one replica holds)",
                       "zh-Hans": "约束来自显存（单副本能容纳的 KV 缓存）"},
    "images_total": {"en": "{images} images on {config}: ≈ {time} at the time per image above (one after another; "
                           "batching several per call is faster on a card with room to spare)",
                     "zh-Hans": "{images} 张图，用 {config}：按上面的单张耗时约 {time}（逐张生成；显存有余时每次批量生成几张更快）"},
    "output_total": {"en": "{tokens} output tokens on {config}: ≈ {time} at ≈ {rate} tok/s in all ({batch} sequences at "
                           "a time)",
                     "zh-Hans": "生成 {tokens} 个 token，用 {config}：按合计约 {rate} tok/s 约 {time}（同时 {batch} 条序列）"},
    "audio_total": {"en": "{audio} h of audio on {config}: ≈ {time} at ≈ {factor}× real time (one stream; batching "
                          "several files is faster)",
                    "zh-Hans": "{audio} 小时音频，用 {config}：按约 {factor} 倍实时速度约 {time}（单路；多个文件成批处理更快）"},
    "encode_total": {"en": "{docs} documents of up to {context} tokens on {config}: ≈ {time} at the rate above (batch 1; "
                           "batching short documents is faster)",
                     "zh-Hans": "{docs} 篇最长 {context} token 的文档，用 {config}：按上面的速度约 {time}（批量 1；短文档成批处理更快）"},
    "binding_concurrency": {"en": "at most that many sequences of {context} tokens at once (the cap is {cap}, the engine's "
                                  "batch limit): shorter prompts and replies let more share the KV cache, and more "
                                  "cards per replica or more replicas serve more",
                            "zh-Hans": "同时最多这么多条 {context} token 的序列（上限 {cap}，即引擎的批量上限）：提示和回复更短时可容纳更多；"
                                       "每个副本用更多卡或增加副本可服务更多"},
    "binding_full_load": {"en": "sized at full load, the load a price per token assumes: as many sequences of the "
                                "full context as one replica holds (at most {cap}, the engine's batch limit); a "
                                "lighter load costs more per token, and more cards per replica hold more sequences",
                          "zh-Hans": "按满载估算（每 token 价格所假设的负载）：单副本能容纳的完整上下文序列数"
                                     "（不超过引擎的批量上限 {cap}）；负载更轻时每 token 成本更高，每副本卡更多则能容纳更多序列"},
    "binding_volume": {"en": "sized at full load, as a volume of output is generated: as many sequences of "
                             "{context} tokens at a time as one replica holds (at most {cap}, the engine's batch limit)",
                       "zh-Hans": "按满载估算（批量生成大量输出时的做法）：单副本同时容纳尽可能多的 {context} token 序列"
                                  "（不超过引擎的批量上限 {cap}）"},
    "binding_speed": {"en": "the binding target is the per-user speed", "zh-Hans": "约束来自每用户速度要求"},
    "binding_sequence_cap": {"en": "the binding limit is the engine's batch: it decodes at most {cap} sequences at once "
                                   "(max_num_seqs) though the KV cache holds more; raise --max-num-seqs to serve more "
                                   "per replica",
                             "zh-Hans": "约束来自引擎的批量上限：同时最多解码 {cap} 条序列（max_num_seqs），虽然 KV 缓存放得下更多；"
                                        "调大 --max-num-seqs 可让每个副本服务更多"},
    "binding_replica_cap": {"en": "not met: {replicas} replicas, the most planned, hold {served} of them at once; the "
                                  "rest would queue",
                            "zh-Hans": "达不到：最多规划 {replicas} 个副本，同时只能容纳其中 {served} 路，其余需要排队"},
    "binding_replicas": {"en": "replicas inside a node behind a load balancer, rather than one copy of the model "
                               "pipelined across nodes: the same KV cache per card, and no request waits on the "
                               "network between pipeline stages",
                         "zh-Hans": "在节点内部署多个副本并用负载均衡分发，而不是把一份模型跨节点做流水线并行：每卡 KV 缓存相同，"
                                    "请求也不必在流水线各段之间等待网络"},
    "binding_ttft": {"en": "the first-token target is not met on this configuration; more replicas do not help, "
                           "more cards per replica (tensor parallelism) or shorter prompts do",
                     "zh-Hans": "该配置达不到首 token 延迟要求；加副本无济于事，需要每副本更多卡（张量并行）或更短的输入"},
    "speed_not_met": {"en": "the per-user speed target is not met even with one user per replica",
                      "zh-Hans": "即使每副本只服务一个用户也达不到每用户速度要求"},
    "context_lost": {"en": "I lost the thread's context; here is the answer to this message alone.",
                     "zh-Hans": "我丢失了这个对话的上下文；以下只回答这条消息。"},
}

EXAMPLES = {
    "en": ["what GPU for ChatGLM-6B inference", "can I LoRA Llama-3-8B on one A100 40GB?",
           "qwen2.5-72b int4 with 32k context, 16 concurrent users", "A10 vs A100 for stable diffusion"],
    "zh-Hans": ["ChatGLM-6B推理用什么GPU？", "两张3090能跑Baichuan2-13B吗，INT8量化",
                "Qwen-72B 4bit量化推理，上下文8k，并发10，要多少显存", "为什么大模型训练需要多GPU协同工作？"],
}


def base_lang(lang: str) -> str:
    """Catalog language for `lang`: Traditional Chinese is rendered as Simplified, then converted."""
    return "en" if lang == "en" else "zh-Hans"


class Translator:
    """`t.key` / `t('key', **values)` in the question's language (Traditional is converted later)."""

    def __init__(self, lang: str) -> None:
        self.lang = base_lang(lang)

    def __call__(self, key: str, **values: Any) -> str:
        text = MESSAGES[key][self.lang]
        return text.format(**values) if values else text

    def __getattr__(self, key: str) -> str:
        try:
            return MESSAGES[key][self.lang]
        except KeyError:
            raise AttributeError(key) from None

    def pick(self, table: dict[str, dict[str, str]], key: str) -> str:
        entry = table.get(key)
        return entry[self.lang] if entry else key


@lru_cache(maxsize=1)
def _to_traditional() -> Any:
    import opencc

    return opencc.OpenCC("s2t")


@lru_cache(maxsize=4096)
def to_traditional(text: str) -> str:
    """Simplified → Traditional with OpenCC (character conversion: "显存" → "顯存", the term users write), for zh-Hant questions."""
    return str(_to_traditional().convert(text))
