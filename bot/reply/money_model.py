"""The money parts of an `Answer`: the cost of the configuration, a budget compared with it, a card's known
prices and the serving plan whose replicas are billed. Split from bot/reply/model.py, which re-uses them."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class CostOut(BaseModel):
    """Money for the configuration the reply recommends (null where unknown), with the price's origin."""

    model_config = ConfigDict(extra="forbid")

    currency: str | None = None
    per_hour: float | None = None
    hours: float | None = None
    total: float | None = None
    per_month: float | None = None
    per_million_tokens: float | None = None
    """Serving: per million generated tokens at the sized aggregate throughput."""
    tokens_per_s: float | None = None
    """Serving: the generation rate `per_million_tokens` is priced at (all sequences together)."""
    rate_capped: bool = False
    """That rate is timed at a capped batch on a card with no published compute figure: a lower bound."""
    per_billion_tokens: float | None = None
    """Training: per billion trained tokens at the sized training throughput."""
    trained_tokens: float | None = None
    """Training for hours the question states, with no token count: the tokens those hours train at that
    throughput ("10,000 H100s for a week: how many tokens?")."""
    cloud: str | None = None
    region: str | None = None
    instance: str | None = None
    instances: int | None = None
    instance_gpus: int | None = None
    """The GPUs the instances hold, when more than `count` (the bill is for all of them)."""
    gpu: str | None = None
    count: int | None = None
    price_date: str | None = None
    source: list[str] = Field(default_factory=list)
    authority: str | None = None
    fx_rate: str | None = None
    """`BASE/QUOTE=RATE@DATE` when the figures were converted with the operator's rate."""
    original_currency: str | None = None
    subscription_per_month: float | None = None
    """The same instances on a one-month subscription (包月), when the price's source quotes one, in `currency`."""
    subscription_promotion: bool = False
    """That subscription month is a promotional quote."""
    subscription_date: str | None = None
    """When the month comes from another dated source than the hourly price (its date); None: the same source."""
    by_subscription: bool = False
    """A subscription was asked for and is quoted: `per_month` and `total` are subscription months (a month
    bought whole), not pay-as-you-go hours."""
    whole_instance_hours: float | None = None
    """Training on an instance billed whole with more cards than the job uses: the hours its tokens take
    data-parallel over all of them, and their bill (`whole_instance_total`)."""
    whole_instance_total: float | None = None
    gpu_only: bool = False
    """The price is the GPU's alone (GCP bills the VM it attaches to on top, at a price not known here): every
    figure is a floor, not the bill."""


class BudgetOut(BaseModel):
    """The question's budget against what the priced set-up costs over the same period."""

    model_config = ConfigDict(extra="forbid")

    amount: float
    currency: str
    period: Literal["hour", "day", "month", "total", "purchase"]
    cost: float | None = None
    """The set-up's cost over `period`, in `currency`; None when it cannot be compared."""
    within: bool | None = None
    reason: Literal["currency", "duration", "price", "purchase", "host"] | None = None
    """Why it was not compared."""
    by_subscription: bool = False
    """A monthly budget compared with the subscription month (包月) the instance is quoted at, below 730
    pay-as-you-go hours."""
    spend: float | None = None
    """Not compared for want of an exchange rate: the set-up's cost over `period` in the price's own currency,
    from which the reply gives the rate at which it meets the budget."""
    hours_bought: float | None = None
    """A budget for the whole job when the job's length is not known: the hours of the priced set-up it pays."""
    tokens_bought: float | None = None
    """With those hours: the tokens they train (a training job) or generate (serving) at the sized throughput."""
    rent_stated: bool = False
    """A purchase weighed against the hourly rent the question states, not the catalogue's."""
    rent_per_hour: float | None = None
    """That rent an hour for the set-up (each card's times the cards when it was stated per card)."""
    rent_currency: str | None = None
    use_hours: float | None = None
    """A purchase weighed: the hours of use stated, over which `cost` is the rent."""
    power_kw: float | None = None
    """A purchase weighed against renting: what the cards alone draw at their rated board power (TDP), in kW."""
    energy_mwh: float | None = None
    """That draw over the hours of use stated, in MWh: the electricity a bought machine pays for on top."""
    uncompared: list[dict[str, Any]] = Field(default_factory=list)
    """When over budget: set-ups that hold the job priced in another currency with no exchange rate set, which
    may be within it, {gpu, count, per_hour, currency}."""


class PriceOut(BaseModel):
    """One known instance price, for "H100 price per hour"."""

    model_config = ConfigDict(extra="forbid")

    cloud: str
    instance: str
    gpu: str
    count: int
    price_per_hour: float
    currency: str
    region: str
    date: str | None = None
    source: list[str] = Field(default_factory=list)
    spot_price_per_hour: float | None = None


class ServingPlanOut(BaseModel):
    """Replicas × GPUs per replica that meet the serving targets, and which target sets the replica count."""

    model_config = ConfigDict(extra="forbid")

    gpu: str
    gpus_per_replica: int
    replicas: int
    sequences_per_replica: int
    concurrent_needed: int
    aggregate_tokens_per_s: float | None = None
    decode_tokens_per_s: float | None = None
    """Per user, at the replica's load."""
    ttft_s: float | None = None
    binding: str
    """memory | speed | ttft: the target that limits the plan (ttft: not met by adding replicas); sequence_cap: the
    engine's batch (max_num_seqs) rather than its KV cache; replica_cap: more users than the most replicas planned
    hold (not met); full_load: no target, one replica at the most sequences it holds (a price per token asked);
    concurrency: the same, asked as how many users it serves at once; replicas: no target, but more users than one
    node serves, so in-node replicas rather than one copy pipelined across nodes; throughput: an encoder's
    requests a second (no decode, no KV cache)."""
    met: bool = True
    targets: dict[str, float] = Field(default_factory=dict)
    per_hour: float | None = None
    currency: str | None = None
