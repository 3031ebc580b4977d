/* libFuzzer target: the snarkjs .zkey readers (sp_zkey_parse and, through
 * a scratch file, sp_zkey_read_vk). An accepted key must be internally
 * consistent, agree with the verifier-only reader, and survive a write /
 * read round trip unchanged. */
#include "fuzz.h"
#include "groth16/zkey.h"

static int csr_equal(const sp_csr *x, const sp_csr *y)
{
    return x->n_rows == y->n_rows && x->nnz == y->nnz &&
           !memcmp(x->row, y->row, (x->n_rows + 1) * sizeof *x->row) &&
           !memcmp(x->col, y->col, x->nnz * sizeof *x->col) && !memcmp(x->val, y->val, x->nnz * sizeof *x->val);
}

static int vk_equal(const sp_g16_vk *x, const sp_g16_vk *y)
{
    return !memcmp(&x->alpha1, &y->alpha1, sizeof x->alpha1) && !memcmp(&x->beta1, &y->beta1, sizeof x->beta1) &&
           !memcmp(&x->delta1, &y->delta1, sizeof x->delta1) && !memcmp(&x->beta2, &y->beta2, sizeof x->beta2) &&
           !memcmp(&x->gamma2, &y->gamma2, sizeof x->gamma2) && !memcmp(&x->delta2, &y->delta2, sizeof x->delta2) &&
           x->n_public == y->n_public && !memcmp(x->ic, y->ic, ((size_t)x->n_public + 1) * sizeof *x->ic);
}

static int pk_equal(const sp_g16_pk *x, const sp_g16_pk *y)
{
    size_t nv = x->n_vars, nc = (size_t)x->n_vars - x->vk.n_public - 1;
    return vk_equal(&x->vk, &y->vk) && x->n_vars == y->n_vars && x->domain_size == y->domain_size &&
           x->log2_domain == y->log2_domain && x->h_kind == y->h_kind && x->n_h == y->n_h &&
           !memcmp(x->a, y->a, nv * sizeof *x->a) && !memcmp(x->b1, y->b1, nv * sizeof *x->b1) &&
           !memcmp(x->b2, y->b2, nv * sizeof *x->b2) && !memcmp(x->c, y->c, nc * sizeof *x->c) &&
           !memcmp(x->h, y->h, x->n_h * sizeof *x->h) && x->has_qap == y->has_qap && csr_equal(&x->qap_a, &y->qap_a) &&
           csr_equal(&x->qap_b, &y->qap_b);
}

/* back was written from pk and read again: the writer puts pk's section 10
 * back, or an empty one (zero csHash, no contributions) when it had none. */
static int mpc_equal(const sp_g16_pk *pk, const sp_g16_pk *back)
{
    static const uint8_t empty[64 + 4];
    if (!pk->mpc)
        return back->mpc_len == sizeof empty && !memcmp(back->mpc, empty, sizeof empty);
    return back->mpc_len == pk->mpc_len && !memcmp(back->mpc, pk->mpc, pk->mpc_len);
}

static void check_qap(const sp_csr *m, const sp_g16_pk *pk)
{
    FUZZ_CHECK(m->n_rows == pk->domain_size && m->row[0] == 0 && m->row[m->n_rows] == m->nnz);
    for (size_t i = 0; i < m->n_rows; i++)
        FUZZ_CHECK(m->row[i] <= m->row[i + 1]);
    for (uint64_t k = 0; k < m->nnz; k++)
        FUZZ_CHECK(m->col[k] < pk->n_vars && fuzz_limbs_lt(m->val[k].l, SP_FR_MODULUS, SP_FR_LIMBS));
}

static void check_key(const sp_g16_pk *pk, const sp_zkey_info *info)
{
    FUZZ_CHECK(pk->n_vars > pk->vk.n_public && pk->domain_size >= 2);
    FUZZ_CHECK(pk->log2_domain < 32 && pk->domain_size == 1u << pk->log2_domain);
    FUZZ_CHECK(pk->h_kind == SP_G16_H_SNARKJS && pk->n_h == pk->domain_size && pk->has_qap);
    FUZZ_CHECK(info->n_vars == pk->n_vars && info->n_public == pk->vk.n_public);
    FUZZ_CHECK(info->domain_size == pk->domain_size);
    FUZZ_CHECK(info->n_coefs == pk->qap_a.nnz + pk->qap_b.nnz && info->n_coefs_b == pk->qap_b.nnz);
    FUZZ_CHECK(info->has_mpc == (pk->mpc != NULL));
    check_qap(&pk->qap_a, pk);
    check_qap(&pk->qap_b, pk);
    for (size_t i = 0; i <= pk->vk.n_public; i++)
        FUZZ_CHECK(sp_g1_affine_is_on_curve(&pk->vk.ic[i]) && !sp_g1_affine_is_inf(&pk->vk.ic[i]));
    for (size_t i = 0; i < pk->n_vars; i++)
        FUZZ_CHECK(sp_g1_affine_is_on_curve(&pk->a[i]) && sp_g1_affine_is_on_curve(&pk->b1[i]) &&
                   sp_g2_affine_is_on_curve(&pk->b2[i]));
    for (size_t i = 0; i < pk->n_h; i++)
        FUZZ_CHECK(sp_g1_affine_is_on_curve(&pk->h[i]) && !sp_g1_affine_is_inf(&pk->h[i]));
}

static void write_file(const char *path, const uint8_t *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    FUZZ_CHECK(f != NULL);
    FUZZ_CHECK(fwrite(data, 1, size, f) == size);
    FUZZ_CHECK(fclose(f) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[SP_ERR_LEN];
    uint64_t hash = fuzz_hash(data, size);
    unsigned flags = hash & 1 ? SP_G16_SKIP_SUBGROUP_CHECK : 0;
    int threads = hash & 2 ? 3 : 1;
    const char *tmp = fuzz_tmp_path();

    sp_g16_pk pk;
    sp_zkey_info info;
    sp_status st = sp_zkey_parse(&pk, &info, data, size, flags, threads, err);

    /* The verifier-only reader reads a subset; it must accept what the
     * full reader accepts, and return the same verifying key. */
    sp_g16_vk vk;
    sp_zkey_info vinfo;
    write_file(tmp, data, size);
    sp_status vst = sp_zkey_read_vk(&vk, &vinfo, tmp, flags, err);
    if (st != SP_OK) {
        FUZZ_CHECK(memchr(err, 0, sizeof err) && err[0]);
        if (vst == SP_OK)
            sp_g16_vk_free(&vk);
        sp_g16_pk_free(&pk);
        return 0;
    }
    FUZZ_CHECK(vst == SP_OK);
    FUZZ_CHECK(vk_equal(&vk, &pk.vk));
    FUZZ_CHECK(vinfo.n_vars == info.n_vars && vinfo.domain_size == info.domain_size &&
               vinfo.n_coefs == info.n_coefs && vinfo.n_contributions == info.n_contributions);
    sp_g16_vk_free(&vk);
    check_key(&pk, &info);

    FUZZ_CHECK(sp_zkey_write(tmp, &pk, err) == SP_OK);
    sp_g16_pk back;
    FUZZ_CHECK(sp_zkey_read(&back, NULL, tmp, flags, 1, err) == SP_OK);
    FUZZ_CHECK(pk_equal(&back, &pk) && mpc_equal(&pk, &back));
    sp_g16_pk_free(&back);
    sp_g16_pk_free(&pk);
    return 0;
}
