"""Images a second a CLIP-like vision tower embeds (audit 30 M-70: "embed 100M images with CLIP ViT-L/14 on an A10,
how long?" gave no rate and no time)."""

from __future__ import annotations

import pytest

from knowledge.loader import default_knowledge
from rules.speed_media import images_embedded_per_s, vit_flops_per_image
from tests.bot.reply._answers import ask_json

KB = default_knowledge()


def test_vit_l_14_flops_by_hand() -> None:
    # 257 tokens (16 × 16 patches + the class token), h 1024, MLP 4096, 24 layers:
    # 2 × 257 × (4 × 1024² + 2 × 1024 × 4096) + 4 × 257² × 1024 = 6.737e9 a layer → 1.617e11 an image
    assert vit_flops_per_image(KB.models["clip-vit-l-14"]) == pytest.approx(1.617e11, rel=0.002)


def test_an_a10_embeds_a_few_hundred_a_second() -> None:
    rate = images_embedded_per_s(KB.models["clip-vit-l-14"], KB.gpus["a10"], "fp16")
    assert rate is not None and 300 < rate < 450  # 125 TFLOPS × 0.5 / 1.62e11 ≈ 386


def test_the_job_is_timed_and_billed() -> None:
    reply = ask_json("How long to embed 100M images with CLIP ViT-L/14 on an A10?")
    assert reply["speed"]["images_embedded"] == 1e8
    assert reply["speed"]["job_hours"] == pytest.approx(1e8 / reply["speed"]["images_embedded_per_s"] / 3600, rel=0.02)
    assert ask_json("用 CLIP ViT-L/14 给 1 亿张图片提取向量，A10 要多久？")["speed"]["images_embedded"] == 1e8
