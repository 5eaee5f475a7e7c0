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
MIN_DECODE_TOKENS_PER_S rank after all others. Before cost: picks that hold the job with room, then rented
(datacenter) cards with a dated price before those without one, then GeForce cards by how many a box needs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace

from knowledge.schema import GPU, InstanceFamily
from rules import constants as C
from rules.alternatives import suggestions as alternatives
from rules.engine_profile import profile_for, reserves_up_front
from rules.hardware import (
    hourly_price,
    instance_for,
    machines,
    price_proxy,
    slow_tensor_cores,
    tp_scaling,
    usable_gib,
)
from rules.limits import (
    comfortable,
    fits_estimate,
    fits_on,
    free_gib,
    is_tight,
    kv_pool_short,
    limit_gib,
    needed_gib,
    reserves_share_of_card,
    unsupported_format,
    valid_tp,
    within_one_machine,
)
from rules.memory import estimate_memory, first_fitting, is_transformer, training_options
from rules.speed import estimate_speed
from rules.types import FitCheck, MemoryEstimate, Pick, Suggestion, Workload

__all__ = ["check_fit", "comfortable", "free_gib", "is_tight", "limit_gib", "needed_gib", "pick_at", "pick_cost",
           "placeable", "rank_picks", "reserves_share_of_card", "valid_tp"]


def _fit_memo(workload: Workload) -> Callable[[GPU, int], tuple[bool, MemoryEstimate]]:
    """`fits_on` for one workload over many cards, computing each distinct estimate once.

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
        return fits_estimate(workload, gpu, count, est), est

    return fits


def check_fit(workload: Workload, gpu: GPU, count: int, instances: Sequence[InstanceFamily] = (), *,
              candidates: Iterable[GPU] | None = None) -> FitCheck:
    """Does `workload` fit `count` × `gpu` with headroom? If not, alternatives that do, with their numbers.

    `candidates` are the cards a "bigger-gpu" suggestion may name (default: the knowledge base's GPUs).
    """
    ok, est = fits_on(workload, gpu, count)
    need = needed_gib(est)
    limit = limit_gib(workload, gpu)
    pool_short = kv_pool_short(est) and need <= limit and valid_tp(workload, count)
    held, pool = est.chosen.get("max_concurrent_sequences"), est.chosen.get("kv_pool_gib")
    unsupported = unsupported_format(workload, gpu)
    ok = ok and unsupported is None
    suggestions: list[Suggestion] = []
    if not ok or is_tight(need, limit):
        if candidates is None:
            from knowledge.loader import default_knowledge

            candidates = list(default_knowledge().gpus.values())
        suggestions = alternatives(workload, gpu, count, list(candidates))
    return FitCheck(gpu_id=gpu.id, count=count, fits=ok, headroom_gib=round(limit - need, 2),
                    memory_per_gpu_gib=round(need, 2), gpu_memory_gib=gpu.memory_gb, suggestions=suggestions,
                    free_gib=round(free_gib(workload, gpu) - need, 2), limit_gib=round(limit, 2),
                    tight=unsupported is None and valid_tp(workload, count) and is_tight(need, limit),
                    unsupported_precision=unsupported, split_invalid=not valid_tp(workload, count),
                    kv_pool_gib=float(pool) if pool_short and isinstance(pool, (int, float)) else None,
                    sequences_held=held if pool_short and isinstance(held, int) else None)


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


def _costs(pool: Sequence[tuple[Pick, GPU]], prices: Sequence[float | None] | None) -> list[float]:
    """An hour of each configuration on one scale. With the caller's `prices` (one per configuration, None where
    no dated row has one), a priced configuration costs its price and an unpriced one its capability proxy times
    the median price-per-proxy of the priced ones (only to order it among them: the reply never shows it as a
    price). Without, the old rule: the rules' own prices when every candidate has one in the same currency, else
    the proxy."""
    if prices is None:
        currencies = {p.price_currency for p, _ in pool}
        use_price = len(currencies) == 1 and None not in currencies
        return [pick_cost(p, g, use_price) for p, g in pool]
    ratios = sorted(price / pick_cost(p, g, False) for (p, g), price in zip(pool, prices, strict=True) if price)
    scale = ratios[len(ratios) // 2] if ratios else 1.0
    return [price if price else scale * pick_cost(p, g, False) for (p, g), price in zip(pool, prices, strict=True)]


def _rented_unpriced(pool: Sequence[tuple[Pick, GPU]], prices: Sequence[float | None] | None) -> list[bool]:
    """Which configurations are datacenter cards no dated row prices, when others in the pool have a price.
    Such a card is rented, not bought, so its missing price is a gap in what can be checked rather than a
    card one owns: its place by the capability proxy is a guess (a rack-scale GB200 led a 13B fine-tune
    whose priced alternatives were a B200 or H200 set), so it follows the priced ones of the same ease.
    GeForce and workstation cards are bought: none has a rental price, and they keep their proxy order."""
    if prices is None:
        return [False] * len(pool)
    flags = [g.form == "datacenter" and price is None for (_, g), price in zip(pool, prices, strict=True)]
    priced = any(g.form == "datacenter" and not flag for (p, g), flag in zip(pool, flags, strict=True))
    return flags if priced else [False] * len(pool)


def as_chosen(workload: Workload, chosen: Mapping[str, object]) -> Workload:
    """The workload with the set-up the memory rules chose (ZeRO stage, gradient checkpointing), so the speed
    and time describe the configuration the reply sized."""
    ckpt, stage = chosen.get("gradient_checkpointing"), chosen.get("zero_stage")
    return replace(workload, gradient_checkpointing=ckpt if isinstance(ckpt, bool) else workload.gradient_checkpointing,
                   zero_stage=stage if stage in (0, 1, 2, 3) else workload.zero_stage)


def layer_split_counts(workload: Workload, gpu: GPU, counts: Sequence[int]) -> list[int]:
    """The counts tried for `gpu`: every count up to a machine's for a job llama.cpp splits by layers over cards
    someone owns or a GGUF engine runs (no head count to divide: 3 RTX 4090s hold Qwen3-32B Q8_0 at 32k for 3
    users, where 4 had been the answer; audit 27 M-40), else `counts` (tensor-parallel degrees, whole nodes)."""
    if workload.task != "inference" or not is_transformer(workload.model):
        return list(counts)
    if workload.engine != "llama.cpp" and gpu.form != "consumer":
        return list(counts)
    if profile_for(workload).multi_gpu.mode == "tensor-parallel":
        return list(counts)
    return sorted(set(counts) | {n for n in range(1, C.GPUS_PER_NODE + 1) if n <= max(counts, default=1)})


def rank_picks(workload: Workload, gpus: Iterable[GPU], instances: Sequence[InstanceFamily] = (), *,
               limit: int = 5, budget: bool = False, max_count: int = 8,
               fixed_count: int | None = None, hourly_price_of: HourlyPrice | None = None) -> list[Pick]:
    """Recommended GPUs for `workload`, best first (see the module docstring for the order).

    `hourly_price_of` puts the caller's dated prices into the order: without it, cards are costed by
    the capability proxy whenever their prices are incomplete or in two currencies."""
    fitting: list[tuple[Pick, GPU]] = []
    failing: list[tuple[Pick, GPU]] = []
    fits = _fit_memo(workload)
    chosen_by: dict[tuple[str, int], Mapping[str, object]] = {}
    degrees = C.TP_DEGREES if workload.task == "inference" else C.TRAIN_GPU_COUNTS
    counts = [fixed_count] if fixed_count else [n for n in degrees if n <= max_count]
    for gpu in gpus:
        if not gpu.recommended or unsupported_format(workload, gpu) is not None:
            continue
        last: tuple[int, MemoryEstimate] | None = None
        for n in (counts if fixed_count else layer_split_counts(workload, gpu, counts)):
            if not valid_tp(workload, n) or not placeable(gpu, n, hourly_price_of) or not within_one_machine(gpu, n):
                continue
            ok, est = fits(gpu, n)
            chosen_by[(gpu.id, n)] = est.chosen
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
    prices = [hourly_price_of(g, p.count) for p, g in pool] if hourly_price_of is not None else None
    unpriced = _rented_unpriced(pool, prices)
    scored: list[tuple[tuple[float, ...], Pick]] = []
    for (p, g), c, no_price in zip(pool, _costs(pool, prices), unpriced, strict=True):
        if workload.task != "inference" and not budget:
            # timed as the memory rules set it up on these cards (ZeRO-3 over PCIe is slower than no sharding:
            # ranked without it, 2× RTX 6000 Ada came before the faster, cheaper NVLinked A6000 pair; audit 25 f02)
            timed = as_chosen(workload, chosen_by.get((g.id, p.count), {}))
            tps = estimate_speed(timed, g, p.count).train_tokens_per_s or 1.0
            key: tuple[float, ...] = (c / tps, c)
            score = tps / c
        else:
            # A tensor-parallel set delivers tp_scaling(n) cards' worth of speed for n cards' price.
            c_eff = c * p.count / tp_scaling(g, p.count)
            if budget:
                # the cheapest set that holds the job is the smallest bill: a tensor-parallel set's speed per card
                # does not make it dearer to rent (4 RTX A6000 at 4.36 USD/h had ranked after a 6.99 USD/h B200;
                # audit 26 HIGH 38)
                key = (c, -(p.decode_tokens_per_s or 0.0), p.count)
            else:
                # Cost per generated token: a card twice as fast for 1.5× the price serves more for less.
                key = (c_eff / max(p.decode_tokens_per_s or 0.0, C.MIN_DECODE_TOKENS_PER_S), c_eff, p.count)
            score = 1000.0 / c_eff
        slow = (slow_tensor_cores(g) or (
            p.decode_tokens_per_s is not None and p.decode_tokens_per_s < C.MIN_DECODE_TOKENS_PER_S))
        # Sized to the job: a job using a small share of a card gains nothing from the card's size or
        # speed (a 66M-parameter fine-tune, a 1B chat model), so such picks rank after right-sized ones,
        # and among themselves by what they cost an hour.
        # A budget question accepts a snug fit (the reply says so); only a tight one ranks later.
        # Judged against the card's nominal memory (less the CUDA context), so cards sold with the same memory
        # are judged alike: a T4 and a V100 16GB differ by 1 GiB of usable memory, which flipped a 3.8 GiB
        # job between the groups and ranked the T4 first at four times the V100's price.
        nominal = g.memory_gb * 1e9 / C.GIB - C.CUDA_CONTEXT_GIB
        oversized = p.fits and p.memory_per_gpu_gib < C.SMALL_JOB_SHARE * nominal
        uneasy = p.tight if budget else not comfortable(p.memory_per_gpu_gib, p.limit_gib)
        # GeForce cards are bought for one box: each more needs a slot, power and cooling a cost per token does
        # not see, so fewer of them come first (one RTX 5090 before eight RTX 4070 Ti for an 8B LoRA).
        boxed = float(p.count) if g.form == "consumer" else 1.0
        key = (float(slow), float(uneasy), float(no_price), boxed, float(oversized), c if oversized else 0.0, *key)
        if not p.fits:
            key = (p.memory_per_gpu_gib - limit_gib(workload, g), *key)  # closest to fitting first
        scored.append((key, replace(p, score=round(score, 4))))
    scored.sort(key=lambda kp: (kp[0], kp[1].gpu_id))
    ranked = [p for _, p in scored]
    if fixed_count is None:
        checkable = {(p.gpu_id, p.count) for (p, _), flag in zip(pool, unpriced, strict=True) if not flag}
        ranked = _lean_enough(ranked, checkable)
    return ranked[:limit]


def _lean_enough(picks: list[Pick], checkable: set[tuple[str, int]]) -> list[Pick]:
    """The picks that span no more than MACHINES_OVER_LEANEST times the machines of the leanest one that holds
    the job with room and whose price can be checked (`checkable`): neither a rack-scale part with no public
    price nor eight B200s filled to the brim rules out the 32 H100s everyone rents for a 70B fine-tune."""
    fitting = [machines(p.count) for p in picks
               if p.fits and comfortable(p.memory_per_gpu_gib, p.limit_gib) and (p.gpu_id, p.count) in checkable]
    if not fitting:
        return picks
    most = C.MACHINES_OVER_LEANEST * max(1, min(fitting))
    return [p for p in picks if not p.fits or machines(p.count) <= most]


def pick_at(workload: Workload, gpu: GPU, count: int, instances: Sequence[InstanceFamily] = (), *,
            hourly_price_of: HourlyPrice | None = None) -> Pick | None:
    """`count` × `gpu` as a pick, when that many cards can hold the job (and the count is placeable)."""
    found = rank_picks(workload, [gpu], instances, limit=1, max_count=count, fixed_count=count,
                       hourly_price_of=hourly_price_of)
    return found[0] if found and found[0].fits else None
