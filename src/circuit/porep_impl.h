/*
 * Internal to porep.c and porep_inst.c: the instance data of one
 * partition (what Filecoin's C1 output carries) and the circuit's layout.
 */
#ifndef SP_CIRCUIT_POREP_IMPL_H
#define SP_CIRCUIT_POREP_IMPL_H

#include "circuit/porep.h"

#define POREP_MAX_PARENTS 32

/* One challenge: the node, its data, parents, columns and paths. */
typedef struct {
    uint64_t node;
    sp_fr data_leaf;
    uint64_t parent[POREP_MAX_PARENTS]; /* drg parents, then expander parents */
    sp_fr *cols;     /* n_parents * layers: parent p's value of layer l at [p * layers + l] */
    sp_fr *labels;   /* layers: the challenge's own column */
    sp_fr encoded;   /* labels[layers - 1] + data_leaf: the replica node */
    sp_fr *d_sib;    /* d_depth tree_d siblings, from the leaf up */
    sp_fr *c_sib;    /* (n_parents + 1) tree_c paths of n_sib each: parents', then the challenge's */
    sp_fr *r_sib;    /* n_sib tree_r_last siblings */
} porep_chal;

struct sp_porep_inst {
    sp_fr replica_id, comm_d, comm_c, comm_r_last, comm_r;
    porep_chal *ch;  /* challenges */
    sp_fr *pub;      /* the n_public public inputs, in wire order */
    void *mem;       /* one block behind every array above */
};
typedef struct sp_porep_inst sp_porep_inst;

/* Where one challenge's parts put the wires other parts read, relative to
 * the part's first wire (the same in every challenge). */
typedef struct {
    uint64_t data_leaf;
    uint64_t col;      /* first column value; parent p, layer l at col + p * layers + l */
    uint64_t node_bit; /* 64 node bits, least significant first */
} porep_head_refs;

struct sp_porep {
    sp_porep_params p;
    sp_porep_shape shape;
    sp_native_circuit nc;
    uint32_t n_parents;     /* drg + exp */
    uint32_t n_sib;         /* siblings of one tree_c / tree_r_last path */
    /* layout: the top part, then per challenge head, layers labels, tail */
    uint64_t top_vars, top_rows;
    uint64_t head_vars, head_rows, label_vars[2], label_rows[2], tail_vars, tail_rows; /* label [0]: layer 1 */
    porep_head_refs head;
    uint64_t replica_bit[255]; /* wires of replica_id's bits (top part) */
    uint64_t comm_c_wire, comm_r_last_wire;
};

/* Builds the instance of input `in`, on up to `threads` threads.
 * Returns SP_OK, SP_ERR_NOMEM, SP_ERR_INVALID_ARG (err says why). */
sp_status sp_porep_inst_make(sp_porep_inst **out, const sp_porep *c, const sp_porep_input *in, int threads,
                             char err[SP_ERR_LEN]) SP_WARN_UNUSED;
void sp_porep_inst_free(sp_porep_inst *x);

/* The label of a node natively: SHA-256 of replica_id || layer (4 bytes
 * big-endian) || node (8 bytes big-endian) || zeros to 64 bytes || the
 * parents' values cycled to total_parents slots of 32 bytes (each value's
 * little-endian bytes), the digest's top two bits cleared, read
 * little-endian. */
void sp_porep_label(sp_fr *out, const sp_fr *replica_id, uint32_t layer, uint64_t node, const sp_fr *parents,
                    uint32_t n_parents, uint32_t total_parents);

/* Fr value number (a, b) of kind tag for the given seed: SHA-256 of the
 * four words as a domain value (below 2^254). */
void sp_porep_prf_fr(sp_fr *out, uint64_t seed, unsigned tag, uint64_t a, uint64_t b);

/* A tree over leaves at arbitrary positions; hash(children, arity). */
typedef struct {
    const uint8_t *arity; /* per level, from the leaves up */
    unsigned levels;
    unsigned fill_tag;    /* untouched children: sp_porep_prf_fr(seed, fill_tag, level, index) */
    uint64_t seed;
    int sha; /* 1: binary SHA-256 nodes; 0: Poseidon of the level's arity */
} sp_porep_tree;

/*
 * Root and paths of the leaves (idx[i], val[i]), i < n (repeated indices
 * must carry equal values). sib gets, per leaf, sum(arity - 1) siblings,
 * level by level. Untouched subtrees get pseudorandom digests. Returns 0
 * on out of memory.
 */
int sp_porep_sparse_tree(sp_fr *root, sp_fr *sib, const sp_porep_tree *t, const uint64_t *idx, const sp_fr *val,
                         size_t n);

/* A preset's tree: `base` levels of arity 8, then the sub- and top-tree
 * arities where not 0, appended to arity[*levels..] (*levels advanced). */
void sp_porep_tree_levels(uint8_t *arity, uint32_t *levels, unsigned base, unsigned sub, unsigned top);

/*
 * The checks both circuits' parameters start with, in this order: a
 * BLS12-381 build (sp_native_curve_check), each tree level's arity 2, 4,
 * 8 or 16, nodes a power of two from 2 to 2^40.
 * On output: *log_nodes = ceil(log2(nodes)), *tree_bits = the sum of
 *   log2 of the arities (the levels cover the nodes when they are equal).
 * Returns SP_OK, SP_ERR_UNSUPPORTED, or SP_ERR_INVALID_ARG; err says why,
 *   prefixed by `what` (the circuit's name).
 */
sp_status sp_porep_tree_check(unsigned *log_nodes, unsigned *tree_bits, uint64_t nodes, const uint8_t *arity,
                              uint32_t levels, const char *what, char err[SP_ERR_LEN]);

/* The tree an overridden node count gets: levels of arity 8, then one of
 * 2 or 4 for the rest, into arity[0..*levels) (at most
 * SP_POREP_MAX_LEVELS). Returns ceil(log2(nodes)) (at most 63). */
unsigned sp_porep_tree_fit(uint8_t *arity, uint32_t *levels, uint64_t nodes);

/* A tree_d node natively (merkle_sha256.h's node on the children's
 * little-endian bytes). */
void sp_porep_sha_node(sp_fr *out, const sp_fr *left, const sp_fr *right);

#endif
