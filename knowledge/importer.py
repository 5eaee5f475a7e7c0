"""Import a Hugging Face `config.json` as a knowledge-base `Model`.

A team's own fine-tune or a model the shipped base lacks can be sized from its config alone:
`import_hf_config` reads the architecture fields under the names each family uses (Llama/Mistral/Qwen2/
Qwen3, Qwen-1, ChatGLM2/3/GLM-4, DeepSeek-V2/V3 MLA + MoE, Mixtral/Qwen-MoE, GPT-2/BLOOM/Falcon/GPT-J,
and configs nesting a `text_config`), counts the parameters (embeddings + attention + MLP/experts, tied
embeddings once, MoE active parameters separately) and the 16-bit KV cache per token. `write_user_entry`
merges the result into `<dir>/models.yaml`, which the loader merges over the shipped data when
`GPU_ADVISOR_KB=<dir>`.
"""

from __future__ import annotations

import datetime as _dt
import json
import re
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from knowledge.errors import KnowledgeDataError
from knowledge.files import write_yaml_atomically
from knowledge.schema import Model

_ID = re.compile(r"^[a-z0-9][a-z0-9._-]*$")

# model_type → (gated MLP, tied embeddings by default, display family)
_FAMILIES: dict[str, tuple[bool, bool, str]] = {
    "llama": (True, False, "Llama"),
    "mistral": (True, False, "Mistral"),
    "mixtral": (True, False, "Mixtral"),
    "qwen": (True, False, "Qwen"),
    "qwen2": (True, False, "Qwen2"),
    "qwen2_moe": (True, False, "Qwen-MoE"),
    "qwen3": (True, False, "Qwen3"),
    "qwen3_moe": (True, False, "Qwen3-MoE"),
    "chatglm": (True, False, "ChatGLM"),
    "glm": (True, False, "GLM"),
    "glm4": (True, False, "GLM-4"),
    "deepseek_v2": (True, False, "DeepSeek"),
    "deepseek_v3": (True, False, "DeepSeek"),
    "gemma": (True, True, "Gemma"),
    "gemma2": (True, True, "Gemma 2"),
    "gemma3_text": (True, True, "Gemma 3"),
    "internlm2": (True, False, "InternLM2"),
    "baichuan": (True, False, "Baichuan"),
    "yi": (True, False, "Yi"),
    "phi3": (True, False, "Phi-3"),
    "gpt2": (False, True, "GPT-2"),
    "gpt_bigcode": (False, True, "StarCoder"),
    "bloom": (False, True, "BLOOM"),
    "falcon": (False, True, "Falcon"),
    "RefinedWeb": (False, True, "Falcon"),
    "RefinedWebModel": (False, True, "Falcon"),
    "gptj": (False, False, "GPT-J"),
    "gpt_neox": (False, False, "GPT-NeoX"),
    "opt": (False, True, "OPT"),
}
_LEARNED_POSITIONS = {"gpt2", "gpt_bigcode", "opt"}
_FOUR_H = {"gpt2", "gpt_bigcode", "bloom", "falcon", "RefinedWeb", "RefinedWebModel", "gptj", "gpt_neox"}
"""Architectures whose MLP is 4 × hidden_size by definition when the config leaves the width out."""


def _first(cfg: dict[str, Any], *names: str) -> Any:
    for name in names:
        value = cfg.get(name)
        if value is not None:
            return value
    return None


class _Reader:
    def __init__(self, cfg: dict[str, Any], file: str, model_id: str) -> None:
        self.cfg = cfg
        self.file = file
        self.model_id = model_id

    def get(self, *names: str) -> Any:
        return _first(self.cfg, *names)

    def need(self, *names: str) -> int:
        value = self.get(*names)
        if value is None:
            also = f" (also looked for {', '.join(names[1:])})" if len(names) > 1 else ""
            raise KnowledgeDataError(self.file, self.model_id, names[0], f"missing from the config{also}")
        if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
            raise KnowledgeDataError(self.file, self.model_id, names[0], f"must be a positive integer, not {value!r}")
        return value

    def opt_int(self, *names: str) -> int | None:
        value = self.get(*names)
        return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def _read_config(config: dict[str, Any] | Path | str, model_id: str) -> tuple[dict[str, Any], str]:
    if isinstance(config, dict):
        return config, "config.json"
    path = Path(config)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise KnowledgeDataError(str(path), model_id, None, f"cannot be read: {exc}") from exc
    except json.JSONDecodeError as exc:
        raise KnowledgeDataError(str(path), model_id, None, f"not valid JSON: {exc}") from exc
    if not isinstance(data, dict):
        raise KnowledgeDataError(str(path), model_id, None, "a config.json must be a JSON object")
    return data, str(path)


def _vision_params(vision: Any) -> int:
    """Rough ViT tower size from a `vision_config` (4h² attention + 2·h·i MLP per layer)."""
    if not isinstance(vision, dict):
        return 0
    hidden = _first(vision, "hidden_size", "embed_dim", "width")
    layers = _first(vision, "num_hidden_layers", "depth", "layers")
    inner = _first(vision, "intermediate_size") or (4 * hidden if isinstance(hidden, int) else None)
    if not all(isinstance(v, int) and v > 0 for v in (hidden, layers, inner)):
        return 0
    return int(layers * (4 * hidden * hidden + 2 * hidden * inner))


def _sig(x: float) -> float:
    """Billions, to 4 significant figures."""
    return float(f"{x:.4g}")


def import_hf_config(
    config: dict[str, Any] | Path | str,
    model_id: str,
    *,
    name: str | None = None,
    source: str | None = None,
) -> Model:
    """A validated `Model` from a Hugging Face config (a dict or the path of a config.json).

    Raises `KnowledgeDataError` naming the missing or bad field when the config lacks what sizing needs
    (layers, hidden size, heads, vocabulary) or describes an encoder-decoder model.
    """
    raw, file = _read_config(config, model_id)
    if not _ID.fullmatch(model_id):
        raise KnowledgeDataError(file, model_id, "id", "ids are lower case letters, digits, '.', '_' and '-'")
    if raw.get("is_encoder_decoder"):
        raise KnowledgeDataError(
            file,
            model_id,
            "is_encoder_decoder",
            "encoder-decoder configs (T5, Whisper, BART) are not supported",
        )
    text_config = raw.get("text_config")
    multimodal = isinstance(text_config, dict)
    cfg = {**raw, **text_config} if isinstance(text_config, dict) else dict(raw)
    if multimodal and "model_type" in text_config:  # type: ignore[operator]
        cfg["model_type"] = text_config["model_type"]  # type: ignore[index]
    r = _Reader(cfg, file, model_id)

    model_type = str(cfg.get("model_type") or "")
    architectures = raw.get("architectures") or []
    if not model_type and architectures and isinstance(architectures[0], str):
        # a config trimmed to its shape ("LlamaForCausalLM" and the sizes): the class names the model type
        model_type = re.sub(r"(?:ForCausalLM|ForConditionalGeneration|LMHeadModel|Model)$", "",
                            architectures[0]).lower()
    gated_default, tied_default, family = _FAMILIES.get(model_type, (None, True, model_type or "unknown"))
    if model_type == "chatglm" and "inner_hidden_size" in cfg:  # ChatGLM-6B (v1): GELU MLP, tied head
        gated_default, tied_default = False, True
    if gated_default is None:
        act = str(cfg.get("hidden_act") or cfg.get("activation_function") or "").lower()
        gated_default = act in {"silu", "swiglu", "swish"}

    layers = r.need("num_hidden_layers", "num_layers", "n_layer", "n_layers")
    hidden = r.need("hidden_size", "n_embd", "d_model", "model_dim")
    heads = r.need("num_attention_heads", "n_head", "num_heads", "n_heads")
    vocab = r.need("padded_vocab_size", "vocab_size") if model_type == "chatglm" else r.need("vocab_size")

    notes: list[str] = []
    details: dict[str, Any] = {"model_type": model_type or None, "architectures": architectures or None}

    # Attention shape.
    mla: dict[str, int | None] | None = None
    kv_rank = rope = nope = v_head = 0
    q_rank: int | None = None
    head_dim: int | None = None
    if r.get("kv_lora_rank"):
        kv_rank = r.need("kv_lora_rank")
        rope = r.need("qk_rope_head_dim")
        nope = r.opt_int("qk_nope_head_dim") or 128
        v_head = r.opt_int("v_head_dim") or nope
        q_rank = r.opt_int("q_lora_rank")
        mla = {
            "kv_lora_rank": kv_rank,
            "q_lora_rank": q_rank,
            "qk_rope_head_dim": rope,
            "qk_nope_head_dim": nope,
            "v_head_dim": v_head,
        }
        kv_heads = r.opt_int("num_key_value_heads") or heads
        attention = "mla"
    else:
        if cfg.get("multi_query_attention") and r.get("multi_query_group_num"):
            kv_heads = r.need("multi_query_group_num")
        elif model_type in {"falcon", "RefinedWeb", "RefinedWebModel"}:
            if cfg.get("new_decoder_architecture"):
                kv_heads = r.opt_int("num_kv_heads", "n_head_kv") or heads
            elif cfg.get("multi_query", True):
                kv_heads = 1
            else:
                kv_heads = heads
        elif cfg.get("multi_query"):
            kv_heads = 1
        else:
            kv_heads = r.opt_int("num_key_value_heads", "num_kv_heads", "n_head_kv") or heads
        head_dim = r.opt_int("head_dim", "kv_channels")
        if head_dim is None:
            if hidden % heads:
                raise KnowledgeDataError(
                    file,
                    model_id,
                    "head_dim",
                    f"missing, and hidden_size {hidden} is not divisible by {heads} heads",
                )
            head_dim = hidden // heads
        attention = "mha" if kv_heads == heads else "mqa" if kv_heads == 1 else "gqa"
    if heads % kv_heads:
        raise KnowledgeDataError(
            file,
            model_id,
            "num_key_value_heads",
            f"{heads} attention heads are not divisible by {kv_heads} KV heads",
        )

    # MLP shape.
    intermediate = r.opt_int("intermediate_size", "ffn_hidden_size", "n_inner", "inner_hidden_size", "ffn_dim")
    if intermediate is None:
        intermediate = 4 * hidden
        if model_type not in _FOUR_H:
            notes.append("MLP width not in the config: 4 × hidden_size assumed.")
    mlp_branch = None
    branch = intermediate
    if model_type == "qwen":  # Qwen-1 counts both SwiGLU branches in intermediate_size
        mlp_branch = branch = intermediate // 2
    gated = bool(gated_default)
    mlp_matrices = 3 if gated else 2

    # Experts.
    num_experts = r.opt_int("n_routed_experts", "num_local_experts", "num_experts") or 0
    per_token = r.opt_int("num_experts_per_tok", "moe_topk", "top_k") or 0
    moe: dict[str, int] | None = None
    n_moe = expert_width = shared = shared_width = 0
    if num_experts > 1:
        if not per_token:
            raise KnowledgeDataError(file, model_id, "num_experts_per_tok", "missing for a mixture-of-experts config")
        expert_width = r.opt_int("moe_intermediate_size") or intermediate
        shared = r.opt_int("n_shared_experts") or 0
        shared_width = r.opt_int("shared_expert_intermediate_size") or 0
        first_dense = r.opt_int("first_k_dense_replace") or 0
        step = r.opt_int("decoder_sparse_step", "moe_layer_freq") or 1
        dense_only = set(cfg.get("mlp_only_layers") or [])
        n_moe = sum(
            1 for i in range(layers) if i >= first_dense and i not in dense_only and (step == 1 or (i + 1) % step == 0)
        )
        moe = {
            "num_experts": num_experts,
            "experts_per_token": per_token,
            "num_shared_experts": shared or (1 if shared_width else 0),
            "moe_intermediate_size": expert_width,
            "first_k_dense": first_dense,
        }

    # Parameter count.
    if head_dim is None:  # MLA: low-rank query and joint KV projections
        qk = nope + rope
        q_params = hidden * q_rank + q_rank * heads * qk + q_rank if q_rank else hidden * heads * qk
        kv_params = hidden * (kv_rank + rope) + kv_rank * heads * (nope + v_head) + kv_rank
        attn = q_params + kv_params + heads * v_head * hidden
    else:
        attn = hidden * heads * head_dim + 2 * hidden * kv_heads * head_dim + heads * head_dim * hidden
    dense_mlp = mlp_matrices * hidden * branch
    norms = 2 * hidden
    embeddings = vocab * hidden
    tied = cfg.get("tie_word_embeddings")
    tied = tied_default if tied is None else bool(tied)
    head = 0 if tied else vocab * hidden
    positions = 0
    if model_type in _LEARNED_POSITIONS:
        positions = (r.opt_int("n_positions", "max_position_embeddings") or 0) * hidden
    total = embeddings + head + positions + hidden + layers * (attn + norms) + (layers - n_moe) * dense_mlp
    active = total
    if moe is not None:
        expert = 3 * hidden * expert_width
        shared_params = shared * expert
        if shared_width:
            shared_params = 3 * hidden * shared_width + hidden  # one shared expert and its gate
        router = hidden * num_experts
        total += n_moe * (num_experts * expert + shared_params + router)
        active += n_moe * (per_token * expert + shared_params + router)
    vision = _vision_params(raw.get("vision_config"))
    if vision:
        total += vision
        active += vision
        notes.append(f"Vision tower estimated at {vision / 1e9:.2f}B from vision_config.")

    # Context and KV.
    max_context = r.opt_int("max_position_embeddings", "seq_length", "n_positions", "max_sequence_length", "n_ctx")
    sliding = r.opt_int("sliding_window")
    if sliding and cfg.get("use_sliding_window") is False:
        sliding = None
    if sliding and max_context and sliding >= max_context:
        sliding = None
    rope_scaling = cfg.get("rope_scaling")
    if isinstance(rope_scaling, dict) and rope_scaling:
        details["rope_scaling"] = rope_scaling
        kind = rope_scaling.get("rope_type") or rope_scaling.get("type")
        factor = rope_scaling.get("factor")
        original = rope_scaling.get("original_max_position_embeddings")
        notes.append(f"rope_scaling {kind} factor {factor}" + (f" from {original} positions." if original else "."))
    # 16-bit KV per token: MLA caches the latent and the rope key; otherwise K and V per KV head.
    kv_values = layers * (kv_rank + rope) if head_dim is None else 2 * layers * kv_heads * head_dim
    kv_kib = kv_values * 2 / 1024
    if raw.get("_name_or_path"):
        details["name_or_path"] = raw["_name_or_path"]
    if cfg.get("torch_dtype"):
        details["torch_dtype"] = cfg["torch_dtype"]

    org = "unknown"
    name_or_path = str(raw.get("_name_or_path") or "")
    if name_or_path.count("/") == 1 and not name_or_path.startswith(("/", ".")):
        org = name_or_path.split("/")[0]
    fields: dict[str, Any] = {
        "id": model_id,
        "name": name or model_id,
        "aliases": [],
        "family": family,
        "org": org,
        "modality": "multimodal" if multimodal or vision else "text",
        "arch": "decoder",
        "params_b": _sig(total / 1e9),
        "params_b_computed": _sig(total / 1e9),
        "num_layers": layers,
        "hidden_size": hidden,
        "num_attention_heads": heads,
        "num_kv_heads": kv_heads,
        "head_dim": head_dim,
        "attention": attention,
        "intermediate_size": intermediate,
        "mlp_branch": mlp_branch,
        "mlp": "gated" if gated else "plain",
        "vocab_size": vocab,
        "max_context": max_context,
        "sliding_window": sliding,
        "tie_embeddings": tied,
        "kv_cache_kib_per_token_16bit": round(kv_kib, 3),
        "moe": moe,
        "mla": mla,
        "source": [source or f"user config.json (imported {_dt.date.today().isoformat()})"],
        "notes": " ".join(notes) or None,
        "details": {k: v for k, v in details.items() if v is not None},
    }
    if moe is not None:
        fields["active_params_b"] = fields["active_params_b_computed"] = _sig(active / 1e9)
    try:
        return Model.model_validate({k: v for k, v in fields.items() if v is not None})
    except ValidationError as exc:
        first = exc.errors()[0]
        field = ".".join(str(part) for part in first["loc"]) or None
        raise KnowledgeDataError(file, model_id, field, first["msg"]) from None


def write_user_entry(model: Model, directory: Path | str) -> Path:
    """Write or replace `model` (by id) in `<directory>/models.yaml`; other entries and sections stay.

    The file is written atomically, so a loader reading it concurrently sees the old or the new version.
    """
    directory = Path(directory).expanduser()
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / "models.yaml"
    data: dict[str, Any] = {}
    if path.exists():
        try:
            loaded = yaml.safe_load(path.read_text(encoding="utf-8"))
        except yaml.YAMLError as exc:
            raise KnowledgeDataError(str(path), None, None, f"not valid YAML: {exc}") from exc
        if loaded is not None and not isinstance(loaded, dict):
            raise KnowledgeDataError(str(path), None, None, "the top level must be a mapping such as 'models:'")
        data = loaded or {}
    models = data.get("models") or []
    if not isinstance(models, list):
        raise KnowledgeDataError(str(path), None, "models", "must be a list of entries")
    entry = model.model_dump(mode="json", exclude_none=True, exclude_defaults=True, by_alias=True)
    entry = {"id": model.id, **entry}
    for position, existing in enumerate(models):
        if isinstance(existing, dict) and existing.get("id") == model.id:
            models[position] = entry
            break
    else:
        models.append(entry)
    data["models"] = models
    return write_yaml_atomically(path, data)
