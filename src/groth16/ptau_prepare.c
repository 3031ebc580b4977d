/* `snarkjs powersoftau prepare phase2` (ptau_prepare.h). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include "groth16/backend.h"
#include "groth16/pointio.h"
#include "groth16/ptau_comb.h"
#include "groth16/ptau_prepare.h"
#include "ntt/ntt.h"
#include "util/file.h"
#include "util/progress.h"

#define G1B (2 * SP_FP_BYTES)
#define G2B (4 * SP_FP_BYTES)
#define N_OUT 11 /* sections written: 1..7, 12..15 */

static void put_u32(uint8_t *o, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        o[i] = (uint8_t)(v >> (8 * i));
}

static void put_u64(uint8_t *o, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        o[i] = (uint8_t)(v >> (8 * i));
}

/* Section `to`'s payload from series `from`: block k (k = 0..last) of 2^k
 * points at point offset 2^k - 1, the inverse DFT of the series' first
 * 2^k points (those past the file's end infinity). out holds
 * 2^(last+1) - 1 points. */
static sp_status lag_section(uint8_t *out, const sp_ptau *p, uint32_t from, unsigned last, sp_backend *be,
                             int threads, char *err)
{
    int g2 = sp_ptau_section_is_g2(from);
    size_t psz = g2 ? G2B : G1B, asz = g2 ? sizeof(sp_g2_affine) : sizeof(sp_g1_affine);
    size_t nmax = (size_t)1 << last;
    uint64_t have = sp_ptau_section_points(p, from), nread = nmax < have ? nmax : have;
    void *pts = calloc(nmax, asz), *blk = malloc(nmax * asz); /* calloc: (0, 0) is infinity */
    sp_scalar *tw = malloc(sizeof *tw * (nmax / 2 + 1)), *pre = malloc(sizeof *pre * nmax);
    sp_status st = pts && blk && tw && pre ? SP_OK : SP_ERR_NOMEM;
    if (st == SP_OK)
        st = sp_ptau_read_points(pts, p, from, 0, nread, 1, threads, err);
    else
        sp_bin_errf(err, "prepare: out of memory for 2^%u points", last);
    for (unsigned k = 0; k <= last && st == SP_OK; k++) {
        size_t n = (size_t)1 << k;
        if ((st = sp_ptau_intt_scalars(tw, pre, k, 0)) != SP_OK) {
            sp_bin_errf(err, "prepare: no roots of unity of order 2^%u in this curve's field", k);
            break;
        }
        st = g2 ? sp_g2_ptau_intt_be(be, blk, pts, k, tw, pre, threads, err)
                : sp_g1_ptau_intt_be(be, blk, pts, k, tw, pre, threads, err);
        if (st == SP_OK)
            sp_pt_encode_array(out + (n - 1) * psz, blk, n, SP_PTF_LEM, g2);
        else if (st != SP_ERR_GPU)
            sp_bin_errf(err, "prepare: the inverse DFT of 2^%u points: %s", k, sp_status_str(st));
    }
    free(pts), free(blk), free(tw), free(pre);
    return st;
}

typedef struct {
    uint8_t head[12 + 12 + 4 + 64 + 8]; /* the container's start and section 1 */
    uint8_t shead[N_OUT - 1][12];       /* the other sections' id | size */
    uint8_t *lag[4];                    /* sections 12..15 */
    struct iovec iov[1 + 2 * (N_OUT - 1)];
    int n_iov;
} prep_out;

/* iov: one section's header and payload. */
static void add_section(prep_out *o, int k, uint32_t id, const void *data, uint64_t size)
{
    put_u32(o->shead[k], id);
    put_u64(o->shead[k] + 4, size);
    o->iov[o->n_iov++] = (struct iovec){o->shead[k], 12};
    o->iov[o->n_iov++] = (struct iovec){(void *)data, size};
}

/* The container's start and section 1, ceremonyPower = power. */
static void add_header(prep_out *o, const sp_ptau *p)
{
    const sp_bin_section *h = p->sec[1];
    uint64_t hs = h->size; /* n8q | q | power | ceremonyPower, checked at open */
    memcpy(o->head, "ptau", 4);
    put_u32(o->head + 4, 1);
    put_u32(o->head + 8, N_OUT);
    put_u32(o->head + 12, 1);
    put_u64(o->head + 16, hs);
    memcpy(o->head + 24, p->bf.data + h->offset, hs);
    put_u32(o->head + 24 + hs - 4, p->power);
    o->iov[o->n_iov++] = (struct iovec){o->head, 24 + hs};
}

sp_status sp_ptau_prepare_write(const char *path, const sp_ptau *p, sp_backend *be, int threads,
                                char err[SP_ERR_LEN])
{
    static const uint32_t from[4] = {SP_PTAU_TAU_G1, SP_PTAU_TAU_G2, SP_PTAU_ALPHA_TAU_G1, SP_PTAU_BETA_TAU_G1};
    static const char *const what[4] = {"Lagrange tauG1", "Lagrange tauG2", "Lagrange alphaTauG1",
                                        "Lagrange betaTauG1"};
    if (p->power >= SP_NTT_MAX_LOG) {
        sp_bin_errf(err, "prepare: power %" PRIu32 ": this curve's roots of unity serve powers up to %d",
                    p->power, SP_NTT_MAX_LOG - 1);
        return SP_ERR_UNSUPPORTED;
    }
    prep_out o;
    memset(&o, 0, sizeof o);
    add_header(&o, p);
    for (uint32_t id = 2; id <= 7; id++)
        add_section(&o, (int)id - 2, id, p->bf.data + p->sec[id]->offset, p->sec[id]->size);
    sp_status st = SP_OK;
    sp_progress_begin("prepare phase2", 0);
    for (int s = 0; s < 4 && st == SP_OK; s++) {
        unsigned last = p->power + (s == 0);
        uint64_t size = (((uint64_t)2 << last) - 1) * (sp_ptau_section_is_g2(from[s]) ? G2B : G1B);
        sp_progress_part(what[s]);
        if (!(o.lag[s] = malloc(size))) {
            sp_bin_errf(err, "prepare: out of memory for section %d (%" PRIu64 " bytes)", 12 + s, size);
            st = SP_ERR_NOMEM;
        } else if ((st = lag_section(o.lag[s], p, from[s], last, be, threads, err)) == SP_OK) {
            add_section(&o, 6 + s, 12 + (uint32_t)s, o.lag[s], size);
        }
    }
    sp_progress_end();
    if (st == SP_OK)
        st = sp_file_write_atomicv(path, o.iov, o.n_iov, 0666, "ptau", err);
    for (int s = 0; s < 4; s++)
        free(o.lag[s]);
    return st;
}
