"""Several models named for one deployment ("Qwen3-Embedding-8B 和 Qwen3-Reranker-4B 一起部署在一张 A10 上",
"an embedder and a reranker together on one L4"): sized together, each in its own process (bot.reply.stack).

Two models named without such words are a comparison, a speculative pair or two jobs, which other rooms read.
"""

from __future__ import annotations

import re

from bot.understand.mentions import Mention
from bot.understand.slots.base import SlotState
from knowledge.names import split_checkpoint_suffixes

STACK_CUE = re.compile(
    r"\b(?:together|alongside|side\s+by\s+side\s+on|at\s+the\s+same\s+time|simultaneously|co-?locat\w*|"
    r"(?:both|all)\s+(?:on|in)\b|on\s+(?:one|a\s+single|the\s+same|1)\b|same\s+(?:gpu|card|box|machine|server|node))|"
    r"一起|同时(?:部署|跑|运行|加载|放)|共用|合用|共享|部署在(?:同)?一(?:张|块|台)|放在(?:同)?一(?:张|块|台)|"
    r"都(?:部署|放|跑|装)|单卡|同一张|同一台|一张卡|[两兩2]\s*[个個]?\s*模型|\bboth\s+models\b",
    re.I,
)
"""Words that put the models named on the same cards."""
PLUS = re.compile(r"(?<=[\w)])\s*\+\s*(?=[\w(])")
"""Models joined by "+" ("bge-m3 + bge-reranker-v2-m3 做 RAG"): a pipeline deployed together. With a generator among
them the generator is sized and the rest said beside it (bot.understand.model_mentions.generator_first); encoders
alone are a stack (audit 35 HIGH 107 had sized the embedder alone, the reranker's heavier work dropped)."""


def stacked(model_ids: list[str], folded: str) -> list[str]:
    """The models after the first to be deployed beside it, when the text says they share the cards; else []."""
    if len(model_ids) < 2 or STACK_CUE.search(folded) is None:
        return []
    return model_ids[1:]


def own_formats(named: list[Mention], original: str) -> dict[str, str]:
    """The weight format each model's own name carries ("Llama-3.1-70B-AWQ" → awq): in a stack it belongs to that
    model only, not to the others ("Llama-3.1-8B and Llama-3.1-70B-AWQ" runs the 8B in 16-bit)."""
    out: dict[str, str] = {}
    for mention in named:
        end = mention.end
        while end < len(original) and (original[end].isalnum() or original[end] in "-_."):
            end += 1  # the suffix glued after the name the mention matched ("-AWQ", "-Instruct-GPTQ-Int4")
        quant = split_checkpoint_suffixes(original[mention.start: end].rstrip("."))[1]
        if quant:
            out[mention.entry_id] = quant
    return out


def set_stack(state: SlotState, stack: list[str], named: list[Mention], original: str, first: str | None) -> None:
    """`stack_models` and each model's own format; a format only another model's name carries is not the first
    model's ("Llama-3.1-8B and Llama-3.1-70B-AWQ": the AWQ is the 70B's, the 8B runs as released)."""
    state.set("stack_models", stack)
    formats = own_formats(named, original)
    state.values["stack_formats"] = formats
    if first not in formats and state.values.get("quant") in formats.values():
        state.values.pop("quant", None)
        state.values.pop("precision", None)
        state.stated = [slot for slot in state.stated if slot not in ("quant", "precision")]
