"""mitsuba_scene.py - a raystream JSON scene as the equivalent Mitsuba 3 scene dictionary.

Used by tools/compare_reference.py. Every choice below makes Mitsuba compute the same integral
as raystream, so that the two images may differ only by noise:

- depth: raystream max_depth d counts ray segments with next-event estimation at the last hit;
  Mitsuba's max_depth counts the segment to the light too, so it gets d + 1 (README, "Depth");
- diffuse and mirror are two-sided in raystream; Mitsuba's diffuse and conductor are
  one-sided, so both are wrapped in `twosided`. A mirror is a conductor with material "none"
  (reflectance 1) scaled by its colour;
- dielectric: int_ior = ior and ext_ior = 1 exactly (Mitsuba's default exterior is air, 1.000277);
  the colour tints transmission only (specular_transmittance), as in raystream;
- roughness: raystream's is perceptual, Mitsuba's alpha = roughness^2; GGX with visible-normal
  sampling on both sides (roughconductor, roughdielectric). Below roughness 0.0316 raystream is
  smooth, so the twin is the smooth model. Anisotropic roughness has no twin: the two renderers
  build different tangent frames on spheres and flat shapes;
- conductor: eta and k as RGB; an artist colour c becomes eta = 1, k = 2 sqrt(c / (1 - c)) as in
  src/host/scene/material.c, a named metal the same RGB table;
- plastic: Mitsuba's `plastic` with nonlinear = true is the same smooth model; a rough coat has
  no twin (Mitsuba's roughplastic computes the coat's transmission differently);
- meshes and quads are flat-shaded (face_normals), as raystream shades meshes without vertex
  normals; a mesh file with vertex normals (which raystream interpolates) has no twin here;
  quads are split into the same two triangles (v0 v1 v2) and (v0 v2 v3);
- the box filter with one jittered sample per pixel sample, as raystream's generate stage;
- the sky gradient has no Mitsuba twin, so it is baked into an equirectangular map whose rows
  follow the elevation finely (the gradient does not depend on azimuth); that bake is the one
  approximation here, and it is far below the noise of the comparisons;
- an environment map: raystream's mapping is Mitsuba's envmap's (the same direction mapping,
  texel centres across a row at u = (x + 0.5) / W, row y at v = y / (H - 1)), so the twin is
  Mitsuba's envmap of the same image, unchanged but for the scale; its rotation becomes a
  to_world rotation about +y. The reference test thereby checks raystream's orientation and
  row mapping against Mitsuba's own;
- near/far clip planes are opened wide: raystream clips nothing;
- point lights are Mitsuba's point emitters with the same intensity; spot lights have no twin
  (Mitsuba's falloff between beam_width and cutoff_angle is not pbrt-v4's smoothstep).
A scene feature without a faithful twin raises ReferenceUnsupported naming the feature, rather
than rendering something different.
"""

import json
import math
import os

import numpy as np


class ReferenceUnsupported(Exception):
    pass


SKY_DEFAULTS = {"zenith": [0.25, 0.45, 1.0], "horizon": [1.0, 1.0, 1.0], "ground": [0.3, 0.28, 0.25]}
SKY_ROWS = 4096  # elevation samples of the baked sky; ~0.044 degrees per row
SKY_COLUMNS = 8  # the sky is constant in azimuth


def sky_radiance(y, zenith, horizon, ground):
    """raystream's rs_env_radiance for direction cosines y (numpy array), as src/kernel/light/light.h."""
    y = np.asarray(y, dtype=np.float64)[..., None]
    zenith, horizon, ground = (np.asarray(c, dtype=np.float64) for c in (zenith, horizon, ground))
    up = np.sqrt(np.clip(y, 0.0, 1.0))
    above = horizon * (1.0 - up) + zenith * up
    down = np.minimum(1.0, -y * 10.0)
    below = horizon * (1.0 - down) + ground * down
    return np.where(y >= 0.0, above, below)


def baked_sky(env):
    """Equirectangular bitmap. Mitsuba's envmap looks up v = acos(y) / pi and interpolates with
    texel i at v = i / (rows - 1) (measured against its eval: texel centres at (i + 0.5) / rows
    read 0.2 rows off), so row i holds the sky at y = cos(pi i / (rows - 1))."""
    colours = {k: env.get(k, SKY_DEFAULTS[k]) for k in SKY_DEFAULTS}
    v = np.arange(SKY_ROWS) / (SKY_ROWS - 1)
    rows = sky_radiance(np.cos(math.pi * v), **colours)
    return np.repeat(rows[:, None, :], SKY_COLUMNS, axis=1).astype(np.float32)


def rotation_matrix(angle_degrees, axis):
    """Rodrigues, as rs_transform_rotate (src/host/scene/transform.c)."""
    a = np.asarray(axis, dtype=np.float64)
    a = a / np.linalg.norm(a)
    th = math.radians(angle_degrees)
    c, s, k = math.cos(th), math.sin(th), 1.0 - math.cos(th)
    x, y, z = a
    return np.array([[c + k * x * x, k * x * y - s * z, k * x * z + s * y],
                     [k * y * x + s * z, c + k * y * y, k * y * z - s * x],
                     [k * z * x - s * y, k * z * y + s * x, c + k * z * z]])


def transform_matrix(xf):
    """The 4x4 of a mesh's `transform` (scale, then rotate, then translate; or `matrix`)."""
    m = np.eye(4)
    if not xf:
        return m
    if "matrix" in xf:
        return np.asarray(xf["matrix"], dtype=np.float64).reshape(4, 4)
    scale = xf.get("scale", 1.0)
    sc = np.diag(np.broadcast_to(np.asarray(scale, dtype=np.float64), (3,)))
    rot = rotation_matrix(xf["rotate"][0], xf["rotate"][1:]) if "rotate" in xf else np.eye(3)
    m[:3, :3] = rot @ sc
    m[:3, 3] = xf.get("translate", [0.0, 0.0, 0.0])
    return m


def rgb(value):
    return {"type": "rgb", "value": [float(c) for c in value]}


# the RGB complex indices of src/host/scene/material.c's named metals
METALS = {
    "Ag": ([0.155265, 0.116723, 0.138342], [4.82835, 3.12225, 2.14696]),
    "Al": ([1.65746, 0.880369, 0.521229], [9.22387, 6.26952, 4.837]),
    "Au": ([0.143119, 0.374957, 1.44248], [3.98316, 2.38572, 1.60322]),
    "Cu": ([0.200438, 0.924033, 1.10221], [3.91295, 2.45285, 2.14219]),
}
SMOOTH_ALPHA = 1e-3  # src/kernel/bsdf/microfacet.h, RS_GGX_SMOOTH_ALPHA


def alpha_of(m):
    """GGX alpha of a raystream material, or None when it is smooth."""
    if "roughness_u" in m and m["roughness_u"] != m["roughness_v"]:
        raise ReferenceUnsupported(f"material {m['name']!r}: anisotropic roughness")
    r = m.get("roughness", m.get("roughness_u", 0.0))
    alpha = float(r) * float(r)
    return alpha if alpha >= SMOOTH_ALPHA else None


def conductor_index(m):
    if "metal" in m:
        return METALS[m["metal"]]
    if "eta" in m:
        return m["eta"], m["k"]
    colour = [min(max(float(c), 0.0), 0.9999) for c in m.get("color", [1, 1, 1])]
    return [1.0, 1.0, 1.0], [2.0 * math.sqrt(c / (1.0 - c)) for c in colour]


def material_twins(materials):
    """name -> (bsdf dict, emitter dict or None)."""
    twins = {}
    for m in materials:
        kind = m["type"]
        if kind == "diffuse":
            bsdf = {"type": "twosided", "bsdf": {"type": "diffuse", "reflectance": rgb(m["albedo"])}}
        elif kind == "mirror":
            bsdf = {"type": "twosided", "bsdf": {"type": "conductor", "material": "none",
                                                 "specular_reflectance": rgb(m.get("color", [1, 1, 1]))}}
        elif kind == "conductor":
            eta, k = conductor_index(m)
            alpha = alpha_of(m)
            inner = {"type": "conductor", "eta": rgb(eta), "k": rgb(k)}
            if alpha is not None:
                inner.update(type="roughconductor", distribution="ggx", alpha=alpha)
            bsdf = {"type": "twosided", "bsdf": inner}
        elif kind == "dielectric":
            bsdf = {"type": "dielectric", "int_ior": float(m.get("ior", 1.5)), "ext_ior": 1.0,
                    "specular_transmittance": rgb(m.get("color", [1, 1, 1]))}
            alpha = alpha_of(m)
            if alpha is not None:
                bsdf.update(type="roughdielectric", distribution="ggx", alpha=alpha)
        elif kind == "plastic":
            if alpha_of(m) is not None:
                raise ReferenceUnsupported(f"material {m['name']!r}: rough plastic")
            bsdf = {"type": "twosided", "bsdf": {"type": "plastic", "int_ior": float(m.get("ior", 1.5)),
                                                 "ext_ior": 1.0, "nonlinear": True,
                                                 "diffuse_reflectance": rgb(m.get("color", [0.5, 0.5, 0.5]))}}
        elif kind == "emissive":
            bsdf = {"type": "diffuse", "reflectance": rgb([0, 0, 0])}
        else:
            raise ReferenceUnsupported(f"material type {kind!r}")
        emission = m.get("emission", [0, 0, 0])
        emitter = None
        if any(c > 0 for c in emission):
            if m.get("two_sided", False):
                raise ReferenceUnsupported(f"material {m['name']!r}: two-sided emission (Mitsuba's area "
                                           "lights emit from the front face only)")
            emitter = {"type": "area", "radiance": rgb(emission)}
        twins[m["name"]] = (bsdf, emitter)
    return twins


def has_vertex_normals(path, ext):
    """Whether a PLY header declares nx or an OBJ has vn lines: raystream shades those smoothly."""
    with open(path, "rb") as f:
        if ext == ".ply":
            for line in f:
                if line.strip() == b"end_header":
                    return False
                if line.split()[-1:] == [b"nx"]:
                    return True
            return False
        return any(line.startswith(b"vn ") for line in f)


def write_obj(path, vertices, faces):
    with open(path, "w") as f:
        for v in vertices:
            f.write("v %.9g %.9g %.9g\n" % tuple(np.float32(c) for c in v))
        for face in faces:
            f.write("f %d %d %d\n" % tuple(i + 1 for i in face))


def shape_twins(scene, scene_dir, twins, work_dir):
    shapes = {}
    for i, s in enumerate(scene["shapes"]):
        kind = s["type"]
        name = s.get("material")
        if name is None:
            raise ReferenceUnsupported(f"shapes[{i}]: a mesh without a material (file materials are not converted)")
        bsdf, emitter = twins[name]
        entry = {"bsdf": bsdf}
        if emitter:
            entry["emitter"] = emitter
        if kind == "sphere":
            entry.update({"type": "sphere", "center": [float(c) for c in s["center"]], "radius": float(s["radius"])})
        elif kind in ("quad", "triangle"):
            path = os.path.join(work_dir, f"shape{i}.obj")
            faces = [(0, 1, 2), (0, 2, 3)] if kind == "quad" else [(0, 1, 2)]
            write_obj(path, s["vertices"], faces)
            entry.update({"type": "obj", "filename": path, "face_normals": True})
        elif kind == "mesh":
            import mitsuba as mi
            file = s["file"] if os.path.isabs(s["file"]) else os.path.join(scene_dir, s["file"])
            ext = os.path.splitext(file)[1].lower()
            if ext not in (".ply", ".obj"):
                raise ReferenceUnsupported(f"shapes[{i}]: mesh format {ext} (Mitsuba reads PLY and OBJ)")
            if has_vertex_normals(file, ext):
                raise ReferenceUnsupported(f"shapes[{i}]: vertex normals (the twin is flat-shaded)")
            entry.update({"type": ext[1:], "filename": file, "face_normals": True,
                          "to_world": mi.ScalarTransform4f(transform_matrix(s.get("transform")).tolist())})
        else:
            raise ReferenceUnsupported(f"shapes[{i}]: shape type {kind!r}")
        shapes[f"shape{i}"] = entry
    return shapes


def environment_twin(env, scene_dir):
    if not env:
        return None
    if env["type"] == "map":
        import mitsuba as mi
        file = env["file"] if os.path.isabs(env["file"]) else os.path.join(scene_dir, env["file"])
        texels = np.array(mi.Bitmap(file).convert(mi.Bitmap.PixelFormat.RGB, mi.Struct.Type.Float32, srgb_gamma=False))
        scale = env.get("scale", 1.0)
        scale = np.array(scale if isinstance(scale, list) else [scale] * 3, dtype=np.float32)
        to_world = mi.ScalarTransform4f().rotate(axis=[0, 1, 0], angle=float(env.get("rotation", 0.0)))
        return {"type": "envmap", "bitmap": mi.Bitmap(texels * scale), "to_world": to_world}
    if env["type"] == "constant":
        colour = env["color"]
        return {"type": "constant", "radiance": rgb(colour)} if any(c > 0 for c in colour) else None
    if env["type"] == "sky":
        import mitsuba as mi
        return {"type": "envmap", "bitmap": mi.Bitmap(baked_sky(env))}
    raise ReferenceUnsupported(f"environment type {env['type']!r}")


def load(path):
    with open(path) as f:
        return json.load(f)


def mitsuba_dict(scene_path, width, height, spp, depth, work_dir):
    """The Mitsuba scene dict for `scene_path` rendered at width x height, raystream depth `depth`."""
    import mitsuba as mi
    scene = load(scene_path)
    cam = scene["camera"]
    eye, target = cam["eye"], cam["look_at"]
    sensor = {
        "type": "perspective",
        "fov": float(cam.get("fov", 40.0)),
        "fov_axis": "y",
        "near_clip": 1e-6 * max(1.0, max(abs(c) for c in eye)),
        "far_clip": 1e30,
        "to_world": mi.ScalarTransform4f().look_at(origin=eye, target=target, up=cam.get("up", [0, 1, 0])),
        "film": {"type": "hdrfilm", "width": width, "height": height, "rfilter": {"type": "box"},
                 "pixel_format": "rgb", "component_format": "float32"},
        "sampler": {"type": "independent", "sample_count": spp},
    }
    aperture = cam.get("aperture_radius", 0.0)
    if aperture > 0.0:
        focus = cam.get("focus_distance") or float(np.linalg.norm(np.subtract(target, eye)))
        sensor.update({"type": "thinlens", "aperture_radius": aperture, "focus_distance": focus})
    d = {"type": "scene", "integrator": {"type": "path", "max_depth": depth + 1}, "sensor": sensor}
    twins = material_twins(scene["materials"])
    d.update(shape_twins(scene, os.path.dirname(os.path.abspath(scene_path)), twins, work_dir))
    env = environment_twin(scene.get("environment"), os.path.dirname(os.path.abspath(scene_path)))
    if env:
        d["environment"] = env
    for i, light in enumerate(scene.get("lights", [])):
        if light["type"] != "point":  # Mitsuba's spot light falls off differently
            raise ReferenceUnsupported(f"lights[{i}]: {light['type']} light")
        d[f"light{i}"] = {"type": "point", "position": [float(c) for c in light["position"]],
                          "intensity": rgb(light["intensity"])}
    return d
