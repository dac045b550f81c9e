#!/usr/bin/env python3
"""make_gltf_tests.py - writes the glTF importer's test scenes into tests/data/import/gltf/.

Each scene comes with a raystream JSON twin that describes the same scene in raystream's own
terms; tests/host/import/test_gltf_twins.sh renders both on the CPU and compares the .pfm
bytes. The twins are exact by construction: every coordinate and transform is a small dyadic
number (integers, halves, 0/1 rotation matrices, quaternions of 180 degrees), so the glTF
importer's float arithmetic reproduces the twin's numbers bit for bit; angles go through the
same double expressions on both sides (radians * 180 / pi). The bad-input scenes beside them
each break one rule. Usage: tools/make_gltf_tests.py [OUT_DIR] (run it again after changing it;
the files are committed).
"""
import base64
import json
import math
import os
import struct
import sys
import zlib

OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "tests", "data", "import",
                                                         "gltf")


def png_rgba(width, height, pixels):
    """A PNG (8-bit RGBA) of rows from the top; pixels: list of (r, g, b, a) tuples."""
    raw = b"".join(b"\x00" + bytes(c for p in pixels[y * width:(y + 1) * width] for c in p) for y in range(height))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)) +
            chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


CHECKER = png_rgba(4, 4, [((230, 40, 40, 255) if (x + y) % 2 else (240, 240, 200, 255)) for y in range(4)
                          for x in range(4)])


class Gltf:
    """A glTF document under construction, its binary data in one buffer."""

    def __init__(self):
        self.doc = {"asset": {"version": "2.0", "generator": "raystream tools/make_gltf_tests.py"}, "scene": 0,
                    "scenes": [{"nodes": []}], "nodes": [], "meshes": [], "materials": [], "accessors": [],
                    "bufferViews": []}
        self.bin = bytearray()

    def view(self, data, stride=None):
        while len(self.bin) % 4:
            self.bin += b"\x00"
        v = {"buffer": 0, "byteOffset": len(self.bin), "byteLength": len(data)}
        if stride:
            v["byteStride"] = stride
        self.bin += data
        self.doc["bufferViews"].append(v)
        return len(self.doc["bufferViews"]) - 1

    def accessor(self, values, kind, n, component=5126):
        fmt = {5126: "f", 5125: "I", 5123: "H"}[component]
        flat = [c for v in values for c in (v if n > 1 else [v])]
        view = self.view(struct.pack("<%d%s" % (len(flat), fmt), *flat))
        a = {"bufferView": view, "componentType": component, "count": len(values), "type": kind}
        if kind == "VEC3" and component == 5126:
            a["min"] = [min(v[k] for v in values) for k in range(3)]
            a["max"] = [max(v[k] for v in values) for k in range(3)]
        self.doc["accessors"].append(a)
        return len(self.doc["accessors"]) - 1

    def mesh(self, positions, indices, material, uvs=None, mode=None):
        attributes = {"POSITION": self.accessor(positions, "VEC3", 3)}
        if uvs:
            attributes["TEXCOORD_0"] = self.accessor(uvs, "VEC2", 2)
        prim = {"attributes": attributes, "indices": self.accessor(indices, "SCALAR", 1, 5123), "material": material}
        if mode is not None:
            prim["mode"] = mode
        self.doc["meshes"].append({"primitives": [prim]})
        return len(self.doc["meshes"]) - 1

    def material(self, m):
        self.doc["materials"].append(m)
        return len(self.doc["materials"]) - 1

    def node(self, n, root=True):
        self.doc["nodes"].append(n)
        index = len(self.doc["nodes"]) - 1
        if root:
            self.doc["scenes"][0]["nodes"].append(index)
        return index

    def extension(self, name):
        self.doc.setdefault("extensionsUsed", [])
        if name not in self.doc["extensionsUsed"]:
            self.doc["extensionsUsed"].append(name)

    def write_gltf(self, name):
        self.doc["buffers"] = [{"byteLength": len(self.bin), "uri": "data:application/octet-stream;base64," +
                                base64.b64encode(bytes(self.bin)).decode()}]
        write_text(name, json.dumps(self.doc, indent=1) + "\n")

    def write_glb(self, name):
        self.doc["buffers"] = [{"byteLength": len(self.bin)}]
        text = json.dumps(self.doc).encode()
        text += b" " * ((4 - len(text) % 4) % 4)
        binary = bytes(self.bin) + b"\x00" * ((4 - len(self.bin) % 4) % 4)
        body = struct.pack("<II", len(text), 0x4E4F534A) + text + struct.pack("<II", len(binary), 0x004E4942) + binary
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(struct.pack("<III", 0x46546C67, 2, 12 + len(body)) + body)


def write_text(name, text):
    with open(os.path.join(OUT, name), "w") as f:
        f.write(text)


def write_json(name, scene):
    write_text(name, json.dumps(scene, indent=1) + "\n")


QUAD = [[-0.5, -0.5, 0], [0.5, -0.5, 0], [0.5, 0.5, 0], [-0.5, 0.5, 0]]  # the unit square in XY, facing +Z
FLOOR = [[-2, 0, 2], [2, 0, 2], [2, 0, -2], [-2, 0, -2]]  # facing +Y
QUAD_INDICES = [0, 1, 2, 0, 2, 3]


def plastic(colour, roughness):
    return {"pbrMetallicRoughness": {"baseColorFactor": colour + [1], "metallicFactor": 0,
                                     "roughnessFactor": roughness}}


def twin_plastic(name, colour, roughness, **extra):
    m = {"name": name, "type": "plastic", "color": colour, "roughness": roughness}
    m.update(extra)
    return m


def f32(x):
    """x rounded to a float, as the importer's (float) casts do (printed exactly by json.dumps)."""
    return struct.unpack("<f", struct.pack("<f", x))[0]


def camera_json(eye, look_at, yfov):
    return {"eye": eye, "look_at": look_at, "up": [0, 1, 0], "fov": yfov * 180.0 / math.pi, "resolution": [32, 32]}


def moved(points, f):
    return [f(p) for p in points]


def hierarchy():
    """A panel mesh placed by three nodes of a hierarchy (translation, scale, a matrix), a floor
    placed once, and no light: the white environment."""
    g = Gltf()
    red = g.material(plastic([0.8, 0.1, 0.1], 0.5))
    metal = g.material({"pbrMetallicRoughness": {"baseColorFactor": [0.9, 0.7, 0.3, 1], "metallicFactor": 1,
                                                 "roughnessFactor": 0.25}})
    grey = g.material(plastic([0.5, 0.5, 0.5], 1))
    panel = g.mesh(QUAD, QUAD_INDICES, red)
    knob = g.mesh([[-0.25, 0, 0], [0.25, 0, 0], [0, 0.5, 0]], [0, 1, 2], metal)
    floor = g.mesh(FLOOR, QUAD_INDICES, grey)
    a = g.node({"mesh": panel, "translation": [-1, 0, 0]}, root=False)
    b = g.node({"mesh": panel, "translation": [1, 0, 0], "scale": [0.5, 0.5, 0.5]}, root=False)
    c = g.node({"mesh": panel, "matrix": [0, 0, -1, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, -1, 1]}, root=False)
    k = g.node({"mesh": knob, "translation": [0, 0.5, 0]}, root=False)
    g.node({"translation": [0, 0.5, 0], "children": [a, b, c, k]})
    g.node({"mesh": floor})
    g.node({"camera": 0, "translation": [0, 1, 5]})
    g.doc["cameras"] = [{"type": "perspective", "perspective": {"yfov": 0.8, "znear": 0.1}}]
    g.write_gltf("hierarchy.gltf")
    # the twin, triangles in the order the nodes are walked
    up = lambda p: [p[0], p[1] + 0.5, p[2]]
    shapes = [
        {"type": "quad", "vertices": moved(QUAD, lambda p: up([p[0] - 1, p[1], p[2]])), "material": "red"},
        {"type": "quad", "vertices": moved(QUAD, lambda p: up([p[0] * 0.5 + 1, p[1] * 0.5, p[2] * 0.5])),
         "material": "red"},
        {"type": "quad", "vertices": moved(QUAD, lambda p: up([p[2], p[1], -p[0] - 1])), "material": "red"},
        {"type": "triangle", "vertices": [[-0.25, 1, 0], [0.25, 1, 0], [0, 1.5, 0]], "material": "metal"},
        {"type": "quad", "vertices": FLOOR, "material": "grey"}]
    write_json("hierarchy.json", {
        "version": 1, "camera": camera_json([0, 1, 5], [0, 1, 4], 0.8),
        "environment": {"type": "constant", "color": [1, 1, 1]},
        "materials": [twin_plastic("red", [0.8, 0.1, 0.1], 0.5),
                      {"name": "metal", "type": "conductor", "color": [0.9, 0.7, 0.3], "roughness": 0.25},
                      twin_plastic("grey", [0.5, 0.5, 0.5], 1)],
        "shapes": shapes})


def instancing():
    """EXT_mesh_gpu_instancing: one panel mesh, four instances by TRANSLATION, ROTATION (180
    degrees about Y) and SCALE, under a translated node; lit by an emissive panel."""
    g = Gltf()
    g.extension("EXT_mesh_gpu_instancing")
    g.extension("KHR_materials_emissive_strength")
    green = g.material(plastic([0.1, 0.7, 0.2], 0.5))
    lamp = g.material({"pbrMetallicRoughness": {"baseColorFactor": [0, 0, 0, 1], "metallicFactor": 0,
                                                "roughnessFactor": 1},
                       "emissiveFactor": [1, 1, 1], "doubleSided": True,
                       "extensions": {"KHR_materials_emissive_strength": {"emissiveStrength": 4}}})
    panel = g.mesh(QUAD, QUAD_INDICES, green)
    light = g.mesh(moved(QUAD, lambda p: [p[0], 0, p[1]]), [0, 2, 1, 0, 3, 2], lamp)  # facing -Y
    t = [[-1.5, 0, 0], [-0.5, 0, 0], [0.5, 0, -1], [1.5, 0.5, 0]]
    r = [[0, 0, 0, 1], [0, 1, 0, 0], [0, 0, 0, 1], [0, 1, 0, 0]]
    s = [[1, 1, 1], [0.5, 1, 1], [1, 2, 1], [0.5, 0.5, 0.5]]
    attrs = {"TRANSLATION": g.accessor(t, "VEC3", 3), "ROTATION": g.accessor(r, "VEC4", 4),
             "SCALE": g.accessor(s, "VEC3", 3)}
    g.node({"mesh": panel, "translation": [0, 1, 0], "extensions": {"EXT_mesh_gpu_instancing": {"attributes": attrs}}})
    g.node({"mesh": light, "translation": [0, 3, 1]})
    g.node({"camera": 0, "translation": [0, 1, 5]})
    g.doc["cameras"] = [{"type": "perspective", "perspective": {"yfov": 0.9, "aspectRatio": 1.0}}]
    g.write_gltf("instancing.gltf")

    def place(i):
        def f(p):
            x, y, z = p[0] * s[i][0], p[1] * s[i][1], p[2] * s[i][2]
            if r[i][1] == 1:  # 180 degrees about Y
                x, z = -x, -z
            return [x + t[i][0], y + t[i][1] + 1, z + t[i][2]]
        return f

    shapes = [{"type": "quad", "vertices": moved(QUAD, place(i)), "material": "green"} for i in range(4)]
    lamp_quad = moved(QUAD, lambda p: [p[0], 3, p[1] + 1])
    shapes.append({"type": "quad", "vertices": [lamp_quad[0], lamp_quad[2], lamp_quad[1]], "material": "lamp"})
    shapes.append({"type": "triangle", "vertices": [lamp_quad[0], lamp_quad[3], lamp_quad[2]], "material": "lamp"})
    # the lamp's two triangles (0, 2, 1) and (0, 3, 2): a quad's split is (v0, v1, v2), (v0, v2, v3)
    shapes[-2] = {"type": "triangle", "vertices": [lamp_quad[0], lamp_quad[2], lamp_quad[1]], "material": "lamp"}
    write_json("instancing.json", {
        "version": 1, "camera": camera_json([0, 1, 5], [0, 1, 4], 0.9),
        "materials": [twin_plastic("green", [0.1, 0.7, 0.2], 0.5),
                      twin_plastic("lamp", [0, 0, 0], 1, emission=[4, 4, 4], two_sided=True)],
        "shapes": shapes})


def lights_and_cameras():
    """Two cameras (--camera 0 perspective, 1 orthographic), a point, a spot and a directional
    light (KHR_lights_punctual), a lines
    primitive (left out with a warning) and an extension used but unknown (a warning)."""
    g = Gltf()
    g.extension("KHR_lights_punctual")
    g.extension("EXT_raystream_test_unknown")
    white = g.material(plastic([0.7, 0.7, 0.7], 0.5))
    blue = g.material(plastic([0.2, 0.3, 0.8], 0.25))
    floor = g.mesh(FLOOR, QUAD_INDICES, white)
    panel = g.mesh(QUAD, QUAD_INDICES, blue)
    g.doc["meshes"][panel]["primitives"].append({"attributes": {"POSITION": g.accessor(QUAD, "VEC3", 3)}, "mode": 1})
    g.node({"mesh": floor})
    g.node({"mesh": panel, "translation": [0, 0.5, 0]})
    g.doc["cameras"] = [{"type": "perspective", "perspective": {"yfov": 0.7, "aspectRatio": 1.5}},
                        {"type": "orthographic", "orthographic": {"xmag": 2, "ymag": 1.5, "znear": 0.1, "zfar": 50}}]
    g.node({"camera": 0, "translation": [0, 1, 6]})
    # at (5, 5, 0) looking down -Z = (-1, -1, 0) / sqrt(2): 45 degrees down towards -X, the axes
    # of length sqrt(2) (normalised by the importer)
    g.node({"camera": 1, "matrix": [0, 0, -1, 0, -1, 1, 0, 0, 1, 1, 0, 0, 5, 5, 0, 1]})
    g.doc["extensions"] = {"KHR_lights_punctual": {"lights": [
        {"type": "point", "intensity": 10, "color": [1, 1, 1]},
        {"type": "spot", "intensity": 20, "color": [1, 0.5, 0.25],
         "spot": {"innerConeAngle": 0.3, "outerConeAngle": 0.6}},
        {"type": "directional", "intensity": 2, "color": [1, 0.75, 0.5]}]}}
    g.node({"translation": [1, 2, 1], "extensions": {"KHR_lights_punctual": {"light": 0}}})
    g.node({"matrix": [1, 0, 0, 0, 0, 0, -1, 0, 0, 1, 0, 0, -1, 3, 0, 1],  # -Z turned to -Y
            "extensions": {"KHR_lights_punctual": {"light": 1}}})
    # the directional light travels down the node's -Z: a sheared matrix whose Z column is
    # (-1, 2, 1) sends it along (1, -2, -1), normalised in double on both sides
    g.node({"matrix": [1, 0, 0, 0, 0, 1, 0, 0, -1, 2, 1, 0, 0, 5, 0, 1],
            "extensions": {"KHR_lights_punctual": {"light": 2}}})
    g.write_gltf("lights.gltf")
    base = {
        "version": 1,
        "materials": [twin_plastic("white", [0.7, 0.7, 0.7], 0.5), twin_plastic("blue", [0.2, 0.3, 0.8], 0.25)],
        "shapes": [{"type": "quad", "vertices": FLOOR, "material": "white"},
                   {"type": "quad", "vertices": moved(QUAD, lambda p: [p[0], p[1] + 0.5, p[2]]), "material": "blue"}],
        "lights": [{"type": "point", "position": [1, 2, 1], "intensity": [10, 10, 10]},
                   {"type": "spot", "position": [-1, 3, 0], "look_at": [-1, 2, 0], "intensity": [20, 10, 5],
                    "cone_angle": 0.6 * 180.0 / math.pi, "cone_delta_angle": (0.6 - 0.3) * 180.0 / math.pi},
                   {"type": "directional", "direction": [1, -2, -1], "irradiance": [2, 1.5, 1]}]}
    base["version"] = 2  # directional lights and orthographic cameras are format 2's
    write_json("lights.json", dict(base, camera=camera_json([0, 1, 6], [0, 1, 5], 0.7)))
    # gltf_camera.c's frame in its double expressions, each rounded to a float as it does
    root2 = math.sqrt(2.0)
    ortho = {"eye": [5, 5, 0], "look_at": [f32(5 + -1 / root2 * 1), f32(5 + -1 / root2 * 1), 0],
             "up": [f32(-1 / root2), f32(1 / root2), 0], "projection": "orthographic", "ortho_height": 3,
             "resolution": [32, 32]}
    write_json("lights_camera1.json", dict(base, camera=ortho))


def textured():
    """A base colour texture in a data: URI PNG (and, in the .glb, in a buffer view), on a quad
    lit by an emissive quad; the twin reads the same PNG from checker.png."""
    for binary in (False, True):
        g = Gltf()
        tex_mat = g.material({"pbrMetallicRoughness": {"baseColorTexture": {"index": 0}, "metallicFactor": 0,
                                                       "roughnessFactor": 0.5}})
        lamp = g.material({"pbrMetallicRoughness": {"baseColorFactor": [0, 0, 0, 1], "metallicFactor": 0,
                                                    "roughnessFactor": 1}, "emissiveFactor": [3, 3, 3]})
        corners = [[0, 1], [1, 1], [1, 0], [0, 0]]  # glTF's v runs down the image
        board = g.mesh(QUAD, QUAD_INDICES, tex_mat, uvs=corners)
        lamp_mesh = g.mesh(moved(QUAD, lambda p: [p[0], p[1], 0]), QUAD_INDICES, lamp)
        if binary:
            g.doc["images"] = [{"bufferView": g.view(CHECKER), "mimeType": "image/png"}]
        else:
            g.doc["images"] = [{"uri": "data:image/png;base64," + base64.b64encode(CHECKER).decode()}]
        g.doc["textures"] = [{"source": 0, "sampler": 0}]
        g.doc["samplers"] = [{"wrapS": 10497, "wrapT": 10497}]
        g.node({"mesh": board})
        g.node({"mesh": lamp_mesh, "matrix": [-1, 0, 0, 0, 0, 1, 0, 0, 0, 0, -1, 0, 0, 0, 3, 1]})  # facing -Z
        g.node({"camera": 0, "translation": [0, 0, 2]})
        g.doc["cameras"] = [{"type": "perspective", "perspective": {"yfov": 0.8}}]
        if binary:
            g.write_glb("textured.glb")
        else:
            g.write_gltf("textured.gltf")
    with open(os.path.join(OUT, "checker.png"), "wb") as f:
        f.write(CHECKER)
    lamp_quad = moved(QUAD, lambda p: [-p[0], p[1], 3])
    write_json("textured.json", {
        "version": 1, "camera": camera_json([0, 0, 2], [0, 0, 1], 0.8),
        "materials": [twin_plastic("board", [1, 1, 1], 0.5, color={"texture": "checker.png"}),
                      twin_plastic("lamp", [0, 0, 0], 1, emission=[3, 3, 3])],
        "shapes": [{"type": "quad", "vertices": QUAD, "material": "board"},
                   {"type": "quad", "vertices": lamp_quad, "material": "lamp"}]})


ALPHA_CHECKER = png_rgba(4, 4, [((40, 90, 230, (0, 70, 150, 255)[(x + 2 * y) % 4]) if (x + y) % 2 else
                                 (240, 200, 60, (255, 200, 100, 30)[(x + y) % 4])) for y in range(4) for x in range(4)])


def uv_transform(offset, rotation, scale):
    """KHR_texture_transform as raystream's uv_transform, through the double expressions of
    gltf_material.c (glTF's v runs down the image, raystream's up), so the twin's numbers are
    the importer's bit for bit."""
    cs, sn = math.cos(rotation), math.sin(rotation)
    a, b, c = scale[0] * cs, scale[1] * sn, offset[0]
    e, f, h = -scale[0] * sn, scale[1] * cs, offset[1]
    return [a, -b, b + c, -e, f, 1.0 - f - h]


def alpha():
    """alphaMode MASK with alphaCutoff and a texture's alpha under KHR_texture_transform, BLEND
    by baseColorFactor alpha alone and by texture alpha times factor alpha, and MASK by factor
    alpha alone (cut away entirely: 0.3 < the default cutoff 0.5), in front of a wall lit by a
    point light; the twin reads the same PNG from alpha_checker.png."""
    g = Gltf()
    g.extension("KHR_lights_punctual")
    g.extension("KHR_texture_transform")
    transform = {"offset": [0.25, -0.5], "rotation": 0.375, "scale": [2, 1.5]}
    mask_tex = g.material({"pbrMetallicRoughness": {"baseColorTexture": {"index": 0, "extensions": {
        "KHR_texture_transform": transform}}, "baseColorFactor": [1, 1, 1, 0.875], "metallicFactor": 0,
        "roughnessFactor": 0.5}, "alphaMode": "MASK", "alphaCutoff": 0.25})
    blend = g.material({"pbrMetallicRoughness": {"baseColorFactor": [0.2, 0.8, 0.3, 0.375], "metallicFactor": 0,
                                                 "roughnessFactor": 0.5}, "alphaMode": "BLEND"})
    blend_tex = g.material({"pbrMetallicRoughness": {"baseColorTexture": {"index": 0},
                                                     "baseColorFactor": [1, 1, 1, 0.5], "metallicFactor": 0,
                                                     "roughnessFactor": 0.5}, "alphaMode": "BLEND"})
    mask = g.material({"pbrMetallicRoughness": {"baseColorFactor": [0.9, 0.1, 0.1, 0.3], "metallicFactor": 0,
                                                "roughnessFactor": 0.5}, "alphaMode": "MASK"})
    wall = g.material(plastic([0.6, 0.6, 0.6], 1))
    corners = [[0, 1], [1, 1], [1, 0], [0, 0]]  # glTF's v runs down the image
    g.doc["images"] = [{"uri": "data:image/png;base64," + base64.b64encode(ALPHA_CHECKER).decode()}]
    g.doc["textures"] = [{"source": 0}]
    places = [[-1.5, 0.5, 0], [-0.5, -0.5, 0.25], [0.5, 0.5, 0.5], [1.5, -0.5, 0.75]]
    for material, place in zip([mask_tex, blend, blend_tex, mask], places):
        g.node({"mesh": g.mesh(QUAD, QUAD_INDICES, material, uvs=corners), "translation": place})
    g.node({"mesh": g.mesh([[-3, -2, -1], [3, -2, -1], [3, 2, -1], [-3, 2, -1]], QUAD_INDICES, wall)})
    g.doc["extensions"] = {"KHR_lights_punctual": {"lights": [{"type": "point", "intensity": 30}]}}
    g.node({"translation": [0.5, 1, 3], "extensions": {"KHR_lights_punctual": {"light": 0}}})
    g.node({"camera": 0, "translation": [0, 0, 4]})
    g.doc["cameras"] = [{"type": "perspective", "perspective": {"yfov": 0.8}}]
    g.write_gltf("alpha.gltf")
    with open(os.path.join(OUT, "alpha_checker.png"), "wb") as f:
        f.write(ALPHA_CHECKER)
    tex = {"texture": "alpha_checker.png"}

    def at(place):
        return moved(QUAD, lambda p: [p[0] + place[0], p[1] + place[1], p[2] + place[2]])

    write_json("alpha.json", {
        "version": 2, "camera": camera_json([0, 0, 4], [0, 0, 3], 0.8),
        "materials": [
            twin_plastic("mask_tex", [1, 1, 1], 0.5, color=tex, alpha=tex, alpha_cutoff=0.25, opacity=0.875,
                         uv_transform=uv_transform(transform["offset"], transform["rotation"], transform["scale"])),
            twin_plastic("blend", [0.2, 0.8, 0.3], 0.5, alpha_mode="blend", opacity=0.375),
            twin_plastic("blend_tex", [1, 1, 1], 0.5, color=tex, alpha=tex, alpha_mode="blend", opacity=0.5),
            twin_plastic("mask", [0.9, 0.1, 0.1], 0.5, opacity=0.3),
            twin_plastic("wall", [0.6, 0.6, 0.6], 1)],
        "shapes": [{"type": "quad", "vertices": at(p), "material": m}
                   for m, p in zip(["mask_tex", "blend", "blend_tex", "mask"], places)] +
                  [{"type": "quad", "vertices": [[-3, -2, -1], [3, -2, -1], [3, 2, -1], [-3, 2, -1]],
                    "material": "wall"}],
        "lights": [{"type": "point", "position": [0.5, 1, 3], "intensity": [30, 30, 30]}]})


def morph():
    """Morph targets at the mesh's default weights (0.5 and 0.25): a quad whose corners the two
    targets move, and a node weights array (ignored with a warning); the twin has the moved
    corners, every displacement and weight dyadic so the float sums are exact."""
    g = Gltf()
    g.extension("KHR_lights_punctual")
    orange = g.material(plastic([0.9, 0.5, 0.1], 0.5))
    d1 = [[0, 0, 0], [0, 0, 0], [0, 0, 1], [0, 0.5, 0]]
    d2 = [[0, 0, -1], [0.5, 0, 0], [0, 0, 0], [0, 0, 0]]
    weights = [0.5, 0.25]
    mesh = g.mesh(QUAD, QUAD_INDICES, orange)
    g.doc["meshes"][mesh]["primitives"][0]["targets"] = [{"POSITION": g.accessor(d1, "VEC3", 3)},
                                                         {"POSITION": g.accessor(d2, "VEC3", 3)}]
    g.doc["meshes"][mesh]["weights"] = weights
    g.node({"mesh": mesh, "weights": [1, 1]})
    g.doc["extensions"] = {"KHR_lights_punctual": {"lights": [{"type": "point", "intensity": 8}]}}
    g.node({"translation": [1, 1, 2], "extensions": {"KHR_lights_punctual": {"light": 0}}})
    g.node({"camera": 0, "translation": [0, 0, 3]})
    g.doc["cameras"] = [{"type": "perspective", "perspective": {"yfov": 0.8}}]
    g.write_gltf("morph.gltf")
    v = [[QUAD[i][k] + weights[0] * d1[i][k] + weights[1] * d2[i][k] for k in range(3)] for i in range(4)]
    write_json("morph.json", {
        "version": 1, "camera": camera_json([0, 0, 3], [0, 0, 2], 0.8),
        "materials": [twin_plastic("orange", [0.9, 0.5, 0.1], 0.5)],
        "shapes": [{"type": "triangle", "vertices": [v[0], v[1], v[2]], "material": "orange"},
                   {"type": "triangle", "vertices": [v[0], v[2], v[3]], "material": "orange"}],
        "lights": [{"type": "point", "position": [1, 1, 2], "intensity": [8, 8, 8]}]})


def bad():
    """One broken rule each, in bad/; test_gltf_twins.sh knows the message each must give."""
    g = Gltf()
    m = g.material(plastic([0.5, 0.5, 0.5], 1))
    g.mesh(QUAD, QUAD_INDICES, m)
    g.node({"mesh": 0})
    good = json.loads(json.dumps(g.doc))
    buffer = {"byteLength": len(g.bin), "uri": "data:application/octet-stream;base64," +
              base64.b64encode(bytes(g.bin)).decode()}

    def variant(name, change):
        doc = json.loads(json.dumps(good))
        doc["buffers"] = [dict(buffer)]
        change(doc)
        write_text(os.path.join("bad", name), json.dumps(doc, indent=1) + "\n")

    variant("bad_accessor_range.gltf", lambda d: d["accessors"][0].update(count=400))
    variant("bad_base64.gltf", lambda d: d["buffers"][0].update(uri=buffer["uri"][:50] + "*" + buffer["uri"][51:]))
    variant("bad_cycle.gltf", lambda d: (d["nodes"].append({"children": [2]}), d["nodes"].append({"children": [1]}),
                                         d["scenes"][0]["nodes"].append(1)))
    variant("bad_points_only.gltf", lambda d: d["meshes"][0]["primitives"][0].update(mode=0))
    variant("bad_required_extension.gltf",
            lambda d: d.update(extensionsUsed=["KHR_draco_mesh_compression"],
                               extensionsRequired=["KHR_draco_mesh_compression"]))
    g.write_glb(os.path.join("bad", "bad_truncated.glb"))
    path = os.path.join(OUT, "bad", "bad_truncated.glb")
    with open(path, "rb") as f:
        data = f.read()
    with open(path, "wb") as f:
        f.write(data[:len(data) - 40])


def main():
    os.makedirs(os.path.join(OUT, "bad"), exist_ok=True)  # the bad inputs in a folder of their own
    hierarchy()
    instancing()
    lights_and_cameras()
    textured()
    alpha()
    morph()
    bad()


if __name__ == "__main__":
    main()
