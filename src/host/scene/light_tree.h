/* light_tree.h - building RS_LIGHT_SELECT_TREE's arrays (src/kernel/light/light_tree.h): a BVH
 * over the emitters of the light table with power and orientation bounds, and each light's
 * trail to its leaf.
 *
 * Host C11 + C11 atomics (every pass runs on a thread pool). Called by rs_light_select_build
 * (light_select.c), which times it and keeps the tree in its RsLightSelect. Top-down, one light per leaf; a node of more than 16 lights
 * is split at the best of 12 bins of its lights' centres along their widest axis by the cost of
 * Conty Estevez & Kulla 2018 (power times orientation measure times surface area, summed over
 * the two sides); smaller nodes, and every node from depth 32 on, are halved at their median, so
 * no leaf is deeper than 63.
 */
#ifndef RS_HOST_LIGHT_TREE_H
#define RS_HOST_LIGHT_TREE_H

#include "host/util/error.h"
#include "kernel/scene/scene_view.h"

typedef struct RsLightTree {
    RsFloat4* nodes;     /* 4 * node_count blocks (kernel/light/light_tree.h) */
    uint64_t* trails;    /* per light, the way to its leaf */
    uint32_t node_count; /* 2n - 1 for n lights in the tree */
    uint32_t depth;      /* the deepest leaf */
    float env_prob;      /* the probability of picking the environment (and directional lights) */
    /* with directional lights: per table entry, the cumulative share and the probability of the
     * lights at infinity (kernel/light/light_tree.h); NULL otherwise */
    float* infinite_cdf;
    float* infinite_pmf;
} RsLightTree;

/* Fills *tree from the light table of `view`
 * whose entries have the given powers, on `threads` threads (0: one per processor; the tree is
 * the same for any number). Entries without a positive, finite power (and the lights at
 * infinity, picked beside the tree) stay out of it: trail 0. */
int rs_light_tree_build(RsLightTree* tree, const RsSceneView* view, const double* power, uint32_t threads,
                        RsError* err);
void rs_light_tree_free(RsLightTree* tree);

#endif /* RS_HOST_LIGHT_TREE_H */
