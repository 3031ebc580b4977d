/* Engine options as a table, and the circuit a run proves (cmd_engine.h). */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli/cmd_engine.h"
#include "cli/cmds.h"
#include "circuit/rec.h"
#include "groth16/params.h"
#include "groth16/setup.h"
#include "groth16/zkey.h"
#include "synth/gen.h"
#include "synth/native_setup.h"
#include "util/bytes.h"

typedef enum { OPT_INT, OPT_BOOL, OPT_BYTES, OPT_STR } opt_type;

/* One row per engine option: the table drives parsing, help and the log line. */
static const struct {
    const char *key;
    opt_type type;
    size_t off;
    const char *help;
} keys_[] = {
#define F(x) offsetof(sp_engine_config, x)
    {"budget", OPT_BYTES, F(budget_bytes), "memory budget (bytes: 123, 64M, 2GiB, 2^30; 0 = MemTotal - margin)"},
    {"synth", OPT_INT, F(max_parallel_synthesis), "synthesis workers (max_parallel_synthesis)"},
    {"synth_threads", OPT_INT, F(synth_threads), "threads per synthesis (0 = every core)"},
    {"gpu_workers", OPT_INT, F(gpu_workers_per_device), "workers sharing one device lock"},
    {"finish_threads", OPT_INT, F(finish_threads), "threads of the finish stage's CPU G2 MSM (0 = min(32, cores))"},
    {"gpu_threads", OPT_INT, F(finish_threads), "old name of finish_threads, still accepted"},
    {"finish", OPT_INT, F(finish_workers), "partitions finishing at once (0 = one per device)"},
    {"backend_threads", OPT_INT, F(backend_threads), "host threads of a backend (0 = all cores)"},
    {"backends", OPT_STR, F(backends), "comma-separated: cpu, cuda:0, auto, ..."},
    {"g2_on_device", OPT_BOOL, F(g2_on_device), "G2 MSM inside the device lock (0: on the finish pool)"},
    {"split_msm", OPT_BOOL, F(split_msm), "0/1-aware witness MSMs"},
    {"verify", OPT_BOOL, F(verify_proofs), "verify every proof before its job completes"},
    {"check_witness", OPT_BOOL, F(check_witness), "synthesis checks every constraint"},
    {"serialized_free", OPT_BOOL, F(serialized_free), "big frees on one background thread"},
    {"pinned_pool", OPT_BOOL, F(pinned_pool), "reuse a, b, c buffers from a pool"},
    {"bw_throttle", OPT_BOOL, F(bw_throttle), "synthesis yields while a G2 MSM runs"},
    {"two_step_release", OPT_BOOL, F(two_step_release), "a, b, c released at device handoff"},
    {"pool_max", OPT_BYTES, F(pool_max_bytes), "cap on idle pool bytes (0 = budget only)"},
    {"pool_prefill", OPT_INT, F(pool_prefill), "a, b, c blocks made at registration (default: one per worker)"},
#undef F
};

#define N_KEYS (sizeof keys_ / sizeof keys_[0])

int sp_cli_engine_set(sp_engine_config *cfg, const char *kv, char *err, size_t err_len)
{
    const char *eq = strchr(kv, '=');
    size_t i = 0;
    size_t klen = eq ? (size_t)(eq - kv) : 0;
    while (eq && i < N_KEYS && (strlen(keys_[i].key) != klen || strncmp(kv, keys_[i].key, klen)))
        i++;
    if (!eq || i == N_KEYS) {
        snprintf(err, err_len, "unknown engine option '%s' (--set help lists them)", kv);
        return -1;
    }
    const char *v = eq + 1;
    char *p = (char *)cfg + keys_[i].off, *end;
    long n;
    switch (keys_[i].type) {
    case OPT_STR:
        *(const char **)p = v;
        return *v ? 0 : (snprintf(err, err_len, "%s needs a value", keys_[i].key), -1);
    case OPT_BYTES:
        if (sp_bytes_parse((size_t *)p, v) == SP_OK)
            return 0;
        break;
    case OPT_INT:
    case OPT_BOOL:
        errno = 0;
        n = strtol(v, &end, 10);
        if (!errno && *v && !*end && n >= 0 && n <= (keys_[i].type == OPT_BOOL ? 1 : 4096)) {
            *(int *)p = (int)n;
            return 0;
        }
        break;
    }
    snprintf(err, err_len, "bad value for %s: '%s'", keys_[i].key, v);
    return -1;
}

void sp_cli_engine_keys_help(FILE *f)
{
    for (size_t i = 0; i < N_KEYS; i++)
        fprintf(f, "  %-17s %s\n", keys_[i].key, keys_[i].help);
}

void sp_cli_engine_describe(FILE *f, const sp_engine_config *cfg)
{
    for (size_t i = 0; i < N_KEYS; i++) {
        const char *p = (const char *)cfg + keys_[i].off;
        fprintf(f, "%s%s=", i ? " " : "", keys_[i].key);
        if (keys_[i].type == OPT_STR)
            fprintf(f, "%s", *(const char *const *)p ? *(const char *const *)p : "");
        else if (keys_[i].type == OPT_BYTES)
            fprintf(f, "%zu", *(const size_t *)p);
        else
            fprintf(f, "%d", *(const int *)p);
    }
}

/* ---- circuits ---- */

sp_status sp_cli_circuit_builtin(sp_cli_circuit *c, uint64_t n, int threads, char err[SP_ERR_LEN])
{
    memset(c, 0, sizeof *c);
    char r1cs[] = "/tmp/snarkpipe_bench_XXXXXX", wtns[64];
    int fd = mkstemp(r1cs);
    if (fd < 0) {
        snprintf(err, SP_ERR_LEN, "cannot make a temporary file in /tmp: %s", strerror(errno));
        return SP_ERR_IO;
    }
    close(fd);
    snprintf(wtns, sizeof wtns, "%s.wtns", r1cs);
    sp_gen_params p = {n, 1, 0.5, 1};
    sp_status st = sp_gen_circuit(r1cs, wtns, &p, NULL, err);
    if (st == SP_OK)
        st = sp_r1cs_read(&c->cs, r1cs, err);
    c->have_cs = st == SP_OK;
    if (st == SP_OK)
        st = sp_wtns_read(&c->w, &c->w_len, wtns, err);
    unlink(r1cs);
    unlink(wtns);
    if (st == SP_OK)
        st = sp_g16_setup(&c->pk, &c->cs, SP_G16_H_SNARKJS, threads, err);
    snprintf(c->what, sizeof c->what, "built-in circuit, %llu constraints (development setup)", (unsigned long long)n);
    if (st != SP_OK)
        sp_cli_circuit_free(c);
    return st;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && !strcmp(s + n - m, suffix);
}

sp_status sp_cli_circuit_files(sp_cli_circuit *c, const char *key, const char *r1cs, const char *wtns, unsigned flags,
                               int threads, char err[SP_ERR_LEN])
{
    memset(c, 0, sizeof *c);
    sp_status st = SP_OK;
    if (r1cs && (st = sp_r1cs_read(&c->cs, r1cs, err)) == SP_OK)
        c->have_cs = 1;
    if (st == SP_OK && ends_with(key, ".params")) {
        sp_g16_density den;
        if (!c->have_cs) {
            snprintf(err, SP_ERR_LEN, "a bellperson .params key needs its circuit (--r1cs)");
            st = SP_ERR_INVALID_ARG;
        } else if ((st = sp_g16_density_from_r1cs(&den, &c->cs)) == SP_OK) {
            st = sp_bp_params_read(&c->pk, key, &den, flags, threads, err);
            sp_g16_density_free(&den);
        }
    } else if (st == SP_OK) {
        st = sp_zkey_read(&c->pk, NULL, key, flags, threads, err);
    }
    if (st == SP_OK)
        st = sp_wtns_read(&c->w, &c->w_len, wtns, err);
    snprintf(c->what, sizeof c->what, "%s", key);
    if (st != SP_OK)
        sp_cli_circuit_free(c);
    return st;
}

typedef sp_status (*record_fn)(sp_cs_rec **rec, const sp_cli_circuit *c, int threads, char err[SP_ERR_LEN]);

/* c's key from `key`, or a development setup of the recording `record`
 * makes; then checked against c->nat. */
static sp_status native_key(sp_cli_circuit *c, record_fn record, const char *key, unsigned flags, sp_backend *be,
                            int threads, char err[SP_ERR_LEN])
{
    const sp_native_circuit *nc = c->nat;
    sp_status st;
    if (key) {
        st = sp_zkey_read(&c->pk, NULL, key, flags, threads, err);
        snprintf(c->what, sizeof c->what, "%s, key %s", nc->name, key);
    } else {
        sp_cs_rec *rec = NULL;
        double t0 = sp_cli_now();
        if ((st = record(&rec, c, threads, err)) == SP_OK) {
            sp_cli_progress("record", t0);
            t0 = sp_cli_now();
            st = sp_native_setup(&c->pk, &rec, SP_G16_H_SNARKJS, be, threads, err); /* frees rec early */
            sp_cli_progress("setup", t0);
        }
        sp_cs_rec_free(rec);
        snprintf(c->what, sizeof c->what, "%s (development setup in memory)", nc->name);
    }
    if (st == SP_OK && (nc->n_vars != c->pk.n_vars || nc->n_public != c->pk.vk.n_public)) {
        snprintf(err, SP_ERR_LEN, "the key (%u wires, %u public) is not the circuit's (%llu wires, %llu public)",
                 c->pk.n_vars, c->pk.vk.n_public, (unsigned long long)nc->n_vars, (unsigned long long)nc->n_public);
        st = SP_ERR_INVALID_ARG;
    }
    return st;
}

static sp_status record_porep(sp_cs_rec **rec, const sp_cli_circuit *c, int threads, char err[SP_ERR_LEN])
{
    sp_porep_input in = {1, 0};
    return sp_porep_record(rec, c->porep, &in, threads, err);
}

static sp_status record_post(sp_cs_rec **rec, const sp_cli_circuit *c, int threads, char err[SP_ERR_LEN])
{
    sp_post_input in = {1, 0};
    return sp_post_record(rec, c->post, &in, threads, err);
}

sp_status sp_cli_circuit_porep(sp_cli_circuit *c, const sp_porep_params *p, const char *key, unsigned flags,
                               sp_backend *be, int threads, char err[SP_ERR_LEN])
{
    memset(c, 0, sizeof *c);
    sp_status st = sp_porep_open(&c->porep, p, err);
    if (st == SP_OK) {
        c->nat = sp_porep_native(c->porep);
        st = native_key(c, record_porep, key, flags, be, threads, err);
    }
    if (st != SP_OK)
        sp_cli_circuit_free(c);
    return st;
}

sp_status sp_cli_circuit_post(sp_cli_circuit *c, const sp_post_params *p, const char *key, unsigned flags,
                              sp_backend *be, int threads, char err[SP_ERR_LEN])
{
    memset(c, 0, sizeof *c);
    sp_status st = sp_post_open(&c->post, p, err);
    if (st == SP_OK) {
        c->nat = sp_post_native(c->post);
        st = native_key(c, record_post, key, flags, be, threads, err);
    }
    if (st != SP_OK)
        sp_cli_circuit_free(c);
    return st;
}

void sp_cli_circuit_free(sp_cli_circuit *c)
{
    sp_porep_close(c->porep);
    sp_post_close(c->post);
    sp_g16_pk_free(&c->pk);
    if (c->have_cs)
        sp_r1cs_free(&c->cs);
    free(c->w);
    memset(c, 0, sizeof *c);
}
