"""Speculative decoding's speed-up for one sequence, from the acceptance rate someone sees or assumes.

Leviathan, Kalman & Matias 2023 ("Fast Inference from Transformers via Speculative Decoding", ICML 2023,
arXiv:2211.17192, section 3): when the target accepts each drafted token with probability α and the draft
proposes γ tokens a step, a step yields (1 − α^(γ+1)) / (1 − α) tokens on average and takes γ·c + 1 target
steps, c being one draft step's time over one target step's. The speed-up is their ratio.

The acceptance rate depends on the text and on how alike the two models are, so no single figure is assumed:
the reply gives the speed at a few rates, and engines log the rate they see (vLLM's "Draft acceptance rate").
Checking γ + 1 tokens costs the target about one decode step only while reading its weights dominates, at one
or a few sequences; with many sequences in flight the check costs more and the gain shrinks, so the figures are
for a single sequence. c comes from this module's own decode estimates of the draft and of the target on the
same cards, so a draft that is small but slow per token (a deep one, or one with launch overhead) counts as such;
a serving engine's host work between steps (rules.speed_constants.DECODE_STEP_OVERHEAD_S) is paid once a step, in
the target's time, not again for each drafted token.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from knowledge.schema import GPU, Model
from rules.speed import estimate_speed
from rules.speed_constants import DECODE_STEP_OVERHEAD_S
from rules.types import Workload

DRAFT_TOKENS = 4
"""Tokens the draft proposes a step when the question does not say: vLLM and SGLang take it as a setting
(`num_speculative_tokens`, `--speculative-num-draft-tokens`) with no default that suits every pair; 4 to 5 is
what their examples use."""

ACCEPTANCE_RATES = (0.5, 0.7, 0.9)
"""The acceptance rates the reply shows the speed at: a range, not an estimate of the one a pair reaches."""


EAGLE_HEAD_ID = "EAGLE-3 head"
"""The draft of EAGLE-style speculative decoding, named by method rather than by a model of the knowledge base."""

EAGLE_DRAFT_VOCAB = 32_000
"""The draft vocabulary EAGLE-3's released heads predict over (its `draft_vocab_size`, 32,000 for the Llama 3.1
heads; the target's own vocabulary when that is smaller)."""


def eagle_head(target: Model) -> Model | None:
    """EAGLE-3's draft (Li et al. 2025, "EAGLE-3: Scaling up Inference Acceleration of Large Language Models via
    Training-Time Test", arXiv:2503.01840): one decoder layer of the target's shape over the target's own hidden
    states, which an fc layer fuses from its low, middle and high layers (3h → h), with an LM head over a reduced
    draft vocabulary. Its size is estimated from the target's: one layer's share of the (active) parameters
    outside the embeddings, the fc and the head; its KV cache is one layer's. None without the target's shape."""
    h, layers, vocab = target.hidden_size, target.num_layers, target.vocab_size
    if not (h and layers and vocab):
        return None
    params = (target.active_params_b or target.params_b) * 1e9
    embeddings = vocab * h * (1 if target.tie_embeddings else 2)
    layer = max(0.0, params - embeddings) / layers
    head = layer + 3 * h * h + min(vocab, EAGLE_DRAFT_VOCAB) * h
    per_layer_kv = (target.kv_cache_kib_per_token_16bit / layers) if target.kv_cache_kib_per_token_16bit else None
    return target.model_copy(update={
        "id": EAGLE_HEAD_ID, "name": f"{EAGLE_HEAD_ID} for {target.name}", "params_b": head / 1e9,
        "params_b_computed": None, "active_params_b": None, "active_params_b_computed": None, "num_layers": 1,
        "moe": None, "vision_encoder": None, "image_tokens": None, "kv_cache_kib_per_token_16bit": per_layer_kv,
        "tie_embeddings": True, "vocab_size": min(vocab, EAGLE_DRAFT_VOCAB)})


def expected_tokens_per_step(acceptance: float, draft_tokens: int) -> float:
    """Tokens a step yields on average: the accepted prefix of the draft plus the target's own next token."""
    if acceptance >= 1.0:
        return float(draft_tokens + 1)
    return (1.0 - acceptance ** (draft_tokens + 1)) / (1.0 - acceptance)


def speculative_speedup(acceptance: float, draft_tokens: int, draft_cost_ratio: float) -> float:
    """The decode speed-up over the target alone; below 1 when the draft costs more than it saves."""
    return expected_tokens_per_step(acceptance, draft_tokens) / (draft_tokens * draft_cost_ratio + 1.0)


def alone_speeds(workload: Workload, gpu: GPU, count: int) -> tuple[float, float] | None:
    """(target, draft) decode speeds for one sequence each on `count` × `gpu`, each model alone; None without a
    draft or a speed for either."""
    draft = workload.draft_model
    if draft is None:
        return None
    one = replace(workload, batch=1, draft_model=None)
    target_speed = estimate_speed(one, gpu, count).decode_tokens_per_s
    # the draft is served unquantised (rules.memory_draft), in the target's engine
    draft_alone = replace(one, model=draft, precision="bf16", quant=None)
    draft_speed = estimate_speed(draft_alone, gpu, count).decode_tokens_per_s
    if not target_speed or not draft_speed:
        return None
    return target_speed, draft_speed


def cost_ratio(target_speed: float, draft_speed: float, engine: str) -> float:
    """c: one drafted token's time over one target step's. The engine's host work between steps (scheduling,
    sampling, detokenising; rules.speed_constants.DECODE_STEP_OVERHEAD_S) is paid once a step, in the target's
    time: the draft's forward passes run inside that step and cost only their GPU time."""
    host = DECODE_STEP_OVERHEAD_S.get(engine, 0.0)
    return max(1.0 / draft_speed - host, 0.1 / draft_speed) * target_speed


def draft_cost_ratio(workload: Workload, gpu: GPU, count: int) -> float | None:
    """`cost_ratio` for one sequence on `count` × `gpu`; None without a draft or a speed for either."""
    speeds = alone_speeds(workload, gpu, count)
    return cost_ratio(*speeds, workload.engine) if speeds is not None else None


def speculative_decode_speeds(workload: Workload, gpu: GPU, count: int, acceptances: Sequence[float],
                              draft_tokens: int = DRAFT_TOKENS) -> list[float] | None:
    """One sequence's decode speed with the draft at each of `acceptances`, the two models timed once; None when
    it cannot be timed."""
    speeds = alone_speeds(workload, gpu, count)
    if speeds is None:
        return None
    target_speed, draft_speed = speeds
    ratio = cost_ratio(target_speed, draft_speed, workload.engine)
    return [target_speed * speculative_speedup(a, draft_tokens, ratio) for a in acceptances]


def speculative_decode_tokens_per_s(workload: Workload, gpu: GPU, count: int, acceptance: float,
                                    draft_tokens: int = DRAFT_TOKENS) -> float | None:
    """One sequence's decode speed with the draft at `acceptance`; None when it cannot be timed."""
    speeds = speculative_decode_speeds(workload, gpu, count, (acceptance,), draft_tokens)
    return speeds[0] if speeds is not None else None
