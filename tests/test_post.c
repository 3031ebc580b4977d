/* The window-post-like circuit (circuit/post.h): preset sizes against
 * Filecoin's, and on random small shapes (both S-box forms): the fast
 * count equals the recording, the parallel witness equals the recorded
 * matrices times w row by row, every constraint holds, comm_r is the
 * native Poseidon of the sector's wires, the public inputs move with the
 * partition, a wrong value is caught and named, and the recording does not
 * depend on the instance. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "circuit/poseidon.h"
#include "circuit/post.h"
#include "test_native.h"

static void test_presets(void)
{
    const char *names[] = {"2KiB", "8MiB", "512MiB", "32GiB", "64GiB"};
    char err[SP_ERR_LEN];
    for (size_t i = 0; i < 5; i++) {
        sp_post_params p;
        CHECK(sp_post_preset(&p, names[i]) == SP_OK);
        sp_post *c = NULL;
        CHECKF(sp_post_open(&c, &p, err) == SP_OK, "%s: %s", names[i], err);
        if (!c)
            continue;
        const sp_post_shape *s = sp_post_shape_of(c);
        CHECK(s->n_public == (uint64_t)p.sectors * 11);
        if (!strcmp(names[i], "32GiB")) {
            /* Filecoin's 32 GiB WindowPoSt partition (rust-fil-proofs circuitinfo, v28
             * parameters): 125,279,217 constraints, 25,840 inputs with ONE */
            double rel = (double)s->n_rows / 125279217.0;
            printf("test_post: 32GiB preset %llu constraints (%.2f%% of Filecoin's), %llu public\n",
                   (unsigned long long)s->n_rows, 100.0 * rel, (unsigned long long)s->n_public);
            CHECK(rel > 0.95 && rel < 1.05);
            CHECK(s->n_public + 1 == 25840);
            sp_post *c3 = NULL;
            p.sbox_wire = 0; /* 3 constraints per S-box: a quarter fewer Poseidon rows */
            CHECK(sp_post_open(&c3, &p, err) == SP_OK);
            if (c3)
                CHECK(sp_post_shape_of(c3)->n_rows < s->n_rows * 8 / 10);
            sp_post_close(c3);
        }
        sp_post_close(c);
    }
    sp_post_params p;
    CHECK(sp_post_preset(&p, "1TiB") == SP_ERR_INVALID_ARG);
    CHECK(sp_post_preset(&p, "2KiB") == SP_OK);
    p.nodes = 48;
    CHECK(sp_post_check(&p, err) == SP_ERR_INVALID_ARG && strstr(err, "power of two"));
    CHECK(sp_post_preset(&p, "2KiB") == SP_OK);
    p.arity[0] = 4;
    CHECK(sp_post_check(&p, err) == SP_ERR_INVALID_ARG && strstr(err, "cover"));
    CHECK(sp_post_preset(&p, "2KiB") == SP_OK);
    p.sectors = 0;
    CHECK(sp_post_check(&p, err) == SP_ERR_INVALID_ARG && strstr(err, "sectors"));
}

/* The wired S-boxes: 4 rows each (sp_poseidon_gadget_rows_wired), every
 * constraint satisfied, the digest the native hash's, on random inputs. */
static void test_wired_poseidon(sp_rng *rng)
{
    const unsigned ar[] = {2, 4, 8, 11};
    for (size_t i = 0; i < 4; i++) {
        sp_fr in[11], want, got;
        sp_var v[11];
        for (unsigned k = 0; k < ar[i]; k++)
            sp_fr_random(&in[k], rng);
        sp_poseidon_hash(&want, sp_poseidon_params(ar[i]), in);
        sp_cs cs;
        CHECK(sp_cs_open(&cs, SP_CS_WITNESS, 1) == SP_OK);
        cs.sbox_wire = 1;
        for (unsigned k = 0; k < ar[i]; k++)
            v[k] = sp_cs_alloc(&cs, &in[k]);
        uint64_t r0 = cs.next_row;
        sp_poseidon_gadget_var(&cs, &got, v, in, ar[i]);
        CHECKF(sp_cs_status(&cs) == SP_OK, "arity %u: %s", ar[i], cs.err);
        CHECK(sp_fr_eq(&got, &want));
        CHECK(cs.next_row - r0 == sp_poseidon_gadget_rows_wired(ar[i]) + 1); /* + the digest's row */
        CHECK(sp_poseidon_gadget_rows_wired(ar[i]) * 3 == sp_poseidon_gadget_rows(ar[i]) * 4);
        sp_cs_close(&cs);
    }
}

static void test_params_from(void)
{
    char err[SP_ERR_LEN];
    sp_post_params p, q;
    uint64_t U = SP_POREP_UNSET;
    CHECK(sp_post_params_from(&p, NULL, U, U, U, err) == SP_OK && !strcmp(p.preset, "2KiB"));
    CHECK(sp_post_preset(&q, "2KiB") == SP_OK && !memcmp(&p, &q, sizeof p));
    CHECK(sp_post_params_from(&p, "3KiB", U, U, U, err) == SP_ERR_INVALID_ARG && strstr(err, "unknown preset"));
    CHECK(sp_post_params_from(&p, "32GiB", 3, 2, 16, err) == SP_OK);
    CHECK(!strcmp(p.preset, "32GiB*") && p.sectors == 3 && p.challenges == 2 && p.nodes == 16 && p.levels == 2 &&
          p.arity[0] == 8 && p.arity[1] == 2 && p.sbox_wire == 1);
    CHECK(sp_post_params_from(&p, NULL, (uint64_t)UINT32_MAX + 2, U, U, err) == SP_ERR_INVALID_ARG);
    CHECK(sp_post_params_from(&p, NULL, U, 0, U, err) == SP_ERR_INVALID_ARG && strstr(err, "challenges"));
    CHECK(sp_post_params_from(&p, NULL, U, U, 12, err) == SP_ERR_INVALID_ARG && strstr(err, "power of two"));
}

/* Sector s's comm_r input is Poseidon2 of its first two private wires. */
static int comm_r_ok(const sp_post *c, const sp_fr *w, uint32_t s)
{
    const sp_post_shape *sh = sp_post_shape_of(c);
    uint64_t top = 1 + sh->n_public, base = top + (uint64_t)s * sh->sector_vars;
    sp_fr pair[2] = {w[base], w[base + 1]}, h;
    sp_poseidon_hash(&h, sp_poseidon_params(2), pair);
    return sp_fr_eq(&h, &w[1 + (uint64_t)s * (1 + sp_post_params_of(c)->challenges)]);
}

static void test_small(sp_rng *rng, int sbox_wire)
{
    char err[SP_ERR_LEN] = "";
    sp_post_params p;
    unsigned k = 1 + (unsigned)(sp_rng_u64(rng) % 4);
    CHECK(sp_post_params_from(&p, NULL, 1 + sp_rng_u64(rng) % 3, 1 + sp_rng_u64(rng) % 3, (uint64_t)1 << k, err) ==
          SP_OK);
    p.sbox_wire = sbox_wire;
    sp_post *c = NULL;
    CHECKF(sp_post_open(&c, &p, err) == SP_OK, "%s", err);
    if (!c)
        return;
    const sp_post_shape *s = sp_post_shape_of(c);
    const sp_native_circuit *nc = sp_post_native(c);
    sp_post_input in = {sp_rng_u64(rng), (uint32_t)(sp_rng_u64(rng) % 10)};
    sp_post_input other = {in.seed, in.partition + 1};
    printf("test_post: %u sectors of %u challenges, 2^%u nodes, sbox_wire %d: %llu constraints\n", p.sectors,
           p.challenges, k, sbox_wire, (unsigned long long)s->n_rows);

    sp_cs_rec *r = NULL, *r2 = NULL;
    CHECKF(sp_post_record(&r, c, &in, 2, err) == SP_OK, "%s", err);
    CHECKF(sp_post_record(&r2, c, &other, 1, err) == SP_OK, "%s", err);
    sp_fr *w = r && r2 ? sp_test_native_witness(nc, r, r2, &in, &other, "sector 0/challenge 0", rng) : NULL;
    for (uint32_t t = 0; w && t < p.sectors; t++)
        CHECK(comm_r_ok(c, w, t));
    for (uint64_t i = 1; w && i <= s->n_public; i++) { /* each challenge's input is a leaf index */
        uint64_t lim[4] = {0};
        if ((i - 1) % (1 + p.challenges) == 0)
            continue;
        sp_fr_to_canonical(lim, &w[i]);
        CHECK(lim[1] == 0 && lim[2] == 0 && lim[3] == 0 && lim[0] < p.nodes);
    }
    free(w);
    sp_cs_rec_free(r);
    sp_cs_rec_free(r2);
    sp_post_close(c);
}

int main(void)
{
    sp_rng rng;
    sp_test_begin("test_post", &rng);
    test_presets();
    test_params_from();
    test_wired_poseidon(&rng);
    for (int i = 0; i < sp_test_iters(2); i++) {
        test_small(&rng, 1);
        test_small(&rng, 0);
    }
    return sp_test_done();
}
