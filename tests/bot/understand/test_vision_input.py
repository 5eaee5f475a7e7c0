"""Images a vision-language request carries, read before the counts and the context take their numbers."""

from __future__ import annotations

import pytest

from bot.understand.parse import parse
from knowledge.loader import default_knowledge

KB = default_knowledge()


@pytest.mark.parametrize(("text", "images", "side", "dims", "gpu_count"), [
    ("Qwen2.5-VL-72B with 8 images per request at 1280x1280, 16 concurrent users, how many H100s?", 8, 1280, None,
     None),
    ("Qwen2.5-VL-7B, one 1920x1080 screenshot per request, 20 users, vLLM on an L40S", 1, 1440, "1920×1080", 1),
    ("Qwen2.5-VL-7B 每个请求 3 张 1080p 截图，4 路并发，A10 够吗", 3, 1440, "1920×1080", None),
    ("Qwen2.5-VL-7B 每個請求 3 張 1080p 截圖，A10 夠嗎", 3, 1440, "1920×1080", None),
    ("Qwen2.5-VL-7B: each request carries 2 scanned pages, on one L4", 2, None, None, 1),
    # a fine-tune's samples carry images too
    ("LLaMA-Factory LoRA 微调 Qwen2.5-VL-7B，每条样本 3 张 1024x1024 的图，batch 2，一张 4090 够吗？", 3, 1024,
     None, 1),
    ("LoRA Qwen2.5-VL-7B with 2 images per sample on one L40S", 2, None, None, 1),
    ("Qwen2.5-VL-7B 微调，每條樣本兩張圖，A100 夠嗎", 2, None, None, None),
    ("LLaMA-Factory 微調 Qwen2.5-VL-7B，每筆樣本 6 張 672x672 的圖，一張 A100 80G 夠嗎", 6, 672, None, 1),
    # audit 26 LOW-64: the count before the size ("two 1920x1080 screenshots") was read as no count
    ("Qwen2.5-VL-7B on one L40S, 10 concurrent requests each with two 1920x1080 screenshots and 500 tokens of text",
     2, 1440, "1920×1080", 1),
    ("Qwen2.5-VL-7B on one L4, 8 users with 3 images each, 200 tokens out", 3, None, None, 1),
])
def test_count_and_size_are_read(text: str, images: int, side: int | None, dims: str | None,
                                 gpu_count: int | None) -> None:
    question = parse(text, KB)
    assert (question.images_per_request, question.image_resolution, question.image_dims) == (images, side, dims)
    assert question.gpu_count == gpu_count  # "1280x1280" is no count of cards


def test_a_4k_image_is_no_4k_context_and_images_at_once_asks_concurrency() -> None:
    question = parse("Qwen2.5-VL-7B 处理 4K 分辨率的图片，一张 4090 能同时处理几张图？", KB)
    assert question.context is None and question.image_dims == "3840×2160"
    assert question.asks_concurrency and (question.gpu, question.gpu_count) == ("rtx-4090", 1)


def test_a_text_model_reads_no_images() -> None:
    question = parse("Llama 3.1 8B with 4k context on one A10, 8 images per request", KB)
    assert question.context == 4096 and question.image_resolution is None


def test_a_batch_of_images_written_as_a_count_is_a_batch() -> None:
    # audit 14 A-H1: "批次 4 張" was a job of four images at batch 1 (10.9 GiB against 22.2 at batch 4)
    for text in ("SDXL 批次 4 張 1024x1024 圖，在 A10 上要多少顯存？", "SDXL 批量 4 张 1024x1024 图，A10",
                 "SDXL batch of 4 images at 1024 on A10"):
        question = parse(text, KB)
        assert (question.batch, question.image_count) == (4, None)
    assert parse("SDXL 生成 1000 张图 要多久 4090", KB).image_count == 1000


def test_pici_is_a_batch_for_a_language_model_too() -> None:
    assert parse("Llama-3.1-8B 推理，批次 4，A10", KB).batch == 4



@pytest.mark.parametrize(("text", "images"), [
    # the size after the count (audit 15 B-M1): the count is the request's, not a one-image request
    ("Llama 4 Scout with 4 images of 1344x1344 each, 16 concurrent users, how many H100s?", 4),
    ("Qwen2.5-VL-72B AWQ, 2 images of 1024x1024 per request, 32 concurrent users on L40S", 2),
    ("yo can my 1080 ti run qwen 2.5 vl 7b w/ like 3 pics lol", 3),
])
def test_a_handful_of_images_with_their_size_after_are_a_requests_images(text: str, images: int) -> None:
    question = parse(text, KB)
    assert question.images_per_request == images
    assert question.image_count is None


def test_a_counted_job_of_images_stays_a_job() -> None:
    question = parse("Qwen2.5-VL-7B caption 500 images on an A10, how long", KB)
    assert question.image_count == 500 and question.images_per_request is None


@pytest.mark.parametrize(("text", "count", "side"), [
    # "1024 圖" is a 1024-px image (audit 15 B-M2); "1024 张图" is a count
    ("A10 上用 SDXL 一次生成 4 張 1024 圖（batch 4），顯存夠不夠？", 4, 1024),
    ("Flux.1-dev 批次 2 張 1024 圖，24G 顯卡夠嗎？", None, 1024),
    ("SDXL 生成 1024 张图要多久", 1024, None),
])
def test_a_side_before_tu_without_a_measure_word_is_the_image_size(text: str, count: int | None,
                                                                   side: int | None) -> None:
    question = parse(text, KB)
    assert question.image_count == count
    assert question.image_resolution == side


def test_one_image_counted_in_chinese_is_a_requests_image_not_a_context() -> None:
    # audit 16 C-M7: "输入一张 1920x1080 的图片" was a context of 1 token
    question = parse("Qwen2.5-VL-3B 在 RTX 3060 12G 上，输入一张 1920x1080 的图片，显存要多少？", KB)
    assert question.images_per_request == 1 and question.context is None
    assert parse("Qwen2.5-VL-7B 每次上传三张截图，A10 够吗", KB).images_per_request == 3


@pytest.mark.parametrize(("text", "qps"), [
    # audit 23 HIGH 1: an image rate was no load, so one card was offered for 15 images a second, and "每秒 2 张"
    # was read as 2 GPUs
    ("Qwen2.5-VL-7B 做图片审核，每张图 1280x720，每秒 15 张，用 L20 要几张？", 15.0),
    ("Qwen2.5-VL-7B for moderation of 1280x720 images, 15 images per second: how many L20s?", 15.0),
    ("Qwen2.5-VL-7B 做图片理解，每张 1120x1120，每秒 2 张，要几张卡？", 2.0),
    ("Qwen2.5-VL-7B 處理發票圖片，每張 1120x1120，每天 8.64 萬張，要幾張 L40S", 1.0),
    ("Qwen2.5-VL-7B on L4s, 3,600 photos an hour", 1.0),
])
def test_images_arriving_at_a_rate_are_requests_a_second(text: str, qps: float) -> None:
    question = parse(text, KB)
    assert question.qps == pytest.approx(qps)
    assert question.gpu_count is None and question.image_count is None
