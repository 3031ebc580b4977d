#include "groth16/keys.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "util/hugemem.h"

sp_status sp_g16_vk_alloc(sp_g16_vk *vk, uint32_t n_public)
{
    memset(vk, 0, sizeof *vk);
    if (n_public == UINT32_MAX)
        return SP_ERR_NOMEM;
    vk->ic = calloc((size_t)n_public + 1, sizeof *vk->ic);
    if (!vk->ic)
        return SP_ERR_NOMEM;
    vk->n_public = n_public;
    return SP_OK;
}

void sp_g16_vk_free(sp_g16_vk *vk)
{
    free(vk->ic);
    memset(vk, 0, sizeof *vk);
}

sp_status sp_g16_vk_copy(sp_g16_vk *dst, const sp_g16_vk *src)
{
    sp_g16_vk t = *src;
    t.ic = malloc(((size_t)src->n_public + 1) * sizeof *t.ic);
    if (!t.ic) {
        memset(dst, 0, sizeof *dst);
        return SP_ERR_NOMEM;
    }
    memcpy(t.ic, src->ic, ((size_t)src->n_public + 1) * sizeof *t.ic);
    *dst = t;
    return SP_OK;
}

int sp_g16_domain_log2(unsigned *log2, uint64_t n)
{
    if (n < 2 || n > ((uint64_t)1 << 31) || (n & (n - 1)))
        return 0;
    unsigned k = 0;
    while (((uint64_t)1 << k) < n)
        k++;
    *log2 = k;
    return 1;
}

sp_status sp_g16_pk_alloc(sp_g16_pk *pk, uint32_t n_vars, uint32_t n_public, uint32_t domain_size,
                          sp_g16_h_kind h_kind)
{
    memset(pk, 0, sizeof *pk);
    unsigned log2;
    if (n_vars == 0 || n_public > n_vars - 1 || !sp_g16_domain_log2(&log2, domain_size) ||
        (h_kind != SP_G16_H_SNARKJS && h_kind != SP_G16_H_BELLPERSON))
        return SP_ERR_INVALID_ARG;
    sp_status st = sp_g16_vk_alloc(&pk->vk, n_public);
    if (st != SP_OK)
        return st;
    size_t nv = n_vars, nc = (size_t)n_vars - n_public - 1;
    pk->n_vars = n_vars;
    pk->domain_size = domain_size;
    pk->log2_domain = log2;
    pk->h_kind = h_kind;
    pk->n_h = h_kind == SP_G16_H_SNARKJS ? domain_size : (size_t)domain_size - 1;
    /* One zeroed buffer (zero bytes are (0, 0), the point at infinity) on
     * huge pages: the arrays are filled in one pass, then read by the MSMs. */
    const size_t g1 = sizeof(sp_g1_affine), g2 = sizeof(sp_g2_affine);
    size_t len[5] = {nv * g1, nv * g1, nv * g2, (nc ? nc : 1) * g1, pk->n_h * g1}, at[5], total = 0;
    for (int i = 0; i < 5; i++) {
        at[i] = total;
        total += (len[i] + 63) / 64 * 64;
    }
    uint8_t *buf = sp_huge_alloc(total);
    if (!buf) {
        sp_g16_pk_free(pk);
        return SP_ERR_NOMEM;
    }
    pk->points = buf;
    pk->a = (sp_g1_affine *)(buf + at[0]);
    pk->b1 = (sp_g1_affine *)(buf + at[1]);
    pk->b2 = (sp_g2_affine *)(buf + at[2]);
    pk->c = (sp_g1_affine *)(buf + at[3]);
    pk->h = (sp_g1_affine *)(buf + at[4]);
    return SP_OK;
}

static void csr_free(sp_csr *m)
{
    sp_huge_free(m->row);
    sp_huge_free(m->col);
    sp_huge_free(m->val);
    memset(m, 0, sizeof *m);
}

static sp_status csr_alloc(sp_csr *m, size_t n_rows, uint64_t nnz)
{
    memset(m, 0, sizeof *m);
    if (nnz > SIZE_MAX / sizeof(sp_fr))
        return SP_ERR_NOMEM;
    m->row = sp_huge_alloc((n_rows + 1) * sizeof *m->row); /* zeroed */
    m->col = sp_huge_alloc(nnz * sizeof *m->col);
    m->val = sp_huge_alloc(nnz * sizeof *m->val);
    if (!m->row || !m->col || !m->val) {
        csr_free(m);
        return SP_ERR_NOMEM;
    }
    m->n_rows = n_rows;
    m->nnz = nnz;
    return SP_OK;
}

sp_status sp_g16_pk_alloc_qap(sp_g16_pk *pk, uint64_t nnz_a, uint64_t nnz_b)
{
    if (csr_alloc(&pk->qap_a, pk->domain_size, nnz_a) != SP_OK)
        return SP_ERR_NOMEM;
    if (csr_alloc(&pk->qap_b, pk->domain_size, nnz_b) != SP_OK) {
        csr_free(&pk->qap_a);
        return SP_ERR_NOMEM;
    }
    pk->has_qap = 1;
    return SP_OK;
}

void sp_g16_pk_arrays(const sp_g16_pk *pk, sp_g16_pk_array out[SP_G16_PK_ARRAYS])
{
    size_t nv = pk->n_vars, nc = nv - pk->vk.n_public - 1;
    out[0] = (sp_g16_pk_array){"h", pk->h, pk->n_h * sizeof *pk->h};
    out[1] = (sp_g16_pk_array){"a", pk->a, nv * sizeof *pk->a};
    out[2] = (sp_g16_pk_array){"b1", pk->b1, nv * sizeof *pk->b1};
    out[3] = (sp_g16_pk_array){"c", pk->c, nc * sizeof *pk->c};
    out[4] = (sp_g16_pk_array){"b2", pk->b2, nv * sizeof *pk->b2};
}

void sp_g16_pk_free(sp_g16_pk *pk)
{
    sp_g16_vk_free(&pk->vk);
    sp_huge_free(pk->points);
    csr_free(&pk->qap_a);
    csr_free(&pk->qap_b);
    free(pk->mpc);
    memset(pk, 0, sizeof *pk);
}
