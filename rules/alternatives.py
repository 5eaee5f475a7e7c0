"""What would fit when a job does not: the changed workload or hardware that fits, each with its numbers —
quantised weights, a smaller KV cache, flash attention, a current engine release, fewer requests at start-up,
PEFT, CPU offload, checkpointing, ZeRO-3, more or bigger cards, a smaller batch or a shorter context — in the
order a practitioner would try them."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Literal

from knowledge.schema import GPU, Model
from rules import constants as C
from rules.engine_profile import optimizer_for, profile_for, training_fact
from rules.hardware import price_proxy, runs_precision, slow_tensor_cores, supports_bf16
from rules.limits import fits_on, limit_gib, needed_gib, unsupported_format, valid_tp, within_one_machine
from rules.memory import is_transformer
from rules.precision import normalise_quant, weight_bytes
from rules.search import largest_true, smallest_true
from rules.types import MemoryEstimate, Precision, Suggestion, Workload

ONLINE_FP8_ENGINES = ("vllm", "sglang")
"""Engines that quantise a 16-bit checkpoint's linear layers to FP8 at load (`--quantization fp8`):
https://docs.vllm.ai/en/v0.5.4/quantization/fp8.html ("Dynamic quantization of an original precision BF16/FP16
model to FP8 can be achieved with vLLM without any calibration data required"; every Linear but lm_head) and
https://docs.sglang.io/docs/advanced_features/server_arguments ("add --quantization fp8 on a fp16
checkpoint"). Offered only on cards with FP8 tensor cores, where it runs as W8A8."""


def with_offload(w: Workload, offload: Literal["optimizer", "all"]) -> Workload:
    """The job with its states in host RAM as DeepSpeed does it: the parameters only under ZeRO-3
    (offload_param), the optimizer from ZeRO-1 up; a stated lower stage gives way to the one that offloads."""
    if offload == "all" and w.zero_stage is not None and w.zero_stage < 3:
        return replace(w, offload=offload, zero_stage=3)
    if offload == "optimizer" and w.zero_stage == 0:
        return replace(w, offload=offload, zero_stage=None)
    return replace(w, offload=offload)


def _weights_bytes(w: Workload) -> float:
    return weight_bytes(w.model, w.precision, normalise_quant(w.quant, w.precision, w.engine))[0]


def suggestions(w: Workload, gpu: GPU, count: int, candidates: Sequence[GPU]) -> list[Suggestion]:
    out: list[Suggestion] = []
    # When the job fits but tightly, the changes offered "to be safe" must leave it clear of the tight band on
    # their card: a QLoRA that saves nothing or a second card that saves 0.2 GiB is no advice.
    fits_now, now = fits_on(w, gpu, count)
    margin = 1.0 - C.TIGHT_FRACTION if fits_now else 1.0

    # More of a card that should not be used for ML at all is no advice (8 Quadro P2200s for a 7B model), nor
    # more cards for a job its activations dominate where more cards do not divide them: each data-parallel
    # card holds its own, and a layer split (transformers' device_map) runs each layer's full working set on
    # the card that holds it (16 cards for a 7B model at 8k tokens with eager attention).
    activation_bound = ((w.task != "inference" or profile_for(w).multi_gpu.mode != "tensor-parallel")
                        and now.breakdown.get("activations", 0.0) > 0.5 * now.per_gpu_gib)

    def need(wl: Workload, g: GPU, n: int, *, storage_only: bool = False) -> float | None:
        """What `wl` needs per card when it fits `n` × `g` clear of the margin; `storage_only`: the format only
        stores the weights (upcast to compute), so the card need not run that precision."""
        if not storage_only and unsupported_format(wl, g) is not None:
            return None
        ok, est = fits_on(wl, g, n)
        needed = needed_gib(est)
        limit = limit_gib(wl, g)
        if (wl.engine, wl.engine_version) == (w.engine, w.engine_version):
            # the same engine: within the limit the reply states too (vLLM's margin shrinks with a smaller
            # profile, so a fix could need a little more than the limit the verdict quoted)
            limit = min(limit, limit_gib(w, g))
        return round(needed, 2) if ok and needed <= limit * margin else None

    unsupported = unsupported_format(w, gpu)
    if (w.task == "inference" and 1 < count <= C.GPUS_PER_NODE and unsupported is None and not valid_tp(w, count)
            and profile_for(w).multi_gpu.mode == "tensor-parallel"):
        # A count tensor parallelism cannot split the heads over (3 or 6 cards): the engines that also split by
        # layers run it as pipeline stages, which take uneven shares; and a model one card holds runs as a copy
        # on each (audit 30 M-76: "No" with 2 or 4 cards as the only fixes)
        alone = need(w, gpu, 1)
        if alone is not None:
            out.append(Suggestion(kind="one-card-replicas", count=count, memory_per_gpu_gib=alone))
        per_card = needed_gib(now)
        if w.engine in PIPELINE_ENGINES and per_card <= limit_gib(w, gpu) * margin:
            out.append(Suggestion(kind="pipeline-parallel", count=count, memory_per_gpu_gib=round(per_card, 2)))
    released = w.model.native_precision
    if unsupported is not None and released in ("fp8", "bf16") and w.precision != released:
        # the makers' own release, where this card runs it (NVFP4 of DeepSeek-R1 under TensorRT-LLM on H200s:
        # its FP8 release), before a community checkpoint of the same bits
        m = need(replace(w, precision=released, quant=None), gpu, count)
        if m is not None:
            out.append(Suggestion(kind="other-format", precision=released, quant=None, memory_per_gpu_gib=m))
    for precision, quant in SAME_BITS_FORMATS.get(unsupported or "", ()):
        # AWQ on a V100: the same bits in a format whose kernels run on the card, before any other change
        m = need(replace(w, precision=precision, quant=quant), gpu, count)
        if m is not None:
            out.append(Suggestion(kind="other-format", precision=precision, quant=quant, memory_per_gpu_gib=m))
            break

    eager = not w.flash_attention and is_transformer(w.model)
    if eager:
        # Eager attention holds heads × s² scores (llama.cpp: its KQ over the whole cache); a fused kernel never
        # does, and it is a switch, not new hardware.
        m = need(replace(w, flash_attention=True), gpu, count)
        if m is not None:
            out.append(Suggestion(kind="flash-attention", memory_per_gpu_gib=m))
    if w.engine_version is not None and profile_for(w) != profile_for(replace(w, engine_version=None)):
        # An old release of the engine (transformers computing every prompt token's logits, vLLM's profiling
        # of a whole max_model_len): the current one may fit where it does not, or with the fused attention it
        # ships, when neither switch alone is enough.
        m = need(replace(w, engine_version=None), gpu, count)
        with_attention = eager and m is None and not out
        if with_attention:
            m = need(replace(w, engine_version=None, flash_attention=True), gpu, count)
        if m is not None:
            out.append(Suggestion(kind="newer-engine", memory_per_gpu_gib=m,
                                  flash_attention=True if with_attention else None))
    if (w.task == "inference" and count > 1 and not w.dp_attention and w.model.mla is not None
            and profile_for(w).dp_attention is not None):
        # An MLA model keeps every request's latent on every tensor-parallel card: attention data-parallel over
        # the cards keeps each request on one (DeepSeek's usual high-concurrency set-up)
        m = need(replace(w, dp_attention=True), gpu, count)
        if m is not None:
            out.append(Suggestion(kind="dp-attention", count=count, memory_per_gpu_gib=m))
    requests = now.chosen.get("max_num_seqs")
    if w.task == "inference" and isinstance(requests, int) and requests > 1:
        # vLLM's start-up profile runs one dummy request per --max-num-seqs (its sampler warm-up, and for an
        # image model one encoded image each): a lower cap is a flag, and it frees that memory for the KV pool.
        capped = halving(requests, 1, lambda cap: need(replace(w, max_num_seqs=cap), gpu, count))
        if capped is not None:
            out.append(Suggestion(kind="fewer-requests", max_num_seqs=capped[0], memory_per_gpu_gib=capped[1]))
    slots = now.chosen.get("max_batch_size")
    if w.task == "inference" and isinstance(slots, int) and (slots > max(w.batch, 1) or w.engine_max_seq_len):
        # A TensorRT engine's runtime buffers are sized at build time for its request slots and length: rebuilt
        # for the requests and the context served, it leaves that memory to the KV pool.
        built = replace(w, engine_max_seq_len=None)
        served = max(w.batch, 1)
        m = need(replace(built, max_num_seqs=slots), gpu, count) if w.engine_max_seq_len else None
        cap = slots
        if m is None:
            capped = halving(slots, served, lambda cap: need(replace(built, max_num_seqs=cap), gpu, count))
            cap, m = capped if capped is not None else (served, need(replace(built, max_num_seqs=served), gpu, count))
        if m is not None:
            out.append(Suggestion(kind="engine-build", max_num_seqs=cap, context=w.context, memory_per_gpu_gib=m))
    if w.task == "inference":
        formats: list[tuple[Precision, str]] = (
            # below Q4_K_M, the K-quant mixes people run a model one size too big with (Q3_K_M, then Q2_K)
            [("int8", "gguf-q8_0"), ("int4", "gguf-q4_k_m"), ("int4", "gguf-q3_k_m"), ("int4", "gguf-q2_k")]
            if w.engine == "llama.cpp"
            # diffusers quantises a pipeline's denoiser and T5 with bitsandbytes on load: no GPTQ/AWQ files
            else [("int8", "bnb-int8"), ("int4", "nf4")] if w.model.arch == "diffusion"
            # nobody ships GPTQ/AWQ speech models: Whisper loads in 8 bits with bitsandbytes (faster-whisper's
            # CTranslate2 int8 is the same bytes)
            else [("int8", "bnb-int8")] if w.model.arch == "encoder-decoder"
            # TurboMind serves 4-bit AWQ/GPTQ weights (`lmdeploy lite auto_awq`, docs quantization/w4a16.md); its
            # 8-bit route is W8A8 SmoothQuant on the PyTorch engine, not a GPTQ-Int8 checkpoint
            else [("int4", "awq")] if w.engine == "lmdeploy"
            # GPTQ at 4 bits after AWQ: its kernels run where AWQ's do not (Volta: a V100 had no 4-bit route
            # offered for Phi-4, audit 38 M-150)
            else [("int8", "gptq-int8"), ("int4", "awq"), ("int4", "gptq")])
        if (gpu.fp8_tflops and w.precision in ("bf16", "fp16")
                and (w.engine in ONLINE_FP8_ENGINES or w.model.arch == "diffusion")):
            # On FP8 tensor cores the serving engine quantises a 16-bit checkpoint itself, no other file needed; a
            # diffusion transformer runs in float8 there too (torchao / quanto FP8, kohya's --fp8_base), the usual
            # 4090 route for FLUX.1-dev before 8-bit bitsandbytes (audit 33 M-114)
            formats = [("fp8", "fp8"), *formats]
        elif (w.precision in ("bf16", "fp16") and released_by_makers(w.model, "fp8")
              and runs_precision(gpu, "fp8", w.engine)):
            # the makers' FP8 release where the engine runs it weight-only (vLLM's FP8 Marlin on an A100), before
            # a GPTQ-Int8 nobody publishes (audit 28 LOW-97: Qwen3-Next-80B)
            formats = [("fp8", "fp8"), *formats]
        # Only formats whose weights are smaller than the job's: from Q4_K_M or Q2_K, INT8 is no way to fit.
        current = _weights_bytes(w)
        smaller = [(p, q) for p, q in formats if _weights_bytes(replace(w, precision=p, quant=q)) < current
                   # 4-bit weights (gpt-oss's MXFP4) re-quantised to another 4-bit format save only scale
                   # overheads and cost quality: no advice
                   and not (w.precision in ("int4", "mxfp4") and p == "int4" and not q.startswith("gguf-"))]
        # the files the model's makers publish first (QwQ-32B ships AWQ, not GPTQ-Int8): one is the first offered;
        # ahead of them the engine's own FP8 on FP8 tensor cores, which needs no file and runs W8A8 (audit 32 M-106:
        # an L40S offered a GPTQ-Int8 checkpoint, run weight-only, before FP8)
        online_fp8 = w.engine in ONLINE_FP8_ENGINES and bool(gpu.fp8_tflops)
        smaller.sort(key=lambda pq: (not (online_fp8 and pq[1] == "fp8"), not released_by_makers(w.model, pq[1])))
        # On these cards first; failing that, the fewest more of them the quantised weights fit on (70B at
        # 4 bits on 2× 24 GB: what people run a 70B on at home).
        for n in [count, *(n for n in C.TP_DEGREES if n > count and gpu.recommended and not activation_bound
                           and within_one_machine(gpu, n))]:
            if n != count and valid_tp(w, n) and need(w, gpu, n) is not None:
                break  # as many cards hold it unquantised: the more-cards suggestion says so
            found = None
            for precision, quant in smaller:
                alt = replace(w, precision=precision, quant=quant)
                m = need(alt, gpu, n) if valid_tp(alt, n) else None
                if m is not None:
                    found = Suggestion(kind="quantise", precision=precision, quant=quant, memory_per_gpu_gib=m,
                                       gpu_id=gpu.id if n != count else None, count=n if n != count else None)
                    break
            if found is not None:
                out.append(found)
                break
        out += home_gguf(w, gpu, count, need)
        if w.kv_cache is None and is_transformer(w.model):
            # The engine's smaller KV-cache types, largest first: long contexts are mostly cache.
            cache = profile_for(w).kv_cache
            accepted = cache.bytes_per_element
            # An engine that quantises its cache only with flash attention on (llama.cpp) is told to turn it on too.
            fused = True if cache.quantised_needs_flash_attention else w.flash_attention
            small_caches = sorted((k for k, b in accepted.items() if b < 2.0), key=lambda k: -accepted[k])
            for kv in small_caches:
                m = need(replace(w, kv_cache=kv, flash_attention=fused), gpu, count)
                if m is not None:
                    out.append(Suggestion(kind="kv-cache", kv_cache=kv, memory_per_gpu_gib=m))
                    break
            else:
                # Neither alone: FP8 weights and an FP8 cache together (a 128k-token 8B on one 24 GB card)
                if ("fp8" in small_caches and w.engine in ONLINE_FP8_ENGINES and gpu.fp8_tflops
                        and w.precision in ("bf16", "fp16") and w.quant is None):
                    both = replace(w, kv_cache="fp8", precision="fp8", quant="fp8", flash_attention=fused)
                    m = need(both, gpu, count)
                    if m is not None:
                        out.append(Suggestion(kind="quantise", precision="fp8", quant="fp8", kv_cache="fp8",
                                              memory_per_gpu_gib=m))
        out += host_offload(w, gpu, count)
        if (w.model.arch == "diffusion" and w.precision == "fp16" and supports_bf16(gpu)
                and w.model.details.get("vae_decodes_fp32_when_fp16")):
            # SDXL's pipeline decodes in fp32 when it runs in fp16, not in bf16: a dtype, not new hardware
            m = need(replace(w, precision="bf16"), gpu, count)
            if m is not None:
                out.append(Suggestion(kind="bf16", precision="bf16", memory_per_gpu_gib=m))
        if w.model.arch == "diffusion" and w.offload == "none" and not gpu.unified_memory:
            # diffusers' enable_model_cpu_offload(): one part of the pipeline on the card at a time; when even its
            # largest part is too big, with the 4-bit load that shrinks it (FLUX on a 12 GB card)
            m = need(replace(w, offload="all"), gpu, count)
            if m is not None:
                # before a 4-bit denoiser: the same pictures, only slower (audit 29 M-63: SDXL on 8 GB)
                first_quantised = next((i for i, s in enumerate(out) if s.kind == "quantise"), len(out))
                out.insert(first_quantised, Suggestion(kind="model-offload", memory_per_gpu_gib=m))
            elif not any(s.kind == "quantise" for s in out) and w.precision in ("bf16", "fp16", "fp32"):
                m = need(replace(w, offload="all", precision="int4", quant="nf4"), gpu, count)
                if m is not None:
                    out.append(Suggestion(kind="model-offload", precision="int4", quant="nf4", memory_per_gpu_gib=m))
    if w.task != "inference" and w.gradient_checkpointing is False:
        # A switch before any change of method or hardware: activations are what it saves.
        m = need(replace(w, gradient_checkpointing=True), gpu, count)
        if m is not None:
            out.append(Suggestion(kind="checkpointing", memory_per_gpu_gib=m))
    if w.task != "inference" and w.model.arch == "diffusion" and w.text_encoders == "resident":
        m = need(replace(w, text_encoders="cached"), gpu, count)
        if m is not None:
            out.append(Suggestion(kind="cache-text-encoders", memory_per_gpu_gib=m))
    if w.task == "train" and optimizer_for(w) == "adamw":
        # AdamW's fp32 moments and master copy are most of a full fine-tune's memory; bitsandbytes' 8-bit AdamW
        # keeps 2 bytes of state per parameter instead of 12 and still trains every weight.
        m = need(replace(w, optimizer="adamw-8bit"), gpu, count)
        if m is not None:
            out.append(Suggestion(kind="optimizer-8bit", memory_per_gpu_gib=m))
    if w.task == "lora" and w.model.arch == "diffusion" and w.quant is None and w.precision in ("bf16", "fp16", "fp32"):
        # The image trainers' 8-bit base for an adapter run: kohya's --fp8_base and ai-toolkit's quantised
        # transformer keep the frozen weights in float8 and upcast a layer at a time, on any card (no FP8 tensor
        # cores needed).
        m = need(replace(w, precision="fp8"), gpu, count, storage_only=True)
        if m is not None:
            out.append(Suggestion(kind="fp8-base", precision="fp8", memory_per_gpu_gib=m))
    if w.task == "train" and w.model.arch == "diffusion" and optimizer_for(w) != "adafactor":
        # kohya's sd-scripts route for a full SDXL/FLUX fine-tune on one card: Adafactor (factored states) stepped
        # inside backward (--fused_backward_pass), so no full set of gradients either.
        m = need(replace(w, optimizer="adafactor", optimizer_in_backward=True), gpu, count)
        if m is not None:
            out.append(Suggestion(kind="adafactor-fused", memory_per_gpu_gib=m))
    if w.task != "inference" and count > 1 and w.zero_stage is not None and w.zero_stage < 3:
        # the same full fine-tune on the same cards, sharded further: before any change of method (QLoRA is
        # another job), at a smaller micro batch when the one asked does not fit even sharded (audit 29 M-60)
        for batch in range(w.batch, 0, -1):
            m = need(replace(w, zero_stage=3, batch=batch), gpu, count)
            if m is not None:
                out.append(Suggestion(kind="zero3", count=count, memory_per_gpu_gib=m,
                                      batch=batch if batch != w.batch else None))
                break
        else:
            # sharded and with 8-bit moments: the full fine-tune still on the user's own cards, before LoRA or a
            # cluster of newer ones (audit 33 M-109: ZeRO-2 on 8× H100 got LoRA, offload and 8× B300)
            m = None if optimizer_for(w) == "adamw-8bit" else need(replace(w, zero_stage=3, batch=1,
                                                                           optimizer="adamw-8bit"), gpu, count)
            if m is not None:
                out.append(Suggestion(kind="zero3", count=count, memory_per_gpu_gib=m, optimizer="adamw-8bit",
                                      batch=1 if w.batch != 1 else None))
    if w.task == "train":
        peft: tuple[Literal["lora", "qlora"], ...] = ("lora", "qlora")
        # the method alone changes: a full fine-tune that needed checkpointing keeps it, or its LoRA is sized
        # without it and looks 2.4× bigger than the LoRA a pick beside it shows (67.8 GiB against 28)
        kept = now.chosen.get("gradient_checkpointing") if w.gradient_checkpointing is None else None
        for task in peft:
            alt = replace(w, task=task, quant=None, gradient_checkpointing=kept if isinstance(kept, bool) else None)
            m = need(alt, gpu, count)
            if m is not None:
                out.append(Suggestion(kind=task, task=task, memory_per_gpu_gib=m))
                break
        else:
            out += _peft_at_smaller_batch(w, peft, gpu, count, need)
        if w.offload == "none" and not gpu.unified_memory:
            # ZeRO-Offload, then parameters too: cards stay, host RAM and PCIe time pay instead.
            for offload in ("optimizer", "all") if training_fact(w).cpu_offload == "optimizer" else ("all",):
                ok, est = fits_on(with_offload(w, offload), gpu, count)
                if ok:
                    out.append(Suggestion(kind="offload-all" if offload == "all" else "offload-optimizer",
                                          memory_per_gpu_gib=round(needed_gib(est), 2),
                                          host_ram_gib=est.host_ram_gib))
                    break
    if (w.task in ("lora", "qlora") and w.offload == "none" and not gpu.unified_memory
            and profile_for(w).multi_gpu.mode != "data-parallel"):
        # The frozen base in host RAM, a layer gathered at a time: how FSDP+QLoRA trains a 70B on two 24 GB
        # cards (Answer.AI's fsdp_qlora, PEFT's fsdp_offload_params); DeepSpeed's ZeRO-3 offload_param likewise.
        ok, est = fits_on(with_offload(w, "all"), gpu, count)
        if ok:
            out.append(Suggestion(kind="offload-all", memory_per_gpu_gib=round(needed_gib(est), 2),
                                  host_ram_gib=est.host_ram_gib))
    if w.task == "lora":
        alt = replace(w, task="qlora", quant=None)
        m = need(alt, gpu, count)
        if m is not None:
            out.append(Suggestion(kind="qlora", task="qlora", memory_per_gpu_gib=m))
        else:
            at_batch = _peft_at_smaller_batch(w, ("qlora",), gpu, count, need)
            out += at_batch or _qlora_at_shorter_samples(alt, gpu, count, need)
    if not valid_tp(w, count):
        # A count the engine cannot split the model over (3 cards for 32 heads): the most of them it can; for an
        # engine that splits by layers (past MAX_PICK_GPUS), the fewest that hold it, as more add no speed
        layered = profile_for(w).multi_gpu.mode != "tensor-parallel"
        degrees = sorted((n for n in C.TP_DEGREES if n < count and valid_tp(w, n)), reverse=not layered)
        for n in degrees:
            m = need(w, gpu, n)
            if m is not None:
                out.append(Suggestion(kind="more-gpus", gpu_id=gpu.id, count=n, memory_per_gpu_gib=m))
                break
    # an engine that splits by layers takes any count (3 RTX 3060s for Gemma 3 12B, as the picks list it: audit 37
    # LOW-208 had "4 cards" here beside a 3-card pick); tensor parallelism takes its degrees
    layer_split = w.task == "inference" and profile_for(w).multi_gpu.mode != "tensor-parallel"
    one_machine = tuple(range(2, 9)) + tuple(n for n in C.TP_DEGREES if n > 8)  # any count within 8 cards
    more_counts = (one_machine if layer_split else C.TP_DEGREES) + (
        C.BEYOND_TRAINING_GPUS if w.task != "inference" else ())
    for n in more_counts if gpu.recommended and not activation_bound else ():
        if n > count and valid_tp(w, n) and within_one_machine(gpu, n):
            m = need(w, gpu, n)
            if m is not None:
                out.append(Suggestion(kind="more-gpus", gpu_id=gpu.id, count=n, memory_per_gpu_gib=m))
                break
    bigger = sorted((g for g in candidates if g.recommended and g.memory_gb > gpu.memory_gb
                     and unsupported_format(w, g) is None),
                    key=lambda g: (slow_tensor_cores(g), price_proxy(g), g.id))
    for g in bigger:
        m = need(w, g, count)
        if m is not None:
            out.append(Suggestion(kind="bigger-gpu", gpu_id=g.id, count=count, memory_per_gpu_gib=m))
            break
    if w.batch > 1:
        largest = largest_fitting(w.batch, lambda b: need(replace(w, batch=b), gpu, count))
        if largest is not None:
            out.append(Suggestion(kind="smaller-batch", batch=largest[0], memory_per_gpu_gib=largest[1]))
    if is_transformer(w.model) and w.context > 1024:
        def shorter(ctx: int) -> float | None:
            gen = None if w.gen_tokens is None else min(w.gen_tokens, ctx)
            return need(replace(w, context=ctx, gen_tokens=gen), gpu, count)

        # not below the request's images: a context shorter than one image cannot hold the request (audit 28
        # LOW-89: "上下文缩短到 1,697" for a 2,693-position image)
        cut = halving(w.context, max(512, w.min_context + 256), shorter)
        native = w.model.max_context
        if cut is not None and native and cut[0] > native and w.context > native:
            # beyond the model's window a shorter context is still RoPE-scaled: offer the window itself, which
            # fits since a longer context did
            fits_native = shorter(native)
            cut = (native, fits_native) if fits_native is not None else cut
        if cut is not None:
            out.append(Suggestion(kind="shorter-context", context=cut[0], memory_per_gpu_gib=cut[1]))
    return _same_cards_first(out)


QLORA_SHORTEST_SAMPLES = 1024
"""The shortest samples a QLoRA is offered at when the asked length does not fit: below it few fine-tuning sets fit."""


def _qlora_at_shorter_samples(alt: Workload, gpu: GPU, count: int,
                              need: Callable[[Workload, GPU, int], float | None]) -> list[Suggestion]:
    """QLoRA at the longest halved sample length that fits, when it does not at the length asked (audit 37
    LOW-209: a LoRA of Llama 3.1 8B on a T4 was offered four T4s or offload, where a QLoRA of 2k samples fits the
    one card, as Colab's T4 recipes run it)."""
    length = alt.context // 2
    while length >= QLORA_SHORTEST_SAMPLES:
        m = need(replace(alt, context=length), gpu, count)
        if m is not None:
            return [Suggestion(kind="qlora", task="qlora", context=length, memory_per_gpu_gib=m)]
        length //= 2
    return []


def _peft_at_smaller_batch(w: Workload, tasks: Sequence[Literal["lora", "qlora"]], gpu: GPU, count: int,
                           need: Callable[..., float | None]) -> list[Suggestion]:
    """A LoRA or QLoRA that fits only at a smaller micro batch (gradient accumulation keeps the global batch):
    two ordinary changes together, where either alone does not fit the cards asked about (audit 30 M-69: a
    Gemma-2-9B LoRA at batch 4 on a 4090 was offered a bigger card only)."""
    for task in tasks:
        for batch in range(w.batch - 1, 0, -1):
            m = need(replace(w, task=task, quant=None, batch=batch), gpu, count)
            if m is not None:
                return [Suggestion(kind=task, task=task, batch=batch, memory_per_gpu_gib=m)]
    return []


PIPELINE_ENGINES = ("vllm", "sglang")
"""Tensor-parallel engines that also run pipeline stages over a count the heads do not divide (vLLM's
--pipeline-parallel-size, "supports uneven splits": docs.vllm.ai serving/distributed_serving; SGLang's --pp-size)."""

KEEPS_THE_CARDS = frozenset({"pipeline-parallel", "one-card-replicas",
                             "quantise", "kv-cache", "flash-attention", "newer-engine", "optimizer-8bit",
                             "checkpointing", "zero3", "offload-optimizer", "lora", "qlora", "bf16", "dp-attention",
                             "other-format", "fp8-base", "adafactor-fused", "cache-text-encoders"})
"""Changes that keep the cards asked about and their speed: offered before a quantisation that needs more cards."""


def _same_cards_first(out: list[Suggestion]) -> list[Suggestion]:
    """A quantisation that fits only on more of the cards moves after the changes that fit the cards asked about
    as they are ("num_ctx 65536 on one 16 GB card": an INT8 KV cache fits it; a Q3_K_M on two cards was offered
    first, audit 20 LOW-6); it stays ahead of offloading and of more or bigger cards."""
    wider = next((s for s in out if s.kind == "quantise" and s.count is not None), None)
    if wider is None:
        return out
    rest = [s for s in out if s is not wider]
    at = next((i for i, s in enumerate(rest) if s.kind not in KEEPS_THE_CARDS
               or s.count is not None or s.gpu_id is not None), len(rest))
    return [*rest[:at], wider, *rest[at:]]


SAME_BITS_FORMATS: dict[str, tuple[tuple[Precision, str], ...]] = {
    "awq": (("int4", "gptq"),),
    "nvfp4": (("int4", "awq"), ("int4", "gptq")),
}
"""Formats of the same bits whose kernels run on older cards (knowledge/data/engines.yaml min_capability: vLLM's
AWQ needs 7.5, GPTQ 6.0; NVFP4 needs Blackwell), offered when the one asked for cannot run on the card."""

OFFICIAL_QUANT_NAMES = {"awq": "awq-int4", "gptq": "gptq-int4", "gptq-int8": "gptq-int8", "fp8": "fp8"}
"""A quant format's name in Model.official_quants (GGUF types all count as "gguf")."""


def released_by_makers(model: Model, quant: str) -> bool:
    """Whether the model's makers publish weights in `quant` (Model.official_quants)."""
    name = "gguf" if quant.startswith("gguf-") else OFFICIAL_QUANT_NAMES.get(quant, quant)
    return name in model.official_quants


def halving(start: int, floor: int, need: Callable[[int], float | None]) -> tuple[int, float] | None:
    """The largest of start/2, start/4, … (not below `floor`) at which `need` gives a figure, with it: the
    gentlest cut of a batch, a context or a request cap that fits."""
    value = start // 2
    while value >= floor:
        figure = need(value)
        if figure is not None:
            return value, figure
        value //= 2
    return None


def largest_fitting(start: int, need: Callable[[int], float | None]) -> tuple[int, float] | None:
    """The largest count below `start` at which `need` gives a figure: halved until one fits, then searched
    between it and the last that did not. A batch is cut to what the cards hold (28 of 32 sequences), not to half
    the users."""
    found = halving(start, 1, need)
    if found is None:
        return None
    low = found[0]
    high = start if low == start // 2 else low * 2  # the last halving that did not fit
    best = found
    while high - low > 1:
        mid = (low + high) // 2
        figure = need(mid)
        if figure is None:
            high = mid
        else:
            low, best = mid, (mid, figure)
    return best


HOME_GGUF_QUANT = "gguf-q4_k_m"
"""The GGUF a GeForce owner downloads first (llama.cpp's and Ollama's default quantisation)."""


def home_gguf_workload(w: Workload) -> Workload:
    """`w` as people run a model too big for their card at home: a Q4_K_M GGUF on llama.cpp, flash attention on."""
    return replace(w, engine="llama.cpp", precision="int4", quant=HOME_GGUF_QUANT, flash_attention=True)


def home_gguf(w: Workload, gpu: GPU, count: int,
              need: Callable[[Workload, GPU, int], float | None]) -> list[Suggestion]:
    """How a model too big for a GeForce card is run at home: a Q4_K_M GGUF on llama.cpp or Ollama, whole on the
    cards if it fits, else with part of it in system RAM. Offered for a transformers job (the default, or asked)
    on a consumer card, where the quantisations the job's own engine takes do not cover it."""
    if w.engine != "transformers" or gpu.form != "consumer" or w.model.arch != "decoder" or not is_transformer(
            w.model):
        return []
    gguf = home_gguf_workload(w)
    m = need(gguf, gpu, count)
    if m is not None:
        return [Suggestion(kind="quantise", precision="int4", quant=HOME_GGUF_QUANT, engine="llama.cpp",
                           memory_per_gpu_gib=m)]
    return [replace(s, engine="llama.cpp", quant=HOME_GGUF_QUANT) for s in host_offload(gguf, gpu, count)]


def host_offload(w: Workload, gpu: GPU, count: int) -> list[Suggestion]:
    """What llama.cpp and Ollama do with a model the cards cannot hold. An MoE can keep the routed experts of
    its first blocks in system RAM (llama.cpp --n-cpu-moe N, the fewest blocks that fit, or more than the
    question's own N): a token then reads only the experts it is routed to from RAM. Any model can keep its
    first layers there (-ngl, Ollama's num_gpu: the most layer slots that fit; Ollama does it by itself).
    Each clear of the tight band, found by halving (the need grows with what the cards hold)."""
    layers = w.model.num_layers or 0
    if (not layers or not profile_for(w).multi_gpu.host_offload_layers or w.gpu_layers is not None
            or gpu.unified_memory):
        return []  # a Mac's "host RAM" is the memory its GPU already shares

    def clear(alt: Workload) -> tuple[bool, MemoryEstimate]:
        ok, est = fits_on(alt, gpu, count)
        return ok and needed_gib(est) <= limit_gib(w, gpu) * (1.0 - C.TIGHT_FRACTION), est

    def offered(kind: Literal["cpu-experts", "cpu-layers"], alt: Workload) -> Suggestion:
        est = clear(alt)[1]
        return Suggestion(kind=kind, count=count, gpu_layers=alt.gpu_layers, cpu_moe_layers=alt.cpu_moe_layers,
                          memory_per_gpu_gib=round(needed_gib(est), 2), host_ram_gib=est.host_ram_gib)

    out = []
    stated = min(w.cpu_moe_layers or 0, layers)
    if w.model.is_moe and stated < layers:
        fewest = smallest_true(lambda n: clear(replace(w, cpu_moe_layers=n))[0], stated + 1, layers)
        if fewest is not None:
            out.append(offered("cpu-experts", replace(w, cpu_moe_layers=fewest)))
    if w.cpu_moe_layers is None:
        most = largest_true(lambda n: clear(replace(w, gpu_layers=n))[0], 1, layers)
        if most > 0:
            out.append(offered("cpu-layers", replace(w, gpu_layers=most)))
    return out
