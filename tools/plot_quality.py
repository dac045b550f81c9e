#!/usr/bin/env python3
"""plot_quality.py - charts and a summary from `raystream bench-quality` JSON files.

    tools/plot_quality.py RESULTS.json [MORE.json ...] -o OUTDIR [--baseline STEM]

Per scene, quality_<scene>.png: relMSE against tracing time (log-log) and against samples per
pixel, one line per configuration of each file (solid: plain relMSE; dashed, same colour: with
the worst 0.1% of pixels left out), the targets as dotted lines. With several files each
configuration's name starts with its file's stem (new.json -> "new: sobol+tree").

On stdout, per scene: each configuration's seconds to every target (plain/trimmed) and, with
--baseline STEM, its times as a fraction of the first configuration of STEM.json (the
baseline build measured through --external, say): 0.25 = the same error in a quarter of the time.
Needs matplotlib (Debian: python3-matplotlib) for the charts; the summary prints without it.
"""
import argparse
import json
import os
from collections import OrderedDict


def scene_name(path):
    return os.path.splitext(os.path.basename(path))[0]


def load(files):
    """[(stem, doc)] and, per scene file, [(name, stem, configuration)] in file order."""
    docs, scenes = [], OrderedDict()
    for f in files:
        stem = os.path.splitext(os.path.basename(f))[0]
        doc = json.load(open(f))
        if doc.get("meta", {}).get("benchmark") != "bench-quality":
            raise SystemExit(f"{f}: not a bench-quality result (meta.benchmark)")
        docs.append((stem, doc))
        for result in doc["results"]:
            for c in result["configurations"]:
                name = f"{stem}: {c['label']}" if len(files) > 1 else c["label"]
                scenes.setdefault(scene_name(result["scene"]), []).append((name, stem, c, result))
    return docs, scenes


def fmt(x):
    return "-" if x is None else f"{x:.3g}"


def summary(scenes, targets, baseline):
    for scene, rows in scenes.items():
        ref = rows[0][3]["reference"]
        est = ref.get("relmse_estimate")
        print(f"\n{scene}: {rows[0][3]['width']}x{rows[0][3]['height']}, depth {rows[0][3]['max_depth']}; "
              f"reference {ref['source']}" + (f", its own relMSE {est:.3g}" if est is not None else "") +
              ("" if ref.get("adequate") is not False else " - TOO NOISY (over a tenth of the smallest error)"))
        base = next((c for name, stem, c, _ in rows if stem == baseline), None) if baseline else None
        head = "".join(f" {'s to %.0e' % t:>17}" for t in targets)
        print(f"{'configuration':45s}{head}" + ("   time / baseline's" if base else ""))
        for name, _, c, _ in rows:
            times = {t["target"]: t for t in c["time_to_target"]}
            cells = ""
            for t in targets:
                cell = fmt(times.get(t, {}).get("seconds")) + "/" + fmt(times.get(t, {}).get("seconds_trimmed"))
                cells += f" {cell:>17}"
            ratio = ""
            if base:
                bt = {t["target"]: t for t in base["time_to_target"]}
                parts = []
                for t in targets:
                    for key in ("seconds", "seconds_trimmed"):
                        a, b = times.get(t, {}).get(key), bt.get(t, {}).get(key)
                        parts.append(f"{a / b:.3f}" if a is not None and b else "-")
                ratio = "   " + " ".join(parts)
            line = f"{name[:45]:45s}{cells}{ratio}"
            if c.get("error"):
                line += f"   failed: {c['error']}"
            print(line)
    print("(seconds plain/trimmed; ratios per target, plain then trimmed; - = not reached)")


def plot(docs, scenes, targets, outdir):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    meta = docs[0][1]["meta"]
    device = meta.get("gpu", {}).get("name") or meta.get("device", "?")
    written = []
    for scene, rows in scenes.items():
        fig, axes = plt.subplots(1, 2, figsize=(13, 5.2))
        colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
        for i, (name, _, c, _) in enumerate(rows):
            pts = [p for p in c["points"] if p["relmse"] is not None]
            if not pts:
                continue
            colour = colours[i % len(colours)]
            for ax, x in ((axes[0], "seconds"), (axes[1], "spp")):
                # an --external render too short for the two decimals of its "done in" line reads 0 s
                shown = [p for p in pts if p[x] > 0]
                xs = [p[x] for p in shown]
                ax.plot(xs, [p["relmse"] for p in shown], "-", marker="o", ms=3, color=colour, label=name)
                ax.plot(xs, [p["relmse_trimmed"] for p in shown], "--", color=colour)
        for ax in axes:
            for t in targets:
                ax.axhline(t, color="grey", linestyle=":", linewidth=0.8)
            ax.set_yscale("log")
        axes[0].set_xscale("log")
        axes[1].set_xscale("log", base=2)
        for ax in axes:
            ax.grid(alpha=0.3, which="both")
            ax.set_ylabel("relMSE (dashed: worst 0.1% of pixels left out)")
        axes[0].set_xlabel("tracing time (s)")
        axes[1].set_xlabel("samples per pixel")
        axes[0].set_title(f"{scene}: error against time")
        axes[1].set_title(f"{scene}: error per sample")
        axes[0].legend(fontsize=7)
        r = rows[0][3]
        fig.suptitle(f"{device} - {r['width']}x{r['height']}, depth {r['max_depth']} - raystream "
                     f"{meta.get('raystream', '?')} ({meta.get('git_commit', '?')[:10]})", fontsize=9)
        fig.tight_layout()
        path = os.path.join(outdir, f"quality_{scene}.png")
        fig.savefig(path, dpi=110)
        plt.close(fig)
        written.append(path)
    return written


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("-o", "--outdir", default=".")
    ap.add_argument("--baseline", help="stem of the file whose first configuration the others are divided by")
    ap.add_argument("--no-charts", action="store_true", help="the summary only")
    args = ap.parse_args()
    docs, scenes = load(args.files)
    targets = sorted({t for _, d in docs for t in d["meta"].get("targets", [])}, reverse=True)
    summary(scenes, targets, args.baseline)
    if not args.no_charts:
        os.makedirs(args.outdir, exist_ok=True)
        for path in plot(docs, scenes, targets, args.outdir):
            print(f"wrote {path}")


if __name__ == "__main__":
    main()
