"""What a card can run: the examples are real models that fit it, the largest and newest, none repeated."""

from __future__ import annotations

from tests.bot.reply._answers import KB, ask_json


def test_examples_are_models_that_fit_up_to_the_largest_and_are_not_repeated() -> None:
    # a 12 GB 3060 at INT4: the generic ladder stops at 13B, and a 14B (14.8e9 × 0.53 B ≈ 7.3 GiB of GPTQ weights
    # plus a 4k cache) fits too: it was illustrated with 8-9B models, and Gemma 3n E4B appeared in two rows
    reply = ask_json("我的显卡是3060 12G，能本地跑什么模型")
    rows = {(row["task"], row["precision"]): row for row in reply["capacity"]}
    int4 = rows[("inference", "int4")]
    assert max(KB.models[m].params_b for m in int4["examples"]) >= 13
    shown = [m for row in reply["capacity"] for m in row["examples"]]
    assert len(shown) == len(set(shown))
    makers = [KB.models[m].org for m in int4["examples"]]
    assert len(makers) == len(set(makers))


def test_a_laptop_chip_that_is_never_a_pick_still_lists_what_it_runs() -> None:
    # capacity ranked the card asked about with rank_picks, which skips cards not recommended: a 4070 Laptop
    # (8 GB) said "nothing from 0.5B up" while its own check fits Llama 3 8B Q4_K_M in 5.7 GiB
    reply = ask_json("what can an RTX 4070 Laptop run")
    rows = {(row["task"], row["precision"]): row for row in reply["capacity"]}
    assert rows[("inference", "int4")]["max_params_b"] and rows[("inference", "int4")]["max_params_b"] >= 7
    assert rows[("inference", "int4")]["examples"]


def test_models_compared_on_a_mac_are_sized_and_timed_on_the_mac() -> None:
    # audit 27 M-39: "Mac mini M4 Pro 48GB: gpt-oss-20b or Qwen3-30B-A3B" was compared on NVIDIA cards (an RTX A4000,
    # a V100) at their speeds; both on the Mac, at its 273 GB/s
    reply = ask_json("Mac mini M4 Pro with 48GB: gpt-oss-20b or Qwen3-30B-A3B (Q4_K_M) in Ollama — which one is "
                     "faster for coding, and do both fit with a 64k context?")
    rows = {row["model"]: row for row in reply["model_compare"]}
    assert set(rows) == {"gpt-oss-20b", "qwen3-30b-a3b"}
    for row in rows.values():
        assert row["gpu"] == "unified-48gb"
        assert row["fits"] is True and 10 < row["decode_tokens_per_s"] < 150
    assert rows["gpt-oss-20b"]["decode_tokens_per_s"] > rows["qwen3-30b-a3b"]["decode_tokens_per_s"]


def test_models_compared_on_one_card_end_with_which_is_faster() -> None:
    # audit 27 LOW-76: the rows alone ("~24 tok/s" beside "~22 tok/s") left "哪個比較快" to the reader
    mac = ask_json("Mac mini M4 Pro with 48GB: gpt-oss-20b or Qwen3-30B-A3B (Q4_K_M) in Ollama — which one is "
                   "faster?")
    speeds = {row["model"]: row["decode_tokens_per_s"] for row in mac["model_compare"]}
    ratio = speeds["gpt-oss-20b"] / speeds["qwen3-30b-a3b"]
    assert f"In short: gpt-oss-20b is the faster, about {ratio:.1f}× the next." in mac["text"]


def test_a_model_not_sized_beside_one_that_is_is_said_not_dropped() -> None:
    # audit 26 LOW-60: "(1) Wan 2.1 14B at 720p? (2) RTX 5090 vs 4090 for Qwen3-32B AWQ" answered (2) alone, silently
    reply = ask_json("Two things: (1) how much VRAM does Wan 2.1 14B text-to-video need at 720p? (2) separately, is "
                     "an RTX 5090 faster than an RTX 4090 for Qwen3-32B AWQ decode, and by how much?")
    assert reply["query"]["model"] == "qwen3-32b" and not reply.get("error")
    assert "Wan is a video-generation model, which I do not size yet" in reply["text"]
    assert "The figures below answer the rest of the question, for Qwen3-32B." in reply["text"]


def test_the_biggest_model_to_full_fine_tune_is_given_first() -> None:
    # audit 30 M-75: only LoRA (180B) and QLoRA (405B) were given. ZeRO-3 over 8 × 79.5 GiB at ≈ 18 bytes a
    # parameter of model states is ≈ 35B before activations
    from tests.bot.reply._answers import ask_json

    reply = ask_json("With 8x A100 80GB, what's the biggest model we can full fine-tune?")
    rows = reply["capacity"]
    assert rows[0]["task"] == "train" and 25 <= rows[0]["max_params_b"] <= 40
    assert [r["task"] for r in rows[1:]] == ["lora", "qlora"]
