"""Part of the model in system RAM, asked for without saying how much ("with partial offload", "16G 显存 + 64G
内存"): the split llama.cpp users pick by hand, chosen as the reply's own suggestion would choose it."""

from __future__ import annotations

import rules
from bot.reply.defaults import OFFLOAD_CHOSEN_NOTE, OFFLOAD_OLLAMA_NOTE, workload_for
from bot.reply.model import CheckOut
from bot.reply.ollama_defaults import machine_vram_gib
from bot.understand.question import MAX_GPU_LAYERS, Question
from bot.understand.slots.engine import OLLAMA_NOTE
from knowledge.schema import GPU, Model
from rules import constants as C
from rules.engine_profile import profile_for

KTRANSFORMERS = "KTransformers"
"""The runtime (an unmodelled engine's name as the parser gives it) whose split is llama.cpp's --cpu-moe."""


OLLAMA_SPLIT_MIN_GPU_SHARE = 0.9
"""The share of a model's layer slots that must stay on the card for Ollama's own split to be the answer ("Yes,
with a few layers in RAM"). Each layer in dual-channel DDR5 (≈ 77 GB/s) takes about ten times as long to read as
on a GDDR6X card (≈ 900 GB/s), so a tenth of the layers in RAM already halves the decode speed; beyond that the
reply keeps its No and offers the split among the fixes (a smaller quant, a shorter num_ctx, a quantised KV cache)."""


def offload_as_asked(question: Question, model: Model, gpu: GPU | None) -> Question | None:
    """`question` with llama.cpp's --n-cpu-moe (an MoE's experts) or -ngl (whole layers) set to the fewest blocks
    in RAM, or the most layers on the cards, that leave the cards clear of the tight band, when the text asks for
    an offload or gives the machine's RAM ("2x 3090 and 128GB DDR4": said for a reason), names no count, and the
    model does not fit the cards whole; None when nothing is to be chosen.
    The check, the speed and the picks then describe the set-up the asker means to run."""
    # Ollama splits a model that does not fit between the card and RAM by itself: that split is what it runs
    ollama = OLLAMA_NOTE in question.notes
    if (not (question.offload_to_ram or question.host_ram_gb or ollama) or gpu is None
            or question.gpu_layers is not None or question.cpu_moe_layers is not None or gpu.unified_memory):
        return None
    # a model the cards hold as asked needs no split, nor another runtime ("Llama 3 8B on a 4090 with 64GB RAM")
    as_asked, _ = workload_for(question, model, gpu, machine_vram_gib(question, gpu, None))
    asked_check = rules.check_fit(as_asked, gpu, question.gpu_count or 1, candidates=[])
    if asked_check.fits:
        return None
    engine_chosen = question.engine is None and model.arch == "decoder" and question.task in (None, "inference")
    workload = as_asked
    if engine_chosen:
        # no runtime named: the one people split a model between card and RAM with (llama.cpp, Ollama), with
        # its GGUF file; transformers' device_map offload streams every layer over PCIe for each token
        question = question.model_copy(update={"engine": "llama.cpp"})
        workload, _ = workload_for(question, model, gpu, machine_vram_gib(question, gpu, None))
    if workload.task != "inference" or not profile_for(workload).multi_gpu.host_offload_layers:
        return None
    check = rules.check_fit(workload, gpu, question.gpu_count or 1, candidates=[]) if engine_chosen else asked_check
    if check.fits:
        return question if engine_chosen else None  # the GGUF holds it whole: no split, but llama.cpp's figures
    ollama_only = ollama and not (question.offload_to_ram or question.host_ram_gb)
    kinds = ("cpu-layers",) if ollama_only else ("cpu-experts", "cpu-layers")  # Ollama has no expert offload
    split = next((s for s in check.suggestions if s.kind in kinds), None)
    if split is None:
        return None
    slots = (model.num_layers or 0) + 1
    if ollama_only and (split.gpu_layers or 0) < OLLAMA_SPLIT_MIN_GPU_SHARE * slots:
        return None  # most of the model in RAM: a No with its fixes says more than a Yes at a fraction of the speed
    asked = question.offload_to_ram or question.host_ram_gb
    return question.model_copy(update={"gpu_layers": split.gpu_layers, "cpu_moe_layers": split.cpu_moe_layers,
                                       "notes": [*question.notes,
                                                 OFFLOAD_CHOSEN_NOTE if asked else OFFLOAD_OLLAMA_NOTE]})


def ktransformers_split(question: Question, model: Model) -> Question | None:
    """KTransformers on an MoE, sized as llama.cpp with every routed expert in system RAM (--cpu-moe): the split it
    is built for (kvcache-ai/ktransformers README: attention, shared experts and the KV cache on the GPU, the
    routed experts in DRAM, run by its CPU kernels; its DeepSeek-V3/R1 Q4_K_M runs in about 14 GB of VRAM and
    382 GB of DRAM). Its own kernels change the speed, not where the memory goes. None otherwise."""
    if (question.unmodelled_engine != KTRANSFORMERS or question.engine is not None or not model.is_moe
            or question.task not in (None, "inference")):
        return None
    # the notice above the figures says the split (unmodelled_ktransformers): no assumption line repeats it
    return question.model_copy(update={"engine": "llama.cpp",
                                       "cpu_moe_layers": question.cpu_moe_layers or MAX_GPU_LAYERS})


def host_ram_check(check: CheckOut | None, question: Question, host_ram_needed_gib: float | None) -> CheckOut | None:
    """The check, made a No when what stays in system RAM (ZeRO-Offload's states, llama.cpp's layers or experts)
    needs more than the RAM the question gives ("on one 4090 with 256GB RAM": ZeRO-3 offload of a 14B full
    fine-tune keeps about 370 GiB there); the cards' own figures are unchanged."""
    if check is None or not question.host_ram_gb or not host_ram_needed_gib:
        return check
    have_gib = question.host_ram_gb * 1e9 / C.GIB
    if host_ram_needed_gib <= have_gib:
        return check
    return check.model_copy(update={"fits": False, "tight": False, "host_ram_gb": question.host_ram_gb,
                                    "host_ram_needed_gb": round(host_ram_needed_gib, 1)})
