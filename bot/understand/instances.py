"""Cloud instance types named in a question ("g5.12xlarge", "ecs.gn7i-c8g1.2xlarge", "gpu_1x_a10", "ND H100 v5").

People size a job against the machine they rent, and name the machine rather than its cards. The knowledge
base knows which cards each listed instance carries (its price rows, Alibaba's instance families, and the VM
layouts of `instance_types:`, which carry no price), so the question is checked on those cards and on that cloud
instead of the name being passed over, or worse, read as one of the cards it spells ("ND H100 v5" is eight
H100s, not one). Only names the knowledge base lists are read: an instance it does not list is not guessed from
its spelling.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.understand.numbers import number
from bot.understand.slots.base import SlotState
from knowledge.base import KnowledgeBase
from knowledge.schema import compact_vm_name


@dataclass(frozen=True)
class Instance:
    name: str
    """As the knowledge base spells it."""
    gpu_id: str
    count: int | None
    """None for a family ("a g5 instance"): its sizes carry different numbers of cards."""
    cloud: str | None
    """The cloud that lists it; None when clouds that are not regional twins list the same name."""


@dataclass(frozen=True)
class InstanceMention:
    instance: Instance
    start: int
    end: int


@dataclass(frozen=True)
class InstanceIndex:
    by_name: dict[str, Instance]
    families: dict[str, Instance]
    """AWS and Alibaba Cloud family names ("g5", "p4d", "gn7i") whose every listed size carries one card model."""
    by_vm_name: dict[str, Instance]
    """Names of `instance_types:` VM layouts (API names and aliases), folded by `compact_vm_name`."""
    vm_names: re.Pattern[str] | None
    """Finds any of `by_vm_name` in text, with spaces, '_' and '-' between its parts optional: "ND H100 v5",
    "ND-H100-v5" and "nd h100 v5" are one name, and a marketing name has spaces no instance-shaped run holds."""


_NAME_SHAPED = re.compile(r"(?<![\w.-])\w+(?:[.-]\w+)*", re.A)
"""A run of word characters joined by dots and hyphens: every listed instance name has this shape, so each such
run in the text is looked up whole (a dictionary probe each, however many instances are listed); "g4dn.xlarge."
ends before its full stop, "my-g4dn.xlarge-box" is one run and no instance."""


_INDEX_CACHE: dict[int, tuple[KnowledgeBase, InstanceIndex]] = {}


def _home_cloud(clouds: set[str]) -> str | None:
    """One cloud for a name several list: "aws" for g4dn.xlarge, listed by AWS and AWS China alike (a question
    names China when it means it); none when unrelated clouds share the name."""
    bases = {cloud.removesuffix("-china") for cloud in clouds}
    if len(bases) != 1:
        return None
    base = bases.pop()
    return base if base in clouds else min(clouds)


_FAMILY_CLOUDS = frozenset({"aws", "aws-china", "alibaba"})
"""Clouds whose instance names start with a family name people also use alone ("a g5", "gn7i 实例")."""
_FAMILY_OF = re.compile(r"(?:ecs\.)?(?P<family>[a-z]+\d+[a-z]*)[.-]")
_FAMILY_CUE = re.compile(r"instances?\b|实例|机型|规格|\baws\b|\bec2\b|amazon|亚马逊|阿里云|\baliyun\b|\balibaba\b")
"""A family name alone is read only beside one of these: "g5" or "p5" bare could be many things."""


def _families(by_name: dict[str, Instance], kb: KnowledgeBase) -> dict[str, Instance]:
    """Family names whose every listed size carries one card model; with its card count too when every size
    carries the same number ("AWS p4d" is only ever p4d.24xlarge, 8× A100 40GB), else none (a g5 is 1 to 8)."""
    found: dict[str, set[str]] = {}
    counts: dict[str, set[int | None]] = {}
    clouds: dict[str, set[str]] = {}
    for key, instance in by_name.items():
        m = _FAMILY_OF.match(key)
        if m is None or instance.cloud not in _FAMILY_CLOUDS:
            continue
        found.setdefault(m.group("family"), set()).add(instance.gpu_id)
        counts.setdefault(m.group("family"), set()).add(instance.count)
        clouds.setdefault(m.group("family"), set()).add(str(instance.cloud))
    for family in kb.instance_families.values():
        if family.gpu_id in kb.gpus:
            found.setdefault(family.family.lower(), set()).add(family.gpu_id)
            counts.setdefault(family.family.lower(), set()).add(None)  # sizes the family lists, not all priced
            clouds.setdefault(family.family.lower(), set()).add(family.provider)
    return {name: Instance(name, next(iter(gpus)), _only(counts.get(name, {None})), _home_cloud(clouds[name]))
            for name, gpus in found.items() if len(gpus) == 1}


def _only(counts: set[int | None]) -> int | None:
    return next(iter(counts)) if len(counts) == 1 else None


def _vm_names(kb: KnowledgeBase, by_name: dict[str, Instance], conflicting: set[str]) -> dict[str, Instance]:
    """Every name of every VM layout, folded, with its cards; a name two layouts give different cards is read as
    neither (`kb check` reports it), like an instance name two clouds share."""
    found: dict[str, Instance] = {}
    clashing: set[str] = set()
    for layout in kb.instance_types.values():
        if layout.gpu not in kb.gpus or layout.count < 1 or layout.instance.lower() in conflicting:
            continue
        instance = by_name.get(layout.instance.lower()) or Instance(layout.instance, layout.gpu, layout.count,
                                                                    layout.cloud)
        for name in layout.names:
            key = compact_vm_name(name)
            known = found.setdefault(key, instance)
            if (known.gpu_id, known.count) != (instance.gpu_id, instance.count):
                clashing.add(key)
    return {key: instance for key, instance in found.items() if key and key not in clashing}


def _vm_name_pattern(kb: KnowledgeBase, by_vm_name: dict[str, Instance]) -> re.Pattern[str] | None:
    """One pattern for every readable VM name, longest first, with spaces, '_' or '-' optional where the listed
    name has one; bounded like `_NAME_SHAPED`, so "my-a3-highgpu-8g-box" or "nd96isr_h100_v5x" is no VM (a
    trailing full stop still ends the name)."""
    parts = {_spaced(name) for layout in kb.instance_types.values() for name in layout.names
             if compact_vm_name(name) in by_vm_name}
    if not parts:
        return None
    alternatives = "|".join(sorted(parts, key=len, reverse=True))
    return re.compile(r"(?<![\w.-])(?:" + alternatives + r")(?![\w-]|\.\w)", re.A)


def _spaced(name: str) -> str:
    """A name as a pattern: its parts in order, anything of spaces, '_' and '-' (or nothing) between them."""
    return r"[\s_-]*".join(re.escape(part) for part in _SEPARATORS.split(name.lower()) if part)


_SEPARATORS = re.compile(r"[\s_-]+")


def instance_index(kb: KnowledgeBase) -> InstanceIndex:
    """Every instance name the knowledge base lists, with its cards; built once per knowledge base."""
    cached = _INDEX_CACHE.get(id(kb))
    if cached is not None and cached[0] is kb:
        return cached[1]
    cards: dict[str, tuple[str, str, int]] = {}
    clouds: dict[str, set[str]] = {}
    conflicting: set[str] = set()
    listed = [(price.instance, price.gpu, price.count, price.cloud) for price in kb.prices.values()]
    listed += [(example.instance_type, family.gpu_id, example.gpus, family.provider)
               for family in kb.instance_families.values() if family.gpu_id
               for example in family.example_instance_types if example.gpus]
    listed += [(layout.instance, layout.gpu, layout.count, layout.cloud) for layout in kb.instance_types.values()]
    for name, gpu_id, count, cloud in listed:
        key = name.lower()
        if gpu_id not in kb.gpus or count < 1:
            continue
        if key in cards and cards[key][1:] != (gpu_id, count):
            conflicting.add(key)  # two clouds use one name for different machines: not read as either
        cards.setdefault(key, (name, gpu_id, count))
        clouds.setdefault(key, set()).add(cloud)
    by_name = {key: Instance(name, gpu_id, count, _home_cloud(clouds[key]))
               for key, (name, gpu_id, count) in cards.items()
               if key not in conflicting and _NAME_SHAPED.fullmatch(key)}
    by_vm_name = _vm_names(kb, by_name, conflicting)
    index = InstanceIndex(by_name, _families(by_name, kb), by_vm_name, _vm_name_pattern(kb, by_vm_name))
    if len(_INDEX_CACHE) > 8:
        _INDEX_CACHE.clear()
    _INDEX_CACHE[id(kb)] = (kb, index)
    return index


def find_instance(folded: str, kb: KnowledgeBase, cue_text: str | None = None) -> InstanceMention | None:
    """The first instance type named in `folded` (lower-cased text), if any. A family name alone counts beside a
    cloud or instance word in `cue_text` (the whole question, when `folded` is the part after a first instance)."""
    index = instance_index(kb)
    vm = _first_vm_name(folded, index)
    family: InstanceMention | None = None
    for m in _NAME_SHAPED.finditer(folded):
        if vm is not None and vm.start <= m.start():
            return vm  # a VM named first ("ND H100 v5 or a p5.48xlarge") is the one meant
        instance = index.by_name.get(m.group(0))
        if instance is not None:
            return InstanceMention(instance, m.start(), m.end())  # a full name wins over any family
        # "ecs.gn8is": Alibaba's family written with its product prefix and no size (audit 39 HIGH-123: dropped)
        name = m.group(0).removeprefix("ecs.") if m.group(0).startswith("ecs.") else m.group(0)
        if family is None and name in index.families:
            family = InstanceMention(index.families[name], m.start(), m.end())
            if name != m.group(0):
                cue_text = cue_text or folded  # the "ecs." prefix names the cloud's instances itself
                return vm if vm is not None and vm.start < m.start() else family
    if vm is not None:
        return vm
    return family if family is not None and _FAMILY_CUE.search(cue_text or folded) else None


def _first_vm_name(folded: str, index: InstanceIndex) -> InstanceMention | None:
    """The first VM layout name in `folded`, spelled with or without its spaces, '_' and '-'."""
    if index.vm_names is None:
        return None
    m = index.vm_names.search(folded)
    if m is None:
        return None
    instance = index.by_vm_name.get(compact_vm_name(m.group(0)))
    return InstanceMention(instance, m.start(), m.end()) if instance is not None else None


ON_PREMISES = frozenset({"nvidia"})
"""Layouts of systems bought, not rented (NVIDIA's DGX): no cloud is read from them."""
_MACHINES_BEFORE = re.compile(
    r"(?<![A-Za-z0-9_.])(?P<num>\d{1,3}|one|single|two|three|four|five|six|eight|ten|一|两|兩|二|三|四|五|六|八|十)\s*"
    r"(?:台|套|个|部|x|×|\*)?\s*$")
_MACHINE_WORD_AFTER = re.compile(r"\s*(?:boxes|nodes|servers|machines|systems|instances|vms)\b")


def machines_named(folded: str, found: InstanceMention) -> tuple[int, int, int] | None:
    """(machines, start, end of the count) when a count of machines goes with the instance named ("兩台 DGX H100",
    "two DGX H100 boxes", "2x p4d.24xlarge", "一台 ND H100 v5"): the cards are that many times the instance's;
    None otherwise."""
    before = _MACHINES_BEFORE.search(folded[max(0, found.start - 12): found.start])
    if before is None:
        return None
    word = before.group("num")
    machines = 1 if word in ("one", "single", "一") else int(number(word) or 0)
    offset = max(0, found.start - 12)
    if machines < 1:
        return None
    # "一台 ND H100 v5", "one p5.48xlarge": one machine of the instance's cards, not one card (audit 28 HIGH 46)
    return machines, offset + before.start(), offset + before.end()


_COMPARED = re.compile(r"\b(?:vs\.?|versus|or|against|compared\s+(?:to|with))\b|对比|比较|还是|或者|和|跟|与|/")


def compared_instance(folded: str, first: InstanceMention, kb: KnowledgeBase) -> InstanceMention | None:
    """A second instance type set against the first ("g6.xlarge vs g5.xlarge", "p4d 还是 p5"), with a card of its
    own, so the two are compared rather than the second dropped (audit 15 B-M10); None otherwise."""
    rest = folded[first.end:]
    found = find_instance(rest, kb, folded)  # "在 AWS 上用 p4d 还是 p5": the cloud is named before the first
    if found is None or found.instance.gpu_id == first.instance.gpu_id:
        return None
    if _COMPARED.search(rest[: found.start]) is None:
        return None
    return InstanceMention(found.instance, first.end + found.start, first.end + found.end)


_NODES = re.compile(r"(?<![\w.])(?P<n>\d{1,3}|two|three|four|eight|[两兩二三四八])\s*"
                    r"(?:nodes?|machines?|servers?|boxes|hosts|"
                    r"台(?:机器|機器|服务器|伺服器|节点|節點)|个节点|個節點|台)(?![a-z])", re.I)


def parse_machines(state: SlotState) -> None:
    """Machines named where no card is ("what if we use 2 nodes?", "用两台机器呢"): the thread's cards a machine
    times them, so the count read before is no card count."""
    nodes = _NODES.search(state.text)
    if nodes is None:
        return
    state.values.pop("gpu_count", None)
    state.stated = [slot for slot in state.stated if slot != "gpu_count"]
    state.set("machines", int(number(nodes.group("n")) or 1))
    state.mask(nodes.start(), nodes.end())
