"""llama-server's -c is the KV cells its -np slots share (audit 28 HIGH 44: "想改成 -c 32768 -np 4（每個 slot 還是
8k）" after a pasted start-up log was sized as one 8,192-token sequence, "可以 21.2 GiB" on a 4090 where the
32,768 cells asked take 8 GiB and the whole ≈ 27 GiB)."""

from __future__ import annotations

from pathlib import Path

from bot.understand.parse import parse
from knowledge.loader import default_knowledge
from tests.bot.reply._answers import ask_json

KB = default_knowledge()
PASTE = (Path(__file__).parent / "llama_server_np_change.txt").read_text(encoding="utf-8")


def test_the_slots_asked_after_the_paste_are_the_batch_and_each_slot_its_share() -> None:
    question = parse(PASTE, KB)
    assert (question.context, question.batch) == (8192, 4)  # the change asked, not the pasted -c 16384 -np 2
    alone = parse("llama-server -m qwen3-32b-q4_k_m.gguf -c 32768 -np 4 -ngl 99 on an RTX 4090, fits?", KB)
    assert (alone.context, alone.batch) == (8192, 4)


def test_the_change_does_not_fit_a_4090_and_q8_0_kv_is_the_tight_fix() -> None:
    reply = ask_json(PASTE)
    assert reply["check"]["fits"] is False
    assert 26.5 < reply["check"]["memory_per_gpu_gb"] < 28  # 18 GiB of weights + 8 GiB for 32,768 cells + buffers
    kv = next(s for s in reply["check"]["suggestions"] if s["kind"] == "kv-cache")
    assert 23 < kv["memory_per_gpu_gb"] < 24


def test_a_logs_tensor_types_and_cache_type_are_not_the_models_precision() -> None:
    # audit 28 LOW-88: "type f32: 257 tensors" and "K (f16)" made a Q4_K_M file "fp32 · 4.82 bits per weight"
    for paste in (PASTE, (Path(__file__).parent / "llama_server_t05_log.txt").read_text(encoding="utf-8")):
        question = parse(paste, KB)
        assert question.precision == "int4" and question.quant == "bpw-4.82"


OFFLOAD_LOG = (Path(__file__).parent / "llama_server_q5_offload_log.txt").read_text(encoding="utf-8")


def test_a_load_log_on_one_device_is_the_one_card_it_has() -> None:
    # audit 29 HIGH 56: buffers on CUDA0 alone, 13 layers on the CPU, "do we need a second 3090?" was answered
    # for two 3090s; the fixes on the one card it has were never listed
    question = parse(OFFLOAD_LOG, KB)
    assert (question.gpu, question.gpu_count, question.gpu_layers) == ("rtx-3090", 1, 52)
    reply = ask_json(OFFLOAD_LOG)
    kinds = {s["kind"] for s in reply["check"]["suggestions"]}
    assert {"kv-cache", "quantise", "more-gpus"} <= kinds
    assert "-ctk q8_0 -ctv q8_0" in reply["text"]


def test_a_q5_k_m_files_rate_is_no_int8() -> None:
    question = parse(OFFLOAD_LOG, KB)
    assert (question.quant, question.precision) == ("bpw-5.68", "int4")
    understood = ask_json(OFFLOAD_LOG)["text"].split("\n")[2]
    assert "5.68 bits per weight" in understood and "int8" not in understood
    assert parse("qwen2.5-32b exl2 6.0bpw on a 4090", KB).precision == "int8"  # no GGUF type: the rate's class


def test_two_devices_logged_are_two_cards() -> None:
    two = OFFLOAD_LOG.replace("load_tensors:   CPU_Mapped model buffer size =  4987.21 MiB",
                              "load_tensors:        CUDA1 model buffer size =  4987.21 MiB")
    assert parse(two, KB).gpu_count == 2
