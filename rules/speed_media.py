"""Speed in the units non-LLM users think in: Whisper's real-time factor, seconds per generated image, and
encoder sequences per second.

* Whisper (encoder-decoder over 30 s windows): one window = the encoder's forward pass over its 1,500 frames
  (compute-bound: 2·P_encoder·frames FLOPs at PREFILL_MFU) + WHISPER_TOKENS_PER_WINDOW decoder steps, each
  bandwidth- and launch-bound like an LLM decode step (decoder weights / (η × bandwidth) + layers × the
  engine's per-layer floor). Real-time factor = 30 s of audio / seconds per window (how many times faster
  than real time; its inverse is the "RTF" of speech papers).
* Diffusion: seconds per image from a published end-to-end time on a reference card (the model's
  `details.reference_speed`), scaled by the ratio of dense fp16 tensor peaks (denoising is compute-bound), by
  the steps asked for (else the model card's) and by the pixels. No reference, no figure.
* Encoders: sequences per second = prefill tokens per second / sequence length.
"""

from __future__ import annotations

from knowledge.schema import GPU, Model
from rules import constants as C
from rules import speed_constants as S
from rules.hardware import dense_tflops
from rules.precision import weight_bytes
from rules.search import largest_true
from rules.types import Workload

WHISPER_WINDOW_S = 30.0
"""Whisper reads audio in 30-second windows (log-Mel of 3,000 frames → 1,500 encoder positions; Radford et al.
2022, "Robust Speech Recognition via Large-Scale Weak Supervision", §2.2; `max_source_positions` 1500)."""
WHISPER_TOKENS_PER_WINDOW = C.SPEECH_TOKENS_PER_WINDOW


def _encoder_decoder_layers(model: Model) -> tuple[int, int]:
    enc = int(model.details.get("encoder_layers", 0) or 0)
    dec = int(model.details.get("decoder_layers", 0) or 0)
    return enc, dec


LIVE_REFRESH_S = 1.0
"""A live transcriber runs Whisper again on its buffered audio every second (ufal/whisper_streaming's
`--min-chunk-size`, default 1.0 s): each run is an encoder pass over a whole 30-second window (Whisper pads shorter
audio to 30 s) and the buffer's text decoded again."""
LIVE_BUFFER_S = 7.5
"""Audio a live transcriber's buffer holds on average when it re-decodes it: the buffer grows until it is trimmed
(whisper_streaming's `--buffer_trimming_sec`, default 15 s), so half that."""


def _window_seconds(w: Workload, gpu: GPU, streams: int) -> tuple[float, float] | None:
    """(seconds of encoder work for `streams` windows batched on one card, seconds of one decoder step over all
    of them), or None for a model or card this cannot time. The encoder's work grows with the streams; a decoder
    step reads the decoder's weights once for all of them, and each hypothesis's cross-attention keys and values
    (its window's 1,500 encoder positions in every decoder layer, tiled per beam), until its matrix products,
    hypotheses × 2·P_decoder, take longer (the LLM decode step's bound)."""
    model = w.model
    frames = model.details.get("max_source_positions")
    enc_layers, dec_layers = _encoder_decoder_layers(model)
    if model.arch != "encoder-decoder" or not frames or not (enc_layers and dec_layers):
        return None
    weights, _ = weight_bytes(model, w.precision, None)
    params = model.params_b * 1e9
    encoder_share = enc_layers / (enc_layers + dec_layers)
    # CTranslate2's int8_float16 runs its matrix products at the card's 16-bit rate or faster (int8 GEMMs), never
    # at the halved bf16-with-fp32-accumulate rate a GeForce card lists for weight-only formats: a T4 (65 TFLOPS)
    # had out-run an RTX 3070 (40.6 at that rate) batched (audit 29, Whisper re-check); faster-whisper's own int8
    # figures run within 6% of its fp16 ones batched, so int8 is timed at the fp16 rate
    peak = _matmul_tflops(gpu, "fp16" if w.precision in ("int8", "int4") else w.precision)
    if peak is None:
        return None
    batch = max(1, streams)
    encoder_s = batch * 2.0 * params * encoder_share * float(frames) / (peak * 1e12 * S.PREFILL_MFU)
    eta = S.DECODE_BANDWIDTH_EFFICIENCY.get(w.engine, S.DECODE_BANDWIDTH_EFFICIENCY["transformers"])
    per_layer = S.DECODE_LAYER_OVERHEAD_S.get(w.engine, S.DECODE_LAYER_OVERHEAD_S["transformers"])
    # each step also reads every window's cross-attention keys and values: the encoder's positions × the decoder's
    # layers × d_model, K and V (245 MB a window for large: at 16 windows 2.5× the decoder). They are activations,
    # kept at 16 bits whatever the weights' format (CTranslate2's int8_float16 quantises weights only): at the
    # weights' width an int8 model read half of them and ran 20% faster batched than faster-whisper's own int8
    # figure (audit 28 LOW-86)
    width = 4.0 if w.precision == "fp32" else 2.0
    cross_kv = float(frames) * dec_layers * 2 * (model.hidden_size or 0) * width
    hypotheses = batch * max(1, w.beam_size)
    read_s = (weights * (1 - encoder_share) + hypotheses * cross_kv) / (eta * gpu.bandwidth_gbps * 1e9)
    compute_s = hypotheses * 2.0 * params * (1 - encoder_share) / (peak * 1e12 * S.DECODE_MFU)
    return encoder_s, max(read_s, compute_s) + dec_layers * per_layer


def whisper_real_time_factor(w: Workload, gpu: GPU, streams: int = 1) -> float | None:
    """Seconds of audio transcribed per second for each of `streams` windows batched on one card (greedy
    decoding, or a beam search of `w.beam_size` hypotheses): 30 s over one window's encoder pass and decode."""
    parts = _window_seconds(w, gpu, streams)
    if parts is None:
        return None
    encoder_s, step_s = parts
    return WHISPER_WINDOW_S / (encoder_s + WHISPER_TOKENS_PER_WINDOW * step_s)


def whisper_refreshed_streams(w: Workload, gpu: GPU, most: int) -> int:
    """The most live streams, up to `most`, one card re-transcribes every LIVE_REFRESH_S as a live transcriber
    does: each refresh encodes a whole window per stream and decodes its buffer's text again, so the card does
    far more work than the audio's own windows ask (batched 30-second windows are the offline count)."""
    tokens = WHISPER_TOKENS_PER_WINDOW * LIVE_BUFFER_S / WHISPER_WINDOW_S

    def keeps_up(streams: int) -> bool:
        parts = _window_seconds(w, gpu, streams)
        return parts is not None and parts[0] + tokens * parts[1] <= LIVE_REFRESH_S

    return largest_true(keeps_up, 1, most) if most >= 1 else 0


def whisper_live_streams(w: Workload, gpu: GPU, most: int) -> int:
    """The most live streams, up to `most`, one card transcribes each at least as fast as it is spoken."""
    def keeps_up(streams: int) -> bool:
        factor = whisper_real_time_factor(w, gpu, streams)
        return factor is not None and factor >= 1.0

    return largest_true(keeps_up, 1, most) if most >= 1 else 0


def diffusion_steps(model: Model) -> int | None:
    """The denoising steps a job runs when the question names none: the model card's own (FLUX.1-schnell 4,
    SD3.5 Large 28), else the reference measurement's."""
    default = model.details.get("default_steps")
    if isinstance(default, int) and default > 0:
        return default
    ref = model.details.get("reference_speed")
    steps = ref.get("steps") if isinstance(ref, dict) else None
    return int(steps) if isinstance(steps, (int, float)) and steps > 0 else None


def _matmul_tflops(gpu: GPU, precision: str = "fp16") -> float | None:
    """The rate a pipeline's matmuls run at: the precision's peak, or the fp32 one on a card whose fp16 is slower
    (Pascal's 1/64 rate: cuBLAS accumulates 16-bit matmuls in fp32 there, see rules.speed.engine_peak_tflops),
    where a GTX 1060's SD 1.5 image had taken two hours."""
    peak = dense_tflops(gpu, precision)
    if gpu.fp32_tflops and (peak or 0.0) < gpu.fp32_tflops:
        return gpu.fp32_tflops
    return peak


def diffusion_seconds_per_image(model: Model, gpu: GPU, reference: GPU | None, steps: int | None = None,
                                resolution: int | None = None) -> float | None:
    """Seconds per image from the model's published reference time, scaled by dense fp16 peaks, by the steps
    (each one a denoiser pass) and by the pixels (the latent tokens each pass runs over).

    Linear in pixels is a floor: attention grows with the square of the latent tokens, a small share of a
    pass at the native resolution (about an eighth for FLUX at 1024², its 4,608 tokens against 3,072 hidden)
    that grows above it. The text encoders and the VAE decode run once per image and are taken to scale alike.
    """
    ref = model.details.get("reference_speed")
    if not isinstance(ref, dict) or reference is None or not ref.get("seconds_per_image"):
        return None
    reference_peak, peak = _matmul_tflops(reference), _matmul_tflops(gpu)
    if reference_peak is None or peak is None:
        return None
    seconds = float(ref["seconds_per_image"]) * reference_peak / peak
    ref_steps = ref.get("steps")
    if steps and isinstance(ref_steps, (int, float)) and ref_steps > 0:
        seconds *= steps / float(ref_steps)
    ref_resolution = ref.get("resolution") or model.details.get("native_resolution")
    if resolution and isinstance(ref_resolution, (int, float)) and ref_resolution > 0:
        seconds *= (resolution / float(ref_resolution)) ** 2
    return seconds


def encoder_sequences_per_s(prefill_tokens_per_s: float | None, sequence_tokens: int) -> float | None:
    if not prefill_tokens_per_s or sequence_tokens <= 0:
        return None
    return prefill_tokens_per_s / sequence_tokens


def vit_flops_per_image(model: Model) -> float | None:
    """FLOPs one image takes through a dual encoder's vision tower (CLIP's ViT): per layer 2 × tokens × (4 h² + 2 h
    × intermediate) for the projections and MLP, and 4 × tokens² × h for attention, over (resolution / patch)² + 1
    tokens. None when the entry gives no vision tower."""
    vision = model.details.get("vision") if isinstance(model.details, dict) else None
    if not isinstance(vision, dict):
        return None
    try:
        layers, hidden = int(vision["num_layers"]), int(vision["hidden_size"])
        inter = int(vision.get("intermediate_size") or 4 * hidden)
        tokens = (int(vision["input_resolution"]) // int(vision["patch_size"])) ** 2 + 1
    except (KeyError, TypeError, ValueError):
        return None
    per_layer = 2.0 * tokens * (4 * hidden * hidden + 2 * hidden * inter) + 4.0 * tokens * tokens * hidden
    return layers * per_layer


def images_embedded_per_s(model: Model, gpu: GPU, precision: str) -> float | None:
    """Images a second one card embeds, batched: the vision tower's FLOPs at the prefill MFU of the card's dense
    peak (a batched encoder pass is a prefill); JPEG decoding and resizing on the CPU often bind first."""
    flops = vit_flops_per_image(model)
    peak = dense_tflops(gpu, precision)
    if not flops or not peak:
        return None
    return peak * 1e12 * S.PREFILL_MFU / flops
