/* libFuzzer target: the bellperson .params reader (sp_bp_params_parse),
 * once without a density (every wire listed) and once with a density
 * built to fit the counts in the file, so that the sparse a / b vectors
 * are exercised too. A key read either way must write back to exactly the
 * input bytes. */
#include "fuzz.h"
#include "groth16/params.h"

#define G1U 96
#define G2U 192
#define VK_HEAD (3 * G1U + 3 * G2U)

static uint32_t be32_at(const uint8_t *d, size_t len, uint64_t off)
{
    if (off > len || len - off < 4)
        return 0;
    return (uint32_t)d[off] << 24 | (uint32_t)d[off + 1] << 16 | (uint32_t)d[off + 2] << 8 | d[off + 3];
}

/* The six vector counts as the file states them (0 past the end). */
static void file_counts(uint32_t cnt[6], const uint8_t *d, size_t len)
{
    uint64_t pos = VK_HEAD;
    for (int v = 0; v < 6; v++) {
        cnt[v] = be32_at(d, len, pos);
        pos += 4 + (uint64_t)cnt[v] * (v == 5 ? G2U : G1U);
    }
}

/* Sets `want` of the bits [from, n) (all of them if want is larger),
 * spread pseudo-randomly: selection sampling driven by *s. */
static void pick_bits(uint64_t *bits, size_t from, size_t n, size_t want, uint64_t *s)
{
    for (size_t i = from; i < n && want; i++) {
        *s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
        if (*s % (n - i) < want) {
            bits[i / 64] |= 1ULL << (i % 64);
            want--;
        }
    }
}

static void check_written_back(const sp_g16_pk *pk, const uint8_t *data, size_t size)
{
    char err[SP_ERR_LEN];
    const char *tmp = fuzz_tmp_path();
    FUZZ_CHECK(sp_bp_params_write(tmp, pk, err) == SP_OK);
    size_t n;
    uint8_t *back = fuzz_slurp(tmp, &n);
    FUZZ_CHECK(n == size && !memcmp(back, data, size));
    free(back);
}

static void with_density(const uint8_t *data, size_t size, uint64_t hash)
{
    uint32_t cnt[6]; /* ic, h, l, a, b_g1, b_g2 */
    file_counts(cnt, data, size);
    uint64_t n_vars = (uint64_t)cnt[0] + cnt[2];
    if (cnt[0] == 0 || n_vars > size) /* the reader refuses these before looking at d */
        return;
    sp_g16_density d;
    if (sp_g16_density_alloc(&d, (uint32_t)n_vars, cnt[0] - 1) != SP_OK)
        return;
    uint64_t s = hash | 1;
    pick_bits(d.a, cnt[0], n_vars, cnt[3] > cnt[0] ? cnt[3] - cnt[0] : 0, &s);
    pick_bits(d.b, 0, n_vars, cnt[4], &s);
    unsigned flags = hash & 4 ? SP_G16_SKIP_SUBGROUP_CHECK : 0;
    char err[SP_ERR_LEN];
    sp_g16_pk pk;
    if (sp_bp_params_parse(&pk, data, size, &d, flags, hash & 8 ? 2 : 1, err) == SP_OK) {
        for (size_t i = 0; i < n_vars; i++) {
            FUZZ_CHECK(sp_g1_affine_is_inf(&pk.a[i]) == !sp_g16_density_get(d.a, i));
            FUZZ_CHECK(sp_g1_affine_is_inf(&pk.b1[i]) == !sp_g16_density_get(d.b, i));
            FUZZ_CHECK(sp_g2_affine_is_inf(&pk.b2[i]) == !sp_g16_density_get(d.b, i));
            FUZZ_CHECK(sp_g1_affine_is_on_curve(&pk.a[i]) && sp_g1_affine_is_on_curve(&pk.b1[i]) &&
                       sp_g2_affine_is_on_curve(&pk.b2[i]));
        }
        check_written_back(&pk, data, size);
        sp_g16_pk_free(&pk);
    } else {
        FUZZ_CHECK(memchr(err, 0, sizeof err) && err[0]);
    }
    sp_g16_density_free(&d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[SP_ERR_LEN];
    uint64_t hash = fuzz_hash(data, size);
    unsigned flags = hash & 1 ? SP_G16_SKIP_SUBGROUP_CHECK : 0;
    sp_g16_pk pk;
    sp_status st = sp_bp_params_parse(&pk, data, size, NULL, flags, hash & 2 ? 3 : 1, err);
    if (st == SP_OK) {
        FUZZ_CHECK(pk.h_kind == SP_G16_H_BELLPERSON && pk.n_h + 1 == pk.domain_size && !pk.has_qap);
        FUZZ_CHECK(pk.n_vars > pk.vk.n_public && pk.domain_size == 1u << pk.log2_domain);
        for (size_t i = 0; i < pk.n_h; i++)
            FUZZ_CHECK(sp_g1_affine_is_on_curve(&pk.h[i]) && !sp_g1_affine_is_inf(&pk.h[i]));
        check_written_back(&pk, data, size);
        sp_g16_pk_free(&pk);
    } else {
        FUZZ_CHECK(memchr(err, 0, sizeof err) && err[0]);
    }
    with_density(data, size, hash);
    return 0;
}
