"""Image generation: the image's size, the denoising steps, and diffusers' model CPU offload.

Read only when the model named is an image generator, so "1000 steps" of an LLM's training and "8x" GPU
counts are never taken for an image's steps or pixels.

* resolution: "768x768", "1024×1024", "1920 x 1080" (the side of a square of the same pixels: 1440),
  "1024px", "at 2048 resolution", "分辨率1024", "1024分辨率";
* steps: "28 steps", "4 inference steps", "num_inference_steps=50", "50步";
* offload: "enable_model_cpu_offload", "with CPU offload", "offloading", "卸载到内存";
* training's text encoders: trained ("--train_text_encoder", "训练文本编码器"), kept on the card ("text encoder on
  the GPU", "no text embedding cache") or cached ("cache text embeddings", "cache_text_encoder_outputs").
"""

from __future__ import annotations

import math

from bot.understand.numbers import COUNT_SCALES, number
from bot.understand.question import MAX_BATCH, MAX_IMAGE_SIDE, MAX_IMAGE_STEPS, MIN_IMAGE_SIDE
from bot.understand.slots.base import SlotState, bounded, rx

_SIDES = rx(r"(?<![\w.])(?P<w>\d{2,5})\s*[x×*]\s*(?P<h>\d{2,5})(?:\s*(?:px|pixels?|像素))?(?![\w.])")
_SIDE = rx(r"(?<![\w.])(?P<side>\d{2,5})\s*(?:px|pixels?|像素)(?![a-z])"
           r"|(?:resolution|res|分辨率)\s*(?:of|at|=|:)?\s*(?P<after>\d{2,5})(?![\w.])"
           r"|(?<![\w.])(?P<before>\d{2,5})\s*(?:resolution|分辨率)")
_ONE_SIDED = rx(r"(?:(?<![\w.])(?:one|a|an|single|1)\s+|一\s*(?:张|幅|个)?\s*(?:的)?\s*|1\s*(?:张|幅)\s*)"
                r"(?P<side>\d{3,5})\s*(?:px|pixels?|p|像素)?\s*(?:的\s*)?"
                r"(?:images?|pictures?|pics?|photos?|renders?|图片?|照片)(?![a-z])")
"""A size right after a count of one ("one 1024 image", "一张 1024 图", "a 1024px image"): the image's side, never
1,024 images. One image is the unit the speed line already times ("≈ 6 s per image"), so no `image_count` is
set: a job of one image would only repeat that figure, rounded up to a minute."""
_BARE_SIDE = rx(r"(?<![\w.])(?P<side>\d{3,4})\s*(?:的\s*)?(?=图)")
"""A pixel side written straight before 图 with no measure word ("4 张 1024 图", "1024 圖"): the images' size. A
count takes 张/幅 ("生成 1024 张图"); only a multiple of 64, as diffusion sizes are, is read this way."""
_STEPS = rx(r"(?:num_inference_steps|steps)\s*[=:]\s*(?P<eq>\d{1,5})(?![\w.])"
            r"|(?<![\w.])(?P<num>\d{1,5})\s*(?:(?:inference|sampling|denoising|diffusion)\s+)?(?:steps?|步)(?![a-z])")
_COUNT = rx(r"(?<![\w.])(?P<num>\d+(?:\.\d+)?)\s*(?P<scale>k|m|万|千)?\s*(?:张|幅|个)?\s*"
            r"(?:images?|pictures?|pics?|photos?|renders?|图片?|照片)(?![a-z])"
            r"(?!\s*(?:per|each|a|every|at\s+once|in\s+(?:one|a|each)|每))")
"""Images the job makes ("10k images", "生成1万张图"): the run is timed and billed; "4 images per call" is a batch."""
_EMBED_COUNT = rx(r"(?<![\w.])(?P<num>\d+(?:\.\d+)?)\s*(?P<scale>k|m|million|billion|b|万|千|亿)?\s*(?:张|幅|个)?\s*"
                  r"(?:images?|pictures?|pics?|photos?|图片?|照片|圖片?)(?![a-z])")
"""Images a dual encoder embeds ("embed 100M images with CLIP", "给 1 亿张图片提取向量"): its job's count."""


def read_embedded_images(state: SlotState) -> None:
    """`image_count` for a dual encoder's job; the span is masked (audit 30 M-70: the count was dropped)."""
    m = _EMBED_COUNT.search(state.text)
    if m is None:
        return
    count = float(m.group("num")) * COUNT_SCALES.get((m.group("scale") or "").lower(), 1.0)
    if count >= 1:
        state.set("image_count", int(bounded(state, "image_count", count, MAX_IMAGE_COUNT)))
        state.mask(m.start(), m.end())


_PER_CALL = rx(r"(?<![\w.])(?P<num>\d{1,4})\s*(?:images?|pictures?|pics?|图片?|张图?)\s*"
               r"(?:per|each|a|every|in\s+(?:one|a|each)|每)\s*(?:call|batch|prompt|run|request|pass|次|批)")
"""Images one call makes ("4 images per call", "每次4张" is not read): the batch the memory holds."""
_BATCH_OF_IMAGES = rx(r"(?:批量|批次|一批|每批|\bbatch(?:[-_\s]?size)?(?:\s+of)?)\s*(?:为|是|=|:|大小)?\s*"
                      r"(?P<num>\d{1,4})(?![\d.])\s*(?:张|幅|个)?")
"""A batch of images written as a count ("批次 4 張 1024x1024 圖", "批量 4 张", "batch of 4 images"): one call's
batch, which the memory holds at once, not a job of four images."""
MAX_IMAGE_COUNT = 1e10
_RATE = rx(r"(?<![\w.])(?P<num>\d+(?:\.\d+)?|an?|one|two|three|four|five|ten)\s*(?P<k>k)?\s+"
           r"(?:images?|pictures?|pics?|renders?)"
           r"\s*(?:/\s*|per\s+|an?\s+|each\s+|every\s+)(?P<unit>second|sec|minute|min|hour|hr|day)s?\b"
           r"|每\s*(?P<unit2>秒钟?|分钟|小时|天)\s*(?:要|需要)?\s*"
           r"(?:生成|出|画|编码|編碼|嵌入|处理|處理|提取|识别|識別|分类|分類)?\s*(?P<num2>\d+(?:\.\d+)?|[一二两三四五六七八九十百千]{1,4})"
           r"\s*(?P<wan2>万)?\s*(?:张|幅)"
           r"|(?:一天|每日|日均)\s*(?:要|需要|大概|约)?\s*(?:生成|出|画|产出)?\s*(?P<num3>\d+(?:\.\d+)?)\s*(?P<wan3>万)?\s*(?:张|幅)")
"""Images a second, a minute, an hour or a day a service makes ("10 images per second", "每秒 10 张": audit 32
HIGH 85, read as ten images in all), "200 images per minute", "每分钟一张图", "10,000 images a
day", "一天要出 1 万张" (a day's count kept up with around the clock: audit 25 HIGH 29); per user when
`_PER_USER` is beside it."""
_PER_USER = rx(r"每人|每个人|每个用户|每位用户?|人均|\beach\b|\bper\s+(?:user|person|head)\b|\bapiece\b|"
               r"\ba\s+(?:user|person)\b")
MAX_IMAGES_PER_MINUTE = 1e6
_OFFLOAD = rx(r"enable_(?:model|sequential)_cpu_offload|\b(?:model\s+)?cpu[-_\s]?offload\w*|\boffload\w*"
              r"|卸载到?\s?(?:cpu|内存)?")


_TEXT_ENCODER = r"text[-_\s]?encoders?"
_ENCODERS_TRAINED = rx(r"\btrain(?:s|ed|ing)?[-_\s](?:the\s|its\s)?" + _TEXT_ENCODER
                       + r"|训练文本编码器|文本编码器也?(?:一起|参与)?训练")
_ENCODERS_RESIDENT = rx(
    r"\b" + _TEXT_ENCODER + r"s?\s(?:stays?\s|kept\s|loaded\s)?(?:on|in)\s(?:the\s)?(?:gpu|card|vram)\b"
    r"|\bkeep\w*\s(?:the\s)?" + _TEXT_ENCODER
    + r"|\b(?:no|without)\s(?:text[-_\s]?)?(?:embed\w*|encoder\s?outputs?)\s?cach\w*"
    r"|\bwithout\scach\w*\s(?:the\s)?text|文本编码器(?:放|留)在?显(?:卡|存)")
_ENCODERS_CACHED = rx(
    r"\bcach\w*\s(?:the\s)?(?:text[-_\s]?(?:encoder[-_\s]?outputs?|embed\w*|conditioning)|prompt[-_\s]?embed\w*)"
    r"|\bprecomput\w*\s(?:the\s)?(?:text\s|prompt\s)?embed\w*|缓存文本(?:嵌入|编码|特征)")
"""Read for an image model's training only: which of the three the text encoders are
(rules.memory_diffusion_training)."""
_PRIOR_PRESERVATION = rx(r"\bprior[-_\s]?(?:preservation|loss)\b|先验(?:保留|保持|损失)")
"""DreamBooth's prior preservation: a class image trained beside each instance image."""


_TRAINING_WORDS = rx(r"\b(?:train\w*|fine[-\s]?tun\w*|epochs?|warm[-\s]?up|gradient|lora|sft)\b|训练|微调|轮")
MAX_UNNAMED_STEPS = 150
"""Without an image model named (a follow-up: "and with 4 steps?"), a step count this small is a sampler's, read
only when no training words surround it; "1000 steps" of training never is."""


def parse_image(state: SlotState, model_named: bool = True) -> None:
    """Reads the image slots. `model_named` False: the message names no model (a thread's follow-up), so only
    an image size and a sampler-sized step count outside any training phrase are read, and no offload."""
    text = state.text
    m = _SIDES.search(text)
    side: float | None = None
    if m is not None:
        side = math.sqrt(float(m.group("w")) * float(m.group("h")))
        if m.group("w") != m.group("h"):
            state.set("image_dims", f"{int(m.group('w'))}×{int(m.group('h'))}")  # read back as written
    elif (m := _ONE_SIDED.search(text)) is not None:
        side = float(m.group("side"))
    else:
        m = _SIDE.search(text)
        if m is not None:
            side = float(m.group("side") or m.group("after") or m.group("before"))
        elif (m := _BARE_SIDE.search(text)) is not None and int(m.group("side")) % 64 == 0:
            side = float(m.group("side"))
    if m is not None and side is not None:
        state.set("image_resolution", round(bounded(state, "image_resolution", side, MAX_IMAGE_SIDE,
                                                    MIN_IMAGE_SIDE)))
        state.mask(m.start(), m.end())
    image_rate(state)
    m = _PER_CALL.search(state.text) or _BATCH_OF_IMAGES.search(state.text)
    if m is not None:
        state.set("batch", int(bounded(state, "batch", float(m.group("num")), MAX_BATCH)))
        state.mask(m.start(), m.end())
    m = _COUNT.search(state.text)
    if m is not None:
        count = float(m.group("num")) * COUNT_SCALES.get(m.group("scale") or "", 1.0)
        if count >= 1:
            state.set("image_count", int(bounded(state, "image_count", count, MAX_IMAGE_COUNT)))
            state.mask(m.start(), m.end())
    text = state.text
    m = _STEPS.search(text)
    if m is not None and not model_named and (
            float(m.group("eq") or m.group("num")) > MAX_UNNAMED_STEPS or _TRAINING_WORDS.search(text)):
        m = None
    if m is not None:
        steps = float(m.group("eq") or m.group("num"))
        state.set("image_steps", int(bounded(state, "image_steps", steps, MAX_IMAGE_STEPS)))
        state.mask(m.start(), m.end())
    for mode, pattern in (("trained", _ENCODERS_TRAINED), ("resident", _ENCODERS_RESIDENT),
                          ("cached", _ENCODERS_CACHED)):
        found = pattern.search(state.text)
        if found is not None:
            state.set("text_encoders", mode)
            state.mask(found.start(), found.end())
            break
    found = _PRIOR_PRESERVATION.search(state.text)
    if found is not None:
        state.set("prior_preservation", True)
        state.mask(found.start(), found.end())
    m = _OFFLOAD.search(state.text) if model_named else None
    if m is not None:
        state.set("offload", "all")
        state.mask(m.start(), m.end())


def image_rate(state: SlotState) -> None:
    """A service's image rate: total ("200 images per minute") or each user's ("每人每分钟一张图")."""
    m = _RATE.search(state.text)
    if m is None:
        return
    value = number(m.group("num") or m.group("num2") or m.group("num3") or "")
    if value is None or value <= 0:
        return
    if m.group("k"):
        value *= 1_000
    if m.group("wan2") or m.group("wan3"):
        value *= 10_000
    unit = m.group("unit") or m.group("unit2") or ("day" if m.group("num3") else "minute")
    per_minute = value / {"second": 1 / 60, "sec": 1 / 60, "秒": 1 / 60, "秒钟": 1 / 60, "hour": 60.0, "hr": 60.0,
                          "小时": 60.0, "day": 1440.0, "天": 1440.0}.get(unit, 1.0)
    near = state.text[max(0, m.start() - 16): m.end() + 16]
    slot = "images_per_minute_per_user" if _PER_USER.search(near) else "images_per_minute"
    state.set(slot, bounded(state, slot, per_minute, MAX_IMAGES_PER_MINUTE))
    state.mask(m.start(), m.end())
