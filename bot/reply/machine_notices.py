"""Notices about the machine itself rather than a card: a Mac's unified memory and what its GPU may use of it, and
what a CPU alone needs when no GPU is named."""

from __future__ import annotations

from bot.reply.formatting import count, gb
from bot.reply.i18n import Translator
from bot.reply.model import Answer
from rules.hardware import gpu_share_of_unified_memory


def chip_name(answer: Answer) -> str:
    """The Apple chip read from the question, as Apple writes it ("m3-max" → "M3 Max")."""
    return str(answer.understood.get("apple_chip") or "").replace("-", " ").title()


def apple_notice(answer: Answer) -> str:
    """What a Mac's GPU may use of its unified memory, or that its memory is needed to say."""
    t = Translator(answer.query.lang)
    total = answer.understood.get("memory_gb")
    bandwidth = answer.speed.get("unified_memory_bandwidth_gbps")
    chip = chip_name(answer)
    if not isinstance(total, (int, float)):
        # a speed the asker measured shows the model loaded: timed at the chip's bandwidth, the fit left to them
        return t("apple_silicon_timed_no_memory", chip=chip, bandwidth=f"{bandwidth:,.0f}") if bandwidth \
            else t("apple_silicon_no_memory")
    share = gpu_share_of_unified_memory(float(total))
    key = ("apple_silicon_timed" if bandwidth else "apple_silicon_no_fit" if answer.check is not None
           and not (answer.check.fits or answer.check.tight) and answer.understood.get("apple_chip")
           else "apple_silicon")
    return t(key, share=f"{100 * share:.0f}",
             have=f"{float(total) * share:.1f}".removesuffix(".0"), total=f"{total:g}", chip=chip,
             bandwidth=f"{bandwidth or 0:,.0f}")


def no_gpu_notice(answer: Answer) -> str:
    """A question with no GPU gets what a CPU needs first; the GPU figures below are for comparison."""
    t = Translator(answer.query.lang)
    cpu = answer.cpu_only
    if not cpu:
        return t("no_gpu_plain")
    bus = int(cpu.get("ram_bus_bits") or 64)
    memory = (t("ram_kind", channels=cpu["ram_channels"], kind=cpu["ram_kind"], mts=cpu["ram_mts"]) if bus == 64
              else t("ram_kind_bus", kind=cpu["ram_kind"], mts=cpu["ram_mts"], bits=bus))
    return t("no_gpu_board" if cpu.get("board") else "no_gpu", board=cpu.get("board") or "",
             ram=gb(cpu["ram_gb"]), read=f"{cpu['read_gb_per_token']:.1f}",
             speed=count(cpu["ram_bound_tokens_per_s"] or 0), quant=str(cpu["quant"]).removeprefix("gguf-").upper(),
             memory=memory, bandwidth=f"{cpu['ram_bandwidth_gbps']:g}")


__all__ = ["apple_notice", "chip_name", "no_gpu_notice"]
