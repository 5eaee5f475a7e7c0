"""Second thoughts on the intent, once every slot is read.

`decide_intent` reads cue phrases; some questions only show what they ask for in the slots read around them: a
pretraining token count beside one card asks how many of it, "how many copies" or "how many users" beside a card
asks about that card. Each turn here came from a reply that answered a different question than the one asked
(the audit named beside it), so they sit together where their order can be read.
"""

from __future__ import annotations

from typing import Any

from bot.understand.intent import SERVICE_NOTE, WHY_SLOW_NOTE, asks_why_slow
from bot.understand.question import PRETRAINING_TOKENS, Intent
from bot.understand.slots.base import SlotState
from bot.understand.slots.cues import SERVICE_NAMED
from knowledge.schema import Model


def settled_intent(intent: Intent, state: SlotState, work: dict[str, Any], *, gpu_ids: list[str], model_named: bool,
                   named_model: Model | None, copies: bool, named_unknown: bool, capacity: bool,
                   purchase: bool = False) -> Intent:
    """The intent the question is answered as; notes why-slow and service questions on `state` on the way."""
    folded = state.folded
    if (intent == "faq" and (state.values.get("logged_queue") or state.values.get("logged_kv_tokens"))
            and model_named and gpu_ids):
        # "why are requests pending?" over vLLM's metrics, "why so little KV cache?" under its start-up lines: the
        # cache on those cards is the answer (audit 33 HIGH 92: the generic FAQ, no diagnosis)
        intent = "check"
    if intent == "check" and asks_why_slow(state.text):
        state.notes.append(WHY_SLOW_NOTE)
    if SERVICE_NAMED.search(folded):
        state.notes.append(SERVICE_NOTE)
    if (intent == "check" and state.values.get("task") == "train" and len(gpu_ids) == 1
            and "gpu_count" not in state.values and float(work.get("tokens") or 0) >= PRETRAINING_TOKENS):
        intent = "recommend"  # "预训练 7B 2T token，用 A100 要花多少钱": how many of that card, not one for decades
    if intent == "recommend" and copies:
        intent = "check"  # "how many copies of Qwen2.5-32B can one A100 hold": that card, and the count it holds
    if intent == "recommend" and work.get("asks_concurrency") and gpu_ids and model_named:
        intent = "check"  # "how many users can X serve on one L4?": those cards, checked, then their load
    if (intent == "recommend" and len(gpu_ids) == 1 and named_model is not None
            and named_model.modality == "image-generation" and state.values.get("images_per_minute")):
        intent = "check"  # "FLUX 在 4090 上…一天 1 万张，要几张卡": that card, checked, then the cards the rate takes
    if (intent == "recommend" and gpu_ids and not model_named and "params_b" not in state.values
            and state.values.get("other_clouds") and not named_unknown):
        intent = "gpu_info"  # "which is cheaper per GPU-hour for H100: AWS, Lambda or Hyperstack?": its prices
    if (intent in ("recommend", "check") and purchase and gpu_ids and not model_named
            and "params_b" not in state.values and not named_unknown):
        intent = "gpu_info"  # "8 卡 H100 要 200 万，买还是租划算？": those cards' rent against the price (HIGH-115)
    if intent == "gpu_info" and named_unknown and not capacity:
        intent = "recommend"  # "Mochi-1 on an H100?" asks about a model, one the reply must say it does not know
    return intent
