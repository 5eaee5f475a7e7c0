"""Counts of samples and documents, and the amounts they are written in ("on 10k samples", "3 epochs over 50,000
examples of 2k tokens", "1 亿条短文本（每条约 64 token）", "1万条数据"): a job's texts, read before the context and
count slots so those never take a sample count or its length for theirs (bot.understand.slots.workload_size).

A count of chats held at once ("40 chats at once", "同时 40 个对话", "plus about 40 short chats" after a first
group served) is not a job's texts: the batch slot reads it (audit 28 M-55).
"""

from __future__ import annotations

from bot.understand.numbers import COUNT_SCALES, number
from bot.understand.slots.base import POWER_OF_TEN, SlotState, bounded, rx
from bot.understand.slots.cues import CHAT_NOUNS, GROUP_JOIN, OFFLINE_JOB

SAMPLE_K = 1024.0
"""k after a per-sample length ("samples of 2k tokens"): sequence lengths are powers of two, as contexts."""

AMOUNT_NUM = (r"(?P<num>" + POWER_OF_TEN
              + r"|\d+(?:\.\d+)?e\+?\d{1,6}(?![\d.])|\d+(?:,\d{3})*(?!\d)(?:\.\d+)?|[零〇一二两三四五六七八九十百千]+)")
"""An amount: "10^12" (a power of ten), "1e12" / "2.5e11" (scientific), "300,000", "1.5", or Chinese numerals."""
AMOUNT_SCALE = (r"(?P<scale>万亿|兆|千亿|百亿|十亿|亿|千万|百万|十万|万|thousand|million|billion|trillion|quadrillion|"
                r"bn|mn|tn|k|m|b|t)?")
TRAINING_JOB = rx(r"fine[- ]?tun|finetun|\bq?lora\b|\btrain|pre-?train|\bsft\b|\bdpo\b|\bfft\b|"
                  r"微调|微調|训练|訓練")
"""A fine-tuning or training question: there, "…, 50M tokens" is the data, since no context is written that way."""
EPOCHS = rx(r"(?:\b(?:num_train_epochs|max_epochs|epochs)\s*[:=]\s*|--(?:num[-_]train[-_])?epochs[=\s]\s*)"
            r"(?P<num0>\d+(?:\.\d+)?)(?![\d.])"
            r"|(?<![a-z0-9.])(?<![:=])(?<![:=]\s)(?P<num>\d+(?:\.\d+)?|one|two|three|four|five|ten|[一二两三四五六七八九十]+)\s*"
            r"(?:(?:个|轮)\s*)?(?:epochs?|轮)")
_SAMPLES = rx(r"(?<![a-z0-9.])" + AMOUNT_NUM + r"\s*" + AMOUNT_SCALE + r"\s*(?:条|个|篇|笔|份|段|句|道)?\s*"
              r"(?:(?P<adj>\d+(?:\.\d+)?)\s*(?P<adj_k>k)?\s*-?\s*tokens?(?:\s+|\s*的\s*))?"  # "50M 512-token chunks"
              r"(?:(?:new|more|incoming|fresh|additional|extra)\s+)?"
              r"(?:(?:customer|support|user|chat|product|news|legal|medical|web|email|call|sales|image|video|"
              r"search|math|maths|coding|exam|test|benchmark|eval)[- ]"  # a qualifier
              r"|(?:short|long|small|brief)[- ](?=(?:texts?|passages?|sentences?|snippets?|documents?|docs?|"
              r"paragraphs?|articles?|abstracts?)(?![a-z])))?"  # of a text's length only: not "40 short chats"
              r"(?:samples?|examples?|sequences|rows?|conversations?|dialogues?|documents?|docs?|records?|texts?|"
              r"chats?|"
              r"passages?|chunks?|sentences?|"
              r"(?:query[- ]document\s+|query[- ]doc\s+|text\s+|preference\s+|dpo\s+|comparison\s+)?pairs?|"
              r"(?:support\s+)?tickets?|articles?|e-?mails?|reviews?|pages?|papers?|reports?|messages?|comments?|"
              r"posts?|transcripts?|contracts?|(?:product\s+)?descriptions?|items?|listings?|invoices?|resumes?|"
              r"(?:product\s+)?titles?|captions?|abstracts?|snippets?|headlines?|(?:search\s+)?quer(?:y|ies)|"
              r"problems?|questions?|"
              r"(?:客服|用户|历史|客户|商品|新闻|法律|医疗|通话|聊天|数学|编程|考试|测试|(?:短|长)(?=文本|句子?|段落|文档|文章))?"
              r"(?:样本|数据|资料(?![集库])|对话|文本|文档|文件|文章|网页|记录|段落|句子?|(?:文本|偏好)?对(?!话)|偏好数据|工单|邮件|评论|帖子|报告|论文|"
              r"合同|合约|"
              r"聊天记录|query|查询语句|查询|问句|题目|题|"
              r"商品描述|描述|简历|病历|订单|标题|商品标题))"
              r"(?!(?<=[a-z])[a-z_])"  # "8192\nsample_packing: true": a config key, not 8,192 samples (M-44)
              r"(?!\s*(?:[-_ ]?len(?:gth)?|长度|tokens?\b))"  # "32k sequence length", "300 text tokens": lengths
              r"(?!s?\s*(?:a|an|per|every|each|/)\s*(?:min(?:ute)?|sec(?:ond)?|s|hour|hr|h|day|d)s?\b)"  # a rate
              r"(?!\s+(?:at\s+once|at\s+(?:the\s+)?same\s+time|simultaneously|concurrently|in\s+parallel|live|open)\b|\s*(?:同时|同時|并发|並發))")
"""A count of texts a job works through ("1M samples", "100 万条客服对话", "100 million short texts"); a count of
chats held at once ("40 chats at once") is a load served together, read by the batch slot (audit 28 M-55)."""
_OUTPUTS_COUNTED = rx(r"(?<![a-z0-9.])" + AMOUNT_NUM + r"\s*(?P<scale>million|billion|mn|bn|m|b|万|亿)\s*"
                     r"(?:summar(?:y|ies)|prompts|completions|generations|translations)(?![a-z])"
                     r"(?:\s+of\s+(?P<adj>\d+(?:\.\d+)?)\s*(?P<adj_k>k)?\s*-?\s*tokens?(?![a-z]))?")
"""Outputs or prompts counted in millions ("10M summaries", "10M prompts of 2k tokens"): a batch job's documents
(audit 30 HIGH 68), with each one's length when written after it (the prompt's: LOW-142). Only at that scale:
"1.2k prompt", "a 32k prompt" are a prompt's length."""
_SAMPLES_NOUN_FIRST = rx(r"(?:训练数据|数据集|数据量|数据|资料|样本量|样本|语料)\s*"
                         r"(?:是|有|为|约|大约|共|一共)?\s*[:：]?\s*"
                         + AMOUNT_NUM + r"\s*" + AMOUNT_SCALE
                         + r"\s*(?:条|个|篇|份|笔|段)(?![\u4e00-\u9fff]*(?:token|词元))")
"""The count written after its noun ("LoRA，数据 1 万条", "样本量 5000 条", "资料 2000 万段"): the same count."""
_SAMPLES_EACH_AFTER = rx(r"(?<![\w.])" + AMOUNT_NUM + r"\s*" + AMOUNT_SCALE + r"\s*(?:条|笔)\s*(?:数据|记录|资料)?\s*"
                         r"(?=[，,、;；]?\s*每(?:条|笔))")
"""A count of 条 with no noun, whose length follows ("跑 1 亿条，每条 512 token"): the job's texts."""
_SAMPLE_LEN = rx(r"(?:(?:\bof|\bwith|\bat|\beach|[x×*]|每条|每笔|每个|每条样本|每篇|每份|每封|每段|,|，)\s*"
                 r"(?:an?\s+)?(?:(?:averag(?:e|ing)|avg\.?|mean)\s*(?:(?:length|size)\s*)?(?:of\s*)?|"
                 r"平均(?:长度)?(?:为|是)?\s*)?|\baveraging\s+|\bavg\.?\s+|平均(?:长度)?(?:为|是)?\s*)"
                 r"(?:about|around|roughly|~|约)?\s*"
                 r"(?P<num>\d+(?:\.\d+)?)\s*(?P<k>k)?\s*(?:个\s*)?(?:tokens?|toks?|词元)(?![a-z])(?:\s+each)?"
                 r"(?!\s+(?:in|input|out|output)\b)")  # "of 300 tokens in and 3,000 out": a request's pair

_EN_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "ten": 10,
             "twelve": 12, "半": 0.5}


def amount_value(raw: str | None) -> float | None:
    if raw is None:
        return None
    if raw in _EN_WORDS:
        return float(_EN_WORDS[raw])
    return number(raw)


def count_scale(name: str | None) -> float:
    if not name:
        return 1.0
    return COUNT_SCALES.get(name, 1.0)


_AVERAGE = rx(r"averag|\bavg\b|\bmean\b|平均")
"""A length said to be the samples' average ("数据 8 万条，平均 1200 token"): their tokens are count × it, exactly."""


def epoch_tokens(state: SlotState) -> tuple[float, int] | None:
    """epochs × samples × tokens per sample, and the tokens per sample, when samples and their length are both
    written."""
    text = state.text
    samples = (_SAMPLES.search(text) or _SAMPLES_NOUN_FIRST.search(text) or _SAMPLES_EACH_AFTER.search(text)
               or _OUTPUTS_COUNTED.search(text))
    if samples is None:
        return None
    count = amount_value(samples.group("num"))
    if samples.groupdict().get("adj"):  # the length before the noun: "50 million 512-token chunks"
        per_sample = float(samples.group("adj")) * (SAMPLE_K if samples.group("adj_k") else 1.0)
        end = samples.end()
    else:
        length = _SAMPLE_LEN.search(text, samples.end(), min(len(text), samples.end() + 40))
        # "平均每条 2100 token": the average said just before the per-sample word (audit 25 HIGH 24)
        said = text[max(samples.end(), length.start() - 3): length.end()] if length is not None else ""
        if length is None or (samples.re is not _SAMPLES and not _AVERAGE.search(said)):
            return None  # "样本量 5000 条，每条 1k token": the count, each sample at that length (bare samples)
        per_sample = float(length.group("num")) * (SAMPLE_K if length.group("k") else 1.0)
        end = length.end()
    if count is None:
        return None
    epochs_match = EPOCHS.search(text)
    epochs = amount_value(epochs_match.group("num") or epochs_match.group("num0")) if epochs_match else 1.0
    state.mask(samples.start(), end)
    if epochs_match is not None:
        state.mask(epochs_match.start(), epochs_match.end())
    return (epochs or 1.0) * count * count_scale(samples.group("scale")) * per_sample, int(per_sample)


_OFFLINE_REQUESTS = rx(r"(?<![a-z0-9.])" + AMOUNT_NUM + r"\s*" + AMOUNT_SCALE + r"\s*(?:个|条|次)?\s*"
                       r"(?:requests?|calls?|generations?|completions?|请求|调用)(?![a-z])")
"""The requests of an offline job ("offline batch: 500,000 requests of 300 tokens in and 3,000 out"): its count of
work, not users at once (audit 24 HIGH 11: 6,592 H800s for 500,000 "concurrent users")."""
_AT_ONCE_BEFORE = rx(r"(?:同时|并发|同時|並發)\s*(?:有|服务|服務|支持|处理|處理|进行|進行|跑)?\s*"
                     r"(?:约|大约|約|大約)?\s*$")
_LENGTH_WORD_BEFORE = rx(r"\b(?:short|long|brief|quick)\s*$")
_CHAT_WORD = rx(CHAT_NOUNS + r"|对话|對話|会话|會話")
_ANOTHER_GROUP_BEFORE = rx(r"(?:" + GROUP_JOIN + r")\s*(?:about|around|roughly|~|约|大约|約|大約)?\s*$")
"""Chats counted after a first group served ("8 analysts at 128k plus about 40 chats") are a second group at
once (audit 28 M-55); "summarise 40 chats" stays a job's texts."""
_ASKED_COUNT_BEFORE = rx(r"\bhow\s+many\s+(?:more\s+)?(?:(?:concurrent|simultaneous|parallel)\s+)?$")


def bare_samples(state: SlotState) -> tuple[int, float | None] | None:
    """A sample count with no length per sample ("on 10k samples", "3 epochs over 50,000 examples", "1万条数据"):
    the count and the epochs, to be sized at the job's context (bot.reply.defaults.samples_as_tokens)."""
    text = state.text
    samples = (_SAMPLES.search(text) or _SAMPLES_NOUN_FIRST.search(text) or _SAMPLES_EACH_AFTER.search(text)
               or _OUTPUTS_COUNTED.search(text)
               or (_OFFLINE_REQUESTS.search(text) if OFFLINE_JOB.search(text) else None))
    if samples is None or _ASKED_COUNT_BEFORE.search(text[max(0, samples.start() - 40): samples.start()]):
        return None  # "how many concurrent 32k sequences": the count is asked, the 32k is each one's length
    if _LENGTH_WORD_BEFORE.search(text[max(0, samples.start() - 12): samples.start()]):
        return None  # "60 users with short 2k chats": the chats' length, not 2,000 of them (audit 29 HIGH 47)
    if _AT_ONCE_BEFORE.search(text[max(0, samples.start() - 16): samples.start()]) or (
            _CHAT_WORD.search(samples.group(0)) and not TRAINING_JOB.search(text)
            and _ANOTHER_GROUP_BEFORE.search(text[max(0, samples.start() - 24): samples.start()])):
        return None  # "同时 40 个对话", "8 analysts … and 40 chats": chats served together, read by the batch slot
    count = amount_value(samples.group("num"))
    if count is None or count <= 0:
        return None
    total = bounded(state, "training_samples", count * count_scale(samples.group("scale")), MAX_SAMPLES)
    if _EACH_LENGTH_AFTER.match(text, samples.end()) or _SAMPLE_LEN.search(text, samples.end(),
                                                                            min(len(text), samples.end() + 24)):
        state.notes.append(SAMPLE_LENGTH_STATED_NOTE)  # "300k samples ~2k len", "5,000 筆資料、每筆約 3000 token"
    state.mask(samples.start(), samples.end())
    epochs_match = EPOCHS.search(text)
    epochs = None
    if epochs_match is not None:
        epochs = amount_value(epochs_match.group("num") or epochs_match.group("num0"))
        state.mask(epochs_match.start(), epochs_match.end())
    return int(total), epochs


_EACH_LENGTH_AFTER = rx(r"\s*[,，、]?\s*(?:each\s+|每(?:条|笔|个|篇|段)\s*)?(?:about\s+|around\s+|~|约)?\s*"
                        r"\d+(?:\.\d+)?\s*k?\s*(?:len(?:gth)?|tokens?|toks?)\b")
SAMPLE_LENGTH_STATED_NOTE = "sample-length-stated"
"""The samples' length is written beside their count and read as the context: their tokens are count × that
length, said as such rather than as an upper bound at the context (audit 25 LOW-48)."""

MAX_SAMPLE_TOKENS = 10_000_000
"""A per-sample length beyond the longest context windows is not one."""
MAX_SAMPLES = 1e12
"""More samples than any dataset holds is not a sample count."""


__all__ = ["AMOUNT_NUM", "AMOUNT_SCALE", "EPOCHS", "MAX_SAMPLES", "MAX_SAMPLE_TOKENS", "SAMPLE_K",
           "SAMPLE_LENGTH_STATED_NOTE", "TRAINING_JOB", "amount_value", "bare_samples", "count_scale", "epoch_tokens"]
