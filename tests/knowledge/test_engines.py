"""Engine profiles: every fact sourced, versions applied newest-first, aliases resolved, typos refused."""

from __future__ import annotations

import pytest
from pydantic import BaseModel, ValidationError

from knowledge.engine_facts import Fact
from knowledge.engines import EngineProfile, load_engine_profiles, resolve_engine_id, version_tuple
from knowledge.loader import load_knowledge

REQUIRED = {"transformers", "vllm", "sglang", "lmdeploy", "llama.cpp", "tensorrt-llm", "unsloth", "deepspeed",
            "fsdp", "llama-factory"}


def _facts(value: object) -> list[Fact]:
    if isinstance(value, Fact):
        return [value]
    if isinstance(value, BaseModel):
        return [f for name in type(value).model_fields for f in _facts(getattr(value, name))]
    if isinstance(value, list):
        return [f for item in value for f in _facts(item)]
    return []


def test_the_knowledge_base_carries_every_required_profile() -> None:
    assert set(load_knowledge().engines) >= REQUIRED


@pytest.mark.parametrize("engine_id", sorted(REQUIRED))
def test_every_field_of_a_profile_has_a_source(engine_id: str) -> None:
    profile = load_engine_profiles()[engine_id]
    facts = _facts(profile)
    assert len(facts) >= 7  # attention, logits, kv_cache, reservation, multi_gpu, runtime, allocator
    assert all(f.source.strip() for f in facts)


def test_versions_compare_numerically() -> None:
    assert version_tuple("4.38.2") == (4, 38, 2)
    assert version_tuple("v0.6") == (0, 6)
    assert version_tuple("latest") is None
    assert version_tuple("4.9") < version_tuple("4.45")  # type: ignore[operator]


def test_an_old_version_collects_every_change_it_predates() -> None:
    transformers = load_engine_profiles()["transformers"]
    old = transformers.at_version("4.30")
    assert old.logits.positions == "all" and old.attention.scores_materialised
    mid = transformers.at_version("4.40")
    assert mid.logits.positions == "all" and not mid.attention.scores_materialised
    assert transformers.at_version("4.46").logits.positions == "last"
    assert transformers.at_version(None) is transformers


def test_lmdeploy_reservation_follows_its_release_notes() -> None:
    lmdeploy = load_engine_profiles()["lmdeploy"]
    assert lmdeploy.at_version("0.0.3").reservation.kind == "none"
    for version in ("0.1.0", "0.2.1"):
        kv_blocks = lmdeploy.at_version(version).reservation
        assert (kv_blocks.kind, kv_blocks.fraction, kv_blocks.covers) == ("fraction_of_total", 0.5, "kv")
    free = lmdeploy.at_version("0.4.0").reservation
    assert (free.kind, free.fraction) == ("fraction_of_free", 0.8)


def test_aliases_resolve_to_the_runtime() -> None:
    assert resolve_engine_id("Ollama") == "llama.cpp"
    assert resolve_engine_id("TRT-LLM") == "tensorrt-llm"
    assert resolve_engine_id("peft") == "transformers"
    assert resolve_engine_id("no-such-engine") is None


def test_a_misspelt_field_is_refused() -> None:
    raw = load_engine_profiles()["vllm"].model_dump()
    raw["reservation"]["fractoin"] = 0.5
    with pytest.raises(ValidationError):
        EngineProfile.model_validate(raw)


def test_a_rule_changes_only_the_fields_it_states() -> None:
    transformers = load_engine_profiles()["transformers"]
    # The 4.48 rule states only the rotary tables; the 4.53 rule, applied first, the expert loop and graphs.
    at = transformers.at_version("4.47").runtime
    assert at.rope_tables_per_layer == ["Mixtral"]
    assert (at.moe_expert_loop, at.cuda_graphs) == ("all", False)
    vllm = load_engine_profiles()["vllm"]
    run = vllm.at_version("0.8.2").profile_run
    assert run is not None and run.sequences == 1024 and run.large_card_names == ["h100", "h200"]
    assert run.non_kv_gib == vllm.profile_run.non_kv_gib  # type: ignore[union-attr]  # inherited, not restated


def _with_rule(engine: str, rule: dict[str, object]) -> dict[str, object]:
    raw = load_engine_profiles()[engine].model_dump(exclude_unset=True)
    raw["version_rules"] = [*raw.get("version_rules", []), rule]  # type: ignore[list-item]
    return raw


def test_a_bad_rule_fails_at_start_up_naming_its_version_and_field() -> None:
    with pytest.raises(ValidationError, match=r"before 0\.1: profile_run\.tokenz"):
        EngineProfile.model_validate(_with_rule("vllm", {"before": "0.1", "profile_run": {"tokenz": 1, "source": "x"}}))
    with pytest.raises(ValidationError, match="needs its own source"):
        EngineProfile.model_validate(_with_rule("vllm", {"before": "0.1", "profile_run": {"sequences": 8}}))
    with pytest.raises(ValidationError, match="not a version number"):
        EngineProfile.model_validate(_with_rule("vllm", {"before": "next", "runtime": {"source": "x"}}))


def test_a_backends_rule_applies_when_it_is_named_and_not_when_another_is() -> None:
    trt = load_engine_profiles()["tensorrt-llm"]
    assert trt.backends == ["pytorch", "tensorrt"]
    engine = {  # (version, backend) → does the TensorRT engine's buffer rule apply?
        ("0.19", None): True,  # before 1.0 the default was a TensorRT engine
        ("1.2", None): False,  # from 1.0 the PyTorch backend
        (None, None): False,
        (None, "tensorrt"): True,  # trtllm-build / the Triton backend, any release
        ("1.2", "tensorrt"): True,
        ("0.20", "pytorch"): False,  # the PyTorch backend of a 0.x release has no such buffers
    }
    for (version, backend), applies in engine.items():
        assert (trt.at_version(version, backend).batch_buffers is not None) is applies, (version, backend)


def test_a_rule_for_a_backend_the_profile_does_not_offer_is_refused() -> None:
    rule = {"before": "0.1", "backend": "onnx", "runtime": {"cuda_graphs": False, "source": "x"}}
    with pytest.raises(ValidationError, match="backend 'onnx' is not one of the profile's backends"):
        EngineProfile.model_validate(_with_rule("vllm", rule))
