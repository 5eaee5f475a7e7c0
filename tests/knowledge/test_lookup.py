"""Fuzzy, number-aware name lookup over small fixture indexes."""

from __future__ import annotations

import time

import pytest

from knowledge.lookup import MISMATCH_CAP, NameIndex
from knowledge.matches import CONFIDENT_SCORE, SUGGEST_SCORE, LookupResult, Match
from knowledge.names import normalise, signature, split_checkpoint_suffixes

MODELS: dict[str, tuple[float, list[str]]] = {
    "chatglm-6b": (6.2, ["ChatGLM-6B", "chatglm 6b"]),
    "chatglm2-6b": (6.2, ["ChatGLM2-6B", "chatglm2"]),
    "llama-7b": (6.7, ["LLaMA 7B"]),
    "llama-13b": (13.0, ["LLaMA 13B"]),
    "llama-2-7b": (6.7, ["Llama 2 7B", "llama2-7b"]),
    "llama-2-13b": (13.0, ["Llama 2 13B", "llama2-13b"]),
    "llama-3-8b": (8.0, ["Llama 3 8B"]),
    "qwen-7b": (7.7, ["Qwen-7B", "Qwen-7B-Chat"]),
    "qwen-1.8b": (1.8, ["Qwen-1.8B"]),
    "qwen2.5-7b": (7.6, ["Qwen2.5-7B", "Qwen2.5-7B-Instruct"]),
    "qwen2.5-72b": (72.7, ["Qwen2.5-72B"]),
    "qwen2.5-0.5b": (0.5, ["Qwen2.5-0.5B"]),
    "qwen3-235b-a22b": (235.0, ["Qwen3-235B-A22B"]),
    "yi-34b": (34.4, ["Yi-34B", "Yi-34B-Chat"]),
    "yi-6b": (6.1, ["Yi-6B"]),
    "mistral-7b": (7.2, ["Mistral 7B"]),
    "mixtral-8x7b": (46.7, ["Mixtral 8x7B"]),
    "mixtral-8x22b": (141.0, ["Mixtral 8x22B"]),
    "deepseek-v3": (671.0, ["DeepSeek-V3"]),
    "bloom-7b1": (7.1, ["BLOOM 7B1"]),
}


@pytest.fixture(scope="module")
def index() -> NameIndex:
    names = [(mid, name) for mid, (_, aliases) in MODELS.items() for name in (mid, *aliases)]
    names.append(("chatglm-6b", "THUDM/chatglm-6b"))
    return NameIndex(names, {mid: params for mid, (params, _) in MODELS.items()})


@pytest.fixture(scope="module")
def gpus() -> NameIndex:
    names = [
        ("a100-40gb", "A100 40GB"),
        ("a100-80gb", "A100 80GB"),
        ("a100-80gb", "A100"),
        ("h100-pcie", "H100 PCIe 80GB"),
        ("rtx-4090", "RTX 4090"),
        ("rtx-4090", "4090"),
        ("rtx-4080", "RTX 4080"),
    ]
    return NameIndex(
        names, {"a100-40gb": 40, "a100-80gb": 80, "h100-pcie": 80, "rtx-4090": 24, "rtx-4080": 16}, unit="gb"
    )


@pytest.mark.parametrize(
    "query",
    [
        "chatglm6b",
        "ChatGLM 6B",
        "chatglm-6b",
        "THUDM/chatglm-6b",
        "https://huggingface.co/THUDM/chatglm-6b",
        "ＣｈａｔＧＬＭ－６Ｂ",
        "https://huggingface.co/THUDM/chatglm-6b/tree/main",
    ],
)
def test_spellings_of_one_model_are_exact_hits(index: NameIndex, query: str) -> None:
    result = index.lookup(query)
    assert result.best == Match("chatglm-6b", 100.0, result.best.matched if result.best else "")
    assert result.confident


def test_normalise() -> None:
    assert normalise("Qwen-1_8B") == "qwen1.8b" == normalise("qwen 1.8b")
    assert normalise("LLaMA 33B (a.k.a. 30B)") == "llama33baka30b"
    assert normalise("hf.co/Qwen/Qwen2.5-7B") == "qwenqwen2.57b"


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("lama2 13b", "llama-2-13b"),
        ("mistrel 7b", "mistral-7b"),
        ("qwen 2.5 7b", "qwen2.5-7b"),
        ("chat glm 6b", "chatglm-6b"),
        ("chat-glm2 6b", "chatglm2-6b"),
        ("chatgml2 6b", "chatglm2-6b"),
        ("mixtrl 8x22b", "mixtral-8x22b"),
        ("qwen3 235b", "qwen3-235b-a22b"),
        ("deepsek v3", "deepseek-v3"),
        ("deepseek v3 671b", "deepseek-v3"),
        ("Qwen-1_8B-Chat", "qwen-1.8b"),
        ("bloom-7b1", "bloom-7b1"),
    ],
)
def test_misspelt_families_still_match_confidently(index: NameIndex, query: str, expected: str) -> None:
    result = index.lookup(query)
    assert result.best is not None and result.best.id == expected, result
    assert result.confident


@pytest.mark.parametrize(
    ("query", "expected", "quant", "variant"),
    [
        ("Qwen/Qwen2.5-7B-Instruct-GPTQ-Int4", "qwen2.5-7b", "gptq", "instruct"),
        ("Yi-34B-Chat-4bits", "yi-34b", "int4", "chat"),
        ("Qwen-7B-Chat-Int4", "qwen-7b", "int4", "chat"),
        ("TheBloke/Llama-2-13B-chat-AWQ", "llama-2-13b", "awq", "chat"),
        ("qwen2.5-7b-instruct-q4_k_m.gguf", "qwen2.5-7b", "gguf-q4_k_m", "instruct"),
        ("meta-llama/Meta-Llama-3-8B-Instruct", "llama-3-8b", None, "instruct"),
        ("Llama-2-7b-chat-hf", "llama-2-7b", None, "chat"),
    ],
)
def test_checkpoint_names(index: NameIndex, query: str, expected: str, quant: str | None, variant: str) -> None:
    result = index.lookup(query)
    assert result.best is not None and result.best.id == expected
    assert result.confident
    assert (result.quant, result.variant) == (quant, variant)


def test_quant_bits() -> None:
    assert LookupResult(None, [], "gptq").quant_bits == 4
    assert LookupResult(None, [], "gguf-q5_k_m").quant_bits == 5
    assert LookupResult(None, [], "int8").quant_bits == 8
    assert LookupResult(None, [], None).quant_bits is None


def test_split_keeps_version_suffixes() -> None:
    assert split_checkpoint_suffixes("DeepSeek-V3") == ("deepseek-v3", None, None)
    assert split_checkpoint_suffixes("Mistral-7B-Instruct-v0.2") == ("mistral-7b", None, "instruct")
    assert split_checkpoint_suffixes("gptq") == ("gptq", None, None)


def test_signature_sizes() -> None:
    assert signature("Qwen3-235B-A22B-Instruct-2507").sizes == {"235b", "a22b"}
    assert signature("Qwen3-235B-A22B-Instruct-2507").numbers == {"3"}
    assert signature("Mixtral-8x7B").sizes == {"8x7b"}
    assert signature("Qwen-1_8B").sizes == {"1.8b"}
    assert signature("qwen2.5-0.5b").sizes == {"0.5b"}
    assert signature("bloom-7b1").sizes == {"7.1b"}
    assert signature("A100 40G").sizes == {"40gb"}
    assert signature("千问70亿").sizes == {"7b"}
    assert signature("Yi-34B-4bits").sizes == {"34b"}


@pytest.mark.parametrize(
    ("query", "intended"),
    [
        ("qwen2.5-72", "qwen2.5-72b"),  # no unit: plain edit distance scores 7b and 72b alike
        ("qwen2.5-7bb", "qwen2.5-7b"),
        ("qwen2.5 14b", None),  # a size the base lacks must not become 7b or 72b
        ("llama 2 70b", None),
        ("mixtral 8x13b", None),
        ("yi 9b", None),
    ],
)
def test_size_disagreement_is_never_confident(index: NameIndex, query: str, intended: str | None) -> None:
    result = index.lookup(query)
    assert not result.confident, result
    if result.best is not None:
        assert result.best.score <= MISMATCH_CAP
    if intended is not None:
        assert intended in {m.id for m in result.suggestions}


def test_the_72b_typo_defect(index: NameIndex) -> None:
    # rapidfuzz's plain ratio gives "qwen2.5-7b" vs "qwen2.5-72b" 95: a silent size change.
    result = index.lookup("qwen2.5-7b")
    assert result.best is not None and result.best.id == "qwen2.5-7b"
    runner = next(m for m in result.alternatives if m.id == "qwen2.5-72b")
    assert runner.score < CONFIDENT_SCORE and runner.mismatch == "size"


def test_version_disagreement_is_a_suggestion(index: NameIndex) -> None:
    for query in ("qwen3.5 7b", "llama 3.3 8b", "chatglm4 6b", "llama 4 7b"):
        result = index.lookup(query)
        assert not result.confident, (query, result)


def test_sizeless_query_does_not_pick_a_size(index: NameIndex) -> None:
    result = index.lookup("qwen2.5")
    assert not result.confident
    assert {"qwen2.5-7b", "qwen2.5-72b"} <= {m.id for m in result.suggestions}
    # ...unless the knowledge base itself gives a size-less alias.
    assert index.lookup("chatglm 2").best == Match("chatglm2-6b", 100.0, "chatglm2")


def test_one_letter_slip_in_a_short_name_is_only_a_suggestion(index: NameIndex) -> None:
    result = index.lookup("llava 7b")  # another model, not LLaMA
    assert not result.confident
    assert result.best is not None and result.best.id == "llama-7b"


def test_misses_and_empty(index: NameIndex) -> None:
    assert index.lookup("xyzzyplugh").best is None
    assert index.lookup("").best is None
    assert index.lookup("   ").alternatives == []


def test_alternatives_and_suggestions(index: NameIndex) -> None:
    result = index.lookup("lama2 13b", limit=3)
    assert result.best is not None and result.best.id == "llama-2-13b"
    assert len(result.alternatives) <= 3
    assert all(m.score >= SUGGEST_SCORE for m in result.alternatives)
    assert "llama-2-13b" not in {m.id for m in result.alternatives}
    assert index.lookup("chatglm6b", limit=0).alternatives == []
    exact = index.lookup("chatglm6b")
    assert "chatglm2-6b" in {m.id for m in exact.alternatives}  # computed when read
    assert exact.suggestions == exact.alternatives


def test_gpu_sizes(gpus: NameIndex) -> None:
    result = gpus.lookup("a100 40g")
    assert result.confident and result.best is not None and result.best.id == "a100-40gb"
    assert gpus.lookup("h100 pcie 80g").confident
    assert not gpus.lookup("a100 60gb").confident
    assert not gpus.lookup("rtx 4070").confident
    assert gpus.lookup("rtx4090").best == Match("rtx-4090", 100.0, "RTX 4090")


def test_ambiguous_names_are_reported() -> None:
    index = NameIndex([("a", "Foo 7B"), ("b", "foo-7b"), ("b", "Bar")])
    assert index.ambiguous == {"foo7b": {"a", "b"}}
    assert index.exact("FOO 7B") == "a"


def test_find_in_text(index: NameIndex, gpus: NameIndex) -> None:
    text = "How much VRAM for Qwen 2.5 7B chat int4 on THUDM/chatglm-6b or Llama 2 13B?"
    found = index.find_in_text(text)
    assert [(m.match.id, m.quant, m.variant) for m in found] == [
        ("qwen2.5-7b", "int4", "chat"),
        ("chatglm-6b", None, None),
        ("llama-2-13b", None, None),
    ]
    assert text[found[0].start : found[0].end] == "Qwen 2.5 7B chat int4"
    assert text[found[2].start : found[2].end] == "Llama 2 13B"
    assert [m.match.id for m in gpus.find_in_text("two A100 80GB, or a 4090?")] == ["a100-80gb", "rtx-4090"]
    # Tokens joined only across spaces, never across punctuation.
    assert index.find_in_text("chatglm, 6b") == []


def test_find_in_text_cjk() -> None:
    index = NameIndex([("qwen-7b", "通义千问7B"), ("qwen-7b", "qwen-7b")])
    found = index.find_in_text("微调通义千问7B需要多少显存")
    assert [(m.match.id, m.text) for m in found] == [("qwen-7b", "通义千问7B")]


def test_fuzzy_does_not_scan_every_alias() -> None:
    """10,000 synthetic entries: fuzzy lookups stay in the low milliseconds (bench/lookup.py measures)."""
    names = []
    magnitudes = {}
    for family in range(2000):
        label = "".join("abcdefghij"[int(d)] for d in f"{family:04d}") + "lm"
        for size in ("1b", "7b", "13b", "34b", "70b"):
            names.append((f"{label}-{size}", f"{label}-{size}"))
            magnitudes[f"{label}-{size}"] = float(size[:-1])
    index = NameIndex(names, magnitudes)
    index.lookup("abcdlm 7b")  # warm-up
    start = time.perf_counter()
    for _ in range(50):
        result = index.lookup("abcdxlm 13b")
    elapsed = (time.perf_counter() - start) / 50
    assert result.best is not None and result.best.id == "abcdlm-13b"
    assert elapsed < 0.02  # generous for slow CI; the benchmark target is p99 < 2 ms


def test_suffix_reported_when_the_alias_itself_carries_it() -> None:
    index = NameIndex([("qwen2.5-7b", "Qwen2.5-7B"), ("qwen2.5-7b", "Qwen/Qwen2.5-7B-Instruct-GPTQ-Int4")])
    result = index.lookup("Qwen/Qwen2.5-7B-Instruct-GPTQ-Int4")
    assert result.best is not None and result.best.score == 100.0
    assert (result.quant, result.variant) == ("gptq", "instruct")
    found = index.find_in_text("serve Qwen/Qwen2.5-7B-Instruct-GPTQ-Int4 on vLLM")
    assert [(m.match.id, m.quant) for m in found] == [("qwen2.5-7b", "gptq")]


@pytest.mark.parametrize(("query", "expected"), [
    ("rtx 4070", "rtx-4070"), ("4070 ti super", "rtx-4070-ti-super"), ("4070 super", "rtx-4070-super"),
    ("2080ti", "rtx-2080-ti"), ("1080 ti", "gtx-1080-ti"), ("rtx a5000", "rtx-a5000"), ("7900xtx", "rx-7900-xtx"),
    ("rtx 3090 ti", "rtx-3090-ti"), ("4060 ti", "rtx-4060-ti-16gb"),
])
def test_the_shipped_cards_people_type_by_short_name_are_each_their_own(query: str, expected: str) -> None:
    # a SUPER or Ti is not the plain card, nor the plain card one of its variants
    from knowledge.loader import default_knowledge

    found = default_knowledge().gpu_index.lookup(query)
    assert found.confident and found.best is not None and found.best.id == expected


def test_the_1m_context_glm_4_9b_is_its_own_model() -> None:
    # GLM-4-9B-Chat-1M has a native 1M window; read as GLM-4-9B-Chat (128K) a 1M context was called RoPE-scaled
    from knowledge.loader import load_knowledge

    kb = load_knowledge()
    assert kb.model_index.exact("GLM-4-9B-Chat-1M") == "glm-4-9b-chat-1m"
    assert kb.models["glm-4-9b-chat-1m"].max_context == 1048576
    assert kb.model_index.exact("glm-4-9b-chat") == "glm-4-9b"
