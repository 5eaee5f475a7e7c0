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
    "check_fails": {"en": "No: it needs {need} GiB per card and {count}× {gpu} can give it {limit} GiB each ({limit_what}).",
                    "zh-Hans": "不行：每卡需要 {need} GiB，而 {count} 张 {gpu} 每张可用 {limit} GiB（{limit_what}）。"},
    "limit_usable": {"en": "{have} GB card less the CUDA context", "zh-Hans": "{have} GB 显存减去 CUDA 上下文"},
    "limit_reserve": {"en": "{engine} reserves {fraction}% of the card", "zh-Hans": "{engine} 预留整卡的 {fraction}%"},
    "limit_reserve_beside": {"en": "{engine} keeps weights and KV cache in {fraction}% of the card and activations beside it",
                             "zh-Hans": "{engine} 把权重和 KV 缓存放在整卡的 {fraction}% 内，激活放在其外"},
    "nodes_of_8_training": {"en": "{n} nodes × 8 (data parallel, states sharded with ZeRO/FSDP)", "zh-Hans": "{n} 台 × 8 卡（数据并行，ZeRO/FSDP 分片）"},
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
    "sugg_zero3": {"en": "DeepSpeed ZeRO-3 / FSDP sharding", "zh-Hans": "DeepSpeed ZeRO-3 / FSDP 分片"},
    "sugg_checkpointing": {"en": "gradient checkpointing", "zh-Hans": "梯度检查点"},
    "sugg_kv_cache": {"en": "KV cache in {kv}{flag}", "zh-Hans": "KV 缓存改用 {kv}{flag}"},
    "sugg_flash_attention": {"en": "turn on flash attention{flag}", "zh-Hans": "开启 flash attention{flag}"},
    "sugg_newer_engine": {"en": "a current {engine} release instead of {version}",
                          "zh-Hans": "改用当前版本的 {engine}（而非 {version}）"},
    "sugg_offload_optimizer": {"en": "offload the optimizer states to CPU (ZeRO-Offload, ≈ {host} GiB host RAM)",
                               "zh-Hans": "把优化器状态卸载到 CPU（ZeRO-Offload，约需 {host} GiB 主机内存）"},
    "sugg_offload_all": {"en": "ZeRO-3 with parameters and optimizer offloaded to CPU (≈ {host} GiB host RAM; much slower)",
                         "zh-Hans": "ZeRO-3 并把参数和优化器卸载到 CPU（约需 {host} GiB 主机内存；慢很多）"},
    "needs": {"en": "needs {gb} GiB per card", "zh-Hans": "每卡需 {gb} GiB"},
    "speed": {"en": "Speed", "zh-Hans": "速度"},
    "decode": {"en": "decode ≈ {v} tok/s per sequence", "zh-Hans": "生成约 {v} tok/s（单序列）"},
    "real_time": {"en": "≈ {v}× real time (30 s windows, greedy decoding, ~100 tokens per window)", "zh-Hans": "约 {v} 倍实时（30 秒窗口，贪心解码，每窗口约 100 个 token）"},
    "seconds_per_image": {"en": "≈ {v} s per image (native resolution, 50 steps, batch 1)", "zh-Hans": "每张图约 {v} 秒（原生分辨率，50 步，批量 1）"},
    "sequences_per_s": {"en": "≈ {v} sequences/s at this length", "zh-Hans": "该长度下约 {v} 条序列/秒"},
    "decode_with": {"en": "with {engine} ≈ {v} tok/s per sequence", "zh-Hans": "用 {engine} 约 {v} tok/s（单序列）"},
    "aggregate": {"en": "≈ {v} tok/s across the batch", "zh-Hans": "整批约 {v} tok/s"},
    "prefill": {"en": "prefill ≈ {v} tok/s", "zh-Hans": "预填充约 {v} tok/s"},
    "train_speed": {"en": "training ≈ {v} tok/s", "zh-Hans": "训练约 {v} tok/s"},
    "train_hours": {"en": "≈ {v} h per billion training tokens", "zh-Hans": "每十亿训练 token 约 {v} 小时"},
    "assumptions": {"en": "Assumed", "zh-Hans": "默认假设"},
    "faq": {"en": "Related", "zh-Hans": "相关问答"},
    "from_doc": {"en": "from", "zh-Hans": "出自"},
    "source": {"en": "Sizing rules; figures from the knowledge base's cited sources. Check on the card with "
                      "`nvidia-smi` (vLLM logs the KV-cache size at start-up).",
               "zh-Hans": "依据内置估算规则与知识库中注明来源的数据。可用 `nvidia-smi` 实测核对"
                          "（vLLM 启动日志会打印 KV 缓存大小）。"},
    "did_you_mean": {"en": "I don't know the model “{text}”. Did you mean", "zh-Hans": "没有找到模型“{text}”。你是不是指"},
    "closed_model": {"en": "{name} is only offered through its vendor's API: its weights are not published, so no GPU of yours can run it and there is nothing to size. For an open model of that class, ask about e.g. DeepSeek-V3, Qwen3-235B-A22B, Llama 3.1 70B or gpt-oss-120b.",
                     "zh-Hans": "{name} 只通过厂商的 API 提供，权重没有公开，自己的 GPU 无法运行，因此无从估算。想部署同级别的开源模型，可以问 DeepSeek-V3、Qwen3-235B-A22B、Llama 3.1 70B 或 gpt-oss-120b。"},
    "other_jobs": {"en": "This answers the first job in your message. I also saw {quotes}: ask me about it separately, so its numbers are not mixed with these.",
                   "zh-Hans": "这里回答的是消息里的第一项任务。我还看到了 {quotes}：请单独再问，免得两项任务的参数混在一起。"},
    "unknown_sized": {"en": "I don't know “{text}”, so this is a generic {size}B dense transformer (Llama-like shape), not that model. For an exact figure: `gpu-advisor kb import config.json --id NAME`, or paste the model's config.json here.",
                      "zh-Hans": "我不认识“{text}”，下面按通用的 {size}B 稠密 Transformer（类 Llama 结构）估算，并非该模型本身。要精确结果：运行 `gpu-advisor kb import config.json --id NAME`，或把模型的 config.json 贴到这里。"},
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
    "host_ram": {"en": "Host RAM for the offloaded state: ≈ {gb} GiB per machine (DeepSpeed's own estimator, with its 1.5× buffer).",
                 "zh-Hans": "卸载到 CPU 的训练状态需要主机内存：每台机器约 {gb} GiB（按 DeepSpeed 自带估算器，含 1.5 倍缓冲）。"},
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
    "kv_quantised": {"en": "quantised", "zh-Hans": "量化"},
    "unknown_card": {"en": "I don't know the card “{text}”, so nothing below is about it: the cards named are ones I know. Name one of them, or give its memory (e.g. 48GB), to check it.",
                     "zh-Hans": "我不认识显卡“{text}”，下面的内容与它无关，列出的都是我认识的卡。请换成其中一张，或直接说显存大小（如 48GB）来核对。"},
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
    "cost_per_billion": {"en": "{v} {cur} per billion training tokens", "zh-Hans": "每十亿训练 token {v} {cur}"},
    "cost_total_hours": {"en": "for {hours} h: ≈ {total} {cur}", "zh-Hans": "{hours} 小时合计约 {total} {cur}"},
    "train_total": {"en": "Training {tokens} tokens on {config}: ≈ {hours} h wall-clock ({days} days, {gpu_hours} GPU-hours)",
                    "zh-Hans": "在 {config} 上训练 {tokens} token：约 {hours} 小时（{days} 天，{gpu_hours} GPU·小时）"},
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
    "serving_plan": {"en": "Serving plan: {replicas} replica(s) × {count}× {gpu}, {per_replica} sequences each, "
                           "≈ {agg} tok/s in all, ≈ {speed} tok/s per user, first token ≈ {ttft} s",
                     "zh-Hans": "服务方案：{replicas} 个副本 × {count} 张 {gpu}，每副本 {per_replica} 路，"
                                "合计约 {agg} tok/s，每用户约 {speed} tok/s，首 token 约 {ttft} 秒"},
    "binding_memory": {"en": "the binding target is memory (the KV cache one replica holds)",
                       "zh-Hans": "约束来自显存（单副本能容纳的 KV 缓存）"},
    "binding_speed": {"en": "the binding target is the per-user speed", "zh-Hans": "约束来自每用户速度要求"},
    "binding_ttft": {"en": "the first-token target is not met on this configuration; more replicas do not help, "
                           "more cards per replica (tensor parallelism) or shorter prompts do",
                     "zh-Hans": "该配置达不到首 token 延迟要求；加副本无济于事，需要每副本更多卡（张量并行）或更短的输入"},
    "speed_not_met": {"en": "the per-user speed target is not met even with one user per replica",
                      "zh-Hans": "即使每副本只服务一个用户也达不到每用户速度要求"},
    "context_lost": {"en": "I lost the thread's context; here is the answer to this message alone.",
                     "zh-Hans": "我丢失了这个对话的上下文；以下只回答这条消息。"},
}

NOTE_TEXT: dict[str, dict[str, str]] = {
    "dpo-reference": {"en": "DPO keeps a frozen 16-bit reference copy of the model for its loss (counted under weights); TRL's precompute_ref_log_probs avoids it at the cost of a first pass over the data.",
                      "zh-Hans": "DPO 为损失保留一份冻结的 16 位参考模型（计入权重）；TRL 的 precompute_ref_log_probs 可先遍历一次数据来省掉它。"},
    "vllm-reserve": {"en": "vLLM reserves {percent}% of each card (gpu_memory_utilization {fraction}) and fills what weights and activations leave with KV-cache blocks, so nvidia-smi shows the reservation, not the job.",
                     "zh-Hans": "vLLM 预留每张卡 {percent}% 的显存（gpu_memory_utilization {fraction}），权重和激活之外的部分全部用作 KV 缓存块，所以 nvidia-smi 显示的是预留量而非实际需求。"},
    "sglang-reserve": {"en": "SGLang reserves {percent}% of each card for the weights and its KV-cache pool (mem_fraction_static {fraction}) and keeps activations and CUDA graphs in the rest, so nvidia-smi shows the reservation, not the job.",
                       "zh-Hans": "SGLang 为权重和 KV 缓存池预留每张卡 {percent}% 的显存（mem_fraction_static {fraction}），激活和 CUDA graph 使用其余部分，所以 nvidia-smi 显示的是预留量而非实际需求。"},
    "lmdeploy-reserve": {"en": "LMDeploy (TurboMind) gives its KV-cache blocks {percent}% of the memory the weights leave free (cache_max_entry_count {fraction}), so nvidia-smi shows the reservation, not the job.",
                         "zh-Hans": "LMDeploy（TurboMind）把加载权重后剩余显存的 {percent}% 分给 KV 缓存块（cache_max_entry_count {fraction}），所以 nvidia-smi 显示的是预留量而非实际需求。"},
    "tensorrt-llm-reserve": {"en": "TensorRT-LLM gives its KV-cache blocks {percent}% of the memory left free after the engine loads (free_gpu_memory_fraction {fraction}), so nvidia-smi shows the reservation, not the job. Its decoder and runtime buffers, which grow with the engine's --max_batch_size × the vocabulary (several GiB at the default 2048 with a 150k vocabulary), are taken before the pool and shrink it; they are not sized here, so build the engine for the batch you serve.",
                             "zh-Hans": "TensorRT-LLM 把引擎加载后剩余显存的 {percent}% 分给 KV 缓存块（free_gpu_memory_fraction {fraction}），所以 nvidia-smi 显示的是预留量而非实际需求。它的解码器和运行时缓冲区随引擎的 --max_batch_size × 词表大小增长（默认 2048、15 万词表时达数 GiB），在分配该池之前占用并使其变小；这里未计入，请按实际服务的并发构建引擎。"},
    "vllm-does-not-fit": {"en": "vLLM would refuse to start: weights, activations and one sequence's KV cache exceed its {percent}% reservation.",
                          "zh-Hans": "vLLM 将无法启动：权重、激活加一条序列的 KV 缓存超过了 {percent}% 的预留显存。"},
    "vllm-set-max-model-len": {"en": "Start vLLM with --max-model-len {context} (the context sized here): without it vLLM takes the model's whole context, {max_context} tokens, whose KV cache does not fit what this card leaves, and refuses to start.",
                               "zh-Hans": "启动 vLLM 时请加 --max-model-len {context}（这里按此上下文计算）：不加时 vLLM 采用模型的完整上下文 {max_context} tokens，其 KV 缓存放不进这张卡剩余的显存，会拒绝启动。"},
    "sglang-does-not-fit": {"en": "SGLang would refuse to start: the weights and one sequence's KV cache exceed its {percent}% reservation.",
                            "zh-Hans": "SGLang 将无法启动：权重加一条序列的 KV 缓存超过了 {percent}% 的预留显存。"},
    "lmdeploy-does-not-fit": {"en": "LMDeploy would refuse to start: what the weights leave cannot hold one sequence's KV cache.",
                              "zh-Hans": "LMDeploy 将无法启动：加载权重后剩余的显存放不下一条序列的 KV 缓存。"},
    "tensorrt-llm-does-not-fit": {"en": "TensorRT-LLM would refuse to start: what the engine leaves cannot hold one sequence's KV cache.",
                                  "zh-Hans": "TensorRT-LLM 将无法启动：引擎加载后剩余的显存放不下一条序列的 KV 缓存。"},
    "layer-split": {"en": "transformers splits the layers across the cards (device_map): memory divides, but a token visits the cards one after another, so speed does not add up.",
                    "zh-Hans": "transformers 按层把模型切到多张卡上（device_map）：显存分摊，但每个 token 依次经过各卡，速度不会叠加。"},
    "moe-all-experts": {"en": "Mixture of experts: every expert sits in memory; each token computes with only the routed ones (the weights read per token follow the active parameters).",
                        "zh-Hans": "混合专家模型：所有专家都要放进显存，每个 token 只计算被路由到的专家（每个 token 读取的权重取决于激活参数量）。"},
    "moe-expert-loop-all": {"en": "This transformers version runs an MoE layer's experts one at a time in Python, every expert at every step, routed or not (4.52/4.53 skip the idle ones): a fixed cost per expert visited, which the speed above includes. vLLM or SGLang fuse the experts.",
                            "zh-Hans": "该版本 transformers 在 Python 中逐个运行 MoE 层的专家，每一步遍历全部专家，无论是否被路由（4.52/4.53 起跳过未被路由的专家）：每访问一个专家都有固定开销，上面的速度已计入。vLLM 或 SGLang 会融合专家计算。"},
    "moe-expert-loop-hit": {"en": "transformers runs an MoE layer's routed experts one at a time in Python: a fixed cost per expert visited, which the speed above includes. vLLM or SGLang fuse the experts.",
                            "zh-Hans": "transformers 在 Python 中逐个运行 MoE 层被路由到的专家：每访问一个专家都有固定开销，上面的速度已计入。vLLM 或 SGLang 会融合专家计算。"},
    "engine-lacks-model-code": {"en": "This model ships its own modelling code (trust_remote_code), which this engine does not run: it trains the architectures it implements itself. The figure is what the job would need if it did; with transformers + PEFT it runs as is.",
                                "zh-Hans": "该模型使用自带的建模代码（trust_remote_code），这个引擎并不运行它：它只训练自己实现了的架构。上面的数字是假如它支持时所需的显存；用 transformers + PEFT 可以直接运行。"},
    "rope-tables": {"en": "This transformers version builds rotary (cos/sin) tables for every position the model supports in each attention layer and keeps them on the card; they are counted with the weights (newer versions compute only the positions in use).",
                    "zh-Hans": "该版本 transformers 在每个注意力层为模型支持的全部位置预先生成旋转位置编码（cos/sin）表并常驻显存，已计入权重（新版本只计算实际用到的位置）。"},
    "gguf-embeddings-on-host": {"en": "llama.cpp keeps the token-embedding table in system RAM and stores the output layer at Q6_K; the card holds the rest of the file.",
                                "zh-Hans": "llama.cpp 把词嵌入表放在系统内存中，输出层按 Q6_K 存储；显卡上是文件的其余部分。"},
    "embeddings-16bit": {"en": "Quantised checkpoints keep the embeddings and lm_head in 16-bit; they are counted at 2 bytes per parameter.",
                         "zh-Hans": "量化模型的词嵌入和 lm_head 仍为 16 位，按每参数 2 字节计算。"},
    "official-quant-keeps-16bit": {"en": "The authors' own quantised release keeps some layers in 16-bit (Meta's Llama 3.1 FP8: attention, and the first and last layers); they are counted at 2 bytes per parameter. Quantising the 16-bit checkpoint yourself (vLLM --quantization fp8) would shrink them too.",
                                   "zh-Hans": "官方发布的量化模型有部分层仍为 16 位（如 Meta 的 Llama 3.1 FP8：注意力层以及第一层和最后一层），按每参数 2 字节计算。若自己对 16 位模型做在线量化（vLLM --quantization fp8），这些层也会变小。"},
    "zero3": {"en": "ZeRO-3 / FSDP shards weights, gradients and optimizer states across the cards.",
              "zh-Hans": "ZeRO-3 / FSDP 把权重、梯度和优化器状态分片到各张卡上。"},
    "zero2": {"en": "ZeRO-2 shards gradients and optimizer states across the cards; each keeps a full copy of the weights.",
              "zh-Hans": "ZeRO-2 把梯度和优化器状态分片到各张卡上，每张卡保留完整权重。"},
    "zero1": {"en": "ZeRO-1 shards the optimizer states across the cards.", "zh-Hans": "ZeRO-1 把优化器状态分片到各张卡上。"},
    "paged-optimizer": {"en": "A paged optimizer keeps its states in unified memory: the card must hold everything else, and the states move to host RAM when it runs out (slower steps, not an OOM).",
                        "zh-Hans": "分页优化器把优化器状态放在统一内存里：显卡只需放下其余部分，显存不够时状态会换到主机内存（步骤变慢，但不会 OOM）。"},
    "gradient-checkpointing": {"en": "Gradient checkpointing recomputes activations in the backward pass (about 30% more compute, far less memory).",
                               "zh-Hans": "梯度检查点在反向传播时重算激活（计算量约增加 30%，显存大幅减少）。"},
    "hybrid-attention": {"en": "Hybrid attention: only the full-attention layers cache every token; sliding-window or chunked layers cache their window, linear-attention layers a fixed state.",
                         "zh-Hans": "混合注意力：只有全注意力层缓存全部 token；滑动窗口或分块层只缓存窗口内的 token，线性注意力层只保留固定大小的状态。"},
    "sliding-window": {"en": "Sliding-window layers cache only their window of tokens.", "zh-Hans": "滑动窗口注意力层只缓存窗口内的 token。"},
    "offload-optimizer": {"en": "Optimizer states are offloaded to CPU memory.", "zh-Hans": "优化器状态卸载到 CPU 内存。"},
    "offload-params": {"en": "ZeRO-3 offloads the parameters as well as the optimizer states to CPU memory: each card holds only the layer being gathered, and every step streams the model over PCIe (much slower).",
                       "zh-Hans": "ZeRO-3 把参数和优化器状态都卸载到 CPU 内存：每张卡只保留正在聚合的那一层，每一步都要经 PCIe 传输整个模型（慢很多）。"},
}
"""Explanations of the rules' machine-readable estimate notes (rules/memory.py), shown under the figures."""

ASSUMPTION_REASONS: dict[str, dict[str, str]] = {
    "default": {"en": "not stated", "zh-Hans": "未说明，按默认"},
    "no-bf16-on-gpu": {"en": "this card has no bf16", "zh-Hans": "该卡不支持 bf16"},
    "budget-quantised": {"en": "the cheapest way to serve it: 8-bit weights lose well under 1% on benchmarks, 4-bit (AWQ/GPTQ) about 1–3%; say the precision to size another",
                         "zh-Hans": "最省钱的部署方式：8 位权重在基准测试上损失通常不到 1%，4 位（AWQ/GPTQ）约 1–3%；指定精度可改按其他精度估算"},
    "engine-kv-default": {"en": "the engine's first KV-cache type below 16 bits", "zh-Hans": "该引擎支持的首个低于 16 位的 KV 缓存类型"},
    "native-release": {"en": "the precision the model is released in", "zh-Hans": "模型官方发布的精度"},
    "top-pick-no-bf16": {"en": "the recommended card has no bf16", "zh-Hans": "推荐的卡不支持 bf16"},
    "qlora-base": {"en": "QLoRA's 4-bit base", "zh-Hans": "QLoRA 的 4-bit 底座"},
    "gguf-default": {"en": "the GGUF people pull for llama.cpp, Ollama's default tag; name another quant to size it",
                     "zh-Hans": "llama.cpp 常用的 GGUF，也是 Ollama 默认标签；如用其他量化请说明"},
    "model-max-context": {"en": "the model's native maximum", "zh-Hans": "模型原生上限"},
    "beyond-native-context": {"en": "longer than the model's native window: needs RoPE scaling",
                              "zh-Hans": "超出模型原生窗口，需要 RoPE 扩展"},
    "preference-as-sft": {"en": "preference / RL training (GRPO, PPO, KTO, ORPO) sized as supervised fine-tuning of the policy: a separate reference or reward model, several completions per prompt and a rollout engine are not counted",
                          "zh-Hans": "偏好/强化学习训练（GRPO、PPO、KTO、ORPO）按策略模型的监督微调估算：未计入单独的参考模型或奖励模型、每个提示的多条回复以及采样推理引擎"},
    "generic-model": {"en": "a generic Llama-like model of that size", "zh-Hans": "按同规模的通用 Llama 结构估算"},
    "gpu-default-variant": {"en": "memory size not stated: read as this variant", "zh-Hans": "未注明显存，按此型号"},
    "serving-target": {"en": "a speed or load target: a serving engine (transformers' generate is launch-bound)", "zh-Hans": "有速度或负载目标：按推理服务框架估算（transformers 的 generate 受启动开销限制）"},
    "concurrent-serving": {"en": "several concurrent users: a serving engine with paged KV cache", "zh-Hans": "多用户并发：按带分页 KV 缓存的推理服务框架估算"},
    "default-pool": {"en": "say “consumer”/“cheapest” or name a card to include GeForce or AMD", "zh-Hans": "如需消费级或 AMD 显卡，请说明“最便宜”或直接写出型号"},
    "train-needs-16bit": {"en": "quantised weights cannot be trained directly; use QLoRA for a 4-bit base", "zh-Hans": "量化权重无法直接训练，4-bit 底座请用 QLoRA"},
    "needed-to-fit": {"en": "needed to fit this card, chosen by the rules", "zh-Hans": "为放进这张卡而开启，由规则选定"},
    "engine-default": {"en": "the engine's own default", "zh-Hans": "该框架的默认设置"},
    "rules-choice": {"en": "the usual setting for this job, chosen by the rules", "zh-Hans": "规则按常用做法选定"},
    "training-no-kv-cache": {"en": "ignored: training keeps no KV cache", "zh-Hans": "已忽略：训练不使用 KV 缓存"},
    "ollama-default": {"en": "Ollama's default for this model; OLLAMA_FLASH_ATTENTION=1 turns it on",
                       "zh-Hans": "Ollama 对该模型的默认设置；设 OLLAMA_FLASH_ATTENTION=1 可开启"},
}

FIELD_LABELS: dict[str, dict[str, str]] = {
    "task": {"en": "task", "zh-Hans": "任务"},
    "precision": {"en": "precision", "zh-Hans": "精度"},
    "quant": {"en": "quantisation", "zh-Hans": "量化格式"},
    "engine": {"en": "engine", "zh-Hans": "推理框架"},
    "context": {"en": "context", "zh-Hans": "上下文"},
    "kv_cache": {"en": "KV cache", "zh-Hans": "KV 缓存"},
    "engine_version": {"en": "version", "zh-Hans": "版本"},
    "flash_attention": {"en": "flash attention", "zh-Hans": "flash attention"},
    "batch": {"en": "batch", "zh-Hans": "批量/并发"},
    "model": {"en": "model", "zh-Hans": "模型"},
    "gpu": {"en": "GPU", "zh-Hans": "GPU"},
    "gpu_count": {"en": "GPUs", "zh-Hans": "卡数"},
    "zero_stage": {"en": "ZeRO stage", "zh-Hans": "ZeRO 阶段"},
    "gradient_checkpointing": {"en": "gradient checkpointing", "zh-Hans": "梯度检查点"},
    "lora_rank": {"en": "LoRA rank", "zh-Hans": "LoRA 秩"},
    "optimizer": {"en": "optimizer", "zh-Hans": "优化器"},
    "params_b": {"en": "size", "zh-Hans": "参数量"},
    "cloud": {"en": "cloud", "zh-Hans": "云"},
    "budget": {"en": "budget", "zh-Hans": "预算"},
    "gen_tokens": {"en": "generated tokens", "zh-Hans": "生成长度"},
    "pool": {"en": "picks from", "zh-Hans": "候选范围"},
    "memory_gb": {"en": "GPU memory", "zh-Hans": "显存"},
    "gpu_memory_utilization": {"en": "vLLM gpu_memory_utilization", "zh-Hans": "vLLM 显存占用比例"},
    "memory_fraction": {"en": "memory share", "zh-Hans": "显存占用比例"},
    "max_num_seqs": {"en": "vLLM max_num_seqs (its start-up sampler warm-up, counted in activations)",
                     "zh-Hans": "vLLM max_num_seqs（启动时采样器预热的请求数，计入激活显存）"},
    "compare_gpus": {"en": "compare", "zh-Hans": "对比"},
}

TASK_NAMES = {
    "inference": {"en": "inference", "zh-Hans": "推理"},
    "train": {"en": "full training / fine-tuning", "zh-Hans": "全参数训练/微调"},
    "lora": {"en": "LoRA fine-tuning", "zh-Hans": "LoRA 微调"},
    "qlora": {"en": "QLoRA fine-tuning", "zh-Hans": "QLoRA 微调"},
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
