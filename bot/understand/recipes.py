"""A trainer's own names for a model and a job, written back in the words the rest of the parser reads.

torchtune names its model builders and recipes in snake case: `torchtune.models.llama3_1.lora_llama3_1_70b` is
Llama 3.1 70B with LoRA adapters, `tune run lora_finetune_distributed` a LoRA fine-tune over several cards. Pasted
as they are, neither reads as a model or a job (a torchtune config was sized as 240,000 requests of batch
inference; audit 26 HIGH 31). The list of modules LoRA wraps (`lora_attn_modules: ['q_proj', …]`) is dropped too:
it counts no adapters.
"""

from __future__ import annotations

import re

_FAMILIES = {"llama3_3": "Llama 3.3", "llama3_2": "Llama 3.2", "llama3_1": "Llama 3.1", "llama3": "Llama 3",
             "llama2": "Llama 2", "code_llama2": "CodeLlama", "qwen3": "Qwen3", "qwen2_5": "Qwen2.5", "qwen2": "Qwen2",
             "gemma3": "Gemma 3", "gemma2": "Gemma 2", "gemma": "Gemma", "mistral": "Mistral", "phi4": "Phi-4",
             "phi3": "Phi-3"}
"""torchtune's model families (torchtune.models) and the names the knowledge base knows them by."""
_BUILDER = re.compile(
    r"(?:\btorchtune\.models\.\w+\.)?\b(?P<kind>q?lora_)?(?P<family>" + "|".join(sorted(_FAMILIES, key=len,
                                                                                      reverse=True))
    + r")_(?P<size>\d+(?:_\d+)?)b(?P<rest>(?:_instruct|_base)?)\b", re.I)
_RECIPE = re.compile(r"\b(?P<kind>q?lora|full)_finetune_(?:distributed|single_device)\b", re.I)
_LORA_MODULES = re.compile(r"\blora_attn_modules\s*[:=]\s*\[[^\]\n]*\]", re.I)
_KIND_WORDS = {"lora_": " with LoRA", "qlora_": " with QLoRA"}
_RECIPE_WORDS = {"lora": "LoRA fine-tune", "qlora": "QLoRA fine-tune", "full": "full fine-tune"}


def _builder(match: re.Match[str]) -> str:
    size = match.group("size").replace("_", ".")
    kind = _KIND_WORDS.get((match.group("kind") or "").lower(), "")
    suffix = " Instruct" if match.group("rest").lower() == "_instruct" else ""
    return f"{_FAMILIES[match.group('family').lower()]} {size}B{suffix}{kind}"


def plain_recipe_names(text: str) -> str:
    """`text` with torchtune's builder and recipe names in words ("lora_llama3_1_70b" → "Llama 3.1 70B with
    LoRA", "lora_finetune_distributed" → "LoRA fine-tune") and its list of LoRA-wrapped modules dropped."""
    if "_" not in text:
        return text
    text = _LORA_MODULES.sub(" ", text)
    text = _RECIPE.sub(lambda m: _RECIPE_WORDS[m.group("kind").lower()], text)
    return _BUILDER.sub(_builder, text)
