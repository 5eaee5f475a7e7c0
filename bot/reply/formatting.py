"""Numbers and names as the reply prints them: GiB, counts, parameter sizes, card and model names."""

from __future__ import annotations

from bot.reply.capacity import memory_of_card_id
from knowledge.base import KnowledgeBase


def gb(value: float | None) -> str:
    if value is None:
        return "?"
    if abs(value) >= 100:
        return f"{value:,.0f}"
    return f"{value:.1f}"


def count(value: float) -> str:
    if value >= 1000:
        return f"{value:,.0f}"
    if value >= 10:
        return f"{value:.0f}"
    return f"{value:.1f}"


def params(value: float) -> str:
    return f"{value:g}" if value >= 1 else f"{value:.3g}"


def per_minute(seconds_each: float) -> str:
    """"2.1": how many a minute, from the seconds each takes (images a minute, the rate people ask in)."""
    return f"{60 / seconds_each:,.1f}".removesuffix(".0") if seconds_each > 0 else "0"


def per_hour(seconds_each: float) -> str:
    """"643": how many an hour, from the seconds each takes ("一小时能出多少张")."""
    return count(3600 / seconds_each) if seconds_each > 0 else "0"


def rounded_hours(hours: float) -> float:
    """A run's hours as the reply keeps them: a tenth of an hour from one hour, three decimals below. Every job total
    is billed on this same figure, so a total and the hours beside it agree."""
    return round(hours, 1 if hours >= 1 else 3)


def hours_figure(hours: float) -> str:
    """Hours as a reader takes them in: a tenth of an hour below 100, whole hours from there ("≈ 53,749,570 h",
    not "≈ 53,749,570.2 h")."""
    return f"{hours:,.0f}" if hours >= 100 else f"{hours:,.1f}"


PRETRAINING_CORPUS_TOKENS = 36e12
"""The largest pre-training corpus a model maker has published: Qwen3's ≈ 36 trillion tokens (Qwen3 Technical
Report, arXiv:2505.09388, §1 and §3). A token count asked beyond it is a typo or a thought experiment: the reply
still sizes it, and says so."""


PUBLISHED_BATCH_TOKENS = 16e6
"""The largest batch a published pre-training run stepped on: Llama 3 405B's 16M tokens (The Llama 3 Herd of
Models, arXiv:2407.21783, §3.4.1; DeepSeek-V3's was 15.36M). Data parallel over more cards than that batch allows
takes steps no run has learnt well from, and adding cards then stops shortening the run in useful steps."""


def tokens_per_work_unit(task: str | None) -> float:
    """The tokens a price per unit of work is quoted for: a million output tokens when serving, a billion training
    tokens when training."""
    return 1e6 if task == "inference" else 1e9


def billed_hours(hours: float) -> str:
    """Hours as a bill counts them: whole hours from ten, two significant figures below ("4.8", "0.35", "29")."""
    return f"{hours:,.0f}" if hours >= 10 else f"{hours:.2g}"


def gpu_name(kb: KnowledgeBase, gpu_id: str | None) -> str:
    if gpu_id is None:
        return "?"
    memory = memory_of_card_id(gpu_id)
    if memory is not None:
        return f"Mac {memory[0]:g} GB" if memory[1] else f"{memory[0]:g} GB GPU"
    gpu = kb.gpus.get(gpu_id)
    return gpu.name.removeprefix("NVIDIA ") if gpu else gpu_id


def model_name_of(kb: KnowledgeBase, model_id: str) -> str:
    model = kb.models.get(model_id)
    return model.name if model else model_id


_FORMAT_LABELS = {"awq": "AWQ (int4)", "gptq": "GPTQ (int4)", "nf4": "NF4 (bitsandbytes 4-bit)",
                  "gguf": "GGUF Q4_K_M", "q4_k_m": "GGUF Q4_K_M", "int4-experts-g32": "INT4 experts (group 32)"}


def format_label(name: str) -> str:
    """A weight format as people write it, with its bits where the name alone does not say them."""
    return _FORMAT_LABELS.get(name, name.upper())
