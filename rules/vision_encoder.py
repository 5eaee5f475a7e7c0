"""What an image encoder holds while a serving engine's start-up profile encodes its dummy images.

vLLM sizes its KV pool from a profiling run over dummy requests. For a multimodal model those requests carry
images, and the encoder holds its working set for all of them at once: memory the pool then cannot have. For
Llama 3.2 Vision at the default 256 requests that is tens of GiB, the start-up OOM of vLLM issues 8879, 9445
and 10569.

Per image, 16-bit activations over the encoder's positions (`VisionEncoder.tokens_per_image`):
* a dense positions × positions attention mask, for encoders that build one;
* the layer outputs kept for the end (features read from several depths);
* one layer's MLP at its peak: the residual and normed input (2 × hidden) and the up-projection with its
  activation (2 × intermediate).
The mask and the kept states are replicated on every tensor-parallel rank; the MLP's share is split, but it
is counted whole here, as the text forward pass of the same profile is.
"""

from __future__ import annotations

from knowledge.schema import Model, VisionEncoder

ACTIVATION_BYTES = 2.0
"""Bytes per activation value: encoders run in the model's 16-bit dtype."""


def serves_as_encoder_decoder(model: Model) -> bool:
    """Whether engines run the model as an encoder-decoder one: its text reads the image by cross-attention."""
    return model.vision_encoder is not None and model.vision_encoder.cross_attention


def profiled_images(encoder: VisionEncoder, sequences: int, tokens: int) -> int:
    """Dummy images the profile encodes at once. A cross-attention model's runner gives each of its
    `sequences` dummy requests an image (vLLM's encoder-decoder runner); other models get as many as the
    profiled `tokens` hold, at least one (vLLM V0 caps the dummy requests by it, V1 its encoder budget)."""
    if encoder.cross_attention:
        return sequences
    return max(1, tokens // encoder.tokens_per_image)


def encoder_bytes_per_image(encoder: VisionEncoder) -> float:
    """The encoder's working set for one image at its peak (see the module docstring)."""
    positions = encoder.tokens_per_image
    mask = positions * positions * ACTIVATION_BYTES if encoder.dense_attention_mask else 0.0
    kept = encoder.kept_hidden_states * positions * encoder.hidden_size * ACTIVATION_BYTES
    layer = positions * (2 * encoder.hidden_size + 2 * encoder.intermediate_size) * ACTIVATION_BYTES
    return mask + kept + layer


def image_encoder_bytes(model: Model, sequences: int, tokens: int) -> float:
    """The image encoder's peak over a profile's dummy images (0 for a model without a sized encoder)."""
    encoder = model.vision_encoder
    if encoder is None:
        return 0.0
    return profiled_images(encoder, sequences, tokens) * encoder_bytes_per_image(encoder)
