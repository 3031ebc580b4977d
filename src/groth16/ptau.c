/* snarkjs .ptau reader (ptau.h). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "groth16/pointio.h"
#include "groth16/ptau.h"
#include "util/curves.h"

#define G1B (2 * SP_FP_BYTES)
#define G2B (4 * SP_FP_BYTES)
/* A contribution record without its parameters (powersoftau_utils.js):
 * tauG1, tauG2, alphaG1, betaG1, betaG2, the public key (6 G1, 3 G2),
 * the partial hash (216), the next challenge (64), type and params
 * length (u32 each). */
#define CONTRIB_FIXED (9 * G1B + 5 * G2B + 216 + 64 + 4 + 4)

static const char *section_name(uint32_t id)
{
    switch (id) {
    case 1: return "header";
    case SP_PTAU_TAU_G1: return "tauG1";
    case SP_PTAU_TAU_G2: return "tauG2";
    case SP_PTAU_ALPHA_TAU_G1: return "alphaTauG1";
    case SP_PTAU_BETA_TAU_G1: return "betaTauG1";
    case SP_PTAU_BETA_G2: return "betaG2";
    case SP_PTAU_CONTRIBUTIONS: return "contributions";
    case SP_PTAU_LAG_TAU_G1: return "Lagrange tauG1";
    case SP_PTAU_LAG_TAU_G2: return "Lagrange tauG2";
    case SP_PTAU_LAG_ALPHA_TAU_G1: return "Lagrange alphaTauG1";
    case SP_PTAU_LAG_BETA_TAU_G1: return "Lagrange betaTauG1";
    default: return "unknown";
    }
}

int sp_ptau_section_is_g2(uint32_t id)
{
    return id == SP_PTAU_TAU_G2 || id == SP_PTAU_BETA_G2 || id == SP_PTAU_LAG_TAU_G2;
}

uint64_t sp_ptau_section_points(const sp_ptau *p, uint32_t id)
{
    uint64_t n = (uint64_t)1 << p->power;
    switch (id) {
    case SP_PTAU_TAU_G1: return 2 * n - 1;
    case SP_PTAU_TAU_G2:
    case SP_PTAU_ALPHA_TAU_G1:
    case SP_PTAU_BETA_TAU_G1: return n;
    case SP_PTAU_BETA_G2: return 1;
    case SP_PTAU_LAG_TAU_G1: return 4 * n - 1; /* blocks 2^0 .. 2^(p+1) */
    case SP_PTAU_LAG_TAU_G2:
    case SP_PTAU_LAG_ALPHA_TAU_G1:
    case SP_PTAU_LAG_BETA_TAU_G1: return 2 * n - 1; /* blocks 2^0 .. 2^p */
    default: return 0;
    }
}

/* sp_ptau_section_points in words, for messages. */
static const char *count_text(uint32_t id)
{
    switch (id) {
    case SP_PTAU_TAU_G1: return "2^(power+1) - 1 G1 points";
    case SP_PTAU_TAU_G2: return "2^power G2 points";
    case SP_PTAU_BETA_G2: return "1 G2 point";
    case SP_PTAU_LAG_TAU_G1: return "2^(power+2) - 1 G1 points";
    case SP_PTAU_LAG_TAU_G2: return "2^(power+1) - 1 G2 points";
    case SP_PTAU_LAG_ALPHA_TAU_G1:
    case SP_PTAU_LAG_BETA_TAU_G1: return "2^(power+1) - 1 G1 points";
    default: return "2^power G1 points";
    }
}

/* Section 1: the base field must be this build's, the power in range. */
static sp_status read_header(sp_ptau *p, char *err)
{
    const sp_bin_section *s = p->sec[1];
    sp_bin_cursor c = sp_bin_cursor_of(&p->bf, s);
    uint32_t n8;
    const uint8_t *q;
    if (!sp_bin_u32(&c, &n8) || n8 > 64 || !sp_bin_bytes(&c, &q, n8) || !sp_bin_u32(&c, &p->power) ||
        !sp_bin_u32(&c, &p->ceremony_power) || c.left) {
        sp_bin_errf(err, "ptau section 1 (header): not n8q | q | power | ceremonyPower");
        return SP_ERR_FORMAT;
    }
    sp_curve_id curve = sp_curve_from_base_prime(q, n8);
    if (curve != SP_CURVE_ID_THIS) {
        if (curve != SP_CURVE_ID_NONE)
            sp_curve_mismatch_msg(err, SP_ERR_LEN, "ptau", curve, SP_CURVE_ID_THIS);
        else
            sp_bin_errf(err, "ptau section 1 (header): the base-field prime is not one of a known curve");
        return SP_ERR_UNSUPPORTED;
    }
    if (p->power < 1 || p->power > SP_PTAU_MAX_POWER) {
        sp_bin_errf(err, "ptau section 1 (header): power outside 1..%d", SP_PTAU_MAX_POWER);
        return SP_ERR_UNSUPPORTED;
    }
    if (p->ceremony_power < p->power) {
        sp_bin_errf(err, "ptau section 1 (header): ceremony power below power");
        return SP_ERR_FORMAT;
    }
    return SP_OK;
}

static sp_status check_points_size(const sp_ptau *p, uint32_t id, char *err)
{
    uint64_t n = sp_ptau_section_points(p, id), want = n * (sp_ptau_section_is_g2(id) ? G2B : G1B);
    if (p->sec[id]->size != want) {
        sp_bin_errf(err, "ptau section %" PRIu32 " (%s): its size is not that of %s for the header's power", id,
                    section_name(id), count_text(id));
        return SP_ERR_FORMAT;
    }
    return SP_OK;
}

/* Section 7: a count, then records whose parameters are sorted
 * type-length-value entries (1 name, 2 iterations exponent, 3 beacon hash),
 * adding up to the section exactly. */
static sp_status read_contributions(sp_ptau *p, char *err)
{
    const sp_bin_section *s = p->sec[SP_PTAU_CONTRIBUTIONS];
    sp_bin_cursor c = sp_bin_cursor_of(&p->bf, s);
    const uint8_t *rec;
    uint32_t n, plen;
    if (!sp_bin_u32(&c, &n))
        goto bad;
    for (uint32_t i = 0; i < n; i++) {
        if (!sp_bin_bytes(&c, &rec, CONTRIB_FIXED))
            goto bad;
        plen = sp_bin_le32(rec + CONTRIB_FIXED - 4);
        const uint8_t *par;
        if (!sp_bin_bytes(&c, &par, plen))
            goto bad;
        for (uint32_t k = 0, last = 0; k < plen;) {
            uint32_t type = par[k], len = type == 2 ? 1 : k + 1 < plen ? 1u + par[k + 1] : 0;
            if (type <= last || type > 3 || len == 0 || k + 1 + len > plen) {
                sp_bin_errf(err, "ptau section 7 (contributions): a contribution's parameter list is malformed");
                return SP_ERR_FORMAT;
            }
            last = type;
            k += 1 + len;
        }
    }
    if (c.left)
        goto bad;
    p->n_contributions = n;
    return SP_OK;
bad:
    sp_bin_errf(err, "ptau section 7 (contributions): the section does not hold exactly the records it counts");
    return SP_ERR_FORMAT;
}

static sp_status find_sections(sp_ptau *p, char *err)
{
    static const uint32_t ids[] = {1, 2, 3, 4, 5, 6, 7, 12, 13, 14, 15};
    for (size_t k = 0; k < sizeof ids / sizeof ids[0]; k++) {
        uint32_t id = ids[k];
        sp_status st = sp_binfile_section(&p->sec[id], &p->bf, id, section_name(id), id <= 7, err);
        if (st != SP_OK)
            return st;
    }
    int n_lag = !!p->sec[12] + !!p->sec[13] + !!p->sec[14] + !!p->sec[15];
    if (n_lag != 0 && n_lag != 4) {
        sp_bin_errf(err, "ptau: some of the 4 Lagrange sections (12..15) are missing; a prepared file has all of them");
        return SP_ERR_FORMAT;
    }
    p->prepared = n_lag == 4;
    return SP_OK;
}

static sp_status check_all(sp_ptau *p, char *err)
{
    sp_status st = find_sections(p, err);
    if (st == SP_OK)
        st = read_header(p, err);
    for (uint32_t id = 2; id <= 15 && st == SP_OK; id++)
        if (p->sec[id] && id != SP_PTAU_CONTRIBUTIONS)
            st = check_points_size(p, id, err);
    if (st == SP_OK)
        st = read_contributions(p, err);
    return st;
}

sp_status sp_ptau_parse(sp_ptau *p, const uint8_t *data, size_t len, char err[SP_ERR_LEN])
{
    memset(p, 0, sizeof *p);
    sp_status st = sp_binfile_parse(&p->bf, data, len, "ptau", 1, 1, err);
    if (st == SP_OK && (st = check_all(p, err)) != SP_OK)
        sp_ptau_close(p);
    return st;
}

sp_status sp_ptau_open(sp_ptau *p, const char *path, char err[SP_ERR_LEN])
{
    memset(p, 0, sizeof *p);
    sp_status st = sp_binfile_open(&p->bf, path, "ptau", 1, 1, err);
    if (st == SP_OK && (st = check_all(p, err)) != SP_OK)
        sp_ptau_close(p);
    return st;
}

void sp_ptau_close(sp_ptau *p)
{
    sp_binfile_close(&p->bf);
    memset(p, 0, sizeof *p);
}

uint64_t sp_ptau_point_offset(const sp_ptau *p, uint32_t id, uint64_t index)
{
    return p->sec[id]->offset + index * (sp_ptau_section_is_g2(id) ? G2B : G1B);
}

sp_status sp_ptau_read_points(void *out, const sp_ptau *p, uint32_t id, uint64_t first, uint64_t n,
                              uint64_t stride, int threads, char err[SP_ERR_LEN])
{
    int g2 = sp_ptau_section_is_g2(id);
    size_t psz = g2 ? G2B : G1B;
    uint64_t total = id < 16 && p->sec[id] ? sp_ptau_section_points(p, id) : 0;
    if (stride < 1 || first >= total || n > (total - first + stride - 1) / stride) {
        sp_bin_errf(err, "ptau section %" PRIu32 " (%s): points %" PRIu64 " + %" PRIu64 " x %" PRIu64
                    " outside its %" PRIu64, id, section_name(id), first, n, stride, total);
        return SP_ERR_INVALID_ARG;
    }
    const uint8_t *src = p->bf.data + sp_ptau_point_offset(p, id, first);
    uint8_t *packed = NULL;
    if (stride > 1) { /* gather the points into one run for the decoder */
        if (!(packed = malloc(n ? n * psz : 1))) {
            sp_bin_errf(err, "ptau: out of memory for %" PRIu64 " points", n);
            return SP_ERR_NOMEM;
        }
        for (uint64_t i = 0; i < n; i++)
            memcpy(packed + i * psz, src + i * stride * psz, psz);
        src = packed;
    }
    size_t bad = 0;
    sp_pt_err e = sp_pt_decode_array(out, &bad, src, n, SP_PTF_LEM, g2, 0, 0, threads);
    free(packed);
    if (e != SP_PT_OK) {
        sp_bin_errf(err, "ptau section %" PRIu32 " (%s): point %" PRIu64 ": %s", id, section_name(id),
                    first + bad * stride, sp_pt_err_str(e));
        return sp_pt_err_status(e);
    }
    return SP_OK;
}
