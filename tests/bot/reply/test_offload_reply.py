"""An offload to system RAM asked for without a count: the reply sizes the split llama.cpp users would pick."""

from __future__ import annotations

from tests.bot.reply._answers import ask_json


def test_partial_offload_is_sized_with_the_layers_that_fit_and_says_it_chose_them() -> None:
    # Llama 3.3 70B Q4_K_M (≈ 39.4 GiB of weights) does not fit a 3090 whole; with part of it in RAM it does,
    # and the RAM-bound decode (≈ 19.4 GiB read from RAM a token at 76.8 GB/s: about 3.7 tok/s) is the answer
    reply = ask_json("Can I run Llama 3.3 70B Q4_K_M on a single 3090 with partial offload? what tok/s?")
    assert reply["check"]["fits"] is True
    assert reply["query"]["gpu_layers"] is not None and 0 < reply["query"]["gpu_layers"] < 81
    said = [a for a in reply["assumptions"] if a["reason"] == "offload-chosen"]
    assert said and said[0]["field"] == "gpu_layers"
    assert "tops out near" in reply["text"]


def test_an_moe_keeps_its_experts_in_ram_rather_than_whole_layers() -> None:
    reply = ask_json("Qwen3-235B-A22B 用 4 张 4090 加 256G 内存跑 Q4_K_M，速度多少")
    assert reply["check"]["fits"] is True
    assert reply["query"]["cpu_moe_layers"] is not None and reply["query"]["gpu_layers"] is None
    assert "--n-cpu-moe" in reply["text"]


def test_a_model_that_fits_whole_is_not_split() -> None:
    reply = ask_json("Llama 3.1 8B Q4_K_M on a 3090 with partial offload")
    assert reply["check"]["fits"] is True and reply["query"]["gpu_layers"] is None
    assert not [a for a in reply["assumptions"] if a["reason"] == "offload-chosen"]


def test_ktransformers_on_an_moe_is_sized_as_its_split_experts_in_ram_rest_on_the_card() -> None:
    # KTransformers' README runs DeepSeek-V3/R1 Q4_K_M in about 14 GB of VRAM and 382 GB of DRAM; was sized as
    # vLLM FP8 on one 4090 (628 GiB, No)
    reply = ask_json("用ktransformers在一张4090上跑DeepSeek-V3可以吗")
    assert reply["query"]["engine"] == "llama.cpp" and reply["query"]["cpu_moe_layers"] is not None
    assert reply["check"]["fits"] is True and reply["check"]["memory_per_gpu_gb"] < 16
    assert 300 < reply["estimate"]["host_ram_gb"] < 420
    assert "KTransformers 把 MoE 的路由专家放在系统内存" in reply["text"]


def test_ktransformers_on_a_dense_model_keeps_the_generic_notice() -> None:
    reply = ask_json("Llama 3.1 8B with ktransformers on a 4090")
    assert reply["query"]["cpu_moe_layers"] is None
    assert "I have no profile for KTransformers" in reply["text"]


def test_ram_stated_with_no_runtime_is_sized_as_llama_cpp_split_not_bf16_transformers() -> None:
    # "16G 显存 + 64G 内存" names no runtime: sized as bf16 transformers it was "No: 59 GiB"; the runtime people
    # split a model between card and RAM with is llama.cpp, with its Q4_K_M file
    reply = ask_json("16G 显存 + 64G 内存 跑 Qwen3-30B-A3B")
    assert reply["query"]["engine"] == "llama.cpp" and reply["query"]["quant"] == "gguf-q4_k_m"
    assert reply["check"]["fits"] is True and reply["query"]["cpu_moe_layers"] is not None
    dense = ask_json("Llama 3.1 70B on a 24GB card and 64GB RAM")
    assert dense["check"]["fits"] is True and dense["query"]["gpu_layers"] is not None
    assert dense["estimate"]["host_ram_gb"] < 64


def test_a_gguf_that_fits_whole_is_sized_on_llama_cpp_without_a_split() -> None:
    reply = ask_json("Llama 3.1 8B on a 3060 12GB with partial offload")
    assert reply["query"]["engine"] == "llama.cpp" and reply["query"]["gpu_layers"] is None
    assert reply["check"]["fits"] is True



def test_a_smaller_gguf_is_named_by_its_type_and_bits_not_int4() -> None:
    reply = ask_json("Qwen3-235B-A22B Q4_K_M on a MacBook Pro M4 Max 128GB")
    assert "a Q2_K GGUF (about 2.6 bits a weight)" in reply["text"] and "INT4 (gguf-q2_k)" not in reply["text"]


def test_the_moe_note_does_not_say_every_expert_is_on_the_card_when_they_are_in_ram() -> None:
    reply = ask_json("用ktransformers在一张4090上跑DeepSeek-V3可以吗")
    assert "moe-all-experts" not in reply["estimate"]["notes"]


def test_ollama_named_runs_a_model_a_few_layers_over_the_card_with_its_own_split() -> None:
    # audit 14 A-M6: "No" by 0.3 GiB while Ollama leaves 4 of 49 layers in RAM by itself and runs it
    from bot.reply.answer import answer
    from bot.reply.render import render_text
    from bot.understand.parse import parse
    from knowledge.loader import default_knowledge

    kb = default_knowledge()
    result = answer(parse("Can I run DeepSeek-R1-Distill-Qwen-14B at Q4_K_M on an RTX 3080 10GB with Ollama?", kb), kb)
    assert result.check is not None and result.check.fits
    assert result.estimate is not None and result.estimate.gpu_layers is not None
    assert result.estimate.gpu_layers >= 0.9 * 49 and result.estimate.host_ram_gb
    assert "Ollama's own split" in render_text(result, kb=kb)
    # most of a 70B in RAM stays a No, with the split among its fixes
    big = answer(parse("ollama run llama3:70b on a 4090", kb), kb)
    assert big.check is not None and not big.check.fits
    assert any(s.kind == "cpu-layers" for s in big.check.suggestions)


def test_the_decode_ceiling_of_a_split_counts_the_cards_read_as_well_as_the_rams() -> None:
    # audit 15 B-M8: a token reads its RAM layers, then its card layers; the RAM part alone put the ceiling 2× high.
    # -ngl 40 of Qwen2.5-32B Q4_K_M on a 4080 16GB: ≈ 7.2 GiB from RAM at 76.8 GB/s (0.1007 s) and ≈ 11.8 GiB on
    # the card at 716.8 GB/s (0.0177 s): 1 / 0.118 s ≈ 8.4 tok/s, not the 10.7 the RAM alone allows
    reply = ask_json("Qwen2.5-32B Q4_K_M on a 4080 16GB with -ngl 40")
    estimate = reply["estimate"]
    ram_s = estimate["host_read_gb_per_token"] * 2**30 / 76.8e9
    card_s = (estimate["breakdown"]["weights"] + estimate["breakdown"]["kv_cache"]) * 2**30 / 716.8e9
    ceiling = 1 / (ram_s + card_s)
    assert 7.5 < ceiling < 9.5
    assert f"tops out near {ceiling:.1f} tok/s" in reply["text"]


def test_the_layers_on_the_card_fix_says_how_fast_it_decodes() -> None:
    # s06: "速度多少？" on the asker's one card was answered only as "several times slower"
    text = ask_json("Ollama 跑 Qwen2.5-32B Q4_K_M，显卡是 4080 16G，能跑吗？速度多少？")["text"]
    line = next(line for line in text.splitlines() if "-ngl" in line)
    assert "生成速度最多约" in line and "tok/s" in line


def test_an_moe_split_ceiling_reads_only_the_routed_experts() -> None:
    # audit 16 C-H4: Mixtral's -ngl split was "at most 5.4 tok/s", every stored expert counted as read a token;
    # a token reads 2 of 8 experts, about 12.9B of 46.7B parameters: the ceiling is about 4× that
    text = ask_json("Ollama 跑 Mixtral 8x7B q4，3090 能全部放进显存吗？")["text"]
    line = next(line for line in text.splitlines() if "-ngl" in line)
    tps = float(line.split("生成速度最多约 ")[1].split(" tok/s")[0])
    assert 15 < tps < 30


def test_some_experts_offloaded_keeps_as_many_on_the_card_as_fit() -> None:
    reply = ask_json("Can I run Qwen3-30B-A3B at Q4_K_M with llama.cpp on an RTX 4070 12GB if I offload some experts"
                     " to the CPU? How fast?")
    layers = reply["query"]["cpu_moe_layers"]
    assert layers is not None and 0 < layers < 48  # not every layer's experts
    assert reply["check"]["fits"] is True


def test_experts_in_ram_over_several_cards_use_all_of_them() -> None:
    # audit 17 HIGH 2: 4 × 3090 moved only 2 more layers' experts onto the cards than 1 × 3090, the even split by
    # block count loading the last card alone; a balanced --tensor-split holds far more of the experts on them
    one = ask_json("Qwen3-235B-A22B at Q4_K_M on 1x RTX 3090 with llama.cpp and 128GB of RAM: tokens per second?")
    four = ask_json("Qwen3-235B-A22B at Q4_K_M on 4x RTX 3090 with llama.cpp and 128GB of RAM: tokens per second?")
    assert four["query"]["cpu_moe_layers"] < one["query"]["cpu_moe_layers"] - 30
    split = four["estimate"]["tensor_split"]
    assert split is not None and len(split) == 4 and sum(split) == 94
    assert f"--tensor-split {','.join(str(b) for b in split)}" in four["text"]
    assert four["estimate"]["host_ram_gb"] < 0.6 * one["estimate"]["host_ram_gb"]
