"""The in-memory knowledge base: validated entries by id, plus the fuzzy indexes over their names."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from knowledge.engines import EngineProfile
from knowledge.errors import UnknownEntryError
from knowledge.lookup import NameIndex
from knowledge.prices import Price
from knowledge.schema import GPU, AppleChip, CloudProduct, FaqEntry, InstanceFamily, InstanceLayout, Model


@dataclass(frozen=True)
class KnowledgeBase:
    models: dict[str, Model]
    gpus: dict[str, GPU]
    instance_families: dict[str, InstanceFamily]
    products: dict[str, CloudProduct]
    faq: dict[str, FaqEntry]
    prices: dict[str, Price] = field(default_factory=dict)
    """`Price.key` (cloud/instance/region) → the row; a user file's row replaces the shipped one."""
    origins: dict[tuple[str, str], str] = field(default_factory=dict)
    """(section, id) → the file the entry was loaded from, so checks can name it."""
    engines: dict[str, EngineProfile] = field(default_factory=dict)
    """Runtime profiles (knowledge/data/engines.yaml): how each engine holds a job in memory."""
    apple_chips: dict[str, AppleChip] = field(default_factory=dict)
    """Apple silicon chips (knowledge/data/apple_silicon.yaml): their unified memory's bandwidth."""
    instance_types: dict[str, InstanceLayout] = field(default_factory=dict)
    """`InstanceLayout.key` (cloud/instance) → the cards of a cloud VM type, listed apart from prices
    (knowledge/data/instance_types.yaml): what a question naming the VM is checked on when no price row says."""

    def model(self, model_id: str) -> Model:
        try:
            return self.models[model_id]
        except KeyError:
            raise UnknownEntryError("model", model_id) from None

    def gpu(self, gpu_id: str) -> GPU:
        try:
            return self.gpus[gpu_id]
        except KeyError:
            raise UnknownEntryError("gpu", gpu_id) from None

    def instances_for(self, gpu_id: str) -> list[InstanceFamily]:
        """Cloud instance families whose cards are `gpu_id`, as listed in the cloud files."""
        return [family for family in self.instance_families.values() if family.gpu_id == gpu_id]

    def rented_on(self, cloud: str) -> frozenset[str]:
        """The cards the knowledge base knows `cloud` to rent: those of its instance families, its VM layouts and
        its price rows (empty when it holds nothing of that cloud's catalogue)."""
        return frozenset({f.gpu_id for f in self.instance_families.values() if f.provider == cloud and f.gpu_id}
                         | {layout.gpu for layout in self.instance_types.values() if layout.cloud == cloud}
                         | {row.gpu for row in self.prices.values() if row.cloud == cloud})

    def instance_ram_gib(self, instance: str) -> float | None:
        """The host RAM of an instance type by its name: its price rows' or its family's listing; None when neither
        says."""
        rows = [row.ram_gib for row in self.prices.values() if row.instance == instance and row.ram_gib]
        listed = [it.memory_gib for family in self.instance_families.values()
                  for it in family.example_instance_types if it.instance_type == instance and it.memory_gib]
        return next(iter(rows + listed), None)

    @cached_property
    def model_index(self) -> NameIndex:
        return NameIndex.for_models(self.models.values())

    @cached_property
    def gpu_index(self) -> NameIndex:
        return NameIndex.for_gpus(self.gpus.values())
