"""Service rates in ordinary words, and numbers of tokens that only name a price's unit.

Read before the job's size (bot.understand.slots.workload_size), which would otherwise take "100 docs" or
"1000 texts" for a set of documents to embed, and before the context, which would take "一百万 token" for a
million-token window:

* texts per request: "rerank 100 docs per query", "each request carries 32 texts", "每个查询100篇文档" →
  `texts_per_request`. A reranker scores every query-document pair and an embedding request may carry a batch of
  texts, so an encoder's serving load is the request rate times this (bot.reply.serving).
* rate: "1000 texts per second", "500 sentences/s", "每秒1000条", "1000条每秒", "1000条/秒" → `qps` (each
  text one request), as "1000 QPS" is read.
* per-token latency: "under 50 ms per output token", "TPOT 50 ms", "每个token 50ms" → `tokens_per_s_per_user`
  (1 / the seconds a token), the field "at least 20 tokens/s per user" sets.
* price units: "per million tokens", "每百万 token", "一百万 token 多少钱": masked and nothing else, so no slot
  reads a price's unit as a context or a job's tokens; the cost cue itself is read from the unmasked text.

Two more are read with the other serving targets (bot.understand.slots.workload_size), after the first-token
time: requests a minute ("200 req/min", "每分钟200个请求") → `qps`, and a whole request's latency ("p50 latency under
3s") → `latency_s`, which `latency_as_speed` turns into the per-user speed that meets it once the output length
is read.
"""

from __future__ import annotations

from typing import Any

from bot.understand.numbers import COUNT_SCALES, number
from bot.understand.slots.base import SlotState, bounded, rx

MAX_TEXTS_PER_REQUEST = 100_000
"""Texts one request may carry: rerankers take at most a few thousand candidates, embedding APIs a few
thousand inputs a call (OpenAI's limit is 2,048); beyond this the number is not a request's."""

_TEXTS_EN = (r"(?:candidate\s+|retrieved\s+)?(?:docs?|documents?|passages?|candidates?|texts?|chunks?|sentences?|"
             r"items?|inputs?|(?:query[- ](?:doc(?:ument)?|passage|text)\s+)?pairs?)")
_TEXTS_ZH = r"(?:文档|文本|文件|文章|段落|候选|句子?|条目|片段|数据)"
_REQUEST_EN = r"(?:quer(?:y|ies)|requests?|calls?|searche?s?)"
_PER_REQUEST = rx(
    r"(?<![a-z0-9.])(?P<num>\d+)\s*" + _TEXTS_EN + r"(?:\s+(?:reranked|scored|ranked|embedded|retrieved))?"
    r"(?P<len>\s*(?:of|at|,)\s*(?:about|around|~)?\s*\d+(?:\.\d+)?\s*k?"
    r"\s*-?\s*tokens?(?:\s+each)?)?\s*,?\s*(?:per|each|a|for\s+each|in\s+each|with\s+each|/)\s*"
    r"(?:user\s+)?" + _REQUEST_EN + r"(?![a-z])"
    r"|\b(?:each|every|per)\s+" + _REQUEST_EN + r"\s+(?:has|with|carries|contains|of|sends?|scores?|reranks?|"
    r"embeds?|brings?)?\s*(?:about|around|~|up\s+to)?\s*(?P<num2>\d+)\s*" + _TEXTS_EN + r"(?![a-z])"
    r"|每\s*(?:(?:个|次|条)?\s*(?:查询|请求|query|问题|调用|次检索)|次)\s*(?:有|带|包含|召回|需要|要|对应)?\s*(?:约|大约)?\s*"
    r"(?P<num3>\d+)\s*(?:个|篇|条|份|段)?\s*(?P<len2>(?:每篇|每条|各)?\s*(?:约|大约)?\s*\d+(?:\.\d+)?\s*k?\s*"
    r"(?:tokens?|个\s*token|词元|字)\s*(?:的|左右的)?\s*)?" + _TEXTS_ZH
    + r"|\b(?:each|every)\s+(?:one\s+)?(?:rerank(?:ing|s)?|scor(?:ing|es)|rank(?:ing|s)|embedd?(?:ing|s)|"
    r"carrying|having|with)\s+(?:about|around|~|up\s+to)?\s*(?P<num4>\d+)\s*" + _TEXTS_EN + r"(?![a-z])"
    r"|每\s*(?:个|次|条)?\s*(?:查询|请求)?\s*(?:都)?\s*(?:重排序?|排序|打分|精排|rerank)\s*(?:约|大约)?\s*(?P<num5>\d+)"
    r"\s*(?:(?:个|篇|条|份|段)\s*(?:" + _TEXTS_ZH + r")?|" + _TEXTS_ZH + r")"
    r"|\b(?:rerank(?:ing|s)?|scor(?:e|es|ing)|embed(?:ding|s)?)\s+(?:about|around|~|up\s+to)?\s*(?P<num6>\d+)\s*"
    + _TEXTS_EN + r"\s+(?:each|apiece)\b"
    r"|(?:\bwith|\band|,)\s+(?:about\s+|around\s+|~\s*|up\s+to\s+)?(?P<num7>\d+)\s*" + _TEXTS_EN
    + r"\s+(?:each|apiece)\b"
)
"""Texts each request carries ("rerank 100 docs per query"): the documents a reranker scores against the query."""
_SCALE = r"\s*(?P<scale>k|千|万)?"
_NOT_TOKENS = r"(?!\s*(?:tokens?|toks?|词元|字|张|幅|帧|图|小时|分钟))"
_RATE = rx(
    r"(?<![a-z0-9.,])(?P<num>\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)" + _SCALE + r"\s*" + _TEXTS_EN
    + r"\s*(?:per\s+sec(?:ond)?|a\s+second|each\s+second|every\s+second|/\s*s(?:ec)?)(?![a-z])"
    r"|每秒(?:钟)?\s*(?:要|需要)?\s*(?:处理|编码|承载|向量化|计算|来|有)?\s*(?:约|大约)?\s*"
    r"(?P<num2>\d+(?:\.\d+)?)\s*(?P<scale2>k|千|万)?\s*(?:个|次|条|篇|句|份|笔|筆)" + _NOT_TOKENS
    + r"\s*(?:" + _TEXTS_ZH + r"|请求|查询|调用)?"
    r"|(?<![\d.])(?P<num3>\d+(?:\.\d+)?)\s*(?P<scale3>k|千|万)?\s*(?:个|次|条|篇|句|份|笔|筆)" + _NOT_TOKENS
    + r"\s*(?:" + _TEXTS_ZH + r"|请求|查询|调用)?\s*(?:每秒|/\s*秒|/\s*s(?:ec)?\b)"
    r"|(?<![a-z0-9.,])(?P<num4>\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)\s*(?P<scale4>k|m|million|千|万)?\s*" + _TEXTS_EN
    + r"\s*(?:per|an?|each|every|/)\s*(?P<per4>hour|hr|h|minute|min)(?![a-z])"
)
"""A request rate counted in texts: each text one request, as "1000 QPS" is."""
_UNIT = r"(?:ms|milliseconds?|s|secs?|seconds?|毫秒|秒)"
_PER_TOKEN_LATENCY = rx(
    r"(?<![a-z0-9.])(?P<num>\d+(?:\.\d+)?)\s*(?P<unit>" + _UNIT
    + r")\s*(?:per|/|a|each|for\s+each|every|每\s*(?:个)?)\s*"
    r"(?:output\s+|generated\s+|decoded?\s+|new\s+)?tokens?(?![a-z])"
    r"|(?:\btpot|\bitl|inter[- ]token\s+latency|time\s+per\s+output\s+token|per[- ]token\s+latency|"
    r"每\s*(?:个)?\s*(?:输出\s*)?token\s*(?:的)?\s*(?:延迟|耗时|时间)?|token\s*间\s*(?:延迟|隔))\s*"
    r"(?:要|需要|必须|得|应|应该)?\s*(?:控制在|做到|压到|降到)?\s*"  # "延迟要低于 30 毫秒" (audit 29 HIGH 58)
    r"(?:of|under|below|<=?|less\s+than|at\s+most|within|=|:|小于|低于|不超过|不高于|在|为)?\s*"
    r"(?P<num2>\d+(?:\.\d+)?)\s*(?P<unit2>" + _UNIT + r")(?![a-z])"
)
"""A latency per generated token (TPOT): its inverse is the decode speed each user must see."""
_LOGGED_TIMING = rx(r"\(\s*\d+(?:\.\d+)?\s*ms\s+per\s+token\s*,\s*\d+(?:\.\d+)?\s*tokens\s+per\s+second\s*\)")
"""A timing an engine logged ("(26.35 ms per token, 37.95 tokens per second)", llama.cpp's print_timings): what the
asker measured, never a latency they ask for (audit 28 M-51: a pasted log's prompt-eval rate became a 2,439 tok/s
per-user target)."""
_UNIT_AMOUNT = r"(?:(?:1|one|a|一)\s*)?(?:million|mn?|thousand|k|百万|千)|100\s*万|1,?000(?:,?000)?"
_PRICE_UNIT = rx(
    r"(?:\bper|\bevery|每|/)\s*(?:" + _UNIT_AMOUNT + r")?\s*(?:个\s*)?(?:output\s+|generated\s+|input\s+)?"
    r"tokens?(?![a-z])"
    r"|(?<![a-z0-9.])(?:" + _UNIT_AMOUNT + r")\s*(?:个\s*)?(?:output\s+|generated\s+)?tokens?\s*(?:的\s*)?"
    r"(?=成本|费用|价格|单价|多少钱|要多少|costs?\b|price)"
)
"""Tokens that are the unit a price is asked in ("per million tokens", "一百万 token 多少钱"), not a context."""


_IMAGE_COUNT_WORDS = r"two|three|four|five|six|seven|eight|nine|ten|a\s+couple\s+of|a\s+pair\s+of"
_IMAGE_SIZE = r"(?:\d{3,4}\s*[x×*]\s*\d{3,4}\s+|\d{3,4}\s*p\s+|(?:hd|full[- ]hd|4k)\s+)?"
_IMAGES_IN = rx(
    r"(?:(?:一次|每次|每个请求|每次请求|每条请求|单次)\s*(?:输入|上传|传入|带|附带|包含|有)?|输入|上传|传入)\s*(?:约|大约)?\s*"
    r"(?P<num>\d{1,4})\s*(?:张|幅|个)\s*(?:\d{3,4}\s*p\s*)?(?:的\s*)?(?:图片|图像|照片|截图|图)"
    r"|(?<![a-z0-9.])(?P<num2>\d{1,4})\s+(?:(?:input|attached|uploaded)\s+(?:images?|pictures?|photos?|screenshots?)"
    r"|(?:images?|pictures?|photos?|screenshots?)\s+(?:as\s+input|in\s+(?:each|every|the|one|a)\s+(?:prompt|message)))"
    r"|\beach\s+(?:with|carrying|containing|having|has|sends?|attaching)\s+(?P<num3>\d{1,4}|"
    + _IMAGE_COUNT_WORDS + r")\s+"
    + _IMAGE_SIZE + r"(?:images?|pictures?|photos?|screenshots?)\b"
    r"|\b(?:with|carrying|containing|attaching)\s+(?P<num4>\d{1,4}|" + _IMAGE_COUNT_WORDS + r")\s+" + _IMAGE_SIZE
    + r"(?:images?|pictures?|photos?|screenshots?)\s+(?:each|apiece|per\s+(?:request|query|call|message))\b"
)
"""Images a vision-language request carries ("一次输入 5 张 1080p 图片", "20 input images"): their count, never a
number of cards or a context length ("images per request" is left alone: for an image generator it is the batch)."""


def _scaled(raw: str, scale: str | None) -> float:
    return float(raw.replace(",", "")) * COUNT_SCALES.get((scale or "").lower(), 1.0)


def parse_service_rate(state: SlotState) -> dict[str, Any]:
    """Question fields for a service's texts per request, its rate in texts and its per-token latency; the
    spans read (and any price unit in tokens) are masked."""
    fields: dict[str, Any] = {}
    logged = [t.span() for t in _LOGGED_TIMING.finditer(state.text)]
    m = next((m for m in _PER_TOKEN_LATENCY.finditer(state.text)
              if not any(a <= m.start() < b for a, b in logged)), None)
    if m is not None:
        value, unit = float(m.group("num") or m.group("num2")), m.group("unit") or m.group("unit2")
        seconds = value / 1000.0 if unit.startswith("m") or unit == "毫秒" else value
        if seconds > 0:
            fields["tokens_per_s_per_user"] = round(1.0 / seconds, 3)
            state.mask(m.start(), m.end())
    for m in _PRICE_UNIT.finditer(state.text):  # after the latency: "50 ms per token" is not a price
        state.mask(m.start(), m.end())
    m = _IMAGES_IN.search(state.text)
    if m is not None:
        raw_images = m.group("num") or m.group("num2") or m.group("num3") or m.group("num4")
        fields["images_per_request"] = int(number(raw_images) or 1)
        state.stated.append("images_per_request")
        state.mask(m.start(), m.end())
    m = _PER_REQUEST.search(state.text)
    if m is not None:
        raw = m.group("num") or m.group("num2") or m.group("num3") or m.group("num4") or m.group("num5")
        raw = raw or m.group("num6") or m.group("num7")  # "200 QPS with 50 candidates each" (audit 29 HIGH 48)
        if int(raw) > 0:
            fields["texts_per_request"] = int(bounded(state, "texts_per_request", float(raw), MAX_TEXTS_PER_REQUEST))
            state.stated.append("texts_per_request")
            length = "len" if m.group("len") else "len2" if m.group("len2") else None
            if length is not None:  # "20 docs of 400 tokens per query", "每次 30 篇 300 token 的文件": each text's
                state.mask(m.start(), m.start(length))  # length, left for the context slot
                state.mask(m.end(length), m.end())
            else:
                state.mask(m.start(), m.end())
    m = _RATE.search(state.text)
    if m is not None:
        which = next(name for name in ("num", "num2", "num3", "num4") if m.group(name))
        rate = _scaled(m.group(which), m.group(which.replace("num", "scale")))
        if which == "num4":  # "1M chunks per hour" (audit 29 M-64): the same rate a second
            rate /= 60.0 if m.group("per4").startswith("min") else 3600.0
        if rate > 0:
            fields["qps"] = rate
            state.mask(m.start(), m.end())
    return fields


_LATENCY = rx(r"(?:\b(?:p\d{2}|median|avg|average|mean|end[- ]to[- ]end|e2e|response|request)\s+)?\blatency\s*"
              r"(?:target\s*)?(?:(?:be|stay|get|kept|keep|go)\s+)?"
              r"(?:of|under|below|within|<=?|less\s+than|at\s+most|is|=|:)?\s*"
              r"(?P<num>\d+(?:\.\d+)?)\s*(?P<unit>ms|milliseconds?|s|sec(?:onds?)?)(?![a-z])"
              r"(?:\s*for\s+(?P<gen>\d+)\s*(?:output\s+|new\s+|generated\s+)?tokens?(?![a-z]))?|"
              r"(?:p\d{2}\s*(?:(?:端到端|响应|请求)?(?:延迟|延时|时延|响应时间))?|(?:端到端|响应|请求)?(?:延迟|延时|时延|响应时间))\s*"
              r"(?:要|需要|能|能否|能不能|可以|可不可以)?\s*(?:做到|达到|控制在|压到|保持在)?\s*"
              r"(?:小于|低于|不超过|在|<=?)?\s*"
              r"(?P<num2>\d+(?:\.\d+)?)\s*(?P<unit2>ms|毫秒|s|秒)\s*(?:以内|之内|内)?")
"""A whole request's latency the service must meet ("p50 latency under 3s", "p95 latency < 500ms", "延迟小于2秒"):
read after the first-token time, which names its own."""
_QPM = rx(r"(?<![a-z0-9.])(?P<num>\d+(?:\.\d+)?)\s*(?:(?:requests?|reqs?|quer(?:y|ies)|calls?|completions?|"
          r"prompts?|questions?|messages?|msgs?|chats?)\s*"
          r"(?:per\s+min(?:ute)?|a\s+minute|/\s*min(?:ute)?|every\s+minute)(?![a-z])|rpm\b)|"
          r"每分钟\s*(?:要|需要)?\s*(?:处理|承载|发送?|提交|调用|问|提问|发起)?\s*(?P<num2>\d+(?:\.\d+)?)\s*(?:个|次|条)?\s*"
          r"(?:请求|调用|查询|问题|提问|消息)")
"""Requests a minute ("200 req/min", "每分钟200个请求"): a sixtieth of them a second."""


PER_USER_RATE_NOTE = "rate-per-user"
"""The request rate was stated per person ("每人每分钟 10 次请求", "10 requests a minute per user"): the whole
load is that rate times the people counted (bot.understand.parse), not the rate itself."""
_PER_PERSON_BEFORE = rx(r"(?:每人|每个人|人均|每(?:位|名|个)?\s*"
                        r"(?:用户|开发者|开发|坐席|员工|客服|同事|工程师|程序员|分析师|人))\s*$"
                        r"|(?:每位|每名)\s*$"
                        r"|\b(?:each|every)\b[^.;\n]{0,50}?\s(?:sends?|sending|makes?|making|does|doing|fires?|firing|"
                        r"issues?|issuing|submits?|submitting|runs?|running|averag(?:es?|ing)|asks?|asking|has|have)"
                        r"(?:\s+(?:off|out|in))?\s*(?:about|around|~|roughly|up\s+to)?\s*$"
                        r"|\b(?:each|every\s+(?:one|user|person|employee|agent|dev(?:eloper)?|engineer))"
                        r"\s*(?:about|around|~|roughly)?\s*$")
_PER_PERSON_AFTER = rx(r"^\s*(?:per|a|each|for\s+each)\s+(?:user|person|head|dev(?:eloper)?|engineer|seat)\b"
                       r"|^\s*each\b")


_PEOPLE_COUNT = rx(r"(?<![\d.])(?P<n>\d{1,7})\s*(?:个|名|位)?\s*(?:客服)?"
                   r"(?:坐席|用户|员工|程序员|开发者|开发|同事|工程师|客服|座席|人)"
                   r"|(?<![\d.])(?P<n2>\d{1,7})\s+(?:\w+\s+)?(?:users?|people|persons|employees|agents|seats|"
                   r"developers|devs|engineers|customers|members|students|analysts|reps|representatives|"
                   r"operators|staff|colleagues|workers|testers|writers|lawyers|doctors|nurses|teachers)\b")
"""A head count ("50 个客服坐席", "300 employees", "100 support agents"): who a per-person rate is multiplied by
when no user or batch count was read."""


def people_count(text: str) -> int | None:
    """The head count a per-person request rate is for, as written; None when none is."""
    m = _PEOPLE_COUNT.search(text)
    if m is None:
        return None
    n = int(m.group("n") or m.group("n2"))
    return n if n > 1 else None


def note_per_person(state: SlotState, start: int, end: int) -> None:
    """Notes `PER_USER_RATE_NOTE` when the rate read at `start:end` is said per person ("每人每分钟 10 次",
    "6 requests a minute each")."""
    if (_PER_PERSON_BEFORE.search(state.text[max(0, start - 70): start])
            or _PER_PERSON_AFTER.search(state.text[end: end + 24])):
        state.notes.append(PER_USER_RATE_NOTE)


_EVERY = rx(r"每\s*(?P<num>\d+(?:\.\d+)?)\s*(?P<unit>秒|分钟)\s*(?:钟)?\s*(?:发|发送|提交|调用|发起|问)?\s*(?:一|1)\s*"
            r"(?:次|个|条)\s*(?:请求|调用|查询|补全)?"
            r"|\b(?:a|one)\s+(?:request|query|call|completion|prompt)\s+every\s+(?P<num2>\d+(?:\.\d+)?)\s*"
            r"(?P<unit2>s|secs?|seconds?|mins?|minutes?)\b")
"""A request every N seconds or minutes ("每人每 10 秒一次请求", "each sends a request every 10 seconds"): one
N-th of a request a second, per person when said so."""
_ONLINE = rx(r"(?:同时|平均同时|同时在线)\s*(?P<n>\d{1,7})\s*(?:个|位|名)?\s*(?:人|用户|工程师|开发者)?\s*(?:在线)?"
             r"|(?<![\d.])(?P<n2>\d{1,7})\s+(?:\w+\s+)?(?:users?|people|engineers|developers|devs)?\s*"
             r"(?:online|active)\s+at\s+(?:once|a\s+time)")
"""The people online at once ("平均同时 15 人在线", "15 users online at once"): a per-person rate comes from them,
not from the whole team a message also counts ("50 个工程师 … 同时 15 人在线")."""


def online_count(text: str) -> int | None:
    m = _ONLINE.search(text)
    return int(m.group("n") or m.group("n2")) if m is not None else None


def requests_every(state: SlotState) -> dict[str, float]:
    """`qps` from a request every N seconds or minutes; a rate stated per person is noted (`PER_USER_RATE_NOTE`)."""
    m = _EVERY.search(state.text)
    if m is None or float(m.group("num") or m.group("num2")) <= 0:
        return {}
    unit = m.group("unit") or m.group("unit2")
    seconds = float(m.group("num") or m.group("num2")) * (60.0 if unit.startswith(("分", "m")) else 1.0)
    note_per_person(state, m.start(), m.end())
    state.mask(m.start(), m.end())
    return {"qps": 1.0 / seconds}


def requests_per_minute(state: SlotState) -> dict[str, float]:
    """`qps` from a rate per minute ("200 req/min"); the span is masked. A rate stated per person is noted
    (`PER_USER_RATE_NOTE`) so the people counted multiply it."""
    m = _QPM.search(state.text)
    if m is None or float(m.group("num") or m.group("num2")) <= 0:
        return {}
    note_per_person(state, m.start(), m.end())
    state.mask(m.start(), m.end())
    return {"qps": float(m.group("num") or m.group("num2")) / 60.0}


_FINISH_WITHIN = rx(r"\b(?:finish(?:es|ed)?|complete[sd]?|return(?:s|ed)?|come\s+back|be\s+done|respond|arrive)\s+"
                   r"(?:end[- ]to[- ]end\s+)?(?:with)?in\s+(?:under\s+|less\s+than\s+|at\s+most\s+)?"
                   r"(?P<num>\d+(?:\.\d+)?)\s*(?P<unit>ms|milliseconds?|s|secs?|seconds?)(?![a-z])|"
                   r"(?:要|需要|必须|得)?\s*在?\s*(?P<num2>\d+(?:\.\d+)?)\s*(?P<unit2>毫秒|ms|秒|s)\s*(?:以内|之内|内)\s*"
                   r"(?:返回|完成|回复|回覆|答完|生成完|结束|給出|给出)")
"""A whole reply that must finish in a time ("each 500-token answer must finish within 5 s", "要在 5 秒内返回"):
a request's latency, as "latency under 5 s" is (audit 30 HIGH 67: dropped, a card 6× too slow recommended)."""


def request_latency(state: SlotState) -> dict[str, float]:
    """`latency_s` from a whole request's latency ("p95 latency < 500ms for 64 tokens", the output length then
    read too; "must finish within 5 s"); the span is masked."""
    m = _LATENCY.search(state.text)
    if m is None:
        finish = _FINISH_WITHIN.search(state.text)
        if finish is not None and float(finish.group("num") or finish.group("num2")) > 0:
            unit = finish.group("unit") or finish.group("unit2")
            seconds = float(finish.group("num") or finish.group("num2")) / (
                1000.0 if unit.startswith("m") or unit == "毫秒" else 1.0)
            state.notes.append(WHOLE_REQUEST_NOTE)
            state.mask(finish.start(), finish.end())
            return {"latency_s": seconds}
    if m is None or float(m.group("num") or m.group("num2")) <= 0:
        return {}
    unit = m.group("unit") or m.group("unit2")
    seconds = float(m.group("num") or m.group("num2")) / (1000.0 if unit.startswith("m") or unit == "毫秒" else 1.0)
    if m.group("gen"):
        state.set("gen_tokens", int(m.group("gen")))  # "latency < 500ms for 64 tokens": each reply's length
    if _WHOLE_REQUEST.search(m.group(0)):
        state.notes.append(WHOLE_REQUEST_NOTE)
    state.mask(m.start(), m.end())
    return {"latency_s": seconds}


_WHOLE_REQUEST = rx(r"end[- ]to[- ]end|e2e|response|request|端到端|响应|请求")
WHOLE_REQUEST_NOTE = "latency-whole-request"
"""The latency was said to be a whole request's ("end-to-end", "response time"): never read as the first token."""
LATENCY_AS_FIRST_TOKEN_S = 1.0
"""A latency target this short, for replies of no stated length, is read as the time to the first token: a chat
reply of a paragraph (LATENCY_OUTPUT_TOKENS) in under a second would take over 256 tok/s for each user, which no
card decodes one sequence at, so the target would be missed by construction (audit 29 M-65)."""
LATENCY_AS_TTFT_NOTE = "latency-as-ttft"


ASKS_LATENCY = rx(
    r"\blatenc(?:y|ies)\b|\b(?:what|which|the|our|a)\s+p(?:50|90|95|99)\b|\bp(?:50|90|95|99)\s*\?|"
    r"\bresponse\s+times?\b|\bttft\b|\btime[\s-]+to[\s-]+first[\s-]+token\b|\bfirst[- ]token\s+(?:time|delay)\b|"
    r"\bhow\s+long\s+(?:does|will|would|do)\s+(?:a|each|one|the|every)\s+(?:single\s+)?"
    r"(?:request|response|reply|answer|query|call|completion)s?\b|"
    r"延迟|延遲|响应时间|響應時間|回应时间|回應時間|首\s*token|首字"
)
"""The question asks how long one request takes (or its first token), with or without a target: the reply then
gives a request's time on the configuration it times (bot.reply.side_figures.request_time)."""


def asks_latency(text: str) -> bool:
    return ASKS_LATENCY.search(text) is not None


LATENCY_OUTPUT_TOKENS = 256
"""Output of one request when a latency target does not say it: a chat reply's paragraph. Said under Assumed, as the
speed each user needs is this divided by the latency."""
LATENCY_OUTPUT_NOTE = "latency-output-assumed"


def latency_as_speed(state: SlotState, work: dict[str, Any]) -> None:
    """A whole request's latency (`latency_s`) → the per-user decode speed that meets it, output tokens ÷ latency,
    unless a per-user speed is stated too. Run after the context slots, which read the output length."""
    latency = work.get("latency_s")
    if not latency or work.get("tokens_per_s_per_user"):
        return
    generated = state.values.get("gen_tokens")
    if (not isinstance(generated, int) and float(latency) <= LATENCY_AS_FIRST_TOKEN_S and not work.get("ttft_s")
            and WHOLE_REQUEST_NOTE not in state.notes):
        work["ttft_s"] = work.pop("latency_s")  # "p95 latency under 500 ms": the first token's, said so
        state.notes.append(LATENCY_AS_TTFT_NOTE)
        return
    if not isinstance(generated, int):
        generated = LATENCY_OUTPUT_TOKENS
        state.values["gen_tokens"] = generated
        state.notes.append(LATENCY_OUTPUT_NOTE)
    work["tokens_per_s_per_user"] = round(generated / float(latency), 1)


__all__ = [
    "LATENCY_AS_TTFT_NOTE",
    "LATENCY_OUTPUT_NOTE",
    "LATENCY_OUTPUT_TOKENS",
    "MAX_TEXTS_PER_REQUEST",
    "asks_latency",
    "latency_as_speed",
    "online_count",
    "parse_service_rate",
    "request_latency",
    "requests_every",
    "requests_per_minute",
]
