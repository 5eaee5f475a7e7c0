"""A Mac named as the machine ("M2 Max 64GB", "Mac Studio M2 Ultra 192GB", "macbook pro m4 max 128gb", "苹果M3 Max").

Apple silicon has no card: the GPU shares the machine's unified memory with macOS, which lets it use only part of
it. The reply checks the job against that part (bot.reply.capacity.unified_memory_gpu) instead of treating the
whole memory as a card's; with the chip named ("M3 Max") it also times llama.cpp's decode at that chip's memory
bandwidth (knowledge/data/apple_silicon.yaml), and otherwise says that the Mac's speed is not modelled.
"""

from __future__ import annotations

from bot.understand.slots.base import SlotState, rx

APPLE_SILICON = rx(
    r"\bmac\s?(?:book|studio|mini|pro)\b|\bmacbook\b|\bimac\b|\bapple\s+silicon\b|\bapple\s+m[1-5]\b"
    r"|\bm[1-5]\s?(?:pro|max|ultra)\b|苹果\s?(?:电脑|芯片|m[1-5])|\bmac\b(?!\s?address)"
)


_CHIP = rx(r"(?<![\w-])m(?P<gen>[1-5])(?:\s?(?P<tier>pro|max|ultra))?(?![\w-])")
"""The chip ("M3 Max", "m2 ultra", "M4"): its memory bandwidth sets the Mac's decode speed."""


def parse_apple_silicon(state: SlotState) -> None:
    """Marks the question as about a Mac (call before the memory slot, which then reads its unified memory), and
    reads its chip when named."""
    if APPLE_SILICON.search(state.text):
        state.set("unified_memory", True)
        chip = _CHIP.search(state.text)
        if chip is not None:
            tier = chip.group("tier")
            state.set("apple_chip", f"m{chip.group('gen')}" + (f"-{tier}" if tier else ""))


_MAC_MEMORY = rx(r"(?<![\w-])m[1-5](?:\s?(?:pro|max|ultra))?\s*(?:with\s+|,\s*)?(?P<a>\d{2,3})\s*gb"
                 r"|(?P<b>\d{2,3})\s*gb\s+(?:mac\s?(?:book|studio|mini)?|m[1-5])"
                 r"|\bmac\s?(?:book(?:\s?(?:pro|air))?|studio|mini|pro)\s*(?:with\s+|,\s*)?(?P<c>\d{2,3})\s*gb")
"""The unified memory written with the chip or the machine ("M4 Pro 64GB", "64GB Mac Studio", "M4 Pro Mac mini
64GB": audit 29 LOW-118)."""


def parse_mac_beside_card(state: SlotState) -> None:
    """"Mac mini M4 Pro 64GB vs RTX 5090": a Mac named beside a card the question is sized for. The card stays the
    machine checked; the Mac (its chip and, when written, its memory) is set aside for a line of its own, so a
    comparison does not drop it."""
    if not APPLE_SILICON.search(state.text):
        return
    chip = _CHIP.search(state.text)
    if chip is None:
        return
    tier = chip.group("tier")
    memory = _MAC_MEMORY.search(state.text)
    gb = float(memory.group("a") or memory.group("b") or memory.group("c")) if memory is not None else None
    state.set("mac_beside", (f"m{chip.group('gen')}" + (f"-{tier}" if tier else ""), gb))
