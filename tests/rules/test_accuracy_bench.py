"""bench/accuracy.py: the case → request mapping, and the accuracy floor the calibration must keep."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

import _cases  # noqa: E402
import accuracy  # noqa: E402

from knowledge.loader import load_knowledge  # noqa: E402


@pytest.mark.parametrize(("published", "expected"), [
    ("gptq-int4 base (Qwen-*-Chat-Int4), fp16 compute", {"precision": "int4", "quant": "gptq"}),
    ("awq-int4 (lmdeploy w4a16)", {"precision": "int4", "quant": "awq"}),
    ("nf4 + double quant, bf16 compute", {"precision": "int4", "quant": "nf4-dq"}),
    ("LLM.int8 (8-bit) + GC", {"precision": "int8", "quant": "bnb-int8"}),
    ("bnb-4bit (load_in_4bit, default fp4)", {"precision": "int4", "quant": "fp4"}),
    ("pure bf16", {"precision": "bf16", "pure_16bit": True}),
    ("fp16 mixed (fp32 Adam states)", {"precision": "fp16"}),
    ("bf16/fp16 AMP (fp32 master weights)", {"precision": "bf16"}),
])
def test_precision_mapping(published: str, expected: dict[str, object]) -> None:
    assert accuracy.map_precision({"precision": published}) == expected


def test_request_for_a_qwen_finetune_row() -> None:
    kb = load_knowledge()
    case = {"model": "Qwen/Qwen-7B(-Chat)", "task": "lora", "precision": "bf16", "seq_len": 2048, "gen_len": None,
            "batch_size": 1, "num_gpus": 4, "gpu": "A100-SXM4-80G",
            "settings": {"gradient_checkpointing": True, "lora_r": 64, "deepspeed": "ZeRO-2 in the shipped scripts"}}
    req = accuracy.to_request(case, kb)
    assert req == {"model": "qwen-7b", "task": "lora", "precision": "bf16", "context": 2048, "gpus": 4, "batch": 1,
                   "gpu": "a100-80gb", "zero_stage": 2, "gradient_checkpointing": True, "lora_rank": 64,
                   "engine": "transformers"}


@pytest.mark.parametrize(("length_flag", "context"), [
    ("not set (model default 32768)", 32768),
    ("default (8192, the model's)", 8192),
    ("default", 32768),  # Qwen1.5-14B's window, from the knowledge base
    ("4096", None),  # a stated flag without seq_len is left to the row's other fields
])
def test_a_serving_run_at_its_default_length_is_sized_at_the_models_window(length_flag: str,
                                                                           context: int | None) -> None:
    kb = load_knowledge()
    case = {"model": "Qwen/Qwen1.5-14B-Chat", "task": "inference", "precision": "fp16", "seq_len": None,
            "gen_len": None, "batch_size": None, "num_gpus": 1, "gpu": "V100 32GB",
            "settings": {"framework": "vLLM 0.3", "max_model_len": length_flag}}
    assert accuracy.to_request(case, kb).get("context") == context
    assert accuracy.context_stated(case) is (context is not None)


def test_a_llama_cpp_part_that_does_not_depend_on_the_weights_format_is_sized_without_it() -> None:
    kb = load_knowledge()
    case = {"model": "mistralai/Mistral-7B-Instruct-v0.2", "task": "inference",
            "precision": "gguf (quant type not in the log excerpt)", "seq_len": 32000, "gen_len": None,
            "batch_size": 1, "num_gpus": 1, "gpu": None,
            "settings": {"framework": "llama.cpp (May 2024)", "flash_attn": 0},
            "memory_relation": "component: compute_buffer"}
    req = accuracy.to_request(case, kb)
    assert req["flash_attention"] is False and req["engine"] == "llama.cpp"
    with pytest.raises(accuracy.Skip):  # its weights do depend on the unknown type
        accuracy.to_request({**case, "memory_relation": "component: weights"}, kb)


def test_a_kv_pool_on_a_card_the_knowledge_base_lacks_is_skipped_not_sized_without_the_card() -> None:
    kb = load_knowledge()
    case = {"model": "meta-llama/Meta-Llama-3-8B", "task": "inference", "precision": "bf16", "seq_len": None,
            "gen_len": None, "batch_size": None, "num_gpus": 1, "gpu": "GeForce GTX 1660 SUPER (6GB)",
            "settings": {"framework": "vLLM 0.6.3"}, "memory_relation": "component: kv_cache"}
    with pytest.raises(accuracy.Skip, match="reserving engine"):
        accuracy.to_request(case, kb)
    # Its weights need no card, and llama.cpp's KV buffer is sized by the context, not the card.
    assert accuracy.to_request({**case, "memory_relation": "component: weights"}, kb)["engine"] == "vllm"
    llama = {**case, "settings": {"framework": "llama.cpp"}, "precision": "gguf-q4_k_m"}
    assert accuracy.to_request(llama, kb)["engine"] == "llama.cpp"


def test_unknown_models_are_skipped_not_guessed() -> None:
    kb = load_knowledge()
    with pytest.raises(accuracy.Skip):
        accuracy.resolve_model({"model": "acme/NotAModel-9000B"}, kb)
    assert accuracy.resolve_model({"model": "generic 14B decoder (LLaMA-Factory table)"}, kb) == {"params_b": 14.0}


@pytest.mark.skipif(not accuracy.DEFAULT_GROUNDTRUTH.exists(), reason="groundtruth not checked out")
def test_calibration_floor_on_measured_cases_with_stated_context() -> None:
    """The measured rows whose context the source states are what the constants were fitted on: keep them at
    median ≤ 10% and p90 ≤ 20% (rules path)."""
    cases = yaml.safe_load(accuracy.DEFAULT_GROUNDTRUTH.read_text(encoding="utf-8"))
    rows = accuracy.evaluate(cases, accuracy.Runner(load_knowledge(), use_ask=False))
    subset = [r for r in rows if accuracy.context_stated(r.case) and r.case.get("kind") == "measured"]
    s = accuracy.summary(subset)
    assert s["error_cases"] >= 150
    assert s["median_abs_error_pct"] <= 10.0
    assert s["p90_abs_error_pct"] <= 20.0
    overall = accuracy.summary(rows)
    assert overall["median_abs_error_pct"] <= 10.0


@pytest.mark.parametrize(("case", "expected"), [
    ({"settings": {"framework": "transformers 4.46.0"}}, {"engine": "transformers", "engine_version": "4.46.0"}),
    ({"settings": {"framework": "vLLM 0.6.3", "kv_cache_dtype": "fp8_e4m3"}},
     {"engine": "vllm", "engine_version": "0.6.3", "kv_cache": "fp8"}),
    ({"settings": {"framework": "llama.cpp", "cache_type_k": "q8_0", "kv_cache": "q8_0"}},
     {"engine": "llama.cpp", "kv_cache": "int8"}),
    ({"settings": {"framework": "lmdeploy TurboMind"},
      "source": {"repo": "InternLM/lmdeploy", "path": "docs/en/quantization/w4a16.md",
                 "commit": "dc32037b151ee9a9609bb771ebcad04d483c2ada"}},
     {"engine": "lmdeploy", "engine_version": "0.0.3"}),
    # The same README at a later commit is a later table: the dated version does not apply.
    ({"settings": {"framework": "Unsloth (Jan 2025)"},
      "source": {"repo": "unslothai/unsloth", "path": "README.md",
                 "commit": "e3162dc5bf88bf4c2b598c74cbcaba0706c4067b"}},
     {"engine": "unsloth"}),
    ({"settings": {"framework": "transformers (basic_demo; version not stated)"}, "notes": "vLLM also offered"},
     {"engine": "transformers"}),
    ({"settings": {"framework": "GLM-4 demo (backend not stated; transformers or vLLM)"}},
     {"engine": "transformers"}),
    ({"settings": {"framework": "torchtune (Nov 2024, main)"}}, {"engine": "torchtune"}),
    ({"settings": None, "source": {"repo": "hiyouga/LLaMA-Factory", "path": "README.md"}},
     {"engine": "llama-factory"}),
    ({"settings": {"framework": "HF transformers"}, "source": {"repo": "unslothai/unsloth", "path": "README.md"}},
     {"engine": "transformers"}),
    ({"settings": None, "notes": "served with vLLM"}, {"engine": "vllm"}),
])
def test_engine_of_a_row(case: dict[str, object], expected: dict[str, str]) -> None:
    assert accuracy.map_engine(case) == expected


@pytest.mark.parametrize(("case", "expected"), [
    ({"settings": {"memory_counter": "torch.cuda.max_memory_allocated summed over GPUs"}}, {"allocated_only": True}),
    ({"memory_published": "3.1 GiB (Peak Memory Active)"}, {"allocated_only": True}),
    # The Qwen2.5 page's benchmark script reads max_memory_allocated (bench/source_counters.yaml) ...
    ({"source": {"repo": "QwenLM/Qwen2.5", "path": "docs/source/benchmark/speed_benchmark.rst",
                 "commit": "a912d239c2d0e2e5d10bb8d02e6f5685edb43e68"}}, {"allocated_only": True}),
    # ... an edit of the page at another commit is another table, and a row that says nothing is left as is.
    ({"source": {"repo": "QwenLM/Qwen2.5", "path": "docs/source/benchmark/speed_benchmark.rst", "commit": "0" * 40}},
     {}),
    ({"settings": {"framework": "transformers"}, "memory_published": "19 GB"}, {}),
])
def test_what_a_row_counted(case: dict[str, object], expected: dict[str, bool]) -> None:
    assert _cases.reading_flags(case) == expected


def test_a_row_sized_with_unsloth_gets_its_documented_optimizer_as_ask_does() -> None:
    from rules import estimate_memory
    from rules.engine_profile import optimizer_for

    kb = load_knowledge()
    row = {"model": "llama-3.1-8b", "task": "qlora", "precision": "int4", "quant": "nf4", "context": 2048}
    assert optimizer_for(_cases.workload_for({**row, "engine": "unsloth"}, kb)) == "adamw-8bit"
    assert optimizer_for(_cases.workload_for({**row, "engine": "unsloth", "optimizer": "adamw"}, kb)) == "adamw"
    assert optimizer_for(_cases.workload_for({**row, "engine": "transformers"}, kb)) == "adamw"
    inference = _cases.workload_for({**row, "task": "inference", "engine": "unsloth"}, kb)
    assert estimate_memory(inference).breakdown["optimizer"] == 0.0


def test_added_groundtruth_files_are_read_and_a_missing_directory_is_fine(tmp_path: Path) -> None:
    shared = tmp_path / "published.yaml"
    shared.write_text(yaml.safe_dump([{"id": "a", "group": "g1"}]), encoding="utf-8")
    added = tmp_path / "groundtruth"
    added.mkdir()
    (added / "vllm-logs.yaml").write_text(yaml.safe_dump([{"id": "b", "group": "g2"}, {"id": "a", "group": "dup"}]),
                                          encoding="utf-8")
    cases = accuracy.load_cases(shared, added)
    assert [(c["id"], c["group"], c["origin"]) for c in cases] == [("a", "g1", "published.yaml"),
                                                                   ("b", "g2", "vllm-logs.yaml")]
    assert [c["id"] for c in accuracy.load_cases(shared, tmp_path / "absent")] == ["a"]


def test_fitted_constants_are_named_with_grids_around_todays_values() -> None:
    import _loso

    from rules import constants as C

    for constant in _loso.FITTED:
        assert float(getattr(C, constant.name)) in constant.grid, constant.name
    before = _loso.today()
    with _loso.patched(tuple(f.grid[0] for f in _loso.FITTED)):
        assert _loso.FITTED[0].grid[0] == C.INFERENCE_OVERHEAD_GIB
    assert _loso.today() == before


@pytest.mark.skipif(not accuracy.DEFAULT_GROUNDTRUTH.exists(), reason="groundtruth not checked out")
def test_leave_one_source_out_scores_every_row_with_a_fit_that_never_saw_its_group() -> None:
    import _loso

    cases = [c for c in yaml.safe_load(accuracy.DEFAULT_GROUNDTRUTH.read_text(encoding="utf-8"))
             if c["group"] in ("qwen2.5-speed-benchmark-transformers", "qwen1-readme-inference-perf",
                               "chatglm2-6b-readme-mem-table")]
    kb = load_knowledge()
    rows, fits = _loso.loso(cases, kb)
    assert sorted(fits) == ["chatglm2-6b-readme-mem-table", "qwen1-readme-inference-perf",
                            "qwen2.5-speed-benchmark-transformers"]
    assert sorted(r.case["id"] for r in rows) == sorted(c["id"] for c in cases)
    # Refitting on the other two groups must reproduce the held-out group's fit (no leakage of its rows).
    scorer = _loso.Scorer(cases, kb)
    others = [i for i, row in enumerate(scorer.rows) if row.group != "chatglm2-6b-readme-mem-table"]
    assert scorer.fit(others) == fits["chatglm2-6b-readme-mem-table"]
    assert all(r.error is not None for r in rows)


@pytest.mark.skipif(not accuracy.DEFAULT_GROUNDTRUTH.exists(), reason="groundtruth not checked out")
def test_held_out_floor_on_measured_cases_with_stated_context() -> None:
    """Leave-one-source-out on the measured rows whose source states the tokens in flight, the shared set and
    the rows added in bench/groundtruth/ (sources nobody calibrated on) together: the issue's goals (median
    ≤ 10%, p90 ≤ 25%) hold there (7.5% / 22.2% on 2026-12-04; bench/README.md has the whole table)."""
    import _loso

    rows, _ = _loso.loso(accuracy.load_cases(), load_knowledge())
    subset = [r for r in rows if accuracy.context_stated(r.case) and r.case.get("kind") == "measured"]
    s = accuracy.summary(subset)
    assert s["error_cases"] >= 150
    assert s["median_abs_error_pct"] <= 10.0
    assert s["p90_abs_error_pct"] <= 25.0
