/* libFuzzer target: the snarkjs .ptau reader (sp_ptau_parse) and, on a
 * file it accepts, every point read and the setup of a one-constraint
 * circuit from it (prepared or not). An accepted file must have sections the sizes its power
 * implies; a point read returns points on the curve or a point's status
 * with a message; a setup returns a key whose points are on the curve
 * (refused as too small only below power 2), or a message. */
#include "fuzz.h"
#include "groth16/ptau_setup.h"

/* w3 = w1 * w2, w3 the output, w1 and w2 private: a domain of 4. */
static void tiny_circuit(sp_r1cs *cs, sp_csr m[3], uint64_t rows[3][2], uint32_t cols[3], sp_fr vals[3])
{
    static const uint32_t wire[3] = {2, 3, 1};
    memset(cs, 0, sizeof *cs);
    cs->h = (sp_r1cs_header){.n_wires = 4, .n_outputs = 1, .n_prv_inputs = 2, .n_labels = 4, .n_constraints = 1};
    for (int k = 0; k < 3; k++) {
        rows[k][0] = 0, rows[k][1] = 1;
        cols[k] = wire[k];
        sp_fr_set_one(&vals[k]);
        m[k] = (sp_csr){rows[k], &cols[k], &vals[k], 1, 1};
    }
    cs->a = m[0], cs->b = m[1], cs->c = m[2];
}

static void read_all(const sp_ptau *p, uint32_t id, int threads)
{
    char err[SP_ERR_LEN] = "";
    uint64_t n = sp_ptau_section_points(p, id);
    int g2 = sp_ptau_section_is_g2(id);
    if (!p->sec[id] || n > 4096) /* a few sections of small files: enough for the decoder's paths */
        return;
    void *pts = malloc(n * (g2 ? sizeof(sp_g2_affine) : sizeof(sp_g1_affine)));
    FUZZ_CHECK(pts != NULL);
    sp_status st = sp_ptau_read_points(pts, p, id, 0, n, 1, threads, err);
    if (st != SP_OK) {
        FUZZ_CHECK(memchr(err, 0, sizeof err) && err[0]);
    } else {
        for (uint64_t i = 0; i < n; i++)
            FUZZ_CHECK(g2 ? sp_g2_affine_is_on_curve((sp_g2_affine *)pts + i)
                          : sp_g1_affine_is_on_curve((sp_g1_affine *)pts + i));
    }
    free(pts);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[SP_ERR_LEN] = "";
    int threads = fuzz_hash(data, size) & 1 ? 3 : 1;
    sp_ptau p;
    if (sp_ptau_parse(&p, data, size, err) != SP_OK) {
        FUZZ_CHECK(memchr(err, 0, sizeof err) && err[0]);
        return 0;
    }
    FUZZ_CHECK(p.power >= 1 && p.power <= SP_PTAU_MAX_POWER && p.ceremony_power >= p.power);
    FUZZ_CHECK(p.prepared == (p.sec[12] && p.sec[13] && p.sec[14] && p.sec[15]));
    for (uint32_t id = 2; id < 16; id++)
        if (p.sec[id] && id != SP_PTAU_CONTRIBUTIONS)
            FUZZ_CHECK(p.sec[id]->size ==
                       sp_ptau_section_points(&p, id) * (sp_ptau_section_is_g2(id) ? 4 : 2) * SP_FP_BYTES);
    for (uint32_t id = 2; id < 16; id++)
        read_all(&p, id, threads);

    sp_r1cs cs;
    sp_csr m[3];
    uint64_t rows[3][2];
    uint32_t cols[3];
    sp_fr vals[3];
    tiny_circuit(&cs, m, rows, cols, vals);
    sp_g16_pk pk;
    sp_status st = sp_g16_setup_ptau(&pk, &cs, &p, threads, err);
    if (st == SP_OK) {
        FUZZ_CHECK(p.power >= 2 && pk.domain_size == 4 && pk.mpc_len == 68 && pk.has_qap);
        for (uint32_t i = 0; i < pk.n_vars; i++)
            FUZZ_CHECK(sp_g1_affine_is_on_curve(&pk.a[i]) && sp_g1_affine_is_on_curve(&pk.b1[i]) &&
                       sp_g2_affine_is_on_curve(&pk.b2[i]));
        for (uint32_t j = 0; j < pk.domain_size; j++)
            FUZZ_CHECK(sp_g1_affine_is_on_curve(&pk.h[j]) && !sp_g1_affine_is_inf(&pk.h[j]));
        sp_g16_pk_free(&pk);
    } else {
        FUZZ_CHECK(memchr(err, 0, sizeof err) && err[0]);
        FUZZ_CHECK(st != SP_ERR_UNSUPPORTED || p.power < 2);
    }
    sp_ptau_close(&p);
    return 0;
}
