"""A vision-language request's images sized as the context positions they take (audit 13 N-M2)."""

from __future__ import annotations

import pytest

from bot.reply.answer import answer
from bot.reply.render import render_text
from bot.understand.parse import parse
from knowledge.loader import default_knowledge
from rules.constants import GIB
from tests.bot.reply._answers import ask_json as _ask

KB = default_knowledge()


def test_eight_1280_images_add_their_positions_to_the_context_and_the_cache() -> None:
    # Qwen2.5-VL: one position per 28×28 pixels, 1280 → 46 a side, 2,116 + vision start/end = 2,118 an image
    result = answer(parse("Qwen2.5-VL-72B with 8 images per request at 1280x1280, 16 concurrent users, how many "
                          "H100s?", KB), KB)
    assert result.query.context == 4096 + 8 * 2118
    # 80 layers × 8 KV heads × 128 × 2 (K, V) × 2 B = 320 KiB a position, for 16 such requests
    kv_gib = 320 * 1024 * (4096 + 8 * 2118) * 16 / GIB
    assert result.estimate is not None
    assert abs(result.estimate.breakdown.kv_cache * result.estimate.gpu_count - kv_gib) < 0.01 * kv_gib
    text = render_text(result, kb=KB)
    assert "image tokens a request 8 × 2,118 = 16,944" in text and "8 images a request" in text


def test_a_stated_context_is_taken_to_hold_the_images() -> None:
    result = answer(parse("Qwen2.5-VL-7B with 3 images per request and 16k context on one L40S", KB), KB)
    assert result.query.context == 16384
    assert "image tokens a request" not in render_text(result, kb=KB)


def test_one_4k_image_assumed_a_request_when_only_its_size_is_given() -> None:
    result = answer(parse("Qwen2.5-VL-7B 处理 4K 分辨率的图片，一张 4090 能同时处理几张图？", KB), KB)
    assert result.query.context == 4096 + 137 * 77 + 2
    text = render_text(result, kb=KB)
    assert "每个请求的图片数 1" in text and "服务方案" in text  # how many at once is answered by the plan


def test_a_job_over_counted_images_is_a_batch_job_with_each_images_positions_in_its_prompt() -> None:
    # "识别 10 万张发票" had no time at all; each request is one 1500×2000 image (54 × 71 positions of 28 px, and the
    # vision start/end: 3,836) beside a 256-token instruction
    from bot.understand.parse import parse as read

    question = read("Qwen2.5-VL-7B 批量识别 10 万张发票图片，每张 1500x2000，一张 L40S 要多久", KB)
    assert (question.image_count, question.batch_job, question.training_samples) == (100_000, True, 100_000)
    result = answer(question, KB)
    assert result.query.context == 256 + 256 + 3836
    assert result.speed["requests"] == 100_000
    assert result.speed["prompt_tokens"] == 100_000 * (256 + 3836)
    assert result.speed["job_hours"] and result.cost is not None and result.cost.total
    # without a size, the one-megapixel default: still each image's positions, not the instruction alone
    english = answer(read("caption 2M photos with Qwen2.5-VL-7B on 4x L4, how long and how much?", KB), KB)
    assert english.speed["prompt_tokens"] == 2_000_000 * (256 + 1371)


def test_images_of_one_request_are_not_a_job() -> None:
    from bot.understand.parse import parse as read

    question = read("Qwen2.5-VL-7B 每个请求 3 张 1080p 截图，4 路并发，A10 够吗", KB)
    assert question.images_per_request == 3 and question.image_count is None and not question.batch_job


def test_a_cross_attention_models_images_are_counted_in_its_cross_attention_layers() -> None:
    # audit 18 M-7 / 20 M-9: Llama 3.2 Vision dropped the image count. Each image is 4 tiles × 1,608 = 6,432
    # encoder positions cached in the 8 cross-attention layers of 40: 6,432 × 8/40 = 1,286 text positions' worth
    kb = KB
    one = answer(parse("Llama 3.2 11B Vision bf16 on an L40S, batch 4", kb), kb)
    eight = answer(parse("Llama 3.2 11B Vision bf16 on an L40S, 8 images of 1120x1120 per request, batch 4", kb), kb)
    assert eight.query.context == 4096 + 8 * 1286
    assert any(a.reason == "cross-attention-images" for a in eight.assumptions)
    assert one.estimate is not None and eight.estimate is not None
    # 8 × 1,286 positions × 160 KiB × 4 sequences ≈ 6.3 GiB more KV cache
    added = eight.estimate.breakdown.kv_cache - one.estimate.breakdown.kv_cache
    assert added == pytest.approx(8 * 1286 * 160 * 1024 * 4 / 2**30, rel=0.05)


def test_a_fine_tunes_images_per_sample_are_positions_of_each_sample() -> None:
    # audit 21 M-11/22 M-12: "4 images of 896x896 per sample" was read back and then sized at a 4,096-token sample.
    # LLaMA-Factory scales each image to at most 768 × 768 (image_max_pixels) first: 768 / 28 → 27 × 27 = 729
    # positions + 2 markers = 731 an image, 4 × 731 = 2,924 beside the 4,096 text tokens assumed
    lf = _ask("LLaMA-Factory LoRA on Qwen2.5-VL-7B with 4 images of 896x896 per sample, batch 1, on one L40S: memory?")
    assert lf["query"]["context"] == 4096 + 4 * 731
    assert {(a["field"], a["reason"]) for a in lf["assumptions"]} >= {("image_dims", "engine-image-pixels"),
                                                                       ("image_tokens", "image-processor")}
    assert "4 images a sample" in lf["text"]
    # without that engine the processor keeps 896 × 896: 32 × 32 + 2 = 1,026 an image
    plain = _ask("LoRA on Qwen2.5-VL-7B with 4 images of 896x896 per sample, batch 1, on one L40S: memory?")
    assert plain["query"]["context"] == 4096 + 4 * 1026
    assert plain["estimate"]["breakdown"]["activations"] > lf["estimate"]["breakdown"]["activations"]


def test_one_image_a_sample_in_chinese_is_counted_and_a_stated_length_holds_them() -> None:
    one = _ask("用 LLaMA-Factory 做 Qwen2.5-VL-7B 的 LoRA 微调，单张 A100 40G，每条样本一张图，够吗？")
    assert one["query"]["context"] == 4096 + 731  # the image's size not given: ~1 MP, scaled to 768 × 768
    assert "每条样本 1 张图片" in one["text"]
    stated = _ask("LLaMA-Factory LoRA on Qwen2.5-VL-7B, cutoff_len 4096, 4 images of 896x896 per sample, one L40S")
    assert stated["query"]["context"] == 4096  # a length the user gives already holds its images


def test_qwen2_5_vl_32b_is_known_and_its_two_screenshots_are_counted() -> None:
    # audit 26 M-36: Qwen2.5-VL-32B was unknown (a generic 32B, "183 concurrent sequences", images dropped) and
    # LOW-64: "each with two 1920x1080 screenshots" was one image. 64 layers × 8 KV heads × 128 × 2 × 2 B = 256 KiB
    # a token; each 1,932 × 1,092 screenshot is 69 × 39 = 2,691 tokens and 2 markers
    kb = default_knowledge()
    result = answer(parse("Qwen2.5-VL-32B-Instruct AWQ on one L40S with vLLM, 10 concurrent requests each with two "
                          "1920x1080 screenshots and 500 tokens of text, 300 out: fits?", kb), kb)
    assert result.query.model == "qwen2.5-vl-32b"
    tokens = 2 * (69 * 39 + 2) + 500 + 300
    assert result.query.context == tokens
    assert result.estimate is not None
    assert result.estimate.breakdown.kv_cache == pytest.approx(10 * tokens * 256 / 2**20, abs=0.1)
    assert result.check is not None and result.check.fits
    top = result.picks[0]
    assert top.max_concurrent_sequences is not None and top.max_concurrent_sequences < 40


def test_no_shorter_context_below_the_requests_image_is_offered() -> None:
    # audit 28 LOW-89: "上下文缩短到 1,697" offered for requests whose one image takes 2,693 positions
    from tests.bot.reply._answers import ask_json

    reply = ask_json("用 vLLM 部署 Qwen2.5-VL-32B-Instruct-AWQ 到一张 RTX 4090 上，"
                     "每个请求一张 1920x1080 的截图加 300 字的问题，并发 4，能跑吗？")
    shorter = [s for s in reply["check"]["suggestions"] if s["kind"] == "shorter-context"]
    assert all(s["context"] > 2693 for s in shorter)
