/*
 * A recorded native circuit: the matrices A, B, C of an sp_cs RECORD run
 * in a compact form (a wire index and a coefficient number per term, the
 * distinct coefficients in one table), with the file format that caches
 * it on disk (record once, reload for every proof: what cuzk calls
 * pre-compiled constraint evaluation, docs/algorithms.md §5).
 *
 * File format (".sprec", all integers little-endian):
 *   0   8  magic "SPREC\0\1\0" (version 1)
 *   8   8  n_vars       (wires, ONE included)
 *   16  8  n_public     (public inputs, wires 1..n_public)
 *   24  8  n_rows       (constraints)
 *   32  8  n_coef       (distinct coefficients)
 *   40  24 nnz[3]       (terms of A, B, C)
 *   64  32 digest: SHA-256 of bytes 0..64 followed by the SHA-256 digests
 *          of the bytes after the header taken in 16 MiB chunks (the last
 *          may be shorter), so that it is computed on every core
 *   96  n_coef * 32     coefficients, canonical little-endian Fr
 *   then for each matrix M in A, B, C:
 *       (n_rows + 1) * 8  row offsets (row i holds terms off[i]..off[i+1]-1)
 *       nnz[M] * 4        wire indices
 *       nnz[M] * 4        coefficient numbers (< n_coef)
 * Readers check the magic, every size against the file length before
 * allocating, offsets monotone and ending at nnz, wires < n_vars,
 * coefficient numbers < n_coef, coefficients canonical, and the digest.
 */
#ifndef SP_CIRCUIT_REC_H
#define SP_CIRCUIT_REC_H

#include <stddef.h>
#include <stdint.h>
#include "snarkpipe.h"
#include "field/field.h"
#include "r1cs/r1cs.h"
#include "circuit/rows.h"

typedef struct sp_cs_rec sp_cs_rec;

typedef struct {
    uint64_t *row; /* n_rows + 1 */
    uint32_t *var; /* nnz */
    uint32_t *kid; /* nnz coefficient numbers */
    uint64_t nnz, cap;
} sp_cs_mat;

struct sp_cs_rec {
    uint64_t n_vars, n_public, n_rows, row_cap;
    sp_cs_mat m[3];
    sp_fr *coef;   /* n_coef distinct coefficients */
    uint32_t n_coef, coef_cap;
    /* coefficient lookup while recording (open addressing, owned) */
    uint32_t *hash;
    uint32_t hash_cap;
};

/* An empty recording (n_vars = 1: ONE). Returns NULL on out of memory. */
struct sp_cs_rec *sp_cs_rec_new(void);
void sp_cs_rec_free(struct sp_cs_rec *r);

/* Appends one constraint (used by cs.c). Returns SP_OK or SP_ERR_NOMEM. */
sp_status sp_cs_rec_add(struct sp_cs_rec *r, const sp_cs_term *const t[3], const uint32_t n[3]) SP_WARN_UNUSED;
/* Appends all of src's rows after dst's (used by sp_cs_sub_join). */
sp_status sp_cs_rec_append(struct sp_cs_rec *dst, const struct sp_cs_rec *src) SP_WARN_UNUSED;

/* <row i of matrix m (0 = A, 1 = B, 2 = C), w>. */
void sp_cs_rec_row_dot(sp_fr *out, const struct sp_cs_rec *r, int m, uint64_t i, const sp_fr *w);

/*
 * The reference QAP vectors: a, b, c (n rows each, synth.h's layout) from
 * the matrices and a full witness w (n_vars values), on `threads` threads.
 * With check, every row is checked and the first failing one reported.
 * Returns SP_OK, SP_ERR_UNSATISFIED (*bad_row set, err names it),
 * SP_ERR_INVALID_ARG (n too small).
 */
sp_status sp_cs_rec_abc(sp_fr *a, sp_fr *b, sp_fr *c, size_t n, const struct sp_cs_rec *r, const sp_fr *w,
                        int check, int threads, uint64_t *bad_row, char err[SP_ERR_LEN]) SP_WARN_UNUSED;

/* As an sp_r1cs (full coefficients; wires: ONE, n_public public inputs,
 * private internal wires), for the .r1cs writer, setup and synth.
 * Returns SP_OK or SP_ERR_NOMEM / SP_ERR_UNSUPPORTED (over 2^32 wires or
 * rows). The caller frees *out with sp_r1cs_free. */
sp_status sp_cs_rec_to_r1cs(sp_r1cs *out, const struct sp_cs_rec *r, char err[SP_ERR_LEN]) SP_WARN_UNUSED;

/* Bytes the recording holds in memory (and, within a few bytes, on disk). */
uint64_t sp_cs_rec_bytes(const struct sp_cs_rec *r);

/* Writes / reads the ".sprec" file above. Read returns SP_OK, SP_ERR_IO,
 * SP_ERR_TRUNCATED, SP_ERR_FORMAT (what and where in err),
 * SP_ERR_NOT_CANONICAL, SP_ERR_NOMEM; *out is NULL on failure. */
sp_status sp_cs_rec_save(const struct sp_cs_rec *r, const char *path, char err[SP_ERR_LEN]) SP_WARN_UNUSED;
sp_status sp_cs_rec_load(struct sp_cs_rec **out, const char *path, char err[SP_ERR_LEN]) SP_WARN_UNUSED;

#endif
