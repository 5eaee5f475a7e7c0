"""The network between machines, when the question states it, times the gradient traffic across them."""

from __future__ import annotations

import pytest

from bot.understand.parse import parse
from knowledge.loader import default_knowledge
from tests.bot.reply._answers import ask_json

KB = default_knowledge()


@pytest.mark.parametrize(("text", "per_card"), [
    ("two 8x A800 nodes connected by 25GbE, full fine-tune Qwen2.5-32B", 25 / 8 / 8),
    ("两台8卡A800训练，节点间只有25G以太网", 25 / 8 / 8),
    ("16 H100 over 400Gb InfiniBand per GPU", 400 / 8),
    ("100 Gbps ethernet between the machines, 16x A100", 100 / 8 / 8),
])
def test_the_stated_network_is_read_as_gb_per_s_a_card(text: str, per_card: float) -> None:
    question = parse(text, KB)
    assert question.inter_node_gbps == pytest.approx(per_card, rel=1e-3)
    assert question.memory_gb is None


def test_a_slow_network_between_two_machines_slows_training_and_replaces_the_assumed_fabric() -> None:
    # ZeRO-3 over 16 A800s gathers 64 GB of bf16 weights three times a step and reduce-scatters 64 GB of
    # gradients: over one 25 Gb/s NIC a machine (3.1 GB/s) that traffic, not the compute, sets the pace
    base = "两台8卡A800多机训练Qwen2.5-32B全参，10亿token要多久？"
    slow = ask_json(base + "节点间只有25G以太网")
    assumed = ask_json(base)
    assert slow["speed"]["train_hours"] > 10 * assumed["speed"]["train_hours"]
    assert "机器之间 25 Gb/s" in slow["text"]
    assert not [a for a in slow["assumptions"] if a["field"] == "interconnect"]
    assert [a for a in assumed["assumptions"] if a["field"] == "interconnect"]


def test_a_slow_fabric_says_what_the_traffic_takes_against_the_compute() -> None:
    # audit 30 M-73: "how slow is the all-reduce?" over 100 Gb Ethernet gave a 19× slower rate and no traffic figure
    from tests.bot.reply._answers import ask_json

    reply = ask_json("Training Llama-3.1-70B full fine-tune on 64 H100s over 100 Gb Ethernet — how slow is the "
                     "all-reduce?")
    assert reply["speed"]["step_sync_s"] > reply["speed"]["step_compute_s"]
    assert "data-parallel traffic takes" in reply["text"] and "HYBRID_SHARD" in reply["text"]
    fast = ask_json("Training Llama-3.1-70B full fine-tune on 64 H100s with 400 Gb InfiniBand per GPU")
    assert "data-parallel traffic takes" not in fast["text"]


def test_the_network_is_read_back_as_written() -> None:
    from tests.bot.reply._answers import ask_json

    # audit 31 LOW-158: "10GbE" was read back as 9.997 Gb/s, the per-card figure's rounding showing through
    text = ask_json("tensor parallel across 2 boxes of 4x 4090 over 10GbE for Llama-3.1-70B — viable?")["text"]
    assert "machines linked at 10 Gb/s" in text
    assert "linked at 3,200 Gb/s" in ask_json("llama 3 70b full fine-tune on 16 H100 over 3200G infiniband")["text"]
