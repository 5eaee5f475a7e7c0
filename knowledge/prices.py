"""Dated GPU rental prices: the `prices:` section of a knowledge file.

A row is one cloud instance type in one region, at a list price as of a date, with the place it was read
from. The shipped rows (knowledge/data/prices.yaml) keep, per (cloud, instance), the cheapest region the
source gives and the median over the regions it lists. An operator's own file in `$GPU_ADVISOR_KB`
(negotiated rates, their region, their currency) replaces a shipped row with the same (cloud, instance,
region) and adds the others: the loader merges on `Price.key`.

Validation is split on purpose: the schema rejects what cannot be a price (wrong types, unknown keys),
`kb check` reports what is well-formed but wrong (a non-positive price, a currency the advisor does not
know, a GPU id the base does not hold, a count below one, a malformed date) with the file and entry named.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import Field

from knowledge.schema import Entry

if TYPE_CHECKING:
    from knowledge.base import KnowledgeBase

KNOWN_CURRENCIES = ("USD", "CNY")
"""Currencies the shipped sources quote in; `kb check` flags any other so a typo ('RMB', 'usd') is caught."""

DATE_PATTERN = r"^\d{4}-\d{2}-\d{2}$"


def price_key(cloud: str, instance: str, region: str) -> str:
    """The identity a user row must repeat to replace a shipped row."""
    return f"{cloud}/{instance}/{region}"


class Price(Entry):
    """The list price of one instance type in one region, as of `date`.

    `date` is None when the source does not say when the price was read (the SkyPilot catalog rows: their
    commit is in `source`); a date is never invented. `median_price_per_hour` and `regions` describe the
    spread over the regions the source lists, when it lists several. `host_billed_separately` marks a
    GPU-only price (GCP accelerator rows): the VM that holds the card costs extra, so such a row is not the
    price of a runnable instance.
    """

    cloud: str = Field(min_length=1)
    instance: str = Field(min_length=1)
    gpu: str = Field(min_length=1, description="Knowledge GPU id.")
    count: int = Field(description="GPUs in one instance.")
    vcpu: int | None = None
    ram_gib: float | None = None
    price_per_hour: float = Field(description="On-demand price of one instance for one hour.")
    spot_price_per_hour: float | None = None
    currency: str
    region: str = Field(min_length=1)
    median_price_per_hour: float | None = None
    regions: int | None = Field(default=None, description="How many regions the source prices this instance in.")
    billing_mode: str = "on-demand"
    date: str | None = None
    authority: str = Field(min_length=1, description="Who published the figure and how directly it was copied.")
    host_billed_separately: bool = False
    subscription_per_month: float | None = Field(default=None, gt=0, description=(
        "One instance for one subscription month (包月), from the same source and date as the hourly price."))
    subscription_promotion: bool = Field(default=False, description="That month is a promotional quote.")

    @property
    def key(self) -> str:
        return price_key(self.cloud, self.instance, self.region)

    @property
    def price_per_gpu_hour(self) -> float:
        return self.price_per_hour / self.count


def list_prices(kb: KnowledgeBase, gpu: str | None = None, cloud: str | None = None) -> list[Price]:
    """Rows for `gpu` and/or `cloud`, by GPU, then currency, then price per GPU-hour.

    `gpu` is a knowledge id or a name the GPU index resolves confidently ("H100", "A10"); a name it cannot
    resolve matches nothing rather than something close. Rows in different currencies are grouped, not
    ranked against each other: without an exchange rate they have no order.
    """
    gpu_id = None
    if gpu is not None:
        found = kb.gpu_index.lookup(gpu, limit=0)
        gpu_id = gpu if gpu in kb.gpus else (found.best.id if found.confident and found.best else None)
        if gpu_id is None:
            return []
    chosen = [
        p
        for p in kb.prices.values()
        if (gpu_id is None or p.gpu == gpu_id) and (cloud is None or p.cloud.lower() == cloud.lower())
    ]
    return sorted(chosen, key=lambda p: (p.gpu, p.currency, p.price_per_gpu_hour, p.cloud, p.instance, p.region))
