"""Does a workload fit a card (with headroom)? If not, what would; and which cards to recommend, best first.

Fit rule (one, stated): a job fits when its per-card need (vLLM: the memory it needs, not the 90% it
reserves) is no more than what the engine can use on that card: visible memory − CUDA context, or the
engine's reservation for vLLM/SGLang (`limit_gib`). Within TIGHT_FRACTION of that limit, either side, it is
"tight". HEADROOM_FRACTION is the margin the reply recommends, not a second limit. Several cards are never
pooled without a parallel scheme: tensor-parallel engines need the heads divisible by the degree inside a
node of GPUS_PER_NODE and add nodes by pipeline parallelism; transformers and llama.cpp split layers
(any count); training shards by ZeRO/FSDP.

Ranking (rank_picks): for every recommended GPU, the smallest count that fits (inference: 1, 2, 4, 8;
training: 1, 2, 4, … up to max_count). Cost is the hourly price from the caller's dated price rows
(`hourly_price_of`); a card without one is placed by a relative proxy (hardware.price_proxy: bandwidth GB/s
+ 5 × memory GB + 2 × fp16 TFLOPS, which orders cards as on-demand prices do: T4 < A10 < V100 < A100 < H100)
scaled to the priced cards.
* inference: lowest cost per generated token first (cost × n / tp_scaling(n), divided by the decode
  tokens/s): a tensor-parallel set delivers less than n cards' speed (TP_EFFICIENCY with NVLink,
  TP_EFFICIENCY_PCIE without), and a card twice as fast for 1.5× the price serves more for less.
  score = 1000 / cost.
* training: lowest cost per trained token first (cost / training tokens/s: a job costs price × hours).
  score = tokens/s per unit of cost.
* budget=True: cheapest configuration first for every task (speed breaks ties).
Cards without usable tensor cores (MIN_FP16_TENSOR_TFLOPS) and configurations decoding below
MIN_DECODE_TOKENS_PER_S rank after all others.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from typing import Literal

from knowledge.schema import GPU, InstanceFamily
from rules import constants as C
from rules.engine_profile import engine_limit_gib, profile_for, reserves_up_front
from rules.hardware import (
    dense_tflops,
    hourly_price,
    instance_for,
    price_proxy,
    runs_precision,
    tp_scaling,
    usable_gib,
)
from rules.memory import estimate_memory, first_fitting, is_transformer, training_options
from rules.memory_inference import activations_outside_share, parallel_layout
from rules.precision import normalise_quant, weight_bytes
from rules.speed import estimate_speed
from rules.types import FitCheck, MemoryEstimate, Pick, Precision, Suggestion, Workload


def valid_tp(workload: Workload, count: int) -> bool:
    """Can `count` cards run this workload the way its engine splits it?

    Tensor-parallel engines: the degree inside a node must divide the attention heads, and the KV heads must
    divide by it (or it by them: vLLM replicates KV heads); beyond a node, whole nodes. Layer-split engines
    (transformers `device_map`, llama.cpp): any count. A generic model's heads are not known: no test.
    Training: any count (ZeRO/FSDP)."""
    if count == 1 or workload.task != "inference":
        return True
    model = workload.model
    if not is_transformer(model):
        return False  # CNN/diffusion inference is not split across cards (run replicas instead)
    if profile_for(workload).multi_gpu.mode != "tensor-parallel":
        return count <= C.MAX_PICK_GPUS
    tp, pp = parallel_layout(count)
    if tp * pp != count:
        return False
    if model.family == "generic" or not model.num_attention_heads:
        return True
    heads = model.num_attention_heads
    kv = model.num_kv_heads or heads
    if heads % tp:
        return False
    return kv % tp == 0 if kv >= tp else tp % kv == 0


def needed_gib(est: MemoryEstimate) -> float:
    return est.required_per_gpu_gib if est.required_per_gpu_gib is not None else est.per_gpu_gib


def reserves_share_of_card(workload: Workload) -> bool:
    """vLLM/SGLang-style engines: a fixed share of the card (its complement is their headroom)."""
    return (workload.task == "inference" and is_transformer(workload.model)
            and profile_for(workload).reservation.kind == "fraction_of_total")


def limit_gib(workload: Workload, gpu: GPU) -> float:
    """The most a job may need per card on its engine: the engine's reservation (vLLM, SGLang), else the
    visible memory less the CUDA context."""
    if reserves_share_of_card(workload):
        # SGLang keeps activations outside its share: the job may need the share plus them, within the card.
        share = engine_limit_gib(workload, gpu)
        outside = activations_outside_share(workload, gpu) / C.GIB
        return min(share + outside, usable_gib(gpu)) if outside else share
    return usable_gib(gpu)


def is_tight(need: float, limit: float) -> bool:
    """Within TIGHT_FRACTION of the limit, either side: a few percent of allocator churn decides it."""
    return limit > 0 and abs(need - limit) <= C.TIGHT_FRACTION * limit


def comfortable(need: float, limit: float) -> bool:
    """Fits and leaves the recommended margin free."""
    return need <= limit * (1 - C.HEADROOM_FRACTION)


def free_gib(workload: Workload, gpu: GPU) -> float:
    """Memory a job may use before the card is full: the engine's reservation, else the usable memory."""
    if reserves_share_of_card(workload):
        return limit_gib(workload, gpu)
    return usable_gib(gpu)


def _fits(workload: Workload, gpu: GPU, count: int) -> tuple[bool, MemoryEstimate]:
    est = estimate_memory(workload, count, gpu)
    ok = valid_tp(workload, count) and needed_gib(est) <= limit_gib(workload, gpu)
    return ok, est


def _fit_memo(workload: Workload) -> Callable[[GPU, int], tuple[bool, MemoryEstimate]]:
    """`_fits` for one workload over many cards, computing each distinct estimate once.

    The estimate depends on the card only through vLLM's reservation (the card itself) and, for training,
    through the ZeRO stage chosen to fit (the card's usable memory); ranking 40 cards × 10 counts
    otherwise repeats the same arithmetic hundreds of times per answer.
    """
    cache: dict[tuple[object, ...], MemoryEstimate] = {}
    training_cache: dict[int, list[MemoryEstimate]] = {}
    staged_training = workload.task != "inference" and is_transformer(workload.model) and \
        workload.model.arch != "encoder"

    def fits(gpu: GPU, count: int) -> tuple[bool, MemoryEstimate]:
        if staged_training:
            options = training_cache.get(count)
            if options is None:
                options = training_cache[count] = training_options(workload, count)
            est = first_fitting(options, gpu)
        else:
            key: tuple[object, ...] = (count,)
            if workload.task != "inference":
                key = (count, round(usable_gib(gpu), 6))
            elif reserves_up_front(workload):
                key = (count, gpu.id)
            cached = cache.get(key)
            est = cached if cached is not None else cache.setdefault(key, estimate_memory(workload, count, gpu))
        ok = valid_tp(workload, count) and needed_gib(est) <= limit_gib(workload, gpu)
        return ok, est

    return fits


def _weights_bytes(w: Workload) -> float:
    return weight_bytes(w.model, w.precision, normalise_quant(w.quant, w.precision, w.engine))[0]


def _suggestions(w: Workload, gpu: GPU, count: int, candidates: Sequence[GPU]) -> list[Suggestion]:
    out: list[Suggestion] = []

    def need(wl: Workload, g: GPU, n: int) -> float | None:
        if not runs_precision(g, wl.precision, wl.engine):
            return None
        ok, est = _fits(wl, g, n)
        return round(needed_gib(est), 2) if ok else None

    if w.task == "inference":
        formats: list[tuple[Precision, str]] = (
            [("int8", "gguf-q8_0"), ("int4", "gguf-q4_k_m")] if w.engine == "llama.cpp"
            else [("int8", "gptq-int8"), ("int4", "awq")])
        # Only formats whose weights are smaller than the job's: from Q4_K_M or Q2_K, INT8 is no way to fit.
        current = _weights_bytes(w)
        smaller = [(p, q) for p, q in formats if _weights_bytes(replace(w, precision=p, quant=q)) < current]
        # On these cards first; failing that, the fewest more of them the quantised weights fit on (70B at
        # 4 bits on 2× 24 GB: what people run a 70B on at home).
        for n in [count, *(n for n in C.TP_DEGREES if n > count and gpu.recommended)]:
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
        if w.kv_cache is None and is_transformer(w.model):
            # The engine's smaller KV-cache types, largest first: long contexts are mostly cache.
            accepted = profile_for(w).kv_cache.bytes_per_element
            for kv in sorted((k for k, b in accepted.items() if b < 2.0), key=lambda k: -accepted[k]):
                m = need(replace(w, kv_cache=kv), gpu, count)
                if m is not None:
                    out.append(Suggestion(kind="kv-cache", kv_cache=kv, memory_per_gpu_gib=m))
                    break
    if w.task == "train":
        peft: tuple[Literal["lora", "qlora"], ...] = ("lora", "qlora")
        for task in peft:
            alt = replace(w, task=task, quant=None)
            m = need(alt, gpu, count)
            if m is not None:
                out.append(Suggestion(kind=task, task=task, memory_per_gpu_gib=m))
                break
        if w.offload == "none":
            # ZeRO-Offload, then parameters too: cards stay, host RAM and PCIe time pay instead.
            for offload in ("optimizer", "all"):
                ok, est = _fits(replace(w, offload=offload), gpu, count)
                if ok:
                    out.append(Suggestion(kind="offload-all" if offload == "all" else "offload-optimizer",
                                          memory_per_gpu_gib=round(needed_gib(est), 2),
                                          host_ram_gib=est.host_ram_gib))
                    break
        if w.gradient_checkpointing is False:
            alt = replace(w, gradient_checkpointing=True)
            m = need(alt, gpu, count)
            if m is not None:
                out.append(Suggestion(kind="checkpointing", memory_per_gpu_gib=m))
    if w.task == "lora":
        alt = replace(w, task="qlora", quant=None)
        m = need(alt, gpu, count)
        if m is not None:
            out.append(Suggestion(kind="qlora", task="qlora", memory_per_gpu_gib=m))
    if w.task != "inference" and count > 1 and w.zero_stage is not None and w.zero_stage < 3:
        alt = replace(w, zero_stage=3)
        m = need(alt, gpu, count)
        if m is not None:
            out.append(Suggestion(kind="zero3", count=count, memory_per_gpu_gib=m))
    # More of a card that should not be used for ML at all is no advice (8 Quadro P2200s for a 7B model).
    for n in C.TP_DEGREES if gpu.recommended else ():
        if n > count and valid_tp(w, n):
            m = need(w, gpu, n)
            if m is not None:
                out.append(Suggestion(kind="more-gpus", gpu_id=gpu.id, count=n, memory_per_gpu_gib=m))
                break
    bigger = sorted((g for g in candidates if g.recommended and g.memory_gb > gpu.memory_gb
                     and runs_precision(g, w.precision, w.engine)),
                    key=lambda g: (dense_tflops(g, "fp16") < C.MIN_FP16_TENSOR_TFLOPS, price_proxy(g), g.id))
    for g in bigger:
        m = need(w, g, count)
        if m is not None:
            out.append(Suggestion(kind="bigger-gpu", gpu_id=g.id, count=count, memory_per_gpu_gib=m))
            break
    if w.batch > 1:
        b = w.batch // 2
        while b >= 1:
            m = need(replace(w, batch=b), gpu, count)
            if m is not None:
                out.append(Suggestion(kind="smaller-batch", batch=b, memory_per_gpu_gib=m))
                break
            b //= 2
    if is_transformer(w.model) and w.context > 1024:
        ctx = w.context // 2
        while ctx >= 512:
            gen = None if w.gen_tokens is None else min(w.gen_tokens, ctx)
            m = need(replace(w, context=ctx, gen_tokens=gen), gpu, count)
            if m is not None:
                out.append(Suggestion(kind="shorter-context", context=ctx, memory_per_gpu_gib=m))
                break
            ctx //= 2
    return out


def check_fit(workload: Workload, gpu: GPU, count: int, instances: Sequence[InstanceFamily] = (), *,
              candidates: Iterable[GPU] | None = None) -> FitCheck:
    """Does `workload` fit `count` × `gpu` with headroom? If not, alternatives that do, with their numbers.

    `candidates` are the cards a "bigger-gpu" suggestion may name (default: the knowledge base's GPUs).
    """
    ok, est = _fits(workload, gpu, count)
    need = needed_gib(est)
    limit = limit_gib(workload, gpu)
    unsupported = None if runs_precision(gpu, workload.precision, workload.engine) else workload.precision
    ok = ok and unsupported is None
    suggestions: list[Suggestion] = []
    if not ok or is_tight(need, limit):
        if candidates is None:
            from knowledge.loader import default_knowledge

            candidates = list(default_knowledge().gpus.values())
        suggestions = _suggestions(workload, gpu, count, list(candidates))
    return FitCheck(gpu_id=gpu.id, count=count, fits=ok, headroom_gib=round(limit - need, 2),
                    memory_per_gpu_gib=round(need, 2), gpu_memory_gib=gpu.memory_gb, suggestions=suggestions,
                    free_gib=round(free_gib(workload, gpu) - need, 2), limit_gib=round(limit, 2),
                    tight=unsupported is None and valid_tp(workload, count) and is_tight(need, limit),
                    unsupported_precision=unsupported)


def _pick(w: Workload, gpu: GPU, count: int, fits: bool, est: MemoryEstimate,
          instances: Sequence[InstanceFamily]) -> Pick:
    need = needed_gib(est)
    # Training picks carry no decode speed; their ranking computes the training rate once, where it is used.
    decode = estimate_speed(w, gpu, count).decode_tokens_per_s if w.task == "inference" else None
    price, currency = hourly_price(gpu, count, instances)
    instance, _, _ = instance_for(gpu, count, instances)
    seqs = est.chosen.get("max_concurrent_sequences")
    limit = limit_gib(w, gpu)
    return Pick(gpu_id=gpu.id, count=count, fits=fits, memory_per_gpu_gib=round(need, 2),
                headroom_gib=round(limit - need, 2), limit_gib=round(limit, 2), tight=is_tight(need, limit),
                decode_tokens_per_s=decode,
                price_per_hour=price, price_currency=currency, instance=instance,
                max_concurrent_sequences=seqs if isinstance(seqs, int) else None,
                free_gib=round(free_gib(w, gpu) - need, 2))


def pick_cost(pick: Pick, gpu: GPU, use_price: bool = True) -> float:
    """An hour of the configuration: its price when known (and `use_price`), else the capability proxy
    (hardware.price_proxy) × cards, which orders cards as on-demand prices do."""
    if use_price and pick.price_per_hour is not None:
        return pick.price_per_hour
    return price_proxy(gpu) * pick.count


def placeable(gpu: GPU, count: int, hourly_price_of: HourlyPrice | None = None) -> bool:
    """Whether `count` of this card can be had: a whole number of the units it comes in (`gpus_per_node`: a
    GB200 superchip holds 2), unless a priced instance rents it in smaller slices (single B200 VMs exist
    although HGX boards hold 8)."""
    unit = gpu.gpus_per_node or 1
    if count % unit == 0 or hourly_price_of is None:  # no price rows to consult: nothing to go on
        return True
    return hourly_price_of(gpu, count) is not None


HourlyPrice = Callable[[GPU, int], float | None]
"""The hourly price of `count` × a card in one currency (the caller's dated price rows), or None: a gap."""


def _costs(pool: Sequence[tuple[Pick, GPU]], hourly_price_of: HourlyPrice | None) -> list[float]:
    """An hour of each configuration on one scale. With `hourly_price_of`, a priced configuration costs its
    price and an unpriced one its capability proxy times the median price-per-proxy of the priced ones (only
    to order it among them: the reply never shows it as a price). Without, the old rule: the rules' own
    prices when every candidate has one in the same currency, else the proxy."""
    if hourly_price_of is None:
        currencies = {p.price_currency for p, _ in pool}
        use_price = len(currencies) == 1 and None not in currencies
        return [pick_cost(p, g, use_price) for p, g in pool]
    prices = [hourly_price_of(g, p.count) for p, g in pool]
    ratios = sorted(price / pick_cost(p, g, False) for (p, g), price in zip(pool, prices, strict=True) if price)
    scale = ratios[len(ratios) // 2] if ratios else 1.0
    return [price if price else scale * pick_cost(p, g, False) for (p, g), price in zip(pool, prices, strict=True)]


def rank_picks(workload: Workload, gpus: Iterable[GPU], instances: Sequence[InstanceFamily] = (), *,
               limit: int = 5, budget: bool = False, max_count: int = 8,
               fixed_count: int | None = None, hourly_price_of: HourlyPrice | None = None) -> list[Pick]:
    """Recommended GPUs for `workload`, best first (see the module docstring for the order).

    `hourly_price_of` puts the caller's dated prices into the order: without it, cards are costed by
    the capability proxy whenever their prices are incomplete or in two currencies."""
    fitting: list[tuple[Pick, GPU]] = []
    failing: list[tuple[Pick, GPU]] = []
    fits = _fit_memo(workload)
    degrees = C.TP_DEGREES if workload.task == "inference" else C.TRAIN_GPU_COUNTS
    counts = [fixed_count] if fixed_count else [n for n in degrees if n <= max_count]
    for gpu in gpus:
        if not gpu.recommended or not runs_precision(gpu, workload.precision, workload.engine):
            continue
        last: tuple[int, MemoryEstimate] | None = None
        for n in counts:
            if not valid_tp(workload, n) or not placeable(gpu, n, hourly_price_of):
                continue
            ok, est = fits(gpu, n)
            last = (n, est)
            if ok:
                fitting.append((_pick(workload, gpu, n, True, est, instances), gpu))
                break
        else:
            if last is not None:
                failing.append((_pick(workload, gpu, last[0], False, last[1], instances), gpu))
    pool = fitting or failing
    if not pool:
        return []
    scored: list[tuple[tuple[float, ...], Pick]] = []
    for (p, g), c in zip(pool, _costs(pool, hourly_price_of), strict=True):
        if workload.task != "inference" and not budget:
            tps = estimate_speed(workload, g, p.count).train_tokens_per_s or 1.0
            key: tuple[float, ...] = (c / tps, c)
            score = tps / c
        else:
            # A tensor-parallel set delivers tp_scaling(n) cards' worth of speed for n cards' price.
            c_eff = c * p.count / tp_scaling(g, p.count)
            if budget:
                key = (c_eff, -(p.decode_tokens_per_s or 0.0), p.count)
            else:
                # Cost per generated token: a card twice as fast for 1.5× the price serves more for less.
                key = (c_eff / max(p.decode_tokens_per_s or 0.0, C.MIN_DECODE_TOKENS_PER_S), c_eff, p.count)
            score = 1000.0 / c_eff
        slow = (dense_tflops(g, "fp16") < C.MIN_FP16_TENSOR_TFLOPS or (
            p.decode_tokens_per_s is not None and p.decode_tokens_per_s < C.MIN_DECODE_TOKENS_PER_S))
        # Sized to the job: a job using a small share of a card gains nothing from the card's size or
        # speed (a 66M-parameter fine-tune, a 1B chat model), so such picks rank after right-sized ones,
        # and among themselves by what they cost an hour.
        # A budget question accepts a snug fit (the reply says so); only a tight one ranks later.
        oversized = p.fits and p.memory_per_gpu_gib < C.SMALL_JOB_SHARE * p.limit_gib
        uneasy = p.tight if budget else not comfortable(p.memory_per_gpu_gib, p.limit_gib)
        key = (float(slow), float(uneasy), float(oversized), c if oversized else 0.0, *key)
        if not p.fits:
            key = (p.memory_per_gpu_gib - limit_gib(workload, g), *key)  # closest to fitting first
        scored.append((key, replace(p, score=round(score, 4))))
    scored.sort(key=lambda kp: (kp[0], kp[1].gpu_id))
    return [p for _, p in scored[:limit]]


def pick_at(workload: Workload, gpu: GPU, count: int, instances: Sequence[InstanceFamily] = (), *,
            hourly_price_of: HourlyPrice | None = None) -> Pick | None:
    """`count` × `gpu` as a pick, when that many cards can hold the job (and the count is placeable)."""
    found = rank_picks(workload, [gpu], instances, limit=1, max_count=count, fixed_count=count,
                       hourly_price_of=hourly_price_of)
    return found[0] if found and found[0].fits else None
