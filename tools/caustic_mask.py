#!/usr/bin/env python3
"""caustic_mask.py - the caustic region of a scene: where it is brighter with its glass than without.

    .venv-reference/bin/python tools/caustic_mask.py WITH.exr WITHOUT.exr -o mask.png
    .venv-reference/bin/python tools/caustic_mask.py --caustic-only mask.png -o caustic.png

Issue 27 defines a glass scene's caustic region as where a long render of it exceeds a render of
the same scene without the glass by 20%. WITH and WITHOUT are two such renders at the same size
(.pfm, .exr or .npy; an .exr's RGB layer). The mask compares them where both see the same
surface: where raystream's depth AOV (`--aov depth`, written into the .exr) of the two differs,
the camera sees the glass there, which is not the floor's caustic, and those pixels are left out,
with a one-pixel border around them (box filters and jittered samples blur silhouettes). The
depth comes from the inputs when they are .exr files with a depth layer, or from --depth WITH.exr
WITHOUT.exr (raystream renders with --aov depth) when the inputs carry none (Mitsuba's). Pixels
where WITHOUT is black (nothing lit seen there) are left out too.

Luminance (Rec. 709) is averaged over a (2 --smooth + 1)^2 box of usable pixels before the two are
divided, so that a path tracer's fireflies do not speckle the region; then, per usable pixel:
  caustic      with > (1 + threshold) * without                     written as 255
  lit floor    |with / without - 1| <= threshold, and no pixel within two of this one differs
               by more (the rim where the ratio passes from the caustic to the shadow through 1
               is neither)                                          written as 128
  neither      darker by more than the threshold (the shadow), that rim, or left out above: 0
The PNG is 8-bit grey at the renders' size; tools/compare_mitsuba.py --mask reads it. Prints the
pixel counts of both regions. Needs numpy (and the OpenEXR bindings for .exr: .venv-reference).
"""

import argparse
import struct
import sys
import zlib

import numpy as np


def read_pfm(path):
    with open(path, "rb") as f:
        if f.readline().strip() != b"PF":
            raise ValueError(f"{path}: not a colour PFM")
        w, h = (int(x) for x in f.readline().split())
        scale = float(f.readline())
        data = np.frombuffer(f.read(), dtype="<f4" if scale < 0 else ">f4")
    return data.reshape(h, w, 3)[::-1].astype(np.float64)  # PFM rows run bottom to top


def read_exr(path):
    """(rgb, depth or None) of raystream's .exr: the first part's RGB and its depth.Z layer."""
    import OpenEXR
    with OpenEXR.File(path) as f:
        channels = f.parts[0].channels
        rgb = channels.get("RGB")
        if rgb is None:
            raise ValueError(f"{path}: no RGB channels")
        depth = channels.get("depth.Z")
        return (np.asarray(rgb.pixels, dtype=np.float64)[..., :3],
                None if depth is None else np.asarray(depth.pixels, dtype=np.float64))


def read_image(path):
    if path.endswith(".exr"):
        return read_exr(path)
    if path.endswith(".npy"):
        return np.load(path).astype(np.float64)[..., :3], None
    return read_pfm(path), None


def luminance(img):
    return 0.2126 * img[..., 0] + 0.7152 * img[..., 1] + 0.0722 * img[..., 2]


def box_sum(x, r):
    """Sum of x over the (2r + 1)^2 box around each pixel (zero beyond the image)."""
    if r == 0:
        return x.copy()
    p = np.pad(x, r)
    c = np.cumsum(np.cumsum(p, axis=0), axis=1)
    c = np.pad(c, ((1, 0), (1, 0)))
    k = 2 * r + 1
    return c[k:, k:] - c[:-k, k:] - c[k:, :-k] + c[:-k, :-k]


def dilate(mask):
    """mask grown by one pixel in all eight directions."""
    p = np.pad(mask, 1)
    h, w = mask.shape
    out = np.zeros_like(mask)
    for dy in range(3):
        for dx in range(3):
            out |= p[dy:dy + h, dx:dx + w]
    return out


def write_png_grey(path, img):
    """An 8-bit greyscale PNG of img (uint8, rows top to bottom)."""
    h, w = img.shape
    raw = b"".join(b"\0" + img[y].tobytes() for y in range(h))

    def chunk(tag, data):
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)

    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 0, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def read_png_grey(path):
    """A PNG that write_png_grey wrote (8-bit grey, filter 0 on every row), as uint8 rows."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit(f"caustic_mask.py: {path}: not a PNG")
    pos, idat, w, h = 8, b"", 0, 0
    while pos < len(data):
        n, tag = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if tag == b"IHDR":
            w, h, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if (depth, colour, interlace) != (8, 0, 0):
                sys.exit(f"caustic_mask.py: {path}: not an 8-bit grey, non-interlaced PNG")
        elif tag == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    rows = [raw[y * (w + 1):(y + 1) * (w + 1)] for y in range(h)]
    if any(r[0] != 0 for r in rows):
        sys.exit(f"caustic_mask.py: {path}: rows with PNG filters other than none (not this tool's)")
    return np.frombuffer(b"".join(r[1:] for r in rows), dtype=np.uint8).reshape(h, w)


def make_mask(with_rgb, without_rgb, usable, threshold, smooth):
    """The mask image (uint8) and the two regions' boolean arrays."""
    a, b = luminance(with_rgb), luminance(without_rgb)
    n = box_sum(usable.astype(np.float64), smooth)
    a = box_sum(np.where(usable, a, 0.0), smooth) / np.maximum(n, 1.0)
    b = box_sum(np.where(usable, b, 0.0), smooth) / np.maximum(n, 1.0)
    ratio = np.where(usable & (b > 0), a / np.where(b > 0, b, 1.0), 1.0)
    caustic = usable & (ratio > 1.0 + threshold)
    changed = usable & (np.abs(ratio - 1.0) > threshold)
    near = dilate(dilate(changed))  # the rim where the ratio passes through 1 is no lit floor
    lit = usable & ~near
    mask = np.zeros(usable.shape, dtype=np.uint8)
    mask[lit] = 128
    mask[caustic] = 255
    return mask, caustic, lit


def main():
    if len(sys.argv) == 5 and sys.argv[1] == "--caustic-only" and sys.argv[3] == "-o":
        # a mask's caustic alone (255), without the lit floor (128): what bench-quality --mask
        # measures the caustic's error over
        mask = read_png_grey(sys.argv[2])
        write_png_grey(sys.argv[4], np.where(mask == 255, 255, 0).astype(np.uint8))
        print(f"{sys.argv[4]}: {mask.shape[1]}x{mask.shape[0]}: caustic {int((mask == 255).sum())} pixels")
        return 0
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("with_glass", help="render of the scene (.pfm, .exr or .npy)")
    ap.add_argument("without_glass", help="render of the scene without its glass, same size")
    ap.add_argument("-o", "--output", required=True, help="the mask, a PNG")
    ap.add_argument("--depth", nargs=2, metavar=("WITH.exr", "WITHOUT.exr"),
                    help="raystream renders with --aov depth that tell where the glass is seen "
                         "(default: the inputs' own depth layers)")
    ap.add_argument("--threshold", type=float, default=0.2, help="relative excess of the caustic (default 0.2)")
    ap.add_argument("--smooth", type=int, default=1, help="box radius in pixels before dividing (default 1)")
    args = ap.parse_args()

    with_rgb, with_depth = read_image(args.with_glass)
    without_rgb, without_depth = read_image(args.without_glass)
    if args.depth:
        (_, with_depth), (_, without_depth) = read_exr(args.depth[0]), read_exr(args.depth[1])
    if with_depth is None or without_depth is None:
        sys.exit("caustic_mask.py: no depth layers: give .exr renders with --aov depth, or --depth")
    shapes = {with_rgb.shape[:2], without_rgb.shape[:2], with_depth.shape, without_depth.shape}
    if len(shapes) != 1:
        sys.exit(f"caustic_mask.py: the images differ in size: {sorted(shapes)}")

    seen_floor = np.isfinite(without_depth) & (without_depth > 0) & (luminance(without_rgb) > 0)
    with np.errstate(invalid="ignore"):  # inf - inf where nothing is hit: left out by seen_floor
        same_surface = np.abs(with_depth - without_depth) <= 1e-4 * np.abs(without_depth)
    usable = seen_floor & ~dilate(~same_surface) & np.all(np.isfinite(with_rgb), axis=-1)
    mask, caustic, lit = make_mask(with_rgb, without_rgb, usable, args.threshold, args.smooth)
    write_png_grey(args.output, mask)
    h, w = mask.shape
    print(f"{args.output}: {w}x{h}: caustic {int(caustic.sum())} pixels, lit floor {int(lit.sum())} pixels, "
          f"left out {int((~usable).sum())} (glass seen, or nothing lit)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
