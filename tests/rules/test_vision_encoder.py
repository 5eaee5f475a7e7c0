"""vLLM's start-up profile of an image model: the dummy images it encodes at once, and what the encoder holds.

Toy model (tests/rules/_models.py): hidden 4,096, intermediate 11,008, vocabulary 32,000, 7e9 bf16 parameters,
given a Llama-3.2-Vision-like encoder: 6,432 positions per image (4 tiles of 1,601 padded to 1,608), hidden
1,280, intermediate 5,120, 5 kept layer outputs, a dense mask, cross-attention.
"""

from __future__ import annotations

import pytest

from knowledge.engines import load_engine_profiles
from knowledge.schema import VisionEncoder
from rules import Workload, estimate_memory
from rules import constants as C
from rules.alternatives import suggestions
from rules.engine_profile import profile_for, profile_run_size, runs_on_encoder_decoder_backend
from rules.vision_encoder import encoder_bytes_per_image, profiled_images
from tests.rules._models import make_gpu, make_model

GIB = C.GIB
MLLAMA_LIKE = VisionEncoder(tokens_per_image=6432, hidden_size=1280, intermediate_size=5120, kept_hidden_states=5,
                            dense_attention_mask=True, cross_attention=True, source="test")
# mask 6,432² × 2 = 82,741,248 B; kept 5 × 6,432 × 1,280 × 2 = 82,329,600 B;
# one layer's MLP peak 6,432 × (2 × 1,280 + 2 × 5,120) × 2 = 164,659,200 B.
PER_IMAGE = 82_741_248 + 82_329_600 + 164_659_200


def vision(encoder: VisionEncoder = MLLAMA_LIKE, **workload: object) -> Workload:
    model = make_model(modality="multimodal", vision_encoder=encoder)
    return Workload(model=model, engine="vllm", **workload)  # type: ignore[arg-type]


def test_one_image_holds_mask_kept_states_and_one_mlp() -> None:
    assert encoder_bytes_per_image(MLLAMA_LIKE) == PER_IMAGE
    plain = MLLAMA_LIKE.model_copy(update=dict(dense_attention_mask=False, kept_hidden_states=0))
    assert encoder_bytes_per_image(plain) == 164_659_200


def test_cross_attention_models_encode_one_image_per_request() -> None:
    assert profiled_images(MLLAMA_LIKE, 256, 5120) == 256
    decoder = MLLAMA_LIKE.model_copy(update=dict(cross_attention=False))
    # Other image models: as many images as the profiled tokens hold, at least one.
    assert profiled_images(decoder, 256, 20_000) == 3
    assert profiled_images(decoder, 256, 2048) == 1


def test_cross_attention_models_run_on_v0_whatever_the_version() -> None:
    for version in (None, "0.9.2", "0.6.3"):
        profile = profile_for(vision(engine_version=version, context=4096))
        assert profile.reservation.fraction == 0.9
        assert profile.profile_run is not None and profile.profile_run.sequences == 256
        assert profile.profile_run.large_card_sequences is None
    text = profile_for(Workload(model=make_model(), engine="vllm", context=4096))
    assert text.profile_run is not None and text.profile_run.large_card_sequences == 1024
    # The reply says so only where V0 is not the release's own default (before 0.8 it is).
    said = [runs_on_encoder_decoder_backend(vision(engine_version=v, context=4096)) for v in (None, "0.9.2", "0.6.3")]
    assert said == [True, True, False]


def test_v0_profiles_a_multimodal_prompt_whole_with_a_floor() -> None:
    profile = load_engine_profiles()["vllm"]
    v0 = profile.at_version("0.6.3").profile_run
    assert v0 is not None
    # Text: chunked prefill above 32K (512 tokens), else max(context, 2048).
    assert profile_run_size(v0, None, 65_536) == (256, 512)
    assert profile_run_size(v0, None, 1024) == (256, 2048)
    # Multimodal (0.6.2 on): no automatic chunking, and at least 5,120 tokens.
    assert profile_run_size(v0, None, 65_536, multimodal=True) == (256, 65_536)
    assert profile_run_size(v0, None, 1024, multimodal=True) == (256, 5120)
    early = profile.at_version("0.6.1").profile_run
    assert early is not None
    assert profile_run_size(early, None, 65_536, multimodal=True) == (256, 512)
    assert profile_run_size(early, None, 1024, multimodal=True) == (256, 4096)
    oldest = profile.at_version("0.5.3").profile_run
    assert oldest is not None and profile_run_size(oldest, None, 1024, multimodal=True) == (256, 2048)


def test_the_encoder_peak_is_the_profile_activation_and_a_lower_cap_frees_it() -> None:
    gpu = make_gpu(name="NVIDIA A100 80GB")
    est = estimate_memory(vision(engine_version="0.6.3", context=1024), 1, gpu)
    # 256 images × 329,730,048 B = 78.61 GiB, far above the 5,120-token forward pass (0.43 GiB).
    assert est.breakdown["activations"] == pytest.approx(256 * PER_IMAGE / GIB, abs=1e-3)
    assert est.chosen["profiled_images"] == 256
    assert "vllm-multimodal-profile-sized" in est.notes
    assert "vllm-encoder-decoder-backend" not in est.notes  # 0.6.3 runs V0 by default
    capped = estimate_memory(vision(engine_version="0.6.3", context=1024, max_num_seqs=32), 1, gpu)
    assert capped.breakdown["activations"] == pytest.approx(32 * PER_IMAGE / GIB, abs=1e-3)  # 9.83 GiB
    # 13 GiB weights + 78.6 GiB do not fit the 72 GiB vLLM takes; the cap that does is offered.
    offered = [s for s in suggestions(vision(engine_version="0.6.3", context=1024), gpu, 1, [gpu])
               if s.kind == "fewer-requests"]
    assert offered and offered[0].max_num_seqs == 128


def test_an_image_model_without_encoder_facts_is_told_it_is_not_sized() -> None:
    est = estimate_memory(Workload(model=make_model(modality="multimodal"), engine="vllm", context=4096), 1,
                          make_gpu())
    assert "vllm-multimodal-profile" in est.notes and "profiled_images" not in est.chosen


def test_a_resolved_profile_is_reused_for_the_same_version_and_backend() -> None:
    first = profile_for(vision(engine_version="0.9.2", context=4096))
    assert profile_for(vision(engine_version="0.9.2", context=1024)) is first
    assert profile_for(vision(engine_version="0.6.3", context=4096)) is not first
