"""'int4' of a model released in MXFP4 is its release, not a GPTQ checkpoint nobody publishes (audit 28 HIGH 45:
'gpt-oss-120b … int4 呢' sized GPTQ, 12% below the release, and two L40S went from 'No' to 'tight')."""

from __future__ import annotations

from tests.bot.reply._answers import ask_json


def test_gpt_oss_in_int4_is_sized_as_its_mxfp4_release() -> None:
    asked = ask_json("gpt-oss-120b in int4 on 2x L40S with vLLM, 20 users at 32k context: fits?")
    released = ask_json("gpt-oss-120b on 2x L40S with vLLM, 20 users at 32k context: fits?")
    assert asked["query"]["precision"] == "mxfp4"
    assert asked["check"]["fits"] is released["check"]["fits"] is False
    assert asked["check"]["memory_per_gpu_gb"] == released["check"]["memory_per_gpu_gb"]
    assert any(a.get("reason") == "int4-is-the-release" for a in asked["assumptions"])


def test_a_named_gptq_or_llama_cpp_keeps_its_own_format() -> None:
    assert ask_json("gpt-oss-20b GPTQ int4 on an RTX 4060 Ti 16GB")["query"]["quant"] == "gptq"
    # llama.cpp's "int4" is a GGUF file type, which the GGUF rules read
    assert ask_json("gpt-oss-20b int4 with llama.cpp on an RTX 4060 Ti 16GB")["query"]["quant"] == "gguf-q4_k_m"
