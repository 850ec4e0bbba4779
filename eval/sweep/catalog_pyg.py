"""torch_geometric's entries for the sweep: its message-passing layers, models, pooling, aggregation
and normalisation modules, each built small on a random graph of a few nodes (no dataset, no download).

Modules whose forward takes positional arguments only (DeepGCNLayer, GroupAddRev) are left out:
the worker calls ``model(**inputs)``.

A graph library's modules are called with graphs, not with one tensor, so each entry names its
constructor and its forward's inputs (keyword arguments, as the worker calls ``model(**inputs)``).
Layers that need an optional compiled extension (torch_cluster, torch_sparse, torch_spline_conv,
pyg_lib, cugraph) fail to build or run and are recorded as skipped, with the reason.
"""

N = 8  # nodes
F = 8  # features
E = 20  # edges


def _graph(torch):
    g = torch.Generator().manual_seed(7)
    src = torch.randint(0, N, (E,), generator=g)
    dst = (src + 1 + torch.randint(0, N - 1, (E,), generator=g)) % N  # no self-loops
    return {
        "x": torch.randn(N, F, generator=g),
        "edge_index": torch.stack([src, dst]),
        "edge_attr": torch.randn(E, 3, generator=g),
        "edge_weight": torch.rand(E, generator=g),
        "edge_type": torch.randint(0, 3, (E,), generator=g),
        "pos": torch.randn(N, 3, generator=g),
        "normal": torch.nn.functional.normalize(torch.randn(N, 3, generator=g), dim=-1),
        # two graphs of four nodes each: pooling, readout and norms see a real batch vector
        "batch": torch.tensor([0, 0, 0, 0, 1, 1, 1, 1]),
    }


def _pick(*names, **extra):
    """Inputs: the named fields of the random graph, plus computed ones."""
    def make(torch):
        g = _graph(torch)
        d = {n: g[n] for n in names}
        for k, f in extra.items():
            d[k] = f(torch, g)
        return d
    return make


def _seq(torch, i, o):
    return torch.nn.Sequential(torch.nn.Linear(i, o), torch.nn.ReLU(), torch.nn.Linear(o, o))


XE = _pick("x", "edge_index")
XEA = _pick("x", "edge_index", "edge_attr")
XPE = _pick("x", "pos", "edge_index")
XB = _pick("x", "batch")
HETERO_META = (["a", "b"], [("a", "to", "b"), ("b", "to", "a")])


def _hetero(torch, g):
    return {"x_dict": {"a": g["x"], "b": g["x"][:5]},
            "edge_index_dict": {("a", "to", "b"): g["edge_index"] % 5 * torch.tensor([[1], [1]]),
                                ("b", "to", "a"): g["edge_index"] % 5}}


def _hetero_inputs(torch):
    return _hetero(torch, _graph(torch))


CONV = {
    "SimpleConv": (lambda t, C: C.SimpleConv(), XE),
    "GCNConv": (lambda t, C: C.GCNConv(F, F), _pick("x", "edge_index", "edge_weight")),
    "ChebConv": (lambda t, C: C.ChebConv(F, F, K=2), XE),
    "SAGEConv": (lambda t, C: C.SAGEConv(F, F), XE),
    "GraphConv": (lambda t, C: C.GraphConv(F, F), XE),
    "GravNetConv": (lambda t, C: C.GravNetConv(F, F, space_dimensions=2, propagate_dimensions=4, k=3), XB),
    "GatedGraphConv": (lambda t, C: C.GatedGraphConv(F, num_layers=2), XE),
    "ResGatedGraphConv": (lambda t, C: C.ResGatedGraphConv(F, F), XE),
    "GATConv": (lambda t, C: C.GATConv(F, F, heads=2, edge_dim=3), XEA),
    "GATv2Conv": (lambda t, C: C.GATv2Conv(F, F, heads=2), XE),
    "TransformerConv": (lambda t, C: C.TransformerConv(F, F, heads=2, edge_dim=3), XEA),
    "AGNNConv": (lambda t, C: C.AGNNConv(), XE),
    "TAGConv": (lambda t, C: C.TAGConv(F, F, K=2), XE),
    "GINConv": (lambda t, C: C.GINConv(_seq(t, F, F)), XE),
    "GINEConv": (lambda t, C: C.GINEConv(_seq(t, F, F), edge_dim=3), XEA),
    "ARMAConv": (lambda t, C: C.ARMAConv(F, F, num_stacks=2, num_layers=2), XE),
    "SGConv": (lambda t, C: C.SGConv(F, F, K=2), XE),
    "SSGConv": (lambda t, C: C.SSGConv(F, F, alpha=0.1, K=2), XE),
    "APPNP": (lambda t, C: C.APPNP(K=2, alpha=0.1), XE),
    "MFConv": (lambda t, C: C.MFConv(F, F), XE),
    "RGCNConv": (lambda t, C: C.RGCNConv(F, F, num_relations=3), _pick("x", "edge_index", "edge_type")),
    "FastRGCNConv": (lambda t, C: C.FastRGCNConv(F, F, num_relations=3), _pick("x", "edge_index", "edge_type")),
    "RGATConv": (lambda t, C: C.RGATConv(F, F, num_relations=3), _pick("x", "edge_index", "edge_type")),
    "SignedConv": (lambda t, C: C.SignedConv(F, F, first_aggr=True),
                   _pick("x", pos_edge_index=lambda t, g: g["edge_index"][:, :10],
                         neg_edge_index=lambda t, g: g["edge_index"][:, 10:])),
    "DNAConv": (lambda t, C: C.DNAConv(F, heads=2), _pick("edge_index", x=lambda t, g: t.stack([g["x"], g["x"]], 1))),
    "PointNetConv": (lambda t, C: C.PointNetConv(_seq(t, F + 3, F)), XPE),
    "GMMConv": (lambda t, C: C.GMMConv(F, F, dim=3, kernel_size=2), XEA),
    "SplineConv": (lambda t, C: C.SplineConv(F, F, dim=3, kernel_size=2),
                   _pick("x", "edge_index", edge_attr=lambda t, g: g["edge_attr"].sigmoid())),
    "NNConv": (lambda t, C: C.NNConv(F, F, _seq(t, 3, F * F)), XEA),
    "CGConv": (lambda t, C: C.CGConv(F, dim=3), XEA),
    "EdgeConv": (lambda t, C: C.EdgeConv(_seq(t, 2 * F, F)), XE),
    "DynamicEdgeConv": (lambda t, C: C.DynamicEdgeConv(_seq(t, 2 * F, F), k=3), XB),
    "PPFConv": (lambda t, C: C.PPFConv(_seq(t, F + 4, F)), _pick("x", "pos", "normal", "edge_index")),
    "FeaStConv": (lambda t, C: C.FeaStConv(F, F, heads=2), XE),
    "PointTransformerConv": (lambda t, C: C.PointTransformerConv(F, F), XPE),
    "HypergraphConv": (lambda t, C: C.HypergraphConv(F, F),
                       _pick("x", hyperedge_index=lambda t, g: t.stack([t.arange(N), t.arange(N) % 3]))),
    "LEConv": (lambda t, C: C.LEConv(F, F), XE),
    "PNAConv": (lambda t, C: C.PNAConv(F, F, aggregators=["mean", "max", "std"], scalers=["identity", "amplification"],
                                       deg=t.tensor([0, 2, 3, 2, 1])), XE),
    "ClusterGCNConv": (lambda t, C: C.ClusterGCNConv(F, F), XE),
    "GENConv": (lambda t, C: C.GENConv(F, F, edge_dim=3), XEA),
    "GCN2Conv": (lambda t, C: C.GCN2Conv(F, alpha=0.1), _pick("x", "edge_index", x_0=lambda t, g: g["x"].clone())),
    "PANConv": (lambda t, C: C.PANConv(F, F, filter_size=2), XE),
    "WLConv": (lambda t, C: C.WLConv(), _pick("edge_index", x=lambda t, g: t.arange(N) % 3)),
    "WLConvContinuous": (lambda t, C: C.WLConvContinuous(), XE),
    "FiLMConv": (lambda t, C: C.FiLMConv(F, F), XE),
    "SuperGATConv": (lambda t, C: C.SuperGATConv(F, F, heads=2), XE),
    "FAConv": (lambda t, C: C.FAConv(F), _pick("x", "edge_index", x_0=lambda t, g: g["x"].clone())),
    "EGConv": (lambda t, C: C.EGConv(F, F), XE),
    "PDNConv": (lambda t, C: C.PDNConv(F, F, edge_dim=3, hidden_channels=F), XEA),
    "GeneralConv": (lambda t, C: C.GeneralConv(F, F, in_edge_channels=3), XEA),
    "HGTConv": (lambda t, C: C.HGTConv(F, F, metadata=HETERO_META, heads=2), _hetero_inputs),
    "HANConv": (lambda t, C: C.HANConv(F, F, metadata=HETERO_META, heads=2), _hetero_inputs),
    "HEATConv": (lambda t, C: C.HEATConv(F, F, num_node_types=2, num_edge_types=3, edge_type_emb_dim=4, edge_dim=3,
                                         edge_attr_emb_dim=4, heads=2),
                 _pick("x", "edge_index", "edge_type", "edge_attr", node_type=lambda t, g: t.arange(N) % 2)),
    "LGConv": (lambda t, C: C.LGConv(), XE),
    "PointGNNConv": (lambda t, C: C.PointGNNConv(t.nn.Linear(F, 3), _seq(t, F + 3, F), _seq(t, F, F)), XPE),
    "GPSConv": (lambda t, C: C.GPSConv(F, C.GCNConv(F, F), heads=2), _pick("x", "edge_index", "batch")),
    "AntiSymmetricConv": (lambda t, C: C.AntiSymmetricConv(F), XE),
    "DirGNNConv": (lambda t, C: C.DirGNNConv(C.GCNConv(F, F)), XE),
    "MixHopConv": (lambda t, C: C.MixHopConv(F, F), XE),
}

MODELS = {
    "GCN": (lambda t, M: M.GCN(F, 16, 2, out_channels=4), XE),
    "GCN_jk": (lambda t, M: M.GCN(F, 16, 2, jk="cat", norm="batch_norm"), XE),
    "GraphSAGE": (lambda t, M: M.GraphSAGE(F, 16, 2), XE),
    "GIN": (lambda t, M: M.GIN(F, 16, 2), XE),
    "GAT": (lambda t, M: M.GAT(F, 16, 2, v2=True, heads=2), XE),
    "PNA": (lambda t, M: M.PNA(F, 16, 2, aggregators=["mean", "max"], scalers=["identity"], deg=t.tensor([0, 2, 3, 2, 1])), XE),
    "EdgeCNN": (lambda t, M: M.EdgeCNN(F, 16, 2), XE),
    "MLP": (lambda t, M: M.MLP([F, 16, 4], norm="batch_norm"), _pick("x", "batch")),
    "JumpingKnowledge": (lambda t, M: M.JumpingKnowledge("lstm", F, num_layers=2),
                         _pick(xs=lambda t, g: [g["x"], g["x"] * 2])),
    "DeepGraphInfomax": (lambda t, M: M.DeepGraphInfomax(16, encoder=M.GCN(F, 16, 1),
                                                         summary=lambda z, *a, **k: z.mean(0).sigmoid(),
                                                         corruption=lambda x, edge_index: (x[t.randperm(x.size(0))], edge_index)), XE),
    "GAE": (lambda t, M: M.GAE(M.GCN(F, 16, 2)), XE),
    "VGAE": (lambda t, M: M.VGAE(_VariationalEncoder(t, M)), XE),
    "SignedGCN": (lambda t, M: M.SignedGCN(F, 16, num_layers=2, lamb=5),
                  _pick("x", pos_edge_index=lambda t, g: g["edge_index"][:, :10],
                        neg_edge_index=lambda t, g: g["edge_index"][:, 10:])),
    "GraphUNet": (lambda t, M: M.GraphUNet(F, 16, 4, depth=2), _pick("x", "edge_index", "batch")),
    "SchNet": (lambda t, M: M.SchNet(hidden_channels=16, num_filters=16, num_interactions=2, num_gaussians=10, cutoff=5.0),
               _pick("pos", "batch", z=lambda t, g: t.randint(1, 9, (N,)))),
    "DimeNetPlusPlus": (lambda t, M: M.DimeNetPlusPlus(16, 1, 2, 8, 8, 8, num_spherical=3, num_radial=3),
                        _pick("pos", "batch", z=lambda t, g: t.randint(1, 9, (N,)))),
    "LabelPropagation": (lambda t, M: M.LabelPropagation(num_layers=2, alpha=0.9),
                         _pick("edge_index", y=lambda t, g: t.arange(N) % 3, mask=lambda t, g: t.arange(N) < 4)),
    "CorrectAndSmooth": (lambda t, M: _CorrectAndSmooth(M.CorrectAndSmooth(2, 0.9, 2, 0.8)),
                         _pick("edge_index", y_soft=lambda t, g: t.rand(N, 3).softmax(-1),
                               y_true=lambda t, g: t.arange(N) % 3, mask=lambda t, g: t.arange(N) < 4)),
    "AttentiveFP": (lambda t, M: M.AttentiveFP(F, 16, 2, edge_dim=3, num_layers=2, num_timesteps=2),
                    _pick("x", "edge_index", "edge_attr", "batch")),
    "RECT_L": (lambda t, M: M.RECT_L(F, 16), XE),
    "LINKX": (lambda t, M: M.LINKX(N, F, 16, 4, num_layers=2), XE),
    "LightGCN": (lambda t, M: M.LightGCN(N, 16, 2), _pick("edge_index")),
    "MaskLabel": (lambda t, M: M.MaskLabel(3, F),
                  _pick("x", y=lambda t, g: t.arange(N) % 3, mask=lambda t, g: t.arange(N) < 4)),
    "PMLP": (lambda t, M: M.PMLP(F, 16, 4, num_layers=2), XE),
    "NeuralFingerprint": (lambda t, M: M.NeuralFingerprint(F, 16, 4, num_layers=2), _pick("x", "edge_index", "batch")),
    "ViSNet": (lambda t, M: M.ViSNet(hidden_channels=16, num_heads=2, num_layers=2, num_rbf=8, cutoff=5.0),
               _pick("pos", "batch", z=lambda t, g: t.randint(1, 9, (N,)))),
    "SGFormer": (lambda t, M: M.SGFormer(F, 16, 4), _pick("x", "edge_index", "batch")),
    "Polynormer": (lambda t, M: M.Polynormer(F, 16, 4), _pick("x", "edge_index", "batch")),
    "GNNFF": (lambda t, M: M.GNNFF(16, 8, num_layers=2, cutoff=5.0),
              _pick("pos", "batch", z=lambda t, g: t.randint(1, 9, (N,)))),
}

POOL = {
    "TopKPooling": (lambda t, P: P.TopKPooling(F, ratio=0.5), _pick("x", "edge_index", "batch")),
    "SAGPooling": (lambda t, P: P.SAGPooling(F, ratio=0.5), _pick("x", "edge_index", "batch")),
    "EdgePooling": (lambda t, P: P.EdgePooling(F), _pick("x", "edge_index", "batch")),
    "ASAPooling": (lambda t, P: P.ASAPooling(F, ratio=0.5), _pick("x", "edge_index", "batch")),
    "PANPooling": (lambda t, P: P.PANPooling(F, ratio=0.5), _pick("x", "batch", M=lambda t, g: None)),
    "MemPooling": (lambda t, P: P.MemPooling(F, F, heads=2, num_clusters=2), XB),
    "ClusterPooling": (lambda t, P: P.ClusterPooling(F), _pick("x", "edge_index", "batch")),
}

AGGR = {
    "MultiAggregation": (lambda t, A: A.MultiAggregation(["mean", "max", "std"]), _pick("x", index=lambda t, g: g["batch"])),
    "SoftmaxAggregation": (lambda t, A: A.SoftmaxAggregation(learn=True), _pick("x", index=lambda t, g: g["batch"])),
    "PowerMeanAggregation": (lambda t, A: A.PowerMeanAggregation(learn=True), _pick(index=lambda t, g: g["batch"],
                                                                                    x=lambda t, g: g["x"].abs())),
    "MedianAggregation": (lambda t, A: A.MedianAggregation(), _pick("x", index=lambda t, g: g["batch"])),
    "QuantileAggregation": (lambda t, A: A.QuantileAggregation([0.25, 0.75]), _pick("x", index=lambda t, g: g["batch"])),
    "LSTMAggregation": (lambda t, A: A.LSTMAggregation(F, F), _pick("x", index=lambda t, g: g["batch"])),
    "GRUAggregation": (lambda t, A: A.GRUAggregation(F, F), _pick("x", index=lambda t, g: g["batch"])),
    "Set2Set": (lambda t, A: A.Set2Set(F, processing_steps=2), _pick("x", index=lambda t, g: g["batch"])),
    "DegreeScalerAggregation": (lambda t, A: A.DegreeScalerAggregation("mean", "amplification", t.tensor([0, 2, 3, 2, 1])),
                                _pick("x", index=lambda t, g: g["batch"])),
    "SortAggregation": (lambda t, A: A.SortAggregation(k=3), _pick("x", index=lambda t, g: g["batch"])),
    "GraphMultisetTransformer": (lambda t, A: A.GraphMultisetTransformer(F, k=2, heads=2),
                                 _pick("x", index=lambda t, g: g["batch"])),
    "AttentionalAggregation": (lambda t, A: A.AttentionalAggregation(t.nn.Linear(F, 1)),
                               _pick("x", index=lambda t, g: g["batch"])),
    "EquilibriumAggregation": (lambda t, A: A.EquilibriumAggregation(F, 4, [8]), _pick("x", index=lambda t, g: g["batch"])),
    "MLPAggregation": (lambda t, A: A.MLPAggregation(F, F, max_num_elements=4, num_layers=1),
                       _pick("x", index=lambda t, g: g["batch"])),
    "DeepSetsAggregation": (lambda t, A: A.DeepSetsAggregation(t.nn.Linear(F, F), t.nn.Linear(F, F)),
                            _pick("x", index=lambda t, g: g["batch"])),
    "SetTransformerAggregation": (lambda t, A: A.SetTransformerAggregation(F, heads=2),
                                  _pick("x", index=lambda t, g: g["batch"])),
    "LCMAggregation": (lambda t, A: A.LCMAggregation(F, F), _pick("x", index=lambda t, g: g["batch"])),
    "VariancePreservingAggregation": (lambda t, A: A.VariancePreservingAggregation(),
                                      _pick("x", index=lambda t, g: g["batch"])),
    "PatchTransformerAggregation": (lambda t, A: A.PatchTransformerAggregation(F, F, patch_size=2, hidden_channels=F),
                                    _pick("x", index=lambda t, g: g["batch"])),
}

NORM = {
    "BatchNorm": (lambda t, Nm: Nm.BatchNorm(F), _pick("x")),
    "InstanceNorm": (lambda t, Nm: Nm.InstanceNorm(F, affine=True), XB),
    "LayerNorm_graph": (lambda t, Nm: Nm.LayerNorm(F, mode="graph"), XB),
    "LayerNorm_node": (lambda t, Nm: Nm.LayerNorm(F, mode="node"), XB),
    "GraphNorm": (lambda t, Nm: Nm.GraphNorm(F), XB),
    "GraphSizeNorm": (lambda t, Nm: Nm.GraphSizeNorm(), XB),
    "PairNorm": (lambda t, Nm: Nm.PairNorm(), XB),
    "MeanSubtractionNorm": (lambda t, Nm: Nm.MeanSubtractionNorm(), XB),
    "MessageNorm": (lambda t, Nm: Nm.MessageNorm(learn_scale=True), _pick("x", msg=lambda t, g: g["x"] * 0.5)),
    "DiffGroupNorm": (lambda t, Nm: Nm.DiffGroupNorm(F, groups=2), _pick("x")),
}

DENSE = {
    "DenseGCNConv": (lambda t, D: D.DenseGCNConv(F, F), _pick(x=lambda t, g: g["x"].view(2, 4, F),
                                                               adj=lambda t, g: (t.rand(2, 4, 4) > 0.5).float())),
    "DenseGINConv": (lambda t, D: D.DenseGINConv(_seq(t, F, F)), _pick(x=lambda t, g: g["x"].view(2, 4, F),
                                                                       adj=lambda t, g: (t.rand(2, 4, 4) > 0.5).float())),
    "DenseGraphConv": (lambda t, D: D.DenseGraphConv(F, F), _pick(x=lambda t, g: g["x"].view(2, 4, F),
                                                                   adj=lambda t, g: (t.rand(2, 4, 4) > 0.5).float())),
    "DenseSAGEConv": (lambda t, D: D.DenseSAGEConv(F, F), _pick(x=lambda t, g: g["x"].view(2, 4, F),
                                                                 adj=lambda t, g: (t.rand(2, 4, 4) > 0.5).float())),
    "DenseGATConv": (lambda t, D: D.DenseGATConv(F, F, heads=2), _pick(x=lambda t, g: g["x"].view(2, 4, F),
                                                                        adj=lambda t, g: (t.rand(2, 4, 4) > 0.5).float())),
    "DMoNPooling": (lambda t, D: D.DMoNPooling([F, F], k=2), _pick(x=lambda t, g: g["x"].view(2, 4, F),
                                                                   adj=lambda t, g: (t.rand(2, 4, 4) > 0.5).float())),
}

FAMILIES = {"conv": ("torch_geometric.nn.conv", CONV), "models": ("torch_geometric.nn.models", MODELS),
            "pool": ("torch_geometric.nn.pool", POOL), "aggr": ("torch_geometric.nn.aggr", AGGR),
            "norm": ("torch_geometric.nn.norm", NORM), "dense": ("torch_geometric.nn.dense", DENSE)}


def _conv(torch, name, i, o):
    import torch_geometric.nn.conv as C

    return getattr(C, name)(i, o)


def _VariationalEncoder(torch, M):
    import torch_geometric.nn.conv as C

    class VariationalEncoder(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.mu = C.GCNConv(F, 4)
            self.logstd = C.GCNConv(F, 4)

        def forward(self, x, edge_index):
            return self.mu(x, edge_index), self.logstd(x, edge_index)

    return VariationalEncoder()


def _CorrectAndSmooth(cs):
    """CorrectAndSmooth is called step by step, as its docs show: a module that runs both steps."""
    import torch

    class CorrectThenSmooth(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.cs = cs

        def forward(self, y_soft, y_true, mask, edge_index):
            y = self.cs.correct(y_soft, y_true[mask], mask, edge_index)
            return self.cs.smooth(y, y_true[mask], mask, edge_index)

    return CorrectThenSmooth()


def entries():
    import importlib

    out = []
    for family, (module, table) in FAMILIES.items():
        mod = importlib.import_module(module)
        for name in sorted(table):
            if hasattr(mod, name.split("_")[0] if name.endswith(("_jk", "_graph", "_node")) else name):
                out.append("torch_geometric:%s:%s" % (family, name))
    return out


def build(torch, entry, seed):
    import importlib

    _, family, name = entry.split(":", 2)
    module, table = FAMILIES[family]
    make_model, make_inputs = table[name]
    torch.manual_seed(seed)
    model = make_model(torch, importlib.import_module(module)).eval()
    inputs = make_inputs(torch)
    with torch.no_grad():
        model(**inputs)
    return model, inputs, {"level": "table"}


# Entries whose model the catalog wraps: what a user compiles is these methods of the library's class
# (torch.compile(cs.correct)), not a module's forward; compare.py's explicit roots say so.
COMPILED_METHODS = {"models:CorrectAndSmooth": ("torch_geometric.nn.models", "CorrectAndSmooth", ["correct", "smooth"])}


def model_class(torch, entry, seed):
    """The class the entry compiles, and the methods compiled (None: the module itself)."""
    import importlib

    _, family, name = entry.split(":", 2)
    wrapped = COMPILED_METHODS.get(family + ":" + name)
    if wrapped:
        module, cls, methods = wrapped
        return getattr(importlib.import_module(module), cls), methods
    model, _, _ = build(torch, entry, seed)
    return type(model), None
