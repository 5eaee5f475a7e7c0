"""Serving plans against targets: replicas × GPUs per replica for N users, QPS, tokens/s per user, first token.

One replica is the configuration the reply sized (`count` × `gpu`). How many sequences it serves at once is
the smallest of two limits, and that limit is the target that binds:

* memory: the most sequences of `context` tokens whose KV cache fits next to the weights (the fit rule);
* speed: the most sequences for which each still decodes at the per-user target (decode slows as the batch
  grows: more KV read per step, and compute at large batches);
* the engine's batch (vLLM's max_num_seqs): sequences beyond it queue rather than decode.

An encoder (embeddings, reranking) is planned by its request rate instead (`_encoder_plan`).

The first token is one prompt's prefill plus one decode step at that load; when it exceeds the target no
number of replicas helps (more cards per replica would), and the plan says the target is not met.
Users to hold at once: the users stated, or QPS × the time one request takes (Little's law: prefill plus
`gen_tokens` decode steps; when the output length is not stated, half the context, the speed rules' own
convention for an unknown split). Replicas = ceil(users / sequences per replica).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace

import rules
from bot.reply.money_model import ServingPlanOut
from bot.reply.priced_replicas import priced_replicas, replicated
from bot.reply.request_pace import (
    busy_turnover,
    compute_replicas,
    first_token_seconds,
    fits_at,
    per_user_speed,
    request_seconds,
    sequences_held,
)
from bot.understand.question import MAX_BATCH, Question
from knowledge.base import KnowledgeBase
from knowledge.schema import GPU, InstanceFamily
from rules.constants import GPUS_PER_NODE, TP_DEGREES
from rules.engine_profile import profile_for
from rules.fit import placeable
from rules.search import largest_true
from rules.speed import prefill_seconds, tensor_parallel
from rules.speed_constants import UNLISTED_COMPUTE_DECODE_BATCH
from rules.speed_media import whisper_live_streams, whisper_refreshed_streams
from rules.types import Pick, Workload

MAX_REPLICAS = 4096
FULL_LOAD_SEQUENCES = 256
"""Sequences batched at full load when the engine's profile gives no cap of its own: vLLM's long-standing
max_num_seqs default (EngineArgs, 256), the figure its throughput benchmarks run at."""


def full_load_rate(workload: Workload, gpu: GPU, count: int) -> float | None:
    """Tokens a second `count` × `gpu` generate in all at the most sequences they hold (at most the engine's
    batch): the rate a price per token or a volume of output is made at. None when not one sequence fits."""
    most = engine_sequence_cap(workload, gpu, count)
    if not rules.compute_known(gpu):
        most = min(most, UNLISTED_COMPUTE_DECODE_BATCH)  # beyond it the compute the card lists no figure for decides
    held = sequences_held(workload, gpu, count, most)
    return per_user_speed(workload, gpu, count, held) * held if held else None


def sets_serving_target(question: Question) -> bool:
    """A QPS, tokens/s per user or first-token time, or a price per token: the reply then plans replicas of the
    cards named."""
    return bool(question.qps or question.tokens_per_s_per_user or question.output_tokens_per_s
                or question.ttft_s) or at_full_load(question)


def at_full_load(question: Question) -> bool:
    """A price per token, a user count asked or a volume of output to generate, with no load stated: sized at the
    load they assume, a replica holding as many sequences as it can (at batch 1 the same cards cost tens of
    times more per token, and a billion tokens take years)."""
    return (question.asks_token_cost or question.asks_concurrency or bool(question.output_tokens)) and not (
        question.batch or question.qps or question.tokens_per_s_per_user or question.output_tokens_per_s
        or question.ttft_s)


def engine_sequence_cap(workload: Workload, gpu: GPU, count: int) -> int:
    """The most sequences the engine batches at once: its max_num_seqs for this card (vLLM: 256, 1024 on large
    cards from V1), else FULL_LOAD_SEQUENCES."""
    chosen = rules.estimate_memory(workload, count, gpu).chosen.get("max_num_seqs")
    return int(chosen) if isinstance(chosen, (int, float)) and chosen > 0 else FULL_LOAD_SEQUENCES


def users_of(question: Question) -> int:
    """Sequences the question serves at once: its users beyond one job's batch, else the batch it states."""
    return int(question.users or question.batch or 0)


def replica_layout(question: Question, workload: Workload, gpu: GPU, count: int,
                   hourly_price_of: Callable[[GPU, int], float | None] | None = None,
                   fits: bool = True) -> tuple[int, int] | None:
    """(cards per replica, sequences one replica holds) when many users were sized as one model pipelined across
    nodes, or are more than one job's batch: the in-node tensor-parallel replica that serves them on the fewest
    cards in all, or None when no replica of one node holds the weights and a sequence (then pipelining across
    nodes is what makes it fit).

    "1000 concurrent users of Qwen3-8B on L40S" fits 16 cards either way, but an engineer runs replicas
    behind a load balancer, not one 8B model split over two nodes: the KV cache per card is the same, the
    weights are copied once per replica, and no request waits on the network between pipeline stages."""
    users = users_of(question)
    if workload.model.modality == "audio" and workload.task == "inference":
        return live_stream_layout(workload, gpu, count, users, refreshed=question.live_audio)
    # more users than one job's batch, or than the engine batches at once on these cards: replicas
    beyond_one_job = question.users is not None or users > engine_sequence_cap(workload, gpu, count)
    if (workload.task != "inference" or (count <= GPUS_PER_NODE and not beyond_one_job and fits) or users < 2
            or profile_for(workload).reservation.kind == "none"):
        return None
    in_node = _fewest_cards(users, workload, gpu, (
        n for n in replica_sizes(workload, 1)
        if placeable(gpu, n, hourly_price_of)))  # a B300 comes 8 to a board unless rented in slices
    across = _fewest_cards(users, workload, gpu, (
        GPUS_PER_NODE * nodes for nodes in REPLICA_NODES if placeable(gpu, GPUS_PER_NODE * nodes, hourly_price_of)))
    if across is not None and (in_node is None or across[0] <= MULTI_NODE_REPLICA_SAVING * in_node[0]):
        return across[1], across[2]
    return (in_node[1], in_node[2]) if in_node is not None else None


def replica_sizes(workload: Workload, low: int) -> list[int]:
    """Cards one replica may run on within a machine, from `low` (the fewest that hold it, always tried): a
    tensor-parallel degree that divides the model's heads, or any count for an engine that splits the layers
    instead (llama.cpp runs 3 RTX 4090s as readily as 4)."""
    if low > GPUS_PER_NODE:
        return []
    if not tensor_parallel(workload.engine):
        return list(range(low, GPUS_PER_NODE + 1))
    return [low, *(n for n in TP_DEGREES if low < n <= GPUS_PER_NODE and rules.valid_tp(workload, n))]


REPLICA_NODES = (2,)
"""Nodes a replica may pipeline across (vLLM's --pipeline-parallel-size between nodes, tensor parallel in each):
405B is served as PP2 × TP8 on 16 H100s, where one node's 8 cards hold its weights with room for 6 users."""
MULTI_NODE_REPLICA_SAVING = 0.75
"""A replica spans nodes only when that serves the users on at most this share of the cards whole-node replicas
take (a judgement, not a measurement: each token then crosses the network between pipeline stages, so a few
cards saved are not worth it; 405B FP8 at 32k for 2,000 users is 768 cards against 2,672)."""


def _fewest_cards(users: int, workload: Workload, gpu: GPU, sizes: Iterable[int]) -> tuple[int, int, int] | None:
    """(cards in all, cards a replica, sequences a replica holds) for the replica size of `sizes` that serves
    `users` on the fewest cards, or None when no size holds the weights and a sequence."""
    best: tuple[int, int, int] | None = None
    for cards in sizes:
        # no more than the engine batches at once (vLLM's max_num_seqs): the rest would queue, not decode
        most = min(users, engine_sequence_cap(workload, gpu, cards))
        per_replica = sequences_held(workload, gpu, cards, most)
        if per_replica == 0:
            continue
        total = cards * math.ceil(users / per_replica)
        if best is None or total < best[0]:
            best = (total, cards, per_replica)
    return best


def copy_a_card(question: Question, workload: Workload) -> bool:
    """An offline job whose work is shared out card by card, each running its own copy of the model: documents to
    encode, audio hours to transcribe. Its cards' memory does not divide (serving.encoder_rate, the speech job's
    rate), so the reply sizes one card's copy, not layers split over them."""
    model = workload.model
    return workload.task == "inference" and bool(
        (model.arch == "encoder" and question.training_samples) or (model.modality == "audio" and question.audio_hours))


def live_stream_layout(workload: Workload, gpu: GPU, count: int, streams: int,
                       refreshed: bool = False) -> tuple[int, int] | None:
    """(1, streams one card keeps up with) for live speech streams the memory rules split over `count` cards:
    the streams are independent, so each card runs its own copy of the small model (audit 15 B-H6: 50 Whisper
    streams were split layer-wise over two T4s and priced on a 4-GPU instance at 3.7× two 1-GPU ones).
    `refreshed`: real-time captions, each stream re-encoded every second, which a card keeps up with for far fewer
    (the serving plan's count; the memory block had been sized at the 177 streams a card's memory holds, audit 39
    M-158)."""
    if count < 2 or streams < 2:
        return None
    by_memory = sequences_held(workload, gpu, 1, streams)
    per_card = min(by_memory, whisper_live_streams(workload, gpu, streams)) if by_memory else 0
    if refreshed and per_card:
        per_card = max(1, min(per_card, whisper_refreshed_streams(workload, gpu, per_card)))
    return (1, per_card) if per_card else None


def as_replicas(picks: Sequence[Pick], question: Question, workload: Workload, kb: KnowledgeBase,
                instances: Sequence[InstanceFamily], hourly_price_of: Callable[[GPU, int], float | None]) -> list[Pick]:
    """Each pick laid out as the serving plan will run it: when many users make in-node replicas the way to
    serve them (`replica_layout`), the pick is that many replicas of the replica's cards, sized at
    its share of the users and priced for all of them, rather than one copy of the model pipelined across nodes
    that the plan under it would contradict. A pick laid out as one already listed is listed once (the named
    4 × L40S that cannot hold the users becomes the 8 × L40S pick below it, audit 17 L-1)."""
    out: list[Pick] = []
    for pick in picks:
        laid_out = _as_replicas(pick, question, workload, kb, instances, hourly_price_of)
        gpu = kb.gpus.get(laid_out.gpu_id)
        asked = (laid_out.gpu_id, laid_out.count) == (question.gpu, question.gpu_count)
        # the set asked about keeps the layout its verdict is for: 4 RTX 6000 Ada "Yes" in tensor parallel had
        # been listed as 2 priced replicas of 2 holding 12 sequences, not 32 (audit 27 LOW-82)
        if gpu is not None and (laid_out.replicas or 1) == 1 and not asked:
            laid_out = priced_replicas(laid_out, gpu, users_of(question), workload, instances,
                                       hourly_price_of) or laid_out
        if all((p.gpu_id, p.count, p.replicas) != (laid_out.gpu_id, laid_out.count, laid_out.replicas) for p in out):
            out.append(laid_out)
    return _roomier_first(out, kb, hourly_price_of)


def layout_bill(pick: Pick, kb: KnowledgeBase, hourly_price_of: Callable[[GPU, int], float | None]) -> float | None:
    """What `pick`'s cards cost an hour as laid out: one set of them, or its replicas each on their own cards
    unless the set of them all rents for less. The rules' pick carries no price of its own here."""
    gpu = kb.gpus.get(pick.gpu_id)
    if gpu is None:
        return None
    together = hourly_price_of(gpu, pick.count)
    if not pick.replicas or pick.replicas < 2:
        return together
    apart = hourly_price_of(gpu, pick.count // pick.replicas)
    bills = [b for b in (together, apart * pick.replicas if apart is not None else None) if b is not None]
    return min(bills) if bills else None


def cheapest_for_the_load(picks: list[Pick], users: int, kb: KnowledgeBase,
                          hourly_price_of: Callable[[GPU, int], float | None]) -> list[Pick]:
    """Layouts that each serve all the users as replicas, every one priced: the cheapest an hour first, as design.md
    ranks by money per useful work (the same load served is the same work). 12 H100 PCIe at 22.80 USD/h were listed
    after 50 RTX A6000 at 25.00 for the same 500 speech streams (audit 39 M-155). Run before the memory block is sized
    for the top layout, so the two agree."""
    if users < 2 or len(picks) < 2 or not all(p.fits and (p.replicas or 1) > 1 for p in picks):
        return picks
    bills = [layout_bill(p, kb, hourly_price_of) for p in picks]
    if any(bill is None for bill in bills):
        return picks
    order = sorted(range(len(picks)), key=lambda i: bills[i] or 0.0)
    return [picks[i] for i in order]


def _roomier_first(picks: list[Pick], kb: KnowledgeBase,
                   hourly_price_of: Callable[[GPU, int], float | None]) -> list[Pick]:
    """Of two layouts of the same cards at the same bill, the one that holds more sequences at no lower speed
    comes first: 2 replicas of 2 L40S holding 36 were listed above the 4-card set holding 51 at the same
    9.14 USD/h (audit 24 LOW-34). The bill is each layout's own: two H100s in tensor parallel rent as one 2-card
    machine at 8.38 USD/h, as two replicas of one at 4.58, and the dearer had come first (audit 26 LOW-67)."""
    out = list(picks)
    for i in range(len(out)):
        for j in range(i + 1, len(out)):
            first, later = out[i], out[j]
            first_bill, later_bill = layout_bill(first, kb, hourly_price_of), layout_bill(later, kb, hourly_price_of)
            if ((first.gpu_id, first.count) == (later.gpu_id, later.count)
                    and first_bill is not None and later_bill is not None and later_bill <= first_bill * 1.001
                    and first.fits and later.fits
                    and (later.max_concurrent_sequences or 0) > (first.max_concurrent_sequences or 0)
                    and (later.decode_tokens_per_s or 0.0) >= (first.decode_tokens_per_s or 0.0)):
                out[i], out[j] = later, first
    return out


def _as_replicas(pick: Pick, question: Question, workload: Workload, kb: KnowledgeBase,
                 instances: Sequence[InstanceFamily], hourly_price_of: Callable[[GPU, int], float | None]) -> Pick:
    """One pick of `as_replicas`: laid out as replicas when `replica_layout` calls for them, else as it was."""
    users = users_of(question)
    gpu = kb.gpus.get(pick.gpu_id)
    # a set that cannot hold every user at once may still hold the model and some of them: replicas serve the
    # rest ("405B for 1,000 users at 128k" fits no single set; 44 replicas of 8 GB300s do)
    layout = replica_layout(question, workload, gpu, pick.count, hourly_price_of, pick.fits) if gpu and (
        pick.fits or users > 1) else None
    if gpu is None or layout is None:
        return pick
    cards, per_replica = layout
    replicas = min(MAX_REPLICAS, math.ceil(users / per_replica))
    # beyond the most replicas planned, each runs full and the rest of the users wait (the serving plan says so):
    # a replica sized for its share of them would hold none and leave the pick as one set "fitting" them all
    one = rules.pick_at(replace(workload, batch=min(per_replica, math.ceil(users / replicas))), gpu, cards,
                        instances, hourly_price_of=hourly_price_of)
    if one is None or not one.fits:
        return pick
    return replicated(one, cards, replicas)


def one_replica(picks: Sequence[Pick], question: Question, workload: Workload, gpu: GPU | None,
                count: int) -> tuple[Workload, int] | None:
    """(the workload of one replica, its cards) when the configuration sized is the top pick laid out as replicas:
    the reply's memory and speed are then one replica's at its share of the users, as the pick line says (the
    users, not the job's batch, which stops at MAX_BATCH)."""
    if not picks or gpu is None or picks[0].replicas <= 1 or (picks[0].gpu_id, picks[0].count) != (gpu.id, count):
        return None
    replicas = picks[0].replicas
    share = math.ceil(users_of(question) / replicas)
    held = (picks[0].max_concurrent_sequences or 0) // replicas
    return replace(workload, batch=min(share, held) if held else share), count // replicas


def serving_plan(question: Question, workload: Workload, gpu: GPU, count: int,
                 bill: Callable[[GPU, int, int], tuple[float, str] | None] | None = None) -> ServingPlanOut | None:
    """The plan, when the question sets a serving target, or states more users than one node serves. `bill`
    (card, cards a replica, replicas → an hour's price and its currency, None when unknown) chooses between
    replica sizes that all meet the load: the cheapest where every one is priced in one currency, else the
    fewest cards."""
    if not rules.compute_known(gpu):
        return None  # prefill and batched decode are compute-bound: no plan on a card without a throughput figure
    if workload.model.modality == "audio":
        return None  # live speech streams are counted against real time (bot.reply.media_figures), not tok/s
    if not sets_serving_target(question):
        layout = replica_layout(question, workload, gpu, count)
        if layout is None:
            return None
        plan = _plan_for_users(question, workload, gpu, layout[0])
        if plan is None or plan.binding == "replica_cap":
            return plan  # the users the most replicas cannot hold is what the reader must see
        return plan.model_copy(update={"binding": "replicas_nodes" if layout[0] > GPUS_PER_NODE else "replicas"})
    if question.gpu_count is not None or count > GPUS_PER_NODE:
        return _plan_for_users(question, workload, gpu, count)  # the cards the question named, as named
    # Replicas of the fewest cards that hold the model may hold almost no KV cache (70B in FP8 on one H100: two
    # sequences a card): the replica size is chosen, like the users' layout, for the fewest cards in all
    plans = [plan for n in replica_sizes(workload, count)
             if (plan := _plan_for_users(question, workload, gpu, n)) is not None]
    if not plans:
        return None
    prices = [bill(gpu, p.gpus_per_replica, p.replicas) for p in plans] if bill is not None else []
    if prices and all(prices) and len({price[1] for price in prices if price}) == 1:
        # Two L4s in tensor parallel are billed as AWS's 4-card g6.12xlarge (4.60 USD/h); the four one-card
        # replicas that carry the same load rent as g6.xlarge at 3.22 (audit 21 M-13): money, not cards, decides
        priced = [(plan, price[0]) for plan, price in zip(plans, prices, strict=True) if price]
        return min(priced, key=lambda pair: (not pair[0].met, pair[1], pair[0].replicas * pair[0].gpus_per_replica))[0]
    return min(plans, key=lambda p: (not p.met, p.replicas * p.gpus_per_replica, p.gpus_per_replica))


ENCODER_BATCH = 32
"""Requests an embedding or reranking server batches per forward pass (Text Embeddings Inference and
sentence-transformers batch 32 by default: its max_client_batch_size is 32, encode()'s batch_size 32); the
throughput of one replica is timed at that batch when its memory holds it."""


def encoder_rate(workload: Workload, gpu: GPU, count: int) -> tuple[float, int]:
    """(sequences a second, batch) an encoder on `count` × `gpu` encodes in passes of ENCODER_BATCH sequences of
    the job's tokens (one at a time when that batch does not fit), a copy on each card when one card holds it:
    its serving rate, and an offline job's."""
    if count > 1 and fits_at(workload, gpu, 1, 1):
        # a small encoder on several cards runs a copy on each, not one copy split over them
        one, batch = encoder_rate(workload, gpu, 1)
        return count * one, batch
    batch = ENCODER_BATCH if fits_at(workload, gpu, count, ENCODER_BATCH) else 1
    return batch / prefill_seconds(replace(workload, batch=batch), gpu, count, max(1, workload.context)), batch


def _encoder_plan(question: Question, workload: Workload, gpu: GPU, count: int) -> ServingPlanOut | None:
    """An encoder (embeddings, reranking) serves requests, not conversations: no KV cache, no decoding. A replica
    encodes `ENCODER_BATCH` sequences of the request's tokens per prefill pass; replicas = ceil(sequences a
    second / the sequences a second one replica encodes), where a request brings `texts_per_request` sequences
    (a reranker scores each of a query's documents as one query-document pair). No plan without a request rate."""
    if not question.qps:
        return None
    # an encoder fits one card many times over: its replicas are single cards, whatever count the pick was sized
    # on (73 "replicas × 4 A10, layers split" had been said of what the count made 292 one-card replicas)
    count = 1
    texts = question.texts_per_request or 1
    wanted = question.qps * texts  # sequences a second: "100 docs per query at 50 QPS" is 5,000 pairs a second
    tokens = max(1, workload.context)
    per_replica, batch = encoder_rate(workload, gpu, count)
    replicas = math.ceil(wanted / per_replica)
    met = replicas <= MAX_REPLICAS
    replicas = min(replicas, MAX_REPLICAS)
    served = min(wanted, replicas * per_replica)
    # one request alone: its texts in passes of the replica's batch
    one_pass = min(texts, batch)
    latency = math.ceil(texts / one_pass) * prefill_seconds(replace(workload, batch=one_pass), gpu, count, tokens)
    targets = {"qps": float(question.qps), "sequences_per_s_per_replica": round(per_replica, 2)}
    if texts > 1:
        targets.update(texts_per_request=float(texts), sequences_per_s=float(wanted))
    return ServingPlanOut(
        gpu=gpu.id, gpus_per_replica=count, replicas=replicas, sequences_per_replica=batch,
        concurrent_needed=math.ceil(wanted), aggregate_tokens_per_s=round(served * tokens, 1),
        ttft_s=round(latency, 3), binding="throughput", met=met, targets=targets,
    )


def _fuller_split(workload: Workload, gpu: GPU, count: int, held: int) -> tuple[int, int] | None:
    """(cards a replica, sequences each holds) when `count` cards at full load generate more as replicas of fewer
    cards than as one replica holding `held` sequences, which only happens when the engine's batch limit, not the
    memory, caps that one; None otherwise."""
    if count < 2 or held < engine_sequence_cap(workload, gpu, count):
        return None
    best: tuple[float, int, int] | None = None
    whole = per_user_speed(workload, gpu, count, held) * held
    for cards in (n for n in TP_DEGREES if n < count and count % n == 0 and rules.valid_tp(workload, n)):
        each = sequences_held(workload, gpu, cards, engine_sequence_cap(workload, gpu, cards))
        if each < 1:
            continue
        rate = per_user_speed(workload, gpu, cards, each) * each * (count // cards)
        if rate > whole and (best is None or rate > best[0]):
            best = (rate, cards, each)
    return (best[1], best[2]) if best is not None else None


def _plan_for_users(question: Question, workload: Workload, gpu: GPU, count: int) -> ServingPlanOut | None:
    """Replicas of `count` × `gpu` for the question's users, QPS and speed targets (or one at full load)."""
    if workload.model.arch == "encoder":
        return _encoder_plan(question, workload, gpu, count)
    targets = {k: float(v) for k, v in (("users", users_of(question)), ("qps", question.qps),
                                        ("tokens_per_s_per_user", question.tokens_per_s_per_user),
                                        ("output_tokens_per_s", question.output_tokens_per_s),
                                        ("ttft_s", question.ttft_s)) if v}
    full_load = at_full_load(question)
    cap = engine_sequence_cap(workload, gpu, count) if full_load else MAX_BATCH
    by_memory = sequences_held(workload, gpu, count, cap)
    if by_memory == 0:
        return None
    if full_load:
        split = _fuller_split(workload, gpu, count, by_memory)
        if split is not None:
            # the engine's batch limit caps one replica over all the cards: as replicas of fewer cards, each at
            # its own limit, the same cards decode several times the sequences (4 L40S for a 7B: four replicas
            # of 256, not one of 256; audit 27 LOW-79)
            per_card_count, held = split
            speed = per_user_speed(workload, gpu, per_card_count, held)
            replicas = count // per_card_count
            return ServingPlanOut(
                gpu=gpu.id, gpus_per_replica=per_card_count, replicas=replicas, sequences_per_replica=held,
                concurrent_needed=held * replicas, aggregate_tokens_per_s=round(speed * held * replicas, 1),
                decode_tokens_per_s=round(speed, 1),
                ttft_s=round(first_token_seconds(workload, gpu, per_card_count, held), 3),
                binding=("full_load" if question.asks_token_cost else "concurrency" if question.asks_concurrency
                         else "volume"),
                targets={"full_load": float(held), "sequence_cap": float(
                    engine_sequence_cap(workload, gpu, per_card_count))},
            )
        speed = per_user_speed(workload, gpu, count, by_memory)
        return ServingPlanOut(
            gpu=gpu.id, gpus_per_replica=count, replicas=1, sequences_per_replica=by_memory,
            concurrent_needed=by_memory, aggregate_tokens_per_s=round(speed * by_memory, 1),
            decode_tokens_per_s=round(speed, 1), ttft_s=round(first_token_seconds(workload, gpu, count, by_memory), 3),
            binding=("full_load" if question.asks_token_cost else "concurrency" if question.asks_concurrency
                     else "volume"),
            targets={"full_load": float(by_memory), "sequence_cap": float(cap)},
        )
    per_user = question.tokens_per_s_per_user
    by_speed = by_memory if not per_user else largest_true(
        lambda b: per_user_speed(workload, gpu, count, b) >= per_user, 1, by_memory)
    met = by_speed > 0
    if not met:
        # no replica gives a user the speed asked even alone: more replicas cannot buy it, so the plan holds the
        # users as memory allows and says the target is out of reach (audit 25 HIGH 27: 50 replicas of 4 L40S,
        # one user each, that the reply itself said still missed it)
        by_speed = by_memory
    engine_cap = engine_sequence_cap(workload, gpu, count)
    per_replica = max(1, min(by_memory, by_speed, engine_cap))
    binding = "memory" if by_memory <= by_speed and met else "speed"
    if engine_cap < min(by_memory, by_speed):
        binding = "sequence_cap"  # the KV cache holds more, but the engine batches at most its max_num_seqs
        targets["sequence_cap"] = float(engine_cap)
    users = users_of(question)
    if question.asks_concurrency and per_user and met and users <= 1 and not question.qps:
        # "how many users can one H100 serve if each needs 50 tok/s?": the most at once that still get it
        # (audit 30 M-77: the plan was for one user)
        targets.update(users_at_target=float(per_replica), users_by_memory=float(by_memory),
                       per_user_target=float(per_user))
    if question.qps:
        users = max(users, math.ceil(question.qps * request_seconds(workload, gpu, count, per_replica)))
    if question.output_tokens_per_s:
        # sequences decoding at once, each at a full replica's per-user speed, that make up the total asked
        speed_full = per_user_speed(workload, gpu, count, per_replica)
        users = max(users, math.ceil(question.output_tokens_per_s / speed_full))
    users = max(users, 1)
    replicas = min(MAX_REPLICAS, math.ceil(users / per_replica))
    compute = compute_replicas(question, workload, gpu, count)
    if compute == replicas > 1 and question.qps and binding == "memory":
        # as many replicas for the prompts as the KV cache asked for at a full replica's pace; at the load each
        # replica then carries, requests finish sooner and its cache would need fewer: the prefill is what sets
        # the count (audit 24 LOW-33)
        at_load = max(users_of(question), 1, math.ceil(
            question.qps * request_seconds(workload, gpu, count, math.ceil(users / replicas))))
        if math.ceil(at_load / per_replica) < replicas:
            users, binding = at_load, "compute"
    if compute > replicas:
        # the prompts to prefill (and the tokens to generate) take more compute than the replicas the memory and
        # the speed call for: a replica at its full KV cache could not keep up. Spread over more replicas, each
        # request runs faster, so fewer are in flight.
        replicas, binding = min(MAX_REPLICAS, compute), "compute"
        if compute > MAX_REPLICAS:
            # the most replicas planned do not have the compute the rate takes: not met, and said how many would
            met, binding = False, "compute_cap"
            targets.update(replica_cap=float(MAX_REPLICAS), compute_replicas=float(compute))
        if question.qps:
            load = max(1, math.ceil(users / replicas))
            users = max(users_of(question), 1,
                        math.ceil(question.qps * request_seconds(workload, gpu, count, load)))
    served = min(users, replicas * per_replica)
    if served < users and binding != "compute_cap":
        met, binding = False, "replica_cap"  # MAX_REPLICAS of this replica cannot hold everyone
        targets["replica_cap"] = float(MAX_REPLICAS)
    load = math.ceil(served / replicas)
    if question.qps and served == users:
        # the requests in flight at the rate (Little's law) at the load each replica then carries, not at the
        # fuller one the replica count was found with: 8 requests/s of 8.3 s are 67 in flight, not 71
        settled = max(1, math.ceil(question.qps * request_seconds(workload, gpu, count, load)))
        if settled < served:
            users = served = settled
            load = math.ceil(served / replicas)
    ttft = first_token_seconds(workload, gpu, count, load)
    if question.ttft_s and ttft > question.ttft_s:
        met, binding = False, "ttft"
    speed = per_user_speed(workload, gpu, count, load)
    if binding == "speed" and met and replicas > 1 and per_user:
        # what holding them all on one replica would give each: "like 20 tok/s" met at 9 cards where 3 give 17
        together = max(1, min(users, by_memory, engine_cap))
        targets.update(together_users=float(together), per_user_target=float(per_user),
                       together_tokens_per_s=round(per_user_speed(workload, gpu, count, together), 1))
    if met and not question.qps:
        targets.update(busy_turnover(question, workload, gpu, count, replicas, users))
    if question.asks_max_rate and not question.qps and rules.compute_known(gpu):
        # each request's prompt and output go through the replicas' tensor cores at the rate one prompt
        # prefills (request_pace.compute_replicas): the rate they keep up with, the first token short until then
        prefill = rules.estimate_speed(replace(workload, batch=1), gpu, count).prefill_tokens_per_s or 0.0
        if prefill:
            targets["max_qps"] = round(replicas * prefill / max(1, workload.context), 2)
            targets["max_qps_prefill"] = round(prefill, 0)
    aggregate = speed * served
    if question.qps and workload.gen_tokens:
        # at a steady request rate the tokens generated a second are the rate's: 8 requests/s of 400 tokens are
        # 3,200 tok/s, whatever the sequences in flight (rounded up to whole replicas) could decode (audit 27 LOW-73)
        aggregate = min(aggregate, question.qps * workload.gen_tokens)
    return ServingPlanOut(
        gpu=gpu.id, gpus_per_replica=count, replicas=replicas, sequences_per_replica=per_replica,
        concurrent_needed=users, aggregate_tokens_per_s=round(aggregate, 1),
        decode_tokens_per_s=round(speed, 1), ttft_s=round(ttft, 3), binding=binding, met=met, targets=targets,
    )
