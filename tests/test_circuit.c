/* The constraint-system core (circuit/cs.h, circuit/rec.h): the three modes
 * agree, parts joined in parallel equal one sequential run, debug mode
 * names the failing gadget, and the .sprec file round-trips and refuses
 * damage. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "circuit/cs.h"
#include "circuit/rec.h"
#include "groth16/prove.h"
#include "groth16/verify.h"
#include "synth/native_setup.h"
#include "synth/synth.h"
#include "test.h"

/* A small part: from a value x, a chain of k cubes y_{i+1} = y_i^3 + y_i + 5
 * (two multiplications each), with a sum of bits on the side. */
static void part_(sp_cs *cs, const sp_fr *x0, int k, uint64_t bits)
{
    sp_cs_push(cs, "part");
    sp_fr y = *x0, five;
    sp_cs_fr_u64(&five, 5);
    sp_var vy = sp_cs_alloc(cs, &y);
    for (int i = 0; i < k; i++) {
        sp_cs_pushf(cs, "step %d", i);
        sp_fr sq, cube, next;
        sp_fr_sqr(&sq, &y);
        sp_fr_mul(&cube, &sq, &y);
        sp_fr_add(&next, &cube, &y);
        sp_fr_add(&next, &next, &five);
        sp_var vsq = sp_cs_alloc(cs, &sq);
        sp_var vn = sp_cs_alloc(cs, &next);
        sp_lc a, b, c;
        sp_lc_init(&a), sp_lc_init(&b), sp_lc_init(&c);
        sp_lc_add_var(cs, &a, vy, &y);
        sp_lc_add_var(cs, &b, vy, &y);
        sp_lc_add_var(cs, &c, vsq, &sq);
        sp_cs_push(cs, "square");
        sp_cs_enforce(cs, &a, &b, &c); /* y * y = sq */
        sp_cs_pop(cs);
        sp_lc_clear(&a), sp_lc_clear(&b), sp_lc_clear(&c);
        sp_lc_add_var(cs, &a, vsq, &sq);
        sp_lc_add_var(cs, &b, vy, &y);
        /* c = next - y - 5, written with a repeated wire to exercise merging */
        sp_lc_add_var(cs, &c, vn, &next);
        sp_lc_sub_var(cs, &c, vy, &y);
        sp_lc_add(cs, &c, vn, sp_cs_fr_zero(), &next);
        sp_fr m5;
        sp_fr_neg(&m5, &five);
        sp_lc_add_const(cs, &c, &m5);
        sp_cs_push(cs, "cube");
        sp_cs_enforce(cs, &a, &b, &c); /* sq * y = next - y - 5 */
        sp_cs_pop(cs);
        sp_lc_free(&a), sp_lc_free(&b), sp_lc_free(&c);
        y = next, vy = vn;
        sp_cs_pop(cs);
    }
    /* 16 bits, booleanity, and their packed sum as one variable */
    sp_lc sum;
    sp_lc_init(&sum);
    uint64_t total = 0;
    for (int i = 0; i < 16; i++) {
        int bit = (int)(bits >> i & 1);
        sp_var vb = sp_cs_alloc_bit(cs, bit);
        sp_lc a, b;
        sp_lc_init(&a), sp_lc_init(&b);
        sp_lc_add_var(cs, &a, vb, bit ? sp_cs_fr_one() : sp_cs_fr_zero());
        sp_lc_add_const(cs, &b, sp_cs_fr_one());
        sp_lc_sub_var(cs, &b, vb, bit ? sp_cs_fr_one() : sp_cs_fr_zero());
        sp_cs_enforce(cs, &a, &b, NULL);
        sp_lc_free(&a), sp_lc_free(&b);
        sp_lc_add_term(cs, &sum, vb, sp_cs_fr_pow2((unsigned)i));
        total += (uint64_t)bit << i;
    }
    sp_fr tv;
    sp_cs_fr_u64(&tv, total);
    sp_lc_set_value(&sum, &tv);
    sp_var vt = sp_cs_alloc(cs, &tv);
    sp_lc one, c;
    sp_lc_init(&one), sp_lc_init(&c);
    sp_lc_add_const(cs, &one, sp_cs_fr_one());
    sp_lc_add_var(cs, &c, vt, &tv);
    sp_cs_enforce(cs, &sum, &one, &c);
    sp_lc_free(&sum), sp_lc_free(&one), sp_lc_free(&c);
    sp_cs_pop(cs);
}

#define PARTS 5
#define STEPS 7

typedef struct {
    sp_fr pub[2];
    sp_fr x[PARTS];
    uint64_t bits[PARTS];
} inst_;

/* The whole circuit, sequential or with parts opened at their bases. */
static void circuit_(sp_cs *cs, const inst_ *in, int parallel, uint64_t part_vars, uint64_t part_rows)
{
    sp_cs_public(cs, &in->pub[0]);
    sp_cs_public(cs, &in->pub[1]);
    for (int p = 0; p < PARTS; p++) {
        if (!parallel) {
            part_(cs, &in->x[p], STEPS, in->bits[p]);
            continue;
        }
        sp_cs sub;
        uint64_t vb = 3 + (uint64_t)p * part_vars, rb = (uint64_t)p * part_rows;
        if (sp_cs_sub_open(&sub, cs, vb, rb) != SP_OK)
            sp_cs_fail(cs, SP_ERR_NOMEM, "sub");
        part_(&sub, &in->x[p], STEPS, in->bits[p]);
        sp_cs_sub_join(cs, &sub);
    }
}

static void random_inst(inst_ *in, sp_rng *rng)
{
    for (int i = 0; i < 2; i++)
        sp_fr_random(&in->pub[i], rng);
    for (int p = 0; p < PARTS; p++) {
        sp_fr_random(&in->x[p], rng);
        in->bits[p] = sp_rng_u64(rng);
    }
}

static void test_modes(sp_rng *rng)
{
    inst_ in;
    random_inst(&in, rng);
    /* COUNT of one part sizes the parts */
    sp_cs cnt;
    CHECK(sp_cs_open(&cnt, SP_CS_COUNT, 0) == SP_OK);
    part_(&cnt, &in.x[0], STEPS, 0);
    uint64_t pv = sp_cs_n_vars(&cnt) - 1, pr = sp_cs_n_rows(&cnt);
    sp_cs_close(&cnt);
    CHECK(pv == 1 + 2 * STEPS + 16 + 1 && pr == 2 * STEPS + 17);

    sp_cs rec;
    CHECK(sp_cs_open(&rec, SP_CS_RECORD, 1) == SP_OK);
    circuit_(&rec, &in, 0, pv, pr);
    CHECK(sp_cs_status(&rec) == SP_OK);
    uint64_t nv = sp_cs_n_vars(&rec), nr = sp_cs_n_rows(&rec);
    CHECK(nv == 3 + PARTS * pv && nr == PARTS * pr);
    sp_cs_rec *r = sp_cs_take_rec(&rec);
    sp_cs_close(&rec);
    CHECK(r && r->n_vars == nv && r->n_public == 2 && r->n_rows == nr);
    /* the repeated wire of the "cube" row was merged: c has 3 terms */
    CHECK(r->m[2].row[2] - r->m[2].row[1] == 3);

    /* RECORD in parts (parallel layout) gives the same matrices */
    sp_cs rp;
    CHECK(sp_cs_open(&rp, SP_CS_RECORD, 0) == SP_OK);
    circuit_(&rp, &in, 1, pv, pr);
    CHECK(sp_cs_status(&rp) == SP_OK);
    sp_cs_rec *r2 = sp_cs_take_rec(&rp);
    sp_cs_close(&rp);
    int same = r2 && r2->n_rows == r->n_rows && r2->n_vars == r->n_vars;
    for (int m = 0; same && m < 3; m++) {
        same = r2->m[m].nnz == r->m[m].nnz &&
               !memcmp(r2->m[m].row, r->m[m].row, (r->n_rows + 1) * 8) &&
               !memcmp(r2->m[m].var, r->m[m].var, r->m[m].nnz * 4);
        for (uint64_t i = 0; same && i < r->m[m].nnz; i++)
            same = sp_fr_eq(&r2->coef[r2->m[m].kid[i]], &r->coef[r->m[m].kid[i]]);
    }
    CHECK(same);
    sp_cs_rec_free(r2);

    /* WITNESS in parts = the recorded matrices times w, row by row */
    size_t n = 256;
    sp_fr *w = calloc(nv, sizeof *w), *abc = calloc(6 * n, sizeof *abc);
    sp_cs wit;
    CHECK(sp_cs_open(&wit, SP_CS_WITNESS, 0) == SP_OK);
    sp_cs_set_outputs(&wit, w, nv, abc, abc + n, abc + 2 * n, n);
    circuit_(&wit, &in, 1, pv, pr);
    CHECK(sp_cs_status(&wit) == SP_OK && sp_cs_n_rows(&wit) == nr);
    CHECK(sp_cs_abc_tail(abc, abc + n, abc + 2 * n, n, nr, w, 2) == SP_OK);
    char err[SP_ERR_LEN];
    uint64_t bad = 0;
    CHECK(sp_cs_rec_abc(abc + 3 * n, abc + 4 * n, abc + 5 * n, n, r, w, 1, 2, &bad, err) == SP_OK);
    CHECK(memcmp(abc, abc + 3 * n, 3 * n * sizeof *abc) == 0);
    CHECK(sp_fr_eq(&w[1], &in.pub[0]) && sp_fr_is_one(&w[0]));

    /* the same through the r1cs conversion and the existing synthesis */
    sp_r1cs cs1;
    CHECK(sp_cs_rec_to_r1cs(&cs1, r, err) == SP_OK);
    CHECK(sp_synth_abc(abc + 3 * n, abc + 4 * n, abc + 5 * n, n, &cs1, w, nv, 1, 2, NULL, NULL, err) ==
          SP_OK);
    CHECK(memcmp(abc, abc + 3 * n, 3 * n * sizeof *abc) == 0);
    sp_r1cs_free(&cs1);

    /* a wrong witness value: the reference names the row, debug mode the path */
    sp_fr one;
    sp_fr_set_one(&one);
    sp_fr_add(&w[3 + 2 * pv + 5], &w[3 + 2 * pv + 5], &one); /* part 2, step 2's square */
    CHECK(sp_cs_rec_abc(abc + 3 * n, abc + 4 * n, abc + 5 * n, n, r, w, 1, 2, &bad, err) == SP_ERR_UNSATISFIED);
    CHECK(bad == 2 * pr + 4); /* step 2 of part 2: rows 4 (square) and 5 */
    inst_ bad_in = in;
    sp_fr_add(&bad_in.x[3], &bad_in.x[3], &one);
    sp_cs dbg;
    CHECK(sp_cs_open(&dbg, SP_CS_WITNESS, 1) == SP_OK);
    circuit_(&dbg, &bad_in, 1, pv, pr);
    CHECK(sp_cs_status(&dbg) == SP_OK); /* still a consistent witness */
    sp_cs_close(&dbg);
    free(w), free(abc);
    sp_cs_rec_free(r);
}

/* Debug mode names the first failing constraint with its gadget path. */
/* sp_cs_row_holds_var (no product when a or b is 0 or 1) against a * b = c
 * by a product, on values drawn from 0, 1, -1 and random ones, c the
 * product or a value off it by one. */
static void test_row_holds(sp_rng *rng)
{
    int agree = 1, held = 0, failed = 0;
    for (int i = 0; i < 4000; i++) {
        sp_fr v[2], c, ab, one;
        sp_fr_set_one(&one);
        for (int k = 0; k < 2; k++) {
            switch (sp_rng_u64(rng) % 4) {
            case 0: sp_fr_set_zero(&v[k]); break;
            case 1: sp_fr_set_one(&v[k]); break;
            case 2: sp_fr_set_zero(&v[k]), sp_fr_sub(&v[k], &v[k], &one); break;
            default: sp_fr_random(&v[k], rng);
            }
        }
        sp_fr_mul(&ab, &v[0], &v[1]);
        c = ab;
        if (sp_rng_u64(rng) & 1)
            sp_fr_add(&c, &c, &one);
        int want = sp_fr_eq(&ab, &c), got = sp_cs_row_holds_var(&v[0], &v[1], &c, &one);
        agree &= want == got;
        held += got, failed += !got;
    }
    CHECK(agree);
    CHECK(held > 1000 && failed > 1000); /* both answers were exercised */
}

static void test_debug_path(void)
{
    sp_cs cs;
    CHECK(sp_cs_open(&cs, SP_CS_WITNESS, 1) == SP_OK);
    sp_fr two;
    sp_cs_fr_u64(&two, 2);
    sp_var x = sp_cs_alloc(&cs, &two);
    sp_cs_push(&cs, "outer");
    sp_cs_pushf(&cs, "inner %d", 7);
    sp_lc a, c;
    sp_lc_init(&a), sp_lc_init(&c);
    sp_lc_add_var(&cs, &a, x, &two);
    sp_lc_add_const(&cs, &c, sp_cs_fr_one()); /* 2 * 2 = 1: false */
    sp_cs_enforce(&cs, &a, &a, &c);
    sp_cs_pop(&cs);
    sp_cs_pop(&cs);
    sp_cs_enforce(&cs, &a, &a, &c); /* second failure: not reported */
    CHECK(sp_cs_status(&cs) == SP_ERR_UNSATISFIED);
    CHECK(cs.bad_row == 0 && strcmp(cs.bad_path, "outer/inner 7") == 0);
    CHECKF(strstr(cs.err, "constraint 0 (outer/inner 7)") != NULL, "%s", cs.err);
    /* a public input after a private variable is refused */
    sp_cs_public(&cs, &two);
    CHECK(sp_cs_status(&cs) == SP_ERR_UNSATISFIED); /* first error kept */
    sp_lc_free(&a), sp_lc_free(&c);
    sp_cs_close(&cs);
    sp_cs c2;
    CHECK(sp_cs_open(&c2, SP_CS_COUNT, 0) == SP_OK);
    sp_cs_alloc(&c2, &two);
    sp_cs_public(&c2, &two);
    CHECK(sp_cs_status(&c2) == SP_ERR_INVALID_ARG);
    sp_cs_close(&c2);
}

static void test_file(sp_rng *rng)
{
    inst_ in;
    memset(&in, 0, sizeof in);
    for (int p = 0; p < PARTS; p++)
        sp_fr_random(&in.x[p], rng);
    sp_cs rec;
    CHECK(sp_cs_open(&rec, SP_CS_RECORD, 0) == SP_OK);
    circuit_(&rec, &in, 0, 0, 0);
    sp_cs_rec *r = sp_cs_take_rec(&rec);
    sp_cs_close(&rec);
    char path[] = "/tmp/sp_test_circuit_XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    close(fd);
    char err[SP_ERR_LEN];
    CHECK(sp_cs_rec_save(r, path, err) == SP_OK);
    sp_cs_rec *back = NULL;
    CHECK(sp_cs_rec_load(&back, path, err) == SP_OK);
    int same = back && back->n_rows == r->n_rows && back->n_vars == r->n_vars && back->n_public == r->n_public &&
               back->n_coef == r->n_coef && !memcmp(back->coef, r->coef, r->n_coef * sizeof *r->coef);
    for (int m = 0; same && m < 3; m++)
        same = back->m[m].nnz == r->m[m].nnz && !memcmp(back->m[m].row, r->m[m].row, (r->n_rows + 1) * 8) &&
               !memcmp(back->m[m].var, r->m[m].var, r->m[m].nnz * 4) &&
               !memcmp(back->m[m].kid, r->m[m].kid, r->m[m].nnz * 4);
    CHECK(same);
    CHECK(sp_cs_rec_bytes(r) == 96 + 32 * (uint64_t)r->n_coef + 3 * (r->n_rows + 1) * 8 +
                                    8 * (r->m[0].nnz + r->m[1].nnz + r->m[2].nnz));
    sp_cs_rec_free(back);
    /* every single-byte flip and every truncation is refused */
    FILE *f = fopen(path, "rb");
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    rewind(f);
    uint8_t *buf = malloc((size_t)len);
    CHECK(fread(buf, 1, (size_t)len, f) == (size_t)len);
    fclose(f);
    int refused = 0, tries = 0;
    for (int k = 0; k < 60; k++) {
        long at = (long)(sp_rng_u64(rng) % (uint64_t)len);
        int trunc = k % 3 == 0;
        buf[at] ^= (uint8_t)(1 + sp_rng_u64(rng) % 255);
        f = fopen(path, "wb");
        fwrite(buf, 1, trunc ? (size_t)at : (size_t)len, f);
        fclose(f);
        tries++;
        if (sp_cs_rec_load(&back, path, err) != SP_OK && back == NULL && err[0])
            refused++;
        else
            sp_cs_rec_free(back);
        CHECK(sp_cs_rec_save(r, path, err) == SP_OK); /* a clean copy for the next try */
        f = fopen(path, "rb");
        CHECK(fread(buf, 1, (size_t)len, f) == (size_t)len);
        fclose(f);
    }
    CHECK(refused == tries);
    CHECK(sp_cs_rec_load(&back, "/nonexistent/x.sprec", err) == SP_ERR_IO && back == NULL);
    CHECK(sp_cs_rec_load(&back, "/dev/null", err) == SP_ERR_IO); /* not a regular file */
    free(buf);
    unlink(path);
    sp_cs_rec_free(r);
}

/* The setup of a recorded circuit (no r1cs copy, no QAP in the key) and a
 * proof whose a, b, c come straight from witness mode: the proof verifies
 * with the witness's public inputs and fails with others. */
static void test_native_setup(sp_rng *rng)
{
    inst_ in;
    random_inst(&in, rng);
    sp_cs rec;
    CHECK(sp_cs_open(&rec, SP_CS_RECORD, 0) == SP_OK);
    circuit_(&rec, &in, 0, 0, 0);
    sp_cs_rec *r = sp_cs_take_rec(&rec);
    sp_cs_close(&rec);
    uint64_t nv = r->n_vars, nr = r->n_rows;
    char err[SP_ERR_LEN] = "";
    sp_g16_pk pk;
    CHECKF(sp_native_setup(&pk, &r, SP_G16_H_SNARKJS, NULL, 2, err) == SP_OK, "%s", err);
    CHECK(r == NULL && !pk.has_qap && pk.n_vars == nv && pk.vk.n_public == 2);
    size_t n = pk.domain_size;
    sp_fr *w = calloc(nv, sizeof *w), *abc = calloc(3 * n, sizeof *abc);
    sp_cs wit;
    CHECK(sp_cs_open(&wit, SP_CS_WITNESS, 1) == SP_OK);
    sp_cs_set_outputs(&wit, w, nv, abc, abc + n, abc + 2 * n, n);
    circuit_(&wit, &in, 0, 0, 0);
    CHECK(sp_cs_status(&wit) == SP_OK);
    CHECK(sp_cs_abc_tail(abc, abc + n, abc + 2 * n, n, nr, w, 2) == SP_OK);
    sp_ntt_domain *d = NULL;
    sp_g16_proof proof;
    sp_g16_pvk pvk;
    sp_g16_prove_opts o = sp_g16_prove_opts_default();
    o.threads = 2;
    int valid = 0;
    CHECK(sp_ntt_domain_create(&d, pk.log2_domain, sp_g16_roots_for(&pk), 2) == SP_OK);
    CHECKF(sp_g16_prove(&proof, &pk, w, nv, abc, abc + n, abc + 2 * n, d, &o, err) == SP_OK, "%s", err);
    CHECK(sp_g16_pvk_init(&pvk, &pk.vk, err) == SP_OK);
    CHECK(sp_g16_verify(&valid, &pvk, &proof, w + 1, 2, err) == SP_OK && valid);
    sp_fr bad[2] = {w[1], w[2]};
    sp_fr_add(&bad[1], &bad[1], sp_cs_fr_one());
    CHECK(sp_g16_verify(&valid, &pvk, &proof, bad, 2, err) == SP_OK && !valid);
    sp_g16_pvk_free(&pvk);
    sp_ntt_domain_free(d);
    sp_cs_close(&wit);
    sp_g16_pk_free(&pk);
    free(w), free(abc);
}

int main(void)
{
    sp_rng rng;
    sp_test_begin("test_circuit", &rng);
    for (int i = 0; i < sp_test_iters(3); i++)
        test_modes(&rng);
    test_row_holds(&rng);
    test_debug_path();
    test_file(&rng);
    test_native_setup(&rng);
    return sp_test_done();
}
