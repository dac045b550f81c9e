"""image_stats.py - is the difference between two renderers more than noise?

Used by tools/compare_reference.py. Each renderer gives two images made with independent seeds.
For one renderer, per pixel, (a1 - a2)^2 / 4 estimates the variance of the pixel's mean
(a1 + a2) / 2 (two samples of a variance sigma^2: E[(a1 - a2)^2] = 2 sigma^2, and the mean of
two has sigma^2 / 2). Pixels are independent (the random numbers hash the pixel), so a region's
mean has the sum of its pixels' variances over n^2. Comparisons are on luminance (Rec. 709).

- mean ratio R = mean(A) / mean(B), standard error by the delta method:
  SE(R) = R sqrt((SE_A / mean A)^2 + (SE_B / mean B)^2).
- block z: for each 16x16 block, (mean_A - mean_B) / sqrt(SE_A^2 + SE_B^2). With nothing but
  noise these are about standard normal, so their RMS is about 1. Pixels that carry no noise
  at all in either renderer (the environment seen directly) still differ by float rounding and
  by the baked sky map, so they count with a standard error of 2e-3 of their value.
"""

import numpy as np

BLOCK = 16
SE_FLOOR = 2e-3


def luminance(img):
    return 0.2126 * img[..., 0] + 0.7152 * img[..., 1] + 0.0722 * img[..., 2]


def mean_and_var(pair):
    """Per-pixel luminance mean of two images and the variance of that mean."""
    a, b = (luminance(np.asarray(x, dtype=np.float64)) for x in pair)
    return 0.5 * (a + b), 0.25 * (a - b) ** 2


def block_sums(x, block):
    h, w = x.shape[0] // block * block, x.shape[1] // block * block
    x = x[:h, :w]
    return x.reshape(h // block, block, w // block, block).sum(axis=(1, 3))


def worst_relative(rel, block_ref, mean_ref, z):
    """The largest relative block difference that is also beyond noise (|z| > 3), among blocks
    not darker than 1% of the image mean; 0 when every block is within noise."""
    candidates = np.where((block_ref > 0.01 * mean_ref) & (np.abs(z) > 3.0), rel, 0.0)
    i = int(np.argmax(np.abs(candidates)))
    return float(candidates.flat[i])


def compare(test_pair, ref_pair, block=BLOCK):
    """Statistics of test (two images) against ref (two images); see the module comment."""
    ta, tv = mean_and_var(test_pair)
    ra, rv = mean_and_var(ref_pair)
    n = ta.size
    mt, mr = ta.mean(), ra.mean()
    se_t, se_r = np.sqrt(tv.sum()) / n, np.sqrt(rv.sum()) / n
    ratio = mt / mr if mr > 0 else float("nan")
    se_ratio = ratio * np.sqrt((se_t / mt) ** 2 + (se_r / mr) ** 2) if mt > 0 and mr > 0 else float("nan")

    nb = block * block
    bt, br = block_sums(ta, block) / nb, block_sums(ra, block) / nb
    silent = (tv + rv) == 0  # no noise at all in either renderer: the floor stands in
    floor_var = np.where(silent, (SE_FLOOR * 0.5 * (ta + ra)) ** 2, 0.0)
    bvar = (block_sums(tv, block) + block_sums(rv, block) + block_sums(floor_var, block)) / nb ** 2
    se = np.sqrt(bvar)
    diff = bt - br
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(se > 0, diff / se, np.where(diff == 0, 0.0, np.inf))
        rel = np.where(br > 0, diff / br, 0.0)
    order = np.argsort(-np.abs(z), axis=None)[:5]
    worst = [{"block": [int(i % z.shape[1]), int(i // z.shape[1])], "pixel": [int(i % z.shape[1]) * block,
              int(i // z.shape[1]) * block], "z": float(z.flat[i]), "relative": float(rel.flat[i])} for i in order]
    return {
        "mean_test": float(mt), "mean_ref": float(mr),
        "ratio": float(ratio), "ratio_se": float(se_ratio),
        "ratio_sigmas": float(abs(ratio - 1.0) / se_ratio) if se_ratio > 0 else float("inf"),
        "block_z_rms": float(np.sqrt(np.mean(z ** 2))),
        "worst_block_relative": worst_relative(rel, br, mr, z),
        "worst_blocks": worst,
    }


def within_noise(stats, sigmas=3.0, z_rms=1.5):
    return stats["ratio_sigmas"] <= sigmas and stats["block_z_rms"] < z_rms


def noise_per_sample(pair, scale, trim=0.001):
    """Relative variance of one renderer's pixels, from two independent renders of the same spp:
    per pixel (a - b)^2 / 2 over the channels, divided by scale^2 (scale: a common mean image,
    so that two renderers are weighed alike), summed over the pixels but the worst `trim` of
    them (fireflies are seen by the plain sum, but do not decide). Multiplied by spp it is the
    error of one sample; the ratio of two renderers' values at equal spp is their per-sample
    error ratio."""
    a, b = pair
    d = (0.5 * (a - b) ** 2 / (scale ** 2 + 1e-4)).mean(axis=-1).ravel()
    keep = np.sort(d)[: max(1, int(round(len(d) * (1.0 - trim))))]
    return float(d.mean()), float(keep.mean())
