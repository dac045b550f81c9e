#!/usr/bin/env python3
"""plot_bench.py - charts from `raystream bench`, `bench-compact` and `bench-trace` JSON files.

    tools/plot_bench.py RESULTS.json [MORE.json ...] -o OUTDIR

For a bench file: per scene, FPS against depth with one line per dead-ray strategy (path and
whitted side by side), and the live rays entering each bounce as bars. For a bench-compact file:
Roger et al.'s three plots (time against stream length, bandwidth against block size, bandwidth
against fill ratio), each with the device-to-device copy of the same run for reference. For a
bench-trace file: per scene, G rays/s of each acceleration structure and extend kernel for
camera, shadow, bounce and sorted bounce rays, as grouped bars (trace_<scene>.png).
Needs matplotlib (Debian: python3-matplotlib).
"""
import argparse
import json
import os
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

STRATEGY_ORDER = ["flags", "stencil", "persistent", "compact-scan", "compact-block", "compact-warp", "compact-cub"]


def title_of(meta):
    gpu = meta.get("gpu", {}).get("name") or meta.get("device", "?")
    return f"{gpu} - raystream {meta.get('raystream', '?')} ({meta.get('git_commit', '?')[:10]})"


def scene_name(path):
    return os.path.splitext(os.path.basename(path))[0]


def plot_fps(doc, outdir):
    written = []
    results = doc["results"]
    by_scene = defaultdict(list)
    for r in results:
        by_scene[r["scene"]].append(r)
    for scene, rows in by_scene.items():
        integrators = [i for i in ("whitted", "path") if any(r["integrator"] == i for r in rows)]
        fig, axes = plt.subplots(1, len(integrators), figsize=(6 * len(integrators), 4.5), squeeze=False)
        res = f"{rows[0]['width']}x{rows[0]['height']}, {rows[0]['spp']} spp"
        for ax, integ in zip(axes[0], integrators):
            for strat in STRATEGY_ORDER:
                pts = sorted((r["depth"], r["fps_median"]) for r in rows
                             if r["integrator"] == integ and r["deadray"] == strat)
                if pts:
                    ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=strat)
            ax.set_title(f"{scene_name(scene)}, {integ}")
            ax.set_xlabel("reflection depth (max ray segments per path)")
            ax.set_ylabel(f"frames per second ({res})")
            ax.grid(alpha=0.3)
            ax.set_ylim(bottom=0)
        axes[0][0].legend(fontsize=8)
        fig.suptitle(title_of(doc["meta"]), fontsize=9)
        fig.tight_layout()
        path = os.path.join(outdir, f"fps_{scene_name(scene)}.png")
        fig.savefig(path, dpi=110)
        plt.close(fig)
        written.append(path)

        # live rays entering each bounce: the deepest run of the first strategy (all agree)
        fig, axes = plt.subplots(1, len(integrators), figsize=(6 * len(integrators), 4), squeeze=False)
        for ax, integ in zip(axes[0], integrators):
            cand = [r for r in rows if r["integrator"] == integ]
            deepest = max(cand, key=lambda r: (r["depth"], r["deadray"] == "flags"))
            frac = deepest["live_fraction"]
            ax.bar(range(1, len(frac) + 1), [100 * f for f in frac], color="tab:blue")
            ax.set_title(f"{scene_name(scene)}, {integ}: live rays per bounce")
            ax.set_xlabel("bounce (ray segment)")
            ax.set_ylabel("% of camera rays still alive")
            ax.set_ylim(0, 105)
            ax.grid(axis="y", alpha=0.3)
        fig.suptitle(title_of(doc["meta"]), fontsize=9)
        fig.tight_layout()
        path = os.path.join(outdir, f"live_{scene_name(scene)}.png")
        fig.savefig(path, dpi=110)
        plt.close(fig)
        written.append(path)
    return written


def plot_compaction(doc, outdir):
    rows = doc["compaction"]
    fig, axes = plt.subplots(1, 3, figsize=(17, 4.8))
    methods = ["compact-scan", "compact-block", "compact-warp", "compact-cub"]

    size = [r for r in rows if r["sweep"] == "size"]
    for m in methods:
        for payload, style in ((False, "-"), (True, "--")):
            pts = sorted((r["n"], r["ms_median"]) for r in size if r["method"] == m and r["payload"] == payload)
            if pts:
                axes[0].plot([p[0] / 2**20 for p in pts], [p[1] for p in pts], style, marker="o",
                             label=f"{m}{' + payload' if payload else ''}")
    copy = sorted((r["n"], r["ms_median"]) for r in size if r["method"] == "copy")
    if copy:
        axes[0].plot([p[0] / 2**20 for p in copy], [p[1] for p in copy], "k:", marker="s", label="copy (same n)")
    axes[0].set_xlabel("stream length (M entries), fill 0.5")
    axes[0].set_ylabel("time (ms, median)")
    axes[0].set_title("cost is linear in the stream length")
    axes[0].legend(fontsize=7)

    block = [r for r in rows if r["sweep"] == "block_size"]
    for m in ("compact-scan", "compact-block"):
        pts = sorted((r["block_size"], r["gbps"]) for r in block if r["method"] == m)
        if pts:
            axes[1].plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=m)
    copy = [r["copy_gbps"] for r in block]
    if copy:
        axes[1].axhline(copy[0], color="k", linestyle=":", label="copy")
    axes[1].set_xscale("log", base=2)
    axes[1].set_xlabel("block size s (entries per tile)")
    axes[1].set_ylabel("GB/s (bytes read + written)")
    n = block[0]["n"] if block else 0
    axes[1].set_title(f"effect of block size ({n / 2**20:.0f}M entries, fill 0.5)")
    axes[1].legend(fontsize=7)

    fill = [r for r in rows if r["sweep"] == "fill"]
    for m in methods:
        pts = sorted((r["fill"], r["gbps"]) for r in fill if r["method"] == m)
        if pts:
            axes[2].plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=m)
    copy = sorted((r["fill"], r["copy_gbps"]) for r in fill if r["method"] == "copy")
    if copy:
        axes[2].plot([p[0] for p in copy], [p[1] for p in copy], "k:", label="copy")
    axes[2].set_xlabel("fill ratio (fraction kept)")
    axes[2].set_ylabel("GB/s (bytes read + written)")
    n = fill[0]["n"] if fill else 0
    axes[2].set_title(f"effect of fill ratio ({n / 2**20:.0f}M entries)")
    axes[2].legend(fontsize=7)
    for ax in axes:
        ax.grid(alpha=0.3)
        ax.set_ylim(bottom=0)
    fig.suptitle(title_of(doc["meta"]), fontsize=9)
    fig.tight_layout()
    path = os.path.join(outdir, "compaction.png")
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return [path]


def is_trace(doc):
    return bool(doc.get("results")) and "camera" in doc["results"][0]


def plot_trace(doc, outdir):
    written = []
    by_scene = defaultdict(list)
    for r in doc["results"]:
        by_scene[r["scene"]].append(r)
    kinds = [("camera", "camera"), ("shadow", "shadow"), ("bounce", "bounce"), ("bounce_sorted", "bounce, sorted")]
    for scene, rows in by_scene.items():
        fig, ax = plt.subplots(figsize=(9, 4.5))
        width = 0.8 / len(rows)
        for i, r in enumerate(rows):
            label = r["accel"] + ("+sbvh" if r.get("spatial_splits") else "") + f" ({r['trace_kernel']})"
            values = [r[k]["rays_per_s"] / 1e9 for k, _ in kinds]
            ax.bar([x + i * width for x in range(len(kinds))], values, width, label=label)
        ax.set_xticks([x + 0.4 - width / 2 for x in range(len(kinds))])
        ax.set_xticklabels([name for _, name in kinds])
        ax.set_ylabel("G rays/s")
        ax.set_title(f"{scene_name(scene)}, {rows[0]['width']}x{rows[0]['height']}: rays/s per structure\n"
                     f"{title_of(doc.get('meta', {}))}", fontsize=9)
        ax.legend(fontsize=8)
        ax.grid(axis="y", alpha=0.3)
        path = os.path.join(outdir, f"trace_{scene_name(scene)}.png")
        fig.tight_layout()
        fig.savefig(path, dpi=110)
        plt.close(fig)
        written.append(path)
    return written


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("-o", "--outdir", default=".")
    args = ap.parse_args()
    os.makedirs(args.outdir, exist_ok=True)
    for f in args.files:
        with open(f) as fh:
            doc = json.load(fh)
        written = []
        if is_trace(doc):
            written += plot_trace(doc, args.outdir)
        elif doc.get("results"):
            written += plot_fps(doc, args.outdir)
        if doc.get("compaction"):
            written += plot_compaction(doc, args.outdir)
        for w in written:
            print(w)


if __name__ == "__main__":
    main()
