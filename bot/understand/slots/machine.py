"""The machine around the cards: its system RAM ("256GB RAM", "加 256G 内存") and the network between machines
("25GbE", "200Gb InfiniBand").

Offloaded weights, optimizer states and experts must fit in that RAM, and a job over several machines is timed
over that network. Both are written as sizes or speeds the card slots would otherwise take for a card's memory or
a count, so the engine-settings slot (bot.understand.slots.runtime) reads and masks them first.
"""

from __future__ import annotations

from bot.understand.slots.base import SlotState, bounded, rx
from rules.constants import GPUS_PER_NODE

_SIZE = r"(?P<num{i}>\d{{1,5}}(?:\.\d+)?)\s*(?P<unit{i}>tib|tb|t|gib|gb|g)(?![a-z0-9])"
_HOST_RAM_SIZE = rx(
    _SIZE.format(i=1) + r"\s*(?:的\s*)?(?:of\s+)?(?:(?:system|cpu|host|main)\s+)?(?:(?:lp)?ddr\d\w*(?:[- ]\d{4})?\s*)?"
    r"(?:ram\b|内存(?!卡)|记忆体|memory\s+(?:on|in)\s+the\s+(?:host|server|machine|box))"
    r"|" + _SIZE.format(i=2) + r"\s*(?:of\s+)?(?:lp)?ddr\d(?![a-z0-9])"
    r"|(?:\bram|(?:system|host|cpu)\s+memory|(?<!显卡)(?<!gpu)内存|记忆体)\s*(?:[:：=]|is|of|有|为|是)?\s*"
    + _SIZE.format(i=3)
)
"""The machine's RAM as written ("256GB RAM", "64GB DDR5", "加 256G 内存", "RAM: 128GB"): what offloaded
weights, optimizer states or experts must fit in beside the cards."""
MAX_HOST_RAM_GB = 65536.0


def parse_host_ram_size(state: SlotState) -> None:
    """`host_ram_gb`: the RAM the machine has, when the text gives its size (read before any card memory)."""
    m = _HOST_RAM_SIZE.search(state.text)
    if m is None:
        return
    which = next(i for i in "123" if m.group(f"num{i}"))
    value = float(m.group(f"num{which}")) * (1024.0 if m.group(f"unit{which}").startswith("t") else 1.0)
    if value > 0:
        state.set("host_ram_gb", bounded(state, "host_ram_gb", value, MAX_HOST_RAM_GB))


_NETWORK = rx(
    r"(?<![\d.])(?P<num>\d{1,4}(?:\.\d)?)\s*(?P<unit>g|gb|gbit|gbps|gb/s|gbit/s|gbe|t|tb|tbit|tbps|tb/s|tbit/s)(?![a-z0-9])"
    r"\s*(?:/s)?\s*(?:的\s*)?"
    r"(?:efa\s+)?(?P<what>ethernet|以太网|乙太网|(?:infiniband|ib|roce|efa)(?![a-z])|网络|网卡|nics?\b|networking|"
    r"interconnect|links?\b)"
    r"|(?<![\d.])(?P<num2>\d{1,4})\s*gbe(?![a-z0-9])"
    r"|(?:ethernet|以太网|乙太网|infiniband|roce|efa|网络|网卡|interconnect)\s*(?:is|of|at|只有|为|是)?\s*(?:only\s+)?"
    r"(?P<num3>\d{1,4}(?:\.\d)?)\s*(?P<unit3>g|gb|gbit|gbps|gb/s|gbe|t|tb|tbit|tbps|tb/s)(?![a-z0-9])"
)
"""The network between the machines as written ("25GbE", "节点间只有25G以太网", "200Gb InfiniBand", "3.2 Tbps EFA"):
one NIC per machine unless said per GPU; a terabit figure is a thousand gigabits (audit 39 LOW-218: "3.2 Tbps EFA
per node" was not read and an assumed fabric sized)."""
_PER_GPU = rx(r"per\s+(?:gpu|card)|each\s+(?:gpu|card)|每卡|每张卡|每个\s*gpu")
MAX_NETWORK_GBIT = 3200.0


def parse_network(state: SlotState) -> None:
    """`inter_node_gbps`: GB/s one-direction per card to the other machines, from the network the text states."""
    m = _NETWORK.search(state.text)
    if m is None:
        return
    gbit = float(m.group("num") or m.group("num2") or m.group("num3"))
    if (m.group("unit") or m.group("unit3") or "g").startswith("t"):
        gbit *= 1000.0
    if gbit <= 0:
        return
    per_gpu = _PER_GPU.search(state.text[m.end(): m.end() + 16]) is not None
    per_card = bounded(state, "inter_node_gbps", gbit, MAX_NETWORK_GBIT) / 8 / (1 if per_gpu else GPUS_PER_NODE)
    state.set("inter_node_gbps", round(per_card, 4))
    state.mask(m.start(), m.end())
