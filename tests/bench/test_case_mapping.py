"""How bench/_cases.py turns a published row's settings into an `ask` request: a setting read wrongly scores the
rules on a job the source did not run."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

from _cases import Skip, map_precision, reading_flags, to_request
from _diffusion import diffusion_request, training_request
from _engines import map_engine

from knowledge import load_knowledge


def _fsdp_row(sharding: str) -> dict[str, Any]:
    return {
        "id": "t", "group": "t", "model": "meta-llama/Llama-2-7b-hf", "task": "lora", "precision": "bf16",
        "seq_len": 2048, "gen_len": None, "batch_size": 4, "num_gpus": 2, "gpu": "RTX 3090",
        "settings": {"framework": "Answer.AI fsdp_qlora train.py", "sharding_strategy": sharding},
        "memory_gb": 22.0, "memory_relation": "peak", "memory_scope": "per_gpu", "kind": "measured",
    }


@pytest.mark.parametrize(("sharding", "stage"), [
    ("full_shard", 3),
    ("shard_grad_op", 2),
    ("ddp (FSDP ShardingStrategy.NO_SHARD, not DistributedDataParallel)", 0),
])
def test_fsdp_sharding_strategy_maps_to_a_zero_stage_even_with_a_gloss(sharding: str, stage: int) -> None:
    assert to_request(_fsdp_row(sharding), load_knowledge())["zero_stage"] == stage


# Rows below are synthetic: each states one setting the way published rows do (a value with a gloss, a negation,
# an alias key), and the test checks the request reads the setting's value, not words of its gloss.

@pytest.fixture(scope="module")
def kb() -> Any:
    return load_knowledge()


def _row(task: str = "full-ft", gpus: int = 1, precision: str = "bf16", **settings: Any) -> dict[str, Any]:
    return {
        "id": "t", "group": "t", "model": "meta-llama/Llama-2-7b-hf", "task": task, "precision": precision,
        "seq_len": 512, "gen_len": None, "batch_size": 1, "num_gpus": gpus, "gpu": "A100 80GB",
        "settings": {"framework": "transformers", **settings},
        "memory_gb": 40.0, "memory_relation": "peak", "memory_scope": "per_gpu", "kind": "measured",
    }


def _serving_row(**settings: Any) -> dict[str, Any]:
    return {
        "id": "t", "group": "t", "model": "Qwen/Qwen1.5-14B-Chat", "task": "inference", "precision": "fp16",
        "seq_len": None, "gen_len": None, "batch_size": None, "num_gpus": 1, "gpu": "A100 80GB",
        "settings": {"framework": "vLLM 0.6.3", **settings},
        "memory_gb": 80.0, "memory_relation": "peak", "memory_scope": "per_gpu", "kind": "measured",
    }


# 1-2. Optimizer: the head of the setting, negated words dropped, Adafactor/SGD before "8-bit", plain AdamW named.

@pytest.mark.parametrize(("optimizer", "expected"), [
    ("DeepSpeed default AdamW (no optimizer configured; 'not 8bit')", "adamw"),
    ("AdamW (torch; 'without resorting to tricks such as 8-bit optimizers')", "adamw"),
    ("AdamW (torch; no 8-bit Adam)", "adamw"),
    ("adamw, not 8-bit", "adamw"),
    ("Adafactor (AdamW 8bit 'doesn't seem to work')", "adafactor"),
    ("SGD with momentum, not AdamW 8-bit", "sgd"),
    ("adamw_torch", "adamw"),
    ("torch.optim.AdamW", "adamw"),
    ("default (AdamW 8bit)", None),
    ("not stated (8-bit Adam in the README)", None),
])
def test_the_optimizer_is_read_from_the_head_of_its_setting(kb: Any, optimizer: str, expected: str | None) -> None:
    assert to_request(_row(optimizer=optimizer), kb).get("optimizer") == expected


@pytest.mark.parametrize(("optimizer", "expected", "paged"), [
    ("AdamW8bit (bitsandbytes)", "adamw-8bit", False),
    ("bitsandbytes PagedAdamW8bit", "adamw-8bit", True),
    ("adamw_bf16 (page's recommendation)", None, False),  # not a plain AdamW: left to the runtime
])
def test_optimizers_already_read_right_stay_so(kb: Any, optimizer: str, expected: str | None, paged: bool) -> None:
    request = to_request(_row(optimizer=optimizer), kb)
    assert (request.get("optimizer"), request.get("paged_optimizer", False)) == (expected, paged)


def test_an_optimizer_named_only_in_a_gloss_does_not_skip_the_row(kb: Any) -> None:
    assert "optimizer" not in to_request(_row(task="lora", optimizer="not stated (README examples: prodigy)"), kb)
    with pytest.raises(Skip, match="prodigy"):
        to_request(_row(task="lora", optimizer="Prodigy (d_coef 2)"), kb)


# 3. One yes/no parser for every flag.

@pytest.mark.parametrize(("value", "expected"), [
    ("false (not in launch.sh at the commit) - assumed", False),
    ("off", False),
    ("disabled", False),
    ("not stated", None),
    ("unclear (the text does not say)", None),
    ("yes (use_gradient_checkpointing)", True),
    ("unsloth", True),
])
def test_gradient_checkpointing_is_a_flag_not_a_truthy_string(kb: Any, value: str, expected: bool | None) -> None:
    assert to_request(_row(gradient_checkpointing=value), kb).get("gradient_checkpointing") is expected


def test_flags_given_as_words_are_read(kb: Any) -> None:
    request = to_request(_row(compile="yes", use_cpu_offload="enabled (FSDP CPUOffload)", flash_attention="no",
                              amp="false (pure bf16)", trainable_embedding_and_lm_head="yes"), kb)
    assert request["compiled"] is True
    assert request["offload"] == "all"
    assert request["flash_attention"] is False
    assert request["pure_16bit"] is True
    assert request["train_embeddings"] is True
    untouched = to_request(_row(compile="not stated", use_cpu_offload="no", amp="not stated"), kb)
    assert not {"compiled", "offload", "pure_16bit"} & set(untouched)


def test_an_image_trainers_flags_given_as_words_are_read() -> None:
    assert training_request({"train_text_encoder": "yes (--train_text_encoder)"}, 1)["text_encoders"] == "trained"
    assert "text_encoders" not in training_request({"train_text_encoder": "not stated"}, 1)
    assert training_request({"with_prior_preservation": "yes (launch.sh)"}, 1)["batch"] == 2
    assert training_request({"with_prior_preservation": "assumed true (launch.sh)"}, 1)["batch"] == 2
    assert "batch" not in training_request({"with_prior_preservation": "no"}, 1)


# 4. Engine version: into the gloss after the engine's word, a lone version, the evidence's "about X.Y.Z".

@pytest.mark.parametrize(("settings", "version"), [
    ({"framework": "vLLM (Feb 2024, about 0.3.0; version not stated)"}, "0.3.0"),
    ({"framework": "vLLM (V1, Oct 2025, about 0.11.0; version not in the excerpt)"}, "0.11.0"),
    ({"framework": "vLLM (V1 engine, ~0.8.5; version not stated)"}, "0.8.5"),
    ({"framework": "vLLM (V0 engine, Dec 2024; log format of v0.6.4)"}, "0.6.4"),
    ({"framework": "vLLM (V1, Sep 2025; version not stated)",
      "engine_version_evidence": "comment dated 2025-09-18, about 0.10.2"}, "0.10.2"),
])
def test_an_engine_version_given_in_a_gloss_is_read(settings: dict[str, Any], version: str) -> None:
    assert map_engine({"settings": settings}).get("engine_version") == version


@pytest.mark.parametrize("settings", [
    {"framework": "vLLM main at 73c8d677 (April 2024, after 0.4.1, torch 2.2)"},  # two numbers, none marked
    {"framework": "bghira/SimpleTuner v0.7 (Oct 2023), SDXL full U-Net training"},  # not the engine's version
    {"framework": "vLLM (V1; version not stated)", "engine_version_evidence": "issue opened 2024-02-06"},
])
def test_no_engine_version_is_made_up(settings: dict[str, Any]) -> None:
    assert "engine_version" not in map_engine({"settings": settings})


# 5. A serving engine's length flag, when the row gives no seq_len.

@pytest.mark.parametrize(("key", "value", "context"), [
    ("max_model_len", "not stated (model default 131072 unless set)", 131072),
    ("context_length", "131072 (model default; context_len=131072 in the log)", 131072),
    ("max_model_len", "not stated", None),  # no statement: like a missing key
])
def test_an_engine_length_flag_glossed_as_the_default_is_the_context(kb: Any, key: str, value: str,
                                                                     context: int | None) -> None:
    assert to_request(_serving_row(**{key: value}), kb).get("context") == context


# 6. Alias keys.

@pytest.mark.parametrize(("settings", "expected"), [
    ({"counter": "peak allocated (torch.cuda.max_memory_allocated on rank 0)"}, {"allocated_only": True}),
    ({"measured_with": "torch.cuda.max_memory_allocated()/1024**3"}, {"allocated_only": True}),
    ({"counter": "peak reserved (torch.cuda.max_memory_reserved on rank 0)"}, {}),
])
def test_what_a_row_counted_under_any_of_its_keys(settings: dict[str, Any], expected: dict[str, bool]) -> None:
    assert reading_flags({"settings": settings}) == expected


@pytest.mark.parametrize(("gpus", "settings", "stage"), [
    (1, {"zero_stage": 2}, 2),
    (1, {"zero_stage": 2, "framework": "OpenRLHF train_sft, DeepSpeed ZeRO-3"}, 2),  # the key wins
    (4, {"framework": "LLaMA-Factory, DeepSpeed ZeRO-3"}, 3),
    (2, {"deepspeed": "ZeRO stage 2, parameters and optimizer state offloaded to CPU"}, 2),
    (8, {"deepspeed": "examples/deepspeed/ds_z3_config.json"}, 3),
    (8, {"deepspeed": "configs/ds_zero_3.json"}, 3),
    (2, {"deepspeed": "zero2 (from the launch command)"}, 2),
])
def test_a_zero_stage_is_read_under_any_of_its_forms(kb: Any, gpus: int, settings: dict[str, Any],
                                                      stage: int) -> None:
    assert to_request(_row(gpus=gpus, **settings), kb)["zero_stage"] == stage


def test_adapter_settings_under_alias_keys(kb: Any) -> None:
    request = to_request(_row(task="lora", lora_target="q_proj,v_proj", trainable_parameters=4194304), kb)
    assert request["lora_targets"] == ("q", "v")
    assert request["trainable_params"] == 4194304


@pytest.mark.parametrize(("precision", "quantization", "quant"), [
    ("int8", "bitsandbytes 8-bit (load_in_8bit: true)", "bnb-int8"),
    ("int8", "bitsandbytes 8-bit (load_in_8bit; load_in_4bit = False)", "bnb-int8"),
    ("int4", "bitsandbytes 4-bit (QLoRA)", "nf4"),
    ("int4", "int4 method not stated (likely bitsandbytes 4-bit)", None),  # bitsandbytes only in the gloss
    ("int8", "int8 (weight-only vs SmoothQuant not stated)", None),
])
def test_a_bitsandbytes_quantization_setting_names_the_format(precision: str, quantization: str,
                                                              quant: str | None) -> None:
    mapped = map_precision({"precision": precision, "settings": {"quantization": quantization}})
    assert (mapped["precision"], mapped.get("quant")) == (precision, quant)


# 7. Negation and "none".

def test_a_negated_engine_word_names_no_engine() -> None:
    case = {"settings": {"framework": "transformers finetune_trainer.py, plain single-GPU, no DeepSpeed"}}
    assert map_engine(case)["engine"] == "transformers"
    assert map_engine({"settings": {"framework": "accelerate without DeepSpeed, FSDP"}})["engine"] == "fsdp"


@pytest.mark.parametrize(("gpus", "deepspeed", "stage"), [
    (8, "none (maintainer replied: use deepspeed zero2)", 0),
    (2, "disabled", 0),
    (1, "none", None),  # one card: no data parallelism to name
])
def test_no_deepspeed_on_several_cards_is_plain_data_parallel(kb: Any, gpus: int, deepspeed: str,
                                                              stage: int | None) -> None:
    assert to_request(_row(task="lora", gpus=gpus, deepspeed=deepspeed), kb).get("zero_stage") == stage


# 8. Diffusion: a quantised component named with a gloss.

def test_a_quantised_text_encoder_named_with_a_gloss_counts() -> None:
    parts = ["transformer (optimum-quanto qfloat8)", "T5 text_encoder_2 (qfloat8)"]
    case: dict[str, Any] = {"task": "inference", "settings": {"quantized_components": parts}}
    assert diffusion_request(case, {"precision": "fp8", "quant": "fp8"})["quantise_text_encoders"] is True
    case["settings"]["quantized_components"] = parts[:1]
    assert diffusion_request(case, {"precision": "fp8", "quant": "fp8"})["quantise_text_encoders"] is False
