/* The porep-like circuit (circuit/porep.h): preset sizes against Filecoin's,
 * and on random small shapes: the fast count equals the recording, the
 * parallel witness equals the recorded matrices times w row by row, every
 * constraint holds, the public inputs are the instance's, a wrong value is
 * caught and named, and the recording does not depend on the instance. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "circuit/porep.h"
#include "test_native.h"

static void test_presets(void)
{
    const char *names[] = {"2KiB", "8MiB", "512MiB", "32GiB", "64GiB"};
    char err[SP_ERR_LEN];
    for (size_t i = 0; i < 5; i++) {
        sp_porep_params p;
        CHECK(sp_porep_preset(&p, names[i]) == SP_OK);
        sp_porep *c = NULL;
        CHECKF(sp_porep_open(&c, &p, err) == SP_OK, "%s: %s", names[i], err);
        if (!c)
            continue;
        const sp_porep_shape *s = sp_porep_shape_of(c);
        CHECK(s->n_public == 3 + (uint64_t)p.challenges * 18);
        CHECK(s->n_bool > s->n_vars * 95 / 100); /* nearly every value is a bit */
        if (!strcmp(names[i], "32GiB")) {
            /* Filecoin's 32 GiB partition: 130,278,869 constraints, 328 inputs with ONE */
            double rel = (double)s->n_rows / 130278869.0;
            printf("test_porep: 32GiB preset %llu constraints (%.2f%% of Filecoin's), %llu public\n",
                   (unsigned long long)s->n_rows, 100.0 * rel, (unsigned long long)s->n_public);
            CHECK(rel > 0.95 && rel < 1.05);
            CHECK(s->n_public + 1 == 328);
        }
        sp_porep_close(c);
    }
    sp_porep_params p;
    CHECK(sp_porep_preset(&p, "1TiB") == SP_ERR_INVALID_ARG);
    CHECK(sp_porep_preset(&p, "2KiB") == SP_OK);
    p.nodes = 48; /* not a power of two */
    CHECK(sp_porep_check(&p, err) == SP_ERR_INVALID_ARG && strstr(err, "power of two"));
    CHECK(sp_porep_preset(&p, "2KiB") == SP_OK);
    p.arity[0] = 4; /* the trees no longer cover the nodes */
    CHECK(sp_porep_check(&p, err) == SP_ERR_INVALID_ARG);
    CHECK(sp_porep_preset(&p, "2KiB") == SP_OK);
    p.layers = 1;
    CHECK(sp_porep_check(&p, err) == SP_ERR_INVALID_ARG);
}

/* The one parser of preset + overrides every front end uses. */
static void test_params_from(void)
{
    char err[SP_ERR_LEN];
    sp_porep_params p, q;
    sp_porep_overrides o;
    sp_porep_overrides_init(&o);
    CHECK(sp_porep_params_from(&p, NULL, &o, err) == SP_OK && !strcmp(p.preset, "2KiB"));
    CHECK(sp_porep_preset(&q, "2KiB") == SP_OK && !memcmp(&p, &q, sizeof p)); /* nothing given: the preset */
    CHECK(sp_porep_params_from(&p, "3KiB", &o, err) == SP_ERR_INVALID_ARG && strstr(err, "unknown preset '3KiB'"));
    o.nodes = 16, o.challenges = 1, o.layers = 3;
    CHECK(sp_porep_params_from(&p, "8MiB", &o, err) == SP_OK);
    CHECK(!strcmp(p.preset, "8MiB*") && p.nodes == 16 && p.d_depth == 4 && p.levels == 2 && p.arity[0] == 8 &&
          p.arity[1] == 2 && p.layers == 3 && p.challenges == 1 && p.drg_parents == 6);
    CHECK(sp_porep_params_from(&p, NULL, &o, err) == SP_OK && !strcmp(p.preset, "custom"));
    o.nodes = 12; /* not a power of two */
    CHECK(sp_porep_params_from(&p, NULL, &o, err) == SP_ERR_INVALID_ARG && strstr(err, "power of two"));
    sp_porep_overrides_init(&o);
    o.layers = (uint64_t)UINT32_MAX + 3; /* would wrap to 2 */
    CHECK(sp_porep_params_from(&p, NULL, &o, err) == SP_ERR_INVALID_ARG && strstr(err, "out of range"));
    sp_porep_overrides_init(&o);
    o.challenges = 64; /* not fewer than the 2KiB preset's 64 nodes */
    CHECK(sp_porep_params_from(&p, "2KiB", &o, err) == SP_ERR_INVALID_ARG && strstr(err, "challenges"));
}

/* A random small shape: 2^1..2^4 nodes (trees of arity 8, then 2 or 4),
 * 2 or 3 layers, 1 or 2 challenges, few parents. */
static void small_params(sp_porep_params *p, sp_rng *rng)
{
    memset(p, 0, sizeof *p);
    snprintf(p->preset, sizeof p->preset, "test");
    unsigned k = 1 + (unsigned)(sp_rng_u64(rng) % 4);
    p->nodes = (uint64_t)1 << k;
    p->d_depth = k;
    for (; k >= 3; k -= 3)
        p->arity[p->levels++] = 8;
    if (k)
        p->arity[p->levels++] = (uint8_t)(1u << k);
    p->layers = 2 + (uint32_t)(sp_rng_u64(rng) % 2);
    p->challenges = 1 + (uint32_t)(sp_rng_u64(rng) % (p->nodes > 2 ? 2 : 1));
    p->drg_parents = 1 + (uint32_t)(sp_rng_u64(rng) % 2);
    p->exp_parents = (uint32_t)(sp_rng_u64(rng) % 2);
    p->label_parents = p->drg_parents + p->exp_parents + (uint32_t)(sp_rng_u64(rng) % 2);
}

static void test_small(sp_rng *rng)
{
    sp_porep_params p;
    small_params(&p, rng);
    char err[SP_ERR_LEN] = "";
    sp_porep *c = NULL;
    CHECKF(sp_porep_open(&c, &p, err) == SP_OK, "%s", err);
    if (!c)
        return;
    const sp_native_circuit *nc = sp_porep_native(c);
    sp_porep_input in = {sp_rng_u64(rng), (uint32_t)(sp_rng_u64(rng) % 10)};
    sp_porep_input other = {in.seed + 1, in.partition + 1};
    sp_cs_rec *r = NULL, *r2 = NULL;
    CHECKF(sp_porep_record(&r, c, &in, 2, err) == SP_OK, "%s", err);
    CHECKF(sp_porep_record(&r2, c, &other, 1, err) == SP_OK, "%s", err);
    /* the tampered bit: one of the first parent's unpacking */
    sp_fr *w = r && r2 ? sp_test_native_witness(nc, r, r2, &in, &other, "challenge 0/label 1", rng) : NULL;
    for (uint64_t i = 4; w && i <= nc->n_public; i++) { /* each packed path input is a node below the size */
        uint64_t lim[4] = {0};
        sp_fr_to_canonical(lim, &w[i]);
        CHECK(lim[1] == 0 && lim[2] == 0 && lim[3] == 0 && lim[0] < p.nodes);
    }
    free(w);
    sp_cs_rec_free(r);
    sp_cs_rec_free(r2);
    sp_porep_close(c);
}

int main(void)
{
    sp_rng rng;
    sp_test_begin("test_porep", &rng);
    test_presets();
    test_params_from();
    for (int i = 0; i < sp_test_iters(2); i++)
        test_small(&rng);
    return sp_test_done();
}
