"""torchvision's entries for the sweep: the smallest registered model of each model module
(classification, detection, segmentation, video, optical flow, quantizable), built with
``weights=None`` (and no backbone weights: nothing is downloaded) at a small input size.

Detection models get targets as well as images, so that train mode runs its loss path; in eval
mode torchvision only checks them. Batch norm in train mode wants more than one value per channel,
hence batches of two where a model pools to 1x1.
"""
import inspect
import re

SMALL_WORDS = ("tiny", "small", "_t", "x0_5", "0_5", "400mf", "mobilenet", "18", "b0", "11", "_s")


def _rank(name):
    for i, w in enumerate(SMALL_WORDS):
        if w in name:
            return (i, len(name), name)
    return (len(SMALL_WORDS), len(name), name)


def _kind(module):
    for k in ("detection", "segmentation", "video", "optical_flow", "quantization"):
        if ".%s." % k in module:
            return k
    return "classification"


def entries():
    import torchvision.models as M

    by_module = {}
    for name in M.list_models():
        by_module.setdefault(M.get_model_builder(name).__module__, []).append(name)
    out = []
    for module in sorted(by_module):
        best = sorted(by_module[module], key=_rank)[0]
        out.append("torchvision:%s:%s" % (re.sub(r"^torchvision\.models\.", "", module), best))
    return out


def _gen(torch, offset, seed):
    return torch.Generator().manual_seed(seed + offset)


def _target(torch, g, size):
    h, w = size
    xy = torch.rand(2, 2, generator=g) * torch.tensor([w / 2, h / 2])
    boxes = torch.cat([xy, xy + torch.tensor([w / 3, h / 3])], 1)
    return {"boxes": boxes, "labels": torch.tensor([1, 2]),
            "masks": (torch.rand(2, h, w, generator=g) > 0.5).to(torch.uint8),
            "keypoints": torch.cat([torch.rand(2, 17, 2, generator=g) * torch.tensor([w, h]),
                                    torch.ones(2, 17, 1)], 2)}


def build(torch, entry, seed):
    import torchvision.models as M

    _, module, name = entry.split(":", 2)
    kind = _kind("." + module + ".")
    torch.manual_seed(seed)
    g = _gen(torch, 3, seed)
    if kind == "detection":
        try:
            model = M.get_model(name, weights=None, weights_backbone=None, min_size=128, max_size=160)
        except TypeError:  # SSD's builders fix the size themselves
            model = M.get_model(name, weights=None, weights_backbone=None)
        sizes = [(128, 160), (112, 128)]
        inputs = {"images": [torch.rand(3, h, w, generator=g) for h, w in sizes],
                  "targets": [_target(torch, g, s) for s in sizes]}
    elif kind == "segmentation":
        model = M.get_model(name, weights=None, weights_backbone=None)
        inputs = {"x": torch.randn(2, 3, 96, 96, generator=g)}
    elif kind == "video":
        model = M.get_model(name, weights=None)
        full = name.startswith(("mvit", "s3d"))  # fixed positional tables / pooling windows
        t, hw = (16, 224) if full else (8, 112)
        inputs = {"x": torch.randn(1, 3, t, hw, hw, generator=g)}
    elif kind == "optical_flow":
        model = M.get_model(name, weights=None)
        inputs = {"image1": torch.randn(1, 3, 128, 128, generator=g), "image2": torch.randn(1, 3, 128, 128, generator=g),
                  "num_flow_updates": 2}
    else:
        extra = {"quantize": False} if kind == "quantization" else {}
        model = M.get_model(name, weights=None, **extra)
        inputs = {"x": torch.randn(2, 3, 224, 224, generator=g)}
    if "x" in inputs:  # the image's parameter is `x` in most models, `input` in some (LRASPP)
        inputs = {next(iter(inspect.signature(model.forward).parameters)): inputs["x"]}
    model = model.eval()
    with torch.no_grad():
        model(**inputs)
    return model, inputs, {"level": "default", "variant": name}


def model_class(torch, entry, seed):
    import torchvision.models as M

    _, module, name = entry.split(":", 2)
    kind = _kind("." + module + ".")
    kwargs = {"weights": None}
    if kind in ("detection", "segmentation"):
        kwargs["weights_backbone"] = None
    if kind == "quantization":
        kwargs["quantize"] = False
    return type(M.get_model(name, **kwargs)), None
