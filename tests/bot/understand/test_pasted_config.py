"""A config.json pasted into a message is found (code block or raw JSON) and cut out of the text."""

from __future__ import annotations

import json

from bot.understand.pasted_config import config_label, split_pasted_config
from tests.knowledge import hf_configs as hf


def test_fenced_block_is_found_and_cut() -> None:
    text = f"what GPU to serve this?\n```json\n{json.dumps(hf.QWEN2_5_7B, indent=2)}\n```\nthanks"
    rest, config = split_pasted_config(text)
    assert config == hf.QWEN2_5_7B
    assert rest == "what GPU to serve this?\n \nthanks"


def test_raw_json_is_found_and_cut() -> None:
    rest, config = split_pasted_config("can I LoRA " + json.dumps(hf.LLAMA_2_7B) + " on a 4090?")
    assert config == hf.LLAMA_2_7B and rest == "can I LoRA   on a 4090?"


def test_other_json_and_plain_text_are_left_alone() -> None:
    assert split_pasted_config('```{"user": "x", "size": 3}```') == ('```{"user": "x", "size": 3}```', None)
    assert split_pasted_config("Qwen-7B {not json}") == ("Qwen-7B {not json}", None)
    assert split_pasted_config("what GPU for Qwen-7B") == ("what GPU for Qwen-7B", None)


def test_label_prefers_the_checkpoint_name() -> None:
    assert config_label(hf.LLAMA_2_7B) == "meta-llama/Llama-2-7b-hf"
    assert config_label(hf.QWEN2_5_7B) == "Qwen2ForCausalLM"
