#!/usr/bin/env python3
"""render_mitsuba.py - one Mitsuba 3 render of an XML scene, written as a .pfm (or .npy).

    .venv-reference/bin/python tools/reference/render_mitsuba.py SCENE.xml -o OUT.pfm \
        --width 200 --height 150 --spp 4096 --seed 1

The scene's own integrator (ptracer for tests/data/caustics/), at the given size with a box pixel
filter (tools/compare_mitsuba.py's temporary copy), samples per pixel and seed. Used to make the
references that tools/caustic_mask.py measures a caustic from (tests/data/caustics/README.md).
"""

import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import compare_mitsuba  # noqa: E402
import compare_reference  # noqa: E402


def write_pfm(path, img):
    h, w = img.shape[:2]
    with open(path, "wb") as f:
        f.write(f"PF\n{w} {h}\n-1.0\n".encode())
        f.write(np.ascontiguousarray(img[::-1, :, :3], dtype="<f4").tobytes())  # rows bottom to top


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("scene")
    ap.add_argument("-o", "--output", required=True, help=".pfm or .npy")
    ap.add_argument("--width", type=int, required=True)
    ap.add_argument("--height", type=int, required=True)
    ap.add_argument("--spp", type=int, required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--variant", default="auto")
    args = ap.parse_args()
    variant = compare_reference.choose_variant(args.variant)
    import mitsuba as mi
    mi.set_variant(variant)
    mi.set_log_level(mi.LogLevel.Error)
    copy = compare_mitsuba.sized_copy(args.scene, args.width, args.height)
    try:
        scene = mi.load_file(copy or args.scene)
        img = np.array(mi.render(scene, seed=args.seed, spp=args.spp), dtype=np.float32)[..., :3]
    finally:
        if copy:
            os.remove(copy)
    if args.output.endswith(".npy"):
        np.save(args.output, img)
    else:
        write_pfm(args.output, img)
    print(f"{args.output}: Mitsuba {mi.__version__} ({variant}), {img.shape[1]}x{img.shape[0]}, {args.spp} spp, "
          f"seed {args.seed}, mean {float(img.mean()):.6g}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
