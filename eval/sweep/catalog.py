"""What the sweep builds: every model class transformers, timm and diffusers can construct from a
small configuration, with no downloads, and the inputs of one forward.

Entries are strings ``LIB:NAME`` (``transformers:BertModel``, ``timm:resnet18``,
``diffusers:UNet2DModel``). ``entries(lib)`` lists them (run in the sweep environment);
``build(entry)`` returns ``(model, inputs, info)``: the model in eval mode, a dict of keyword
arguments for ``forward`` and a dict saying how the configuration was shrunk.

transformers: for every ``model_type`` of the auto configuration mapping, the base model
(``MODEL_MAPPING``) and the family's main task heads (causal LM, seq2seq LM, masked LM, sequence,
image and audio classification, CTC; at most ``MAX_HEADS`` of them). The family's config class is
built with its defaults and shrunk *generically* (``shrink``): depths to ``LAYERS``, widths to
``HIDDEN`` with ``HEADS`` heads, vocabularies to ``VOCAB``, image and audio sizes down, expert
counts down, in every sub-config too. Nothing here names a model family: a class that does not
build or run on the generic configuration is skipped with the error as its reason, and the report
lists the reasons. When the small configuration fails, the family's default widths are tried with
only the depths shrunk (``level`` says which worked).

timm: every module of ``timm.models`` that registers architectures, at its smallest variant (the
registered name with the fewest parameters among the first few whose name says tiny/small/...),
``pretrained=False``, at the variant's default input size.

diffusers: the UNet, VAE, transformer and ControlNet classes with small configurations written
out in ``DIFFUSERS`` (these classes take their sizes as constructor arguments; there is no
default small configuration to shrink).
"""

from __future__ import annotations

import inspect
import re

SEED = 0
LAYERS = 2
HIDDEN = 64
HEADS = 4
HEAD_DIM = HIDDEN // HEADS
FFN = 128
VOCAB = 256
SEQ = 12
BATCH = 2
IMAGE = 64
AUDIO_SAMPLES = 8000  # 24 frames after the feature encoder: train mode masks spans of 10 (mask_time_length)
MAX_HEADS = 3
# The inputs transformers_inputs can fill (the rest of a forward's optional arguments stay None).
GENERIC_INPUTS = {"input_ids", "attention_mask", "decoder_input_ids", "pixel_values", "input_values",
                  "input_features", "inputs_embeds", "bbox", "x", "sample", "timestep", "hidden_states",
                  "encoder_hidden_states"}

# Head mappings of transformers' auto classes, in the order "main task head" is chosen.
HEAD_MAPPINGS = [
    "MODEL_FOR_CAUSAL_LM_MAPPING_NAMES",
    "MODEL_FOR_SEQ_TO_SEQ_CAUSAL_LM_MAPPING_NAMES",
    "MODEL_FOR_MASKED_LM_MAPPING_NAMES",
    "MODEL_FOR_IMAGE_CLASSIFICATION_MAPPING_NAMES",
    "MODEL_FOR_CTC_MAPPING_NAMES",
    "MODEL_FOR_AUDIO_CLASSIFICATION_MAPPING_NAMES",
    "MODEL_FOR_SEQUENCE_CLASSIFICATION_MAPPING_NAMES",
]

# Config attributes by what they size (set when the config has them; lists are shrunk per item).
DEPTH_KEYS = {"num_hidden_layers", "num_layers", "n_layer", "n_layers", "num_decoder_layers", "encoder_layers",
              "decoder_layers", "num_encoder_layers", "num_blocks", "depth", "text_layers", "vision_layers",
              "num_text_layers", "num_vision_layers", "num_fusion_layers", "num_global_layers",
              "num_cross_layers", "num_self_layers", "audio_layers", "n_text_layer", "n_audio_layer"}
DEPTH_LIST_KEYS = {"depths", "num_layers_per_block", "block_layers", "stage_depths", "num_blocks_per_stage"}
WIDTH_KEYS = {"hidden_size", "d_model", "n_embd", "embed_dim", "dim", "hidden_dim", "model_dim", "d_embed",
              "word_embed_proj_dim", "embedding_size", "projection_dim", "text_embed_dim", "vision_embed_dim"}
HEAD_KEYS = {"num_attention_heads", "n_head", "n_heads", "num_heads", "encoder_attention_heads",
             "decoder_attention_heads", "num_attention_heads_per_layer"}
KV_HEAD_KEYS = {"num_key_value_heads", "num_kv_heads", "n_kv_heads", "multi_query_group_num"}
FFN_KEYS = {"intermediate_size", "ffn_dim", "encoder_ffn_dim", "decoder_ffn_dim", "d_ff", "n_inner",
            "intermediate_dim", "mlp_dim", "ffn_hidden_size", "moe_intermediate_size",
            "shared_expert_intermediate_size", "expert_intermediate_size"}
HEAD_DIM_KEYS = {"head_dim", "d_kv", "attention_head_size", "kv_channels", "qk_nope_head_dim", "v_head_dim"}
VOCAB_KEYS = {"vocab_size", "decoder_vocab_size", "target_vocab_size", "text_vocab_size"}
IMAGE_KEYS = {"image_size", "img_size", "input_size", "crop_size"}
EXPERT_KEYS = {"num_experts", "num_local_experts", "n_routed_experts", "moe_num_experts"}
TOPK_KEYS = {"num_experts_per_tok", "moe_top_k", "top_k", "num_selected_experts"}
# Token ids must stay inside the shrunk vocabulary.
TOKEN_ID_KEYS = re.compile(r"^(pad|bos|eos|sep|cls|mask|unk|decoder_start|image|video|audio|.*)_token_id$")


def _small_int_list(v, n):
    return [n] * len(v) if isinstance(v, (list, tuple)) else v


def shrink(config, level="small"):
    """Shrinks a transformers config in place (and its sub-configs); returns the keys it set.

    ``small``: depths, widths, heads, vocabularies, image sizes and expert counts;
    ``depth``: only depths, vocabularies and expert counts (the family's own widths).
    """
    changed = []

    def put(obj, key, value):
        try:
            setattr(obj, key, value)
            changed.append(key)
        except Exception:  # noqa: BLE001 - a read-only property; leave it
            pass

    def visit(obj, seen):
        if id(obj) in seen:
            return
        seen.add(id(obj))
        attrs = dict(vars(obj))
        for key, val in attrs.items():
            if hasattr(val, "to_dict") and hasattr(val, "model_type") and not isinstance(val, type):
                visit(val, seen)  # a sub-config (text_config, vision_config, ...)
                continue
            if isinstance(val, bool):
                continue
            if key in DEPTH_KEYS and isinstance(val, int) and val > LAYERS:
                put(obj, key, LAYERS)
            elif key in DEPTH_LIST_KEYS and isinstance(val, (list, tuple)) and val and all(isinstance(x, int) for x in val):
                put(obj, key, type(val)(min(x, 1) if x else 0 for x in val))
            elif key in VOCAB_KEYS and isinstance(val, int) and val > VOCAB:
                put(obj, key, VOCAB)
            elif key in EXPERT_KEYS and isinstance(val, int) and val > 4:
                put(obj, key, 4)
            elif key in TOPK_KEYS and isinstance(val, int) and val > 2:
                put(obj, key, 2)
            elif key in ("max_position_embeddings", "max_seq_len", "n_positions") and isinstance(val, int) and val > 512:
                put(obj, key, 512)
            elif level == "small":
                if key in WIDTH_KEYS and isinstance(val, int) and val > HIDDEN:
                    put(obj, key, HIDDEN)
                elif key in HEAD_KEYS and isinstance(val, int) and val > HEADS:
                    put(obj, key, HEADS)
                elif key in HEAD_KEYS and isinstance(val, (list, tuple)):
                    put(obj, key, _small_int_list(val, HEADS))
                elif key in KV_HEAD_KEYS and isinstance(val, int) and val > 2:
                    put(obj, key, 2)
                elif key in FFN_KEYS and isinstance(val, int) and val > FFN:
                    put(obj, key, FFN)
                elif key in HEAD_DIM_KEYS and isinstance(val, int) and val > HEAD_DIM:
                    put(obj, key, HEAD_DIM)
                elif key in IMAGE_KEYS and isinstance(val, int) and val > IMAGE:
                    put(obj, key, IMAGE)
                elif key in ("max_source_positions",) and isinstance(val, int) and val > 64:
                    put(obj, key, 64)
        for key, val in list(vars(obj).items()):
            if isinstance(val, int) and not isinstance(val, bool) and TOKEN_ID_KEYS.match(key) and val >= VOCAB:
                put(obj, key, VOCAB - 1 - (hash(key) % 8))

    visit(config, set())
    for attr in ("use_timm_backbone", "use_pretrained_backbone"):
        if hasattr(config, attr):
            setattr(config, attr, False)
    if getattr(config, "pad_token_id", None) is None and hasattr(config, "vocab_size"):
        try:
            config.pad_token_id = 0  # sequence classification heads need one for batches > 1
        except Exception:  # noqa: BLE001
            pass
    return sorted(set(changed))


# ---------------------------------------------------------------------------------------------
# transformers


def transformers_entries():
    from transformers.models.auto import configuration_auto, modeling_auto

    out = []
    for model_type in sorted(configuration_auto.CONFIG_MAPPING_NAMES):
        names = []
        base = modeling_auto.MODEL_MAPPING_NAMES.get(model_type)
        if isinstance(base, (list, tuple)):
            base = base[0] if base else None
        if base:
            names.append(base)
        heads = []
        for mapping in HEAD_MAPPINGS:
            name = getattr(modeling_auto, mapping, {}).get(model_type)
            if isinstance(name, (list, tuple)):
                name = name[0] if name else None
            if name and name not in names and name not in heads:
                heads.append(name)
        names.extend(heads[:MAX_HEADS])
        out.extend("transformers:%s:%s" % (model_type, n) for n in names)
    return out


def _gen(torch, offset):
    return torch.Generator().manual_seed(SEED + offset)


def _sub(config, *names):
    for n in names:
        sub = getattr(config, n, None)
        if sub is not None:
            return sub
    return config


def transformers_inputs(torch, model, config, multimodal=False):
    """Keyword arguments for ``model.forward``: the main input and the required parameters,
    filled by name; ``multimodal`` also fills text and image inputs the forward merely accepts
    (a CLIP-like model needs both, though neither is required)."""
    sig = inspect.signature(model.forward)
    params = sig.parameters
    main = getattr(model, "main_input_name", "input_ids")
    text = _sub(config, "text_config", "decoder")
    vocab = getattr(text, "vocab_size", None) or getattr(config, "vocab_size", None) or VOCAB
    vision = _sub(config, "vision_config", "backbone_config")
    size = getattr(vision, "image_size", None) or getattr(config, "image_size", None) or IMAGE
    if isinstance(size, (list, tuple)):
        size = size[0]
    if isinstance(size, dict):
        size = size.get("height", IMAGE)
    channels = getattr(vision, "num_channels", None) or getattr(config, "num_channels", None) or 3
    inputs = {}

    def ids(seq=SEQ, offset=1):
        return torch.randint(3, max(4, min(vocab, VOCAB)), (BATCH, seq), generator=_gen(torch, offset))

    wanted = [main] + [n for n, p in params.items() if p.default is p.empty and p.kind in
                       (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) and n != main]
    if multimodal:
        wanted += [n for n in ("input_ids", "pixel_values") if n in params and n not in wanted]
    for name in wanted:
        if name in inputs or name not in params:
            continue
        if name == "input_ids":
            inputs[name] = ids()
            if "attention_mask" in params:
                inputs["attention_mask"] = torch.ones(BATCH, SEQ, dtype=torch.long)
        elif name == "decoder_input_ids":
            inputs[name] = ids(SEQ // 2, 2)
        elif name == "pixel_values":
            inputs[name] = torch.randn(BATCH, channels, size, size, generator=_gen(torch, 3))
        elif name == "input_values":
            inputs[name] = torch.randn(BATCH, AUDIO_SAMPLES, generator=_gen(torch, 4))
        elif name == "input_features":
            mels = getattr(config, "num_mel_bins", None) or getattr(config, "feature_size", None) or 80
            frames = 2 * (getattr(config, "max_source_positions", None) or 32)
            inputs[name] = torch.randn(BATCH, mels, min(frames, 3000), generator=_gen(torch, 5))
        elif name == "inputs_embeds":
            width = getattr(text, "hidden_size", None) or HIDDEN
            inputs[name] = torch.randn(BATCH, SEQ, width, generator=_gen(torch, 6))
        elif name in ("bbox",):
            corners = torch.randint(0, 500, (BATCH, SEQ, 2, 2), generator=_gen(torch, 7))
            inputs[name] = torch.cat([corners.min(dim=2).values, corners.max(dim=2).values], dim=-1)
        else:
            raise ValueError("no generic input for required parameter %r" % name)
    needs_decoder = getattr(config, "is_encoder_decoder", False) and "decoder_input_ids" in params
    if needs_decoder and "decoder_input_ids" not in inputs and "labels" not in inputs:
        inputs["decoder_input_ids"] = ids(SEQ // 2, 2)
    return inputs


def build_transformers(torch, entry):
    import transformers
    from transformers.models.auto import configuration_auto

    _, model_type, cls_name = entry.split(":", 2)
    config_cls = getattr(transformers, configuration_auto.CONFIG_MAPPING_NAMES[model_type])
    model_cls = getattr(transformers, cls_name)
    errors = []
    for level, multimodal in (("small", False), ("small", True), ("depth", False), ("depth", True)):
        try:
            config = config_cls()
            changed = shrink(config, level)
            if hasattr(config, "_attn_implementation"):
                config._attn_implementation = "eager"
            torch.manual_seed(SEED)
            model = model_cls(config).eval()
            inputs = transformers_inputs(torch, model, config, multimodal)
            with torch.no_grad():
                model(**inputs)  # the configuration must run eagerly before Dynamo is asked
            return model, inputs, {"level": level, "multimodal": multimodal, "shrunk": changed,
                                   "config": type(config).__name__}
        except Exception as e:  # noqa: BLE001 - the next level, then the reason
            text = str(e).strip().splitlines()[0][:200] if str(e).strip() else ""
            errors.append("%s%s: %s: %s" % (level, "+multimodal" if multimodal else "", type(e).__name__, text))
    raise BuildError("; ".join(errors))


# ---------------------------------------------------------------------------------------------
# timm

SMALL_WORDS = ("atto", "femto", "pico", "nano", "tiny", "xxs", "xs", "small", "mini", "lite", "s", "18", "b0", "t")


def timm_entries():
    import timm
    from timm.models import _registry

    by_module = {}
    for name in timm.list_models():
        module = _registry._model_to_module.get(name)
        if module:
            by_module.setdefault(module, []).append(name)

    def rank(name):
        parts = re.split(r"[_\-.]", name)
        for i, w in enumerate(SMALL_WORDS):
            if w in parts or any(p.startswith(w) and len(w) > 2 for p in parts):
                return (i, len(name), name)
        return (len(SMALL_WORDS), len(name), name)

    out = []
    for module in sorted(by_module):
        best = sorted(by_module[module], key=rank)[0]
        out.append("timm:%s:%s" % (module, best))
    return out


def build_timm(torch, entry):
    import timm

    _, module, name = entry.split(":", 2)
    torch.manual_seed(SEED)
    model = timm.create_model(name, pretrained=False).eval()
    cfg = getattr(model, "pretrained_cfg", None) or {}
    c, h, w = cfg.get("input_size", (3, 224, 224))
    inputs = {"x": torch.randn(1, c, h, w, generator=_gen(torch, 3))}
    with torch.no_grad():
        model(**inputs)
    return model, inputs, {"level": "default", "variant": name, "input_size": [c, h, w]}


# ---------------------------------------------------------------------------------------------
# diffusers: small configurations (constructor arguments) and inputs per class

def _unet_inputs(torch, channels, size, cross=None, cond_seq=4, added=None):
    def make():
        g = _gen(torch, 3)
        d = {"sample": torch.randn(1, channels, size, size, generator=g), "timestep": torch.tensor([10])}
        if cross:
            d["encoder_hidden_states"] = torch.randn(1, cond_seq, cross, generator=g)
        if added:
            d.update(added(g))
        return d
    return make


DIFFUSERS = {
    "UNet2DModel": (dict(sample_size=32, in_channels=3, out_channels=3, layers_per_block=1,
                         block_out_channels=(32, 64), norm_num_groups=8,
                         down_block_types=("DownBlock2D", "AttnDownBlock2D"),
                         up_block_types=("AttnUpBlock2D", "UpBlock2D"), attention_head_dim=8),
                    lambda torch: _unet_inputs(torch, 3, 32)()),
    "UNet2DConditionModel": (dict(sample_size=32, in_channels=4, out_channels=4, layers_per_block=1,
                                  block_out_channels=(32, 64), norm_num_groups=8, cross_attention_dim=32,
                                  attention_head_dim=8,
                                  down_block_types=("CrossAttnDownBlock2D", "DownBlock2D"),
                                  up_block_types=("UpBlock2D", "CrossAttnUpBlock2D")),
                             lambda torch: _unet_inputs(torch, 4, 32, cross=32)()),
    "UNet1DModel": (dict(sample_size=64, in_channels=2, out_channels=2, block_out_channels=(32, 32, 64),
                         extra_in_channels=16, down_block_types=("DownBlock1DNoSkip", "DownBlock1D", "AttnDownBlock1D"),
                         up_block_types=("AttnUpBlock1D", "UpBlock1D", "UpBlock1DNoSkip"), mid_block_type="UNetMidBlock1D",
                         out_block_type=None, use_timestep_embedding=False, time_embedding_type="fourier",
                         flip_sin_to_cos=True),
                    lambda torch: {"sample": torch.randn(1, 2, 64, generator=_gen(torch, 3)), "timestep": torch.tensor([10])}),
    "UNet3DConditionModel": (dict(sample_size=16, in_channels=4, out_channels=4, layers_per_block=1,
                                  block_out_channels=(32, 64), norm_num_groups=8, cross_attention_dim=32,
                                  attention_head_dim=8,
                                  down_block_types=("CrossAttnDownBlock3D", "DownBlock3D"),
                                  up_block_types=("UpBlock3D", "CrossAttnUpBlock3D")),
                             lambda torch: {"sample": torch.randn(1, 4, 2, 16, 16, generator=_gen(torch, 3)),
                                            "timestep": torch.tensor([10]),
                                            "encoder_hidden_states": torch.randn(1, 4, 32, generator=_gen(torch, 4))}),
    "AutoencoderKL": (dict(in_channels=3, out_channels=3, block_out_channels=(32, 64), latent_channels=4,
                           norm_num_groups=8, layers_per_block=1,
                           down_block_types=("DownEncoderBlock2D", "DownEncoderBlock2D"),
                           up_block_types=("UpDecoderBlock2D", "UpDecoderBlock2D")),
                      lambda torch: {"sample": torch.randn(1, 3, 32, 32, generator=_gen(torch, 3))}),
    "VQModel": (dict(in_channels=3, out_channels=3, block_out_channels=(32, 64), latent_channels=4,
                     norm_num_groups=8, layers_per_block=1, num_vq_embeddings=32,
                     down_block_types=("DownEncoderBlock2D", "DownEncoderBlock2D"),
                     up_block_types=("UpDecoderBlock2D", "UpDecoderBlock2D")),
                lambda torch: {"sample": torch.randn(1, 3, 32, 32, generator=_gen(torch, 3))}),
    "AutoencoderTiny": (dict(in_channels=3, out_channels=3, encoder_block_out_channels=(16, 16),
                             decoder_block_out_channels=(16, 16), num_encoder_blocks=(1, 1),
                             num_decoder_blocks=(1, 1), latent_channels=4),
                        lambda torch: {"sample": torch.randn(1, 3, 32, 32, generator=_gen(torch, 3))}),
    "ControlNetModel": (dict(in_channels=4, layers_per_block=1, block_out_channels=(32, 64), norm_num_groups=8,
                             cross_attention_dim=32, attention_head_dim=8,
                             down_block_types=("CrossAttnDownBlock2D", "DownBlock2D"),
                             conditioning_embedding_out_channels=(8, 16)),
                        lambda torch: {**_unet_inputs(torch, 4, 32, cross=32)(),
                                       "controlnet_cond": torch.randn(1, 3, 64, 64, generator=_gen(torch, 5))}),
    "Transformer2DModel": (dict(num_attention_heads=2, attention_head_dim=16, in_channels=4, num_layers=1,
                                sample_size=8, patch_size=2, norm_type="ada_norm_zero", num_embeds_ada_norm=1000),
                           lambda torch: {"hidden_states": torch.randn(1, 4, 8, 8, generator=_gen(torch, 3)),
                                          "timestep": torch.tensor([10]),
                                          "class_labels": torch.tensor([1])}),
    "DiTTransformer2DModel": (dict(num_attention_heads=2, attention_head_dim=16, in_channels=4, num_layers=1,
                                   sample_size=8, patch_size=2),
                              lambda torch: {"hidden_states": torch.randn(1, 4, 8, 8, generator=_gen(torch, 3)),
                                             "timestep": torch.tensor([10]), "class_labels": torch.tensor([1])}),
    "PixArtTransformer2DModel": (dict(num_attention_heads=2, attention_head_dim=16, in_channels=4, num_layers=1,
                                      sample_size=8, patch_size=2, cross_attention_dim=32, caption_channels=32),
                                 lambda torch: {"hidden_states": torch.randn(1, 4, 8, 8, generator=_gen(torch, 3)),
                                                "timestep": torch.tensor([10]),
                                                "encoder_hidden_states": torch.randn(1, 4, 32, generator=_gen(torch, 4)),
                                                "added_cond_kwargs": {"resolution": None, "aspect_ratio": None}}),
    "SD3Transformer2DModel": (dict(sample_size=8, patch_size=2, in_channels=4, num_layers=1, attention_head_dim=16,
                                   num_attention_heads=2, joint_attention_dim=32, caption_projection_dim=32,
                                   pooled_projection_dim=16, out_channels=4, pos_embed_max_size=16),
                              lambda torch: {"hidden_states": torch.randn(1, 4, 8, 8, generator=_gen(torch, 3)),
                                             "encoder_hidden_states": torch.randn(1, 4, 32, generator=_gen(torch, 4)),
                                             "pooled_projections": torch.randn(1, 16, generator=_gen(torch, 5)),
                                             "timestep": torch.tensor([10])}),
    "FluxTransformer2DModel": (dict(patch_size=1, in_channels=16, num_layers=1, num_single_layers=1,
                                    attention_head_dim=16, num_attention_heads=2, joint_attention_dim=32,
                                    pooled_projection_dim=16, axes_dims_rope=(4, 6, 6)),
                               lambda torch: {"hidden_states": torch.randn(1, 16, 16, generator=_gen(torch, 3)),
                                              "encoder_hidden_states": torch.randn(1, 4, 32, generator=_gen(torch, 4)),
                                              "pooled_projections": torch.randn(1, 16, generator=_gen(torch, 5)),
                                              "timestep": torch.tensor([1.0]),
                                              "img_ids": torch.zeros(16, 3), "txt_ids": torch.zeros(4, 3)}),
    "PriorTransformer": (dict(num_attention_heads=2, attention_head_dim=16, num_layers=1, embedding_dim=16,
                              num_embeddings=4, additional_embeddings=4),
                         lambda torch: {"hidden_states": torch.randn(1, 16, generator=_gen(torch, 3)),
                                        "timestep": 10,
                                        "proj_embedding": torch.randn(1, 16, generator=_gen(torch, 4)),
                                        "encoder_hidden_states": torch.randn(1, 4, 16, generator=_gen(torch, 5))}),
    "UVit2DModel": (dict(hidden_size=32, use_bias=False, hidden_dropout=0.0, cond_embed_dim=16,
                         micro_cond_encode_dim=2, micro_cond_embed_dim=10, encoder_hidden_size=16, vocab_size=32,
                         codebook_size=32, in_channels=16, block_out_channels=16, num_res_blocks=1,
                         downsample=True, upsample=True, block_num_heads=1, num_hidden_layers=1,
                         num_attention_heads=1, attention_dropout=0.0, intermediate_size=32,
                         layer_norm_eps=1e-6, ln_elementwise_affine=True, sample_size=4),
                    lambda torch: {"input_ids": torch.randint(0, 32, (1, 4, 4), generator=_gen(torch, 3)),
                                   "encoder_hidden_states": torch.randn(1, 4, 16, generator=_gen(torch, 4)),
                                   "pooled_text_emb": torch.randn(1, 16, generator=_gen(torch, 5)),
                                   "micro_conds": torch.randn(1, 5, generator=_gen(torch, 6))}),
}


def diffusers_entries():
    import diffusers

    return ["diffusers:%s:%s" % (name, name) for name in sorted(DIFFUSERS) if hasattr(diffusers, name)]


def build_diffusers(torch, entry):
    import diffusers

    _, name, _ = entry.split(":", 2)
    kwargs, make_inputs = DIFFUSERS[name]
    torch.manual_seed(SEED)
    model = getattr(diffusers, name)(**kwargs).eval()
    inputs = make_inputs(torch)
    with torch.no_grad():
        model(**inputs)
    return model, inputs, {"level": "table"}


# ---------------------------------------------------------------------------------------------


class BuildError(Exception):
    """The class could not be built or run eagerly on the sweep's configuration."""


def entries(lib):
    if lib in MORE_LIBS:
        return MORE_LIBS[lib]().entries()
    return {"transformers": transformers_entries, "timm": timm_entries, "diffusers": diffusers_entries}[lib]()


def _catalog_pyg():
    import catalog_pyg

    return catalog_pyg


def _catalog_torchvision():
    import catalog_torchvision

    return catalog_torchvision


# Libraries whose entries live in a module of their own (catalog_LIB.py: entries(), build(), model_class())
MORE_LIBS = {"torch_geometric": _catalog_pyg, "torchvision": _catalog_torchvision}


def model_class(torch, entry):
    """The class of an entry's model and the methods it compiles, None for the module itself
    (compare.py's compile roots in explicit mode)."""
    lib, a, b = entry.split(":", 2)
    if lib in MORE_LIBS:
        return MORE_LIBS[lib]().model_class(torch, entry, SEED)
    if lib == "transformers":
        import transformers
        return getattr(transformers, b), None
    if lib == "timm":
        import timm
        return type(timm.create_model(b, pretrained=False)), None
    import diffusers
    return getattr(diffusers, b), None


def build(torch, entry):
    lib = entry.split(":", 1)[0]
    if lib in MORE_LIBS:
        def builder(torch, entry):
            return MORE_LIBS[lib]().build(torch, entry, SEED)
    else:
        builder = {"transformers": build_transformers, "timm": build_timm, "diffusers": build_diffusers}[lib]
    try:
        return builder(torch, entry)
    except BuildError:
        raise
    except Exception as e:  # noqa: BLE001 - one reason, whatever failed
        raise BuildError("%s: %s" % (type(e).__name__, (str(e).strip().splitlines() or [""])[0][:300])) from e


def package_dir(lib):
    import importlib
    import os

    return os.path.dirname(os.path.realpath(importlib.import_module(lib).__file__))
