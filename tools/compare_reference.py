#!/usr/bin/env python3
"""compare_reference.py - raystream against Mitsuba 3 at equal settings, measured against noise.

    tools/compare_reference.py scenes/cornell.json scenes/mirrors.json --depths 2,8 --check

For each scene and depth, renders two images with raystream and two with Mitsuba 3 (independent
seeds), converting the scene with tools/reference/mitsuba_scene.py, and prints:
  ratio    mean(raystream) / mean(Mitsuba) over the image, +- its standard error, and how many
           standard errors it is from 1
  z rms    RMS over 16x16 blocks of the block difference in units of its standard error
           (1.0 = nothing but noise; tools/reference/image_stats.py explains the estimate)
  worst    the largest relative block difference that is beyond noise (|z| > 3)
  FLIP     mean LDR-FLIP between the two renderers' averaged images, next to FLIP between the
           two Mitsuba images (what noise alone gives)
--check exits 1 unless every row is within noise: |ratio - 1| <= 3 SE and z rms < 1.5.

Mitsuba comes from PyPI (tools/setup_reference.sh installs it into .venv-reference). The
llvm_ad_rgb variant is used when Debian's libllvm19 is present (older LLVMs crash it),
scalar_rgb otherwise. Mitsuba images are cached under --cache, keyed by everything that
determines them. --render-only DIR renders just raystream's images (on a GPU host without
Mitsuba); --raystream-images DIR compares images rendered that way.
"""

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "reference"))
import image_stats  # noqa: E402
import mitsuba_scene  # noqa: E402

LLVM_CANDIDATES = ["/usr/lib/x86_64-linux-gnu/libLLVM-19.so", "/usr/lib/x86_64-linux-gnu/libLLVM.so.19.1",
                   "/usr/lib/aarch64-linux-gnu/libLLVM-19.so", "/usr/lib/llvm-19/lib/libLLVM-19.so"]


def read_pfm(path):
    with open(path, "rb") as f:
        if f.readline().strip() != b"PF":
            raise ValueError(f"{path}: not a colour PFM")
        w, h = (int(x) for x in f.readline().split())
        scale = float(f.readline())
        data = np.frombuffer(f.read(), dtype="<f4" if scale < 0 else ">f4")
    return data.reshape(h, w, 3)[::-1].astype(np.float32)  # PFM rows run bottom to top


def image_name(scene, depth, seed):
    return f"{os.path.splitext(os.path.basename(scene))[0]}-d{depth}-s{seed}.pfm"


def render_raystream(args, scene, depth, seed, out_dir):
    out = os.path.join(out_dir, image_name(scene, depth, seed))
    cmd = [args.raystream, "render", scene, "-o", out, "--quiet", "--width", str(args.width), "--height",
           str(args.height), "--spp", str(args.spp), "--max-depth", str(depth), "--seed", str(seed),
           "--integrator", "path", "--backend", args.backend] + (["--accel", args.accel] if args.accel else [])
    subprocess.run(cmd, check=True)
    return out


def choose_variant(requested):
    if requested != "auto":
        return requested
    if os.environ.get("DRJIT_LIBLLVM_PATH"):
        return "llvm_ad_rgb"
    for lib in LLVM_CANDIDATES:
        if os.path.exists(lib):
            os.environ["DRJIT_LIBLLVM_PATH"] = lib
            return "llvm_ad_rgb"
    return "scalar_rgb"


def file_digest(paths):
    h = hashlib.sha256()
    for p in paths:
        with open(p, "rb") as f:
            h.update(f.read())
    return h.hexdigest()


def scene_files(scene_path):
    scene = mitsuba_scene.load(scene_path)
    base = os.path.dirname(os.path.abspath(scene_path))
    meshes = [s["file"] if os.path.isabs(s["file"]) else os.path.join(base, s["file"])
              for s in scene["shapes"] if s["type"] == "mesh"]
    return [scene_path] + meshes


class Mitsuba:
    def __init__(self, variant, cache):
        import mitsuba as mi
        mi.set_variant(variant)
        self.mi = mi
        self.variant = variant
        self.cache = cache
        os.makedirs(cache, exist_ok=True)
        converter = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "reference", "mitsuba_scene.py")]
        self.code_digest = file_digest(converter)

    def render(self, args, scene_path, depth, seed):
        key = json.dumps([file_digest(scene_files(scene_path)), self.code_digest, self.mi.__version__, self.variant,
                          args.width, args.height, args.spp, depth, seed])
        path = os.path.join(self.cache, hashlib.sha256(key.encode()).hexdigest()[:24] + ".npy")
        if os.path.exists(path):
            return np.load(path)
        with tempfile.TemporaryDirectory() as work:
            d = mitsuba_scene.mitsuba_dict(scene_path, args.width, args.height, args.spp, depth, work)
            scene = self.mi.load_dict(d)
            img = np.array(self.mi.render(scene, seed=seed, spp=args.spp), dtype=np.float32)
        np.save(path, img)
        return img


def ldr(img):
    x = np.clip(img, 0.0, 1.0)
    return np.where(x <= 0.0031308, 12.92 * x, 1.055 * np.power(x, 1.0 / 2.4) - 0.055).astype(np.float32)


def flip_mean(a, b):
    try:
        import flip_evaluator
    except ImportError:
        return None
    return float(flip_evaluator.evaluate(ldr(b), ldr(a), "LDR", applyMagma=False)[1])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("scenes", nargs="+")
    ap.add_argument("--raystream", default="build/raystream")
    ap.add_argument("--width", type=int, default=128)
    ap.add_argument("--height", type=int, default=128)
    ap.add_argument("--spp", type=int, default=256)
    ap.add_argument("--depths", default="8", help="comma-separated raystream depths (default 8)")
    ap.add_argument("--backend", default="cpu", help="raystream backend: cpu, cuda or auto (default cpu)")
    ap.add_argument("--accel", help="raystream acceleration structure (default: the backend's)")
    ap.add_argument("--variant", default="auto", help="Mitsuba variant (default: llvm_ad_rgb with libLLVM 19, "
                                                      "else scalar_rgb)")
    ap.add_argument("--cache", default="build/reference-cache", help="where Mitsuba images are kept")
    ap.add_argument("--render-only", metavar="DIR", help="only render raystream's images into DIR")
    ap.add_argument("--raystream-images", metavar="DIR", help="compare raystream images already in DIR")
    ap.add_argument("--json", help="write the results there")
    ap.add_argument("--check", action="store_true", help="exit 1 unless every comparison is within noise")
    ap.add_argument("--noise", action="store_true", help="also print each renderer's error per sample (from its "
                                                          "two images) and their ratio, plain and without the "
                                                          "worst 0.1%% of pixels")
    args = ap.parse_args()
    depths = [int(d) for d in args.depths.split(",")]
    seeds = (1, 2)

    if args.render_only:
        os.makedirs(args.render_only, exist_ok=True)
        for scene in args.scenes:
            for depth in depths:
                for seed in seeds:
                    render_raystream(args, scene, depth, seed, args.render_only)
        return 0

    mitsuba = Mitsuba(choose_variant(args.variant), args.cache)
    print(f"raystream ({args.backend}) vs Mitsuba {mitsuba.mi.__version__} ({mitsuba.variant}), "
          f"{args.width}x{args.height}, {args.spp} spp, seeds {seeds}")
    header = f"{'scene':<16} {'depth':>5} {'ratio':>16} {'sigmas':>6} {'z rms':>6} {'worst':>7} {'FLIP':>6} " \
             f"{'noise':>6}  verdict"
    print(header)
    results, all_ok = [], True
    with tempfile.TemporaryDirectory() as tmp:
        for scene in args.scenes:
            for depth in depths:
                t0 = time.time()
                if args.raystream_images:
                    rs = [read_pfm(os.path.join(args.raystream_images, image_name(scene, depth, s))) for s in seeds]
                else:
                    rs = [read_pfm(render_raystream(args, scene, depth, s, tmp)) for s in seeds]
                t1 = time.time()
                try:
                    mi_imgs = [mitsuba.render(args, scene, depth, s) for s in seeds]
                except mitsuba_scene.ReferenceUnsupported as e:
                    print(f"{os.path.basename(scene):<16} {depth:>5}  no Mitsuba twin: {e}")
                    all_ok = False
                    continue
                t2 = time.time()
                st = image_stats.compare(rs, mi_imgs)
                ok = image_stats.within_noise(st)
                all_ok &= ok
                st.update({"scene": scene, "depth": depth, "within_noise": ok,
                           "flip": flip_mean(0.5 * (rs[0] + rs[1]), 0.5 * (mi_imgs[0] + mi_imgs[1])),
                           "flip_noise": flip_mean(mi_imgs[0], mi_imgs[1]),
                           "seconds_raystream": t1 - t0, "seconds_mitsuba": t2 - t1})
                if args.noise:
                    scale = 0.25 * (rs[0] + rs[1] + mi_imgs[0] + mi_imgs[1])
                    n_rs = image_stats.noise_per_sample(rs, scale)
                    n_mi = image_stats.noise_per_sample(mi_imgs, scale)
                    st.update({"noise_raystream": n_rs, "noise_mitsuba": n_mi,
                               "noise_ratio": n_rs[0] / n_mi[0], "noise_ratio_trimmed": n_rs[1] / n_mi[1]})
                    print(f"{'':>16} noise per sample raystream/Mitsuba {st['noise_ratio']:.3f} "
                          f"(without the worst 0.1%: {st['noise_ratio_trimmed']:.3f})", flush=True)
                results.append(st)
                fmt = lambda v: "n/a" if v is None else f"{v:.4f}"  # noqa: E731
                print(f"{os.path.basename(scene):<16} {depth:>5} {st['ratio']:>8.4f} +- {st['ratio_se']:.4f} "
                      f"{st['ratio_sigmas']:>6.1f} {st['block_z_rms']:>6.2f} {100 * st['worst_block_relative']:>6.1f}% "
                      f"{fmt(st['flip']):>6} {fmt(st['flip_noise']):>6}  {'within noise' if ok else 'BIASED'}",
                      flush=True)
                if not ok:
                    for w in st["worst_blocks"][:3]:
                        print(f"{'':>23} block at pixel {w['pixel']}: z {w['z']:+.1f}, {100 * w['relative']:+.1f}%")
    if args.json:
        meta = {"width": args.width, "height": args.height, "spp": args.spp, "seeds": list(seeds),
                "backend": args.backend, "mitsuba": mitsuba.mi.__version__, "variant": mitsuba.variant}
        with open(args.json, "w") as f:
            json.dump({"settings": meta, "results": results}, f, indent=1)
    if args.check:
        print("all within noise" if all_ok else "NOT within noise")
        return 0 if all_ok else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
