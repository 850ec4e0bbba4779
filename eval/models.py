"""Tiny, download-free builds of the Hugging Face model families that the GraphMend paper evaluated.

Each entry of ``FAMILIES`` names a model family of the paper (arXiv 2509.16248, Table of
Hugging Face results), the transformers class we instantiate, the modeling file(s) that
``graphmend check`` / ``graphmend fix`` read, and a builder that returns ``(model, inputs)``:
the model is constructed from a tiny random configuration (no hub access, no pretrained
weights, seeded, eval mode) and ``inputs`` is a dict of keyword arguments for ``forward``.

The tiny configurations keep every code path of the released checkpoints that the paper's
breaks come from (for example Phi-4-mini's partial rotary factor and LongRoPE scaling, CLAP's
fused audio branch with ``is_longer``), but shrink widths, depths and sequence lengths so a
forward pass and an inductor compile fit in seconds on two CPU cores. Vision backbones are the
in-library ones (``use_timm_backbone=False``, ``use_pretrained_backbone=False``).

This module imports torch and transformers lazily inside the builders, so the orchestrator can
import it for the family list without either installed.
"""

from __future__ import annotations

SEED = 0
VOCAB = 99
SEQ = 8


def _ids(torch, batch=1, seq=SEQ, low=4, high=VOCAB, eos=None):
    """Deterministic token ids in [low, high), optionally ending with an end-of-sequence id."""
    g = torch.Generator().manual_seed(SEED + 1)
    ids = torch.randint(low, high, (batch, seq), generator=g)
    if eos is not None:
        ids[:, -1] = eos
    return ids


def _floats(torch, *shape):
    g = torch.Generator().manual_seed(SEED + 2)
    return torch.randn(*shape, generator=g)


def _seq2seq(torch, config_cls, model_cls, **extra):
    """Builder for the BART-like encoder-decoder families (BART, Marian, Blenderbot, Pegasus)."""
    config = config_cls(
        vocab_size=VOCAB, d_model=32, encoder_layers=2, decoder_layers=2,
        encoder_attention_heads=4, decoder_attention_heads=4, encoder_ffn_dim=37, decoder_ffn_dim=37,
        max_position_embeddings=64, pad_token_id=1, bos_token_id=0, eos_token_id=2,
        decoder_start_token_id=extra.pop("decoder_start_token_id", 2), **extra)
    model = model_cls(config)
    inputs = {
        "input_ids": _ids(torch, eos=2),
        "attention_mask": torch.ones(1, SEQ, dtype=torch.long),
        "decoder_input_ids": _ids(torch, seq=6),
    }
    return model, inputs


def build_t5(torch, tf):
    config = tf.T5Config(vocab_size=VOCAB, d_model=32, d_kv=8, d_ff=37, num_layers=2, num_decoder_layers=2,
                         num_heads=4, relative_attention_num_buckets=8, dropout_rate=0.0,
                         pad_token_id=0, eos_token_id=1, decoder_start_token_id=0)
    model = tf.T5ForConditionalGeneration(config)
    inputs = {"input_ids": _ids(torch, eos=1), "attention_mask": torch.ones(1, SEQ, dtype=torch.long),
              "decoder_input_ids": _ids(torch, seq=6)}
    return model, inputs


def build_whisper(torch, tf):
    # The encoder's two convolutions halve the time axis: input frames = 2 * max_source_positions.
    config = tf.WhisperConfig(vocab_size=VOCAB, num_mel_bins=16, encoder_layers=2, decoder_layers=2,
                              d_model=32, encoder_attention_heads=4, decoder_attention_heads=4,
                              encoder_ffn_dim=37, decoder_ffn_dim=37, max_source_positions=30,
                              max_target_positions=40, pad_token_id=0, bos_token_id=1, eos_token_id=2,
                              decoder_start_token_id=1, suppress_tokens=None, begin_suppress_tokens=None)
    model = tf.WhisperForConditionalGeneration(config)
    inputs = {"input_features": _floats(torch, 1, 16, 60), "decoder_input_ids": _ids(torch, seq=6)}
    return model, inputs


def build_bart(torch, tf):
    return _seq2seq(torch, tf.BartConfig, tf.BartForConditionalGeneration)


def build_marian(torch, tf):
    # opus-mt checkpoints: pad = decoder start, shared vocabulary, sinusoidal positions.
    return _seq2seq(torch, tf.MarianConfig, tf.MarianMTModel, decoder_start_token_id=1,
                    decoder_vocab_size=VOCAB)


def build_biogpt(torch, tf):
    config = tf.BioGptConfig(vocab_size=VOCAB, hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
                             intermediate_size=37, max_position_embeddings=64, pad_token_id=1,
                             bos_token_id=0, eos_token_id=2)
    model = tf.BioGptForCausalLM(config)
    inputs = {"input_ids": _ids(torch), "attention_mask": torch.ones(1, SEQ, dtype=torch.long)}
    return model, inputs


def build_blenderbot(torch, tf):
    return _seq2seq(torch, tf.BlenderbotConfig, tf.BlenderbotForConditionalGeneration, decoder_start_token_id=1)


def build_pegasus(torch, tf):
    return _seq2seq(torch, tf.PegasusConfig, tf.PegasusForConditionalGeneration, decoder_start_token_id=0)


def build_layoutlmv3(torch, tf):
    # Spatial embedding width: 4 * coordinate_size + 2 * shape_size == hidden_size.
    config = tf.LayoutLMv3Config(vocab_size=VOCAB, hidden_size=36, num_hidden_layers=2, num_attention_heads=4,
                                 intermediate_size=37, max_position_embeddings=64, coordinate_size=6,
                                 shape_size=6, input_size=32, patch_size=8, num_channels=3,
                                 max_2d_position_embeddings=1024, rel_pos_bins=8, max_rel_pos=16,
                                 rel_2d_pos_bins=8, max_rel_2d_pos=32, pad_token_id=1)
    model = tf.LayoutLMv3Model(config)
    g = torch.Generator().manual_seed(SEED + 3)
    corners = torch.randint(0, 500, (1, SEQ, 2, 2), generator=g)
    bbox = torch.cat([corners.min(dim=2).values, corners.max(dim=2).values], dim=-1)  # x0<=x1, y0<=y1
    inputs = {"input_ids": _ids(torch), "bbox": bbox, "attention_mask": torch.ones(1, SEQ, dtype=torch.long),
              "pixel_values": _floats(torch, 1, 3, 32, 32)}
    return model, inputs


def build_phi3(torch, tf):
    # Phi-4-mini's shape: partial rotary factor 0.75, LongRoPE scaling with short/long factors per
    # rotary frequency, original context smaller than the maximum, tied embeddings.
    head_dim, partial = 8, 0.75
    n_freq = int(head_dim * partial) // 2
    config = tf.Phi3Config(vocab_size=VOCAB, hidden_size=32, intermediate_size=37, num_hidden_layers=2,
                           num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=256,
                           original_max_position_embeddings=64, partial_rotary_factor=partial,
                           rope_scaling={"type": "longrope", "short_factor": [1.0 + i / 10 for i in range(n_freq)],
                                         "long_factor": [2.0 + i / 10 for i in range(n_freq)]},
                           tie_word_embeddings=True, pad_token_id=0, bos_token_id=1, eos_token_id=2)
    model = tf.Phi3ForCausalLM(config)
    inputs = {"input_ids": _ids(torch), "attention_mask": torch.ones(1, SEQ, dtype=torch.long)}
    return model, inputs


def build_grounding_dino(torch, tf):
    backbone = tf.SwinConfig(window_size=7, image_size=98, embed_dim=8, depths=[1, 1, 1, 1],
                             num_heads=[1, 1, 1, 1], out_features=["stage2", "stage3", "stage4"],
                             out_indices=[2, 3, 4])
    text = {"model_type": "bert", "vocab_size": VOCAB, "hidden_size": 8, "num_hidden_layers": 2,
            "num_attention_heads": 2, "intermediate_size": 8, "max_position_embeddings": 16}
    config = tf.GroundingDinoConfig(backbone_config=backbone, text_config=text, use_timm_backbone=False,
                                    use_pretrained_backbone=False, d_model=32, encoder_layers=2,
                                    decoder_layers=2, encoder_attention_heads=2, decoder_attention_heads=2,
                                    encoder_ffn_dim=32, decoder_ffn_dim=32, num_queries=4, num_feature_levels=4,
                                    encoder_n_points=2, decoder_n_points=4, max_text_len=SEQ,
                                    disable_custom_kernels=True)
    model = tf.GroundingDinoForObjectDetection(config)
    inputs = {"pixel_values": _floats(torch, 1, 3, 98, 98), "input_ids": _ids(torch),
              "attention_mask": torch.ones(1, SEQ, dtype=torch.long),
              "pixel_mask": torch.ones(1, 98, 98, dtype=torch.long)}
    return model, inputs


def build_longformer(torch, tf):
    config = tf.LongformerConfig(vocab_size=VOCAB, hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
                                 intermediate_size=37, attention_window=4, max_position_embeddings=64,
                                 pad_token_id=1, bos_token_id=0, eos_token_id=2)
    model = tf.LongformerModel(config)
    global_mask = torch.zeros(1, SEQ, dtype=torch.long)
    global_mask[:, 0] = 1  # the usual [CLS] global attention
    inputs = {"input_ids": _ids(torch), "attention_mask": torch.ones(1, SEQ, dtype=torch.long),
              "global_attention_mask": global_mask}
    return model, inputs


def build_clap(torch, tf):
    # The fused checkpoints (laion/clap-htsat-fused): four mel channels (global + three local
    # crops) and `is_longer` selecting which clips go through the attention fusion.
    audio = dict(window_size=4, num_mel_bins=16, spec_size=64, patch_size=2, patch_stride=2,
                 hidden_size=32, projection_dim=16, depths=[1, 1], num_attention_heads=[2, 2],
                 num_hidden_layers=2, patch_embeds_hidden_size=16, enable_fusion=True, fusion_type="aff_2d",
                 num_classes=4)
    text = dict(vocab_size=VOCAB, hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
                intermediate_size=37, projection_dim=16, max_position_embeddings=64)
    config = tf.ClapConfig(text_config=text, audio_config=audio, projection_dim=16)
    model = tf.ClapModel(config)
    is_longer = torch.tensor([[True], [False]])
    inputs = {"input_ids": _ids(torch, batch=2), "attention_mask": torch.ones(2, SEQ, dtype=torch.long),
              "input_features": _floats(torch, 2, 4, 32, 16), "is_longer": is_longer}
    return model, inputs


# name -> (paper family label, modeling files relative to the transformers package, builder)
FAMILIES = {
    "t5": ("T5 family", ["models/t5/modeling_t5.py"], build_t5),
    "whisper": ("Whisper", ["models/whisper/modeling_whisper.py"], build_whisper),
    "bart": ("BART family", ["models/bart/modeling_bart.py"], build_bart),
    "marian": ("opus-mt (Marian)", ["models/marian/modeling_marian.py"], build_marian),
    "biogpt": ("BioGPT", ["models/biogpt/modeling_biogpt.py"], build_biogpt),
    "blenderbot": ("Blenderbot", ["models/blenderbot/modeling_blenderbot.py"], build_blenderbot),
    "pegasus": ("Pegasus", ["models/pegasus/modeling_pegasus.py"], build_pegasus),
    "layoutlmv3": ("LayoutLMv3", ["models/layoutlmv3/modeling_layoutlmv3.py"], build_layoutlmv3),
    "phi3": ("Phi-4-mini (Phi-3)", ["models/phi3/modeling_phi3.py"], build_phi3),
    "grounding_dino": ("Grounding DINO", ["models/grounding_dino/modeling_grounding_dino.py",
                                          "models/swin/modeling_swin.py", "models/bert/modeling_bert.py"],
                       build_grounding_dino),
    "longformer": ("Longformer", ["models/longformer/modeling_longformer.py"], build_longformer),
    "clap": ("CLAP", ["models/clap/modeling_clap.py"], build_clap),
}


def build(name):
    """(model, inputs) for a family: seeded, tiny, eval mode, no downloads."""
    import torch
    import transformers

    torch.manual_seed(SEED)
    model, inputs = FAMILIES[name][2](torch, transformers)
    return model.eval(), inputs
