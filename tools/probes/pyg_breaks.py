"""Where does TorchDynamo break in torch_geometric's models? (issue 41: a first look at a library beyond
transformers, timm and diffusers; not yet a part of the sweep)

Builds small instances of torch_geometric.nn.models (GCN, GAT, GIN, GraphSAGE, EdgeCNN, PNA, MLP,
AttentiveFP, GraphUNet, PMLP, LightGCN, SGFormer, ...) on a 6-node random graph, runs each forward in eval and
train mode under torch._dynamo.explain with the Dynamo oracle's recorder (tools/dynamo_oracle.py), and prints
every break site inside the torch_geometric package; compare them with
    ./graphmend check --no-config SITE_PACKAGES/torch_geometric
Setup (outside the checkout): pip install --no-deps --target ~/.cache/graphmend/pyg-site torch_geometric==2.8.1,
then xxhash psutil pyparsing aiohttp the same way; run with the sweep environment's python:
    PYTHONPATH=~/.cache/graphmend/pyg-site $(eval/sweep/env.sh) tools/probes/pyg_breaks.py OUT.json
Observed on torch 2.15.0 (2026-12-07): 13 of 15 classes built, 6 break sites; graphmend reports 5 of them.
"""
import os, sys, json, traceback
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import torch
import torch_geometric
import torch_geometric.nn.models as M
import dynamo_oracle as oracle

PKG = os.path.dirname(os.path.realpath(torch_geometric.__file__))
N, F, E = 6, 4, 12
x = torch.randn(N, F)
ei = torch.randint(0, N, (2, E))
batch = torch.zeros(N, dtype=torch.long)
cases = {
  "GCN": lambda: (M.GCN(F, 8, 2), (x, ei)),
  "GAT": lambda: (M.GAT(F, 8, 2), (x, ei)),
  "GIN": lambda: (M.GIN(F, 8, 2), (x, ei)),
  "GraphSAGE": lambda: (M.GraphSAGE(F, 8, 2), (x, ei)),
  "EdgeCNN": lambda: (M.EdgeCNN(F, 8, 2), (x, ei)),
  "PNA": lambda: (M.PNA(F, 8, 2, aggregators=["mean", "max"], scalers=["identity"], deg=torch.tensor([1, 2, 3])), (x, ei)),
  "MLP": lambda: (M.MLP([F, 8, 2]), (x,)),
  "AttentiveFP": lambda: (M.AttentiveFP(F, 8, 2, edge_dim=3, num_layers=2, num_timesteps=2), (x, ei, torch.randn(E, 3), batch)),
  "LINKX": lambda: (M.LINKX(N, F, 8, 2), (x, ei)),
  "GraphUNet": lambda: (M.GraphUNet(F, 8, 2, depth=2), (x, ei)),
  "PMLP": lambda: (M.PMLP(F, 8, 2, num_layers=2), (x, ei)),
  "LightGCN": lambda: (M.LightGCN(N, 8, 2), (ei,)),
  "SGFormer": lambda: (M.SGFormer(F, 8, 2), (x, ei, batch)),
  "Polynormer": lambda: (M.Polynormer(F, 8, 2), (x, ei)),
  "DeepGraphInfomaxMLP": lambda: (M.JumpingKnowledge("cat", 8, 2), ([torch.randn(N, 8), torch.randn(N, 8)],)),
}
rec = oracle.Recorder(torch)
gb_ids = oracle.load_gb_ids(torch)
out = {}
for name, make in cases.items():
    r = {"sites": [], "error": None}
    try:
        torch.manual_seed(0)
        model, args = make()
        for mode in ("eval", "train"):
            model.train(mode == "train")
            model(*args)
            torch._dynamo.reset()
            rec.events = []
            torch._dynamo.explain(model)(*args)
            for frames, reason, exc in rec.events:
                own = [f for f in frames if f[0].startswith(PKG)]
                if own:
                    f = own[-1]
                    r["sites"].append([os.path.relpath(f[0], PKG), f[1], mode, oracle.first_line(str(reason))[:120]])
            rec.events = None
    except Exception as e:
        r["error"] = "%s: %s" % (type(e).__name__, str(e)[:200])
    out[name] = r
    print(name, r["error"] or "", len(r["sites"]), flush=True)
with open(sys.argv[1] if len(sys.argv) > 1 else "pyg_sites.json", "w") as f:
    json.dump(out, f, indent=1)
