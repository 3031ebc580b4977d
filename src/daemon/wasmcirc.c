/* Circuits with a .wasm witness generator (wasmcirc.h). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "daemon/wasmcirc.h"
#include "field/field.h"
#include "synth/prover.h"
#include "synth/synth.h"
#include "util/curves.h"
#include "util/file.h"
#include "util/json.h"
#include "wasm/circom.h"

#define MAX_WASM_BYTES ((uint64_t)1 << 30)
#define POOL_MAX 64 /* idle instances kept: more synthesis workers than this open their own */

struct sp_dmn_wasmc {
    uint8_t *code;
    size_t code_len;
    sp_circom_opts opts;
    uint32_t witness_size;
    char sym[4096];             /* the circuit's .sym beside its .wasm, or "" */
    const sp_g16_pk *pk;
    const sp_r1cs *cs;
    sp_native_circuit nc;
    /* instances not in use: each synthesis worker takes one for a witness */
    pthread_mutex_t mu;
    sp_circom *idle[POOL_MAX];
    size_t n_idle;
};

static sp_status read_code(sp_dmn_wasmc *w, const char *path, char err[SP_ERR_LEN])
{
    int fd;
    uint64_t size;
    sp_status st = sp_file_open_regular(&fd, &size, path, "wasm", err);
    if (st != SP_OK)
        return st;
    if (size == 0 || size > MAX_WASM_BYTES) {
        snprintf(err, SP_ERR_LEN, "%.200s: %s", path, size ? "larger than 1 GiB" : "empty file");
        close(fd);
        return SP_ERR_FORMAT;
    }
    w->code = malloc((size_t)size);
    size_t got = 0;
    while (w->code && got < size) {
        ssize_t r = read(fd, w->code + got, (size_t)size - got);
        if (r <= 0)
            break;
        got += (size_t)r;
    }
    close(fd);
    if (!w->code || got != size) {
        snprintf(err, SP_ERR_LEN, "%.200s: %s", path, w->code ? "short read" : "out of memory");
        return w->code ? SP_ERR_IO : SP_ERR_NOMEM;
    }
    w->code_len = (size_t)size;
    return SP_OK;
}

/* The module's prime must be this build's scalar field (n32 words, least significant first). */
static int prime_is_ours(const sp_circom *c)
{
    if (sp_circom_n32(c) != 2 * SP_FR_LIMBS)
        return 0;
    const uint32_t *p = sp_circom_prime(c);
    for (size_t i = 0; i < SP_FR_LIMBS; i++)
        if (p[2 * i] != (uint32_t)SP_FR_MODULUS[i] || p[2 * i + 1] != (uint32_t)(SP_FR_MODULUS[i] >> 32))
            return 0;
    return 1;
}

/* circom --sym writes NAME.sym; a .sym in the .wasm's own directory
 * (NAME.wasm beside it) lets a missing input be named. Only that
 * directory: the .wasm's was checked against keys.key_dirs. */
static void find_sym(sp_dmn_wasmc *w, const char *path)
{
    size_t n = strlen(path);
    struct stat st;
    if (n < 5 || strcmp(path + n - 5, ".wasm") || n >= sizeof w->sym)
        return;
    snprintf(w->sym, sizeof w->sym, "%.*s.sym", (int)(n - 5), path);
    if (stat(w->sym, &st) != 0 || !S_ISREG(st.st_mode))
        w->sym[0] = 0;
}

/* A new instance, with the .sym when there is one. */
static sp_status open_one(sp_dmn_wasmc *w, sp_circom **c, char err[SP_ERR_LEN])
{
    sp_status st = sp_circom_open(c, w->code, w->code_len, &w->opts, err);
    if (st == SP_OK && w->sym[0] && (st = sp_circom_set_sym_path(*c, w->sym)) != SP_OK) {
        snprintf(err, SP_ERR_LEN, "out of memory");
        sp_circom_close(*c);
        *c = NULL;
    }
    return st;
}

sp_status sp_dmn_wasmc_open(sp_dmn_wasmc **out, const char *path, const sp_dmn_wasm_limits *lim, char err[SP_ERR_LEN])
{
    *out = NULL;
    sp_dmn_wasmc *w = calloc(1, sizeof *w);
    if (!w) {
        snprintf(err, SP_ERR_LEN, "out of memory");
        return SP_ERR_NOMEM;
    }
    pthread_mutex_init(&w->mu, NULL);
    w->opts = sp_circom_opts_default();
    w->opts.lim.max_seconds = lim->max_seconds;
    if (lim->max_mib)
        w->opts.lim.max_pages = lim->max_mib >= 4096 ? 65536 : lim->max_mib * 16u;
    w->opts.log_to_stderr = 0; /* circom's log() lines: a daemon's stderr is its log, not the circuit's */
    sp_circom *c = NULL;
    char why[SP_ERR_LEN];
    sp_status st = read_code(w, path, err);
    find_sym(w, path);
    if (st == SP_OK && (st = open_one(w, &c, why)) != SP_OK)
        snprintf(err, SP_ERR_LEN, "%.80s: %.160s", path, why);
    if (st == SP_OK && !prime_is_ours(c)) {
        snprintf(err, SP_ERR_LEN, "%.40s: the circuit's prime (%u bits) is not the %s scalar field this daemon "
                 "proves over; a daemon started with `--curve %s` takes circuits compiled with circom -p %s", path,
                 32 * sp_circom_n32(c), sp_curve_name(SP_CURVE_ID_THIS),
                 SP_CURVE_ID_THIS == SP_CURVE_ID_BN254 ? "bls12-381" : "bn254",
                 SP_CURVE_ID_THIS == SP_CURVE_ID_BN254 ? "bls12381" : "bn128");
        st = SP_ERR_FORMAT;
    }
    if (st != SP_OK) {
        sp_circom_close(c);
        sp_dmn_wasmc_close(w);
        return st;
    }
    w->witness_size = sp_circom_witness_size(c);
    w->idle[w->n_idle++] = c;
    *out = w;
    return SP_OK;
}

void sp_dmn_wasmc_close(sp_dmn_wasmc *w)
{
    if (!w)
        return;
    for (size_t i = 0; i < w->n_idle; i++)
        sp_circom_close(w->idle[i]);
    pthread_mutex_destroy(&w->mu);
    free(w->code);
    free(w);
}

uint32_t sp_dmn_wasmc_witness_size(const sp_dmn_wasmc *w) { return w->witness_size; }

/* An instance for one witness: an idle one, or a new one. */
static sp_status take(sp_dmn_wasmc *w, sp_circom **c, char err[SP_ERR_LEN])
{
    pthread_mutex_lock(&w->mu);
    *c = w->n_idle ? w->idle[--w->n_idle] : NULL;
    pthread_mutex_unlock(&w->mu);
    return *c ? SP_OK : open_one(w, c, err);
}

/* Back to the pool after a witness that ran to its end; one a trap or a
 * limit stopped is closed (its memory is whatever the trap left). */
static void give(sp_dmn_wasmc *w, sp_circom *c, sp_status st)
{
    pthread_mutex_lock(&w->mu);
    if (st == SP_OK && w->n_idle < POOL_MAX) {
        w->idle[w->n_idle++] = c;
        c = NULL;
    }
    pthread_mutex_unlock(&w->mu);
    sp_circom_close(c);
}

/* The witness of one input.json into w[0..n_vars). */
static sp_status make_witness(sp_dmn_wasmc *x, const sp_dmn_wasm_input *in, sp_fr *w, char err[SP_ERR_LEN])
{
    sp_circom *c = NULL;
    uint8_t *wtns = NULL;
    size_t wl = 0, nv = 0;
    char why[SP_ERR_LEN];
    sp_status st = take(x, &c, why);
    if (st != SP_OK) {
        snprintf(err, SP_ERR_LEN, "the circuit's .wasm: %.200s", why);
        return st;
    }
    st = sp_circom_witness(c, in->json, in->len, &wtns, &wl, why);
    give(x, c, st);
    if (st != SP_OK) {
        /* the input's faults (names, sizes, values) are the client's; the rest the circuit's code */
        int input = st == SP_ERR_INVALID_ARG || st == SP_ERR_BAD_ENCODING;
        snprintf(err, SP_ERR_LEN, "%s%.220s", input ? "input.json: " : "witness: ", why);
        return input ? SP_ERR_BAD_ENCODING : st;
    }
    sp_fr *vals = NULL;
    st = sp_wtns_parse(&vals, &nv, wtns, wl, why);
    sp_huge_free(wtns);
    if (st == SP_OK && nv != x->pk->n_vars) {
        snprintf(why, sizeof why, "the witness has %zu values, the key %u wires", nv, x->pk->n_vars);
        st = SP_ERR_FORMAT;
    }
    if (st == SP_OK)
        memcpy(w, vals, nv * sizeof *w);
    else
        snprintf(err, SP_ERR_LEN, "witness: %.220s", why);
    free(vals);
    return st;
}

static sp_status wasm_witness(const sp_native_circuit *nc, const void *input, sp_fr *w, sp_fr *a, sp_fr *b, sp_fr *c,
                              size_t n, int threads, int check, const atomic_int *cancel, char err[SP_ERR_LEN])
{
    sp_dmn_wasmc *x = (sp_dmn_wasmc *)nc->ctx; /* the pool changes; the circuit does not */
    sp_status st = make_witness(x, input, w, err);
    if (st != SP_OK || !a)
        return st;
    if (cancel && atomic_load(cancel))
        return SP_ERR_CANCELLED;
    sp_synth_ctl ctl = {NULL, cancel, 0, NULL};
    size_t bad;
    if (x->cs)
        return sp_synth_abc(a, b, c, n, x->cs, w, x->pk->n_vars, check, threads, &ctl, &bad, err);
    return sp_synth_abc_from_key(a, b, c, x->pk, w, x->pk->n_vars, threads, &ctl, err);
}

const sp_native_circuit *sp_dmn_wasmc_bind(sp_dmn_wasmc *w, const sp_g16_pk *pk, const sp_r1cs *cs)
{
    w->pk = pk;
    w->cs = cs;
    memset(&w->nc, 0, sizeof w->nc);
    snprintf(w->nc.name, sizeof w->nc.name, "circom .wasm");
    w->nc.n_vars = pk->n_vars;
    w->nc.n_public = pk->vk.n_public;
    w->nc.n_rows = cs ? cs->h.n_constraints : (uint64_t)pk->domain_size - pk->vk.n_public - 1;
    w->nc.input_size = sizeof(sp_dmn_wasm_input);
    w->nc.witness = wasm_witness;
    w->nc.ctx = w;
    return &w->nc;
}

/* ---- input.json before the circuit runs ---- */

/* 0 when v is a value circom takes (nested arrays of them included). */
static int value_ok(const sp_json_val *v, unsigned depth)
{
    switch (v->type) {
    case SP_JSON_NUMBER:
        return strpbrk(v->text, ".eE") ? -1 : 0;
    case SP_JSON_STRING:
    case SP_JSON_TRUE:
    case SP_JSON_FALSE:
        return 0;
    case SP_JSON_ARRAY:
        for (size_t i = 0; depth < 32 && i < v->n; i++)
            if (value_ok(v->items[i], depth + 1))
                return -1;
        return depth < 32 ? 0 : -1;
    default:
        return -1;
    }
}

int sp_dmn_wasmc_check_input(const char *json, size_t len, char err[SP_ERR_LEN])
{
    sp_json_doc *doc;
    if (sp_circom_parse_input(&doc, json, len, 40, err) != SP_OK)
        return -1;
    const sp_json_val *o = sp_json_root(doc);
    int rc = 0;
    for (size_t i = 0; !rc && i < o->n; i++)
        if (value_ok(o->items[i], 0)) {
            snprintf(err, SP_ERR_LEN, "input.json: signal '%.100s' is not a number, a string of one, or arrays of "
                     "them (no fractions, null or objects)", o->items[i]->key);
            rc = -1;
        }
    sp_json_free(doc);
    return rc;
}
