#!/usr/bin/env python3
"""make_mitsuba_tables.py - writes src/host/import/mitsuba/mts_tables.c, the data the Mitsuba 3
importer needs, from the Mitsuba 3 PyPI package of the reference environment:

    .venv-reference/bin/python tools/make_mitsuba_tables.py src/host/import/mitsuba/mts_tables.c

- the CIE 1931 2-degree colour matching functions and illuminant D65 at 1 nm from 360 to 830 nm:
  mitsuba.cie1931_xyz and mitsuba.cie_d65 sampled at whole nanometres, where they return the
  entries of the tables Mitsuba compiles in (the published CIE tables);
- every named conductor of Mitsuba 3's `conductor` plugin as RGB eta and k: the values Mitsuba's
  scalar_rgb variant itself derives from its measured spectra (data/ior/*.spd), read back from a
  loaded conductor, so raystream's preset is exactly what Mitsuba's rgb variants render;
- every named index of refraction of Mitsuba 3's dielectric plugins (read back the same way).
Run only when Mitsuba changes; the output is committed.
"""
import os
import sys

import mitsuba as mi

mi.set_variant("scalar_rgb")


def f(v):
    """A C float literal."""
    text = "%.9g" % v
    return text + ("f" if any(c in text for c in ".e") else ".0f")


def main():
    out = open(sys.argv[1], "w")
    out.write("/* mts_tables.c - data for the Mitsuba 3 importer, written by tools/make_mitsuba_tables.py from\n"
              " * the Mitsuba %s PyPI package: CIE 1931 colour matching functions and D65 at 1 nm\n"
              " * (360..830 nm), Mitsuba's named conductors as RGB eta/k (as its rgb variants compute them\n"
              " * from its measured spectra) and its named indices of refraction. Host C11. Do not edit.\n"
              " */\n" % mi.__version__)
    out.write('#include "host/import/mitsuba/mts_internal.h"\n\n')
    out.write("/* x, y, z at 360, 361, ... 830 nm, three wavelengths a line */\n")
    out.write("const float rs_mts_cie_xyz[RS_MTS_CIE_COUNT][3] = {\n")
    entries = ["{%s, %s, %s}" % tuple(f(v) for v in mi.cie1931_xyz(float(w))) for w in range(360, 831)]
    for i in range(0, len(entries), 3):
        out.write("    " + ", ".join(entries[i:i + 3]) + ",\n")
    out.write("};\n\nconst float rs_mts_cie_d65[RS_MTS_CIE_COUNT] = {\n")
    entries = [f(float(mi.cie_d65(float(w)))) for w in range(360, 831)]
    for i in range(0, len(entries), 8):
        out.write("    " + ", ".join(entries[i:i + 8]) + ",\n")
    out.write("};\n\n")
    ior_dir = os.path.join(os.path.dirname(mi.__file__), "data", "ior")
    names = sorted({f[:-len(".eta.spd")] for f in os.listdir(ior_dir) if f.endswith(".eta.spd")})
    out.write("const RsMtsConductor rs_mts_conductors[] = {\n")
    for name in names:
        bsdf = mi.load_dict({"type": "conductor", "material": name})
        p = mi.traverse(bsdf)
        eta = [float(v) for v in p["eta.value"]]
        k = [float(v) for v in p["k.value"]]
        out.write('    {"%s", {%s}, {%s}},\n' % (name, ", ".join(map(f, eta)), ", ".join(map(f, k))))
    out.write("    {0, {0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 0.0f}},\n};\n\n")
    iors = ["vacuum", "helium", "hydrogen", "air", "carbon dioxide", "water", "acetone", "ethanol",
            "carbon tetrachloride", "glycerol", "benzene", "silicone oil", "bromine", "water ice", "fused quartz",
            "pyrex", "acrylic glass", "polypropylene", "bk7", "sodium chloride", "amber", "pet", "diamond"]
    out.write("const RsMtsIor rs_mts_iors[] = {\n")
    for name in iors:
        bsdf = mi.load_dict({"type": "dielectric", "int_ior": name, "ext_ior": 1.0})
        out.write('    {"%s", %s},\n' % (name, f(float(mi.traverse(bsdf)["eta"]))))
    out.write("    {0, 0.0f},\n};\n")


if __name__ == "__main__":
    main()
