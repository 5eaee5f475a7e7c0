"""Training: model states by ZeRO stage, activations (Korthikanti), LoRA, QLoRA, chosen defaults."""

from __future__ import annotations

from dataclasses import replace

import pytest

from knowledge.loader import load_knowledge
from rules import Workload, estimate_memory
from rules import constants as C
from rules.memory import _model_states, lora_adapter_params, train_activation_bytes
from tests.rules._models import make_gpu, make_model

GIB = C.GIB
T5_3B = 2.851e9  # DeepSpeed docs' example model


def test_no_zero_is_16_bytes_per_parameter_for_mixed_precision_adamw() -> None:
    w, g, o, gathered = _model_states(1e9, 1, 0, "adamw", "bf16", False, "none", 0)
    assert (w, g, o, gathered) == (2e9, 2e9, 12e9, 0.0)


@pytest.mark.parametrize(("optimizer", "precision", "pure", "per_param"), [
    ("adamw-8bit", "bf16", False, 10.0),  # 2 + 2 + 4 (fp32 master) + 2 (two 1-byte moments)
    ("sgd", "bf16", False, 12.0),  # 2 + 2 + 4 (fp32 master) + 4 (fp32 momentum)
    ("adamw-8bit", "fp32", False, 10.0),  # 4 + 4 + 2: fp32 weights are their own master
    ("adamw", "fp32", False, 16.0),  # 4 + 4 + 8
    ("adamw", "bf16", True, 8.0),  # pure bf16: 2 + 2 + 4 (LLaMA-Factory's 8x)
])
def test_other_optimizers(optimizer: str, precision: str, pure: bool, per_param: float) -> None:
    assert sum(_model_states(1e9, 1, 0, optimizer, precision, pure, "none", 0)) == per_param * 1e9


def test_zero2_matches_deepspeeds_own_estimator() -> None:
    # estimate_zero2_model_states_mem_needs: 4·P + 16·P/N → T5-3B on 8 GPUs = 6·P = 17.1e9 B = 15.93 GiB.
    w, g, o, _ = _model_states(T5_3B, 8, 2, "adamw", "fp16", False, "none", 0)
    # weights 2·P; gradients 2·P (16-bit, whole) + 4·P/N (fp32 partition); optimizer 12·P/N.
    assert (w, g, o) == pytest.approx((2 * T5_3B, 2 * T5_3B + 4 * T5_3B / 8, 12 * T5_3B / 8))
    assert (w + g + o) / GIB == pytest.approx(15.93, abs=0.01)
    # offload_optimizer=cpu: the 16-bit parameters only, 2·P = 5.31 GiB.
    assert sum(_model_states(T5_3B, 8, 2, "adamw", "fp16", False, "optimizer", 0)) / GIB == pytest.approx(
        5.31, abs=0.01)


def test_zero3_is_18_bytes_over_n_plus_the_gathered_layer() -> None:
    largest = 32128 * 1024  # T5-3B's shared embedding, the largest tensor
    w, g, o, gathered = _model_states(T5_3B, 8, 3, "adamw", "fp16", False, "none", largest)
    assert w + g + o == pytest.approx(18 * T5_3B / 8)
    assert gathered == 4 * largest
    # DeepSpeed docs: 6.1 GB per GPU.
    assert (w + g + o + gathered) / GIB == pytest.approx(6.1, abs=0.02)


def test_zero1_shards_only_the_optimizer() -> None:
    w1, g1, o1, _ = _model_states(1e9, 4, 1, "adamw", "bf16", False, "none", 0)
    assert (w1, g1, o1) == (2e9, 2e9 + 4e9 / 4, 12e9 / 4)


def test_korthikanti_34_sbh_for_a_gpt_mlp_without_recomputation() -> None:
    # Plain MLP with i = 4h, flash attention, no vocabulary: 18h + 4·4h = 34·h bytes per token per layer.
    m = make_model(mlp="plain", intermediate_size=4 * 4096, vocab_size=None)
    s, b = 2048, 2
    assert train_activation_bytes(m, s, b, checkpointing=False, flash=True) == 34 * s * b * 4096 * 32


def test_eager_attention_adds_5_a_s_squared() -> None:
    m = make_model(mlp="plain", intermediate_size=4 * 4096, vocab_size=None)
    s = 1024
    flash = train_activation_bytes(m, s, 1, checkpointing=False, flash=True)
    eager = train_activation_bytes(m, s, 1, checkpointing=False, flash=False)
    assert eager - flash == 5 * 32 * s * s * 32  # 5 · heads · s² per layer × 32 layers


def test_checkpointing_keeps_layer_inputs_plus_the_larger_of_one_layer_and_the_logits() -> None:
    # The loss's backward frees the logits before the last layer is recomputed, so the two never coexist.
    m = make_model()
    s = 1024
    layer = (18 * 4096 + 6 * 11008) * s  # one SwiGLU layer recomputed: 143,130,624 B
    logits = 10 * 32000 * s  # 10 B/vocab: 327,680,000 B
    expected = 2 * 4096 * s * 32 + max(layer, logits)
    assert train_activation_bytes(m, s, 1, checkpointing=True, flash=True) == expected
    # A vocabulary small enough leaves the recomputed layer the larger.
    small_vocab = m.model_copy(update={"vocab_size": 1000})
    assert train_activation_bytes(small_vocab, s, 1, checkpointing=True, flash=True) == 2 * 4096 * s * 32 + layer
    # And it is far below keeping every layer.
    assert expected < train_activation_bytes(m, s, 1, checkpointing=False, flash=True) / 5


def test_lora_adapter_parameter_count() -> None:
    # Per layer, r=16: q,o (4096+4096)·2 + k,v (4096+4096)·2 = 32,768; gate/up/down 3·(4096+11008) = 45,312
    # → 78,080 × 16 × 32 layers = 39,976,960 parameters.
    assert lora_adapter_params(make_model(), 16) == 39_976_960
    # GQA shrinks k and v: (4096 + 1024)·2 instead of (4096 + 4096)·2.
    assert lora_adapter_params(make_model(num_kv_heads=8), 16) == (16384 + 10240 + 45312) * 16 * 32


def test_lora_breakdown() -> None:
    w = Workload(model=make_model(), task="lora", context=512, lora_rank=16, gradient_checkpointing=True)
    est = estimate_memory(w)
    adapter = 39_976_960
    # Frozen bf16 base 14e9 B + fp32 adapter weights 4 B; gradients 4 B and Adam moments 8 B per adapter param.
    assert est.breakdown["weights"] == pytest.approx((14e9 + 4 * adapter) / GIB, abs=1e-3)
    assert est.breakdown["gradients"] == pytest.approx(4 * adapter / GIB, abs=1e-3)
    assert est.breakdown["optimizer"] == pytest.approx(8 * adapter / GIB, abs=1e-3)
    assert est.chosen["lora_rank"] == 16


@pytest.mark.parametrize(("optimizer", "moment_bytes"), [("adamw", 8), ("adamw-8bit", 2), ("sgd", 4)])
def test_adapter_optimizer_states_follow_the_optimizer(optimizer: str, moment_bytes: int) -> None:
    # The adapter is fp32 already: no master copy, only the moments (8-bit Adam: 2 × 1 B; 39,976,960 × 2 B = 0.074
    # GiB instead of AdamW's 0.298 GiB). Weights and gradients do not change.
    w = Workload(model=make_model(), task="lora", context=512, lora_rank=16, gradient_checkpointing=True,
                 optimizer=optimizer)  # type: ignore[arg-type]
    est = estimate_memory(w)
    assert est.breakdown["optimizer"] == pytest.approx(moment_bytes * 39_976_960 / GIB, abs=1e-3)
    assert est.breakdown["gradients"] == pytest.approx(4 * 39_976_960 / GIB, abs=1e-3)


def test_qlora_base_is_nf4_with_fp32_embeddings() -> None:
    w = Workload(model=make_model(), task="qlora", precision="int4", context=512, gradient_checkpointing=True)
    est = estimate_memory(w)
    body, emb = 7e9 - 262_144_000, 262_144_000
    base = body * 0.5625 + emb * 2 + emb * 2  # packed NF4 + 16-bit embeddings + their fp32 upcast
    assert est.breakdown["weights"] == pytest.approx((base + 4 * 39_976_960) / GIB, abs=1e-3)
    # Overhead: 1 GiB + 10% of the resident base + the bitsandbytes workspace (layers' worth of 16-bit weights:
    # one of the 32 layers holds body / 32 parameters).
    overhead = C.TRAIN_OVERHEAD_GIB * GIB + C.TRAIN_OVERHEAD_FRACTION * base
    overhead += C.BNB_4BIT_WORKSPACE_LAYERS * body / 32 * 2
    assert est.breakdown["overhead"] == pytest.approx(overhead / GIB, abs=1e-3)
    assert est.chosen["quant"] == "nf4"
    assert "kbit-fp32-embeddings" in est.notes and "embeddings-16bit" not in est.notes  # fp32 replaces 16-bit


def test_qlora_on_a_gptq_base_keeps_16_bit_embeddings_and_needs_no_bitsandbytes_workspace() -> None:
    # PEFT's prepare_model_for_kbit_training skips its fp32 cast for GPTQ models; GPTQ kernels keep no
    # bitsandbytes dequantisation blocks.
    w = Workload(model=make_model(), task="qlora", precision="int4", quant="gptq", context=512,
                 gradient_checkpointing=True)
    est = estimate_memory(w)
    body, emb = 7e9 - 262_144_000, 262_144_000
    base = body * (4 + 16 / 128 + 4 / 128) / 8 + emb * 2
    assert est.breakdown["weights"] == pytest.approx((base + 4 * 39_976_960) / GIB, abs=1e-3)
    overhead = C.TRAIN_OVERHEAD_GIB * GIB + C.TRAIN_OVERHEAD_FRACTION * base
    assert est.breakdown["overhead"] == pytest.approx(overhead / GIB, abs=1e-3)
    assert "kbit-fp32-embeddings" not in est.notes


def test_qlora_below_lora_below_full() -> None:
    m = make_model()
    q = estimate_memory(Workload(model=m, task="qlora", precision="int4", context=2048)).per_gpu_gib
    lo = estimate_memory(Workload(model=m, task="lora", context=2048)).per_gpu_gib
    full = estimate_memory(Workload(model=m, task="train", context=2048)).per_gpu_gib
    assert q < lo < full
    # A 7B LoRA is ~20 GiB, not the 177 GB some calculators print; full FT ~110+ GiB on one card.
    assert 14 < lo < 25
    assert full > 7e9 * 16 / GIB


def test_defaults_chosen_are_reported() -> None:
    big = estimate_memory(Workload(model=make_model(), task="train", context=2048))
    assert big.chosen["gradient_checkpointing"] is True  # > 1B parameters, no card to fit: on
    assert big.chosen["zero_stage"] == 0  # one card: nothing to shard
    assert "gradient-checkpointing" in big.notes
    small = estimate_memory(Workload(model=load_knowledge().model("bert-base"), task="train", context=512))
    assert small.chosen["gradient_checkpointing"] is False


def test_checkpointing_only_when_needed_to_fit() -> None:
    w = Workload(model=make_model(), task="lora", context=2048)
    roomy = estimate_memory(w, 1, make_gpu())  # 80 GB: LoRA of a 7B fits without recomputation
    assert roomy.chosen["gradient_checkpointing"] is False
    small = estimate_memory(w, 1, make_gpu(id="g24", memory_gb=24.0))
    assert small.chosen["gradient_checkpointing"] is True
    assert small.per_gpu_gib < roomy.per_gpu_gib


def test_zero_stage_chosen_to_fit() -> None:
    m = make_model()
    w = Workload(model=m, task="train", context=2048)
    # Without a card: FSDP FULL_SHARD / ZeRO-3 on several GPUs.
    assert estimate_memory(w, 8).chosen["zero_stage"] == 3
    # On 8 × 80 GB: ZeRO-1 already fits (2 + 2 + 16/8 = 6 B/param = 39 GiB + activations).
    fits = estimate_memory(w, 8, make_gpu())
    assert fits.chosen["zero_stage"] == 1
    # On 8 × 40 GB: ZeRO-1 (≈ 43 GiB) does not; ZeRO-3 does.
    small = estimate_memory(w, 8, make_gpu(memory_gb=40.0))
    assert small.chosen["zero_stage"] == 3
    assert "zero3" in small.notes
    # A stated stage is kept even when it does not fit.
    assert estimate_memory(Workload(model=m, task="train", zero_stage=2), 8, make_gpu(memory_gb=40.0)).chosen[
        "zero_stage"] == 2


def test_zero3_shards_the_frozen_base_for_lora() -> None:
    m = make_model()
    one = estimate_memory(Workload(model=m, task="lora", context=512, zero_stage=2), 4)
    three = estimate_memory(Workload(model=m, task="lora", context=512, zero_stage=3), 4)
    assert three.breakdown["weights"] == pytest.approx(one.breakdown["weights"] / 4, rel=0.01)


def test_a_paged_optimizer_needs_the_card_for_everything_but_its_states() -> None:
    # Full bf16 training of the 7B toy with 8-bit paged AdamW: its moments, 2 B × 7e9 = 13.04 GiB, can move to
    # host RAM; the fp32 master (4 B × 7e9) in the optimizer's share is the model to it and stays.
    w = Workload(model=make_model(), task="train", optimizer="adamw-8bit", context=2048,
                 gradient_checkpointing=True)
    plain = estimate_memory(w)
    paged = estimate_memory(replace(w, paged_optimizer=True))
    assert plain.breakdown["optimizer"] == pytest.approx(6 * 7e9 / GIB, abs=1e-3)
    states = 2 * 7e9 / GIB
    assert paged.required_per_gpu_gib == pytest.approx(plain.per_gpu_gib - states, abs=1e-3)
    assert paged.per_gpu_gib == pytest.approx(plain.per_gpu_gib, abs=1e-3)  # no card: all of it while it fits
    # On a 64 GB card (63.5 GiB usable) the job needs ≈ 55.6 GiB on the card: it fills the card and pages out
    # the rest of the moments; on a 48 GB card even that does not fit.
    card = make_gpu(id="g64", memory_gb=64.0)
    on_card = estimate_memory(replace(w, paged_optimizer=True), 1, card)
    assert on_card.required_per_gpu_gib is not None and on_card.required_per_gpu_gib < 63.5 < plain.per_gpu_gib
    assert on_card.per_gpu_gib == pytest.approx(63.5, abs=1e-3)
    assert "paged-optimizer" in on_card.notes
    small = make_gpu(id="g48", memory_gb=48.0, memory_type="GDDR6", nvlink_gbps=None)
    on_small = estimate_memory(replace(w, paged_optimizer=True), 1, small)
    assert on_small.required_per_gpu_gib is not None and on_small.required_per_gpu_gib > 47.5


def test_offloaded_optimizer_states_need_host_ram_by_deepspeeds_estimator() -> None:
    # DeepSpeed's estimators, × its 1.5 buffer: ZeRO-2 max(4 × GPUs, 16) B per parameter (8 GPUs: 32 B →
    # 7e9 × 48 B = 312.9 GiB, as its docs print 127.48 GB for t5-3b's 2.85e9 on 8 GPUs); ZeRO-3 16 B per
    # parameter per node (7e9 × 24 B = 156.5 GiB). One card with offload and no stage named runs ZeRO-2.
    model = make_model()
    base = dict(model=model, task="train", context=1024, gradient_checkpointing=True, offload="optimizer")
    z2 = estimate_memory(Workload(**base, zero_stage=2), 8)  # type: ignore[arg-type]
    z3 = estimate_memory(Workload(**base, zero_stage=3), 8)  # type: ignore[arg-type]
    one = estimate_memory(Workload(**base), 1)  # type: ignore[arg-type]
    assert z2.host_ram_gib == pytest.approx(7e9 * 48 / 2**30, abs=0.1)
    assert z3.host_ram_gib == pytest.approx(7e9 * 24 / 2**30, abs=0.1)
    assert one.chosen["zero_stage"] == 2 and one.host_ram_gib == pytest.approx(7e9 * 24 / 2**30, abs=0.1)
    assert one.breakdown["optimizer"] == 0.0
    assert estimate_memory(Workload(model=model, task="train", context=1024), 1).host_ram_gib is None


def test_offloading_the_parameters_leaves_the_gathered_layer_on_the_card() -> None:
    # ZeRO-3 offload_param (DeepSpeed's estimator, cpu_offload_params): the card keeps 4 × the largest layer,
    # here a decoder layer of (7e9 − 2 × 32,000 × 4,096) / 32 = 210,558,000 parameters → 842,232,000 B; the
    # host holds 18 B per parameter × 1.5 = 7e9 × 27 B = 176.0 GiB per node. Any stage asked for becomes 3.
    model = make_model()
    base = dict(model=model, task="train", context=1024, gradient_checkpointing=True)
    est = estimate_memory(Workload(**base, offload="all"), 8)  # type: ignore[arg-type]
    plain = estimate_memory(Workload(**base, zero_stage=3), 8)  # type: ignore[arg-type]
    assert est.chosen["zero_stage"] == 3 and "offload-params" in est.notes
    assert est.breakdown["weights"] == est.breakdown["gradients"] == est.breakdown["optimizer"] == 0.0
    assert est.breakdown["activations"] == plain.breakdown["activations"]
    assert est.host_ram_gib == pytest.approx(7e9 * 27 / 2**30, abs=0.1)
    # No weights resident, so no allocator reserve on them: the constant + the gathered layer.
    assert est.breakdown["overhead"] == pytest.approx(C.TRAIN_OVERHEAD_GIB + 842_232_000 / 2**30, abs=1e-3)
    stage2 = estimate_memory(Workload(**base, offload="all", zero_stage=2), 8)  # type: ignore[arg-type]
    assert "offload-optimizer" in stage2.notes  # DeepSpeed offloads parameters under ZeRO-3 only


def test_dpo_runs_two_completions_per_sample_and_a_full_run_keeps_a_reference() -> None:
    # Activations at batch 1 with pairs equal those of batch 2; a full run adds a 16-bit reference copy
    # (2 B × 7e9 = 13.04 GiB on one card); a LoRA run adds nothing (adapters switched off for the reference).
    model = make_model()
    base = dict(model=model, context=1024, gradient_checkpointing=True)
    dpo = estimate_memory(Workload(**base, task="train", preference_pairs=True), 1)  # type: ignore[arg-type]
    two = estimate_memory(Workload(**base, task="train", batch=2), 1)  # type: ignore[arg-type]
    sft = estimate_memory(Workload(**base, task="train"), 1)  # type: ignore[arg-type]
    assert dpo.breakdown["activations"] == pytest.approx(two.breakdown["activations"], abs=1e-6)
    assert dpo.breakdown["weights"] - sft.breakdown["weights"] == pytest.approx(2 * 7e9 / 2**30, abs=1e-3)
    lora_dpo = estimate_memory(Workload(**base, task="lora", preference_pairs=True), 1)  # type: ignore[arg-type]
    lora = estimate_memory(Workload(**base, task="lora"), 1)  # type: ignore[arg-type]
    assert lora_dpo.breakdown["weights"] == lora.breakdown["weights"]
    assert lora_dpo.breakdown["activations"] > lora.breakdown["activations"]


def test_an_adapter_run_with_its_parameters_offloaded_keeps_only_activations_and_the_gathered_layer() -> None:
    # FSDP's CPU offload (Answer.AI's fsdp_qlora; PEFT's fsdp_offload_params): the frozen 16-bit base,
    # 7e9 × 2 B, and the rank-16 adapters, 32 layers × 16 × (4 × 8,192 + 3 × 15,104) = 39,976,960 parameters
    # × 16 B (fp32 weight, gradient, two moments), wait in host RAM: (14e9 + 639,631,360) B = 13.63 GiB.
    # The cards keep the activations, the gathered layer (2 B × 210,558,000) and the constant overhead.
    model = make_model()
    base = dict(model=model, task="lora", context=1024, gradient_checkpointing=True, engine="fsdp")
    est = estimate_memory(Workload(**base, offload="all"), 2)  # type: ignore[arg-type]
    plain = estimate_memory(Workload(**base), 2)  # type: ignore[arg-type]
    assert est.breakdown["weights"] == est.breakdown["gradients"] == est.breakdown["optimizer"] == 0.0
    assert est.breakdown["activations"] == plain.breakdown["activations"]
    assert est.breakdown["overhead"] == pytest.approx(C.TRAIN_OVERHEAD_GIB + 2 * 210_558_000 / 2**30, abs=1e-3)
    assert est.host_ram_gib == pytest.approx((14e9 + 39_976_960 * 16) / 2**30, abs=0.05)
    assert {"offload-params", "offload-adapters"} <= set(est.notes)
    # FSDP has no optimizer-only offload: "CPU offload" on it is this same parameter offload.
    said = estimate_memory(Workload(**base, offload="optimizer"), 2)  # type: ignore[arg-type]
    assert said.per_gpu_gib == est.per_gpu_gib and "offload-params" in said.notes


def test_deepspeed_offloads_only_an_adapters_optimizer_states_and_gradients() -> None:
    # ZeRO-Offload under ZeRO-2 on 2 cards: the adapters' fp32 gradients (4 B) and AdamW moments (8 B) go to
    # host RAM, 39,976,960 × 12 B = 0.447 GiB; the frozen base stays on each card.
    model = make_model()
    base = dict(model=model, task="lora", context=1024, gradient_checkpointing=True, engine="deepspeed",
                zero_stage=2)
    est = estimate_memory(Workload(**base, offload="optimizer"), 2)  # type: ignore[arg-type]
    plain = estimate_memory(Workload(**base), 2)  # type: ignore[arg-type]
    assert est.breakdown["optimizer"] == est.breakdown["gradients"] == 0.0
    assert est.breakdown["weights"] == plain.breakdown["weights"]
    assert est.host_ram_gib == pytest.approx(39_976_960 * 12 / 2**30, abs=0.05)  # reported to 0.1 GiB
    assert "offload-optimizer" in est.notes and "offload-params" not in est.notes


def test_unsloth_runs_several_cards_as_ddp_replicas_each_holding_the_whole_job() -> None:
    # Unsloth's multi-GPU is accelerate/DDP (its engine profile): no ZeRO/FSDP sharding, so two cards need
    # what one needs; transformers + DeepSpeed shards the same LoRA job.
    gpu = make_gpu(memory_gb=16.0)
    unsloth = Workload(model=make_model(), task="lora", engine="unsloth", context=2048)
    one, two = estimate_memory(unsloth, 1, gpu), estimate_memory(unsloth, 2, gpu)
    assert two.per_gpu_gib == pytest.approx(one.per_gpu_gib) and two.chosen.get("zero_stage", 0) == 0
    sharded = estimate_memory(replace(unsloth, engine="transformers"), 2, gpu)
    assert sharded.chosen.get("zero_stage") in (2, 3) and sharded.per_gpu_gib < one.per_gpu_gib


def test_a_parameter_offload_suggested_to_a_zero2_job_is_sized_at_zero3() -> None:
    # offload_param exists only in ZeRO-3: sized at the user's stage 2 it claimed ≈ 0 GiB of host RAM and more
    # memory a card than plain ZeRO-3.
    from rules import check_fit

    gpu = make_gpu(memory_gb=24.0)
    w = Workload(model=make_model(), task="lora", context=4096, zero_stage=2, batch=4)
    check = check_fit(w, gpu, 4, candidates=[gpu])
    offload = [s for s in check.suggestions if s.kind == "offload-all"]
    zero3 = estimate_memory(replace(w, zero_stage=3), 4, gpu)
    assert offload, check
    assert offload[0].memory_per_gpu_gib < zero3.per_gpu_gib
    assert (offload[0].host_ram_gib or 0) > 10  # the 14 GB bf16 base waits in host RAM


def test_context_parallelism_divides_a_sequence_s_activations_over_its_cards() -> None:
    from knowledge.loader import load_knowledge
    from rules import Workload, estimate_memory

    kb = load_knowledge()
    job = Workload(model=kb.models["llama-3.1-70b"], task="train", precision="bf16", engine="fsdp", context=65536,
                   gradient_checkpointing=True, zero_stage=3)
    alone = estimate_memory(job, 32).breakdown["activations"]
    split = estimate_memory(replace(job, context_parallel=8), 32).breakdown["activations"]
    assert split == pytest.approx(estimate_memory(replace(job, context=8192), 32).breakdown["activations"], rel=0.01)
    assert split < alone / 6
