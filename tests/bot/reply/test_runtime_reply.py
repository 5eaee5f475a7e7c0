"""Runtime slots as the reply shows them: the engine's version written as people write it, and a KV-cache
precision stated for a training job set aside (training keeps no KV cache) instead of refused."""

from __future__ import annotations

import pytest

from bot.reply.answer import answer
from bot.reply.render import render_text
from bot.understand.parse import parse
from bot.understand.question import Question
from knowledge.loader import default_knowledge
from rules import weight_formats as WF
from tests.bot.reply._answers import ask_json

KB = default_knowledge()


def _lora(**changes: object) -> Question:
    base = Question(text="", intent="check", model="llama-3-8b", task="lora", gpu="a100-40gb", gpu_count=1,
                    stated=["model", "task", "gpu", "gpu_count", *[str(k) for k in changes]])
    return base.model_copy(update=changes)


def test_kv_cache_precision_is_set_aside_for_training() -> None:
    plain = answer(_lora(), KB)
    with_kv = answer(_lora(kv_cache="fp8"), KB)
    assert with_kv.error is None  # transformers has no fp8 KV cache, but a LoRA job has no KV cache at all
    assert with_kv.estimate is not None and plain.estimate is not None
    assert with_kv.estimate.per_gpu_gb == plain.estimate.per_gpu_gb
    [note] = [a for a in with_kv.assumptions if a.field == "kv_cache"]
    assert (note.value, note.reason) == ("fp8", "training-no-kv-cache")
    assert "KV cache fp8 (ignored: training keeps no KV cache)" in render_text(with_kv, kb=KB)


def test_kv_cache_precision_the_engine_lacks_is_still_refused_for_serving() -> None:
    question = Question(text="", intent="recommend", model="llama-3-8b", task="inference", engine="transformers",
                        kv_cache="fp8", stated=["model", "task", "engine", "kv_cache"])
    result = answer(question, KB)
    assert result.error == "kv-cache-unsupported"
    assert "transformers has no fp8 KV cache; it offers: bf16, fp16" in render_text(result, kb=KB)


def test_engine_version_is_read_back_with_the_engine_name() -> None:
    question = Question(text="", intent="recommend", model="qwen2-7b", task="inference", engine="transformers",
                        engine_version="4.38", context=32768,
                        stated=["model", "task", "engine", "engine_version", "context"])
    text = render_text(answer(question, KB), kb=KB)
    assert "I read this as: Qwen2-7B · inference · transformers 4.38 · context 32,768" in text


def test_a_stated_engine_is_read_back_by_its_own_name() -> None:
    question = Question(text="", intent="recommend", model="llama-3-8b", task="inference", engine="vllm",
                        kv_cache="fp8", batch=32, stated=["model", "task", "engine", "kv_cache", "batch"])
    text = render_text(answer(question, KB), kb=KB)
    assert "I read this as: Llama 3 8B · inference · vLLM · KV cache fp8" in text
    assert "engine vllm" not in text


def test_unsloth_checkpointing_is_reported_as_the_engine_default_on_a_card_of_a_stated_size() -> None:
    question = Question(text="", intent="check", model="llama-3.1-8b", task="qlora", engine="unsloth",
                        context=32768, memory_gb=24.0, gpu_count=1,
                        stated=["model", "task", "engine", "context", "memory_gb", "gpu_count"])
    result = answer(question, KB)
    text = render_text(result, kb=KB)
    assert "Unsloth · context 32,768 · 1× 24 GB GPU" in text
    [ckpt] = [a for a in result.assumptions if a.field == "gradient_checkpointing"]
    assert (ckpt.value, ckpt.reason) == (True, "engine-default")
    plain = answer(question.model_copy(update={"engine": None, "stated": [
        "model", "task", "context", "memory_gb", "gpu_count"]}), KB)
    [plain_ckpt] = [a for a in plain.assumptions if a.field == "gradient_checkpointing"]
    assert plain_ckpt.reason == "needed-to-fit"


def test_unsloth_trains_with_its_documented_8bit_adamw_unless_the_question_names_an_optimizer() -> None:
    question = Question(text="", intent="check", model="llama-3.1-8b", task="qlora", engine="unsloth",
                        context=4096, memory_gb=24.0, gpu_count=1,
                        stated=["model", "task", "engine", "context", "memory_gb", "gpu_count"])
    result = answer(question, KB)
    [opt] = [a for a in result.assumptions if a.field == "optimizer"]
    assert (opt.value, opt.reason) == ("adamw-8bit", "engine-default")
    assert "optimizer adamw-8bit (the engine's own default)" in render_text(result, kb=KB)
    named = answer(question.model_copy(update={"optimizer": "adamw", "stated": [*question.stated, "optimizer"]}), KB)
    assert not [a for a in named.assumptions if a.field == "optimizer"]
    assert result.estimate is not None and named.estimate is not None
    # All-linear rank 16 on Llama 3.1 8B: 41.9 M adapter parameters × (8 − 2) B of moments = 0.23 GiB less.
    assert named.estimate.breakdown.optimizer - result.estimate.breakdown.optimizer == pytest.approx(0.23, abs=0.02)
    transformers = answer(question.model_copy(update={"engine": None, "stated": [
        "model", "task", "context", "memory_gb", "gpu_count"]}), KB)
    assert not [a for a in transformers.assumptions if a.field == "optimizer"]


def test_an_moe_model_under_transformers_says_its_speed_comes_from_the_expert_loop() -> None:
    question = Question(text="", intent="check", model="qwen3-30b-a3b", task="inference", gpu="h100-80gb",
                        gpu_count=1, engine="transformers", engine_version="4.51",
                        stated=["model", "task", "gpu", "gpu_count", "engine", "engine_version"])
    old = answer(question, KB)
    assert old.estimate is not None and "moe-expert-loop-all" in old.estimate.notes
    assert "every expert at every step" in render_text(old, kb=KB)
    assert old.picks and (old.picks[0].decode_tokens_per_s or 0) < 3  # Qwen's page: 1.9 tok/s on an H20
    new = answer(question.model_copy(update={"engine_version": None}), KB)
    assert new.estimate is not None and "moe-expert-loop-hit" in new.estimate.notes
    vllm = answer(question.model_copy(update={"engine": "vllm", "engine_version": None}), KB)
    assert vllm.estimate is not None and not [n for n in vllm.estimate.notes if n.startswith("moe-expert-loop")]


def test_fp8_on_a_card_without_fp8_says_no_for_that_reason_not_memory() -> None:
    question = Question(text="", intent="check", model="llama-3-8b", task="inference", precision="fp8",
                        gpu="v100-32gb", gpu_count=1, stated=["model", "task", "precision", "gpu", "gpu_count"])
    result = answer(question, KB)
    assert result.check is not None and result.check.fits is False
    assert result.check.unsupported_precision == "fp8"
    text = render_text(result, kb=KB)
    assert "No: Tesla V100 32GB cannot run FP8 weights with transformers" in text
    assert "v100-32gb" not in {p.gpu for p in result.picks}  # not recommended for a format it cannot run
    recommend = answer(question.model_copy(update={"intent": "recommend", "gpu": None, "gpu_count": None,
                                                   "stated": ["model", "task", "precision"]}), KB)
    assert recommend.picks and all(KB.gpus[p.gpu].fp8_tflops for p in recommend.picks)


def test_ollama_without_a_precision_sizes_the_q4_k_m_gguf_it_pulls() -> None:

    question = Question(text="", intent="recommend", model="qwen2.5-14b", task="inference", engine="llama.cpp",
                        stated=["model", "task", "engine"])
    result = answer(question, KB)
    assert result.query.precision == "int4" and result.query.quant == "gguf-q4_k_m"
    [note] = [a for a in result.assumptions if a.field == "precision"]
    assert (note.value, note.reason) == ("gguf-q4_k_m", "gguf-default")
    # 14.7e9 parameters, of which 2 × 152,064 × 5,120 = 1.557e9 are the untied embedding and output: the body
    # 13.143e9 × 4.84 bits / 8 = 7.951 GB + the output 0.779e9 at Q6_K (210/256 B) = 0.639 GB → 8.00 GiB on the
    # card (the token-embedding table stays in host RAM).
    assert result.estimate is not None
    out = 152_064 * 5_120
    body = KB.models["qwen2.5-14b"].params_b * 1e9 - 2 * out
    assert result.estimate.breakdown.weights == pytest.approx(
        (body * WF.GGUF_BYTES_PER_PARAM["gguf-q4_k_m"] + out * 210 / 256) / 2**30, abs=0.01)
    assert result.estimate.breakdown.weights == pytest.approx(8.00, abs=0.01)
    assert "Ollama's default tag" in render_text(result, kb=KB)
    stated = answer(question.model_copy(update={"precision": "bf16", "stated": [*question.stated, "precision"]}), KB)
    assert stated.query.precision == "bf16"  # a stated precision is kept


def test_a_paged_optimizer_is_read_from_text_and_flags_and_sizes_the_card_without_its_states() -> None:
    from bot.reply.request import answer_request

    text = "full fine-tune Llama-3.1-8B with paged adamw 8bit on an A100 40GB"
    said = answer_request({"text": text}, KB)
    assert said.understood.get("paged_optimizer") is True and said.understood.get("optimizer") == "adamw-8bit"
    assert "paged optimizer" in render_text(said, kb=KB)
    flagged = answer_request({"text": "full fine-tune Llama-3.1-8B on an A100 40GB", "optimizer": "adamw-8bit",
                              "paged_optimizer": True}, KB)
    plain = answer_request({"text": "full fine-tune Llama-3.1-8B on an A100 40GB", "optimizer": "adamw-8bit"}, KB)
    assert flagged.check is not None and plain.check is not None and plain.estimate is not None
    # The paged job needs the card for everything but the 8-bit Adam moments (2 B × 8.03e9 = 14.96 GiB): the fp32
    # master in the optimizer's share (4 B a parameter) stays.
    assert plain.estimate.breakdown.optimizer == pytest.approx(6 * 8.03e9 / 2**30, rel=0.01)
    assert flagged.check.memory_per_gpu_gb == pytest.approx(
        plain.check.memory_per_gpu_gb - 2 * 8.03e9 / 2**30, abs=0.05)


def test_the_paged_optimizer_flag_of_ask_reaches_the_answer() -> None:
    import io
    import json

    from bot.console.cli import main

    runs = {}
    for flags in ([], ["--paged-optimizer"]):
        out = io.StringIO()
        argv = ["ask", "--json", *flags, "full fine-tune Llama-3.1-8B with adamw 8bit on an A100 40GB"]
        assert main(argv, stdout=out, stderr=io.StringIO()) == 0
        runs[bool(flags)] = json.loads(out.getvalue())
    assert runs[True]["understood"].get("paged_optimizer") is True
    assert "paged_optimizer" not in runs[False]["understood"]
    assert runs[True]["check"]["memory_per_gpu_gb"] < runs[False]["check"]["memory_per_gpu_gb"]


def test_the_command_line_offers_exactly_the_training_switches_the_parser_reads() -> None:
    from bot.console.cli import SWITCH_HELP
    from bot.understand.question import TRAINING_SWITCHES

    assert tuple(SWITCH_HELP) == TRAINING_SWITCHES


@pytest.mark.parametrize("switch", ["activation_offloading", "optimizer_in_backward", "chunked_loss", "compiled",
                                    "preference_pairs"])
def test_every_training_switch_is_an_ask_flag_that_reaches_the_answer(switch: str) -> None:
    import io
    import json

    from bot.console.cli import main

    runs = {}
    for flags in ([], [f"--{switch.replace('_', '-')}"]):
        out = io.StringIO()
        argv = ["ask", "--json", *flags, "full fine-tune Llama-3.2-3B with torchtune at 4096 tokens on an A100 80GB"]
        assert main(argv, stdout=out, stderr=io.StringIO()) == 0
        runs[bool(flags)] = json.loads(out.getvalue())
    assert runs[True]["understood"].get(switch) is True
    assert switch not in runs[False]["understood"]
    changed = runs[True]["check"]["memory_per_gpu_gb"] != runs[False]["check"]["memory_per_gpu_gb"]
    assert changed is (switch != "chunked_loss")  # torchtune's shipped configs chunk the loss already


def test_a_named_card_that_holds_the_job_at_no_count_is_not_recommended() -> None:
    # Eager attention at 16k keeps 28 heads × 16,384² scores per layer on whichever card holds the layer: no
    # number of A100 40GB cards holds it (a layer split never divides a layer), so the check says No and the
    # picks are cards that do hold it, not "64× A100 40GB — does not fit".
    from bot.reply.request import answer_request

    said = answer_request({"text": "transformers 4.38, no flash attention, Qwen2-7B inference 16k context on "
                                   "A100 40GB"}, KB)
    assert said.check is not None and not said.check.fits
    assert said.picks and all(p.fits for p in said.picks)
    assert all(p.gpu != "a100-40gb" for p in said.picks)


@pytest.mark.parametrize("engine", ["lmdeploy", "sglang", "vllm"])
def test_a_reserving_engine_reports_what_the_job_needs_and_explains_the_reservation(engine: str) -> None:
    # The check and "memory needed" are the same figure (what the job needs); the engine's up-front reservation
    # is what nvidia-smi will show, and a note says so in that engine's own terms.
    from bot.reply.request import answer_request

    said = answer_request({"text": f"{engine} Llama-3-70B AWQ on 2 RTX 4090"}, KB)
    assert said.check is not None and said.estimate is not None
    assert said.estimate.per_gpu_gb == pytest.approx(said.check.memory_per_gpu_gb, abs=0.05)
    # vLLM from 0.34 sizes its KV cache from measured free memory: its note says so in its own terms
    assert f"{engine}-reserve" + ("-measured" if engine == "vllm" else "") in said.estimate.notes
    parameter = {"lmdeploy": "cache_max_entry_count", "sglang": "mem_fraction_static",
                 "vllm": "extensible KV cache"}[engine]
    assert parameter in render_text(said, kb=KB)


def test_a_stated_vllm_share_is_read_back_used_and_not_assumed() -> None:
    from bot.service import ask

    answer = ask({"text": "serve Qwen2.5-7B with vLLM gpu_memory_utilization 0.8 on an L4"})
    text = render_text(answer, kb=KB)
    assert "vLLM · gpu_memory_utilization 0.8" in text
    assert "vLLM reserves 80% of the card" in text
    assert "vLLM reserves 80% of each card (gpu_memory_utilization 0.8)" in text
    assert "gpu_memory_utilization 0.9" not in text  # neither assumed nor in the note
    assert not any(a.field == "gpu_memory_utilization" for a in answer.assumptions)
    before = render_text(ask({"text": "serve Qwen2.5-7B with vllm 0.25 on an L4"}), kb=KB)
    assert "vLLM reserves 92% of each card (gpu_memory_utilization 0.92)" in before  # the default 0.20-0.33
    current = ask({"text": "serve Qwen2.5-7B with vLLM on an L4"})
    assert "vLLM sizes its KV cache from the memory free after start-up" in render_text(current, kb=KB)
    assert any(a.field == "gpu_memory_utilization" and a.value == 1.0 and a.reason == "engine-default"
               for a in current.assumptions)


def test_vllm_on_a_24gb_card_sizes_its_sampler_warm_up_for_that_card() -> None:
    from bot.service import ask

    small = ask({"text": "Llama-3.1-8B with vLLM on an L4"})
    large = ask({"text": "Llama-3.1-8B with vLLM on an H100"})
    assert small.check is not None and small.check.fits  # 256 requests' warm-up: about 1.2 GiB
    assert small.estimate is not None and large.estimate is not None
    assert small.estimate.breakdown.activations < 1.5 < 4.0 < large.estimate.breakdown.activations
    assert [a.value for a in large.assumptions if a.field == "max_num_seqs"] == [1024]


def test_vllm_says_to_set_max_model_len_when_the_models_whole_context_would_not_fit() -> None:
    from bot.service import ask

    # Llama-3.1-8B: 131,072 tokens × 131,072 B of KV a token = 16 GiB, beyond what an L4 leaves (about 3.5 GiB).
    small = ask({"text": "Llama-3.1-8B with vLLM on an L4"})
    assert small.estimate is not None and "vllm-set-max-model-len" in small.estimate.notes
    assert "Start vLLM with --max-model-len 4096" in render_text(small, kb=KB)
    assert "131,072 tokens" in render_text(small, kb=KB)
    # An H100 leaves about 51 GiB: the whole context fits, nothing to say.
    large = ask({"text": "Llama-3.1-8B with vLLM on an H100"})
    assert large.estimate is not None and "vllm-set-max-model-len" not in large.estimate.notes
    # Stated at the model's whole context, the check itself says no; the note is not added on top.
    whole = ask({"text": "Llama-3.1-8B with vLLM on an L4 at 128k context"})
    assert whole.estimate is not None and "vllm-set-max-model-len" not in whole.estimate.notes


def test_no_advice_to_set_max_model_len_when_the_question_sets_it() -> None:
    from bot.service import ask

    stated = ask({"text": "vllm serve Llama-3.1-8B --max-model-len 8192 on an L4"})
    assert stated.query.context == 8192
    assert stated.estimate is not None and "vllm-set-max-model-len" not in stated.estimate.notes
    unstated = ask({"text": "serve Llama-3.1-8B with vLLM on an L4, 8k context"})
    assert unstated.estimate is not None and "vllm-set-max-model-len" in unstated.estimate.notes


def test_sglangs_limit_says_its_activations_sit_beside_its_share() -> None:
    from bot.service import ask

    text = render_text(ask({"text": "Qwen2.5-7B with SGLang mem_fraction_static 0.7 on an A10"}), kb=KB)
    assert "SGLang keeps weights and KV cache in 70% of the card and activations beside it" in text


def test_a_tensorrt_engine_release_states_its_buffers_and_the_slots_they_are_for() -> None:
    from bot.service import ask

    default = ask({"text": "DeepSeek-R1-Distill-Qwen-32B fp16 with TensorRT-LLM 0.16 on an A100 80GB, 4k context"})
    assert default.estimate is not None and default.estimate.max_batch_size == 2048
    # 2048 slots × (20 B × 152,064 vocabulary + 40 B × 4,096 positions + 64 KiB) = 6.2 GiB before the KV pool.
    assert default.estimate.batch_buffers_gb == pytest.approx(6.2, abs=0.05)
    assert [a.reason for a in default.assumptions if a.field == "max_batch_size"] == ["engine-default"]
    assert not any(a.field == "max_seq_len" for a in default.assumptions)  # built for the length asked
    text = render_text(default, kb=KB)
    assert "runtime and decoder buffers take 6.2 GiB per card for its 2,048 request slots" in text
    built = ask({"text": "DeepSeek-R1-Distill-Qwen-32B fp16 TensorRT-LLM 0.16 --max_batch_size 16 on an A100 80GB"})
    # 16 slots at the default build length (the window, 131,072): 16 × 8,349,696 B = 0.12 GiB
    assert built.estimate is not None and built.estimate.batch_buffers_gb == pytest.approx(0.12, abs=0.01)
    assert not any(a.field == "max_batch_size" for a in built.assumptions)  # stated, so not assumed
    assert "max_batch_size 16" in render_text(built, kb=KB)
    current = render_text(ask({"text": "Llama-3.1-8B on TensorRT-LLM, L40S"}), kb=KB)
    assert ("name the version (“TensorRT-LLM 0.16”) or the engine (“trtllm-build”, “Triton”) to have them sized"
            in current)


def test_a_tensorrt_engine_with_no_length_asked_is_sized_as_trtllm_build_leaves_it() -> None:
    from bot.service import ask

    # tensorrtllm_backend issue 685: the 32B distill in fp16 ran out of memory on an A100 80GB with the default
    # build. trtllm-build's --max_seq_len is the model's window (131,072) when not given: 2048 slots ×
    # (20 B × 152,064 + 40 B × 131,072 + 64 KiB) = 15.9 GiB of buffers, said under Assumed, and the fix is a build
    # for the load rather than only a smaller card.
    answer = ask({"text": "DeepSeek-R1-Distill-Qwen-32B fp16 with TensorRT-LLM 0.16 on an A100 80GB"})
    assert answer.estimate is not None and answer.estimate.batch_buffers_gb == pytest.approx(15.9, abs=0.05)
    assert [(a.value, a.reason) for a in answer.assumptions if a.field == "max_seq_len"] == [
        (131_072, "engine-default")]
    assert answer.check is not None and not answer.check.fits
    text = render_text(answer, kb=KB)
    assert "TensorRT-LLM --max_seq_len (positions per request slot its engine buffers are sized for) 131072" in text
    assert "trtllm-build --max_batch_size 2048 --max_seq_len 4096" in text
    zh_question = "用 TensorRT-LLM 0.16 在一张 A100 80GB 上部署 DeepSeek-R1-Distill-Qwen-32B fp16"
    zh = render_text(ask({"text": zh_question}), kb=KB)
    assert "trtllm-build --max_batch_size 2048 --max_seq_len 4096" in zh and "按实际负载构建引擎" in zh


def test_fsdp_qlora_offloads_its_parameters_and_trains_rank_64_by_default() -> None:
    # Answer.AI's train.py defaults (use_cpu_offload True, lora_rank 64): stated under Assumed, and the cards
    # keep no weights; the host line sizes the NF4 base and the adapters, not DeepSpeed's estimator.
    question = Question(text="", intent="check", model="llama-2-70b", task="qlora", engine="fsdp-qlora",
                        gpu="rtx-3090", gpu_count=2, context=2048, batch=2,
                        stated=["model", "task", "engine", "gpu", "gpu_count", "context", "batch"])
    result = answer(question, KB)
    assert result.estimate is not None and result.estimate.breakdown.weights == 0.0
    assert {(a.field, a.value, a.reason) for a in result.assumptions} >= {
        ("offload", "all", "engine-default"), ("lora_rank", 64, "engine-default")}
    text = render_text(result, kb=KB)
    assert "Host RAM for the offloaded model" in text and "DeepSpeed's own estimator" not in text
    assert "Answer.AI fsdp_qlora" in text


def test_fsdp_that_does_not_fit_is_offered_its_parameter_offload() -> None:
    # QLoRA of a 70B on two 24 GB cards with plain FSDP does not fit; FSDP's CPU offload is the way
    question = Question(text="", intent="check", model="llama-3-70b", task="qlora", engine="fsdp",
                        gpu="rtx-4090", gpu_count=2, stated=["model", "task", "engine", "gpu", "gpu_count"])
    result = answer(question, KB)
    assert result.check is not None and not result.check.fits
    assert any(s.kind == "offload-all" for s in result.check.suggestions)
    assert "FSDP CPU offload of the parameters" in render_text(result, kb=KB)
    said = answer(question.model_copy(update={"offload": "optimizer", "stated": [*question.stated, "offload"]}), KB)
    assert said.check is not None and said.check.fits  # "CPU offload" on FSDP is that parameter offload
    assert "optimizer and parameters offloaded to CPU" in render_text(said, kb=KB)


def test_a_quantised_kv_cache_means_a_serving_engine_and_no_side_figure_from_one_without_it() -> None:
    # transformers keeps the model's dtype in its cache: an fp8 KV cache is sized on vLLM, and the "with
    # transformers instead" figure, which cannot hold fp8, is left out rather than crashing the reply
    question = Question(text="", intent="check", model="llama-3.1-8b", task="inference", kv_cache="fp8",
                        context=32768, gpu="l40s", gpu_count=1,
                        stated=["model", "task", "kv_cache", "context", "gpu", "gpu_count"])
    result = answer(question, KB)
    assert result.error is None and result.query.engine == "vllm"
    assert ("engine", "vllm", "quantised-kv-cache") in {(a.field, a.value, a.reason) for a in result.assumptions}
    concurrent = answer(question.model_copy(update={"batch": 16, "stated": [*question.stated, "batch"]}), KB)
    assert concurrent.error is None and concurrent.estimate is not None


def test_fp8_on_a_card_known_only_by_its_memory_is_judged_by_memory() -> None:
    # "a 24GB card" has no architecture to rule FP8 out; 25.6 GiB against 22.5 is a plain memory No
    question = Question(text="", intent="check", model="mistral-small-3.2-24b", task="inference", precision="fp8",
                        engine="vllm", memory_gb=24.0, gpu_count=1,
                        stated=["model", "task", "precision", "engine", "memory_gb", "gpu_count"])
    result = answer(question, KB)
    assert result.check is not None and not result.check.fits and result.check.unsupported_precision is None
    text = render_text(result, kb=KB)
    assert "cannot run FP8" not in text and "per card would fit" not in text


def test_a_card_that_cannot_run_the_format_and_lacks_the_memory_says_both() -> None:
    question = Question(text="", intent="check", model="mistral-small-3.2-24b", task="inference", precision="fp8",
                        engine="transformers", gpu="t4", gpu_count=1,
                        stated=["model", "task", "precision", "engine", "gpu", "gpu_count"])
    text = render_text(answer(question, KB), kb=KB)
    assert "cannot run FP8 weights with transformers" in text and "would not fit its 14.5 GiB either" in text


def test_a_card_count_tensor_parallelism_cannot_use_says_so_and_offers_one_it_can() -> None:
    # Qwen3-30B-A3B has 32 attention heads and 4 KV heads: vLLM refuses TP 3 however little each card holds
    question = Question(text="", intent="check", model="qwen3-30b-a3b", task="inference", engine="vllm",
                        gpu="rtx-3090", gpu_count=3, stated=["model", "task", "engine", "gpu", "gpu_count"])
    result = answer(question, KB)
    assert result.check is not None and not result.check.fits and result.check.split_invalid
    assert result.check.memory_per_gpu_gb <= result.check.limit_gb
    text = render_text(result, kb=KB)
    assert "the count must divide its attention and KV heads (32/4); 3 does not" in text
    assert any(s.kind == "more-gpus" and s.count == 4 for s in result.check.suggestions)
    fewer = answer(Question(text="", intent="check", model="qwen2.5-7b", task="inference", engine="vllm", gpu="l4",
                            gpu_count=8, stated=["model", "task", "engine", "gpu", "gpu_count"]), KB)
    assert fewer.check is not None and any(s.kind == "more-gpus" and s.count == 4 for s in fewer.check.suggestions)


def test_awq_on_a_v100_with_vllm_is_refused_for_its_kernel_not_its_memory() -> None:
    question = Question(text="", intent="check", model="qwen2.5-7b", task="inference", engine="vllm", quant="awq",
                        precision="int4", gpu="v100-16gb", gpu_count=1,
                        stated=["model", "task", "engine", "quant", "precision", "gpu", "gpu_count"])
    result = answer(question, KB)
    assert result.check is not None and not result.check.fits
    assert "vLLM cannot run AWQ weights on Tesla V100 16GB: its kernels for them need compute capability 7.5" in \
        render_text(result, kb=KB)
    assert all(p.gpu != "v100-16gb" for p in result.picks)
    first = result.check.suggestions[0]
    assert (first.kind, first.quant) == ("other-format", "gptq")  # the same 4 bits in a format the card runs
    assert "the INT4 (gptq) checkpoint instead, whose kernels run on this card" in render_text(result, kb=KB)


def test_a_serving_plan_is_not_laid_out_on_cards_that_cannot_run_the_format() -> None:
    answer_json = ask_json("serve Qwen2.5-14B-Instruct-AWQ on our V100 32GB at 200 requests per minute")
    assert answer_json["check"]["fits"] is False
    assert answer_json["serving"] is not None and answer_json["serving"]["gpu"] != "v100-32gb"


def test_gpt_oss_on_ollama_is_sized_in_the_mxfp4_its_gguf_keeps() -> None:
    question = Question(text="", intent="check", model="gpt-oss-20b", task="inference", engine="llama.cpp",
                        memory_gb=16.0, gpu_count=1, stated=["model", "task", "engine", "memory_gb", "gpu_count"])
    result = answer(question, KB)
    assert result.query.precision == "mxfp4"
    assert ("precision", "mxfp4", "gguf-native-mxfp4") in {(a.field, a.value, a.reason) for a in result.assumptions}


def test_a_long_context_on_one_card_is_offered_fp8_weights_with_an_fp8_cache_not_a_quantised_second_card() -> None:
    # Llama 3.1 8B at 128k on a 4090 (vLLM): neither FP8 weights nor an FP8 cache alone fits 22.5 GiB; both do
    # (17.8), and 2× 4090 hold it unquantised, so "quantise on 2×" is no advice
    question = Question(text="", intent="check", model="llama-3.1-8b", task="inference", engine="vllm",
                        context=131072, gpu="rtx-4090", gpu_count=1,
                        stated=["model", "task", "engine", "context", "gpu", "gpu_count"])
    result = answer(question, KB)
    assert result.check is not None and not result.check.fits
    both = [s for s in result.check.suggestions if s.kind == "quantise" and s.kv_cache == "fp8"]
    assert both and both[0].memory_per_gpu_gb is not None and both[0].memory_per_gpu_gb < 22.5
    assert not any(s.kind == "quantise" and s.count for s in result.check.suggestions)
    assert "and the KV cache in FP8 (--kv-cache-dtype fp8)" in render_text(result, kb=KB)


def test_gemma_2_on_a_t4_with_vllm_is_told_vllm_refuses_float16_there() -> None:
    from bot.reply.render import render_text
    from bot.service import ask

    answer = ask({"text": "gemma-2-9b-it on a T4 with vLLM, can it run?"})
    assert answer.check is not None and not answer.check.fits
    text = render_text(answer)
    assert "vLLM refuses to run Gemma 2 in float16" in text and "Tesla T4 has no bf16" in text
    # No pick the engine refuses: every card offered has bf16.
    assert all(p.gpu not in ("t4", "v100-16gb", "v100-32gb") for p in answer.picks)
    zh = render_text(ask({"text": "gemma-2-9b-it 在 T4 上用 vLLM 能跑吗"}))
    assert "不允许以 float16 运行 Gemma 2" in zh


def test_lmdeploy_says_how_many_of_the_users_its_kv_pool_holds_at_once() -> None:
    # Qwen2.5-7B: 28 layers × 4 KV heads × 128 × 2 × 2 B = 56 KiB a token, 7.0 GiB for 32 × 4,096 tokens; the
    # 24 GB card holds the 22.6 GiB job, but TurboMind's pool (80% of what the weights leave) holds 28 of them.
    question = Question(text="", intent="check", model="qwen2.5-7b", task="inference", engine="lmdeploy",
                        gpu="rtx-4090", gpu_count=1, batch=32, context=4096,
                        stated=["model", "task", "engine", "gpu", "gpu_count", "batch", "context"])
    result = answer(question, KB)
    assert result.check is not None and not result.check.fits and result.check.sequences_held == 28
    text = render_text(result, kb=KB)
    assert "No, not all at once: the 22.6 GiB per card fits the 23.5 GiB" in text
    assert "holds 28 of the 32 sequences at 4,096 tokens; the others wait for a free slot" in text
    assert "KV cache in INT8 (--quant-policy 8)" in text


def test_ollama_is_read_back_by_name_and_not_offered_an_expert_offload_it_lacks() -> None:
    from bot.understand.parse import parse

    ollama = answer(parse("run Qwen3-30B-A3B with ollama on a 3060 12GB", KB), KB)
    assert ollama.understood.get("runner") == "ollama"
    text = render_text(ollama, kb=KB)
    assert "Ollama (llama.cpp)" in text
    [experts] = [line for line in text.splitlines() if "--n-cpu-moe" in line]
    assert "Ollama has no expert-offload setting" in experts
    plain = render_text(answer(parse("run Qwen3-30B-A3B with llama.cpp on a 3060 12GB", KB), KB), kb=KB)
    assert "--n-cpu-moe" in plain and "Ollama has no" not in plain and "Ollama (llama.cpp)" not in plain


def test_a_fine_tune_of_an_fp8_release_loads_it_in_bf16() -> None:
    from bot.understand.parse import parse

    lora = answer(parse("LoRA fine-tune DeepSeek-V3 how many H200s", KB), KB)
    assert lora.query.precision == "bf16"
    [note] = [a for a in lora.assumptions if a.field == "precision"]
    assert note.reason == "fp8-dequantised"
    assert lora.picks[0].count >= 16  # 671e9 × 2 B = 1,250 GiB of weights: more than 8 H200s hold
    served = answer(parse("serve DeepSeek-V3 on 8 H200", KB), KB)
    assert served.query.precision == "fp8"  # inference keeps the release's format


def test_torchtune_single_device_full_fine_tune_uses_its_configs_8bit_optimizer_in_backward() -> None:
    from bot.understand.parse import parse

    one = answer(parse("torchtune full finetune Llama-3.2-3B on one RTX 4090, 2k context", KB), KB)
    assert one.check is not None and one.check.fits  # 6.0 weights + 6.0 8-bit moments + a layer's gradients
    [note] = [a for a in one.assumptions if a.field == "optimizer"]
    assert (note.value, note.reason) == ("adamw-8bit", "torchtune-single-device")
    stated = answer(parse("torchtune full finetune Llama-3.2-3B with AdamW on one RTX 4090, 2k context", KB), KB)
    assert not [a for a in stated.assumptions if a.reason == "torchtune-single-device"]


def test_a_kv_pool_short_of_the_batch_is_timed_on_the_cards_named_at_the_sequences_it_holds() -> None:
    from bot.understand.parse import parse

    result = answer(parse("TensorRT-LLM Llama-3-70B fp8 on 2x H100, tokens/s at batch 64", KB), KB)
    assert result.check is not None and result.check.sequences_held is not None
    assert result.speed_on is None or (result.speed_on.gpu, result.speed_on.count) == ("h100-sxm", 2)
    per_sequence, total = result.speed["decode_tokens_per_s"], result.speed["aggregate_tokens_per_s"]
    assert per_sequence and total and total == pytest.approx(per_sequence * result.check.sequences_held, rel=0.02)


def test_fixes_on_the_same_card_fit_within_the_limit_the_verdict_states() -> None:
    # vLLM's margin is ¾ of the activation peak: a smaller --max-num-seqs raises its own limit a little, and a
    # cap of 128 needed 22.5 GiB beside a stated limit of 22.4; the fixes now fit the limit the reader sees
    for text in ("Qwen2.5-14B on 2x 4090 with vLLM, batch 20", "Qwen2.5-14B on 2x 4090 with vLLM, batch 200"):
        check = ask_json(text)["check"]
        same_card = [s for s in check["suggestions"] if s["gpu"] is None]
        assert all(s["memory_per_gpu_gb"] <= check["limit_gb"] for s in same_card)


def test_a_request_cap_lowered_to_fit_is_the_answer_when_it_still_covers_the_load() -> None:
    # only vLLM's start-up warm-up (one dummy request per --max-num-seqs slot) did not fit: 20 sequences need a
    # cap of 20, so the card asked about holds the job with the cap lowered, said in the verdict and under Assumed
    reply = ask_json("Qwen2.5-14B on 2x 4090 with vLLM, batch 20")
    assert reply["check"]["fits"] is True
    [cap] = [a for a in reply["assumptions"] if a["field"] == "max_num_seqs"]
    assert cap["reason"] == "request-cap-lowered" and 20 <= cap["value"] < 256
    assert f"--max-num-seqs {cap['value']}" in reply["text"]
    # a cap that fits but would throttle the load asked is no such answer: 200 sequences stay a No
    many = ask_json("Qwen2.5-14B on 2x 4090 with vLLM, batch 200")
    assert many["check"]["fits"] is False
    assert not any(a["reason"] == "request-cap-lowered" for a in many["assumptions"])


def test_a_long_default_context_nobody_asked_for_is_the_first_fix() -> None:
    # Ollama sizes a 24 GB card at 32,768 tokens (8 GiB of KV for Qwen2.5-32B): num_ctx 8192 fits at Q4_K_M,
    # which beats a Q2_K file as the first thing to try
    reply = ask_json("Ollama on a Radeon RX 7900 XTX: Qwen2.5-32B Q4_K_M tok/s?")
    first = reply["check"]["suggestions"][0]
    assert first["kind"] == "shorter-context" and first["context"] == 8192
    assert "num_ctx 8192" in reply["text"]
    # a 4k context assumed is not cut first: a 70B on a 4090 needs fewer bits, not fewer tokens
    assert ask_json("Llama 3 70B on a 4090")["check"]["suggestions"][0]["kind"] != "shorter-context"


def test_the_kv_cache_over_several_cards_also_says_what_it_takes_in_all() -> None:
    # Llama 3.1 70B at 128k: 320 KiB a token × 131,072 = 40 GiB of bf16 KV cache, 10 GiB on each of 4 cards; the
    # breakdown said only "KV cache: 10.0 GiB" to "KV 快取需要多少顯存"
    reply = ask_json("Llama 3.1 70B 跑 128k 上下文，KV 快取需要多少顯存？")
    assert reply["estimate"]["gpu_count"] == 4
    assert "KV 快取（4 張卡合計 40.0 GiB）: 10.0 GiB" in reply["text"]
    assert "KV cache: " in ask_json("Llama 3 8B on one 4090")["text"]  # one card: no total to add


def test_a_kv_cache_type_the_engine_lacks_is_replaced_by_its_same_size_one() -> None:
    """Audit 18 M-8: "vLLM with an int8 KV cache" was refused outright, though its fp8 cache is the same size."""
    int8 = answer(parse("vLLM with --kv-cache-dtype int8 for Llama 3.1 70B AWQ on 2x RTX 4090 at 32k context: how "
                        "many users?", KB), KB)
    fp8 = answer(parse("vLLM with --kv-cache-dtype fp8 for Llama 3.1 70B AWQ on 2x RTX 4090 at 32k context: how many "
                       "users?", KB), KB)
    assert int8.error is None and int8.query.kv_cache == "fp8"
    assert int8.estimate is not None and fp8.estimate is not None
    assert int8.estimate.breakdown.kv_cache == fp8.estimate.breakdown.kv_cache
    assert any(a.field == "kv_cache" and a.reason == "kv-cache-same-size" for a in int8.assumptions)
    text = render_text(int8, kb=KB)
    assert "KV cache fp8 (the engine has no KV cache of the type asked" in text
    assert "an FP8 KV cache" not in text  # not offered again as the fix
    # a size the engine has no type of is still refused, naming the ones it has
    int4 = answer(parse("vLLM with int4 KV cache for Llama 3.1 8B on a 4090", KB), KB)
    assert int4.error == "kv-cache-unsupported"


def test_the_longest_context_asked_is_given_for_the_quantised_fix_when_nothing_fits_as_asked() -> None:
    """Audit 18 M-9: "最长能跑多长上下文" on a card the bf16 model does not fit got no number at all."""
    result = answer(parse("用 lmdeploy 跑 InternLM2.5-20B，int8 KV cache，单张 4090 最长能跑多长上下文？", KB), KB)
    found = result.max_context
    assert found is not None and found.precision == "int4" and found.tokens
    # AWQ weights ≈ 12 GiB leave ≈ 10 GiB; int8 KV 2 × 48 × 8 × 128 × 1 B = 96 KiB a token: the whole 32k window
    assert found.kv_kib_per_token == 96 and found.window and found.tokens >= found.window
    assert "量化到 INT4 (awq) 后" in render_text(result, kb=KB)


def test_a_prompt_length_stated_with_a_first_token_target_keeps_the_whole_prompt() -> None:
    """Audit 18 M-11: "输入 2k" was split into a 1,024-token prompt and a 1,024-token output."""
    text = "TensorRT-LLM 在 H20 上跑 Qwen2.5-72B FP8，首 token 延迟能做到 500ms 以内吗？输入 2k。"
    result = answer(parse(text, KB), KB)
    assert result.query.context == 2048 + 1024
    assert any(a.field == "gen_tokens" and a.reason == "half-the-prompt" for a in result.assumptions)
    assert result.serving is not None and result.serving.ttft_s is not None and result.serving.ttft_s <= 0.5


def test_zero_3_that_zero_1_would_also_fit_is_not_said_to_be_needed() -> None:
    # audit 23 LOW-8: "ZeRO-3 (needed to fit this card)" for a LoRA of Qwen3-30B-A3B on 4× H100 that holds 67 GiB a
    # card without sharding; a stage is "needed" only when ZeRO-1 does not fit the same cards
    lora = ask_json("LLaMA-Factory LoRA Qwen3-30B-A3B on 4x H100, how long for 100M tokens?")
    [stage] = [a for a in lora["assumptions"] if a["field"] == "zero_stage"]
    assert stage["reason"] != "needed-to-fit"
    full = ask_json("full fine-tune Llama 3.1 70B on 8x H100 with DeepSpeed")
    [stage] = [a for a in full["assumptions"] if a["field"] == "zero_stage"]
    assert stage["value"] == 3 and stage["reason"] == "needed-to-fit"  # 70B's states need all three shardings


def test_a_newer_release_that_needs_as_much_says_it_lets_the_job_use_more_of_the_card() -> None:
    from bot.service import ask

    # audit 32 LOW-176: "a current vLLM release instead of 0.10 — needs 43.6 GiB per card", the figure of the
    # problem itself, read as a no-op: the newer release's share of the card is what changes (1.0 against 0.9)
    text = render_text(ask({"text": "Mistral Nemo 12B 用 vLLM 0.10 開 128k 上下文，單張 A6000 48G 可以嗎"}), kb=KB)
    assert "改用當前版本的 vLLM（而非 0.10），它允許作業使用更多的顯存 — 每卡需" in text


VLLM_L4_LOG = """INFO 05-12 10:21:33 [config.py:1604] Using max model len 32768
INFO 05-12 10:21:40 [gpu_model_runner.py:1329] Model loading took 14.9935 GiB and 6.1 seconds
INFO 05-12 10:21:52 [gpu_worker.py:227] Available KV cache memory: 4.32 GiB
INFO 05-12 10:21:52 [kv_cache_utils.py:634] GPU KV cache size: 35,392 tokens
INFO 05-12 10:21:52 [kv_cache_utils.py:637] Maximum concurrency for 32,768 tokens per request: 1.08x
(model: meta-llama/Llama-3.1-8B-Instruct, GPU: NVIDIA L4 24GB, --gpu-memory-utilization 0.9)"""


def test_a_why_question_under_a_pasted_start_up_log_is_answered_on_its_set_up_in_its_language() -> None:
    from bot.service import ask

    # audit 33 HIGH 92: the generic FAQ, in English, for a Traditional question under five English log lines
    question = "這是 vLLM 啟動日誌：\n" + VLLM_L4_LOG + "\n為什麼 KV cache 只有這麼少？要怎麼讓它支援 16 個並發？"
    answer = ask({"text": question})
    assert answer.intent == "check" and answer.query.lang == "zh-Hant"
    text = render_text(answer, kb=KB)
    assert "你的日誌顯示 KV 快取可容納 35,392 個 token" in text
    assert "KV 快取也改用 FP8 (--kv-cache-dtype fp8)" in text
