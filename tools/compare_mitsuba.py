#!/usr/bin/env python3
"""compare_mitsuba.py - a Mitsuba 3 XML scene rendered by raystream (which imports it) and by Mitsuba 3.

    .venv-reference/bin/python tools/compare_mitsuba.py tests/data/import/mitsuba/cbox.xml --check

For each scene, renders two images with raystream (`raystream render scene.xml`, the CPU backend)
and two with Mitsuba 3 (mitsuba.load_file of the same file), with independent seeds, at the same
size and samples per pixel (the film's width and height, and a box pixel filter as raystream's,
are set in a temporary copy of the XML written beside it, so that relative paths still
resolve), and prints:
  R G B     mean(raystream) / mean(Mitsuba) per channel over the image
  ratio     the same on luminance, +- its standard error and how many standard errors from 1
  z rms     RMS over 16x16 blocks of the block difference in units of its standard error
            (tools/reference/image_stats.py; 1.0 = nothing but noise)
--check exits 1 unless, for every scene, each channel's mean is within --tolerance (default 5%)
and z rms < 1.5. The depth and everything else come from the scene itself, so this also checks
the importer's mapping of Mitsuba's max_depth. Functions are shared with compare_reference.py.

Regions (issue 27's caustic checks): --mask MASK.png (8-bit grey, the film's size, as
tools/caustic_mask.py writes it) compares the luminance means inside its regions separately:
255 = the caustic, 128 = the directly lit floor (a mask of only 0 and 255: inside and outside).
It prints each region's ratio raystream / Mitsuba +- its standard error (from the two seeds a
side, tools/reference/image_stats.py's estimate), and --check then asks only that the caustic be
within --caustic-tolerance (default 10%) and the other region within --tolerance: pixels outside
the regions (the glass itself, which a particle tracer cannot see through and SPPM can) may
differ. --integrator NAME renders raystream with that integrator instead of the scene's (sppm
against Mitsuba's ptracer), --raystream-spp N with N samples per pixel (SPPM passes) instead of
--spp, and --raystream-args passes further options (one string, split as a shell would).
"""

import argparse
import json
import os
import shlex
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "reference"))
import compare_reference  # noqa: E402
import image_stats  # noqa: E402


def sized_copy(scene, width, height):
    """A copy of the scene XML beside it whose film is width x height; the caller removes it.
    None if the sensor is not in the file itself (but in an included one)."""
    tree = ET.parse(scene)
    films = tree.getroot().findall("./sensor/film")
    if not films:
        sensor = tree.getroot().find("./sensor")
        if sensor is None:
            return None
        films = [ET.SubElement(sensor, "film", {"type": "hdrfilm"})]
    for film in films:
        for name, value in (("width", width), ("height", height)):
            node = film.find(f"./integer[@name='{name}']")
            if node is None:
                node = ET.SubElement(film, "integer", {"name": name})
            node.set("value", str(value))
        # raystream reconstructs pixels with a box filter (one jittered sample per pixel sample);
        # Mitsuba's default is a Gaussian, which would blur edges differently
        for old in film.findall("./rfilter"):
            film.remove(old)
        ET.SubElement(film, "rfilter", {"type": "box"})
    fd, path = tempfile.mkstemp(prefix=".compare-", suffix=".xml", dir=os.path.dirname(os.path.abspath(scene)))
    os.close(fd)
    tree.write(path)
    return path


def render_raystream(args, scene, seed, out_dir):
    out = os.path.join(out_dir, f"rs-{seed}.pfm")
    cmd = [args.raystream, "render", scene, "-o", out, "--quiet", "--width", str(args.width), "--height",
           str(args.height), "--spp", str(args.raystream_spp or args.spp), "--seed", str(seed), "--backend", "cpu"]
    if args.integrator:
        cmd += ["--integrator", args.integrator]
    cmd += shlex.split(args.raystream_args)
    subprocess.run(cmd, check=True)
    return compare_reference.read_pfm(out)


def read_mask(mi, path, width, height):
    """The regions of a mask PNG: [(name, boolean array, tolerance key)], caustic first."""
    mask = np.array(mi.Bitmap(path), dtype=np.uint8)
    if mask.ndim == 3:
        mask = mask[..., 0]
    if mask.shape != (height, width):
        raise SystemExit(f"{path}: the mask is {mask.shape[1]}x{mask.shape[0]}, the film {width}x{height}")
    if np.any((mask != 0) & (mask != 255)):
        return [("caustic", mask == 255, "caustic"), ("lit floor", mask == 128, "floor")]
    return [("inside", mask == 255, "caustic"), ("outside", mask == 0, "floor")]


def region_ratio(rs, ref, where):
    """Luminance mean ratio raystream / Mitsuba over the pixels `where`, its standard error, and the
    relative standard error of Mitsuba's mean there (how well the reference pins the region)."""
    means, ses = [], []
    for pair in (rs, ref):
        mean, var = image_stats.mean_and_var(pair)
        n = int(where.sum())
        means.append(float(mean[where].mean()))
        ses.append(float(np.sqrt(var[where].sum()) / n))
    if not means[1] > 0:
        return float("nan"), float("nan"), float("nan")
    ratio = means[0] / means[1]
    se = ratio * float(np.hypot(ses[0] / means[0], ses[1] / means[1])) if means[0] > 0 else ses[0] / means[1]
    return ratio, se, ses[1] / means[1]


def check_regions(args, mi, rs, ref):
    """Prints each region's ratio; whether all are within their tolerances."""
    ok = True
    for name, where, kind in read_mask(mi, args.mask, args.width, args.height):
        if not where.any():
            print(f"{'':>22} {name}: no pixels in the mask")
            ok = False
            continue
        ratio, se, ref_noise = region_ratio(rs, ref, where)
        tol = args.caustic_tolerance if kind == "caustic" else args.tolerance
        good = abs(ratio - 1.0) <= tol
        ok &= good
        print(f"{'':>22} {name:<9} {int(where.sum()):>6} px  ratio {ratio:.4f} +- {se:.4f} (Mitsuba's noise "
              f"{100 * ref_noise:.2f}%), tolerance {100 * tol:.0f}%: {'ok' if good else 'DIFFERENT'}", flush=True)
    return ok


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("scenes", nargs="+")
    ap.add_argument("--raystream", default="build/raystream")
    ap.add_argument("--width", type=int, default=128)
    ap.add_argument("--height", type=int, default=128)
    ap.add_argument("--spp", type=int, default=256)
    ap.add_argument("--variant", default="auto", help="Mitsuba variant (default: llvm_ad_rgb with libLLVM 19, "
                                                      "else scalar_rgb)")
    ap.add_argument("--tolerance", type=float, default=0.05, help="per-channel mean ratio tolerance (default 0.05)")
    ap.add_argument("--mask", help="compare the regions of this mask PNG instead of the whole image (see above)")
    ap.add_argument("--caustic-tolerance", type=float, default=0.10,
                    help="the mask's caustic region mean ratio tolerance (default 0.10)")
    ap.add_argument("--integrator", help="raystream's integrator (default: the scene's)")
    ap.add_argument("--raystream-spp", type=int, help="raystream's samples per pixel (default: --spp)")
    ap.add_argument("--raystream-args", default="", help="more raystream render options, one string")
    ap.add_argument("--json", help="write the results there")
    ap.add_argument("--check", action="store_true", help="exit 1 unless every scene is within tolerance")
    args = ap.parse_args()
    variant = compare_reference.choose_variant(args.variant)
    import mitsuba as mi
    mi.set_variant(variant)
    mi.set_log_level(mi.LogLevel.Error)
    seeds = (1, 2)
    rs_settings = (f"{args.integrator or 'its integrator'}, {args.raystream_spp or args.spp} spp"
                   + (f" {args.raystream_args}" if args.raystream_args else ""))
    print(f"raystream (cpu; {rs_settings}) vs Mitsuba {mi.__version__} ({variant}), {args.width}x{args.height}, "
          f"{args.spp} spp, seeds {seeds}")
    print(f"{'scene':<20} {'R':>7} {'G':>7} {'B':>7} {'ratio':>16} {'sigmas':>6} {'z rms':>6} {'FLIP':>6}  verdict")
    results, all_ok = [], True
    for scene in args.scenes:
        copy = sized_copy(scene, args.width, args.height)
        try:
            with tempfile.TemporaryDirectory() as tmp:
                t0 = time.time()
                loaded = mi.load_file(copy or scene)
                saved = (args.width, args.height)
                if copy is None:  # the sensor is in an included file: its own size and filter
                    args.width, args.height = (int(v) for v in loaded.sensors()[0].film().size())
                    print(f"{os.path.basename(scene)}: sensor in an included file: {args.width}x{args.height}, "
                          f"the scene's own pixel filter")
                rs = [render_raystream(args, copy or scene, s, tmp) for s in seeds]
                args.width, args.height = saved
                t1 = time.time()
                ref = [np.array(mi.render(loaded, seed=s, spp=args.spp), dtype=np.float32)[..., :3] for s in seeds]
                t2 = time.time()
        finally:
            if copy:
                os.remove(copy)
        mean_rs = 0.5 * (rs[0] + rs[1])
        mean_mi = 0.5 * (ref[0] + ref[1])
        channels = [float(mean_rs[..., c].mean() / mean_mi[..., c].mean()) if mean_mi[..., c].mean() > 0
                    else float("nan") for c in range(3)]
        st = image_stats.compare(rs, ref)
        if args.mask:
            ok = None  # decided by the regions below
        else:
            ok = all(abs(c - 1.0) <= args.tolerance for c in channels) and st["block_z_rms"] < 1.5
            all_ok &= ok
        st.update({"scene": scene, "channel_ratios": channels, "ok": ok,
                   "flip": compare_reference.flip_mean(mean_rs, mean_mi),
                   "seconds_raystream": t1 - t0, "seconds_mitsuba": t2 - t1})
        results.append(st)
        flip = "n/a" if st["flip"] is None else f"{st['flip']:.4f}"
        print(f"{os.path.basename(scene):<20} {channels[0]:>7.4f} {channels[1]:>7.4f} {channels[2]:>7.4f} "
              f"{st['ratio']:>8.4f} +- {st['ratio_se']:.4f} {st['ratio_sigmas']:>6.1f} {st['block_z_rms']:>6.2f} "
              f"{flip:>6}  {'regions:' if ok is None else 'ok' if ok else 'DIFFERENT'}", flush=True)
        if ok is None:
            ok = check_regions(args, mi, rs, ref)
            all_ok &= ok
            st["ok"] = ok
        elif not ok:
            for w in st["worst_blocks"][:3]:
                print(f"{'':>22} block at pixel {w['pixel']}: z {w['z']:+.1f}, {100 * w['relative']:+.1f}%")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"settings": {"width": args.width, "height": args.height, "spp": args.spp,
                                    "mitsuba": mi.__version__, "variant": variant}, "results": results}, f, indent=1)
    if args.check:
        print("all within tolerance" if all_ok else "NOT within tolerance")
        return 0 if all_ok else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
