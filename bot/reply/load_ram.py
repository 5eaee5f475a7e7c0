"""The system RAM loading a model takes, asked for ("how much system RAM to load Llama-3.1-70B with transformers?").

With a device map transformers reads each safetensors shard straight to the cards (`low_cpu_mem_usage`, implied by
`device_map`), so RAM holds about one shard at a time, and `save_pretrained` writes shards of at most 5 GB by
default (`max_shard_size="5GB"`); without one, `from_pretrained` builds the whole model in RAM first and a later
`.to("cuda")` moves it. The line gives both, from the weights' own size (audit 30 M-74: GPU picks alone).
"""

from __future__ import annotations

from typing import Any

from bot.reply.formatting import gb
from bot.reply.i18n import Translator
from bot.reply.model import Answer
from bot.understand.question import Question
from rules.precision import weight_bytes
from rules.types import Workload

GIB = 1024**3
DEFAULT_SHARD_GB = 5.0
"""transformers' save_pretrained default max_shard_size: the largest file a device-mapped load holds in RAM."""


def load_ram_figure(question: Question, workload: Workload) -> dict[str, Any] | None:
    """{weights_gb, fp32_gb, shard_gb} when the system RAM to load the model is asked; None otherwise."""
    if not question.asks_load_ram:
        return None
    weights = weight_bytes(workload.model, workload.precision, workload.quant)[0] / GIB
    return {"weights_gb": round(weights, 1), "fp32_gb": round(workload.model.params_b * 1e9 * 4 / GIB, 1),
            "shard_gb": DEFAULT_SHARD_GB}


def load_ram_line(answer: Answer, t: Translator) -> str:
    figure = answer.load_ram
    if not figure:
        return ""
    return t("load_ram", weights=gb(figure["weights_gb"]), fp32=gb(figure["fp32_gb"]), shard=f"{figure['shard_gb']:g}",
             precision=answer.query.precision or "bf16")


__all__ = ["load_ram_figure", "load_ram_line"]
