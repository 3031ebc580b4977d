/*
 * The proving engine in CPU mode, end to end: proofs come back in partition order and verify; many
 * concurrent jobs with random cancels; a bad witness fails only its job;
 * the budget is never exceeded and jobs wait rather than fail; the a, b, c
 * pool grows only while no partition waits for a device; priority;
 * preemption of a device call by a job of higher priority (and none on a
 * backend that cannot pause); shutdown with work in flight; API errors
 * and limits.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <sys/mman.h>
#include <unistd.h>
#include "engine/waterfall.h"
#include "test_engine.h"

#define AWAIT_MS 120000L /* a job that takes longer than this is a hang */

static fx_circuit C1; /* snarkjs key, 2^8 domain */
static fx_circuit C2; /* 2^13 domain: a G2 MSM long enough to be interrupted */
static sp_rng rng;

/* ---- on_done callbacks: counted, for the tests that check them ---- */

static pthread_mutex_t cb_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cb_cv = PTHREAD_COND_INITIALIZER;
static int cb_count;

static void on_done(void *ctx, sp_engine_job *job)
{
    pthread_mutex_lock(&cb_mu);
    cb_count++;
    pthread_cond_broadcast(&cb_cv);
    pthread_mutex_unlock(&cb_mu);
}

/* Waits (bounded) until n callbacks ran; returns the count. */
static int wait_callbacks(int n)
{
    struct timespec dl;
    clock_gettime(CLOCK_REALTIME, &dl);
    dl.tv_sec += 60;
    pthread_mutex_lock(&cb_mu);
    while (cb_count < n && pthread_cond_timedwait(&cb_cv, &cb_mu, &dl) == 0)
        ;
    int c = cb_count;
    pthread_mutex_unlock(&cb_mu);
    return c;
}

/* ---- helpers ---- */

typedef struct {
    sp_fr **w;
    size_t n;
    sp_engine_job *job;
    int cancelled;
} tjob;

static void tjob_make(tjob *t, const fx_circuit *c, size_t n)
{
    memset(t, 0, sizeof *t);
    t->n = n;
    t->w = calloc(n, sizeof *t->w);
    for (size_t k = 0; k < n; k++)
        t->w[k] = fx_witness(c, &rng);
}

static void tjob_free(tjob *t)
{
    for (size_t k = 0; t->w && k < t->n; k++)
        free(t->w[k]);
    free(t->w);
    t->w = NULL;
}

/* Submits t; with owns, the engine gets copies of the witnesses (and
 * frees them), so t keeps its own for the checks. */
static sp_status submit(sp_engine *e, tjob *t, const char *circ, int prio, const char *rid, int owns)
{
    char err[SP_ERR_LEN] = "";
    size_t n = (!strcmp(circ, "c2") ? &C2 : &C1)->pk.n_vars;
    sp_fr **w = t->w;
    if (owns) {
        w = calloc(t->n, sizeof *w);
        for (size_t k = 0; k < t->n; k++) {
            w[k] = malloc(n * sizeof(sp_fr));
            memcpy(w[k], t->w[k], n * sizeof(sp_fr));
        }
    }
    sp_engine_job_desc d = {circ, t->n, w, n, owns, prio, rid, on_done, NULL, NULL};
    sp_status st = sp_engine_submit(e, &d, &t->job, err);
    if (owns) {
        for (size_t k = 0; st != SP_OK && k < t->n; k++)
            free(w[k]); /* refused: still ours */
        free(w);
    }
    return st;
}

/* Every proof of a finished OK job verifies with its own witness, and not
 * with its neighbour's. */
static void check_proofs(const fx_circuit *c, const sp_engine_result *r, sp_fr **w, size_t n, const char *what)
{
    CHECKF(r->status == SP_OK && r->verified, "%s: status %s (%s)", what, sp_status_str(r->status), r->err);
    CHECK(r->n_partitions == n);
    for (size_t k = 0; r->status == SP_OK && k < n; k++) {
        CHECKF(fx_verifies(c, &r->proofs[k], w[k]), "%s: proof %zu does not verify", what, k);
        CHECK(memcmp(r->public_signals + k * r->n_public, w[k] + 1, sizeof(sp_fr) * r->n_public) == 0);
        if (n > 1)
            CHECKF(!fx_verifies(c, &r->proofs[k], w[(k + 1) % n]), "%s: proof %zu verifies for another witness",
                   what, k);
    }
}

/* After everything was released and trimmed, nothing is held. */
static void check_idle(sp_engine *e, const char *what)
{
    sp_engine_status st;
    sp_engine_trim(e);
    CHECK(sp_engine_status_get(e, &st) == SP_OK);
    CHECKF(st.budget_used == 0 && st.reserved_bytes == 0 && st.pool_idle_bytes == 0 && st.freeing_bytes == 0,
           "%s: memory held: used %zu reserved %zu pool %zu freeing %zu", what, st.budget_used, st.reserved_bytes,
           st.pool_idle_bytes, st.freeing_bytes);
    CHECK(st.queued == 0 && st.gpu_queued == 0 && st.finish_queued == 0 && st.n_jobs == 0);
    CHECKF(st.budget_high_water <= st.budget_total, "%s: high water %zu > budget %zu", what, st.budget_high_water,
           st.budget_total);
    sp_engine_status_free(&st);
}

static sp_engine *start(const sp_engine_config *cfg)
{
    char err[SP_ERR_LEN] = "";
    sp_engine *e = NULL;
    CHECKF(sp_engine_create(&e, &sp_synth_curve_ops, cfg, err) == SP_OK, "%s", err);
    CHECKF(sp_engine_register(e, "c1", &C1.pk, &C1.cs, err) == SP_OK, "%s", err);
    CHECKF(sp_engine_register(e, "c1-key", &C1.pk, NULL, err) == SP_OK, "%s", err); /* synthesis from the key */
    return e;
}

/* ---- tests ---- */

static void test_basic(void)
{
    sp_engine_config cfg = fx_config();
    sp_engine *e = start(&cfg);
    const char *circs[2] = {"c1", "c1-key"};
    for (int i = 0; i < 2; i++) {
        tjob t;
        sp_engine_result r;
        tjob_make(&t, &C1, 3);
        CHECK(submit(e, &t, circs[i], 0, NULL, 0) == SP_OK);
        CHECK(sp_engine_await(e, t.job, AWAIT_MS, &r) == 1);
        check_proofs(&C1, &r, t.w, 3, circs[i]);
        sp_engine_job_release(e, t.job);
        tjob_free(&t);
    }
    check_idle(e, "basic");
    sp_engine_destroy(e);

    /* a bellperson-convention key (roots 7, tau^i Z(tau) H bases) */
    fx_circuit bp;
    fx_make(&bp, 200, 2, SP_G16_H_BELLPERSON, 7);
    char err[SP_ERR_LEN] = "";
    CHECK(sp_engine_create(&e, &sp_synth_curve_ops, &cfg, err) == SP_OK);
    CHECKF(sp_engine_register(e, "bp", &bp.pk, &bp.cs, err) == SP_OK, "%s", err);
    sp_fr *w[2] = {fx_witness(&bp, &rng), fx_witness(&bp, &rng)};
    sp_engine_job_desc d = {"bp", 2, w, bp.pk.n_vars, 0, 0, NULL, NULL, NULL, NULL};
    sp_engine_job *job;
    sp_engine_result r;
    CHECKF(sp_engine_submit(e, &d, &job, err) == SP_OK, "%s", err);
    CHECK(sp_engine_await(e, job, AWAIT_MS, &r) == 1);
    check_proofs(&bp, &r, w, 2, "bellperson key");
    sp_engine_destroy(e); /* releases the job */
    free(w[0]);
    free(w[1]);
    fx_free(&bp);
}

/* A random engine configuration: every switch and a few sizes. */
static sp_engine_config random_config(void)
{
    sp_engine_config cfg = fx_config();
    uint64_t r = sp_rng_u64(&rng);
    cfg.serialized_free = r & 1;
    cfg.pinned_pool = (r >> 1) & 1;
    cfg.bw_throttle = (r >> 2) & 1;
    cfg.two_step_release = (r >> 3) & 1;
    cfg.max_parallel_synthesis = 1 + (int)((r >> 4) % 3);
    cfg.gpu_workers_per_device = 1 + (int)((r >> 6) % 2);
    cfg.finish_workers = (int)((r >> 7) % 3);
    cfg.backends = (r >> 9) & 1 ? "cpu,cpu" : "cpu"; /* two devices */
    cfg.pool_max_bytes = (r >> 10) & 1 ? (size_t)1 << 20 : 0;
    return cfg;
}

/* Takes status snapshots while the pipeline runs (for ASan and TSan):
 * the counts in a snapshot are consistent with each other. */
typedef struct {
    sp_engine *e;
    atomic_int stop;
    int snapshots, bad; /* counted here, checked by the main thread (CHECK is not thread-safe) */
} poller;

static void *poll_status(void *arg)
{
    poller *pl = arg;
    while (!atomic_load(&pl->stop)) {
        sp_engine_status st;
        if (sp_engine_status_get(pl->e, &st) != SP_OK) {
            pl->bad++;
            break;
        }
        pl->bad += st.budget_used > st.budget_total || st.budget_high_water > st.budget_total;
        pl->bad += st.reserved_bytes + st.pool_idle_bytes + st.freeing_bytes != st.budget_used;
        pl->bad += st.synth_busy > st.synth_workers || st.finish_busy > st.finish_workers;
        for (size_t i = 0; i < st.n_jobs; i++)
            pl->bad += st.jobs[i].n_done > st.jobs[i].n_partitions;
        sp_engine_status_free(&st);
        pl->snapshots++;
        usleep(500);
    }
    return NULL;
}

static void test_concurrent_cancel(int round)
{
    sp_engine_config cfg = random_config();
    sp_engine *e = start(&cfg);
    poller pl = {.e = e};
    atomic_init(&pl.stop, 0);
    pthread_t th;
    CHECK(pthread_create(&th, NULL, poll_status, &pl) == 0);
    enum { N = 14 };
    tjob t[N];
    int owns[N]; /* the engine frees the witnesses it was given */
    cb_count = 0;
    for (int i = 0; i < N; i++) {
        tjob_make(&t[i], &C1, 1 + sp_rng_u64(&rng) % 3);
        owns[i] = (int)(sp_rng_u64(&rng) & 1);
        CHECK(submit(e, &t[i], i % 3 ? "c1" : "c1-key", (int)(sp_rng_u64(&rng) % 3), NULL, owns[i]) == SP_OK);
        if (sp_rng_u64(&rng) % 3 == 0) { /* cancel now, or a little later */
            if (sp_rng_u64(&rng) & 1)
                usleep((useconds_t)(sp_rng_u64(&rng) % 20000));
            sp_engine_cancel(e, t[i].job);
            t[i].cancelled = 1;
        }
    }
    for (int i = 0; i < N; i++) {
        sp_engine_result r;
        CHECK(sp_engine_await(e, t[i].job, AWAIT_MS, &r) == 1);
        if (!t[i].cancelled)
            check_proofs(&C1, &r, t[i].w, t[i].n, "concurrent");
        else
            CHECKF(r.status == SP_ERR_CANCELLED || r.status == SP_OK, "cancelled job: %s", sp_status_str(r.status));
        if (r.status == SP_OK && t[i].cancelled)
            check_proofs(&C1, &r, t[i].w, t[i].n, "finished before its cancel");
    }
    atomic_store(&pl.stop, 1);
    pthread_join(th, NULL);
    CHECKF(pl.snapshots > 0 && pl.bad == 0, "%d inconsistent snapshots of %d", pl.bad, pl.snapshots);
    CHECKF(wait_callbacks(N) == N, "round %d: %d callbacks for %d jobs", round, cb_count, N);
    for (int i = 0; i < N; i++) {
        sp_engine_job_release(e, t[i].job);
        tjob_free(&t[i]);
    }
    check_idle(e, "concurrent");
    sp_engine_destroy(e);
}

static void test_bad_witness(void)
{
    /* with the circuit: synthesis names the constraint; without it (key
     * only, or checks off): verification catches the proof */
    const char *circs[3] = {"c1", "c1-key", "c1"};
    for (int v = 0; v < 3; v++) {
        sp_engine_config cfg = fx_config();
        cfg.check_witness = v != 2;
        sp_engine *e = start(&cfg);
        tjob t[3];
        for (int i = 0; i < 3; i++)
            tjob_make(&t[i], &C1, 3);
        sp_fr *bad = fx_bad_witness(&C1, t[1].w[1]);
        free(t[1].w[1]);
        t[1].w[1] = bad;
        for (int i = 0; i < 3; i++)
            CHECK(submit(e, &t[i], circs[v], 0, NULL, 0) == SP_OK);
        for (int i = 0; i < 3; i++) {
            sp_engine_result r;
            CHECK(sp_engine_await(e, t[i].job, AWAIT_MS, &r) == 1);
            if (i != 1) {
                check_proofs(&C1, &r, t[i].w, 3, "job next to the bad one");
                continue;
            }
            CHECKF(r.status == SP_ERR_UNSATISFIED, "bad witness: %s", sp_status_str(r.status));
            CHECKF(strstr(r.err, "partition 1") != NULL, "error does not name the partition: %s", r.err);
            CHECK(r.proofs == NULL);
        }
        for (int i = 0; i < 3; i++) {
            sp_engine_job_release(e, t[i].job);
            tjob_free(&t[i]);
        }
        check_idle(e, "bad witness");
        sp_engine_destroy(e);
    }
}

static void test_budget(void)
{
    sp_engine_config cfg = fx_config();
    sp_engine *e = start(&cfg);
    size_t abc, rest;
    CHECK(sp_engine_partition_bytes(e, "c1", &abc, &rest) == SP_OK);
    sp_engine_destroy(e);
    for (int v = 0; v < 4; v++) {
        cfg = fx_config();
        cfg.pinned_pool = v & 1;
        cfg.two_step_release = v >> 1;
        cfg.max_parallel_synthesis = 3;
        cfg.budget_bytes = 2 * (abc + rest) + abc / 2; /* room for two partitions, not three */
        e = start(&cfg);
        enum { N = 5 };
        tjob t[N];
        for (int i = 0; i < N; i++) {
            tjob_make(&t[i], &C1, 2);
            CHECK(submit(e, &t[i], "c1", 0, NULL, 0) == SP_OK);
        }
        for (int i = 0; i < N; i++) {
            sp_engine_result r;
            CHECK(sp_engine_await(e, t[i].job, AWAIT_MS, &r) == 1);
            check_proofs(&C1, &r, t[i].w, 2, "under a tight budget");
            sp_engine_job_release(e, t[i].job);
            tjob_free(&t[i]);
        }
        sp_engine_status st;
        CHECK(sp_engine_status_get(e, &st) == SP_OK);
        CHECKF(st.budget_high_water <= st.budget_total, "high water %zu > budget %zu", st.budget_high_water,
               st.budget_total);
        CHECKF(st.budget_high_water + (abc + rest) > st.budget_total, "the budget never bound: high water %zu of %zu",
               st.budget_high_water, st.budget_total);
        sp_engine_status_free(&st);
        check_idle(e, "budget");
        sp_engine_destroy(e);
    }
    /* warm start: blocks made on request, never beyond the budget, the
     * first jobs then reuse them */
    cfg = fx_config();
    cfg.pool_prefill = 0;
    cfg.budget_bytes = 2 * abc + rest + abc / 2; /* two blocks and one partition's rest */
    e = start(&cfg);
    sp_engine_status st;
    CHECK(sp_engine_status_get(e, &st) == SP_OK && st.pool_buffers == 0);
    sp_engine_status_free(&st);
    CHECK(sp_engine_warm(e, "nope", 2) == 0);
    CHECK(sp_engine_warm(e, "c1", 5) == 2);
    CHECK(sp_engine_status_get(e, &st) == SP_OK && st.pool_buffers == 2 && st.pool_idle_bytes == 2 * abc &&
          st.budget_used == 2 * abc);
    sp_engine_status_free(&st);
    {
        tjob t;
        tjob_make(&t, &C1, 1);
        CHECK(submit(e, &t, "c1", 0, NULL, 0) == SP_OK);
        sp_engine_result r;
        CHECK(sp_engine_await(e, t.job, AWAIT_MS, &r) == 1);
        check_proofs(&C1, &r, t.w, 1, "after a warm start");
        sp_engine_job_release(e, t.job);
        tjob_free(&t);
    }
    check_idle(e, "warm start");
    sp_engine_destroy(e);
    /* a partition larger than the whole budget is refused at once */
    cfg = fx_config();
    cfg.budget_bytes = abc + rest - 1;
    e = start(&cfg);
    tjob t;
    tjob_make(&t, &C1, 1);
    CHECK(submit(e, &t, "c1", 0, NULL, 0) == SP_ERR_NOMEM && t.job == NULL);
    tjob_free(&t);
    sp_engine_destroy(e);
}

static void test_priority(void)
{
    sp_engine_config cfg = fx_config();
    cfg.max_parallel_synthesis = 1;
    cfg.gpu_workers_per_device = 1;
    cfg.finish_workers = 1;
    sp_engine *e = start(&cfg);
    enum { N = 5 };
    tjob t[N];
    sp_engine_pause(e, 1);
    for (int i = 0; i < N; i++) {
        tjob_make(&t[i], &C1, 2);
        CHECK(submit(e, &t[i], "c1", i == N - 1 ? 5 : 0, NULL, 0) == SP_OK); /* the last is urgent */
    }
    sp_engine_pause(e, 0);
    sp_engine_result r[N];
    for (int i = 0; i < N; i++) {
        CHECK(sp_engine_await(e, t[i].job, AWAIT_MS, &r[i]) == 1);
        CHECK(r[i].status == SP_OK);
    }
    for (int i = 0; i < N - 1; i++)
        CHECKF(r[N - 1].done_ms < r[i].done_ms, "urgent job done at %.1f ms, job %d at %.1f ms", r[N - 1].done_ms,
               i, r[i].done_ms);
    for (int i = 1; i < N - 1; i++) /* equal priority: oldest first */
        CHECK(r[i - 1].done_ms <= r[i].done_ms);
    for (int i = 0; i < N; i++) {
        sp_engine_job_release(e, t[i].job);
        tjob_free(&t[i]);
    }
    sp_engine_destroy(e);
}

/* The pool grows only while nothing waits for a device (a new pinned block
 * stalls the device while it is pinned): counted through a backend whose
 * host memory is counted, many partitions at once, no prefill, the blocks
 * alive at once never exceed synthesis workers + GPU workers. */
static atomic_int live_blocks, max_blocks;

static void *count_alloc(sp_backend *be, size_t bytes)
{
    int n = atomic_fetch_add(&live_blocks, 1) + 1, m = atomic_load(&max_blocks);
    while (n > m && !atomic_compare_exchange_weak(&max_blocks, &m, n))
        ;
    return malloc(bytes);
}

static void count_free(sp_backend *be, void *p, size_t bytes)
{
    atomic_fetch_sub(&live_blocks, 1);
    free(p);
}

static sp_status count_open(sp_backend **be, const char *name, int threads, char err[SP_ERR_LEN])
{
    sp_status st = sp_backend_cpu_open(be, threads);
    if (st == SP_OK) {
        (*be)->host_alloc = count_alloc;
        (*be)->host_free = count_free;
    }
    return st;
}

static void test_pool_growth(void)
{
    static const sp_backend_provider counted = {"counted", NULL, count_open, NULL};
    sp_backend_register(&counted);
    sp_engine_config cfg = fx_config();
    cfg.backends = "counted";
    cfg.pool_prefill = 0;
    enum { N = 10, P = 3 };
    sp_engine *e = start(&cfg);
    tjob t[N];
    for (int i = 0; i < N; i++) {
        tjob_make(&t[i], &C1, P);
        CHECK(submit(e, &t[i], i % 2 ? "c1" : "c1-key", 0, NULL, 0) == SP_OK);
    }
    for (int i = 0; i < N; i++) {
        sp_engine_result r;
        CHECK(sp_engine_await(e, t[i].job, AWAIT_MS, &r) == 1);
        check_proofs(&C1, &r, t[i].w, P, "pool growth");
        sp_engine_job_release(e, t[i].job);
        tjob_free(&t[i]);
    }
    int bound = cfg.max_parallel_synthesis + cfg.gpu_workers_per_device;
    CHECKF(atomic_load(&max_blocks) >= 1 && atomic_load(&max_blocks) <= bound,
           "%d a, b, c blocks alive at once for %d partitions (bound %d)", atomic_load(&max_blocks), N * P, bound);
    check_idle(e, "pool growth");
    sp_engine_destroy(e);
    CHECK(atomic_load(&live_blocks) == 0);
}

/* A warm start's blocks are resident before the first synthesis uses
 * them: through a backend whose host memory is fresh anonymous mappings
 * (no page resident until written), mincore after sp_engine_warm. */
static void *mapped_block;
static size_t mapped_bytes;

static void *map_alloc(sp_backend *be, size_t bytes)
{
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    mapped_block = p, mapped_bytes = bytes;
    return p;
}

static void map_free(sp_backend *be, void *p, size_t bytes) { munmap(p, bytes); }

static sp_status map_open(sp_backend **be, const char *name, int threads, char err[SP_ERR_LEN])
{
    sp_status st = sp_backend_cpu_open(be, threads);
    if (st == SP_OK) {
        (*be)->host_alloc = map_alloc;
        (*be)->host_free = map_free;
    }
    return st;
}

/* Pages of [p, p + bytes) resident now. */
static size_t resident_pages(void *p, size_t bytes)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE), n = (bytes + page - 1) / page, k = 0;
    unsigned char *v = malloc(n);
    if (v && mincore(p, bytes, v) == 0)
        for (size_t i = 0; i < n; i++)
            k += v[i] & 1;
    free(v);
    return k;
}

static void test_warm_resident(void)
{
    static const sp_backend_provider mapped = {"mapped", NULL, map_open, NULL};
    sp_backend_register(&mapped);
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    void *fresh = map_alloc(NULL, 8 * page); /* what the test can tell apart */
    CHECK(fresh && resident_pages(fresh, 8 * page) == 0);
    if (fresh)
        map_free(NULL, fresh, 8 * page);
    mapped_block = NULL;
    sp_engine_config cfg = fx_config();
    cfg.backends = "mapped";
    cfg.pool_prefill = 0;
    sp_engine *e = start(&cfg);
    CHECK(sp_engine_warm(e, "c1", 1) == 1);
    size_t pages = (mapped_bytes + page - 1) / page;
    CHECKF(mapped_block && resident_pages(mapped_block, mapped_bytes) == pages,
           "a prefilled block has %zu of %zu pages resident", mapped_block ? resident_pages(mapped_block, mapped_bytes) : 0,
           pages);
    check_idle(e, "warm resident");
    sp_engine_destroy(e);
}

/* Shutdown with work queued and running: every callback runs, nothing
 * leaks (ASan), owned witnesses are freed by the engine. */
/* ---- preemption ----
 * Through a CPU backend whose first device call (the low-priority job's)
 * holds at its first pause point until the urgent job's partition is
 * ready, then keeps passing through the engine's pause point until the
 * urgent call has started (so the urgent call can only start there if the
 * engine suspends the first one), with a 60 s bound. "gated-nopause" is
 * the same backend declared not pausable: the engine must then never give
 * its device to a second call before the first returns. */
static sp_status (*gate_cpu_prove)(sp_backend *, sp_backend_msms *, const sp_backend_proof *, char *);
static atomic_int gate_calls, gate_low_in, gate_high_ready, gate_high_started, gate_low_done, gate_open;
static atomic_int gate_low_done_first; /* the first call had returned when the second began */
static const sp_pause *gate_orig;

static double mono_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Waits until *flag is set, for at most 60 s; returns it. */
static int gate_wait(atomic_int *flag)
{
    for (double dl = mono_s() + 60; !atomic_load(flag) && mono_s() < dl;)
        usleep(1000);
    return atomic_load(flag);
}

static void gate_pause(void *ctx)
{
    (void)ctx;
    if (!atomic_load(&gate_open)) {
        gate_wait(&gate_high_ready);
        for (double dl = mono_s() + 60; !atomic_load(&gate_high_started) && mono_s() < dl;) {
            sp_pause_point(gate_orig);
            usleep(1000);
        }
        atomic_store(&gate_open, 1);
    }
    sp_pause_point(gate_orig);
}

static sp_status gate_prove(sp_backend *be, sp_backend_msms *out, const sp_backend_proof *in, char err[SP_ERR_LEN])
{
    static const sp_pause gate = {gate_pause, NULL};
    if (atomic_fetch_add(&gate_calls, 1) != 0) {
        atomic_store(&gate_low_done_first, atomic_load(&gate_low_done));
        atomic_store(&gate_high_started, 1);
        return gate_cpu_prove(be, out, in, err);
    }
    sp_backend_proof mine = *in;
    gate_orig = in->pause;
    mine.pause = be->pausable ? &gate : NULL;
    atomic_store(&gate_low_in, 1);
    if (!be->pausable) /* no pause points: hold here until the urgent partition is ready */
        gate_wait(&gate_high_ready);
    sp_status st = gate_cpu_prove(be, out, &mine, err);
    atomic_store(&gate_low_done, 1);
    return st;
}

static sp_status gate_open_be(sp_backend **be, const char *name, int threads, char err[SP_ERR_LEN])
{
    sp_status st = sp_backend_cpu_open(be, threads);
    if (st != SP_OK)
        return snprintf(err, SP_ERR_LEN, "no cpu backend"), st;
    gate_cpu_prove = (*be)->prove;
    (*be)->prove = gate_prove;
    (*be)->pausable = strcmp(name, "gated-nopause") != 0;
    return SP_OK;
}

/* The state of the first partition of the job with request id rid
 * (SP_PART_QUEUED when not found). */
static sp_engine_part_state first_part_state(sp_engine *e, const char *rid)
{
    sp_engine_status st;
    sp_engine_part_state s = SP_PART_QUEUED;
    if (sp_engine_status_get(e, &st) != SP_OK)
        return s;
    for (size_t i = 0; i < st.n_jobs; i++)
        if (!strcmp(st.jobs[i].request_id, rid))
            s = st.jobs[i].parts[0].state;
    sp_engine_status_free(&st);
    return s;
}

/* How many TIMELINE lines of the file have event ev and job jN (and,
 * when also is not NULL, contain it too). */
static int tl_count_with(const char *path, const char *ev, uint64_t job, const char *also)
{
    char want[64], line[512];
    snprintf(want, sizeof want, ",%s,j%llu,", ev, (unsigned long long)job);
    FILE *f = fopen(path, "r");
    int n = 0;
    while (f && fgets(line, sizeof line, f))
        n += strstr(line, want) && (!also || strstr(line, also));
    if (f)
        fclose(f);
    return n;
}

static int tl_count(const char *path, const char *ev, uint64_t job) { return tl_count_with(path, ev, job, NULL); }

/* How the urgent job of test_preempt ends. */
enum { URGENT_OK, URGENT_CANCELLED, URGENT_FAILS };

static void test_preempt(int pausable, int urgent)
{
    static const sp_backend_provider gated = {"gated", NULL, gate_open_be, NULL};
    static const sp_backend_provider gated_nopause = {"gated-nopause", NULL, gate_open_be, NULL};
    sp_backend_register(pausable ? &gated : &gated_nopause);
    atomic_store(&gate_calls, 0), atomic_store(&gate_low_in, 0), atomic_store(&gate_high_ready, 0);
    atomic_store(&gate_high_started, 0), atomic_store(&gate_low_done, 0), atomic_store(&gate_open, 0);
    atomic_store(&gate_low_done_first, 0);
    char tl[] = "/tmp/sp_test_preempt_XXXXXX";
    int fd = mkstemp(tl);
    CHECK(fd >= 0);
    close(fd);
    sp_engine_config cfg = fx_config();
    cfg.backends = pausable ? "gated" : "gated-nopause";
    cfg.gpu_workers_per_device = 2;
    cfg.timeline_path = tl;
    sp_engine *e = start(&cfg);
    tjob lo, hi;
    tjob_make(&lo, &C1, 1);
    tjob_make(&hi, &C1, 1);
    if (urgent == URGENT_FAILS) { /* proved from the key alone: only the finish's verification sees it */
        sp_fr *bad = fx_bad_witness(&C1, hi.w[0]);
        free(hi.w[0]);
        hi.w[0] = bad;
    }
    CHECK(submit(e, &lo, "c1", 0, NULL, 0) == SP_OK);
    CHECK(gate_wait(&gate_low_in));
    CHECK(submit(e, &hi, urgent == URGENT_FAILS ? "c1-key" : "c1", 7, "urgent", 0) == SP_OK);
    for (double dl = mono_s() + 60; first_part_state(e, "urgent") < SP_PART_SYNTH_DONE && mono_s() < dl;)
        usleep(1000);
    atomic_store(&gate_high_ready, 1);
    if (urgent == URGENT_CANCELLED && gate_wait(&gate_high_started))
        sp_engine_cancel(e, hi.job); /* while the first call is suspended */
    sp_engine_result rl, rh;
    CHECK(sp_engine_await(e, lo.job, AWAIT_MS, &rl) == 1);
    CHECK(sp_engine_await(e, hi.job, AWAIT_MS, &rh) == 1);
    check_proofs(&C1, &rl, lo.w, 1, pausable ? "preempted" : "not preempted");
    if (urgent == URGENT_OK)
        check_proofs(&C1, &rh, hi.w, 1, pausable ? "preempting" : "urgent, after the call");
    else
        CHECKF(rh.status == (urgent == URGENT_CANCELLED ? SP_ERR_CANCELLED : SP_ERR_UNSATISFIED) ||
                   (urgent == URGENT_CANCELLED && rh.status == SP_OK),
               "urgent job: %s (%s)", sp_status_str(rh.status), rh.err);
    uint64_t sl = rl.job_seq, sh = rh.job_seq;
    if (pausable) {
        CHECK(!atomic_load(&gate_low_done_first));
        CHECKF(urgent != URGENT_OK || rh.done_ms < rl.done_ms, "urgent job done at %.1f ms, the preempted one at %.1f",
               rh.done_ms, rl.done_ms);
        CHECK(tl_count(tl, "PREEMPT", sh) == 1 && tl_count(tl, "DEV_PAUSE", sl) == 1 &&
              tl_count(tl, "DEV_RESUME", sl) == 1);
    } else {
        CHECK(atomic_load(&gate_low_done_first)); /* the urgent call began only after the first returned */
        CHECK(tl_count(tl, "PREEMPT", sh) == 0 && tl_count(tl, "DEV_PAUSE", sl) == 0);
    }
    sp_engine_job_release(e, lo.job);
    sp_engine_job_release(e, hi.job);
    sp_engine_status st;
    CHECK(sp_engine_status_get(e, &st) == SP_OK);
    CHECKF(st.n_devices == 1 && st.devices[0].preemptions == (uint64_t)pausable && st.devices[0].partitions == 2,
           "device status: %llu preemptions, %llu calls", (unsigned long long)st.devices[0].preemptions,
           (unsigned long long)st.devices[0].partitions);
    sp_engine_status_free(&st);
    check_idle(e, "preempt");
    sp_engine_destroy(e);
    CHECK(tl_count(tl, "GPU_END", sl) == 1 && tl_count(tl, "GPU_END", sh) == 1);
    sp_waterfall wf; /* which also refuses a negative stage time */
    char err[SP_ERR_LEN] = "";
    CHECKF(sp_waterfall_read(&wf, tl, err) == SP_OK, "%s", err);
    sp_waterfall_free(&wf);
    unlink(tl);
    tjob_free(&lo);
    tjob_free(&hi);
}

static void test_shutdown(void)
{
    for (int v = 0; v < 2; v++) {
        sp_engine_config cfg = random_config();
        sp_engine *e = start(&cfg);
        enum { N = 10 };
        tjob t[N];
        cb_count = 0;
        for (int i = 0; i < N; i++) {
            tjob_make(&t[i], &C1, 2);
            CHECK(submit(e, &t[i], "c1", 0, NULL, i & 1) == SP_OK);
            if (i == 3)
                sp_engine_job_release(e, t[i].job); /* a handle given back early */
        }
        usleep(v ? 30000 : 0);
        sp_engine_destroy(e);
        CHECKF(wait_callbacks(N) == N, "%d callbacks for %d jobs", cb_count, N);
        for (int i = 0; i < N; i++)
            tjob_free(&t[i]);
    }
}

static void test_api(void)
{
    char err[SP_ERR_LEN] = "";
    sp_engine_config cfg = fx_config();
    cfg.max_jobs = 3;
    cfg.max_partitions = 5;
    sp_engine *e = start(&cfg);
    CHECK(sp_engine_register(e, "c1", &C1.pk, NULL, err) == SP_ERR_INVALID_ARG); /* duplicate id */
    CHECK(sp_engine_register(e, "bad id", &C1.pk, NULL, err) == SP_ERR_INVALID_ARG);
    sp_engine_pause(e, 1);
    tjob a, b, c, x;
    tjob_make(&a, &C1, 2);
    tjob_make(&b, &C1, 2);
    tjob_make(&c, &C1, 2);
    tjob_make(&x, &C1, 1);
    CHECK(submit(e, &a, "c1", 0, "req-1", 0) == SP_OK);
    CHECK(submit(e, &b, "c1", 0, "req-1", 0) == SP_ERR_INVALID_ARG); /* duplicate request id */
    CHECK(submit(e, &b, "nope", 0, NULL, 0) == SP_ERR_INVALID_ARG);  /* unknown circuit */
    sp_engine_job_desc d = {"c1", 1, x.w, C1.pk.n_vars - 1, 0, 0, NULL, NULL, NULL, NULL};
    CHECK(sp_engine_submit(e, &d, &x.job, err) == SP_ERR_INVALID_ARG); /* wrong witness length */
    CHECK(submit(e, &b, "c1", 0, "req-2", 0) == SP_OK);
    CHECK(submit(e, &c, "c1", 0, NULL, 0) == SP_ERR_NOMEM); /* 6 partitions > max_partitions */
    CHECK(submit(e, &x, "c1", 0, NULL, 0) == SP_OK);
    CHECK(submit(e, &c, "c1", 0, NULL, 0) == SP_ERR_NOMEM); /* 4 jobs > max_jobs */
    CHECK(sp_engine_await(e, a.job, 0, NULL) == 0);
    CHECK(sp_engine_await(e, a.job, 20, NULL) == 0);
    sp_engine_status st;
    CHECK(sp_engine_status_get(e, &st) == SP_OK);
    CHECK(st.queued == 5 && st.n_jobs == 3 && st.jobs_submitted == 3);
    CHECK(st.n_jobs == 3 && strcmp(st.jobs[0].request_id, "req-1") == 0 && st.jobs[0].n_partitions == 2 &&
          st.jobs[0].parts[1].state == SP_PART_QUEUED && strcmp(st.jobs[0].circuit_id, "c1") == 0);
    sp_engine_status_free(&st);
    CHECK(sp_engine_unregister(e, "c1", err) == SP_ERR_INVALID_ARG); /* in use */
    sp_engine_cancel(e, a.job);
    sp_engine_result r;
    CHECK(sp_engine_await(e, a.job, 0, &r) == 1 && r.status == SP_ERR_CANCELLED);
    sp_engine_job_release(e, a.job);
    CHECK(submit(e, &c, "c1", 0, "req-1", 0) == SP_OK); /* the id is free again */
    sp_engine_pause(e, 0);
    CHECK(sp_engine_await(e, c.job, AWAIT_MS, &r) == 1);
    check_proofs(&C1, &r, c.w, 2, "after cancel");
    sp_engine_job_release(e, b.job);
    sp_engine_job_release(e, c.job);
    sp_engine_job_release(e, x.job);
    CHECK(sp_engine_unregister(e, "c1", err) == SP_OK);
    CHECK(sp_engine_unregister(e, "c1", err) == SP_ERR_INVALID_ARG);
    sp_engine_destroy(e);
    tjob_free(&a);
    tjob_free(&b);
    tjob_free(&c);
    tjob_free(&x);
    cfg = fx_config();
    cfg.backends = "cpu,nonsense";
    CHECK(sp_engine_create(&e, &sp_synth_curve_ops, &cfg, err) == SP_ERR_UNSUPPORTED && e == NULL);
    cfg = fx_config();
    cfg.gpu_workers_per_device = 0;
    CHECK(sp_engine_create(&e, &sp_synth_curve_ops, &cfg, err) == SP_ERR_INVALID_ARG && e == NULL);
}

/* ---- finish preemption ----
 * One finish worker, one thread: a low-priority job of C2 is finishing
 * (its G2 MSM, hundreds of milliseconds) when an urgent C1 job and
 * another low-priority one are submitted. The urgent one is finished at
 * the running finish's next pause point (FIN_PAUSE, FIN_RESUME, its
 * FINISH_START in lane 1 = finish_workers + 0), the other low one only
 * after the running finish (equal priority does not preempt). Every
 * proof verifies, and the waterfall reads the timeline back. With
 * URGENT_FAILS the urgent job's witness does not satisfy (proved from the
 * key alone, so only its finish's verification sees it): it fails there,
 * inside the preempted finish, and the others are unharmed. */
static void test_finish_preempt(int urgent)
{
    /* The low job's finish must outlast the urgent job's way to its own
     * finish: the one-at-a-time MSM (not the IFMA lanes, about twice as
     * fast) keeps it at hundreds of milliseconds. */
    int ifma = sp_field_use_ifma(0);
    char tl[] = "/tmp/sp_test_finpre_XXXXXX", err[SP_ERR_LEN] = "";
    int fd = mkstemp(tl);
    CHECK(fd >= 0);
    close(fd);
    sp_engine_config cfg = fx_config();
    cfg.finish_workers = 1;
    cfg.g2_on_device = 0;
    cfg.timeline_path = tl;
    sp_engine *e = start(&cfg);
    CHECKF(sp_engine_register(e, "c2", &C2.pk, &C2.cs, err) == SP_OK, "%s", err);
    tjob lo, hi, lo2;
    tjob_make(&lo, &C2, 1);
    tjob_make(&hi, &C1, 1);
    tjob_make(&lo2, &C1, 1);
    if (urgent == URGENT_FAILS) {
        sp_fr *bad = fx_bad_witness(&C1, hi.w[0]);
        free(hi.w[0]);
        hi.w[0] = bad;
    }
    CHECK(submit(e, &lo, "c2", 0, "low", 0) == SP_OK);
    int finishing = 0;
    for (double dl = mono_s() + 60; !finishing && mono_s() < dl;) {
        sp_engine_status st;
        CHECK(sp_engine_status_get(e, &st) == SP_OK);
        finishing = st.finish_busy == 1;
        sp_engine_status_free(&st);
        if (!finishing)
            usleep(500);
    }
    CHECK(finishing);
    CHECK(submit(e, &lo2, "c1", 0, "low2", 0) == SP_OK);
    CHECK(submit(e, &hi, urgent == URGENT_FAILS ? "c1-key" : "c1", 7, "urgent", 0) == SP_OK);
    sp_engine_result rl, rh, rl2;
    CHECK(sp_engine_await(e, lo.job, AWAIT_MS, &rl) == 1);
    CHECK(sp_engine_await(e, hi.job, AWAIT_MS, &rh) == 1);
    CHECK(sp_engine_await(e, lo2.job, AWAIT_MS, &rl2) == 1);
    check_proofs(&C2, &rl, lo.w, 1, "finish preempted");
    if (urgent == URGENT_OK)
        check_proofs(&C1, &rh, hi.w, 1, "finish preempting");
    else
        CHECKF(rh.status == SP_ERR_UNSATISFIED && strstr(rh.err, "does not verify"), "urgent job: %s (%s)",
               sp_status_str(rh.status), rh.err);
    check_proofs(&C1, &rl2, lo2.w, 1, "finish of equal priority");
    CHECKF(rh.done_ms < rl.done_ms && rl.done_ms < rl2.done_ms, "done at: urgent %.1f, low %.1f, low2 %.1f ms",
           rh.done_ms, rl.done_ms, rl2.done_ms);
    sp_engine_status st;
    CHECK(sp_engine_status_get(e, &st) == SP_OK);
    CHECKF(st.finish_preemptions == 1, "%llu finish preemptions", (unsigned long long)st.finish_preemptions);
    sp_engine_status_free(&st);
    uint64_t sl = rl.job_seq, sh = rh.job_seq, sl2 = rl2.job_seq;
    sp_engine_job_release(e, lo.job);
    sp_engine_job_release(e, hi.job);
    sp_engine_job_release(e, lo2.job);
    check_idle(e, "finish preempt");
    sp_engine_destroy(e);
    CHECK(tl_count(tl, "FIN_PAUSE", sl) == 1 && tl_count(tl, "FIN_RESUME", sl) == 1);
    CHECK(tl_count(tl, "FIN_PAUSE", sh) == 0 && tl_count(tl, "FIN_PAUSE", sl2) == 0);
    CHECK(tl_count_with(tl, "FINISH_START", sh, ",fin=1") == 1);
    sp_waterfall wf;
    CHECKF(sp_waterfall_read(&wf, tl, err) == SP_OK, "%s", err);
    const sp_wf_stat *fs = sp_waterfall_stat(&wf, "finish");
    CHECK(fs && fs->count == 3);
    sp_waterfall_free(&wf);
    unlink(tl);
    sp_field_use_ifma(ifma);
    tjob_free(&lo);
    tjob_free(&hi);
    tjob_free(&lo2);
}

int main(void)
{
    sp_test_begin("test_engine", &rng);
    fx_make(&C1, 200, 2, SP_G16_H_SNARKJS, sp_rng_u64(&rng));
    fx_make(&C2, 8000, 2, SP_G16_H_SNARKJS, sp_rng_u64(&rng));
    test_basic();
    test_api();
    test_bad_witness();
    test_budget();
    test_priority();
    test_preempt(1, URGENT_OK);
    test_preempt(1, URGENT_CANCELLED);
    test_preempt(1, URGENT_FAILS);
    test_preempt(0, URGENT_OK);
    test_finish_preempt(URGENT_OK);
    test_finish_preempt(URGENT_FAILS);
    test_pool_growth();
    test_warm_resident();
    int rounds = sp_test_iters(3);
    for (int i = 0; i < rounds; i++)
        test_concurrent_cancel(i);
    test_shutdown();
    fx_free(&C1);
    fx_free(&C2);
    return sp_test_done();
}
