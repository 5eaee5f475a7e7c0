""""How many users can it serve?": one replica of a serving engine at the most sequences it holds."""

from __future__ import annotations

import math

import pytest

from tests.bot.reply._answers import ask_json as _ask


def test_the_k_in_how_many_8k_users_is_each_users_context() -> None:
    answer = _ask("llama 3.1 405b fp8 on 8x H100: how many concurrent 8k users?")
    assert answer["query"]["context"] == 8192  # not 8,000 users capped at the batch bound
    assert answer["query"]["batch"] == 1
    assert answer["query"]["engine"] == "vllm"
    serving = answer["serving"]
    assert serving["binding"] == "concurrency" and serving["replicas"] == 1
    assert serving["sequences_per_replica"] > 1
    assert "sequences of 8,192 tokens at once" in answer["text"]


@pytest.mark.parametrize("text", ["how many users can llama 3 8b serve on one L4?",
                                  "8张H100跑Qwen2.5-72B能支持多少并发"])
def test_the_cards_named_are_checked_and_loaded(text: str) -> None:
    answer = _ask(text)
    assert answer["check"] is not None and answer["check"]["fits"] is True
    serving = answer["serving"]
    assert serving["binding"] == "concurrency"
    assert serving["gpu"] == answer["query"]["gpu"]
    # the plan's sequences are those the pick line says fit on the same cards
    top = next(p for p in answer["picks"] if p["gpu"] == serving["gpu"] and p["count"] == serving["gpus_per_replica"])
    assert top["max_concurrent_sequences"] is not None
    assert serving["sequences_per_replica"] <= top["max_concurrent_sequences"]


def test_a_stated_user_count_is_a_target_not_a_question() -> None:
    answer = _ask("llama 3 8b for 64 users on an A100")
    assert answer["query"]["batch"] == 64
    assert answer["serving"] is None or answer["serving"]["binding"] != "concurrency"


def test_more_users_than_a_node_serves_are_planned_as_in_node_replicas_not_pipelined_across_nodes() -> None:
    # Qwen3-8B at 4,096 tokens needs 16 L40S for 1,000 users either way; the plan is replicas inside a node.
    answer = _ask("1000 concurrent users qwen3-8b how many L40S")
    serving = answer["serving"]
    assert serving["binding"] == "replicas"
    assert serving["gpus_per_replica"] <= 8
    assert serving["replicas"] * serving["sequences_per_replica"] >= 1000
    assert serving["replicas"] * serving["gpus_per_replica"] <= 16  # no more cards than the pipelined layout
    # the bill is the replicas' instances, not the replicas times the 16-card layout
    assert answer["cost"]["count"] == serving["replicas"] * serving["gpus_per_replica"]
    assert "rather than one copy of the model pipelined across nodes" in answer["text"]


def test_the_picks_memory_and_speed_describe_the_replicas_the_plan_runs() -> None:
    answer = _ask("1000 concurrent users qwen3-8b how many L40S")
    serving, top = answer["serving"], answer["picks"][0]
    assert top["gpu"] == serving["gpu"] and top["replicas"] == serving["replicas"]
    assert top["count"] == serving["replicas"] * serving["gpus_per_replica"]
    assert "replicas × " in answer["text"] and "pipeline across nodes" not in answer["text"]
    # one replica's figures: its cards, its share of the users
    assert answer["estimate"]["gpu_count"] == serving["gpus_per_replica"]
    assert answer["speed_on"]["count"] == serving["gpus_per_replica"]
    assert "one-replica" in answer["estimate"]["notes"]
    assert top["memory_per_gpu_gb"] == pytest.approx(answer["estimate"]["per_gpu_gb"], abs=0.05)
    assert top["price_per_hour"] == pytest.approx(answer["cost"]["per_hour"], rel=0.01)
    from bot.reply.render import render_csv
    from bot.reply.request import answer_request
    from tests.bot.reply._answers import KB

    table = render_csv(answer_request({"text": "1000 concurrent users qwen3-8b how many L40S"}, KB), KB)
    layout = f"({serving['replicas']} replicas × {serving['gpus_per_replica']})"
    assert layout in table.splitlines()[1]  # the table's first pick names its replicas too


def test_beyond_one_jobs_batch_the_estimate_is_the_replica_the_pick_describes() -> None:
    # 10,000 users: the job's batch stops at 4,096, but each replica serves its share of all 10,000.
    answer = _ask("10000 concurrent users qwen3-8b on L40S")
    top = answer["picks"][0]
    assert top["replicas"] and top["replicas"] > 1
    assert answer["estimate"]["per_gpu_gb"] == pytest.approx(top["memory_per_gpu_gb"], abs=0.05)


def test_a_model_that_needs_more_than_a_node_keeps_its_pipeline() -> None:
    answer = _ask("llama 3.1 405b bf16 for 64 concurrent users on 16x H100")
    assert answer["serving"] is None or answer["serving"]["binding"] != "replicas"


def test_more_users_than_one_job_s_batch_are_all_planned_over_replicas() -> None:
    answer = _ask("10000 concurrent users qwen3-8b")
    assert answer["query"]["batch"] == 4096  # one job's bound, said as capped
    serving = answer["serving"]
    assert serving["concurrent_needed"] == 10_000
    assert serving["replicas"] * serving["sequences_per_replica"] >= 10_000
    assert "10,000 concurrent users" in answer["text"]


def test_more_users_than_one_job_holds_get_replicas_on_the_cards_named() -> None:
    answer = _ask("10000 concurrent users qwen3-8b on 8x H200")
    serving = answer["serving"]
    assert serving["gpu"] == "h200" and serving["gpus_per_replica"] <= 8
    assert serving["replicas"] * serving["sequences_per_replica"] >= 10_000


def test_a_replica_serves_no_more_users_at_once_than_its_engine_batches() -> None:
    # vLLM's max_num_seqs is 256 on an A100 (excluded from the large-card defaults): 2,000 users of an 8B at
    # 2k tokens need replicas that each decode at most 256, not one 8-card copy holding 2,396 in its KV cache
    answer = _ask("serve Llama 3.1 8B with vLLM for 2000 concurrent users at 2k context on A100 80GB")
    serving = answer["serving"]
    assert serving is not None and serving["sequences_per_replica"] <= 256
    assert serving["replicas"] * serving["sequences_per_replica"] >= 2000
    assert answer["picks"][0]["replicas"] == serving["replicas"]


def test_users_beyond_the_most_replicas_planned_are_said_to_queue_not_served() -> None:
    answer = _ask("serve Llama 3.1 8B for 1000000000 concurrent users")
    serving = answer["serving"]
    held = serving["replicas"] * serving["sequences_per_replica"]
    assert held < serving["concurrent_needed"] and serving["met"] is False
    assert serving["binding"] == "replica_cap"
    assert serving["aggregate_tokens_per_s"] == pytest.approx(serving["decode_tokens_per_s"] * held, rel=0.01)
    assert "the rest would queue" in answer["text"]


def test_the_speed_line_times_one_replica_of_the_pick_that_replaces_a_named_set_that_does_not_fit() -> None:
    # 8x H100 cannot hold 405B FP8 for 200 users at 32k; the pick is 5 replicas of 16, and the speed line is one
    # replica at its share of the users, as the plan's per-user figure is
    answer = _ask("Serve Llama-3.1-405B with vLLM FP8 on 8x H100 for 200 users at 32k context")
    serving, top = answer["serving"], answer["picks"][0]
    assert top["replicas"] == serving["replicas"] > 1
    assert answer["speed_on"]["count"] == serving["gpus_per_replica"]
    assert answer["speed"]["decode_tokens_per_s"] == pytest.approx(serving["decode_tokens_per_s"], rel=0.05)


@pytest.mark.parametrize("text", ["TP=8 for Qwen2.5-72B-Instruct on 8x 4090, fp16",
                                  "Qwen2.5-72B tensor parallel across 8 RTX 4090",
                                  "Qwen2.5-72B 张量并行 8张4090"])
def test_tensor_parallelism_asked_for_is_sized_on_a_serving_engine(text: str) -> None:
    answer = _ask(text)
    assert answer["query"]["engine"] == "vllm"
    assert {"field": "engine", "value": "vllm", "reason": "tensor-parallel-named"} in [
        {k: a[k] for k in ("field", "value", "reason")} for a in answer["assumptions"]]


def test_a_comparison_of_set_ups_sizes_each_at_its_own_count() -> None:
    # "4x L40S vs 2x H100": the user's two set-ups, not each card's own smallest fitting count
    answer = _ask("4x L40S vs 2x H100 for serving Llama 3.1 70B with vLLM at 8k context, 20 users")
    counts = {p["gpu"]: p["count"] for p in answer["picks"]}
    assert counts == {"l40s": 4, "h100-sxm": 2}
    assert "— 4× — does not fit" in answer["text"] and "— 2× — does not fit" in answer["text"]


def test_a_model_of_hundreds_of_billions_is_sized_on_a_serving_engine_even_for_one_prompt() -> None:
    answer = _ask("Can I run DeepSeek-R1 671B on 8x H200?")
    assert answer["query"]["engine"] == "vllm"
    assert {"field": "engine", "value": "vllm", "reason": "large-model-serving"} in [
        {k: a[k] for k in ("field", "value", "reason")} for a in answer["assumptions"]]
    assert _ask("llama 3 8b on a 4090")["query"]["engine"] == "transformers"


def test_a_replica_pick_gives_its_concurrency_per_replica_like_its_other_figures() -> None:
    from bot.reply.render import render_text
    from bot.service import ask

    text = "用vLLM部署Qwen2.5-72B，200并发，每人20 tok/s，上下文8k，需要几张H100，几个副本"
    answer = ask({"text": text, "lang": "en"})
    top = answer.picks[0]
    assert top.replicas and top.replicas > 1 and top.max_concurrent_sequences
    per_replica = top.max_concurrent_sequences // top.replicas  # the JSON counts all replicas
    line = next(line for line in render_text(answer).splitlines() if line.startswith("1. "))
    assert "figures per replica" in line and f"{per_replica} concurrent sequences fit" in line


def test_a_total_generation_rate_is_planned_over_replicas() -> None:
    # "100M output tokens a day" is ≈ 1,157 tokens/s in all: the plan holds enough sequences, each at a
    # replica's per-user speed, to reach it.
    answer = _ask("How much does it cost to serve 100M output tokens a day of Llama 3.1 8B on L4s?")
    plan = answer["serving"]
    assert answer["understood"]["output_tokens_per_s"] == pytest.approx(1e8 / 86400)
    assert plan["aggregate_tokens_per_s"] >= 1e8 / 86400 * 0.99
    assert plan["replicas"] == -(-plan["concurrent_needed"] // plan["sequences_per_replica"])


def test_requests_a_day_are_a_request_rate() -> None:
    per_day = _ask("Serve Llama 3.1 8B with vLLM, 2 million requests per day, 500 output tokens each")
    per_second = _ask("Serve Llama 3.1 8B with vLLM at 23.148 requests per second, 500 output tokens each")
    assert per_day["serving"]["replicas"] == per_second["serving"]["replicas"] > 1


def test_a_request_rate_says_the_output_length_it_assumed_and_a_stated_one_replaces_it() -> None:
    assumed = _ask("Serve Qwen2.5-7B at 20 QPS, how many L4?")
    [note] = [a for a in assumed["assumptions"] if a["field"] == "gen_tokens"]
    assert note["value"] == 2048 and note["reason"] == "half-the-context"
    stated = _ask("Qwen2.5-7B, 20 QPS, 300 tokens out each, how many L4?")
    assert not [a for a in stated["assumptions"] if a["field"] == "gen_tokens"]
    cards = {k: a["serving"]["replicas"] * a["serving"]["gpus_per_replica"]
             for k, a in (("assumed", assumed), ("stated", stated))}
    # shorter replies hold fewer users at once; the same 4,096-token sequences take the same compute
    assert stated["serving"]["concurrent_needed"] < assumed["serving"]["concurrent_needed"]
    assert cards["stated"] <= cards["assumed"]


def test_a_rate_target_picks_the_replica_size_that_takes_fewest_cards_and_packs_replicas_into_instances() -> None:
    answer = _ask("What does it cost per month to serve Llama 3.1 70B fp8 on AWS p5 at 50 requests/sec?")
    plan = answer["serving"]
    # one H100 holds the FP8 weights with room for two sequences: single-card replicas took 1,687 cards
    assert plan["gpus_per_replica"] > 1 and plan["replicas"] * plan["gpus_per_replica"] < 200
    # replicas of 4 cards share 8-GPU p5 instances, two to an instance
    cards = plan["replicas"] * plan["gpus_per_replica"]
    assert answer["cost"]["instances"] == -(-cards // 8)
    named = _ask("serve Llama 3.1 70B fp8 at 50 requests/sec on 1x H100")["serving"]
    assert named["gpus_per_replica"] == 1  # cards the question names are planned as named


def test_a_batch_beyond_one_job_is_served_as_users_and_the_reply_says_so() -> None:
    reply = _ask("Llama 3.1 8B with batch size 1000000 on an H100")
    said = [a for a in reply["assumptions"] if a["reason"] == "batch-as-users"]
    assert said and said[0]["value"] == 1_000_000
    assert "read as that many concurrent users" in reply["text"]
    # "1,000 concurrent users" says users itself: nothing to explain
    users = _ask("Llama 3.1 8B for 10000 concurrent users on H100s")
    assert not [a for a in users["assumptions"] if a["reason"] == "batch-as-users"]


def test_the_first_token_is_timed_on_the_prompt_left_beside_the_assumed_output() -> None:
    # a 4,096-token context with 2,048 generated (assumed) leaves a 2,048-token prompt: its prefill, not the whole
    # context's, sets the first token (the whole context doubled the time and the H20s, 4 → 8, at a 1.5 s target)
    answer = _ask("部署Qwen2.5-72B-Instruct，100个并发，首token延迟1.5秒以内，需要几张H20？")
    [note] = [a for a in answer["assumptions"] if a["field"] == "gen_tokens"]
    assert note["value"] == 2048
    assert answer["query"]["context"] == 4096
    plan = answer["serving"]
    prefill = answer["speed"]["prefill_tokens_per_s"]
    assert plan["ttft_s"] < 2048 / prefill + 0.5 < 4096 / prefill
    assert plan["gpus_per_replica"] * plan["replicas"] == 4 and plan["met"]


def test_users_no_single_set_holds_are_served_by_replicas_of_a_set_that_holds_some() -> None:
    # audit 14 A-H3: "Nothing fits as asked" with no count. 405B at 128k: 756 GiB of weights and 63 GiB of KV a user
    # (126 layers × 8 KV heads × 128 × 2 × 2 B × 131,072): eight 279 GB GB300s hold the weights and about 22 users
    from bot.reply.answer import answer
    from bot.understand.parse import parse
    from knowledge.loader import default_knowledge

    kb = default_knowledge()
    result = answer(parse("Llama 3.1 405B with 1000 users at the same time, 128k context each, how many GPUs", kb), kb)
    top = result.picks[0]
    assert top.fits and top.replicas > 1 and top.count == 8 * top.replicas
    assert result.serving is not None and result.serving.replicas * result.serving.sequences_per_replica >= 1000
    kv_per_user_gib = 2 * 126 * 8 * 128 * 2 * 131072 / 2**30
    assert kv_per_user_gib == 63.0
    # the replica's KV cache is its users' share: 1,000 users over the replicas, 63 GiB each, over 8 cards
    assert result.estimate is not None
    users_each = -(-1000 // top.replicas)
    assert result.estimate.breakdown.kv_cache * 8 == pytest.approx(users_each * kv_per_user_gib, rel=0.01)


def test_the_card_named_for_more_users_than_any_set_of_it_holds_leads_as_replicas() -> None:
    # audit 15 B-H4: "how many H100s" for 20,000 users said 224 GPUs in the memory and speed blocks (an H200
    # pick's count, at the 4,096 batch cap) while the plan said 58 × 8 H100, and no H100 pick was listed
    answer = _ask("Serve Llama 3.3 70B to 20,000 concurrent chat users at 4k context: how many H100s?")
    top, plan = answer["picks"][0], answer["serving"]
    assert top["gpu"] == "h100-sxm" and top["replicas"] == plan["replicas"]
    assert top["count"] == plan["replicas"] * plan["gpus_per_replica"]
    assert answer["estimate"]["gpu_count"] == plan["gpus_per_replica"]  # one replica's figures, as said
    # 2 × 80 layers × 8 KV heads × 128 × 2 B × 4,096 tokens = 1.25 GiB a user
    assert plan["sequences_per_replica"] * 1.25 < 8 * 80
    for pick in answer["picks"]:  # every pick carries all the users, as replicas where one set cannot
        assert (pick["max_concurrent_sequences"] or 0) >= 20_000 or (pick["replicas"] or 1) > 1
    assert "batch 4096" not in answer["text"].splitlines()[2]  # the users are read back, not the batch cap


def test_a_replica_spans_two_nodes_when_the_weights_leave_one_node_little_room_for_users() -> None:
    # audit 15 B-H5: 405B FP8 (453 GiB of weights) for 2,000 users at 32k was 334 whole-node replicas, 2,672 H100s.
    # Over 16 cards the weights are 28.3 GiB a card, leaving ≈ 42 users of 15.75 GiB each a replica: 48 × 16 = 768.
    answer = _ask("How many H100s do I need to serve Llama 3.1 405B FP8 to 2000 concurrent users with 32k context"
                  " each?")
    serving, top = answer["serving"], answer["picks"][0]
    assert serving["gpus_per_replica"] == 16 and serving["binding"] == "replicas_nodes"
    assert top["count"] == serving["replicas"] * 16 < 2672 * 0.75
    assert 40 <= serving["sequences_per_replica"] <= 44
    assert "2 nodes each: tensor parallel in a node, pipeline across them" in answer["text"]


def test_a_small_model_keeps_whole_node_replicas() -> None:
    # an 8B's weights leave nearly every card to the KV cache: spanning nodes would save nothing
    serving = _ask("serve Llama 3.1 8B to 20,000 concurrent users on H100s")["serving"]
    assert serving["gpus_per_replica"] <= 8 and serving["binding"] == "replicas"


def test_a_p95_asked_of_a_request_rate_plan_gets_the_mean_request_time_at_that_load() -> None:
    # audit 15 B-M9: "what p95?" had no answer; the plan's first token and per-user speed give the mean
    answer = _ask("Llama 3.1 8B: 1000 requests per second, 300 tokens in 100 out, how many L4s and what p95?")
    plan = answer["serving"]
    mean = plan["ttft_s"] + 99 / plan["decode_tokens_per_s"]
    assert f"at that load a request of 100 output tokens takes ≈ {mean:.1f} s on average; its p95 is longer" \
        in answer["text"]


def test_a_geforce_card_named_for_more_users_than_eight_of_it_hold_is_laid_out_as_replicas() -> None:
    # audit 16 C-H2: "How many RTX 4090s" for 200 users at 8k had no 4090 count at all
    answer = _ask("How many RTX 4090s to serve Qwen2.5-14B AWQ to 200 users at 8k context?")
    top = answer["picks"][0]
    assert top["gpu"] == "rtx-4090" and (top["replicas"] or 1) > 1
    assert answer["serving"]["replicas"] == top["replicas"]
    assert answer["serving"]["replicas"] * answer["serving"]["sequences_per_replica"] >= 200


def test_a_speed_target_a_card_without_a_plan_cannot_reach_is_not_a_bare_yes() -> None:
    # audit 16 C-M9: a card with no compute figure has no plan; its batch-1 decode alone is below the target
    answer = _ask("Can p95 latency stay under 2 s for Llama 3.1 8B on a 24GB GPU with 600 GB/s bandwidth with "
                  "300-token outputs?")
    assert answer["serving"] is None and answer["check"]["fits"] is True
    assert "That is memory only: 1× 24 GB GPU decodes ≈" in answer["text"]
    assert "below the 150 tok/s each user needs" in answer["text"]


def test_a_reranker_plan_counts_every_query_passage_pair() -> None:
    answer = _ask("bge-reranker-v2-m3 at 50 queries/s, each reranking 100 passages of 256 tokens: how many L40S?")
    plan = answer["serving"]
    per_replica = plan["targets"]["sequences_per_s_per_replica"]
    assert plan["concurrent_needed"] == 5000
    assert plan["replicas"] == math.ceil(5000 / per_replica) > 1


def test_how_many_users_on_cards_that_barely_hold_one_sequence_gets_the_count() -> None:
    # audit 17 M-9: 8 × H20 for DeepSeek-R1 at 128k: MLA's 8.6 GiB a sequence on every card against 8.1 GiB left
    answer = _ask("DeepSeek-R1 671B 用 8 张 H20 部署，128k 上下文能支持几个并发？")
    assert answer["serving"] is None
    assert "并发：8 张 H20 96GB 在权重之外只能容纳 0 条 131,072 token 的序列" in answer["text"]


def test_a_pick_is_listed_once() -> None:
    # audit 17 L-1: the named 4 × L40S laid out as 8 became the 8 × L40S pick already there, listed twice
    answer = _ask("ok and what if I switch to 4x L40S instead, still Llama 3.3 70B FP8 for 100 users at 8k?")
    keys = [(p["gpu"], p["count"], p["replicas"]) for p in answer["picks"]]
    assert len(keys) == len(set(keys))


def test_a_model_run_as_a_service_is_sized_on_a_serving_engine() -> None:
    # audit 32 M-102: "自建 Qwen3-32B 的推論服務" was sized on transformers, one prompt at a time (1× A6000 at
    # 9.9 tok/s); a service answers many users' requests, so vLLM sizes it and the reply asks for the load
    answer = _ask("想自建 Qwen3-32B 的推理服务，要用几张卡？")
    assert {"field": "engine", "value": "vllm", "reason": "service-named"} in answer["assumptions"]
    assert "说明负载即可按负载估算卡数" in answer["text"]
    notebook = _ask("what GPU for Qwen3-32B")
    assert not any(a["reason"] == "service-named" for a in notebook["assumptions"])


def test_a_prompt_past_128k_tokens_is_sized_on_a_chunked_prefill_engine() -> None:
    # audit 32 M-103: GLM-4-9B-Chat-1M at a million tokens was sized on transformers, 104 GiB of its 161 GiB the
    # whole-prompt prefill, and sent to a B200; vLLM prefills in chunks: weights 17.5 GiB + KV 80 KiB × 1M = 76 GiB
    # (its 4 KV groups: audit 35 HIGH 104), about 96 GiB in all
    answer = _ask("GLM-4-9B-Chat-1M 跑满 100 万上下文要多少显存？")
    assert {"field": "engine", "value": "vllm", "reason": "long-prompt-serving"} in answer["assumptions"]
    assert 90 < answer["estimate"]["total_gb"] < 105
    short = _ask("what GPU for GLM-4-9B-Chat at 32k context")
    assert not any(a["reason"] == "long-prompt-serving" for a in short["assumptions"])
