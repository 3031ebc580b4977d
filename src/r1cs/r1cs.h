/*
 * Rank-1 constraint systems as three CSR matrices, and the circom file
 * formats that carry them: .r1cs (constraints) and .wtns (witness), both
 * iden3 binfile containers (docs/formats.md §2 and §3).
 *
 * Wires (the circom word for variables) are numbered as circom does:
 * 0 = the constant ONE, then n_outputs public outputs, n_pub_inputs public
 * inputs, the private inputs (n_prv_inputs counts also those circom's
 * optimizer took off the wires), then internal signals. The witness
 * vector w is indexed by wire. Constraint i says <A_i,w> * <B_i,w> = <C_i,w>.
 *
 * Only circuits of this build's curve are accepted: the file's prime must
 * be its scalar field r (a file of the other curve is refused naming
 * both). Field elements are held in Montgomery form (sp_fr).
 * Every reader validates and reports problems in err[SP_ERR_LEN].
 */
#ifndef SP_R1CS_R1CS_H
#define SP_R1CS_R1CS_H

#include <stddef.h>
#include <stdint.h>
#include "field/field.h"
#include "r1cs/binfile.h"

/* One sparse matrix: row i holds entries row[i] .. row[i+1]-1. Column
 * indices are wire numbers, in file order (circom never repeats a wire
 * within a row; a repeat would simply add up). */
typedef struct {
    uint64_t *row; /* n_rows + 1 offsets */
    uint32_t *col; /* nnz wire indices */
    sp_fr *val;    /* nnz coefficients */
    size_t n_rows;
    uint64_t nnz;
} sp_csr;

/* The .r1cs header (section 1) in our words. */
typedef struct {
    uint32_t n_wires; /* nVars of snarkjs, including wire 0 */
    uint32_t n_outputs;
    uint32_t n_pub_inputs;
    uint32_t n_prv_inputs;
    uint64_t n_labels;
    uint32_t n_constraints;
} sp_r1cs_header;

/* A circuit. Owner: the caller of sp_r1cs_read/parse/alloc, who releases
 * it with sp_r1cs_free. */
typedef struct sp_r1cs { /* tagged: synth/ops.h names it */
    sp_r1cs_header h;
    sp_csr a, b, c; /* n_constraints rows each */
} sp_r1cs;

/* Public wires (outputs + public inputs), not counting wire 0: snarkjs' nPublic. */
static inline uint32_t sp_r1cs_n_public(const sp_r1cs_header *h)
{
    return h->n_outputs + h->n_pub_inputs;
}

/*
 * Reads a circom .r1cs file (version 1, sections in any order; the
 * wire-to-label map is ignored).
 * On output: *cs holds the circuit; on failure it is zeroed (freeing it is
 *   harmless).
 * Returns SP_OK, or SP_ERR_IO / SP_ERR_TRUNCATED / SP_ERR_FORMAT (bad
 *   container, header or constraint list, wire out of range),
 *   SP_ERR_NOT_CANONICAL (coefficient >= r), SP_ERR_UNSUPPORTED
 *   (another curve's prime, field size other than 32, custom gates),
 *   SP_ERR_NOMEM; err says what and where.
 */
sp_status sp_r1cs_read(sp_r1cs *cs, const char *path, char err[SP_ERR_LEN]) SP_WARN_UNUSED;
/* As sp_r1cs_read on the bytes data[0..len). */
sp_status sp_r1cs_parse(sp_r1cs *cs, const uint8_t *data, size_t len, char err[SP_ERR_LEN]) SP_WARN_UNUSED;
void sp_r1cs_free(sp_r1cs *cs);

/* A linear combination sum coef[i] * w[wire[i]], for the writers. */
typedef struct {
    size_t n;
    const uint32_t *wire;
    const sp_fr *coef;
} sp_r1cs_lc;

/*
 * Streaming .r1cs writer: open with the final header, add exactly
 * h->n_constraints constraints, close. Sections are written in the order
 * 1 (header), 2 (constraints), 3 (wire i -> label i).
 * Owner: the caller of open; close (or abort) frees it.
 */
typedef struct sp_r1cs_writer sp_r1cs_writer;

/* SP_ERR_INVALID_ARG when the header is inconsistent (public and private
 * input counts exceed n_wires - 1, or n_labels < n_wires). */
sp_status sp_r1cs_writer_open(sp_r1cs_writer **w, const char *path, const sp_r1cs_header *h,
                              char err[SP_ERR_LEN]) SP_WARN_UNUSED;
/* SP_ERR_INVALID_ARG for a wire >= n_wires or one constraint too many. */
sp_status sp_r1cs_writer_add(sp_r1cs_writer *w, const sp_r1cs_lc *a, const sp_r1cs_lc *b, const sp_r1cs_lc *c,
                             char err[SP_ERR_LEN]) SP_WARN_UNUSED;
/* SP_ERR_INVALID_ARG when fewer constraints than announced were added. */
sp_status sp_r1cs_writer_close(sp_r1cs_writer *w, char err[SP_ERR_LEN]) SP_WARN_UNUSED;
void sp_r1cs_writer_abort(sp_r1cs_writer *w);

/* Writes a whole circuit (through the streaming writer). */
sp_status sp_r1cs_write(const char *path, const sp_r1cs *cs, char err[SP_ERR_LEN]) SP_WARN_UNUSED;

/*
 * Reads a .wtns file (version 2): prime must be r, values canonical,
 * w[0] == 1.
 * On output: *w is a new array of *n Montgomery values (the caller frees
 *   it with free()); NULL and 0 on failure.
 * Returns SP_OK or a status as for sp_r1cs_read, with err set.
 */
sp_status sp_wtns_read(sp_fr **w, size_t *n, const char *path, char err[SP_ERR_LEN]) SP_WARN_UNUSED;
sp_status sp_wtns_parse(sp_fr **w, size_t *n, const uint8_t *data, size_t len, char err[SP_ERR_LEN]) SP_WARN_UNUSED;

/* Returns SP_OK when a witness of n values fits the circuit (n ==
 * n_wires), else SP_ERR_FORMAT with "wtns: expected N values (nVars of
 * the circuit), file holds M". */
sp_status sp_wtns_check_circuit(size_t n, const sp_r1cs_header *h, char err[SP_ERR_LEN]) SP_WARN_UNUSED;

/* Streaming .wtns writer: announce n values, put exactly n, close. */
typedef struct sp_wtns_writer sp_wtns_writer;
sp_status sp_wtns_writer_open(sp_wtns_writer **w, const char *path, size_t n, char err[SP_ERR_LEN]) SP_WARN_UNUSED;
sp_status sp_wtns_writer_put(sp_wtns_writer *w, const sp_fr *v, size_t count, char err[SP_ERR_LEN]) SP_WARN_UNUSED;
sp_status sp_wtns_writer_close(sp_wtns_writer *w, char err[SP_ERR_LEN]) SP_WARN_UNUSED;
void sp_wtns_writer_abort(sp_wtns_writer *w);

sp_status sp_wtns_write(const char *path, const sp_fr *w, size_t n, char err[SP_ERR_LEN]) SP_WARN_UNUSED;

#endif
