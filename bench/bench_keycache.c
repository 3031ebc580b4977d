/*
 * Loading a proving key with and without the key cache
 * (groth16/keycache.h), in-process, on a generated circuit's development
 * key of 2^K constraints (domain 2^(K+1)):
 *   sha256 hw / portable  hashing the key file (what every cached load
 *                         pays), with the SHA extensions and without
 *   read, checked         sp_zkey_read: every point on the curve and in
 *                         the subgroup (what a prove did before the cache)
 *   read, curve only      sp_zkey_read with SP_G16_SKIP_SUBGROUP_CHECK
 *   cache cold            sp_kc_load on an empty cache: checked + stored
 *   cache warm            sp_kc_load of the stored entry (a hit)
 * Each the best of REPS runs (the machine is shared), wall and CPU
 * seconds (user + system of the whole process while it ran, so the work
 * of every thread). Usage:
 *   bench_keycache [K (default 14)] [threads (default 2)] [reps (default 3)]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "groth16/keycache.h"
#include "groth16/setup.h"
#include "groth16/zkey.h"
#include "synth/gen.h"
#include "util/sha256.h"

static char dir_[] = "/tmp/sp_bench_keycache_XXXXXX";
static char key_[300], cache_[300];
static int threads_ = 2;

static double clock_s(clockid_t id)
{
    struct timespec t;
    clock_gettime(id, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

typedef struct {
    double wall, cpu;
} cost;

typedef int (*step_fn)(void);

/* Best wall and best CPU time over reps runs of fn (each may prepare in before()). */
static cost measure(step_fn fn, step_fn before, int reps)
{
    cost best = {1e30, 1e30};
    for (int r = 0; r < reps; r++) {
        if (before && before() != 0)
            exit(1);
        double w0 = clock_s(CLOCK_MONOTONIC), c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
        if (fn() != 0) {
            fprintf(stderr, "bench_keycache: a step failed\n");
            exit(1);
        }
        double w = clock_s(CLOCK_MONOTONIC) - w0, c = clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
        best.wall = w < best.wall ? w : best.wall;
        best.cpu = c < best.cpu ? c : best.cpu;
    }
    return best;
}

static uint8_t *file_;
static size_t file_len_;

static int hash_hw(void)
{
    uint8_t d[32];
    sp_sha256_use_hw(1);
    sp_sha256(d, file_, file_len_);
    return 0;
}

static int hash_portable(void)
{
    uint8_t d[32];
    int was = sp_sha256_use_hw(0);
    sp_sha256(d, file_, file_len_);
    sp_sha256_use_hw(was);
    return 0;
}

static int read_with(unsigned flags)
{
    char err[SP_ERR_LEN];
    sp_g16_pk pk;
    sp_status st = sp_zkey_read(&pk, NULL, key_, flags, threads_, err);
    sp_g16_pk_free(&pk);
    return st != SP_OK;
}

static int read_checked(void) { return read_with(0); }
static int read_curve(void) { return read_with(SP_G16_SKIP_SUBGROUP_CHECK); }

static sp_kc_outcome last_;
static int stored_;

static int cache_load(void)
{
    char err[SP_ERR_LEN];
    sp_g16_pk pk;
    sp_kc_report rep;
    sp_kc_request rq = {.kind = SP_KC_ZKEY, .path = key_, .threads = threads_, .store = 1};
    sp_status st = sp_kc_load(&pk, &rep, cache_, &rq, err);
    last_ = rep.outcome;
    stored_ = rep.stored;
    sp_g16_pk_free(&pk);
    return st != SP_OK;
}

static int clear_cache(void)
{
    char err[SP_ERR_LEN];
    return sp_kc_clear(cache_, NULL, NULL, err) != SP_OK;
}

static void row(const char *name, cost c, const char *note)
{
    printf("%-22s %9.3f %9.3f  %s\n", name, c.wall, c.cpu, note);
}

static int make_key(unsigned k)
{
    char err[SP_ERR_LEN], r1cs[350], wtns[350];
    snprintf(r1cs, sizeof r1cs, "%s/c.r1cs", dir_);
    snprintf(wtns, sizeof wtns, "%s/c.wtns", dir_);
    sp_gen_params p = {.n_constraints = 1ULL << k, .n_public = 1, .bool_fraction = 0.5, .seed = 1};
    sp_r1cs cs;
    sp_g16_pk pk;
    if (sp_gen_circuit(r1cs, wtns, &p, NULL, err) != SP_OK || sp_r1cs_read(&cs, r1cs, err) != SP_OK) {
        fprintf(stderr, "bench_keycache: %s\n", err);
        return -1;
    }
    sp_status st = sp_g16_setup(&pk, &cs, SP_G16_H_SNARKJS, threads_, err);
    if (st == SP_OK)
        st = sp_zkey_write(key_, &pk, err);
    sp_g16_pk_free(&pk);
    sp_r1cs_free(&cs);
    unlink(r1cs);
    unlink(wtns);
    if (st != SP_OK)
        fprintf(stderr, "bench_keycache: %s\n", err);
    return st == SP_OK ? 0 : -1;
}

int main(int argc, char **argv)
{
    unsigned k = argc > 1 ? (unsigned)atoi(argv[1]) : 14;
    threads_ = argc > 2 ? atoi(argv[2]) : 2;
    int reps = argc > 3 ? atoi(argv[3]) : 3;
    if (k < 4 || k > 24 || threads_ < 1 || reps < 1 || !mkdtemp(dir_)) {
        fprintf(stderr, "usage: bench_keycache [K 4..24] [threads] [reps]\n");
        return 2;
    }
    snprintf(key_, sizeof key_, "%s/c.zkey", dir_);
    snprintf(cache_, sizeof cache_, "%s/cache", dir_);
    if (make_key(k) != 0)
        return 1;
    file_ = (uint8_t *)malloc(1);
    FILE *f = fopen(key_, "rb");
    fseek(f, 0, SEEK_END);
    file_len_ = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    file_ = realloc(file_, file_len_);
    if (fread(file_, 1, file_len_, f) != file_len_)
        return 1;
    fclose(f);
    printf("key cache: 2^%u constraints, key file %.1f MiB, %d thread(s), best of %d; SHA extensions %s\n", k,
           (double)file_len_ / (1 << 20), threads_, reps, sp_sha256_hw_active() ? "on" : "not on this CPU");
    printf("%-22s %9s %9s\n", "step", "wall s", "cpu s");
    cost hw = measure(hash_hw, NULL, reps), sw = measure(hash_portable, NULL, reps);
    char note[64];
    snprintf(note, sizeof note, "%.0f MB/s", (double)file_len_ / hw.wall / 1e6);
    row("sha256 (hw)", hw, note);
    snprintf(note, sizeof note, "%.0f MB/s", (double)file_len_ / sw.wall / 1e6);
    row("sha256 (portable)", sw, note);
    row("read, checked", measure(read_checked, NULL, reps), "sp_zkey_read");
    row("read, curve only", measure(read_curve, NULL, reps), "--skip-subgroup-check");
    cost cold = measure(cache_load, clear_cache, reps);
    row("cache cold", cold, last_ == SP_KC_MISS && stored_ ? "checked + stored" : "NOT A STORED MISS");
    cost warm = measure(cache_load, NULL, reps);
    row("cache warm", warm, last_ == SP_KC_HIT ? "hit" : "NOT A HIT");
    free(file_);
    clear_cache();
    unlink(key_);
    rmdir(cache_);
    rmdir(dir_);
    return last_ == SP_KC_HIT ? 0 : 1;
}
