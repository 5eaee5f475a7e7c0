"""Audit 34's MEDIUM fixes, on the audit's own questions."""

from __future__ import annotations

import pytest

from bot.reply.model import REFERENCE_RAM, SERVER_RAM, HostMemory, host_memory_of
from tests.bot.reply._answers import ask_json


def test_more_ram_than_a_desktop_takes_is_a_server_board() -> None:
    # M-124: 512 GB of RAM was read through two desktop channels (76.8 GB/s), capping DeepSeek-V3 at 6.3 tok/s
    assert host_memory_of(None, 512) == SERVER_RAM
    assert SERVER_RAM.bandwidth_gbps == 8 * 4800 * 8 / 1000  # 307.2 GB/s
    assert host_memory_of(None, 128) is None  # a desktop's: the reference dual channel applies
    stated = host_memory_of((12, "ddr5", 4800), 768)
    assert stated == HostMemory(channels=12, kind="DDR5", mts=4800)  # what the question says wins
    text = ask_json("DeepSeek-V3 Q4_K_M 用 llama.cpp，一张 4090 加 512G 内存，能跑吗，每秒多少 token？")["text"]
    assert "8 通道 DDR5-4800（峰值 307.2 GB/s）" in text
    desk = ask_json("DeepSeek-V3 Q4_K_M 用 llama.cpp，一张 4090 加 192G 内存，能跑吗")["text"]
    assert f"{REFERENCE_RAM.channels} 通道 DDR5-4800" in desk


def test_models_compared_each_in_their_own_release_format() -> None:
    # M-125: Qwen3-30B-A3B was compared in gpt-oss-20b's MXFP4 and "fit" an L4 at 18.6 GiB with no format shown;
    # in bf16 it needs 30.5e9 × 2 bytes ≈ 57 GiB
    compared = ask_json("gpt-oss-20b 跟 Qwen3-30B-A3B 在一張 L4 上，哪個生成速度比較快？")["model_compare"]
    rows = {r["model"]: r for r in compared}
    qwen = rows["qwen3-30b-a3b"]
    assert qwen["fits"] is False and qwen["per_gpu_gb"] > 55
    assert qwen["fix"] is not None and qwen["fix"]["precision"] == "int4"
    assert rows["gpt-oss-20b"]["fits"] is True


def test_people_served_are_said_to_be_counted_at_once() -> None:
    # M-126: "给 200 人用" was sized as 200 requests at once with no assumption line
    people = ask_json("每月预算 2 万元人民币，在阿里云上部署 Qwen2.5-32B 给 200 人用，够吗？")
    assert any(a["reason"] == "people-at-once" and a["value"] == 200 for a in people["assumptions"])
    concurrent = ask_json("Qwen2.5-32B with 200 concurrent users on H100")
    assert not any(a["reason"] == "people-at-once" for a in concurrent["assumptions"])


def test_a_pasted_config_without_its_family_is_read_to_the_count_stated() -> None:
    # M-123: Qwen3-14B's shape with no hidden_act or tie_word_embeddings. By hand: attention 5120×5120×2 +
    # 5120×1024×2 = 62.9M, gated MLP 3 × 5120 × 17408 = 267.4M, × 40 layers = 13.21B, plus an untied 151936 × 5120
    # embedding and head = 1.56B: 14.77B (a two-matrix MLP and a tied head had given 10.43B)
    text = ('config.json: {"hidden_size": 5120, "num_hidden_layers": 40, "num_attention_heads": 40, '
            '"num_key_value_heads": 8, "head_dim": 128, "intermediate_size": 17408, "vocab_size": 151936} — 14.8B '
            'params. What GPU for this in bf16 with 32k context and 8 users?')
    answer = ask_json(text)
    assert answer["estimate"]["breakdown"]["weights"] == pytest.approx(14.77e9 * 2 / 2**30, rel=0.01)
