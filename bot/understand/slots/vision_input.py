"""Images a vision-language request carries: how many, and how large.

Read only when the model named reads images, and before the job's size, the context and the card counts, so
"8 images per request" is not eight samples, "1280x1280" not 1,280 cards and "4K 分辨率的图片" not a 4,096-token
context. bot.reply.request_images turns them into positions of the request's context.

* count: "8 images per request", "10 images per query", "each request carries 3 screenshots", "每个请求 5 张图",
  "4 images of 1344x1344 each", "w/ like 3 pics" (a handful of images a request comes with, not a job)
  (read with the other service rates, bot.understand.slots.service_rate) → `images_per_request`;
* size: "1280x1280", "1920×1080 screenshots", "1024px", "1080p", "4K 图片", "2K 截图" → `image_dims` and
  `image_resolution`.
"""

from __future__ import annotations

from bot.understand.numbers import COUNT_SCALES, number
from bot.understand.question import MAX_IMAGE_SIDE, MIN_IMAGE_SIDE
from bot.understand.slots.base import SlotState, rx

MAX_IMAGES_PER_REQUEST = 1_000
"""Images one request may carry: engines cap it far lower (vLLM's --limit-mm-per-prompt), a video's frames aside."""

_IMAGE_WORDS = (r"(?:images?|pictures?|pics?|photos?|screenshots?|frames?|scans?|pages?|"
                r"图片|图像|照片|截图|图|扫描件|页)")
_REQUEST_WORDS = (r"(?:requests?|quer(?:y|ies)|prompts?|calls?|messages?|conversations?|turns?|inputs?|chats?|"
                  r"samples?|examples?)")
_COUNT = rx(
    r"(?<![\w.])(?P<num>\d{1,4}|one|an?|single)\s+(?:[^\W\d][\w-]*\s+){0,2}?" + _IMAGE_WORDS + r"(?:\s+of\b)?"
    + r"\s*(?:(?:per|each|a|every|/|in\s+(?:each|every|a|one|the))\s*" + _REQUEST_WORDS + r"(?![a-z])|each\b)"
    r"|(?:\bwith|\bw/|带|附带|附上)\s*(?:(?:like|about|around|maybe|some|~)\s*)?(?P<num4>\d{1,2})\s*(?:张|幅)?\s*"
    + _IMAGE_WORDS + r"(?![a-z])"
    r"|\b(?:each|every|one|a|per)\s+" + _REQUEST_WORDS + r"\s+(?:has|carries|contains|includes|with|having|sends?)\s+"
    r"(?P<num2>\d{1,4})\s+(?:[^\W\d][\w-]*\s+){0,2}?" + _IMAGE_WORDS + r"(?![a-z])"
    r"|(?<![\w.])(?P<num3>\d{1,4})\s+(?:input|attached|uploaded)\s+" + _IMAGE_WORDS + r"(?![a-z])"
    r"|(?:输入|上传|传入|带上?|附带|发送?|给它?)\s*(?P<num5>\d{1,2}|[一二两三四五六七八九十])\s*(?:张|幅)"
    r"(?:[^，。,;；]{0,24}?的)?\s*" + _IMAGE_WORDS
    + r"|(?:每条|每个|每份|每一条|每笔|每筆)\s*(?:训练)?(?:样本|数据|对话|样例|資料|资料)\s*(?:都)?"
    r"(?:有|带|包含|配|是)?\s*"
    r"(?P<num6>\d{1,2}|[一二两三四五六七八九十])\s*(?:张|幅)(?:[^，。,;；]{0,24}?的)?\s*" + _IMAGE_WORDS
)
_NAMED = {"720p": (1280, 720), "1080p": (1920, 1080), "1440p": (2560, 1440), "2k": (2560, 1440),
          "4k": (3840, 2160), "2160p": (3840, 2160), "8k": (7680, 4320)}
"""Display names of sizes as people write them: "2K" is 2560×1440 as screens are sold in China."""
_NAMED_SIZE = rx(
    r"(?<![\w.])(?P<name>720p|1080p|1440p|2160p|2k|4k|8k)(?![\w])\s*(?:分辨率|resolution|res)?\s*(?:的)?\s*(?:\d{1,4}\s*)?"
    + r"(?=(?:\w+\s+)?" + _IMAGE_WORDS + r")"
    r"|" + _IMAGE_WORDS + r"\s*(?:at|in|of|,)?\s*(?P<name2>720p|1080p|1440p|2160p|2k|4k|8k)(?![\w])"
    r"|(?:分辨率|resolution)\s*(?:是|为|of|:)?\s*(?P<name3>720p|1080p|1440p|2160p|2k|4k|8k)(?![\w])"
)
_SIDES = rx(r"(?<![\w.])(?P<w>\d{2,5})\s*[x×*]\s*(?P<h>\d{2,5})(?:\s*(?:px|pixels?|像素))?(?![\w.])")
_SIDE = rx(r"(?<![\w.])(?P<side>\d{2,5})\s*(?:px|pixels?|像素)(?![a-z])")


_JOB_IMAGES = rx(
    r"(?<![\w.])(?P<num>\d+(?:\.\d+)?)\s*(?P<scale>k|m|million|thousand|千|万|十万|百万|千万|亿)?\s*"
    r"(?:张|幅|份|页|个)?\s*(?:的\s*)?(?:[\u4e00-\u9fff]{0,4}|\w+\s+)?"
    r"(?:图片|图像|照片|截图|扫描件|发票|票据|单据|收据|表单|images?|photos?|pictures?|scans?|screenshots?|invoices?|"
    r"receipts?|forms?|pages?)(?![a-z])"
)
"""Images a job runs the model over ("识别 10 万张发票图片", "caption 2M images"): counted, read after the images a
request carries, whose count this would otherwise take."""
_PER_REQUEST_BEFORE = rx(r"(?:每个请求|每次请求|每条请求|每次|一次|单次|每个)\s*"
                         r"(?:输入|上传|传入|带|附带|包含|有)?\s*$")
MAX_JOB_IMAGES = 1e10


_IMAGE_RATE = rx(
    r"(?<![\w.])(?P<num>\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)\s*(?P<scale>k|m|million|thousand)?\s+"
    r"(?:[^\W\d][\w-]*\s+){0,2}?" + _IMAGE_WORDS + r"\s*(?:per|an?|each|every|/)\s*"
    r"(?P<unit>second|sec|s|minute|min|hour|hr|h|day)s?\b"
    r"|每\s*(?P<unit2>秒|分钟|小时|天|日)(?:钟)?\s*(?:要|需要|约|大约)?\s*(?:处理|审核|识别|分析|推理|来|有|进来)?\s*"
    r"(?:约|大约)?\s*(?P<num2>\d+(?:\.\d+)?)\s*(?P<scale2>千|万|十万|百万|k)?\s*(?:张|幅)"
    r"(?:[^，。,;；\d]{0,8}?(?:图片|图像|照片|截图|图|发票|票据|单据|扫描件))?"
)
"""Images arriving at a rate ("15 images per second", "每秒 15 张", "每天 10 万张发票"): each image one request, a
load to serve, not a job's count nor ("每秒 2 张") a number of cards."""
_RATE_SECONDS = {"second": 1.0, "sec": 1.0, "s": 1.0, "秒": 1.0, "minute": 60.0, "min": 60.0, "分钟": 60.0,
                 "hour": 3600.0, "hr": 3600.0, "h": 3600.0, "小时": 3600.0, "day": 86400.0, "天": 86400.0,
                 "日": 86400.0}
MAX_IMAGE_RATE = 1e6
"""Images a second a service may be asked to take; beyond it the number is no rate."""


def parse_vision_input(state: SlotState) -> None:
    """Reads the images' size, then the rate they arrive at, their count a request and for a whole job (see the
    module docstring); the spans read are masked."""
    _image_size(state)
    _image_rate(state)
    m = _COUNT.search(state.text)
    if m is not None:
        raw = (m.group("num") or m.group("num2") or m.group("num3") or m.group("num4") or m.group("num5")
               or m.group("num6"))
        images = int(number(raw) or 1)
        if 0 < images <= MAX_IMAGES_PER_REQUEST:
            state.set("images_per_request", images)
            state.mask(m.start(), m.end())
    for m in _JOB_IMAGES.finditer(state.text):
        if _PER_REQUEST_BEFORE.search(state.text[max(0, m.start() - 12): m.start()]):
            continue  # "每个请求 5 张图": a request's images, read with the service rates
        count = float(m.group("num")) * COUNT_SCALES.get((m.group("scale") or "").lower(), 1.0)
        if count >= 2:
            state.set("image_count", int(min(count, MAX_JOB_IMAGES)))
            state.mask(m.start(), m.end())
        break


def _image_rate(state: SlotState) -> None:
    """`image_qps` (images a second, one request each) from an arrival rate of images."""
    m = _IMAGE_RATE.search(state.text)
    if m is None:
        return
    raw, scale = (m.group("num"), m.group("scale")) if m.group("num") else (m.group("num2"), m.group("scale2"))
    unit = (m.group("unit") or m.group("unit2")).lower()
    rate = float(raw.replace(",", "")) * COUNT_SCALES.get((scale or "").lower(), 1.0) / _RATE_SECONDS[unit]
    if 0 < rate <= MAX_IMAGE_RATE:
        state.set("image_qps", rate)
        state.mask(m.start(), m.end())


def _image_size(state: SlotState) -> None:
    m = _SIDES.search(state.text)
    if m is not None and _plausible(int(m.group("w")), int(m.group("h"))):
        _set_size(state, int(m.group("w")), int(m.group("h")))
        state.mask(m.start(), m.end())
        return
    m = _NAMED_SIZE.search(state.text)
    if m is not None:
        width, height = _NAMED[(m.group("name") or m.group("name2") or m.group("name3")).lower()]
        _set_size(state, width, height)
        state.mask(m.start(), m.end())
        return
    m = _SIDE.search(state.text)
    if m is not None and _plausible(int(m.group("side")), int(m.group("side"))):
        _set_size(state, int(m.group("side")), int(m.group("side")))
        state.mask(m.start(), m.end())


_IMAGES_AT_ONCE = rx(
    r"(?:同时|一次|并发)\s*(?:能|可以)?\s*(?:处理|跑|推理|识别|分析)?\s*(?:几|多少)\s*(?:张|幅|个)\s*(?:图|图片|图像|照片|截图)?"
    r"|\bhow\s+many\s+(?:images?|pictures?|photos?|screenshots?)\s+(?:at\s+once|concurrently|in\s+parallel|"
    r"simultaneously|at\s+the\s+same\s+time)"
)


def asks_images_at_once(state: SlotState) -> bool:
    """"一张 4090 能同时处理几张图": how many requests of one image each the card serves at once."""
    return _IMAGES_AT_ONCE.search(state.text) is not None


def _plausible(width: int, height: int) -> bool:
    return min(width, height) >= MIN_IMAGE_SIDE and max(width, height) <= MAX_IMAGE_SIDE


def _set_size(state: SlotState, width: int, height: int) -> None:
    if width != height:
        state.set("image_dims", f"{width}×{height}")
    state.set("image_resolution", round((width * height) ** 0.5))


__all__ = ["MAX_IMAGES_PER_REQUEST", "asks_images_at_once", "parse_vision_input"]
