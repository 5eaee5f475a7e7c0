"""The amount of work and the targets of a job: training tokens, rental hours, serving targets, cost/time cues.

* tokens: "1T tokens", "300B tokens", "1e12 tokens", "500M tokens", "1万亿token", "3000亿 tokens", "3 epochs over
  50k samples of 2k tokens" (epochs × samples × tokens per sample; k after a per-sample length is 1024, as for a
  context).
  A token amount is the job's size only when it is large (≥ `JOB_TOKENS_MIN`) or a data cue stands before it
  ("on", "over", "train on", "数据"); never when a context, prompt or output cue stands next to it, and
  never with a rate after it ("per second", "/s", "a day"). "100B tokens" is therefore not a 100B model, and
  "2k tokens" per sample is not the context. The spans read are masked, so the later slots (context, sizes)
  do not read them again.
* samples: "on 10k samples", "3 epochs over 50,000 examples", "1万条数据" with no length per sample: the count
  (and epochs), sized at the job's context per sample by the reply (an upper bound it states); read by
  bot.understand.slots.samples.
* training steps: "for 2000 steps", "max_steps=1000", "训练1000步" in a training question (a training word in the
  text, or the trainer's flag): optimizer steps of the job's batch, sized and timed as its samples; an image
  model's "28 steps" outside training stays its sampler's.
* hours: "for 100 hours", "for 3 days", "for a month" (730 h, the price lists' month), "24/7" (a month of
  continuous rental), "一个月", "100小时".
* serving targets: "N QPS" / "N requests per second", "N tokens per second per user", "first token under 1 s".
  Users are read by the batch slot ("64 users").
* cues: asks_cost ("how much does it cost", "多少钱", "费用"), asks_token_cost ("per million tokens",
  "每百万token") and asks_time ("how long", "要多久", "how many GPU-hours").
"""

from __future__ import annotations

import re
from typing import Any

from bot.understand.slots.base import SlotState, bounded, rx
from bot.understand.slots.cues import (
    ASKS_CONCURRENCY,
    ASKS_COST,
    ASKS_MAX_CONTEXT,
    ASKS_MAX_RATE,
    ASKS_OVERFLOW,
    ASKS_RUNNING_COST,
    ASKS_SPOT,
    ASKS_TIME,
    ASKS_TOKEN_COST,
)
from bot.understand.slots.daily_volume import busy_window_factor, daily_token_rates, names_day_volume, peak_factor
from bot.understand.slots.samples import AMOUNT_NUM as _NUM
from bot.understand.slots.samples import AMOUNT_SCALE as _SCALE
from bot.understand.slots.samples import (
    EPOCHS,
    MAX_SAMPLE_TOKENS,
    TRAINING_JOB,
    amount_value,
    bare_samples,
    count_scale,
    epoch_tokens,
)
from bot.understand.slots.service_rate import (
    asks_latency,
    note_per_person,
    parse_service_rate,
    request_latency,
    requests_every,
    requests_per_minute,
)
from bot.understand.slots.task import names_training
from rules.constants import HOURS_PER_MONTH

JOB_TOKENS_MIN = 1e8
"""A token amount this large is a dataset or a budget, never a context (the longest context windows are 1e7)."""
CUED_TOKENS_MIN = 1e6
"""Between this and `JOB_TOKENS_MIN` a data cue must stand before the amount ("on 5M tokens")."""

_TOKEN_WORD = r"(?:training\s+|train\s+|text\s+|个\s*)?(?:tokens?|toks?|词元)(?![a-z])"
_AMOUNT = rx(r"(?<![a-z0-9.])" + _NUM + r"\s*" + _SCALE + r"\s*" + _TOKEN_WORD)
_RATE_AFTER = rx(r"^\s*(?:/\s*(?:s|sec|h|hr|day|d)\b|per\b|a\s+(?:second|day|month|hour)|每|/秒|每秒|/天)")
_CONTEXT_NEAR = rx(
    r"context|ctx|上下文|window|窗口|prompt|输入|输出|output|generat|生成|max_new|seq(?:uence)?[ _-]?len|序列长度|"
    r"per\s+(?:sample|example|sequence|request|row)|each|每条|每个|每次|长度"
)
_DATA_CUE_BEFORE = rx(r"(?:\bon|\bover|\bwith|\bof|\bfor|train\w*|pre-?train\w*|data\w*|corpus|budget|"
                      r"\bembed\w*|\bencod\w*|\bindex\w*|\bvectori[sz]\w*|\brerank\w*|向量化|嵌入|编码|入库|"
                      r"用|在|训练|数据|语料)[\s:：]*(?:about|around|~|roughly|约|大约)?\s*$")
_STEPS_FLAG = rx(r"\bmax_(?:train_)?steps\s*[=:]\s*(?P<num>\d[\d,]*)(?P<scale>k)?\b")
_TRAIN_STEPS = rx(r"(?<![\w.])(?P<num>\d[\d,]*(?:\.\d+)?)\s*(?P<scale>k)?\s*(?:training\s+|train\s+|optimi[sz]er\s+)?"
                  r"(?:steps?|iterations?|iters?|步)(?![a-z])")
_SAMPLER_BEFORE = re.compile(r"(?:inference|sampling|denoising)\s*$")
"""Words just before a step count that make it a sampler's ("denoising 30 steps"), not a trainer's."""
_TRAINING_CUE = rx(r"\b(?:train\w*|fine[-\s]?tun\w*|lora|qlora|dreambooth|sft|dpo|finetun\w*|ft)\b|训练|微调|"
                   r"全参|全量微调|预训练")
MAX_TRAINING_STEPS = 1e9
_UNIT_HOURS = {"hour": 1.0, "hours": 1.0, "hr": 1.0, "hrs": 1.0, "h": 1.0, "day": 24.0, "days": 24.0,
               "week": 168.0, "weeks": 168.0, "month": HOURS_PER_MONTH, "months": HOURS_PER_MONTH,
               "year": 12 * HOURS_PER_MONTH, "years": 12 * HOURS_PER_MONTH, "小时": 1.0, "天": 24.0, "周": 168.0,
               "星期": 168.0, "月": HOURS_PER_MONTH, "年": 12 * HOURS_PER_MONTH}
_FOR_HOURS = rx(r"\b(?:for|over|during|in|within|inside|under|(?:no|not)\s+more\s+than|less\s+than|at\s+most)\s+"
                r"(?P<num>\d+(?:\.\d+)?|a|an|one|two|three|four|six|twelve)\s*"
                r"(?P<unit>hours?|hrs?|h|days?|weeks?|months?|years?)\b"
                r"|(?<![\w.])(?P<num2>\d+(?:\.\d+)?)\s*(?P<unit2>hours?|hrs?|h|days?)\s+(?:be|is|are)\s+enough\b")
"""Hours the job has ("in 8 hours", "will 8 hours be enough?"): a deadline when the job is counted, else rent."""
_CN_HOURS = rx(r"(?<!每)(?<![0-9])(?P<num>\d+(?:\.\d+)?|[一二两三四五六七八九十半]+)\s*(?:个)?\s*"
               r"(?P<unit>小时|天|周|星期|月|年)(?!\s*(?:的|前|后))")
_CONTINUOUS = rx(r"\b24\s*/\s*7\b|\b24\s*[x×]\s*7\b|\b7\s*[x×]\s*24\b|全天候|不间断|常驻|包月|\bmonthly\b|"
                 r"\b(?:per|a|every)\s+month\b|每月|每个月|每個月|一个月|一個月|"
                 r"24\s*(?:小时|小時|h)\s*(?:不停|不间断|不間斷|运行|運行|在线|在線|开着|開著)")
"""Always on, or a month: "24/7", "每月", "一个月多少钱", "24 小时不停" (730 h, the price lists' month)."""
_QPS = rx(r"(?<![a-z0-9.])(?P<num>\d+(?:\.\d+)?)\s*(?P<scale>k)?\s*(?:qps|rps|(?:requests?|quer(?:y|ies)|calls?|"
          r"embeddings?)\s*(?:per\s+second|a\s+second|/\s*s(?:ec)?)\b|req/s|次/秒|个请求每秒)")
_QPS_CUE_FIRST = rx(r"(?:qps|rps|每秒请求数?)\s*(?:of|=|:|为|是|达到|约)?\s*(?P<num>\d+(?:\.\d+)?)\s*(?P<scale>k)?"
                    r"(?![a-z0-9])")
_QPS_PER_SECOND_FIRST = rx(r"每秒(?:钟)?\s*(?:要|需要)?\s*(?:处理|承载|支撑|扛|有|来)?\s*(?:约|大约)?\s*"
                           r"(?P<num>\d+(?:\.\d+)?)\s*(?P<scale>k|千|万)?\s*(?:个|次|条)?\s*(?:请求|调用|查询)")
_RATE_SCALES = {"k": 1e3, "千": 1e3, "万": 1e4}
"""A rate written with a thousands suffix ("2.5k rps", "QPS 2k", "每秒 2k 请求"): audit 31 HIGH 83 had read "QPS
2k" as 2 a second and dropped the others."""
""""每秒500个请求": the rate written the way the reply itself writes it back."""
_PER_USER = rx(r"(?<![a-z0-9.])(?P<num>\d+(?:\.\d+)?)\s*(?P<scale>k|thousand|million)?\s*(?:tokens?|toks?)\s*"
               r"(?:/\s*s(?:ec)?|per\s+second|每秒)\s*(?:of\s+(?:decode|decoding|generation|output)?\s*speed\s+)?"
               r"(?:per|for\s+(?:each|every)|each|a|every|/)\s*(?:user|request|stream|sequence)|"
               r"(?:每(?:个)?用户|单用户|每路)\s*(?:每秒)?\s*(?:至少|不低于|>=?)?\s*(?P<num2>\d+(?:\.\d+)?)\s*"
               r"(?:tokens?|toks?|个\s*token)\s*(?:/\s*s|每秒)?|"
               r"(?<![a-z0-9.])(?P<num3>\d+(?:\.\d+)?)\s*(?:tokens?|toks?)\s*(?:/\s*s(?:ec)?|per\s+second)\s+"
               r"(?:each|apiece)\b(?=\s*(?:for|to|with|across|,|\.|$))|"
               # "每秒 30 token 每人", "每人每秒 30 token", "每人 20 token/s", "20 tps each" (audit 31 HIGH 82)
               r"每秒\s*(?P<num4>\d+(?:\.\d+)?)\s*(?:个\s*)?(?:tokens?|toks?)\s*每\s*(?:个)?\s*(?:人|用户)|"
               r"每\s*(?:个)?\s*人\s*(?:的)?\s*(?:每秒\s*(?P<num5>\d+(?:\.\d+)?)\s*(?:个\s*)?(?:tokens?|toks?)|"
               r"(?P<num6>\d+(?:\.\d+)?)\s*(?:个\s*)?(?:tokens?|toks?)\s*(?:/\s*s|每秒))|"
               r"(?<![a-z0-9.])(?P<num7>\d+(?:\.\d+)?)\s*tps\s+(?:each|apiece|per\s+user)\b")
"""A speed each user must see: "30 tokens/s per user", "每用户 20 token/s", "20 tok/s each for 3 users" (audit 29
LOW-111: the last was not read)."""
_PER_USER_SCALES = {"k": 1e3, "thousand": 1e3, "million": 1e6}
_PER_USER_BARE = rx(r"(?:\bat\s+(?:least\s+)?|\b(?:with|need|want|target(?:ing)?|of)\s+"
                    r"(?:(?:like|about|around|roughly|approx(?:imately)?|at\s+least)\s+|~\s*)?|(?:速度|达到|至少)\s*)"
                    r"(?P<num>\d+(?:\.\d+)?)\s*(?:tokens?|toks?|t)\s*(?:/\s*s(?:ec)?\b|per\s+second|每秒)"
                    r"(?!\s*(?:in\s+(?:all|total)|aggregate|throughput|total|总))")
"""A bare generation speed the job must reach ("serve Llama 3 70B at 100 tokens/s"): read as the speed each
user sees, the common meaning; the read-back says so, so a reader who meant the total can correct it."""
_OBSERVED = rx(r"(?<![a-z0-9.])(?P<num>\d+(?:\.\d+)?)\s*(?:个\s*)?(?:tokens?|toks?|t)\s*"
                r"(?:/\s*s(?:ec)?\b|per\s+second|每秒|ps\b)|"
                r"每秒\s*(?:只有|才|大概|约)?\s*(?P<num2>\d+(?:\.\d+)?)\s*(?:个\s*)?(?:tokens?|toks?)")
_PROMPT_RATE = rx(r"prompt\s+eval|prompt\s+processing|\bprefill|\bpp\d*\b|提示|预填充")
"""A logged rate that is the prompt's (llama.cpp's "prompt eval time", llama-bench's pp512), not decoding."""
_DOUBT = rx(r"\b(?:normal|expected|reasonable|typical|too\s+slow|so\s+slow|slow|only\s+(?:get|getting|see|seeing|"
            r"reach|hit)|is\s+(?:that|this|it)\s+(?:right|ok|okay|good|fine)|should\s+i\s+(?:get|expect|see))\b|"
            r"正常|合理|太慢|很慢|好慢|只有|才有|应该有多少")
"""A speed someone measured and doubts ("is 15 tok/s normal", "只有10 token/s正常吗"): compared with the estimate,
not taken as a target to size for."""
_TTFT = rx(r"(?:first[ -]token|ttft|time\s+to\s+first\s+token|首\s*(?:个)?\s*token|首字|首token延迟)\s*"
           r"(?:(?:的)?\s*(?:latency|延迟|延时|时延|时间)\s*)?(?:(?:p\d{2}|median|avg|平均)\s*)?"
           r"(?:(?:target|goal|slo|sla|budget|目标)\s*(?:of|is|:|=)?\s*)?"
           r"(?:(?:should|must|needs?\s+to)\s+(?:be|stay)\s*)?"
           r"(?:要|需要|要求|能|可以|能否|能不能)?\s*(?:做到|达到|控制在|压到|降到)?\s*"
           r"(?:under|below|within|<=?|less\s+than|at\s+most|in|of|小于|低于|不超过|以内|在)?\s*"
           r"(?P<num>\d+(?:\.\d+)?)\s*(?P<unit>ms|milliseconds?|s|sec(?:onds?)?|秒|毫秒)"
           r"|(?:ttft|first[ -]token|time\s+to\s+first\s+token)[^?\n]{0,80}\?\s*(?:we\s+|i\s+)?"
           r"(?:need|want|require|must\s+be|has\s+to\s+be|target)\s*(?:it\s+)?"
           r"(?:under|below|within|<=?|less\s+than|at\s+most)\s*(?P<num2>\d+(?:\.\d+)?)\s*"
           r"(?P<unit2>ms|milliseconds?|s|sec(?:onds?)?)(?![a-z])")
"""A first-token target: "TTFT under 2 s", "首 token 延迟小于 1 秒", or the target after the question ("what's the
TTFT for a 32k prompt …? need under 2s": audit 29 M-65)."""
_RATE_BEFORE = rx(r"(?:每天|每日|日均|一天|平均每天|每小时|每月|\bdaily)\s*(?:要|需要|约)?\s*"
                  r"(?:处理|生成|消耗|跑|服务|调用|输出|总共|合计)?\s*(?:约|大约|about|around|~)?\s*$")
"""A volume a day ("每天 5 亿 token", "日均 5 亿 token"): a rate for the serving plan, not a job's tokens."""


def _amount_tokens(state: SlotState) -> float | None:
    """A bare token amount that names the job's data ("on 300B tokens"), with an epoch count if one is written."""
    text = state.text
    for m in _AMOUNT.finditer(text):
        value = amount_value(m.group("num"))
        if value is None:
            continue
        value *= count_scale(m.group("scale"))
        before, after = text[max(0, m.start() - 24): m.start()], text[m.end(): m.end() + 24]
        # "16k context, 1B tokens", "序列長度 8192 夠嗎？跑 3000 萬 token": the context is another clause's
        clause = re.split(r"[,;，；?？。!！]", before)[-1]
        if (_RATE_AFTER.search(after) or _CONTEXT_NEAR.search(clause[-14:]) or _CONTEXT_NEAR.search(after[:16])
                or _RATE_BEFORE.search(clause)):
            continue
        cued = _DATA_CUE_BEFORE.search(before) is not None or TRAINING_JOB.search(text) is not None
        if value < JOB_TOKENS_MIN and not (value >= CUED_TOKENS_MIN and cued):
            continue
        state.mask(m.start(), m.end())
        epochs_match = EPOCHS.search(text)
        if epochs_match is not None:
            state.mask(epochs_match.start(), epochs_match.end())
            if not (_TOTAL_AFTER.search(after) or _PRODUCT_BEFORE.search(clause)):
                value *= amount_value(epochs_match.group("num") or epochs_match.group("num0")) or 1.0
        return value
    return None


_TOTAL_AFTER = rx(r"^\W{0,3}(?:tokens?\W{0,3})?(?:in\s+total|total|in\s+all|overall|altogether|all\s+told|"
                  r"(?:across|over|for)\s+(?:all|both|the)\s+(?:\w+\s+)?epochs|总共|总计|合计|一共|共计)"
                  r"|^\W{0,3}(?:tokens?\W{0,3})?\(?\s*\d+(?:\.\d+)?\s*epochs?\s+(?:of|x|×)")
"""A token amount said to be the whole run's ("1.2B tokens in total", "1.2B tokens (2 epochs of 600M)"): the
epochs beside it are already in it, not a multiplier."""
_PRODUCT_BEFORE = rx(r"(?:=|equals|is|makes|等于|即|共)\s*(?:~|≈|about|around|roughly|约|大约)?\s*$")
"""An amount written as the product of the epochs before it ("2 epochs = ~1.2B tokens")."""


_SUBSCRIPTION = rx(r"包年包月|包月|月付|\bmonthly\s+(?:subscription|plan|commitment)\b|"
                   r"\bsubscription\s+(?:price|pricing|billing|plan|rate)\b|\bsubscri(?:be|ption)\s+(?:for|by)\s+"
                   r"(?:a|one|the)\s+month\b|\bon\s+(?:a\s+)?(?:monthly\s+)?subscription\b")
"""A subscription asked for rather than hours of rent ("包月多少钱", "monthly subscription price"): clouds quote a
month bought up front below 730 pay-as-you-go hours."""


_HOURS_A_DAY = rx(r"(?<![\w.])(?P<num>\d+(?:\.\d+)?)\s*(?:hours?|hrs?|h)\s*(?:a|per|each|every|/)\s*(?:day|d)\b|"
                  r"(?:每天|每日|一天)\s*(?:用|跑|开|运行|使用)?\s*(?:约|大约|大概)?\s*"
                  r"(?P<num2>\d+(?:\.\d+)?|[一二两三四五六七八九十]+)\s*(?:个)?\s*小时")
"""Hours of use a day ("about 4 hours a day", "每天用 8 小时"): a calendar length of use is that share of it."""
_DAYS_A_WEEK = rx(r"(?<![\w.])(?P<num>[1-7])\s*days?\s*(?:a|per|each|every|/)\s*week\b|"
                  r"每周\s*(?P<num2>[1-7一二三四五六七])\s*天|\b(?:on\s+)?(?:weekdays|workdays|business\s+days)\b|"
                  r"\bmon(?:day)?\s*(?:-|–|to|through|thru)\s*fri(?:day)?\b|只在工作日|工作日(?=\s*(?:每天|白天|上班))|周一到周五|周一至周五")
"""Days of use a week ("5 days a week", "weekdays", "Monday to Friday", "周一到周五": five of seven)."""
_HOURS_A_WEEK = rx(r"(?<![\w.])(?P<num>\d+(?:\.\d+)?)\s*(?:hours?|hrs?|h)\s*(?:a|per|each|every|/)\s*week\b|"
                   r"(?:每周|一周|每週|一週)\s*(?:用|跑|开|运行|使用)?\s*(?:约|大约|大概)?\s*(?P<num2>\d+(?:\.\d+)?)\s*(?:个)?\s*小时")
"""Hours of use a week ("40 hours a week", "一週用 40 小時"): that share of the week's 168 hours (audit 40 HIGH-126)."""


def _duty_share(state: SlotState) -> float | None:
    """The share of the clock the cards are used ("4 hours a day" is 1/6, "5 days a week" 5/7), masked so the
    hours are not read as a rental of 4 hours; None when not stated."""
    share = None
    for pattern, whole in ((_HOURS_A_DAY, 24.0), (_DAYS_A_WEEK, 7.0), (_HOURS_A_WEEK, 168.0)):
        m = pattern.search(state.text)
        if m is None:
            continue
        raw = m.groupdict().get("num") or m.groupdict().get("num2")
        value = amount_value(raw) if raw else 5.0  # "weekdays only": five of seven
        if value is None or not 0 < value <= whole:
            continue
        state.mask(m.start(), m.end())
        share = (share or 1.0) * value / whole
    return share


def _hours(state: SlotState) -> float | None:
    """The rent or deadline: a length stated outright ("for 6 weeks", "3个月") over an always-on cue beside it
    ("24/7 for 3 months", "monthly subscription for 6 weeks"), which alone is a month. A calendar length used part
    of each day or week counts the hours used ("4 hours a day for 2 years" is 2,920 h, not 17,520), and such a
    share alone is a month of it."""
    duty = _duty_share(state)
    continuous = _CONTINUOUS.search(state.text)
    if continuous is not None:
        state.mask(continuous.start(), continuous.end())
    text = state.text
    for pattern in (_FOR_HOURS, _CN_HOURS):
        m = pattern.search(text)
        if m is None:
            continue
        groups = m.groupdict()
        value = amount_value(groups.get("num") or groups.get("num2"))
        if value is None or value <= 0:
            continue
        state.mask(m.start(), m.end())
        per_unit = _UNIT_HOURS[(groups.get("unit") or groups.get("unit2") or "h").lower()]
        return value * per_unit * (duty if duty is not None and per_unit >= 24 else 1.0)
    if duty is not None:
        return HOURS_PER_MONTH * duty
    return HOURS_PER_MONTH if continuous is not None else None


_PER_UNIT = r"(?:/\s*|\s+per\s+|\s+an?\s+|\s+each\s+|\s+every\s+|\s+in\s+an?\s+)"
_SECONDS_IN = {**{unit: hours * 3600.0 for unit, hours in _UNIT_HOURS.items()}, "second": 1.0, "sec": 1.0,
               "s": 1.0, "minute": 60.0, "min": 60.0, "d": 86400.0, "秒": 1.0, "分钟": 60.0, "日": 86400.0}
_TIME_UNIT = r"(?P<unit>second|sec|s|minute|min|hour|hr|h|day|d|month)s?\b"
_VOLUME_REQUESTS = rx(r"(?<![a-z0-9.])" + _NUM + r"\s*" + _SCALE
                      + r"\s*(?:api\s+)?(?:requests?|quer(?:y|ies)|calls?|conversations?|chats?|prompts?)"
                      + _PER_UNIT + _TIME_UNIT)
_VOLUME_REQUESTS_ZH = rx(r"每\s*(?P<unit>天|日|小时|分钟|月)\s*(?:约|大约|大概|差不多|预计|估计)?\s*"
                         r"(?:有|处理|要处理)?\s*" + _NUM + r"\s*" + _SCALE
                         + r"\s*(?:次|个|条)?\s*(?:请求|调用|查询|对话)|日(?:均)?请求(?:量|数)?\s*(?:约|为|是|达到)?\s*"
                         + _NUM.replace("num", "num_day") + r"\s*" + _SCALE.replace("scale", "scale_day"))
_VOLUME_TOKENS = rx(r"(?<![a-z0-9.])" + _NUM + r"\s*" + _SCALE + r"\s*(?:output\s+|generated\s+)?(?:tokens?|toks?)"
                    + _PER_UNIT + r"(?P<unit>minute|min|hour|hr|h|day|d|month)s?\b")
_TOTAL_TOKENS_PER_S = rx(
    r"(?<![a-z0-9.])" + _NUM + r"\s*" + _SCALE + r"\s*(?:output\s+|generated\s+)?(?:tokens?|toks?|t)\s*"
    r"(?:/\s*s(?:ec)?\b|per\s+second|a\s+second|每秒)\s*(?:of\s+)?(?:in\s+(?:total|all)|total|aggregate|overall|combined"
    r"|across\s+(?:all\s+)?(?:users|requests)|总)"
    r"|(?:total|aggregate|overall|combined)\s+(?:output\s+)?throughput\s*(?:of|=|:|at)?\s*"
    + _NUM.replace("num", "num2") + r"\s*(?:tokens?|toks?|t)\s*(?:/\s*s(?:ec)?\b|per\s+second)"
    r"|总吞吐(?:量)?\s*(?:要|需要)?\s*(?:达到|为|是)?\s*" + _NUM.replace("num", "num3")
    + r"\s*(?:tokens?|个\s*token)?\s*(?:/\s*s|每秒)")
_VOLUME_TOKENS_ZH = rx(r"每\s*(?P<unit>天|日|小时|分钟|月)\s*(?:要|需要)?\s*(?:生成|输出|处理)?\s*(?:约|大约)?\s*"
                       + _NUM + r"\s*" + _SCALE + r"\s*(?:个)?\s*(?:tokens?|词元)")
"""Load stated as a volume: requests or generated tokens a day, an hour, a minute ("2 million requests per day",
"100M output tokens a day", "每天200万次请求"), or an aggregate rate ("2,000 output tokens/s in total"). They
become the serving plan's QPS or total-throughput target."""


_DAILY_IN_OUT = rx(
    r"(?:一天|每天|每日|(?<![a-z])(?:a|per|each|every)\s+day|daily)\s*(?:要|需要)?\s*(?:处理|跑|服务)?\s*(?:约|大约)?\s*"
    + _NUM + r"\s*" + _SCALE + r"\s*(?:个\s*)?(?:tokens?|词元)\s*(?:的\s*)?(?:输入|input|prompts?|in)(?![a-z])\s*"
    r"(?:[,，、]|和|与|加|and|\+)?\s*" + _NUM.replace("num", "num2") + r"\s*" + _SCALE.replace("scale", "scale2")
    + r"\s*(?:个\s*)?(?:tokens?|词元)\s*(?:的\s*)?(?:输出|output|out|generated)(?![a-z])")
"""A day's input and output written together ("一天处理 2 亿 token 的输入和 5000 万 token 输出"): rates, not a
context."""


def _daily_in_out(state: SlotState) -> dict[str, float]:
    """`prompt_tokens_per_s` and `output_tokens_per_s` from a day's input and output volumes; the span is masked."""
    m = _DAILY_IN_OUT.search(state.text)
    if m is None:
        return {}
    prompt, output = amount_value(m.group("num")), amount_value(m.group("num2"))
    if not prompt or not output:
        return {}
    state.mask(m.start(), m.end())
    day = _SECONDS_IN["day"]
    return {"prompt_tokens_per_s": prompt * count_scale((m.group("scale") or "").lower()) / day,
            "output_tokens_per_s": output * count_scale((m.group("scale2") or "").lower()) / day}


def _per_second(state: SlotState, patterns: tuple[re.Pattern[str], ...], unit: str,
                per_person: bool = False) -> float | None:
    """The first amount a second the patterns find (its scale applied, over its time unit, `unit` when the
    pattern names none); its span is masked. `per_person`: a rate said per person is noted as such."""
    for pattern in patterns:
        m = pattern.search(state.text)
        if m is None:
            continue
        groups = {name: found for name, found in m.groupdict().items() if found}
        value = amount_value(next((found for name, found in groups.items() if name.startswith("num")), None))
        if value is None or value <= 0:
            continue
        scale = next((found for name, found in groups.items() if name.startswith("scale")), "")
        if per_person:
            note_per_person(state, m.start(), m.end())
        state.mask(m.start(), m.end())
        return value * count_scale(scale.lower()) / _SECONDS_IN[groups.get("unit", unit)]
    return None


DAILY_AVERAGE_NOTE = "daily-average"
"""A load given as a day's volume with no peak: sized at the day's mean, which the reply says (audit 30 LOW-134)."""
_A_DAY = rx(r"一天|每天|每日|日均|(?<![a-z])(?:a|per|each|every)\s+day\b|\bdaily\b|/\s*day\b")


def _volume_targets(state: SlotState) -> dict[str, float]:
    peak, window = peak_factor(state), busy_window_factor(state)
    targets: dict[str, float] = daily_token_rates(state)
    qps = _per_second(state, (_VOLUME_REQUESTS, _VOLUME_REQUESTS_ZH), "day", per_person=True)  # 日均请求量: a day's
    if qps is not None:
        targets["qps"] = qps
    total = None if targets else _per_second(state, (_VOLUME_TOKENS, _VOLUME_TOKENS_ZH, _TOTAL_TOKENS_PER_S), "second")
    if total is not None:
        targets["output_tokens_per_s"] = total
    scale = (peak or 1.0) * (window or 1.0)
    if targets and peak is None and window is None and _A_DAY.search(state.folded):
        state.notes.append(DAILY_AVERAGE_NOTE)  # "每天 100 万次请求": the day's mean, not its busy hour
    if scale != 1.0 and targets:
        # the read-back shows the rates at the peak, or over the busy hours: the day's average times the factor
        targets = {key: rate * scale for key, rate in targets.items()}
    return targets


def _observed_speed(state: SlotState) -> dict[str, float]:
    """The decode speed the text says it sees, when it asks whether that is normal (see `_OBSERVED`)."""
    if not _DOUBT.search(state.text):
        return {}
    # the last decode speed written, never a logged prompt-eval rate: a question after a pasted log restates the
    # speed it asks about ("… 2431.70 tokens per second) … 37.95 tokens per second) … Is ~38 tok/s normal?")
    text = state.text
    candidates = [m for m in _OBSERVED.finditer(text)
                  if not _PROMPT_RATE.search(text[text.rfind("\n", 0, m.start()) + 1: m.start()])]
    m = candidates[-1] if candidates else None
    if m is None:
        return {}
    value = float(m.group("num") or m.group("num2"))
    if value <= 0:
        return {}
    state.mask(m.start(), m.end())
    return {"observed_tokens_per_s": value}


def _serving_targets(state: SlotState) -> dict[str, float]:
    targets = _volume_targets(state)
    text = state.text
    m = None if "qps" in targets else (_QPS.search(text) or _QPS_CUE_FIRST.search(text)
                                       or _QPS_PER_SECOND_FIRST.search(text))
    if m is not None and float(m.group("num")) > 0:
        targets["qps"] = float(m.group("num")) * _RATE_SCALES.get(m.groupdict().get("scale") or "", 1.0)
        state.mask(m.start(), m.end())
    if "qps" not in targets:
        targets.update(requests_per_minute(state) or requests_every(state))
    m = _PER_USER.search(text) or _PER_USER_BARE.search(text)
    if m is not None:
        raw = next((value for key, value in m.groupdict().items() if key.startswith("num") and value), "")
        scale = _PER_USER_SCALES.get(m.groupdict().get("scale") or "", 1.0)
        if float(raw) > 0:
            # a speed no card decodes one sequence at ("5 million tokens per second … for EACH user") is kept as
            # written: the reply says the target is missed on any set-up, not a plan that seems to meet it
            targets["tokens_per_s_per_user"] = float(raw) * scale
            state.mask(m.start(), m.end())
    m = _TTFT.search(text)
    if m is not None and float(m.group("num") or m.group("num2")) > 0:
        unit = m.group("unit") or m.group("unit2")
        seconds = float(m.group("num") or m.group("num2")) / (1000.0 if unit.startswith("m") or unit == "毫秒"
                                                                 else 1.0)
        targets["ttft_s"] = seconds
        if m.group("num2"):
            state.mask(m.start("num2") - 12, m.end())  # the target only: the prompt's length stays to be read
        else:
            state.mask(m.start(), m.end())
    targets.update(request_latency(state))  # after the first-token time, which names its own
    return targets


_POINT_IN_RUN_BEFORE = re.compile(
    r"(?:\bafter|\bat|\baround|\bby|\buntil|\bstep|第)\s*(?:~|about|around|roughly|约|大约)?\s*$")
"""Words before a step count that make it a point in the run ("keeps OOMing after ~40 steps", "在第 40 步"), not
its length (audit 39 M-159: the crash point was timed and priced as the whole job)."""
_PROGRESS_BAR = rx(r"(?<![\d/])(?P<done>\d{1,7})\s*/\s*(?P<num>\d{1,7})\s*\[\d{1,3}:\d{2}(?::\d{2})?\s*<")
"""A trainer's progress bar ("41/1250 [06:12<3:02:51, 9.08s/it]", tqdm's format): the run's total steps."""
_STEP_PACE = re.compile(r"\[[\d:]+\s*<\s*[\d:]+\s*,\s*(?P<pace>\d+(?:\.\d+)?)\s*(?P<unit>s/it|it/s)")
"""The pace the bar prints beside it ("9.08s/it", or "1.25it/s" for fast steps)."""


def logged_progress(text: str) -> list[float] | None:
    """[steps done, steps in all, seconds a step] from a pasted progress bar, or None: the run's own pace, from
    which the time left on the card it runs on follows without any model (audit 40 HIGH-128: ignored)."""
    bar = _PROGRESS_BAR.search(text)
    pace = _STEP_PACE.search(text, bar.start()) if bar is not None else None
    if bar is None or pace is None:
        return None
    value = float(pace.group("pace"))
    seconds = value if pace.group("unit") == "s/it" else (1.0 / value if value > 0 else 0.0)
    done, total = float(bar.group("done")), float(bar.group("num"))
    if seconds <= 0 or total < 1 or done > total:
        return None
    return [done, total, round(seconds, 4)]


def _training_steps(state: SlotState) -> int | None:
    """Optimizer steps of a training job: the trainer's flag or its progress bar's total, or "N steps" when the
    text is about training and the steps are neither a sampler's ("50 inference steps") nor a point in the run."""
    text = state.text
    m = _STEPS_FLAG.search(text)
    if m is None and _TRAINING_CUE.search(text):
        m = _PROGRESS_BAR.search(text)
    if m is None and _TRAINING_CUE.search(text):
        m = next((found for found in _TRAIN_STEPS.finditer(text)
                  if not _SAMPLER_BEFORE.search(text[max(0, found.start() - 12): found.start()])
                  and not _POINT_IN_RUN_BEFORE.search(text[max(0, found.start() - 12): found.start()])), None)
    if m is None:
        return None
    value = amount_value(m.group("num").replace(",", ""))
    if value is None or value < 1:
        return None
    state.mask(m.start(), m.end())
    scale = 1000.0 if m.groupdict().get("scale") else 1.0
    return int(bounded(state, "training_steps", value * scale, MAX_TRAINING_STEPS))


def parse_workload_size(state: SlotState) -> dict[str, Any]:
    """Question fields for the amount of work and the serving targets; the spans read are masked.

    Run before the context, size and count slots so they never read a token budget as a context or a model.
    """
    text_before = state.text
    token_cost = ASKS_TOKEN_COST.search(text_before) is not None
    fields: dict[str, Any] = {
        "asks_cost": token_cost or ASKS_COST.search(text_before) is not None,
        "asks_token_cost": token_cost,
        "asks_time": ASKS_TIME.search(text_before) is not None,
        "asks_latency": asks_latency(text_before),
        "asks_max_context": ASKS_MAX_CONTEXT.search(text_before) is not None,
        "asks_concurrency": ASKS_CONCURRENCY.search(text_before) is not None,
        "asks_max_rate": ASKS_MAX_RATE.search(text_before) is not None,
        "asks_overflow": ASKS_OVERFLOW.search(state.folded) is not None,
        "asks_spot": ASKS_SPOT.search(state.folded) is not None,  # before any slot masked "fp16 OOM"
        "asks_running_cost": ASKS_RUNNING_COST.search(state.folded) is not None,
        **parse_service_rate(state),  # first: "100 docs per query", "1000 texts per second" are no job's samples
        **_daily_in_out(state),  # before the amounts: "一天 2 亿 token 的输入" is a rate, not a job's tokens
    }
    if not names_training(state.text) and names_day_volume(state):
        # "每天大概 5 亿 token" with no training named is a load to serve a day, not a job of 500M tokens run once
        # over a month at one sequence (audit 28 HIGH 42, PA4)
        fields.update(_volume_targets(state))
    per_sample = epoch_tokens(state)
    tokens = per_sample[0] if per_sample is not None else _amount_tokens(state)
    if per_sample is not None and 0 < per_sample[1] <= MAX_SAMPLE_TOKENS:
        fields["sample_tokens"] = per_sample[1]
    if tokens is not None and tokens > 0:
        fields["tokens"] = tokens
        state.stated.append("tokens")
    else:
        bare = bare_samples(state)
        if bare is not None:
            fields["training_samples"] = bare[0]
            state.stated.append("training_samples")
            if bare[1]:
                fields["training_epochs"] = bare[1]
                state.stated.append("training_epochs")
    progress = logged_progress(state.text) if _TRAINING_CUE.search(state.text) else None
    if progress is not None:
        fields["logged_progress"] = progress
    steps = _training_steps(state)
    if steps is not None:
        fields["training_steps"] = steps
        state.stated.append("training_steps")
    if _SUBSCRIPTION.search(state.text):
        fields["subscription"] = True
    hours = _hours(state)
    if hours is not None:
        fields["hours"] = hours
        state.stated.append("hours")
    fields.update(_observed_speed(state))
    fields.update({k: v for k, v in _serving_targets(state).items() if k not in fields})
    return fields


__all__ = ["parse_workload_size"]
