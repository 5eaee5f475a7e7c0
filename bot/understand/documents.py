"""A counted set of documents run through a model: what "1M docs of 2k tokens each" means when nothing is trained.

The workload slots read "N documents of X tokens" as a training budget (N × X tokens), since that is what it is
in a fine-tuning question. For a model that only runs over them it is a job of N requests instead:

* an encoder embeds or scores them ("embed 10M documents with bge-m3"): the count is the job, timed at the
  encoder's speed;
* a generative model is given each as a prompt and writes its output ("summarise 1M articles of 2,000 tokens
  into 200-token summaries"): an offline batch job, whose prompts are prefilled and whose outputs are generated
  at a serving engine's full load, and whose time and cost are the reply's answer.
"""

from __future__ import annotations

import math
import re
from typing import Any

from bot.understand.question import MAX_CONTEXT, MAX_OUTPUT_TOKENS
from bot.understand.slots.base import SlotState
from knowledge.schema import Model
from rules.constants import ENCODER_DEFAULT_CONTEXT, HOURS_PER_MONTH

BATCH_JOB_VERBS = re.compile(
    r"\b(?:summar\w*|classif\w*|categori[sz]\w*|translat\w*|extract\w*|label\w*|tag(?:s|ging)?|caption\w*|"
    r"annotat\w*|rewrit\w*|paraphras\w*|process\w*|grad(?:e|ing)|scor(?:e|ing)|judg\w*|generat\w*|run\s+"
    r"(?:inference|it|the\s+model)\s+(?:on|over)|batch\s+inference|offline(?:\s+(?:inference|batch|job))?|"
    r"batch\s+jobs?)\b|"
    r"\b(?:ocr|recogni[sz]\w*|describ\w*|read(?:s|ing)?\s+(?:the\s+)?(?:text|fields))\b|"
    r"摘要|总结|分类|翻译|抽取|提取|标注|打标|改写|处理|跑一遍|批量推理|离线推理|离线|批处理|生成|识别|解析|描述|审核",
)
"""What a job that runs a generative model over documents says it does to them ("summarise", "classify",
"翻译", "批量推理"); without such a word, "Llama 3 8B on 1M docs of 2k tokens" may be a fine-tune's data."""

BATCH_JOB_GEN_TOKENS = 256
"""Output per document when a batch job does not say it: a paragraph (a summary, an extraction, a label with its
reason). The reply says it assumed this, since the output is often half the job's time."""
BATCH_JOB_OUTPUT_NOTE = "batch-job-output-assumed"
"""On a batch job whose output per document was assumed: the reply says so under Assumed."""
SAME_LENGTH_OUTPUT_NOTE = "batch-job-output-as-input"
"""On a batch job that rewrites each document (a translation, a paraphrase): its output assumed as long as it."""
_SAME_LENGTH_JOB = re.compile(r"\btranslat\w*|\brewrit\w*|\bparaphras\w*|\brephras\w*|\bproofread\w*|"
                              r"翻译|翻譯|改写|改寫|润色|潤色|转写|轉寫|重写|重寫", re.I)
"""Jobs whose output is the document again in other words: about as long as the input, not a paragraph (audit 31
M-90: a translation of 1k-token documents sized with 256-token outputs, half the job's time)."""


_PER_PERIOD = (
    (re.compile(r"每小时|\bper\s+hour\b|\ban\s+hour\b|/\s*h(?:our|r)?\b|\bhourly\b|\bevery\s+hour\b"), 3600.0),
    (re.compile(r"每天|每日|一天|天天|\bper\s+day\b|\ba\s+day\b|/\s*day\b|\bdaily\b|\bevery\s+day\b|"
                r"\beach\s+day\b"), 86_400.0),
    (re.compile(r"每月|每个月|\bper\s+month\b|\ba\s+month\b|/\s*month\b|\bmonthly\b|\bevery\s+month\b"),
     30 * 86_400.0),
)
"""A count of documents that arrives every hour, day or month ("每天 5000 万条文本", "10M docs a day"): a rate to
keep up with, not one job; with the seconds of the period."""


_HOURS_A_DAY = re.compile(
    r"每天(?:要|需要|得)?(?:跑|运行|处理|算)?(?:几个|多少个?|多少)小时|每天(?:要|需要|得)?(?:跑|运行|处理)?多久|"
    r"\bhow\s+many\s+hours\s+(?:a|per|each|every)\s+day\b|\bhours\s+(?:a|per|each)\s+day\b|"
    r"\bhow\s+long\s+(?:each|every|per|a)\s+day\b")
"""The hours a day's batch runs, asked ("每天要跑几个小时", "how many hours a day"): a job run every day, not a
rate to serve around the clock (audit 24 HIGH 13: priced as 730 h of an endpoint, 3.5× the daily batches)."""


def _as_rate(state: SlotState, work: dict[str, Any], text: str) -> bool:
    """A document count said per hour, day or month becomes the request rate it is (`qps`, one document a
    request): the serving plan then counts the replicas that keep up. False when no period is said, or when the
    hours a day's batch takes are asked: that count is then the day's job (`daily_batch`)."""
    if not work.get("training_samples") or work.get("qps"):
        return False
    seconds = next((period for pattern, period in _PER_PERIOD if pattern.search(text)), None)
    if seconds is None:
        return False
    if seconds == 86_400.0 and _HOURS_A_DAY.search(text):
        work["daily_batch"] = True
        if work.get("hours") == HOURS_PER_MONTH:
            work.pop("hours")  # "每月多少钱": the month the daily batches are billed over, not a deadline
            state.stated = [slot for slot in state.stated if slot != "hours"]
        return False
    work["qps"] = float(work.pop("training_samples")) / seconds
    state.stated = [slot for slot in state.stated if slot != "training_samples"]
    return True


def read_documents(state: SlotState, work: dict[str, Any], model: Model | None, text: str) -> None:
    """Turns a document count (with its length) that belongs to an inference job into that job.

    `work` holds the workload slots (bot.understand.slots.workload_size); `text` is the folded question. An
    encoder's count becomes `training_samples` + `encodes_documents`; a generative model's, with a job verb or an
    inference task, becomes `training_samples` + `batch_job` with the prompt length as the context (plus the
    output per document, `gen_tokens`, stated or assumed) and the output the job writes (`output_tokens`).
    """
    if model is None or state.values.get("task") not in (None, "inference"):
        return
    if model.arch == "encoder":
        _count_documents(state, work)
        if _as_rate(state, work, text):
            return
        if work.get("training_samples"):
            work["encodes_documents"] = True  # "embed 10M documents with bge-m3": the count is the job
        return
    if model.arch not in ("decoder", "encoder-decoder") or model.modality not in ("text", "code", "multimodal"):
        return
    if state.values.get("task") is None and BATCH_JOB_VERBS.search(text) is None:
        return
    context = state.values.get("context")
    if work.get("tokens") and work.get("sample_tokens") and not work.get("training_samples"):
        _count_documents(state, work)
        prompt = int(work["sample_tokens"])
    elif work.get("training_samples") and isinstance(context, int):
        # "500k product descriptions (300 tokens in, 300 out)": the count alone, each request's lengths written
        # as a prompt and an output (the context already holds both)
        generated_stated = state.values.get("gen_tokens")
        prompt = context - (generated_stated if isinstance(generated_stated, int) else 0)
    else:
        return
    work["batch_job"] = True
    generated = _output_per_request(state, prompt)
    # The document is the prompt: a context read elsewhere in the sentence ("200-token summaries" before the
    # output cue was known) gives way to it, the output per document added when it is known.
    state.values["context"] = min(MAX_CONTEXT, prompt + generated)
    if "context" not in state.stated:
        state.stated.append("context")
    if _as_rate(state, work, text):
        work.pop("batch_job")  # "每天 10 万篇": a service that keeps up, planned at that request rate
        return
    state.values["output_tokens"] = float(min(MAX_OUTPUT_TOKENS, work["training_samples"] * generated))
    if "output_tokens" not in state.stated:
        state.stated.append("output_tokens")


def _output_per_request(state: SlotState, prompt: int) -> int:
    """The output each request of a batch job writes: as stated, else an assumption the reply names (the output
    sets half the bill), not a reading: the document's own length for a job that rewrites it."""
    generated = state.values.get("gen_tokens")
    if isinstance(generated, int):
        return generated
    if _SAME_LENGTH_JOB.search(state.text) and prompt > 0:
        state.values["gen_tokens"] = prompt
        state.notes.append(SAME_LENGTH_OUTPUT_NOTE)
        return prompt
    state.values["gen_tokens"] = BATCH_JOB_GEN_TOKENS
    state.notes.append(BATCH_JOB_OUTPUT_NOTE)
    return BATCH_JOB_GEN_TOKENS


IMAGE_JOB_TEXT_TOKENS = 256
"""The text of each request of a job over images ("extract the invoice fields as JSON"), beside the image's own
positions, which bot.reply.request_images adds; said under Assumed with them."""


def read_image_job(state: SlotState, work: dict[str, Any], model: Model | None, text: str) -> None:
    """A count of images a vision-language model is run over ("识别 10 万张发票", "caption 2M photos"): an offline
    batch job of that many requests of one image each, prefilled and generated at a serving engine's full load. The
    context set here is the text of a request and its output; the image's positions are added to it when sized."""
    count = state.values.get("image_count")
    if (model is None or model.image_tokens is None or not isinstance(count, int) or work.get("training_samples")
            or state.values.get("task") not in (None, "inference")):
        return
    if state.values.get("task") is None and BATCH_JOB_VERBS.search(text) is None:
        return
    work["training_samples"] = count
    work["batch_job"] = True
    generated = _output_per_request(state, 0)  # an image's text is no document to rewrite
    state.values["context"] = IMAGE_JOB_TEXT_TOKENS + generated  # not stated: the image's positions join it
    if _as_rate(state, work, text):
        work.pop("batch_job")
        return
    state.values["output_tokens"] = float(min(MAX_OUTPUT_TOKENS, count * generated))
    if "output_tokens" not in state.stated:
        state.stated.append("output_tokens")


def _count_documents(state: SlotState, work: dict[str, Any]) -> None:
    """"1M docs of 256 tokens each": the documents and their length, not a training-token budget."""
    if work.get("tokens") and work.get("sample_tokens") and not work.get("training_samples"):
        work["training_samples"] = round(float(work.pop("tokens")) / float(work["sample_tokens"]))
        state.stated = [slot for slot in state.stated if slot != "tokens"] + ["training_samples"]
    elif work.get("tokens") and not work.get("training_samples"):
        # "embed about 60M tokens": that many tokens in chunks of the request length (stated, else the encoder
        # default the reply assumes and says), not a 60M-token context (audit 24 HIGH 16)
        context = state.values.get("context")
        chunk = context if isinstance(context, int) else ENCODER_DEFAULT_CONTEXT
        work["training_samples"] = math.ceil(float(work.pop("tokens")) / chunk)
        state.stated = [slot for slot in state.stated if slot != "tokens"] + ["training_samples"]
