#!/usr/bin/env python3
"""auto_rows.py BENCH.json[.gz] ... - how `--deadray auto` and every fixed strategy stand against
the best of the other fixed strategies, row by row, in `raystream bench` results.

A row is a (scene, integrator, depth). For each file it prints auto's FPS over the best fixed
strategy's (median over rows, rows within 3%, the worst rows) and, for every strategy, in how
many rows it is within 3% of the best of the other fixed strategies and its worst ratio: a
fixed strategy that misses rows by far shows noise in the measurement, not a slow strategy
(tools/bench/results/traversal/README.md, section bench-turns/).
"""
import collections
import gzip
import json
import statistics
import sys


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        return json.load(f)


def rows_of(doc):
    rows = collections.defaultdict(dict)
    for r in doc["results"]:
        rows[(r["scene"].split("/")[-1], r["integrator"], r["depth"])][r["deadray"]] = r["fps_median"]
    return rows


def summary(path):
    rows = rows_of(load(path))
    lines = [path]
    ratios = sorted((v["auto"] / max(f for s, f in v.items() if s != "auto"), k)
                    for k, v in rows.items() if "auto" in v and len(v) > 1)
    if ratios:
        worst = ", ".join("%.3f %s %s %d" % (x, *k) for x, k in ratios[:3])
        lines.append("  auto / best fixed: median %.3f, within 3%%: %d of %d; worst %s" % (
            statistics.median(x for x, _ in ratios), sum(x >= 0.97 for x, _ in ratios), len(ratios), worst))
    strategies = sorted({s for v in rows.values() for s in v})
    parts = []
    for s in strategies:
        within, n, worst = 0, 0, float("inf")
        for v in rows.values():
            others = [f for t, f in v.items() if t not in (s, "auto")]
            if s not in v or not others:
                continue
            ratio = v[s] / max(others)
            n += 1
            within += ratio >= 0.97
            worst = min(worst, ratio)
        if n:
            parts.append("%s %d/%d (worst %.3f)" % (s, within, n, worst))
    lines.append("  against the best of the other fixed strategies: " + ", ".join(parts))
    return "\n".join(lines)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for p in sys.argv[1:]:
        print(summary(p))
