"""Choices among what a thread discussed (audit 29 HIGH 50): "兩張卡哪個比較划算" after a 4090 and a 5090, and
"哪个更便宜" after the same set-up priced on AWS and then Alibaba Cloud, had dropped the thread for a generic chart."""

from __future__ import annotations

from knowledge.loader import default_knowledge
from tests.bot.reply._answers import thread

KB = default_knowledge()




def test_the_two_cards_are_the_threads_not_a_count() -> None:
    question = thread("想用 RTX 4090 跑 Qwen2.5-14B 推理可以嗎？", "那上下文改成 32k 呢", "換成 5090 呢",
                       "兩張卡哪個比較划算")
    assert question.intent == "compare" and question.model == "qwen2.5-14b"
    assert question.compare_gpus == ["rtx-4090", "rtx-5090"] and question.context == 32_768


def test_which_is_cheaper_after_two_clouds_prices_the_job_on_both() -> None:
    question = thread("Qwen2.5-32B 用 vLLM 部署，10 个并发，上下文 16k，用什么卡？", "在 AWS 上一个月多少钱",
                       "阿里云呢", "哪个更便宜")
    assert question.model == "qwen2.5-32b" and question.batch == 10
    assert question.cloud == "alibaba" and question.other_clouds == ["aws"] and question.asks_cost


def test_a_count_of_cards_asked_anew_is_still_a_count() -> None:
    question = thread("想用 RTX 4090 跑 Qwen2.5-14B 推理可以嗎？", "用兩張卡呢")
    assert question.gpu == "rtx-4090" and question.gpu_count == 2 and question.intent != "compare"


def test_two_cards_named_to_compare_in_a_sized_thread_keep_its_job() -> None:
    # audit 30 HIGH 61 residue (THJ): "L20 和 A100 哪个更便宜" after the job was sized fell to the generic chart
    question = thread("Qwen2.5-32B 推理，20 并发，上下文 8k，用什么卡", "换成 L20 呢", "L20 和 A100 哪个更便宜")
    assert question.intent == "compare" and question.model == "qwen2.5-32b" and question.batch == 20
    assert question.compare_gpus[:1] == ["l20"]
