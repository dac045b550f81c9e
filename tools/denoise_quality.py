#!/usr/bin/env python3
"""denoise_quality.py - how much the denoiser helps: relative MSE and FLIP of noisy and denoised
renders against a high-spp reference, as a Markdown table (and JSON).

    tools/denoise_quality.py render --raystream build/raystream --out DIR [--spp 1,4,16]
        renders, per scene, a reference (--ref-spp, another seed) and each spp with --denoise,
        as DIR/SCENE_ref.exr and DIR/SCENE_SPP.exr (+ .png, .noisy.png); tools/gpu_denoise.sh
        quality does the same on a GPU host
    tools/denoise_quality.py score DIR [--json FILE]
        scores what DIR holds: for every SCENE_SPP.exr, its noisy layer and its denoised beauty
        against SCENE_ref.exr

relMSE = mean over pixels and channels of (x - r)^2 / (r^2 + 0.01) (the epsilon keeps dark
pixels from dominating; as in Rousselle et al. and the denoising literature). FLIP: NVIDIA's
HDR-FLIP (flip-evaluator from PyPI) on the linear images, mean over the image. Needs numpy,
OpenEXR and flip-evaluator (tools/setup_reference.sh puts them in .venv-reference).
"""
import argparse
import json
import os
import re
import subprocess
import sys

SCENES = {  # name: (scene file, width, height)
    "cornell": ("scenes/cornell.json", 256, 256),
    "mirrors": ("scenes/mirrors.json", 256, 256),
    "sponza": ("tools/bench/scenes/sponza.json", 480, 270),
}


def render(args):
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    os.makedirs(args.out, exist_ok=True)
    for name, (scene, w, h) in SCENES.items():
        path = os.path.join(root, scene)
        if not os.path.exists(path):
            print(f"denoise_quality: {scene} missing, skipped", file=sys.stderr)
            continue
        base = [args.raystream, "render", path, "--width", str(w), "--height", str(h), "-q"]
        out = os.path.join(args.out, name)
        subprocess.run(base + ["--spp", str(args.ref_spp), "--seed", "977", "-o", f"{out}_ref.exr",
                               "-o", f"{out}_ref.png"], check=True)
        for spp in args.spp.split(","):
            subprocess.run(base + ["--spp", spp, "--denoise", "-o", f"{out}_{spp}.exr", "-o", f"{out}_{spp}.png"],
                           check=True)


def read_rgb(path, layer=""):
    import numpy as np
    import OpenEXR
    with OpenEXR.File(path) as f:
        ch = f.channels()
        key = layer if layer else "RGB"
        if key in ch:
            return np.asarray(ch[key].pixels, dtype=np.float32)
        prefix = f"{layer}." if layer else ""
        return np.stack([np.asarray(ch[prefix + c].pixels, dtype=np.float32) for c in "RGB"], axis=-1)


def rel_mse(x, ref):
    import numpy as np
    return float(np.mean((x - ref) ** 2 / (ref ** 2 + 0.01)))


def flip(x, ref):
    import flip_evaluator
    import numpy as np
    return float(flip_evaluator.evaluate(np.maximum(ref, 0), np.maximum(x, 0), "HDR", applyMagma=False)[1])


def score(args):
    rows = []
    for entry in sorted(os.listdir(args.dir)):
        m = re.fullmatch(r"(\w+?)_(\d+)\.exr", entry)
        if not m:
            continue
        name, spp = m.group(1), int(m.group(2))
        ref_path = os.path.join(args.dir, f"{name}_ref.exr")
        if not os.path.exists(ref_path):
            continue
        ref = read_rgb(ref_path)
        path = os.path.join(args.dir, entry)
        noisy, denoised = read_rgb(path, "noisy"), read_rgb(path)
        rows.append({"scene": name, "spp": spp,
                     "relmse_noisy": rel_mse(noisy, ref), "relmse_denoised": rel_mse(denoised, ref),
                     "flip_noisy": flip(noisy, ref), "flip_denoised": flip(denoised, ref)})
    rows.sort(key=lambda r: (r["scene"], r["spp"]))
    print("| scene | spp | relMSE noisy | relMSE denoised | ratio | FLIP noisy | FLIP denoised |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for r in rows:
        print(f"| {r['scene']} | {r['spp']} | {r['relmse_noisy']:.4f} | {r['relmse_denoised']:.4f} | "
              f"{r['relmse_noisy'] / max(r['relmse_denoised'], 1e-12):.1f}x | {r['flip_noisy']:.3f} | "
              f"{r['flip_denoised']:.3f} |")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=2)
    return rows


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command", required=True)
    r = sub.add_parser("render")
    r.add_argument("--raystream", default="build/raystream")
    r.add_argument("--out", required=True)
    r.add_argument("--spp", default="1,4,16")
    r.add_argument("--ref-spp", type=int, default=8192)
    s = sub.add_parser("score")
    s.add_argument("dir")
    s.add_argument("--json")
    args = p.parse_args()
    if args.command == "render":
        render(args)
    else:
        score(args)


if __name__ == "__main__":
    main()
