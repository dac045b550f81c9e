#!/usr/bin/env python3
"""test_schema.py SCHEMA SCENES_DIR BAD_DIR - scenes/scene.schema.json accepts every shipped
scene and rejects the malformed scenes whose fault is expressible in JSON Schema (host suite)."""
import json
import pathlib
import sys

import jsonschema

schema_path, scenes_dir, bad_dir = map(pathlib.Path, sys.argv[1:4])
schema = json.loads(schema_path.read_text())
jsonschema.Draft202012Validator.check_schema(schema)
validator = jsonschema.Draft202012Validator(schema)
failures = 0
for scene in sorted(scenes_dir.glob("*.json")):
    if scene.name == "scene.schema.json":
        continue
    errors = list(validator.iter_errors(json.loads(scene.read_text())))
    if errors:
        failures += 1
        print(f"FAIL {scene.name}: {errors[0].message}")
# faults the schema can see (not: syntax, NaN/inf, dangling names, files, duplicate keys)
for name in ["unknown_key", "wrong_type", "negative_radius", "fov_range", "ior", "empty", "missing_key",
             "version", "albedo_range", "not_object", "depth_range", "spp_integer", "roughness_range",
             "roughness_both", "roughness_half", "metal_unknown", "conductor_two_colours", "conductor_eta_only",
             "spot_cone_range", "light_type", "light_intensity", "env_map_scale",
             "directional_irradiance", "directional_key", "ortho_no_height", "ortho_fov", "perspective_height",
             "projection_name", "ortho_height_range", "thin_roughness", "thin_ior", "checker_range", "checker_count", "checker_key", "alpha_cutoff_blend", "alpha_cutoff_range",
             "opacity_range", "alpha_mode_name", "uv_transform_length"]:
    found = sorted(bad_dir.rglob(f"{name}.json"))  # bad/ has a folder per kind of error
    if len(found) != 1:
        failures += 1
        print(f"FAIL bad/**/{name}.json: {len(found)} files")
    elif validator.is_valid(json.loads(found[0].read_text())):
        failures += 1
        print(f"FAIL the schema accepts {found[0].relative_to(bad_dir.parent)}")
print(f"test_schema: {failures} failures")
sys.exit(1 if failures else 0)
