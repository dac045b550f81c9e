#!/usr/bin/env python3
"""make_textures.py - writes the images that the shipped scenes and the texture tests use.

    tools/make_textures.py [OUT_DIR]      default: scenes/textures

Every image is computed here (no downloaded assets) and written as PNG with the standard
library's zlib, so the files are byte-for-byte reproducible. The outputs are committed; run this
after changing it.
  checker.png      64x64, 8x8-texel squares of cream and red (sRGB)
  quadrants.png    16x16: red top-left, green top-right, blue bottom-left, white bottom-right
  fine_checker.png 256x256, single-texel black and white checker: linear 0 and 1, mean 0.5
  marble.png       128x128, a smooth procedural veined pattern for the materials scene
  half_mask.png    16x16 greyscale-in-RGB, no alpha: white (opaque) left half, black right half
  grey188.png      4x4, every texel (188, 188, 188): a uniform colour or roughness, for tests
  bumps_normal.png 64x64 tangent-space normal map (linear, OpenGL/glTF convention: green up) of a
                   4x4 grid of round bumps
  bumps_height.png 64x64 the same bumps as a height field (linear grey), for bump mapping
  gold_mr.png      16x16 glTF metallic-roughness map: blue (metallic) 1, green (roughness) in
                   stripes between 0.2 and 0.5
  sky.hdr          128x64 Radiance HDR environment map (linear floats, uncompressed RGBE): a
                   blue-to-white sky, a dim ground and a small sun of radiance 60 whose few
                   texels carry about half the light, which is what importance sampling is for
"""
import math
import os
import struct
import sys
import zlib


def write_png(path, width, height, pixels, channels=4):
    """8-bit PNG of `channels` 4 (RGBA, colour type 6) or 3 (RGB, colour type 2), rows from the top."""
    row = width * channels
    raw = b"".join(b"\x00" + bytes(pixels[y * row:(y + 1) * row]) for y in range(height))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 6 if channels == 4 else 2, 0, 0, 0)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) +
                chunk(b"IEND", b""))


def write_hdr(path, width, height, rgb):
    """Radiance RGBE, flat scanlines (which raystream and Mitsuba read), rows from the top."""
    out = bytearray(b"#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y %d +X %d\n" % (height, width))
    for r, g, b in rgb:
        m = max(r, g, b)
        if m < 1e-32:
            out += b"\x00\x00\x00\x00"
            continue
        mantissa, exponent = math.frexp(m)
        scale = mantissa * 256.0 / m
        out += bytes((int(r * scale), int(g * scale), int(b * scale), exponent + 128))
    with open(path, "wb") as f:
        f.write(bytes(out))


def sky_texel(x, y, width, height):
    """The equirectangular sky of sky.hdr at texel (x, y): direction as src/kernel/light/env_map.h."""
    u, v = (x + 0.5) / width, y / (height - 1)  # rows from the zenith to the nadir, as Mitsuba 3
    phi, theta = 2.0 * math.pi * u, math.pi * v
    d = (math.sin(theta) * math.sin(phi), math.cos(theta), -math.sin(theta) * math.cos(phi))
    sun_elevation, sun_azimuth = math.radians(35.0), 2.0 * math.pi * 0.3
    sun = (math.cos(sun_elevation) * math.sin(sun_azimuth), math.sin(sun_elevation),
           -math.cos(sun_elevation) * math.cos(sun_azimuth))
    if sum(a * b for a, b in zip(d, sun)) > math.cos(math.radians(7.0)):
        return (60.0, 56.0, 48.0)
    if d[1] >= 0.0:
        t = math.sqrt(d[1])
        return (1.1 - 0.8 * t, 1.15 - 0.65 * t, 1.2 - 0.2 * t)
    return (0.16, 0.13, 0.1)


def image(width, height, texel):
    out = []
    for y in range(height):
        for x in range(width):
            out += texel(x, y)
    return out


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "scenes", "textures")
    os.makedirs(out, exist_ok=True)
    write_png(os.path.join(out, "checker.png"), 64, 64,
              image(64, 64, lambda x, y: (200, 40, 35, 255) if (x // 8 + y // 8) % 2 else (235, 225, 200, 255)))
    quadrant = {(0, 0): (255, 0, 0, 255), (1, 0): (0, 255, 0, 255), (0, 1): (0, 0, 255, 255),
                (1, 1): (255, 255, 255, 255)}
    write_png(os.path.join(out, "quadrants.png"), 16, 16, image(16, 16, lambda x, y: quadrant[(x // 8, y // 8)]))
    write_png(os.path.join(out, "fine_checker.png"), 256, 256,
              image(256, 256, lambda x, y: (255, 255, 255, 255) if (x + y) % 2 else (0, 0, 0, 255)))

    def marble(x, y):
        t = 0.5 + 0.5 * math.sin(x * 0.11 + 3.0 * math.sin(y * 0.07) + 1.5 * math.sin((x + y) * 0.05))
        v = int(150 + 95 * t ** 3)
        return (v, v - 8, v - 20, 255)

    write_png(os.path.join(out, "marble.png"), 128, 128, image(128, 128, marble))
    write_png(os.path.join(out, "grey188.png"), 4, 4, image(4, 4, lambda x, y: (188, 188, 188, 255)))
    write_png(os.path.join(out, "half_mask.png"), 16, 16,
              [c for y in range(16) for x in range(16) for c in ((255,) * 3 if x < 8 else (0,) * 3)], channels=3)
    def bump_height(x, y):
        """Height of the bumps at texel (x, y) in [0, 1]: a dome per 16x16 cell."""
        cx, cy = (x % 16) - 7.5, (y % 16) - 7.5
        r2 = (cx * cx + cy * cy) / 36.0
        return math.sqrt(1.0 - r2) if r2 < 1.0 else 0.0

    def bump_normal(x, y):
        cx, cy = (x % 16) - 7.5, (y % 16) - 7.5
        r2 = (cx * cx + cy * cy) / 36.0
        if r2 >= 1.0:
            n = (0.0, 0.0, 1.0)
        else:  # a shallow dome's normal; image rows go down, the map's +y (v) goes up
            n = (0.5 * cx / 6.0, -0.5 * cy / 6.0, 1.0)
            length = math.sqrt(sum(c * c for c in n))
            n = tuple(c / length for c in n)
        return tuple(int(round(255 * (0.5 + 0.5 * c))) for c in n) + (255,)

    write_png(os.path.join(out, "bumps_normal.png"), 64, 64, image(64, 64, bump_normal))
    write_png(os.path.join(out, "bumps_height.png"), 64, 64,
              image(64, 64, lambda x, y: (int(round(255 * bump_height(x, y))),) * 3 + (255,)))
    write_png(os.path.join(out, "gold_mr.png"), 16, 16,
              image(16, 16, lambda x, y: (0, 51 if (y // 4) % 2 == 0 else 128, 255, 255)))
    write_hdr(os.path.join(out, "sky.hdr"), 128, 64, [sky_texel(x, y, 128, 64) for y in range(64) for x in range(128)])


if __name__ == "__main__":
    main()
