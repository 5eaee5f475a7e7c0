"""torchtune's builder and recipe names read as the model and the job (audit 26 HIGH 31)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.understand.parse import parse
from bot.understand.recipes import plain_recipe_names
from knowledge.loader import default_knowledge

KB = default_knowledge()
PASTE = (Path(__file__).parent / "torchtune_lora_paste.txt").read_text(encoding="utf-8")


@pytest.mark.parametrize(("written", "plain"), [
    ("_component_: torchtune.models.llama3_1.lora_llama3_1_70b", "_component_: Llama 3.1 70B with LoRA"),
    ("torchtune.models.qwen2_5.qwen2_5_0_5b", "Qwen2.5 0.5B"),
    ("qlora_llama3_1_8b", "Llama 3.1 8B with QLoRA"),
    ("tune run --nproc_per_node 4 lora_finetune_distributed", "tune run --nproc_per_node 4 LoRA fine-tune"),
    ("full_finetune_single_device", "full fine-tune"),
    ("lora_attn_modules: ['q_proj', 'v_proj']\napply_lora_to_mlp: True", " \napply_lora_to_mlp: True"),
    ("max_new_tokens: 200 on llama 3 8b", "max_new_tokens: 200 on llama 3 8b"),
])
def test_names_become_words(written: str, plain: str) -> None:
    assert plain_recipe_names(written) == plain


def test_a_pasted_torchtune_lora_config_is_the_fine_tune_it_configures() -> None:
    question = parse(PASTE, KB)
    assert (question.model, question.task, question.gpu, question.gpu_count) == ("llama-3.1-70b", "lora",
                                                                                 "a100-80gb", 4)
    # 120k samples of 1,100 tokens, one epoch (`epochs: 1`; `batch_size: 2` is the micro-batch, not 2 epochs)
    assert question.tokens == 120_000 * 1_100 and question.batch == 2 and question.lora_adapters is None


def test_epochs_written_as_a_config_key() -> None:
    for text in ("LoRA Llama 3.1 8B on 10k samples of 512 tokens, num_train_epochs: 3",
                 "LoRA Llama 3.1 8B on 10k samples of 512 tokens --epochs 3"):
        assert parse(text, KB).tokens == 3 * 10_000 * 512, text
