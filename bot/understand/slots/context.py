"""Context length, generated tokens and batch/concurrency ("32k context", "生成512个token", "64 users")."""

from __future__ import annotations

import re

from bot.understand.numbers import COUNT_SCALES, number
from bot.understand.question import MAX_BATCH, MAX_CONTEXT, MAX_OUTPUT_TOKENS, MAX_USERS
from bot.understand.slots.base import NUM, SlotState, bounded, read_number, rx
from bot.understand.slots.cues import CHAT_NOUNS, GROUP_JOIN, OFFLINE_JOB

# -- context, generated tokens, batch ---------------------------------------------------------------
_CTX_UNIT = r"\s*(?P<unit>k|m|万|千|亿|million|billion|thousand)?(?![a-z0-9])"
_PEOPLE = (r"(?:people|ppl|persons?|folks?|peeps|customers?|devs|developers?|engineers?|employees?|staff|"
           r"analysts?|researchers?|scientists?|agents?|students?|colleagues?|teammates?|members?)")
"""People using a service, as typed in chat too: "20 ppl", "50 folks", "10 peeps"."""
_AT_ONCE = r"(?:at\s+once|at\s+(?:the\s+)?same\s+time|simultaneously|concurrently)(?![a-z])"
""""20 at once", "20 ppl at the same time": that many served together."""
_BATCH_WORD_NEXT = (r"(?!\s*(?:concurrent|simultaneous|parallel|users?|usrs?|requests?|sessions?|streams?|clients?|"
                    + _PEOPLE + r"|" + _AT_ONCE + r"|路|个|人|用户|并发))")
"""A number a batch word follows ("32k context 16 concurrent") is the batch, not the context."""
_CONTEXT_CUE_FIRST = rx(
    r"(?:context(?:[ _-]?(?:length|window|size|len))?|ctx|上下文(?:长度|窗口)?|序列长度|序列|"
    r"seq(?:uence)?(?:[ _-]?(?:len(?:gth)?))?|max[-_ ]?(?:model|seq)[-_ ]?len(?:gth)?|prompts?(?:[ _-]length)?|"
    r"cutoff(?:[-_ ]?len(?:gth)?)?|model[-_]max[-_]length|max[-_]length|input(?:[ _-]?(?:length|len|tokens))?|"
    r"输入长度|输入|提示词?(?:长度)?)\s*(?:of|is|=|:|为|是|达到|到|约|大约|about|around|up\ to|~|(?:set\s+)?(?:to|at)|"
    r"设成|设为|设置为|设置成|设到|改成|改为|调到|调成|开到|开成)?\s*(?:about|around|~)?\s*"
    + NUM + _CTX_UNIT + _BATCH_WORD_NEXT
)
_CUE_FIRST_TAIL = NUM + _CTX_UNIT + _BATCH_WORD_NEXT
_CONTEXT_CUE_LONG = rx(_CONTEXT_CUE_FIRST.pattern[: -len(_CUE_FIRST_TAIL)]
                       + r"(?P<num>\d{3,7}|\d{1,4}(?:\.\d+)?(?=\s*(?:k|m|万|千)(?![a-z0-9])))" + _CTX_UNIT)
"""A context word and a length too long to be a count ("上下文长度 32768 并发数 16"): the length, though a batch word
follows it, which `_CONTEXT_CUE_FIRST` takes as "context 16 concurrent" (audit 31 HIGH 74 residue)."""
_CONTEXT_CUE_AFTER = rx(
    NUM + _CTX_UNIT + r"\s*(?:-\s*)?(?:tokens?\s*)?(?:of\s+)?"
    r"(?:context|ctx|的?上下文|长上下文|的?序列|sequence|seq\b|prompts?|input(?:\s+tokens?)?(?![a-z])"
    r"|(?<=tokens\s)in\b(?!\s+(?:total|all|each|a|an|the|my|our|one|two|\d)))"
)
_TOKENS_BARE = rx(NUM + _CTX_UNIT + r"\s*(?:-\s*)?tokens?(?![a-z])(?!\s*/\s*s)(?!\s*per)")
_K_BARE = rx(
    r"(?<![a-z0-9.])(?P<num>\d+(?:\.\d+)?)\s*(?P<unit>k)(?![a-z0-9])"
    r"(?!\s*(?:concurrent|simultaneous|parallel|users?|usrs?|requests?|sessions?|" + _PEOPLE + r"|steps?|samples?|"
    r"images?|rows?|examples?|documents?|qps|rps|hours?|hrs?|minutes?|mins?|days?|weeks?|months?|"
    r"usd|us\$|dollars?|bucks|cny|rmb|yuan|eur|euros?|capex|opex|budget|dau|mau|daily|monthly|weekly|"
    r"个|人|用户|条|张|步|样本|小时|分钟|天|元|块|美元|美金|人民币|预算|日活|月活))"
)
_HOW_MANY_K = rx(
    r"how\s+many\s+(?:more\s+)?(?:concurrent\s+|simultaneous\s+|parallel\s+)?"
    r"(?P<num>\d+(?:\.\d+)?)\s*(?P<unit>k)\s*(?:-?\s*(?:tokens?|context|ctx)\s*)?"
    r"(?=(?:concurrent\s+|simultaneous\s+)?(?:users?|requests?|sessions?|streams?|chats?|conversations?|sequences?)"
    r"(?![a-z]))"
)
""""how many concurrent 8k users?": the count is what is asked, so the 8k is each user's context, not 8,000 users."""
_WRITTEN = (r"summar(?:y|ies)|abstracts?|translations?|captions?|descriptions?|rewrites?|paraphrases?|"
            r"labels?|explanations?|titles?|headlines?")
"""What a job writes for each input, in English: "200-token summaries", "a summary of about 150 tokens"."""
_WRITTEN_ZH = r"(?:摘要|总结|译文|翻译|标题|描述|标签|改写)"
_GEN_TOKENS = rx(
    r"(?:generat(?:e|ing|ion)|output(?:s|ting)?|max[_ ]new[_ ]tokens|生成|输出|回复|回答)"
    r"\s*(?:of|=|:|为|约|大约|up\ to)?\s*"
    + NUM + _CTX_UNIT + r"\s*(?:new\s+)?(?:tokens?|个\s*token)?"
    r"|" + r"(?P<num2>\d+)\s*(?P<unit2>k)?\s*(?:output|generated|new)\s+tokens?"
    r"|" + r"(?P<num6>\d+)\s*(?P<unit6>k)?\s*tokens?\s+out(?:put)?\b(?!\s+of\b)"
    r"|" + r"(?P<num3>\d+)\s*(?P<unit3>k)?\s*tokens?\s+(?:per|each|a|for\s+each|in\s+each)\s+"
    r"(?:request|response|reply|answer|completion|call|query)s?\b(?!\s*(?:context|ctx|prompt|input|length))"
    r"|" + r"(?:每(?:个|次|条)?(?:请求|回复|回答|响应))\s*(?:约|大约)?\s*(?P<num4>\d+)\s*(?P<unit4>k)?\s*(?:个)?\s*"
    r"(?:tokens?|词元)"
    r"|" + r"(?<![\d.])(?P<num5>\d+)\s*(?P<unit5>k)?\s*(?:output|generated)(?![a-z_])(?!\s*(?:tokens?|toks?)\b)"
    r"|" + r"(?<![\d.])(?P<num7>\d+)\s*(?P<unit7>k)?\s*-?\s*tokens?\s+(?:(?:reasoning|thinking|cot)\s+)?"
    r"(?:repl(?:y|ies)|answers?|responses?|outputs?|completions?|generations?|" + _WRITTEN + r")(?![a-z])"
    r"|" + r"(?:" + _WRITTEN + r"|answers?|repl(?:y|ies)|responses?|outputs?|completions?)\s+"
    r"(?:of\s+|are\s+|is\s+)?(?:about|around|roughly|~|up\s+to|at\s+most)?\s*(?P<num8>\d+)\s*(?P<unit8>k)?\s*"
    r"tokens?(?![a-z])"
    r"|" + r"(?<![\d.])(?P<num9>\d+)\s*(?P<unit9>k)?\s*(?:个\s*)?(?:tokens?|词元)\s*(?:的|以内的?)?\s*" + _WRITTEN_ZH
    + r"|" + _WRITTEN_ZH + r"\s*(?:约|大约|控制在|不超过)?\s*(?P<num10>\d+)\s*(?P<unit10>k)?\s*"
    r"(?:个\s*)?(?:tokens?|词元)"
    r"|" + r"(?<![\d.])(?P<num11>\d+)\s*(?P<unit11>k)?\s*(?:个\s*)?(?:tokens?|词元)\s*(?:的)?\s*(?:输出|回复|生成)"
    r"|" + r"(?<=[,;，；]\s)(?P<num12>\d+)\s*(?P<unit12>k)?\s+out(?:put)?\b(?!\s+of\b)"
    r"|" + r"(?<=tokens)[,;，；]?\s+(?:and\s+|with\s+)?(?:answers?|repl(?:y|ies)|responses?|outputs?)\s+"
    r"(?:are\s+|of\s+)?"
    r"(?:about|around|roughly|~)\s*(?P<num13>\d+)\s*(?P<unit13>k)?(?![\w.])(?!\s*(?:ms|s|sec\w*|words?|chars?|lines?|%))"
)
"""Generated tokens: "generate 512 tokens", "512 output tokens", "max_new_tokens 256", "200 tokens per request"
(in a serving question the length of each reply; the read-back shows it as generated tokens), "每次回复200个token",
"200-token replies", "200-token summaries", "摘要200个token", "10 token 输出"."""
WHOLE_REQUEST_TOKENS = 1024
"""From this many, "N tokens per request" (no word for output) is the request's whole length, prompt and reply:
"2k tokens per request" had been read as 2,048 generated tokens on top of a 4,096 default context, doubling the KV
cache and turning a fit into a No (audit 32 HIGH 86). Shorter ("200 tokens per request") it is the reply, as
serving load specs give it."""
_REQUEST_NOUN = re.compile(r"requests?|calls?|quer(?:y|ies)|请求")
_GEN_VOLUME = rx(
    r"(?:generat(?:e|ing|ion)|output(?:s|ting)?|produc(?:e|ing)|生成|输出)\s*(?:of|about|around|~|约|大约)?\s*"
    r"(?P<num>\d+(?:\.\d+)?)\s*(?P<scale>thousand|million|billion|trillion|mn|bn|k|m|b|t|千万|百万|万|亿|千)\s*"
    r"(?:个\s*)?(?:new\s+|output\s+)?(?:tokens?|toks?|词元)"
)
"""A volume of output in words or scales ("generate 10 billion tokens", "生成1亿个token"): counted in thousands."""
_USER_SCALE = r"(?P<unit>k|thousand|mn?|million|bn|billion)?(?![a-z])"
"""The scale of a user count written as a word ("2 million users", "10bn concurrent"): the count is then far
beyond any one job, and must reach the bound that says so rather than be dropped."""

_CN_SCALE = r"\s*(?P<unit>万|千|亿)?"
"""The scale written after a Chinese count ("500 万用户", "3 万个用户"): without it the digits were lost and the
lone 万 read as 10,000 users."""
_CN_PEOPLE_KIND = r"(?:(?:公司|企业|团队|部门)?\s*(?:内部|内|活跃|注册|在职)\s*(?:的)?\s*)?"
"""Who the people are, between the count and the word ("100 个内部用户", "50 名活跃用户"): the load is theirs."""

_CHATS = r"(?:(?:short|long|quick|brief)\s+)?(?:" + CHAT_NOUNS + r"|chat\s+sessions?)(?![a-z])"
"""Chats held open together ("40 short chats at once", "30 live conversations"): sequences served at once, where a
bare count of chats ("summarise 40 chats") is a job's texts (audit 28 M-55)."""

_BATCH = [
    rx(r"(?:(?<![a-z0-9_])(?:per_device_train_|train_micro_|max_)?batch(?:[ _-]?size(?:_per_gpu)?)?|\bbs|"
       r"micro[ _-]?batch(?:[ _-]?size)?|concurrency|concurrent\ requests|"
        r"并发(?:数|量|度|请求数?)?|批(?:次)?大小|批量(?:大小)?|批次|batch大小)\s*(?:of|is|=|:|为|是|达到|约)?\s*" + NUM
        + r"\s*(?P<unit>k|万|千)?(?![a-z0-9])"),
    rx(NUM + r"\s*" + _USER_SCALE + r"\s*(?:concurrent|simultaneous|parallel)?\s*"
        r"(?:(?:internal|active|paying|beta|enterprise|external|real|power|heavy|light|casual)\s+)?"
        r"(?:users?|usrs?|requests?|sessions?|streams?|clients?|" + _PEOPLE + r")(?![a-z])"),
    # a team counted ("a 50-dev team", "team of 50 engineers", "50 人的团队", "團隊 30 人"): the people served
    # (audit 34 HIGH 100: "for a 50-dev team" was dropped and one user sized)
    rx(r"(?<![a-z0-9.])" + NUM + r"\s*-?\s*(?:person|people|dev|developer|engineer|member|seat|user|man)s?\s+"
       r"(?:dev(?:elopment)?\s+|engineering\s+|eng\s+)?teams?(?![a-z])"),
    rx(r"\bteams?\s+of\s+" + NUM + r"(?![\d.%])(?!\s*(?:gpus?|cards?|nodes?|machines?|servers?|k\b|b\b))"),
    rx(NUM + _CN_SCALE + r"\s*(?:个|位|名)?\s*人\s*(?:的)?\s*(?:研发|开发|研發|開發|技术|技術)?\s*"
       r"(?:团队|團隊|小组|小組)"),
    rx(r"(?:团队|團隊)\s*(?:有|共|一共|大概|约)?\s*" + NUM + _CN_SCALE + r"\s*(?:个|位|名)?\s*人"),
    rx(r"(?:\bat|\bwith)\s+" + NUM + r"\s*(?:x\s*)?(?:concurrency|concurrent|parallelism|in\s+flight)(?![a-z])"),
    rx(NUM + r"\s*" + _USER_SCALE + r"\s*(?:concurrent|simultaneous|parallel)(?![a-z])"),
    rx(NUM + r"\s*" + _USER_SCALE + r"\s*(?:live|open|active)\s+" + _CHATS),
    rx(r"(?<![a-z0-9.])" + NUM + r"\s*" + _USER_SCALE + r"\s+(?:" + _CHATS + r"\s+)?" + _AT_ONCE),
    rx(NUM + _CN_SCALE + r"\s*(?:路|个|人|用户)?\s*并发"),
    rx(NUM + _CN_SCALE + r"\s*(?:个|位|名)?\s*" + _CN_PEOPLE_KIND + r"(?:用户|使用者)"),
    rx(r"(?:给|供)\s*" + NUM + r"\s*(?:个|位|名)?\s*" + _CN_PEOPLE_KIND
       + r"(?:同事|员工|人|成员|程序员|开发者|开发人员|工程师|用户|学生|客服|坐席|分析师|研究员|律师|医生|老师|销售)"),
    rx(NUM + _CN_SCALE + r"\s*(?:个|位|名)?\s*(?:同时)?\s*在线\s*(?:的)?\s*(?:用户|使用者|人)"),
    # "300 人在线", and "20 人" standing alone between clauses ("推论 20 人 8k 上下文", "int4，20 人，8k"): the people
    # served (audit 31 HIGH 78: dropped, one user sized)
    rx(NUM + _CN_SCALE + r"\s*(?:个|位|名)?\s*人\s*(?:同时)?\s*在线"),
    rx(r"(?:用户|用戶)数?\s*" + NUM + _CN_SCALE + r"\s*(?:个|個|位|名|人)"),  # "上下文 64k 用户 8 个"
    rx(r"(?<![\d.])" + NUM + _CN_SCALE + r"\s*(?:个|位|名)?\s*人(?![民工力均次时天月年])"
       r"(?=\s*(?:[,，、;；。.!?？！]|$|\d|上下文|用|使用))"),
    rx(NUM + _CN_SCALE + r"\s*(?:个|路|個)?(?:人|用户|请求|对话|会话|聊天|對話|會話)\s*(?:同时|同時)"),
    rx(NUM + _CN_SCALE + r"\s*(?:个|位|名)?\s*(?:人|同事|员工)\s*(?:一起|一块儿?|同时|并发)?\s*"
       r"(?:用|使用|访问|调用|在用|聊)"),
    rx(r"同时\s*(?:有|服务|支持|处理|进行|跑)?\s*(?:约|大约)?\s*" + NUM + _CN_SCALE
       + r"\s*(?:个|路)?\s*(?:(?:短|长)\s*)?(?:人|用户|请求|路|对话|会话|聊天)"),
    rx(NUM + r"\s*路\s*(?:的)?\s*(?:同时|同時|并发|並發)?\s*(?:实时)?\s*"
       r"(?:音频|音讯|视频|语音|麦克风|直播|通话|对话|会话|请求)?\s*"
       r"(?:串流|流|通话|会话|对话|请求|直播)"),  # "50 路音频流": streams served at once, as "50 audio streams"
    rx(r"(?:并发(?:数|量)?|用户数?|使用者数?|人数|\bbatch(?:[\s_]?size)?|\b(?:concurrent\s+)?users?|\bconcurrency)\s*"
       r"(?:(?:增加|提高|提升|增长|扩大|上升|涨|加|降低|减少|降|减)(?:到|至)|"
       r"改成|改为|换成|设为|设成|调到|调成|变成|加到|到|[=:：]|(?:changed?|set|raised?|increased?|bump(?:ed)?)\s+to|"
       r"\bto|\bof)\s*" + NUM),  # "并发改成 50", "用户增加到 64" (audit 33 HIGH 89), "change users to 50"
    # "即時轉寫 50 路": a stream count standing alone, between clauses (audit 33 HIGH 95)
    rx(r"(?<![\d.])" + NUM + r"\s*路(?=\s*(?:[,，、;；。.!?？！]|$|需要|要|的话|用|同时|实时|即时))"),
    # "50 real-time streams", "30 live audio streams": streams served at once
    rx(NUM + r"\s+(?:real[- ]?time|live|concurrent|simultaneous)\s+"
       r"(?:(?:audio|video|voice|asr|speech|transcription)\s+)?(?:streams?|calls?|feeds?|channels?)(?![a-z])"),
]


PROMPT_CONTEXT_NOTE = "context-is-prompt"
"""The length read was the prompt's ("输入 2k", "2k-token prompts") with no output length: a request's output,
when it is assumed, comes on top of it rather than out of it."""
_PROMPT_WORD = rx(r"prompt|input|输入|提示|tokens\s+in\b")
"""A length said of the prompt (or input) alone, not of the whole context."""


TEXT_CONTEXT_NOTE = "context-is-text"
"""The length read was a request's text beside its images ("one 1024x1024 image plus ~500 tokens of text"): the
images' positions come on top of it (bot.reply.request_images), where a context said outright holds them."""
_TEXT_AFTER = rx(r"\s*(?:tokens?\s*)?(?:of\s+(?:text|instructions?|prompt\s+text)|text(?:\s+tokens?)?\b|"
                 r"(?:的\s*)?(?:文字|文本|提示词|指令))")
_TEXT_BEFORE = rx(r"(?:文字|文本|提示词|指令|\btext)\s*(?:约|大约|~|of|:|：)?\s*$")
RATIO = rx(
    r"(?:输入\s*[:：/比]\s*输出|input\s*[:/]\s*output|in\s*[:/]\s*out|prompt\s*[:/]\s*(?:completion|output))"
    r"\s*(?:ratio|比例|比)?\s*(?:约|大约|about|around|~|of|is|=|为|是|roughly)?\s*"
    r"(?P<a>\d+(?:\.\d+)?)\s*[:：比/]\s*(?P<b>\d+(?:\.\d+)?)")
"""An input:output ratio ("输入:输出约 4:1", "input:output 4:1"): of a day's volume (bot.understand.slots.daily_volume)
or, beside a prompt length, each request's output (2k in at 4:1 is 512 out)."""
_TEXT_TOKENS = rx(r"(?<![\w.])" + NUM + r"\s*(?P<unit>k)?\s*(?:text|prompt[- ]text)\s+tokens?\b")
"""A request's text written as its own kind of token ("about 300 text tokens" beside an image)."""
_IN_OUT = rx(
    r"(?<![a-z0-9.])(?P<num>\d+(?:\.\d+)?)\s*(?P<unit>k)?\s*(?:(?:tokens?|toks?)\s*)?(?:in(?:put)?|prompts?|输入)"
    r"(?:\s*tokens?)?\s*(?:[/,;&+，、]|and|和|加)?\s*(?:~|≈|about\s+|around\s+|roughly\s+|约)?\s*"
    r"(?P<num2>\d+(?:\.\d+)?)\s*(?P<unit2>k)?\s*(?:(?:tokens?|toks?)\s*)?"
    r"(?:out(?:put)?|completions?|responses?|replies|reply|输出)(?![a-z])"
    r"|(?:input|输入)\s*(?P<num3>\d+(?:\.\d+)?)\s*(?P<unit3>k)?\s*(?:tokens?)?\s*(?:[/,;&+，、]|and|和)?\s*"
    r"(?:output|输出)\s*(?P<num4>\d+(?:\.\d+)?)\s*(?P<unit4>k)?(?![a-z0-9])"
)
"""A prompt and a reply length written as a pair: "1k in / 1k out", "2k input 500 output", "2k 输入 500 输出",
"输入2k 输出500": the reply's length is generated, and a sequence reaches their sum."""


def _in_out_pair(text: str) -> tuple[re.Match[str], float, float] | None:
    """The input/output pair (`_IN_OUT`) written in `text`: its match, the prompt's and the output's tokens."""
    m = _IN_OUT.search(text)
    if m is None:
        return None
    first, second = ("num", "num2") if m.group("num") else ("num3", "num4")
    prompt, generated = number(m.group(first)), number(m.group(second))
    if prompt is None or generated is None:
        return None
    return (m, prompt * context_unit(m.group(first.replace("num", "unit"))),
            generated * context_unit(m.group(second.replace("num", "unit"))))


def in_out_lengths(text: str) -> tuple[float, float] | None:
    """(prompt, output) tokens of a request written as a pair ("1.5k prompt, 300 out"), without reading them."""
    pair = _in_out_pair(text)
    return (pair[1], pair[2]) if pair is not None and pair[1] and pair[2] else None


def _in_out(state: SlotState) -> bool:
    """Reads an input/output pair (`_IN_OUT`) into `gen_tokens` and `context`; False when there is none."""
    pair = _in_out_pair(state.text)
    if pair is None:
        return False
    m, prompt, generated = pair
    state.set("gen_tokens", int(bounded(state, "gen_tokens", generated, MAX_CONTEXT)))
    state.set("context", int(bounded(state, "context", prompt + generated, MAX_CONTEXT)))
    state.mask(m.start(), m.end())
    return True


_COUNT_THEN_LENGTH = (
    re.compile(r"(?<![\w.])(?P<count>\d{1,5})\s+(?:concurrent|simultaneous|parallel|live|open|active)\s+"
               r"(?P<len>\d{1,4}(?:\.\d)?)\s*(?P<unit>k)(?:[-\s]?tokens?)?\s+"
               r"(?:requests?|chats?|conversations?|sessions?|prompts?|queries|streams?|users?)(?![a-z])", re.I),
    re.compile(r"(?<![\w.])(?P<count>\d{1,5})(?:\s*(?:个|個|路|条|條)\s*|\s+)(?P<len>\d{1,4}(?:\.\d)?)\s*(?P<unit>k)"
               r"\s*(?:tokens?\s*)?(?:的)?\s*(?:(?:并发|併發)\s*(?:请求|請求|对话|對話|会话|會話|聊天)?|"
               r"(?:请求|請求|对话|對話|会话|會話|聊天))", re.I),
)
"""A count of sequences at once with each one's length between ("64 concurrent 4k requests", "50 个 8k 的并发请求"):
the length is no count (audit 30 HIGH 59: "4k requests" had become 4,000 at once, 88 H100s for 4). The count and
the length are apart (a space or a classifier): "上下文 64k 并发 8" is one length, not 6 of 4k (audit 31 HIGH 74)."""


def count_then_length(state: SlotState) -> None:
    """The length and the count of "64 concurrent 4k requests": the context, and the batch when one job holds it."""
    for pattern in _COUNT_THEN_LENGTH:
        m = pattern.search(state.text)
        if m is None:
            continue
        length = float(m.group("len")) * context_unit(m.group("unit").lower())
        count = int(m.group("count"))
        if length < 1 or count < 1:
            continue
        state.set("context", int(bounded(state, "context", length, MAX_CONTEXT)))
        if count <= MAX_BATCH and "batch" not in state.values:
            state.set("batch", count)
            state.notes.append(USERS_NOTE)
            state.mask(m.start(), m.end())
        else:
            state.mask(m.start("len"), m.end("unit"))  # the count is left to the batch slot, which bounds it
        return


_ADVERTISED_WINDOW = rx(
    r"\b(?:supports?|supporting|has|have|offers?|advertises?|handles?|goes\s+up\s+to|up\s+to)\s+"
    r"(?:a\s+|an\s+|up\s+to\s+|the\s+)?(?:native\s+|maximum\s+|max\s+)?"
    r"\d+(?:\.\d+)?\s*[km]?\s*(?:-\s*)?(?:tokens?\s+)?(?:of\s+)?(?:context|ctx)(?:\s+(?:window|length))?"
    r"|(?:支持|支援|最长支持|最多支持|号称|号称支持)\s*(?:最长|最多)?\s*\d+(?:\.\d+)?\s*[km万]?\s*(?:token)?\s*(?:的)?\s*"
    r"(?:上下文|长上下文|context)")
"""The window a model is said to have ("Llama 4 Scout supports 10M context", "支持 128k 上下文"), beside the length a
request has ("a single 1M-token request"): not the length to size (audit 39 HIGH-120: 10M was sized, 9× the cache)."""
_OTHER_LENGTH = rx(r"(?<![\w.])\d+(?:\.\d+)?\s*[km万]?\s*(?:-\s*)?(?:tokens?|token|ctx|context|上下文|prompts?)"
                   r"|(?<![\w.])\d+(?:\.\d+)?\s*k(?![a-z0-9])")
"""Any other length written: only then is the advertised window set aside (alone, it is the length asked about)."""


def _set_aside_advertised_window(state: SlotState) -> None:
    spans = [m.span() for m in _ADVERTISED_WINDOW.finditer(state.text)]
    if not spans:
        return
    trial = SlotState(original=state.original, folded=state.folded, masked=list(state.masked))
    for start, end in spans:
        trial.mask(start, end)
    if _OTHER_LENGTH.search(trial.text) is not None:
        for start, end in spans:
            state.mask(start, end)


def parse_context(state: SlotState) -> None:
    _set_aside_advertised_window(state)
    ratio = RATIO.search(state.text)
    if ratio is not None:
        state.mask(ratio.start(), ratio.end())  # "input:output 4:1" is no output of 4 tokens
    if _in_out(state):
        return
    prompt = _PROMPT_LENGTH.search(state.text) if ratio is not None else None
    _parse_lengths(state)
    context, generated = state.values.get("context"), state.values.get("gen_tokens")
    if ratio is None or generated is not None or not isinstance(context, int):
        return
    prompt_share, output_share = float(ratio.group("a")), float(ratio.group("b"))
    if prompt_share <= 0 or output_share <= 0:
        return
    prompt_tokens = (read_number(prompt) or 0.0) * context_unit(prompt.group("unit")) if prompt is not None else 0.0
    if prompt_tokens:
        # "2k in, input:output 4:1": the prompt's length, each request writing a quarter of it on top
        output = int(prompt_tokens * output_share / prompt_share)
        state.values["context"] = int(bounded(state, "context", prompt_tokens + output, MAX_CONTEXT))
        if PROMPT_CONTEXT_NOTE in state.notes:
            state.notes.remove(PROMPT_CONTEXT_NOTE)
    else:
        output = int(context * output_share / (prompt_share + output_share))  # "8k context at 4:1": its fifth
    if output > 0:
        state.set("gen_tokens", output)


_PROMPT_LENGTH = rx(r"(?<![\w.])" + NUM + r"\s*(?P<unit>k)?\s*(?:tokens?\s+)?(?:in(?:put)?|prompts?)\b")
"""A prompt's length ("2k in", "2k-token prompts"), read beside an input:output ratio to give the output."""


def _parse_lengths(state: SlotState) -> None:
    volume = _GEN_VOLUME.search(state.text)
    if volume is not None and _read_volume(state, float(volume.group("num")), volume.group("scale")):
        state.mask(volume.start(), volume.end())
    for gen in _GEN_TOKENS.finditer(state.text):
        # the alternative that matched: its numbered groups (num, num2, …) and their unit
        which = next((name[3:] for name, found in gen.groupdict().items() if name.startswith("num") and found), "")
        raw, unit = gen.group(f"num{which}"), gen.group(f"unit{which}")
        tokens = number(raw) if raw else None
        if tokens is None:
            continue
        if not _read_volume(state, tokens, unit):  # else one reply's length, k counted as 1,024 like a context
            tokens *= context_unit(unit)
            if which in ("3", "4") and tokens >= WHOLE_REQUEST_TOKENS and _REQUEST_NOUN.search(gen.group(0)):
                # "2k tokens per request", "每个请求 2k token": the request's whole length, prompt and reply; a
                # reply's length may still follow ("…, 512 output tokens")
                state.set("context", int(bounded(state, "context", tokens, MAX_CONTEXT)))
                state.mask(gen.start(), gen.end())
                continue
            state.set("gen_tokens", int(bounded(state, "gen_tokens", tokens, MAX_CONTEXT)))
        state.mask(gen.start(), gen.end())
        break
    text_tokens = _TEXT_TOKENS.search(state.text)
    if text_tokens is not None and (value := read_number(text_tokens)) is not None:
        # "an image and about 300 text tokens": the request's text, beside which its images are added
        state.notes.append(TEXT_CONTEXT_NOTE)
        generated = state.values.get("gen_tokens")
        value = value * context_unit(text_tokens.group("unit")) + (generated if isinstance(generated, int) else 0)
        state.set("context", int(bounded(state, "context", value, MAX_CONTEXT)))
        state.mask(text_tokens.start(), text_tokens.end())
        return
    order: tuple[re.Pattern[str], ...] = (_HOW_MANY_K, _CONTEXT_CUE_FIRST, _CONTEXT_CUE_LONG, _CONTEXT_CUE_AFTER,
                                          _TOKENS_BARE, _K_BARE)
    prompt = _CONTEXT_CUE_FIRST.search(state.text)
    if isinstance(state.values.get("gen_tokens"), int) and prompt is not None and _PROMPT_WORD.search(prompt.group(0)):
        # the requests' shape is written ("prompts around 6k tokens, answers around 700"): a "how many 32k
        # sequences fit?" beside it asks about another length, not the load's (audit 25 HIGH 22)
        order = order[1:]
    for pattern in order:
        m = pattern.search(state.text)
        if m is None:
            continue
        value = read_number(m)
        if value is None:
            continue
        value *= context_unit(m.group("unit"))
        generated = state.values.get("gen_tokens")
        if _PROMPT_WORD.search(m.group(0)) and isinstance(generated, int):
            # "1k prompt and 300 output tokens": the context a sequence reaches is the prompt plus its output
            value += generated
        elif _PROMPT_WORD.search(m.group(0)):
            state.notes.append(PROMPT_CONTEXT_NOTE)  # "输入 2k": the prompt alone; its output is still to add
        if _TEXT_AFTER.match(state.text, m.end()) or _TEXT_BEFORE.search(state.text[max(0, m.start() - 12):m.start()]):
            state.notes.append(TEXT_CONTEXT_NOTE)  # the request's text: its reply comes on top, its images too
            if isinstance(generated, int) and not _PROMPT_WORD.search(m.group(0)):
                value += generated
        state.set("context", int(bounded(state, "context", value, MAX_CONTEXT)))
        state.mask(m.start(), m.end())
        return


_MORE_SEQUENCES = rx(
    r"(?:" + GROUP_JOIN + r"|和|[,，;；])\s*"
    r"(?:(?:and|plus|另外|还有|還有)\s*)?"
    r"(?:(?:another|about|around|roughly|some|maybe)\s+|~\s*|约|大约|約|大約)?"
    + NUM + r"\s*(?:个|位|名|路|個)?\s*(?:more\s+|other\s+)?"
    r"(?P<short>(?:short|quick|brief|small|light)\s+|短)?(?:concurrent\s+|simultaneous\s+|live\s+)?"
    r"(?:" + CHAT_NOUNS + r"|users?|sessions?|" + _PEOPLE + r"|"
    r"对话|會話|会话|對話|聊天|用户|用戶|人)(?![a-z])"  # not requests: "and 100 requests" is often a job's total
    r"(?:\s+(?:chatting|talking|asking|using\s+it))?"
    r"(?:\s*(?:at|of|with|@|用|的|[,，])?\s*(?:about\s+|~\s*)?(?:(?:short|brief|quick)\s+)?(?P<ctx>\d+(?:\.\d+)?)\s*"
    r"(?P<ctx_k>k)?\s*(?:-?\s*tokens?|\s*context|\s*ctx|\s*(?:的\s*)?上下文|"
    r"\s*(?:-?\s*token\s+)?(?:chats?|conversations?|prompts?))?(?![a-z0-9]))?"
)
"""A second group served beside the first ("8 analysts at 128k plus about 40 short chats", "另外还有 40 个短对话"),
with its own length when said: sequences sharing the same KV cache at a shorter context (bot.reply.mixed_load)."""


def _parse_more_sequences(state: SlotState, after: int) -> None:
    m = _MORE_SEQUENCES.search(state.text, after)
    if m is None or m.start() - after > 80:
        return
    count = read_number(m)
    if count is None or count < 1:
        return
    state.set("more_sequences", int(bounded(state, "more_sequences", count, MAX_USERS)))
    if m.group("ctx"):
        tokens = float(m.group("ctx")) * context_unit(m.group("ctx_k"))
        if 16 <= tokens <= MAX_CONTEXT:
            state.set("more_sequences_context", int(tokens))
    state.mask(m.start(), m.end())


MAX_REPLY_TOKENS = 131_072
"""The longest reply any model here writes in one request; a larger "generate N tokens" is a volume of output."""


def _read_volume(state: SlotState, amount: float, scale: str | None) -> bool:
    """Sets `output_tokens` when `amount` `scale` tokens ("1M", "10 billion") are more than one reply holds."""
    counted = amount * COUNT_SCALES.get((scale or "").lower(), 1.0)
    if counted <= MAX_REPLY_TOKENS:
        return False
    state.set("output_tokens", float(bounded(state, "output_tokens", counted, MAX_OUTPUT_TOKENS)))
    return True


BATCH_UNITS = {unit: COUNT_SCALES[unit]
               for unit in ("k", "万", "千", "亿", "thousand", "m", "mn", "million", "bn", "billion")}
"""Sequences are counted in thousands (a 10k batch is 10,000); only context lengths use k = 1,024."""
CONTEXT_UNITS = {"k": 1024.0, "m": 1024.0 * 1024.0, "万": 10_000.0, "千": 1000.0, "million": 1024.0 * 1024.0,
                 "thousand": 1024.0, "billion": 1e9, "亿": 1e8}
"""A context counts k as 1,024 and M as 1,024², written as letters or words ("1 million token context"); a billion
is no window any model has, but one asked for is read (and bounded), not dropped for a 4k default."""


def context_unit(unit: str | None) -> float:
    return CONTEXT_UNITS.get(unit or "", 1.0)


_GLOBAL_BATCH = (
    rx(r"(?:global|effective|total|overall)\s+batch(?:[ _-]?size)?\s*(?:of|is|=|:)?\s*" + NUM
       + r"(?![a-z0-9])(?:\s*\(\s*\d+\s*per\s+(?:gpu|card|device)\s*\))?"),
    rx(r"(?:全局|总|有效)\s*(?:的)?\s*batch(?:[ _-]?size)?\s*(?:为|是|=|:)?\s*" + NUM),
)
"""A batch over all cards and micro-steps ("global batch 128", "effective batch size 64", "全局batch 256"): it
sets the gradient accumulation, never the sequences one card holds at once."""
_PER_DEVICE = rx(r"\(\s*(?P<num>\d+)\s*per\s+(?:gpu|card|device)\s*\)")


def _read_global_batch(state: SlotState) -> int | None:
    """Masks a global batch and returns it; "total batch 64 (16 per GPU)" also sets the per-card batch."""
    m = _GLOBAL_BATCH[0].search(state.text) or _GLOBAL_BATCH[1].search(state.text)
    if m is None:
        return None
    value = read_number(m)
    per_device = _PER_DEVICE.search(m.group(0))
    state.mask(m.start(), m.end())
    if per_device is not None:
        state.set("batch", int(bounded(state, "batch", float(per_device.group("num")), MAX_BATCH)))
    return int(value) if value and value >= 1 else None


def parse_batch(state: SlotState) -> None:
    global_batch = _read_global_batch(state)
    if "batch" not in state.values:
        _parse_per_card_batch(state)
    if global_batch is not None and "grad_accumulation" not in state.values:
        per_card = int(state.values.get("batch") or 1)
        cards = int(state.values.get("gpu_count") or 1)
        steps = max(1, round(global_batch / (per_card * cards)))
        state.set("grad_accumulation", min(steps, 4096))  # micro-steps per optimizer step


PEOPLE_AT_ONCE_NOTE = "people-at-once"
"""The batch was stated as people who use the service ("给 200 人用", "for a 50-dev team", "300 employees"), not as
requests at once: each is sized with a request in flight, the worst case, and the reply says so (audit 34 M-126)."""
_AT_ONCE_WORDS = re.compile(r"concurren|simultaneous|parallel|at\s+once|same\s+time|in\s+flight|并发|並發|同时|同時"
                            r"|在线|在線|路|requests?|sessions?|streams?|chats?|对话|會話|会话|请求|請求", re.I)
"""Words that count what is served at once, not the people who use it."""
USERS_NOTE = "users-stated"
"""The batch was stated as users or concurrent requests ("200 个用户", "50 concurrent users"): an image service
serves them on cards making one image at a time, not as one batch (bot.reply)."""
BATCH_AS_USERS_NOTE = "batch-as-users"
"""A batch stated beyond one job's (MAX_BATCH) is served as that many users over replicas; the reply says so."""


_JOB_REQUESTS_AFTER = rx(r"\s*(?:requests?|prompts?|calls?|generations?|completions?)(?![a-z])")
_TRAINING_WORDS = rx(r"\b(?:fine[-\s]?tun\w*|train\w*|lora|qlora|sft|pre-?train\w*)\b|微调|训练|预训练")
_SERVING_WORDS = rx(r"\b(?:serv\w*|deploy\w*|inference|chat\w*|users?|requests?|concurren\w*|vllm|sglang|lmdeploy|"
                    r"tgi|tensorrt[-_ ]?llm|trt[-_ ]?llm|ollama)\b|部署|推理|服务|用户|并发|在线")
"""People counted beside training words and no serving words are the team that trains, not users ("LoRA" is
also served: "vLLM with 20 LoRA adapters, 32 concurrent" is 32 sequences)."""


def _parse_per_card_batch(state: SlotState) -> None:
    for index, pattern in enumerate(_BATCH):
        m = pattern.search(state.text)
        if m is None:
            continue
        value = read_number(m)
        if value is None:
            continue
        if index > 0 and _TRAINING_WORDS.search(state.text) and not _SERVING_WORDS.search(state.text):
            continue  # "5 people in our team want to fine-tune": a team, not sequences in a batch
        if OFFLINE_JOB.search(state.text) and (
                (index == 0 and _JOB_REQUESTS_AFTER.match(state.text, m.end()))
                or (index == 1 and re.search(r"requests?(?![a-z])", m.group(0), re.I))):
            continue  # "offline batch: 500,000 requests of …": the job's requests, not 500,000 at once (HIGH 11)
        if index > 0 or re.match(r"concurren|并发", m.group(0), re.IGNORECASE):
            state.notes.append(USERS_NOTE)  # users or requests at once, not a batch a job was given
        if index > 0 and _AT_ONCE_WORDS.search(m.group(0)) is None and (value or 0) > 1:
            state.notes.append(PEOPLE_AT_ONCE_NOTE)  # "给 200 人用": the people, each taken to be active at once
        value *= BATCH_UNITS.get(m.groupdict().get("unit") or "", 1.0)
        if value > MAX_BATCH:
            # one job holds MAX_BATCH; replicas serve the rest, so only a count above MAX_USERS is capped
            if value > MAX_USERS:
                state.clamped.append("batch")  # said as the batch it is out of range for one job and for replicas
                state.clamped_asked.setdefault("batch", value)
            if re.match(r"batch|bs|micro|批", m.group(0), re.IGNORECASE):
                state.notes.append(BATCH_AS_USERS_NOTE)  # "batch size 1000000": read as users, and said so
            state.set("users", int(min(value, MAX_USERS)))
            state.set("batch", MAX_BATCH)
        else:
            state.set("batch", int(bounded(state, "batch", value, MAX_BATCH)))
        state.mask(m.start(), m.end())
        _parse_more_sequences(state, m.end())
        return
