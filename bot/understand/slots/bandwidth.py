"""The memory bandwidth written beside a card the knowledge base does not know ("Moore Threads MTT S80 16GB,
448 GB/s", "某国产卡 32G 显存 带宽 1.2TB/s").

Such a card is sized as a generic card of the memory stated (bot.reply.capacity.generic_gpu). Its memory bandwidth
is what one sequence's decode is bound by, so with it stated the reply can time decode (not prefill or training,
which need the card's compute); without it the speed stays unknown. Bandwidths of other things are left alone:
host RAM ("DDR5 89.6 GB/s"), links (NVLink, PCIe, InfiniBand: the network slot masks those it reads) and disks.
"""

from __future__ import annotations

from bot.understand.slots.base import SlotState, rx

_BANDWIDTH = rx(r"(?<![\d.])(?P<num>\d{1,5}(?:\.\d+)?)\s*(?P<unit>gb|tb)\s*(?:/\s*s|/\s*秒|ps)(?![a-z])")
"""A rate in bytes ("448 GB/s", "1.2TB/s", "936GBps"); "Gbps" folds to the same text, so a number followed by a
network word is the network slot's and is masked before this runs."""
_NOT_THE_CARD = rx(r"ddr\d|\bram\b|内存|記憶體|记忆体|nvlink|pcie|infiniband|\bib\b|roce|ethernet|以太网|网络|网卡|"
                   r"\bnic\b|interconnect|\blinks?\b|互联|nvme|ssd|disk|硬盘|storage|network|upload|download")
"""Words that make a rate near them some other part's than the card's memory."""
_NEAR = 28
"""Characters either side of the rate searched for those words (one clause)."""
MIN_CARD_BANDWIDTH_GBPS = 10.0
"""Below this no accelerator's memory runs (an LPDDR4 Jetson Nano has 25.6 GB/s)."""
MAX_CARD_BANDWIDTH_GBPS = 20_000.0
"""Above any card's memory (a B300 has 8 TB/s)."""


def parse_card_bandwidth(state: SlotState) -> None:
    """`card_bandwidth_gbps`: the card's memory bandwidth in GB/s, when the text states one (call before the memory
    slot, so "448 GB/s" is not read as 448 GB of memory)."""
    for m in _BANDWIDTH.finditer(state.text):
        near = state.text[max(0, m.start() - _NEAR): m.end() + _NEAR]
        if _NOT_THE_CARD.search(near):
            continue
        value = float(m.group("num")) * (1000.0 if m.group("unit") == "tb" else 1.0)
        state.mask(m.start(), m.end())
        if MIN_CARD_BANDWIDTH_GBPS <= value <= MAX_CARD_BANDWIDTH_GBPS:
            state.set("card_bandwidth_gbps", value)
        return
