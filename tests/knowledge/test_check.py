"""`kb check`: a clean fixture passes, and each check fails on data made to break it."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml

from knowledge.check import Problem, run_checks, summary
from knowledge.loader import load_knowledge
from tests.knowledge.conftest import FAMILY, FAQ, GPU, MODEL, MOE_MODEL, Writer


def problems_for(directory: Path, **kwargs: Any) -> list[Problem]:
    return run_checks(load_knowledge([directory]), shipped_dir=kwargs.get("shipped_dir", directory))


def changed(entry: dict[str, Any], **fields: Any) -> dict[str, Any]:
    result = copy.deepcopy(entry)
    for key, value in fields.items():
        if "." in key:
            outer, inner = key.split(".")
            result[outer][inner] = value
        else:
            result[key] = value
    return result


def test_clean_fixture_passes(write_kb: Writer) -> None:
    directory = write_kb()
    assert problems_for(directory) == []
    assert summary(load_knowledge([directory])).startswith("knowledge base OK: 2 models, 2 GPUs")


def test_problem_str() -> None:
    assert str(Problem("models.yaml", "x", "y", "bad")) == "models.yaml: entry 'x', field 'y': bad"
    assert str(Problem("models.yaml", None, None, "bad")) == "models.yaml: bad"


def test_same_id_in_two_shipped_files(write_kb: Writer) -> None:
    directory = write_kb()
    (directory / "more.yaml").write_text(yaml.safe_dump({"models": [MODEL]}), encoding="utf-8")
    found = problems_for(directory)
    assert [(p.entry, p.field) for p in found] == [("llama-2-7b", "id")]
    assert "already defined in" in found[0].message and found[0].file.endswith("more.yaml")


def test_user_directory_may_override_a_shipped_id(write_kb: Writer) -> None:
    shipped = write_kb("shipped")
    user = write_kb("user", models=[changed(MODEL, notes="our copy")])
    kb = load_knowledge([shipped, user])
    assert run_checks(kb, shipped_dir=shipped) == []
    assert kb.origins[("models", "llama-2-7b")].startswith(str(user))


@pytest.mark.parametrize(
    ("section", "entries", "entry", "field", "words"),
    [
        (
            "models",
            [MODEL, changed(MODEL, id="other", name="Other", aliases=["LLAMA2 7B"])],
            "llama-2-7b, other",
            "aliases",
            "claimed by 2",
        ),
        (
            "gpus",
            [GPU, changed(GPU, id="a100-40gb", name="A100 40GB", aliases=["a100"])],
            "a100-40gb, a100-80gb",
            "aliases",
            "claimed by 2",
        ),
        (
            "models",
            [changed(MODEL, num_kv_heads=12, attention="gqa", kv_cache_kib_per_token_16bit=None)],
            "llama-2-7b",
            "num_kv_heads",
            "not divisible",
        ),
        (
            "models",
            [changed(MODEL, head_dim=1024, kv_cache_kib_per_token_16bit=None)],
            "llama-2-7b",
            "head_dim",
            "neither hidden_size/heads",
        ),
        (
            "models",
            [changed(MODEL, head_dim=None, hidden_size=4100, kv_cache_kib_per_token_16bit=None)],
            "llama-2-7b",
            "head_dim",
            "not divisible",
        ),
        ("models", [changed(MODEL, params_b_computed=8.0)], "llama-2-7b", "params_b_computed", "15%"),
        (
            "models",
            [changed(MODEL, kv_cache_kib_per_token_16bit=128.0)],
            "llama-2-7b",
            "kv_cache_kib_per_token_16bit",
            "gives 512",
        ),
        (
            "models",
            [changed(MOE_MODEL, kv_cache_kib_per_token_16bit=60.0)],
            "deepseek-v3",
            "kv_cache_kib_per_token_16bit",
            "kv_lora_rank",
        ),
        ("models", [changed(MOE_MODEL, active_params_b=700)], "deepseek-v3", "active_params_b", "not below"),
        (
            "models",
            [changed(MOE_MODEL, **{"moe.experts_per_token": 300})],
            "deepseek-v3",
            "moe.experts_per_token",
            "only 256 experts",
        ),
        ("models", [changed(MODEL, attention="mqa")], "llama-2-7b", "attention", "'mqa'"),
        ("gpus", [changed(GPU, memory_gb=0.5)], "a100-80gb", "memory_gb", "outside"),
        ("gpus", [changed(GPU, fp16_tflops=10.0)], "a100-80gb", "fp16_tflops", "below fp32"),
        ("instance_families", [changed(FAMILY, gpu_id="h100-sxm")], "gn7e", "gpu_id", "no GPU"),
        (
            "faq",
            [changed(FAQ, answer={"en": "x", "zh-Hans": "  "})],
            "what-is-kv-cache",
            "answer.zh-Hans",
            "empty",
        ),
        (
            "faq",
            [changed(FAQ, questions={"en": ["  "], "zh": ["问"]})],
            "what-is-kv-cache",
            "questions.en",
            "no non-empty",
        ),
        ("models", [changed(MOE_MODEL, native_precision="fp8")], "deepseek-v3", "native_precision", "not backed"),
        (
            "models",
            [changed(MODEL, official_quants=["awq-int4"])],
            "llama-2-7b",
            "official_quants",
            "named by no source",
        ),
        (
            "models",
            [changed(MODEL, official_quants=["exl2"], source=["card lists exl2"])],
            "llama-2-7b",
            "official_quants",
            "is not one of",
        ),
        (
            "models",
            [changed(MODEL, hf_ids=["meta-llama/Llama-2-7b-chat-hf", "meta-llama/Llama-2-7b-chat-GPTQ-Int4"])],
            "llama-2-7b",
            "official_quants",
            "gptq/int4 release not listed",
        ),
        (
            "models",
            [changed(MOE_MODEL, native_precision="fp8", official_quants=["fp8"],
                     source=["config.json quantization_config fp8"])],
            "deepseek-v3",
            "official_quants",
            "native precision",
        ),
        ("models", [changed(MODEL, source=["  "])], "llama-2-7b", "source", "non-empty source"),
        ("gpus", [GPU, changed(GPU, id="x", name="X", aliases=[], source="")], "x", "source", "non-empty"),
    ],
)
def test_each_check_fails(
    write_kb: Writer, section: str, entries: list[dict[str, Any]], entry: str, field: str, words: str
) -> None:
    overrides: dict[str, Any] = {section: entries}
    if section == "gpus" and not any(e["id"] == "a100-80gb" for e in entries):
        overrides["instance_families"] = []
    directory = write_kb(**overrides)
    found = problems_for(directory)
    assert [(p.entry, p.field) for p in found] == [(entry, field)], [str(p) for p in found]
    assert words in found[0].message
    assert found[0].file.startswith(str(directory))


def test_sourced_precision_fields_pass(write_kb: Writer) -> None:
    fp8 = changed(MOE_MODEL, native_precision="fp8",
                  source=["deepseek-ai/DeepSeek-V3 config.json (quantization_config: fp8 e4m3, block 128)"])
    quantised = changed(MODEL, hf_ids=["Qwen/Qwen2.5-7B-Instruct-AWQ"], official_quants=["awq-int4"])
    assert problems_for(write_kb(models=[fp8, quantised])) == []


def test_pascal_fp16_is_exempt_and_bandwidth_checked(write_kb: Writer) -> None:
    directory = write_kb()  # the P40 fixture has FP16 at 1/64 of FP32
    assert problems_for(directory) == []
    from knowledge.check import _gpu_problems  # a zero bandwidth cannot pass the schema; test the check alone
    from knowledge.schema import GPU as GPUModel

    kb = load_knowledge([directory])
    broken = GPUModel.model_construct(**{**GPU, "bandwidth_gbps": 0.0, "source": ["s"]})
    assert [p.field for p in _gpu_problems(kb, broken)] == ["bandwidth_gbps"]


def test_shipped_data_loads_and_passes() -> None:
    """Smoke test: the knowledge shipped in the package loads and passes every check."""
    kb = load_knowledge()
    problems = run_checks(kb)
    assert problems == [], "\n".join(map(str, problems))
    assert kb.models and kb.gpus
