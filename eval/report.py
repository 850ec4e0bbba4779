"""Render the evaluation's results (``eval/results.json``) as the markdown report.

``render(results)`` returns the whole document; ``python3 eval/report.py [RESULTS [OUT]]``
regenerates the markdown from a results file without rerunning anything. Everything in the
document is computed from the results file except ``PAPER`` (the paper's own figures, quoted
beside ours and marked as the paper's) and ``NOTES`` (hand-written explanations of break sites
that are known not to be fixable by a source rewrite, matched by file and source text).
"""

from __future__ import annotations

import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

# The paper's per-family figures (arXiv 2509.16248; PyTorch 2.12, transformers 4.52.4):
# (breaks, percent removed, what the paper says they are).
PAPER = {
    "t5": (3, 100, "3 logger"),
    "whisper": (3, 100, "3 logger"),
    "bart": (7, 100, "4 control flow + 3 logger"),
    "marian": (6, 100, ""),
    "biogpt": (2, 100, ""),
    "blenderbot": (3, 100, ""),
    "pegasus": (2, 100, ""),
    "layoutlmv3": (2, 100, "2 warnings.warn"),
    "phi3": (5, 100, ""),
    "grounding_dino": (17, 58, ""),
    "longformer": (5, 40, ""),
    "clap": (4, 0, "4 dynamic shape"),
}
# The transformers release the paper evaluated; a run on another release is compared with our run on
# this one (the harness's --baseline) instead of with the paper.
PAPER_TRANSFORMERS = "4.52.4"
PAPER_TOTALS = ("27 models with breaks out of 195; 147 breaks, 107 removed (73%); 21 models fully fixed, "
                "3 partly; cold start up to 26x faster (mean about 5x), steady state up to 1.39x, throughput "
                "up to 15%; FP32 outputs bit-identical")

CATEGORIES = ["control-flow", "validation-guard", "logger", "dynamic-shape", "data-dependent-op", "item", "other"]
FIXABLE = {"control-flow", "validation-guard", "logger"}

# Hand-written comparison with the paper, per family: observations of the before runs (which do not
# depend on our tool; torch 2.15.0, transformers 4.52.4, the configurations of eval/models.py).
FAMILY_NOTES = {
    "t5": "Same count and kind as the paper: every break is the `logger.warning_once` about the deprecated "
          "tuple form of `past_key_values` in `T5Stack.forward`.",
    "whisper": "Same as the paper: the `past_key_values` deprecation `logger.warning_once` in the decoder.",
    "bart": "The paper reports 7 (4 control flow + 3 logger); here only the 3 logger breaks occur. The "
            "data-dependent branches of `modeling_bart.py` are not reached by a float32 CPU forward of "
            "`BartForConditionalGeneration`: the overflow clamp tests `torch.isinf(...).any()` only when the "
            "hidden states are float16, `(attention_mask == 0.0).any()` is on the flash-attention-2 path, and "
            "`len(torch.unique_consecutive(eos_mask.sum(1))) > 1` is in `BartForSequenceClassification`.",
    "marian": "The paper reports 6; here 3, all the logger deprecation warning. Marian's float16 overflow "
              "clamp (`torch.isinf(...).any()`) is not reached in float32, as for BART.",
    "biogpt": "Same count as the paper (the `past_key_values` deprecation warning).",
    "blenderbot": "Same count as the paper (the `past_key_values` deprecation warning).",
    "pegasus": "The paper reports 2; here 3 at the same single logger site (Dynamo also splits the calling "
               "graph).",
    "layoutlmv3": "Same as the paper: 2 breaks from `warnings.warn` (the deprecated `device` argument of "
                  "`get_extended_attention_mask` in `modeling_utils.py`).",
    "phi3": "Same count as the paper (5), all from one line: LongRoPE's frequency update in "
            "`modeling_rope_utils.py` branches on `seq_len = torch.max(position_ids) + 1`; Dynamo gives up on "
            "that function and breaks in its callers. The function is a closure inside the "
            "`dynamic_rope_update` decorator, and both branches re-register a module buffer.",
    "grounding_dino": "Close to the paper's 17. Sites: a validation guard comparing a sum of "
                      "`spatial_shapes` with the sequence length, `torch.linspace` sized by a tensor value, "
                      "`torch.nonzero`, and slicing with tensor-valued bounds.",
    "longformer": "The paper reports 5; we pass a global attention mask on the first token (what the "
                  "classification and QA heads do), which runs the global-attention path: three `nonzero` "
                  "calls, a `narrow` by a tensor length, two size asserts that compare with tensor values and "
                  "`.any().item()`. Without global attention only the `.item()` site remains (3 breaks).",
    "clap": "The paper reports 4 dynamic-shape breaks; here the fused audio branch breaks at the "
            "one-argument `torch.where` over `is_longer` (a `nonzero`). After that break the selected indices are "
            "a graph input, so the later indexing by them does not break again in torch 2.15.",
}

# Per newer transformers release: what its before runs show next to the run on the paper's release.
_NO_LEGACY_CACHE = ("No break: transformers 5 dropped the legacy tuple form of `past_key_values`, and with it the "
                    "deprecation `logger.warning_once` that was every break of this family on 4.52.4.")
NEWER_NOTES = {
    "5.24.0": {
        "t5": _NO_LEGACY_CACHE,
        "whisper": _NO_LEGACY_CACHE,
        "bart": _NO_LEGACY_CACHE,
        "marian": _NO_LEGACY_CACHE,
        "biogpt": _NO_LEGACY_CACHE,
        "blenderbot": _NO_LEGACY_CACHE,
        "pegasus": _NO_LEGACY_CACHE,
        "layoutlmv3": "No break: the `warnings.warn` about the deprecated `device` argument of "
                      "`get_extended_attention_mask` is gone with that function.",
        "phi3": "No break: LongRoPE's frequency update was rewritten upstream the way a speculative rewrite would "
                "do it: both frequency tables are computed (the long one created on first use), "
                "`torch.where(seq_len > original_max_position_embeddings, long_inv_freq, original_inv_freq)` picks "
                "one, and the buffer is updated in place. Our where-rewrite declines the 4.52.4 code because the "
                "branches change module state (a lazily created attribute, a re-registered buffer) and the two "
                "tables' shapes cannot be proven equal from the source.",
        "grounding_dino": "Three of the four 4.52.4 sites were rewritten upstream: `linspace` and the slice with "
                          "tensor bounds now take their sizes from `spatial_shapes_list` (Python ints, as our 4.52.4 "
                          "notes suggested), and the `nonzero` over special tokens became a shape-preserving "
                          "`cummax`/`cummin` formulation. The validation guard became `torch_compilable_check(...)`, "
                          "which while tracing calls `torch._check_tensor_all`; torch checks that with `.item()`, "
                          "so it breaks (11 logged breaks, 14 in `explain`). GM201 reports it in "
                          "`utils/import_utils.py`, and its unsafe fix lowers it to `torch._assert_async`.",
        "longformer": "Unchanged from 4.52.4: the same seven sites of the global-attention path (three `nonzero`, "
                      "a `narrow` by a tensor length, two list asserts, `.any().item()`), 16 breaks.",
        "clap": "Unchanged from 4.52.4: the one-argument `torch.where` over `is_longer`.",
    },
}

# (file suffix, text in the source line) -> why a source rewrite cannot remove the break.
NOTES = [
    ("modeling_rope_utils.py", "if seq_len > original_max_position_embeddings",
     "Both branches re-register the module's `inv_freq` buffer (one after lazily creating `long_inv_freq`): "
     "the branch changes module state, which `torch.where` over values cannot express and `torch.cond` "
     "branches may not do. transformers 5 made the rewrite by hand (both tables computed, `torch.where` picks one, "
     "the buffer updated in place): that changes when `long_inv_freq` is created, and is right only because the "
     "two tables have one shape, which the source does not show."),
    ("modeling_grounding_dino.py", "torch.linspace(",
     "`height` comes from iterating the `spatial_shapes` tensor, so `linspace` needs its value (an implicit "
     "`.item()`). The model also carries `spatial_shapes_list`, the same sizes as Python ints, but switching to "
     "it is a model-specific change; `check` does not report implicit scalar reads (docs/rules/README.md lists only "
     "explicit ones under GM201)."),
    ("modeling_grounding_dino.py", "padding_mask[:, current_position",
     "Slice bounds computed from `spatial_shapes` tensor values: Dynamo reads them with `.item()` (the same "
     "situation as the `linspace` site)."),
    ("modeling_longformer.py", ".narrow(",
     "The length is `max_num_global_attn_indices`, a tensor (the largest number of global tokens in the "
     "batch): an implicit scalar read; a static length would need a fixed maximum, which changes the model."),
    ("modeling_longformer.py", "assert list(",
     "The `assert` compares a Python list that holds a tensor value (`max_num_global_attn_indices`), which "
     "Dynamo cannot evaluate (GB6622); no rule covers asserts on lists, and dropping the assert changes behaviour."),
    ("import_utils.py", "torch._check_tensor_all(",
     "transformers' `torch_compilable_check` calls `torch._check_tensor_all(cond)` while tracing; torch checks "
     "the condition with `.item()`, so the check meant to keep the graph whole breaks it. GM201 reports the call "
     "in the helper; the unsafe fix lowers it to `torch._assert_async(torch.all(cond))` (on CUDA the assert is "
     "asynchronous)."),
    ("", "torch.where(", "one-argument `torch.where` returns indices (a `nonzero`): its output shape depends "
     "on values, so the graph ends there (GM202's kind: no rewrite keeps the shape static)."),
    ("", ".item()", "`.item()` reads a tensor value into Python; only `capture_scalar_outputs` or keeping "
     "the value a tensor avoids it (GM201's kind: no automatic fix)."),
    ("", ".tolist()", "`.tolist()` reads tensor values into Python (GM201's kind: no automatic fix)."),
    ("", "nonzero", "`nonzero` has a data-dependent output shape (GM202's kind: no automatic fix)."),
]


def _get(run, key, field):
    return ((run or {}).get(key) or {}).get(field)


def _fmt_ratio(a, b):
    if not a or not b:
        return "–"
    return "%.2f×" % (a / b)


def _fmt_s(x):
    if x is None:
        return "–"
    return "%.1f s" % x if x >= 1 else "%.1f ms" % (x * 1000)


def _cats(sites):
    counts = {}
    for s in sites:
        counts[s["category"]] = counts.get(s["category"], 0) + 1
    return ", ".join("%s %d" % (c, counts[c]) for c in CATEGORIES if c in counts) or "none"


def _explain(run):
    return (run or {}).get("explain") or {}


def _breaks(run):
    """Dynamo's graph-break count (graphs − 1) of a run, or None when the run did not get that far."""
    return _explain(run).get("graph_break_count")


def _sites(run):
    return _explain(run).get("sites") or []


def _note_for(site):
    for suffix, text, note in NOTES:
        if site["file"].endswith(suffix) and text in site.get("source", ""):
            return note
    return None


def _identical(run, key):
    if (run or {}).get("reused_from") == "before" and key.endswith("_vs_before"):
        return "same code"
    cmp = (run or {}).get(key)
    if not cmp:
        return "skipped (time budget)" if (run or {}).get("compile_skipped") and key.startswith("compiled") else "–"
    return "yes" if cmp["identical"] else "no (%d/%d tensors differ, max abs diff %.2g)" % (
        cmp["n_mismatched"], cmp["tensors"], cmp["max_abs_diff"])


def _match_after(site, after_sites):
    """The after-run site that is the same break (same file and source text), or None."""
    for s in after_sites:
        if s["file"] == site["file"] and s.get("source") == site.get("source") and s.get("gb") == site.get("gb"):
            return s
    return None


def _geomean(xs):
    xs = [x for x in xs if x]
    if not xs:
        return None
    prod = 1.0
    for x in xs:
        prod *= x
    return prod ** (1.0 / len(xs))


def _timing_summary(models, variant):
    """Geometric-mean ratios for models whose breaks the variant reduced, and for the others (the noise)."""
    groups = {"fewer breaks": ([], []), "same breaks": ([], [])}
    for m in models.values():
        b, a = m.get("before", {}), m.get(variant, {})
        if a.get("reused_from") == "before" or _breaks(a) is None or _breaks(b) is None:
            continue
        fc_b, fc_a = _get(b, "first_call", "cpu"), _get(a, "first_call", "cpu")
        st_b, st_a = _get(b, "compiled_latency", "cpu"), _get(a, "compiled_latency", "cpu")
        if not (fc_b and fc_a and st_b and st_a):
            continue
        key = "fewer breaks" if _breaks(a) < _breaks(b) else "same breaks"
        groups[key][0].append(fc_b / fc_a)
        groups[key][1].append(st_b / st_a)
    parts = []
    for key, (fc, st) in groups.items():
        if fc:
            parts.append("%s (%d models): first call %.2f×, steady state %.2f× (range %.2f–%.2f×)" % (
                key, len(fc), _geomean(fc), _geomean(st), min(st), max(st)))
    return ("Geometric means, %s: " % variant) + ("; ".join(parts) if parts else "no timed models") + (
        ". The models whose breaks did not change run code that differs at most in unexecuted or "
        "break-free lines, so their spread shows the measurement noise on this shared machine.")


def _baseline_cell(fam, baseline):
    """Breaks and unsafe fix rate of a family in the run on the paper's transformers, or a dash."""
    m = ((baseline or {}).get("models") or {}).get(fam)
    if not m:
        return "–", None, None
    nb, na = _breaks(m.get("before")), _breaks(m.get("unsafe"))
    if nb is None:
        return "–", None, None
    if na is None or not nb:
        return "%d" % nb, nb, na
    return "%d, %.0f%% (unsafe)" % (nb, 100.0 * (nb - na) / nb), nb, na


def _run_of(m, variant):
    """A variant's run, or the run it reused (same loaded code)."""
    run = m.get(variant) or {}
    return m.get(run["reused_from"]) or run if run.get("reused_from") else run


def _fullgraph_cell(run):
    fg = (run or {}).get("fullgraph")
    if not fg:
        return "–"
    if not fg.get("ok"):
        return "no (%s)" % fg.get("error", "?")[:90].replace("|", "/")
    cmp = fg.get("vs_eager")
    return "yes" if not cmp or cmp["identical"] else "yes, outputs differ from eager (%d/%d tensors)" % (
        cmp["n_mismatched"], cmp["tensors"])


def _effects_cell(cmp):
    if not cmp:
        return "–"
    if cmp["identical"]:
        return "yes (%d)" % cmp["after"]
    d = cmp.get("first_difference") or {}
    return "no (%s → %s)" % (str(d.get("before"))[:60], str(d.get("after"))[:60])


def _fullgraph_section(w, models, variants):
    w("## Full graph and what the user sees\n")
    w("After the explain step each run makes one call under `torch.compile(model, fullgraph=True, "
      "backend=\"aot_eager\")` (AOTAutograd, as inductor traces, without its C++ compile): *yes* when the model "
      "compiles as one graph, with its outputs then compared bit for bit with eager; otherwise Dynamo's error. "
      "*Effects* are what the forward shows its user: stdout, the records of transformers' loggers (level, "
      "logger, message) and the warnings issued from the package (category, message, file), in order, "
      "compared with the unfixed model's eager run (the count of events in brackets), eagerly and inside the "
      "full graph. A family is *all fixable* when every break site before is of a fixable category "
      "(%s).\n" % ", ".join(sorted(FIXABLE)))
    head = ["model", "all fixable", "fullgraph before"]
    for v in variants:
        head += ["fullgraph (%s)" % v, "effects eager == before (%s)" % v, "effects fullgraph == before (%s)" % v]
    w("| " + " | ".join(head) + " |")
    w("|" + "---|" * len(head))
    fixable = passing = 0
    last = variants[-1] if variants else None
    for m in models.values():
        b = m.get("before", {})
        sites = _sites(b)
        all_fixable = bool(sites) and all(x["category"] in FIXABLE for x in sites)
        row = [m["label"], "yes" if all_fixable else "no", _fullgraph_cell(b)]
        for v in variants:
            a = _run_of(m, v)
            fg = a.get("fullgraph") or {}
            row += [_fullgraph_cell(a), _effects_cell(a.get("eager_effects_vs_before")),
                    _effects_cell(fg.get("effects_vs_before")) if fg.get("ok") else "–"]
        if all_fixable:
            fixable += 1
            passing += bool(last and (_run_of(m, last).get("fullgraph") or {}).get("ok"))
        w("| " + " | ".join(row) + " |")
    if last:
        w("\nAll-fixable families: %d; of them %d compile with `fullgraph=True` after `graphmend fix%s`.\n" % (
            fixable, passing, " --unsafe-fixes" if last == "unsafe" else ""))


def render(results, baseline=None):
    """The markdown report of one run. A run on another transformers release than the paper's is
    compared with ``baseline`` (our results on the paper's release) instead of with the paper."""
    env = results["environment"]
    fixes = results.get("fix", {})
    models = results["models"]
    paper_run = env["transformers"] == PAPER_TRANSFORMERS
    out = []
    w = out.append
    if paper_run:
        w("# Evaluation on Hugging Face models (reproducing the GraphMend paper's Table)\n")
        w("Generated by `eval/run.sh` (eval/harness.py → eval/report.py) on %s. Do not edit by hand: rerun "
          "`eval/run.sh`, or `python3 eval/report.py` to re-render `eval/results.json`.\n" % results["generated"])
    else:
        w("# The same evaluation on transformers %s (the newest release)\n" % env["transformers"])
        w("Generated by `eval/run.sh --newest` (eval/harness.py → eval/report.py) on %s. Do not edit by hand: "
          "rerun `eval/run.sh --newest`, or `python3 eval/report.py eval/newest/results.json "
          "eval/newest/evaluation.md` to re-render it.\n" % results["generated"])
    w("Setup: torch %s, transformers %s, Python %s, graphmend %s; CPU only (%s, %s cores, %s torch thread(s) per "
      "worker); every model built from a tiny random configuration (seed 0, eval mode, no downloads; see "
      "`eval/models.py`); one subprocess per model and variant with a %d s timeout; %d timed calls for "
      "steady-state latency. Whole harness: %.0f s.\n" % (
          env["torch"], env["transformers"], env["python"], env.get("graphmend", "?"), env.get("machine"),
          env.get("cpus"), env.get("worker_threads", 1), env.get("timeout_s", 0), env.get("iters", 0),
          results.get("wall_s", 0)))
    if paper_run:
        w("The paper evaluated PyTorch 2.12 with pretrained checkpoints; we use torch %s (the version this "
          "project's rules and Dynamo oracle follow) and tiny random configurations of the same model classes, so "
          "break counts can differ from the paper's where a break depends on the torch version or on a "
          "configuration option. The paper's figures are quoted as the paper's, beside ours.\n" % env["torch"])
    else:
        w("The same harness, model configurations, inputs and torch as our run on transformers %s, the release "
          "the paper evaluated; the last column of the first table gives that run's figures (ours, with "
          "`--unsafe-fixes`), not the paper's.\n" % PAPER_TRANSFORMERS)

    # Fix status
    w("## Fixes\n")
    for variant, rec in fixes.items():
        cmd = ("graphmend fix " + " ".join(rec.get("flags") or [])).strip()
        what = "`%s`%s" % (cmd, "" if rec.get("flags") else " (safe fixes only)")
        if rec.get("command", "graphmend fix") != "graphmend fix":
            w("- **Stand-in rewriter `%s` used instead of `graphmend fix`: these after-columns test the harness, "
              "they are not results of our tool.**" % rec["command"])
        if not rec.get("available"):
            w("- %s: **%s** (exit %s). After-columns are empty for this variant." % (
                what, rec.get("reason", "unavailable"), rec.get("rc")))
            continue
        w("- %s on %d file(s) of a copy of the package: changed %d file(s), %d diff line(s)%s; the diff is kept "
          "in `%s`." % (what, len(rec.get("files", [])), len(rec.get("changed_files", [])), rec.get("diff_lines", 0),
                        "; **not compiling: %s**" % ", ".join(rec["not_compiling"]) if rec.get("not_compiling") else "",
                        rec.get("diff")))
    w("")

    # Main table
    variants = [v for v, rec in fixes.items() if rec.get("available")]
    w("## Breaks per model\n")
    w("*Breaks* is Dynamo's `graph_break_count` from `torch._dynamo.explain` (graphs − 1, as the paper counts); "
      "*sites* are the distinct source lines (innermost transformers frame) where Dynamo logged a break, by "
      "category. *Flagged* is how many of those sites `graphmend check` reports (a diagnostic whose range covers "
      "the line). Ratios are before ÷ after (above 1 = faster after the fix).\n")
    head = ["model", "breaks before", "sites before (by category)", "flagged by check"]
    for v in variants:
        head += ["breaks after %s" % v, "fixed %% (%s)" % v]
    if not variants:
        head += ["after"]
    head += ["paper: breaks, fixed" if paper_run else "transformers %s (ours): breaks, fixed" % PAPER_TRANSFORMERS]
    w("| " + " | ".join(head) + " |")
    w("|" + "---|" * len(head))
    tot = {"before": 0, "sites": 0, "flagged": 0, "after": {v: 0 for v in variants}, "paper": 0, "paper_fixed": 0.0}
    for fam, m in models.items():
        b = m.get("before", {})
        sites = _sites(b)
        nb = _breaks(b)
        flagged = sum(1 for s in sites if s.get("graphmend"))
        row = [m["label"] + ("" if b.get("status") == "ok" else " (%s)" % b.get("status")),
               "–" if nb is None else str(nb), "%d: %s" % (len(sites), _cats(sites)) if sites else "0",
               "%d / %d" % (flagged, len(sites))]
        tot["before"] += nb or 0
        tot["sites"] += len(sites)
        tot["flagged"] += flagged
        for v in variants:
            na = _breaks(m.get(v))
            row += ["–" if na is None else str(na),
                    "–" if na is None or not nb else "%.0f%%" % (100.0 * (nb - na) / nb)]
            if na is not None:
                tot["after"][v] += na
        if not variants:
            row.append("fix unavailable")
        if paper_run:
            p = PAPER.get(fam)
            row.append("%d, %d%%%s (paper)" % (p[0], p[1], "; " + p[2] if p[2] else "") if p else "–")
            if p:
                tot["paper"] += p[0]
                tot["paper_fixed"] += p[0] * p[1] / 100.0
        else:
            cell, bb, ba = _baseline_cell(fam, baseline)
            row.append(cell)
            tot["paper"] += bb or 0
            tot["paper_fixed"] += (bb - ba) if bb is not None and ba is not None else 0
        w("| " + " | ".join(row) + " |")
    row = ["**total**", "**%d**" % tot["before"], "**%d**" % tot["sites"], "**%d / %d**" % (tot["flagged"], tot["sites"])]
    for v in variants:
        a = tot["after"][v]
        row += ["**%d**" % a, "**%.0f%%**" % (100.0 * (tot["before"] - a) / tot["before"]) if tot["before"] else "–"]
    if not variants:
        row.append("")
    if paper_run:
        row.append("%d, about %.0f removed (paper, these families)" % (tot["paper"], tot["paper_fixed"]))
    else:
        row.append("%d, %.0f%% (unsafe)" % (tot["paper"], 100.0 * tot["paper_fixed"] / tot["paper"])
                   if tot["paper"] else "–")
    w("| " + " | ".join(row) + " |")
    if paper_run:
        w("\nThe paper's totals over all 195 models: %s.\n" % PAPER_TOTALS)
    else:
        w("")

    # Outputs and timing
    w("## Outputs and compile time\n")
    w("Outputs are compared bit for bit (dtype, shape and bytes of every tensor in the model output, "
      "past key/values included), with the same state_dict and inputs. First call = compile + one run with "
      "`backend=\"inductor\"` in a fresh inductor cache, in CPU seconds of the worker and its C++ compiler "
      "runs (and wall seconds); steady state = median CPU time per call. Ratios are before ÷ after of the CPU "
      "figures: the machine is shared, so wall time there also measures the neighbours (wall times are in "
      "`eval/results.json`).\n")
    head = ["model", "eager (CPU)", "first call before (CPU / wall)", "steady before (CPU)",
            "compiled == eager (before)"]
    for v in variants:
        head += ["eager == before (%s)" % v, "compiled == before (%s)" % v, "first-call ratio (%s)" % v,
                 "steady ratio (%s)" % v]
    w("| " + " | ".join(head) + " |")
    w("|" + "---|" * len(head))
    for fam, m in models.items():
        b = m.get("before", {})
        fb = b.get("first_call") or {}
        row = [m["label"], _fmt_s(_get(b, "eager_latency", "cpu")),
               "%s / %s" % (_fmt_s(fb.get("cpu")), _fmt_s(fb.get("wall"))),
               _fmt_s(_get(b, "compiled_latency", "cpu")), _identical(b, "compiled_vs_eager")]
        for v in variants:
            a = m.get(v, {})
            row += [_identical(a, "eager_vs_before"), _identical(a, "compiled_vs_before")]
            if a.get("reused_from") == "before":
                row += ["same code", "same code"]
            elif a.get("compile_skipped"):
                row += ["skipped (time budget)"] * 2
            else:
                row += [_fmt_ratio(fb.get("cpu"), _get(a, "first_call", "cpu")),
                        _fmt_ratio(_get(b, "compiled_latency", "cpu"), _get(a, "compiled_latency", "cpu"))]
        w("| " + " | ".join(row) + " |")
    for v in variants:
        w("\n" + _timing_summary(models, v))
    w("\nInductor on CPU may reorder floating-point reductions, so *compiled == eager* can be \"no\" with a "
      "difference at rounding level; the paper's claim (bit-identical FP32 outputs) is about the fixed model "
      "against the original, which is the *== before* columns.\n")

    _fullgraph_section(w, models, variants)

    # Per-site detail
    w("## Break sites (Dynamo) next to `graphmend check`\n")
    for fam, m in models.items():
        b = m.get("before", {})
        sites = _sites(b)
        w("### %s\n" % m["label"])
        if b.get("status") != "ok" or b.get("errors"):
            w("Run: %s%s.\n" % (b.get("status"), "; errors: " + "; ".join(b.get("errors", [])) if b.get("errors") else ""))
        ex = _explain(b)
        w("Dynamo: %s graph(s), %s break(s) (`explain`), %s logged break(s) at %d site(s). Files checked: %s.\n" % (
            ex.get("graph_count", "–"), ex.get("graph_break_count", "–"), ex.get("logged_breaks", "–"), len(sites),
            ", ".join("`%s`" % f for f in m.get("checked_files", m.get("modeling_files", [])))))
        diags = (m.get("check") or {}).get("diagnostics") or {}
        at_sites = {(s["file"], s["line"]) for s in sites}
        others = ["%s:%d %s" % (f, d["line"], d["code"]) for f, ds in diags.items() for d in ds
                  if (f, d["line"]) not in at_sites]
        if diags:
            w("`graphmend check` reports %d diagnostic(s) in these files, %d of them away from Dynamo's sites "
              "(code this input does not run, or false positives): %s.\n" % (
                  sum(len(ds) for ds in diags.values()), len(others), ", ".join(others[:12]) +
                  (", …" if len(others) > 12 else "") if others else "none"))
        if not sites:
            w("No break.\n")
            continue
        head = ["site", "GB id", "category", "source", "graphmend check"] + ["after %s" % v for v in variants]
        w("| " + " | ".join(head) + " |")
        w("|" + "---|" * len(head))
        for s in sites:
            gmd = s.get("graphmend")
            if gmd is None:
                ours = "not checked"
            elif not gmd:
                ours = "not flagged"
            else:
                ours = "; ".join("%s (%s)" % (d["code"], ", ".join(d["fixes"]) + " fix" if d["fixes"] else
                                              "no fix" + (": " + d["noFixReason"][:80] if d.get("noFixReason") else ""))
                                 for d in gmd)
            row = ["`%s`" % s["site"], s.get("gb") or "?", s["category"], "`%s`" % s.get("source", "").replace("|", "\\|")[:70], ours]
            for v in variants:
                row.append("remains" if _match_after(s, _sites(m.get(v))) else "gone")
            w("| " + " | ".join(row) + " |")
        for v in variants:
            new = [a for a in _sites(m.get(v)) if not _match_after(a, sites)]
            for a in new:
                w("\nNew after `fix` (%s): `%s` (%s, %s) `%s`: %s" % (
                    v, a["site"], a.get("gb") or "?", a["category"], a.get("source", "")[:80], a["reason"][:200]))
        w("")

    # Comparison with the paper (or, for another release, with the paper's release)
    if paper_run:
        w("## Comparison with the paper, per family\n")
        w("Our notes on where our before-counts differ from the paper's (which used PyTorch 2.12 and the released "
          "checkpoints):\n")
        notes = FAMILY_NOTES
    else:
        w("## What changed since transformers %s, per family\n" % PAPER_TRANSFORMERS)
        notes = NEWER_NOTES.get(env["transformers"], {})
        if not notes:
            w("No notes are written for this release yet (they are in `eval/report.py`, `NEWER_NOTES`).\n")
    for fam, m in models.items():
        if fam in notes:
            w("- **%s**: %s" % (m["label"], notes[fam]))
    w("")

    # Unfixed breaks
    w("## Breaks not fixed\n")
    w("Every Dynamo break site that is still there after at least one variant, with the reason.\n")
    any_left = False
    for fam, m in models.items():
        for s in _sites(m.get("before", {})):
            left = [v for v in variants if _match_after(s, _sites(m.get(v)))]
            if variants and not left:
                continue
            any_left = True
            gmd = s.get("graphmend") or []
            why = _note_for(s)
            if not variants:
                why = "not measured: `graphmend fix` unavailable in this run." + (" " + why if why else "")
            elif not gmd:
                why = (why + " " if why else "") + "`graphmend check` does not flag this site, so no fix is offered."
            elif not any(d["fixes"] for d in gmd):
                reasons = "; ".join(d.get("noFixReason") or "no fix for %s" % d["code"] for d in gmd)
                why = (why + " " if why else "") + "Flagged (%s) but no legal fix: %s." % (
                    ", ".join(d["code"] for d in gmd), reasons)
            elif left == ["safe"]:
                offered = sorted({x for d in gmd for x in d["fixes"]})
                why = (why + " " if why else "") + (
                    "A safe fix is offered, but `fix` without `--unsafe-fixes` left the break; `--unsafe-fixes` "
                    "removed it." if "safe" in offered else
                    "Only an unsafe fix is offered; removed with `--unsafe-fixes`.")
            else:
                why = (why + " " if why else "") + "A fix is offered but the break remains after `fix` (%s)." % ", ".join(left)
            w("- **%s** `%s` (%s, %s): %s" % (m["label"], s["site"], s.get("gb") or "?", s["category"], why))
    if not any_left:
        w("Every break site was removed.")
    w("")

    # Failures
    w("## Failures and errors\n")
    failures = []
    for fam, m in models.items():
        for v in ["before"] + variants:
            r = m.get(v)
            if r and (r.get("status") != "ok" or r.get("errors")):
                failures.append("- %s / %s: %s%s" % (m["label"], v, r.get("status"),
                                                     "; " + "; ".join(r.get("errors", [])) if r.get("errors") else ""))
        chk = m.get("check", {})
        if chk.get("error"):
            failures.append("- %s / check: exit %s: %s" % (m["label"], chk.get("rc"), chk["error"]))
    for variant, rec in fixes.items():
        if not rec.get("available"):
            failures.append("- fix %s: %s" % (variant, rec.get("reason")))
    w("\n".join(failures) if failures else "None.")
    w("")
    return "\n".join(out)


def _load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def render_sweep_fix(summary):
    """The third part: the sweep's entries with breaks, before and after `graphmend fix`, per library."""
    out = []
    w = out.append
    w("# The sweep: what `graphmend fix` removes, per library\n")
    w("Generated by `eval/sweep/fix_sweep.py` (`eval/sweep/run.sh --fix`) on %s under torch %s, from the sweep's "
      "results (`docs/sweep.md`): every model class of the sweep where Dynamo logged a break is run again, eval "
      "and train mode, on a copy of its library in which `graphmend fix --assume-compiled module-forward` rewrote "
      "every package file those classes executed. *Sites* are distinct break lines, *breaks* Dynamo's "
      "`graph_break_count` (graphs − 1, the paper's count), *logged* every break Dynamo's log hook saw (also "
      "those before a graph's first op); all summed over the classes and both modes. A class that no longer "
      "builds or runs after a fix counts with its breaks before. Whole run: %s s. Per-class figures are in "
      "`eval/sweep/out/fix-torch-%s/summary.json`.\n" % (
          summary.get("generated", "?"), summary.get("torch", "?"), summary.get("wall_s", "?"),
          summary.get("torch", "?")))
    head = ["library", "version", "classes with breaks", "sites / breaks / logged before"]
    variants = ["safe", "unsafe"]
    for v in variants:
        head += ["after %s" % v, "breaks removed (%s)" % v, "classes broken by the fix (%s)" % v]
    head.append("paper (all 195 models)")
    w("| " + " | ".join(head) + " |")
    w("|" + "---|" * len(head))
    for lib, d in sorted(summary.get("libraries", {}).items()):
        b = d.get("before") or [0, 0, 0]
        row = [lib, d.get("version") or "?", str(d.get("entries", 0)), "%d / %d / %d" % tuple(b)]
        for v in variants:
            a = (d.get("variants") or {}).get(v)
            if not a:
                row += ["–", "–", "–"]
                continue
            aa = a["after"]
            removed = "%d of %d (%.0f%%)" % (b[1] - aa[1], b[1], 100.0 * (b[1] - aa[1]) / b[1]) if b[1] else "–"
            logged = "%d of %d logged" % (b[2] - aa[2], b[2]) if b[2] else ""
            row += ["%d / %d / %d" % tuple(aa), removed + ("; " + logged if logged else ""),
                    str(len(a.get("failed") or [])) + (" (not the copy: %d)" % len(a["not_the_copy"])
                                                       if a.get("not_the_copy") else "")]
        row.append("147 breaks, 107 removed (73%)" if lib == "transformers" else "–")
        w("| " + " | ".join(row) + " |")
    checks = summary.get("fixed_files")
    if checks:
        rows = [(lib, v, r) for lib, vs in sorted(checks.get("libraries", {}).items()) for v, r in sorted(vs.items())]
        changed = sum(r["files_changed"] for _, _, r in rows)
        unreachable = [(lib, v, f, lines) for lib, v, r in rows for f, lines in sorted(r["unreachable_edits"].items())]
        ruff_new = [(lib, v) for lib, v, r in rows if r.get("ruff_new_findings")]
        ruff_run = all("ruff" in r for _, _, r in rows if r["files_changed"])
        w("\nThe fixed files themselves (`eval/sweep/fixed_files.py`, the same fixes on fresh copies): %d file "
          "change(s) over the libraries and both variants; edits inside code Dynamo cannot reach while compiling "
          "(`torch.jit.is_scripting()` branches, the `else` of `is_compiling()`, functions under `torch.jit.script`"
          "/`ignore`/`unused` or `torch.compiler.disable`): %s; new ruff findings (ruff 0.17.6, default rules): %s." % (
              changed,
              "none" if not unreachable else "; ".join("%s %s %s lines %s" % (l, v, f, ls[:5]) for l, v, f, ls in unreachable),
              ("none" if not ruff_new else ", ".join("%s (%s)" % x for x in ruff_new)) if ruff_run else "NOT RUN"))
    w("\nThe paper's figure is over its 195 transformers models (27 with breaks) under torch 2.12; ours are "
      "the sweep's classes of transformers 5.24.0, timm and diffusers under torch 2.15, built from small random "
      "configurations, so the two sets of breaks differ in kind as well as number (most of ours are dynamic "
      "shapes and scalar reads, which no source rewrite removes; see `docs/sweep.md`).\n")
    return "\n".join(out)


def render_sweep_capture(capture):
    """The fourth part: GM301 (compile with fullgraph=True) on the sweep's roots with breaks, per library."""
    out = []
    w = out.append
    w("# The sweep: what GM301 (`fullgraph=True` at the compile root) removes, per library\n")
    w("Generated by `eval/sweep/capture.py` (`eval/sweep/run.sh --capture`) on %s under torch %s. Each model class "
      "of the sweep where Dynamo logged a break is compiled, eval and train mode, as a user's program compiles it "
      "(`torch.compile(Model(Config()).eval())`, called with the sweep's inputs); `graphmend check` over the "
      "library and that program says whether GM301 is reported at each compile call; each class is then compiled "
      "with `fullgraph=True` (backend \"eager\") under real Dynamo and its outputs compared with eager ones, bit for "
      "bit, and where they differ, with those of the same compile without `fullgraph=True` (the program before "
      "the fix). *Breaks* are the sweep's `graph_break_count` of the root in that mode. *Removed* counts the breaks "
      "of roots where GM301 is reported and `fullgraph=True` gives one graph with the outputs of eager or of the "
      "program before the fix; *harmful* the roots where GM301 is reported but `fullgraph=True` fails or changes "
      "an output; *missed* the roots where "
      "`fullgraph=True` works without GM301. Per-root rows: `eval/sweep/out/torch-%s/capture.json`.\n" % (
          capture.get("generated", "?"), capture.get("torch", "?"), capture.get("torch", "?")))
    head = ["library", "version", "roots with breaks", "breaks", "GM301 reported", "one graph after the fix",
            "breaks removed", "harmful", "fullgraph=True works (any root)", "missed"]
    w("| " + " | ".join(head) + " |")
    w("|" + "---|" * len(head))
    for lib, d in sorted((capture.get("libs") or {}).items()):
        if not d.get("roots"):
            continue
        b = d["breaks"]
        w("| " + " | ".join([lib, d.get("version") or "?", str(d["roots"]), str(b), str(d["gm301"]),
                             str(d["gm301_one_graph"]),
                             "%d of %d (%.0f%%)" % (d["breaks_removed"], b, 100.0 * d["breaks_removed"] / b) if b else "–",
                             str(len(d["gm301_fails"])), str(d["fullgraph_ok"]), str(len(d["missed"]))]) + " |")
    blocked = {}
    for lib, d in sorted((capture.get("libs") or {}).items()):
        for r in d.get("missed") or []:
            codes = {c.split()[0] for c in r.get("counted") or [] if not c.startswith("GM301")} or {"nothing counted"}
            for c in codes:
                blocked.setdefault(lib, {}).setdefault(c, 0)
                blocked[lib][c] += 1
    if blocked:
        w("\nWhat `graphmend check` counted for the missed roots (roots per code; a root may carry several): "
          + "; ".join("%s: %s" % (lib, ", ".join("%s %d" % kv for kv in sorted(c.items())))
                      for lib, c in sorted(blocked.items()))
          + ". Since `fullgraph=True` works there, a GM101/GM102/GM203 counted is a break the root does not take in this run (the per-root "
          "verdict's false \"breaks\", docs/sweep.md), an implicit scalar read (GM201) or a shape op GM301 does "
          "not count (GM202) is one it does not trust `fullgraph=True` to capture.")
    compiled_differs = [(lib, r) for lib, d in sorted((capture.get("libs") or {}).items()) for r in d.get("rows") or []
                        if r["gm301"] and r["fullgraph_ok"] and r["same"] is False and r.get("same_as_before")]
    if compiled_differs:
        w("\nRoots where GM301 is reported and the compiled outputs differ from eager's, but are those of the "
          "program before the fix (the compile itself, not `fullgraph=True`, changes them): "
          + ", ".join("%s %s (%s)" % (lib, r["entry"], r["mode"]) for lib, r in compiled_differs) + ".")
    fails = [(lib, r) for lib, d in sorted((capture.get("libs") or {}).items()) for r in d.get("gm301_fails") or []]
    if fails:
        w("\nRoots where GM301 is reported but `fullgraph=True` does not give one graph with the outputs of eager "
          "or of the program before the fix:\n")
        for lib, r in fails:
            w("- %s %s (%s): %s" % (lib, r["entry"], r["mode"], r.get("error") or "outputs differ"))
    w("")
    return "\n".join(out)


# What a program's output or run shows that its row cannot say (written after reading the run's output).
PROGRAM_NOTES = {
    "tutorial-torch-compile": "tutorial-torch-compile prints whether `torch.jit.trace` of its `f1` (an `if` on "
                              "`x.sum() < 0`, traced on one input, run on another) agrees with `f1`: it shows that a "
                              "trace records one branch. After the `torch.where` rewrite the trace records both, so the "
                              "line turns True; `f1`'s own results are the same. The run stops where the tutorial "
                              "imports scipy (not in the sweep's environment), before and after the fix alike, and the "
                              "breaks left are a `torch.compiler.disable`d call and the optimizer's own break.",
}


def render_programs_fix(fix):
    """The fifth part: the programs of the sweep that break, before and after `graphmend fix`."""
    out = []
    w = out.append
    w("# The sweep's programs: what `graphmend fix` removes\n")
    w("Generated by `eval/sweep/programs/fix_programs.py` on %s under torch %s. Each program of the sweep's programs "
      "part (`docs/sweep.md`: public programs that call `torch.compile` themselves, at pinned commits) whose run "
      "logged a graph break is fixed on a copy (`graphmend fix --assume-compiled explicit`, the programs' own "
      "compile calls as roots, so GM301 may write `fullgraph=True`) and run again under real Dynamo, seeded as the "
      "original, each compile call with the `fullgraph=` its (fixed) source gives. *Breaks* are Dynamo's "
      "`graph_break` counter over the run; *output* compares the program's standard output with the original's, "
      "on the lines two runs of the original print alike (a timing is not compared). A program that stops after "
      "the fix counts with its breaks before. Rows: `eval/sweep/out/programs-torch-%s/fix.json`.\n" % (
          fix.get("generated", "?"), fix.get("torch", "?"), fix.get("torch", "?")))
    head = ["program", "breaks before (graphs)", "status before"]
    for v in ("safe", "unsafe"):
        head += ["fixed (%s)" % v, "breaks after (%s)" % v, "output (%s)" % v]
    w("| " + " | ".join(head) + " |")
    w("|" + "---|" * len(head))
    totals = {"before": 0, "safe": 0, "unsafe": 0}
    quiet = []
    for name, p in sorted((fix.get("programs") or {}).items()):
        if "variants" not in p:
            quiet.append("%s (%s)" % (name, p.get("status") + (": " + p["reason"] if p.get("reason") else "")))
            continue
        b = p["before"]
        totals["before"] += b["breaks"] or 0
        row = [name, "%s (%s)" % (b["breaks"], b["graphs"]), b["status"] + (" (%s)" % b["errors"][0][:80] if b.get("errors") else "")]
        for v in ("safe", "unsafe"):
            a = p["variants"][v]
            kept = a["after"]["status"] == b["status"] and a["after"]["breaks"] is not None
            after = a["after"]["breaks"] if kept else b["breaks"]
            totals[v] += (b["breaks"] or 0) - (after or 0)
            fixed = [l.split(": ", 1)[1].split(" fixed", 1)[0] for l in a["fix"]["fixed"] if " fixed: " in l and " not fixed" not in l]
            row += ["%d (%s)" % (len(fixed), ", ".join(sorted(set(fixed)))) if fixed else "0",
                    "%s (%s)" % (after, a["after"]["graphs"]) + ("" if kept else ", " + a["after"]["status"]),
                    "same" if a["same_output"] else "differs"]
        w("| " + " | ".join(row) + " |")
    if totals["before"]:
        w("| **all** | **%d** | | | %d removed (%.0f%%) | | | %d removed (%.0f%%) | |" % (
            totals["before"], totals["safe"], 100.0 * totals["safe"] / totals["before"],
            totals["unsafe"], 100.0 * totals["unsafe"] / totals["before"]))
    notes = [PROGRAM_NOTES[name] for name, p in sorted((fix.get("programs") or {}).items())
             if name in PROGRAM_NOTES and "variants" in p]
    differing = [(name, v, p["variants"][v]["first_difference"]) for name, p in sorted((fix.get("programs") or {}).items())
                 if "variants" in p for v in ("safe", "unsafe") if p["variants"][v].get("first_difference")]
    if differing:
        w("\nOutputs that differ, first line (original → fixed): " + "; ".join(
            "%s (%s): `%s` → `%s`" % (name, v, d[0], d[1]) for name, v, d in differing) + ".")
    for n in notes:
        w("\n" + n)
    if quiet:
        w("\nNot fixed, having no break or no run: " + ", ".join(quiet) + ".")
    w("")
    return "\n".join(out)


def render_all_fixes(summary, capture, programs=None):
    """Per library: the breaks the source rewrites or GM301 remove, at least (the larger of the two per
    model class, since a class's breaks are counted by both), beside the breaks before."""
    out = []
    w = out.append
    libs = sorted(set((summary or {}).get("libraries", {})) | set((capture or {}).get("libs", {})))
    rows = []
    for lib in libs:
        fix_lib = ((summary or {}).get("libraries") or {}).get(lib) or {}
        per_entry = ((fix_lib.get("variants") or {}).get("unsafe") or {}).get("per_entry") or {}
        cap_rows = (((capture or {}).get("libs") or {}).get(lib) or {}).get("rows") or []
        entries = set(per_entry) | {r["entry"] for r in cap_rows}
        before = removed_fix = removed_any = 0
        for e in entries:
            pe = per_entry.get(e)
            cap = [r for r in cap_rows if r["entry"] == e]
            b = pe["before"][1] if pe else sum(r["breaks"] for r in cap)
            by_fix = pe["before"][1] - pe["after"][1] if pe else 0  # negative where the fix added breaks
            by_root = sum(r["breaks"] for r in cap if r["gm301"] and r["fullgraph_ok"] and (r["same"] or r.get("same_as_before")))
            before += b
            removed_fix += by_fix
            removed_any += min(b, max(by_fix, by_root))
        if before:
            rows.append((lib, before, removed_fix, removed_any))
    program_rows = [p for p in ((programs or {}).get("programs") or {}).values() if "variants" in p]
    if program_rows:
        b = sum(p["before"]["breaks"] or 0 for p in program_rows)
        a = 0
        for p in program_rows:
            after = p["variants"]["unsafe"]["after"]
            kept = after["status"] == p["before"]["status"] and after["breaks"] is not None
            a += (p["before"]["breaks"] or 0) - (after["breaks"] if kept else p["before"]["breaks"] or 0)
        if b:
            rows.append(("programs (their own code and compile calls)", b, a, a))
    if not rows:
        return ""
    w("# The sweep, all fixes together, per library\n")
    w("Per model class: the graph breaks before (both modes), those `graphmend fix --unsafe-fixes` removes from the "
      "library's code (the fix part above; negative where it added some) and, at least, those all fixes remove: the "
      "larger of that and the breaks of the class's roots where GM301's `fullgraph=True` gives one graph with the "
      "same outputs (the capture part; the two are not added, since both count the same breaks). The programs "
      "row is the programs part above, where GM301's edit is one of the fixes.\n")
    w("| library | breaks before | removed by source rewrites (unsafe included) | removed by all fixes, at least |")
    w("|---|---|---|---|")
    tb = tf = ta = 0
    for lib, b, f, a in rows:
        tb, tf, ta = tb + b, tf + f, ta + a
        w("| %s | %d | %d (%.0f%%) | %d (%.0f%%) |" % (lib, b, f, 100.0 * f / b, a, 100.0 * a / b))
    w("| **all parts** | **%d** | **%d (%.0f%%)** | **%d (%.0f%%)** |" % (tb, tf, 100.0 * tf / tb, ta, 100.0 * ta / tb))
    w("")
    return "\n".join(out)


def main(argv=None):
    ap = argparse.ArgumentParser(description="Render eval results as markdown.")
    ap.add_argument("results", nargs="?", default=os.path.join(HERE, "results.json"))
    ap.add_argument("out", nargs="?", default=os.path.join(HERE, "evaluation.md"))
    ap.add_argument("--baseline", help="results on the paper's transformers, beside a run on another release")
    ap.add_argument("--newest", help="results of `eval/run.sh --newest`, appended as a second part (its headings "
                                     "one level down) and compared with RESULTS")
    ap.add_argument("--sweep-fix", default=os.path.join(HERE, "sweep", "out", "fix-torch-2.15.0", "summary.json"),
                    help="eval/sweep/fix_sweep.py's summary, appended as a third part (when the file exists)")
    ap.add_argument("--sweep-capture", default=os.path.join(HERE, "sweep", "out", "torch-2.15.0", "capture.json"),
                    help="eval/sweep/capture.py's results, appended as a fourth part (when the file exists)")
    ap.add_argument("--programs-fix", default=os.path.join(HERE, "sweep", "out", "programs-torch-2.15.0", "fix.json"),
                    help="eval/sweep/programs/fix_programs.py's results, appended as a fifth part (when the file exists)")
    ns = ap.parse_args(argv)
    results = _load(ns.results)
    text = render(results, _load(ns.baseline) if ns.baseline else None)
    if ns.newest:
        newest = _load(ns.newest)
        newer = render(newest, results)
        title, rest = text.split("\n", 1)
        text = (title + "\n\nTwo parts: the run on transformers %s (the paper's release), then the same run on "
                "transformers %s (the newest release), compared with the first.\n" % (
                    results["environment"]["transformers"], newest["environment"]["transformers"]) + rest)
        text += "\n" + "\n".join("#" + line if line.startswith("#") else line for line in newer.split("\n"))
    summary = _load(ns.sweep_fix) if ns.sweep_fix and os.path.isfile(ns.sweep_fix) else None
    checks = os.path.join(os.path.dirname(ns.sweep_fix or ""), "fixed_files.json")
    if summary and os.path.isfile(checks):
        summary["fixed_files"] = _load(checks)
    if summary:
        text += "\n" + render_sweep_fix(summary)
    capture = _load(ns.sweep_capture) if ns.sweep_capture and os.path.isfile(ns.sweep_capture) else None
    if capture:
        text += "\n" + render_sweep_capture(capture)
    if ns.programs_fix and os.path.isfile(ns.programs_fix):
        text += "\n" + render_programs_fix(_load(ns.programs_fix))
    if summary or capture:
        text += "\n" + render_all_fixes(summary, capture, _load(ns.programs_fix) if ns.programs_fix and
                                         os.path.isfile(ns.programs_fix) else None)
    with open(ns.out, "w", encoding="utf-8") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
