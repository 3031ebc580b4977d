/*
 * window-post-like: a circuit with the structure and the size of
 * Filecoin's WindowPoSt partition circuit (rust-fil-proofs,
 * storage-proofs-post/src/fallback/circuit.rs, read for the shape; the code
 * here is our own). Like porep-like (porep.h) it does the same kind and
 * amount of work and is not meant to make proofs Filecoin's chain would
 * accept.
 *
 * Public inputs (wires 1..), per sector in order: comm_r, then for each
 * challenge the packed bits of its leaf's index (the path). With 2349
 * sectors of 10 challenges that is 25,839 inputs, 25,840 with ONE, as the
 * 32 GiB WindowPoSt circuit has.
 *
 * Per sector: comm_c and comm_r_last (private) with
 * comm_r = Poseidon2(comm_c, comm_r_last); per challenge its leaf (private)
 * and its inclusion in tree_r_last (Poseidon trees of the preset's shape:
 * levels of arity 8, then Filecoin's sub- and top-tree levels), the path
 * bits booleans packed into the challenge's public input, the root equal
 * to comm_r_last.
 *
 * Size: Filecoin's parameters were made with a Poseidon gadget that spends
 * about 4 constraints per S-box; ours spends 3. Every constraint here but
 * a few per path is Poseidon, so the presets turn on the gadget's wired
 * S-boxes (sp_post_params.sbox_wire, poseidon.h) to have Filecoin's size:
 * the 32GiB preset counts within 0.5% of Filecoin's 125,279,217.
 *
 * Instance data. A partition's input is a seed and a partition number;
 * sector s of partition p is sector p * sectors + s of the seed. Its
 * challenges, leaves and comm_c are pseudorandom, tree_r_last a sparse
 * tree holding its challenged leaves (porep_impl.h), so every path leads
 * to the same root. Sectors are independent parts run on many threads,
 * each writing straight into w, a, b, c at offsets known in advance.
 */
#ifndef SP_CIRCUIT_POST_H
#define SP_CIRCUIT_POST_H

#include <stdint.h>
#include "snarkpipe.h"
#include "circuit/cs.h"
#include "circuit/native.h"
#include "circuit/porep.h"
#include "circuit/rec.h"

typedef struct {
    char preset[16];   /* "2KiB", ..., or "custom" */
    uint64_t nodes;    /* sector size / 32: a power of two */
    uint32_t sectors;  /* per partition, >= 1 */
    uint32_t challenges; /* per sector, >= 1 */
    uint32_t levels;   /* tree_r_last levels */
    uint8_t arity[SP_POREP_MAX_LEVELS]; /* each level's arity, from the leaves up */
    int sbox_wire;     /* Poseidon with 4 constraints per S-box (the presets), 0: 3 */
} sp_post_params;

/*
 * The parameters of a named preset: "2KiB", "8MiB", "512MiB", "32GiB",
 * "64GiB" (Filecoin's sector sizes: 10 challenges per sector; sectors per
 * partition 2, 2, 2, 2349, 2300; tree_r_last as porep.h's presets).
 * Returns SP_OK or SP_ERR_INVALID_ARG (unknown name).
 */
sp_status sp_post_preset(sp_post_params *p, const char *name) SP_WARN_UNUSED;

/* Checks p. Returns SP_OK, SP_ERR_INVALID_ARG with err saying what is
 * wrong, or SP_ERR_UNSUPPORTED outside a BLS12-381 build. */
sp_status sp_post_check(const sp_post_params *p, char err[SP_ERR_LEN]) SP_WARN_UNUSED;

/*
 * The preset (NULL = "2KiB"), then each override not SP_POREP_UNSET
 * (nodes also sets the tree: levels of arity 8, the last of 2 or 4), then
 * sp_post_check. A changed shape is named "<preset>*".
 * Returns SP_OK or SP_ERR_INVALID_ARG, err saying which.
 */
sp_status sp_post_params_from(sp_post_params *p, const char *preset, uint64_t sectors, uint64_t challenges,
                              uint64_t nodes, char err[SP_ERR_LEN]) SP_WARN_UNUSED;

/* One partition's input: the same layout as sp_porep_input, so a caller
 * that makes {seed, partition} inputs serves both circuits. */
typedef sp_porep_input sp_post_input;

typedef struct {
    uint64_t n_vars, n_public, n_rows;
    uint64_t sector_vars, sector_rows; /* one sector's part */
    uint64_t n_bool;                   /* witness values that are 0 or 1 (ONE included) */
} sp_post_shape;

/* A circuit ready to run (owner: the caller of sp_post_open, freed with
 * sp_post_close); nc.ctx points back here. */
typedef struct sp_post sp_post;

sp_status sp_post_open(sp_post **out, const sp_post_params *p, char err[SP_ERR_LEN]) SP_WARN_UNUSED;
void sp_post_close(sp_post *c);
const sp_native_circuit *sp_post_native(const sp_post *c);
const sp_post_shape *sp_post_shape_of(const sp_post *c);
const sp_post_params *sp_post_params_of(const sp_post *c);

/* Witness generation (native.h's contract), input an sp_post_input. */
sp_status sp_post_witness(const sp_native_circuit *nc, const void *input, sp_fr *w, sp_fr *a, sp_fr *b, sp_fr *c,
                          size_t n, int threads, int check, const atomic_int *cancel,
                          char err[SP_ERR_LEN]) SP_WARN_UNUSED;

/*
 * Records the matrices, sectors on `threads` threads appended in order
 * (the same matrices whatever the count or the input).
 * On output: *rec (free with sp_cs_rec_free).
 * Returns SP_OK, SP_ERR_NOMEM, or a latched circuit error.
 */
sp_status sp_post_record(sp_cs_rec **rec, const sp_post *c, const sp_post_input *input, int threads,
                         char err[SP_ERR_LEN]) SP_WARN_UNUSED;

#endif
