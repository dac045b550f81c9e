#!/usr/bin/env python3
"""check_includes.py - the house rules of docs/architecture.md, checked from the source text.

    tools/check_includes.py [ROOT]

Reads every `#include "..."` of src/, cuda/ and tests/ and fails (exit 1, one line per
breach) when:
  - an include does not name its file the house way: from src/ ("kernel/bsdf/bsdf.h",
    "host/util/error.h"), from the repository root for the CUDA backend and the tests
    ("cuda/stages/kernels.cuh", "tests/test.h"), or by bare name for a file beside the
    includer; never with "../";
  - a folder includes one that the layer table below does not allow (utilities at the
    bottom; importers never see the renderer or the backends; backends never see importers
    or the scene; nothing but the program itself includes src/app/);
  - files form an include circle, counting a .c/.cu and the .h/.cuh of the same name in the
    same folder as one module (so two sources that call each other through a shared header
    show up too);
  - a source file in src/ or cuda/ is longer than MAX_LINES (an X-macro list file, whose name
    ends in _fields.h, _table.h or _arrays.h, may be longer), or a folder of src/, cuda/ or
    tests/ holds more than MAX_FILES files (fuzz corpora and their findings excepted: they are
    data the fuzzer writes).
Run by the unit suite (test check_includes), so CI enforces it.
"""
import os
import re
import sys

MAX_LINES = 600
MAX_FILES = 20
SOURCE = re.compile(r"\.(c|h|cu|cuh|in)$")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
GENERATED = {"version.h", "git_commit.h", "@HEADER@"}
LIST_FILE = re.compile(r"_(fields|table|arrays)\.h$")

# Layer table: a file in the folder on the left may include files from the folders on the
# right (and its own folder and subfolders). Longest matching prefix wins.
ALLOWED = {
    "src/kernel/util": [],
    "src/kernel": ["src/kernel"],
    "src/host/util": ["src/kernel/util"],
    "src/host/io": ["src/host/util", "src/kernel"],
    "src/host/accel": ["src/host/util", "src/kernel"],
    "src/host/scene": ["src/host/util", "src/host/io", "src/host/accel", "src/kernel"],
    "src/host/import": ["src/host/util", "src/host/io", "src/host/accel", "src/host/scene", "src/kernel"],
    "src/host/backend": ["src/host/util", "src/kernel"],
    "src/host/render": ["src/host/util", "src/host/io", "src/host/scene", "src/host/backend", "src/kernel"],
    "src/app": ["src/host", "src/kernel"],
    "cuda": ["src/kernel", "src/host/backend", "src/host/util"],
    "tests": ["src", "cuda", "tests"],
}


def folder_rule(path):
    best = None
    for prefix in ALLOWED:
        if (path == prefix or path.startswith(prefix + "/")) and (best is None or len(prefix) > len(best)):
            best = prefix
    return best


def resolve(root, includer, name):
    """The repository path an include names, or None with the reason."""
    if name.startswith("../") or "/../" in name:
        return None, 'names its file with "../"'
    if "/" not in name:
        beside = os.path.join(os.path.dirname(includer), name)
        if os.path.isfile(os.path.join(root, beside)):
            return beside, None
        return None, "names no file beside it"
    for candidate in ("src/" + name, name):
        if candidate.split("/")[0] in ("src", "cuda", "tests") and os.path.isfile(os.path.join(root, candidate)):
            return candidate, None
    return None, "names no file under src/, cuda/ or tests/"


def module(path):
    return re.sub(r"\.(c|h|cu|cuh)$", "", path)


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
    errors = []
    graph = {}
    counts = {}
    for top in ("src", "cuda", "tests"):
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, top)):
            rel_dir = os.path.relpath(dirpath, root)
            parts = rel_dir.split(os.sep)
            if top == "tests" and ("corpus" in parts or "regressions" in parts):
                continue
            counts[rel_dir] = len([f for f in filenames if not f.startswith(".")])
            for f in sorted(filenames):
                if not SOURCE.search(f):
                    continue
                path = os.path.join(rel_dir, f)
                with open(os.path.join(root, path), encoding="utf-8", errors="replace") as fh:
                    text = fh.read()
                lines = text.count("\n")
                if top != "tests" and lines > MAX_LINES and not LIST_FILE.search(f):
                    errors.append(f"{path}: {lines} lines, more than {MAX_LINES}: split it by job")
                rule = folder_rule(path)
                for name in INCLUDE.findall(text):
                    if name in GENERATED:
                        continue
                    target, why = resolve(root, path, name)
                    if target is None:
                        errors.append(f'{path}: #include "{name}" {why}')
                        continue
                    if rule and not path.startswith("tests/"):
                        allowed = [rule] + ALLOWED[rule]
                        if not any(target == a or target.startswith(a + "/") for a in allowed):
                            errors.append(f'{path}: #include "{name}": {rule}/ may not include {os.path.dirname(target)}/ '
                                          f"(docs/architecture.md, the include rule)")
                    if target.startswith("src/app/") and not path.startswith(("src/app/", "tests/")):
                        errors.append(f'{path}: #include "{name}": nothing outside src/app/ includes the program')
                    a, b = module(path), module(target)
                    if a != b:
                        graph.setdefault(a, set()).add(b)
    for folder, n in sorted(counts.items()):
        if n > MAX_FILES:
            errors.append(f"{folder}/: {n} files, more than {MAX_FILES}: give its jobs folders of their own")
    # circles: depth-first search for back edges over the module graph
    state = {}
    stack = []

    def visit(node):
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                circle = stack[stack.index(nxt):] + [nxt]
                errors.append("include circle: " + " -> ".join(circle))
            elif nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = 2

    sys.setrecursionlimit(10000)
    for node in sorted(graph):
        if node not in state:
            visit(node)
    for e in errors:
        print(e)
    if errors:
        print(f"check_includes: {len(errors)} breach(es) of the house rules")
        return 1
    print(f"check_includes: {len(graph)} modules, house rules kept")
    return 0


if __name__ == "__main__":
    sys.exit(main())
