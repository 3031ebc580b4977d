/*
 * The engine's parts: the priority heap against a sorted reference, the
 * freeing thread, synthesis in chunks (sp_synth_abc and
 * sp_synth_abc_from_key (chunk sizes, threads, checks, cancel, throttle),
 * the waterfall on a hand-made timeline whose numbers were worked out by
 * hand, and a real engine timeline: every line parses, and the SVG is
 * well-formed XML with one bar per recorded stage.
 */
#include <math.h>
#include <pthread.h>
#include "engine/internal.h"
#include "engine/waterfall.h"
#include "synth/prover.h"
#include "test_engine.h"

static sp_rng rng;

/* ---- heap ---- */

/* The queue order, written out again: higher priority, older job, lower index. */
static int ref_before(const part *x, const part *y)
{
    if (x->job->priority != y->job->priority)
        return x->job->priority > y->job->priority;
    if (x->job->seq != y->job->seq)
        return x->job->seq < y->job->seq;
    return x->index < y->index;
}

static void test_heap(void)
{
    enum { J = 12, P = 40 };
    static job jobs[J];
    static part parts[P];
    for (int round = 0; round < sp_test_iters(50); round++) {
        part_heap h;
        CHECK(sp_eng_heap_init(&h, P) == SP_OK);
        int in[P] = {0};
        for (int j = 0; j < J; j++) {
            jobs[j].priority = (int)(sp_rng_u64(&rng) % 4) - 1;
            jobs[j].seq = 1 + sp_rng_u64(&rng) % 6; /* ties on purpose */
        }
        for (int i = 0; i < P; i++) {
            parts[i] = (part){.job = &jobs[sp_rng_u64(&rng) % J], .index = (uint32_t)(sp_rng_u64(&rng) % 5)};
            sp_eng_heap_push(&h, &parts[i]);
            in[i] = 1;
            if (sp_rng_u64(&rng) % 4 == 0) { /* remove a random member */
                int k = (int)(sp_rng_u64(&rng) % (uint64_t)(i + 1));
                if (in[k]) {
                    sp_eng_heap_remove(&h, &parts[k]);
                    CHECK(parts[k].heap == NULL);
                    in[k] = 0;
                }
            }
        }
        size_t left = 0;
        for (int i = 0; i < P; i++)
            left += in[i];
        CHECK(h.n == left);
        part *prev = NULL;
        for (part *p; (p = sp_eng_heap_pop(&h));) {
            CHECK(in[p - parts] == 1);
            in[p - parts] = 2;
            if (prev)
                CHECK(!ref_before(p, prev)); /* never better than what came before */
            prev = p;
        }
        for (int i = 0; i < P; i++)
            CHECK(in[i] != 1);
        sp_eng_heap_free(&h);
    }
}

/* ---- freer ---- */

static pthread_mutex_t fr_mu = PTHREAD_MUTEX_INITIALIZER;
static size_t fr_freed, fr_bytes, fr_budget;

static void fr_free(void *ctx, void *p, size_t bytes)
{
    pthread_mutex_lock(&fr_mu);
    fr_freed++;
    fr_bytes += bytes;
    pthread_mutex_unlock(&fr_mu);
    free(p);
}

static void fr_done(void *ctx, size_t budget)
{
    pthread_mutex_lock(&fr_mu);
    fr_budget += budget;
    pthread_mutex_unlock(&fr_mu);
}

static void test_freer(void)
{
    sp_freer *f;
    CHECK(sp_freer_create(&f, fr_done, NULL) == SP_OK);
    size_t n = 200, bytes = 0, budget = 0;
    for (size_t i = 0; i < n; i++) {
        size_t sz = 8 + sp_rng_u64(&rng) % 5000; /* some below a queue node: freed at once */
        bytes += sz;
        budget += i;
        sp_freer_push(f, malloc(sz), sz, i, fr_free, NULL);
    }
    sp_freer_destroy(f); /* drains first */
    CHECK(fr_freed == n && fr_bytes == bytes && fr_budget == budget);
}

/* ---- synthesis in chunks, against the obvious row-by-row product ---- */

/* <row i of m, w> with a multiplication per term (no shortcuts). */
static void ref_dot(sp_fr *out, const sp_csr *m, size_t i, const sp_fr *w)
{
    sp_fr t;
    sp_fr_set_zero(out);
    for (uint64_t k = m->row[i]; k < m->row[i + 1]; k++) {
        sp_fr_mul(&t, &m->val[k], &w[m->col[k]]);
        sp_fr_add(out, out, &t);
    }
}

/* synth.h's layout from the circuit (check: c = C.w) or, with key, from the
 * key's QAP rows (c = a*b); returns the first failing constraint or SIZE_MAX. */
static size_t ref_abc(sp_fr *r, size_t n, const fx_circuit *c, const sp_fr *w, int check, int key)
{
    size_t nc = c->cs.h.n_constraints, npub1 = (size_t)sp_r1cs_n_public(&c->cs.h) + 1, bad = SIZE_MAX;
    for (size_t i = 0; i < n; i++) {
        sp_fr *a = &r[i], *b = &r[n + i], *cc = &r[2 * n + i], ab;
        if (key) {
            ref_dot(a, &c->pk.qap_a, i, w);
            ref_dot(b, &c->pk.qap_b, i, w);
            sp_fr_mul(cc, a, b);
        } else if (i < nc) {
            ref_dot(a, &c->cs.a, i, w);
            ref_dot(b, &c->cs.b, i, w);
            sp_fr_mul(&ab, a, b);
            ref_dot(cc, &c->cs.c, i, w);
            if (!sp_fr_eq(&ab, cc) && bad == SIZE_MAX)
                bad = i;
            if (!check)
                *cc = ab;
        } else {
            if (i - nc < npub1)
                *a = w[i - nc];
            else
                sp_fr_set_zero(a);
            sp_fr_set_zero(b);
            sp_fr_set_zero(cc);
        }
    }
    return bad;
}

static void test_chunked(const fx_circuit *c)
{
    size_t n = c->pk.domain_size, nv = c->pk.n_vars, bad = 0;
    sp_fr *ref = malloc(3 * n * sizeof(sp_fr)), *got = malloc(3 * n * sizeof(sp_fr));
    sp_fr *w = fx_witness(c, &rng), *wb = fx_bad_witness(c, w);
    char err[SP_ERR_LEN];
    static const size_t chunks[] = {1, 7, 64, 0};
    for (int check = 0; check < 2; check++)
        for (int ci = 0; ci < 4; ci++)
            for (int nt = 1; nt <= 3; nt++) {
                sp_synth_ctl ctl = {NULL, NULL, chunks[ci], NULL};
                const sp_synth_ctl *pc = ci == 3 && nt == 1 ? NULL : &ctl; /* NULL: no steering */
                memset(got, 0xa5, 3 * n * sizeof(sp_fr));
                CHECK(ref_abc(ref, n, c, w, check, 0) == SIZE_MAX);
                CHECK(sp_synth_abc(got, got + n, got + 2 * n, n, &c->cs, w, nv, check, nt, pc, NULL, err) == SP_OK);
                CHECKF(memcmp(ref, got, 3 * n * sizeof(sp_fr)) == 0, "chunk %zu threads %d check %d", chunks[ci], nt,
                       check);
                if (check) { /* the same first failing constraint */
                    size_t want = ref_abc(ref, n, c, wb, 1, 0);
                    sp_status s2 = sp_synth_abc(got, got + n, got + 2 * n, n, &c->cs, wb, nv, 1, nt, pc, &bad, err);
                    CHECK(want != SIZE_MAX && s2 == SP_ERR_UNSATISFIED && bad == want);
                    bad = 0;
                    CHECK(sp_synth_check(&c->cs, wb, nv, nt, &bad, err) == SP_ERR_UNSATISFIED && bad == want);
                    CHECK(sp_synth_check(&c->cs, w, nv, nt, &bad, err) == SP_OK);
                }
                ref_abc(ref, n, c, w, 0, 1);
                CHECK(sp_synth_abc_from_key(got, got + n, got + 2 * n, &c->pk, w, nv, nt, pc, err) == SP_OK);
                CHECK(memcmp(ref, got, 3 * n * sizeof(sp_fr)) == 0);
            }
    /* cancel raised: stops; throttle raised: yields and still right */
    atomic_int cancel = 1, throttle = 1;
    atomic_ulong yields = 0;
    sp_synth_ctl ctl = {NULL, &cancel, 16, NULL};
    CHECK(sp_synth_abc(got, got + n, got + 2 * n, n, &c->cs, w, nv, 1, 2, &ctl, NULL, err) == SP_ERR_CANCELLED);
    CHECK(sp_synth_abc_from_key(got, got + n, got + 2 * n, &c->pk, w, nv, 2, &ctl, err) == SP_ERR_CANCELLED);
    sp_synth_ctl thr = {&throttle, NULL, 16, &yields};
    CHECK(sp_synth_abc(got, got + n, got + 2 * n, n, &c->cs, w, nv, 0, 2, &thr, NULL, err) == SP_OK);
    ref_abc(ref, n, c, w, 0, 0);
    CHECK(memcmp(ref, got, 3 * n * sizeof(sp_fr)) == 0);
    CHECK(atomic_load(&yields) >= n / 16);
    CHECK(sp_synth_abc(got, got + n, got + 2 * n, n, &c->cs, w, nv - 1, 0, 2, NULL, NULL, err) == SP_ERR_INVALID_ARG);
    CHECK(sp_synth_abc_from_key(got, got + n, got + 2 * n, &c->pk, w, nv - 1, 2, NULL, err) == SP_ERR_INVALID_ARG);
    free(ref);
    free(got);
    free(w);
    free(wb);
}

/* ---- a tiny XML well-formedness checker ---- */

static const char *xml_name(const char *p)
{
    if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || *p == '_' || *p == ':'))
        return NULL;
    while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_' ||
           *p == ':' || *p == '-' || *p == '.')
        p++;
    return p;
}

/* At '&': returns the end of a valid entity reference, or NULL. */
static const char *xml_entity(const char *p)
{
    static const char *const named[] = {"&amp;", "&lt;", "&gt;", "&quot;", "&apos;"};
    for (int i = 0; i < 5; i++)
        if (!strncmp(p, named[i], strlen(named[i])))
            return p + strlen(named[i]);
    if (p[1] != '#')
        return NULL;
    const char *q = p + 2;
    while ((*q >= '0' && *q <= '9'))
        q++;
    return q > p + 2 && *q == ';' ? q + 1 : NULL;
}

/* At '<name': parses the start tag; returns the end or NULL; sets *empty
 * for "/>" and counts class="bar". */
static const char *xml_start(const char *p, char *name, int *empty, int *bars)
{
    const char *e = xml_name(p + 1);
    if (!e || e - p - 1 >= 32)
        return NULL;
    memcpy(name, p + 1, (size_t)(e - p - 1));
    name[e - p - 1] = '\0';
    for (p = e;;) {
        int ws = 0;
        while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')
            p++, ws = 1;
        if (*p == '>' || (p[0] == '/' && p[1] == '>')) {
            *empty = *p == '/';
            return p + 1 + *empty;
        }
        const char *an = p;
        if (!ws || !(e = xml_name(p)) || *e != '=' || (e[1] != '"' && e[1] != '\''))
            return NULL;
        char q = e[1];
        const char *v = e + 2;
        for (p = v; *p != q;) {
            if (!*p || *p == '<')
                return NULL;
            if (*p != '&')
                p++;
            else if (!(p = xml_entity(p)))
                return NULL;
        }
        if (!strncmp(an, "class=\"bar\"", 11))
            (*bars)++;
        p++;
    }
}

/* Returns 1 when s is one well-formed element (with prolog, comments). */
static int xml_ok(const char *s, int *bars)
{
    char stack[32][32];
    int depth = 0, roots = 0;
    const char *p = s;
    *bars = 0;
    while (*p) {
        if (*p != '<') {
            int blank = *p == ' ' || *p == '\n' || *p == '\t' || *p == '\r';
            if (!depth && !blank)
                return 0; /* text outside the root */
            if (*p != '&')
                p++;
            else if (!(p = xml_entity(p)))
                return 0;
            continue;
        }
        const char *end = NULL;
        if (!strncmp(p, "<?", 2) || !strncmp(p, "<!--", 4)) {
            end = strstr(p, p[1] == '?' ? "?>" : "-->");
            if (!end)
                return 0;
            p = end + (p[1] == '?' ? 2 : 3);
        } else if (p[1] == '/') {
            const char *e = xml_name(p + 2);
            if (!e || *e != '>' || !depth || strncmp(stack[depth - 1], p + 2, (size_t)(e - p - 2)) ||
                stack[depth - 1][e - p - 2])
                return 0;
            depth--;
            p = e + 1;
        } else {
            int empty = 0;
            if (depth == 0 && roots++)
                return 0;
            if (depth >= 32 || !(p = xml_start(p, stack[depth], &empty, bars)))
                return 0;
            depth += !empty;
        }
    }
    return depth == 0 && roots == 1;
}

/* A text file, NUL-terminated (test.h's reader), or NULL. */
static char *slurp(const char *path)
{
    size_t len;
    return (char *)sp_test_slurp(path, &len);
}

static void test_xml_checker(void)
{
    int bars;
    CHECK(xml_ok("<?xml version=\"1.0\"?>\n<a x=\"1\"><b class=\"bar\"/><c>t &amp; &#38;</c></a>\n", &bars) &&
          bars == 1);
    CHECK(!xml_ok("<a><b></a></b>", &bars));
    CHECK(!xml_ok("<a x=1></a>", &bars));
    CHECK(!xml_ok("<a>&nope;</a>", &bars));
    CHECK(!xml_ok("<a></a><b></b>", &bars));
    CHECK(!xml_ok("<a x=\"<\"></a>", &bars));
    CHECK(!xml_ok("<a>", &bars));
}

/* ---- the waterfall on a hand-made timeline ---- */

static const char *const HAND =
    "log line from a daemon, not a TIMELINE\n"
    "TIMELINE,0.000,JOB_SUBMIT,j1,partitions=2,priority=0,circuit=c,request=-\n"
    "TIMELINE,0.000,SYNTH_START,j1,partition=0,slot=0\n"
    "TIMELINE,5.000,SYNTH_START,j1,partition=1,slot=1\n"
    "TIMELINE,10.000,SYNTH_END,j1,partition=0,slot=0,synth_ms=10,status=ok\n"
    "TIMELINE,10.000,GPU_QUEUE,j1,partition=0,depth=1\n"
    "TIMELINE,10.000,GPU_PICKUP,j1,partition=0,gpu=0,worker=0\n"
    "TIMELINE,12.000,GPU_START,j1,partition=0,gpu=0,worker=0,lock_wait_ms=2\n"
    "TIMELINE,14.000,DEV_STAGE,j1,partition=0,gpu=0,worker=0,stage=h,ms=2.000\n"
    "TIMELINE,25.000,SYNTH_END,j1,partition=1,slot=1,synth_ms=20,status=ok\n"
    "TIMELINE,26.000,GPU_QUEUE,j1,partition=1,depth=1\n"
    "TIMELINE,30.000,GPU_PICKUP,j1,partition=1,gpu=0,worker=1\n"
    "TIMELINE,32.000,GPU_END,j1,partition=0,gpu=0,worker=0,gpu_ms=20,status=ok\n"
    "TIMELINE,32.000,FINISH_START,j1,partition=0,fin=0\n"
    "TIMELINE,35.000,FINISH_END,j1,partition=0,fin=0,finish_ms=3,verified=1,status=ok\n"
    "TIMELINE,40.000,GPU_START,j1,partition=1,gpu=0,worker=1,lock_wait_ms=10\n"
    "TIMELINE,50.000,DEV_STAGE,j1,partition=1,gpu=0,worker=1,stage=h,ms=4.000\n"
    "TIMELINE,60.000,GPU_END,j1,partition=1,gpu=0,worker=1,gpu_ms=20,status=ok\n"
    "TIMELINE,60.000,FINISH_START,j1,partition=1,fin=0\n"
    "TIMELINE,66.000,FINISH_END,j1,partition=1,fin=0,finish_ms=6,verified=1,status=ok\n"
    "TIMELINE,66.000,JOB_DONE,j1,status=ok,partitions=2,ms=66\n"
    "TIMELINE,100.000,JOB_SUBMIT,j2,partitions=2,priority=0,circuit=c,request=r-2\n"
    "TIMELINE,100.000,SYNTH_START,j2,partition=0,slot=0\n"
    "TIMELINE,140.000,SYNTH_END,j2,partition=0,slot=0,synth_ms=40,status=ok\n"
    "TIMELINE,150.000,GPU_PICKUP,j2,partition=0,gpu=0,worker=0\n"
    "TIMELINE,160.000,GPU_START,j2,partition=0,gpu=0,worker=0,lock_wait_ms=10\n"
    "TIMELINE,200.000,GPU_END,j2,partition=0,gpu=0,worker=0,gpu_ms=40,status=ok\n"
    "TIMELINE,200.000,FINISH_START,j2,partition=0,fin=0\n"
    "TIMELINE,204.000,FINISH_END,j2,partition=0,fin=0,finish_ms=4,verified=1,status=ok\n"
    "TIMELINE,700.000,SYNTH_START,j2,partition=1,slot=0\n"
    "TIMELINE,790.000,SYNTH_END,j2,partition=1,slot=0,synth_ms=90,status=ok\n"
    "TIMELINE,800.000,GPU_PICKUP,j2,partition=1,gpu=0,worker=1\n"
    "TIMELINE,800.000,GPU_START,j2,partition=1,gpu=0,worker=1,lock_wait_ms=0\n"
    "TIMELINE,850.000,GPU_END,j2,partition=1,gpu=0,worker=1,gpu_ms=50,status=ok\n"
    "TIMELINE,850.000,FINISH_START,j2,partition=1,fin=0\n"
    "TIMELINE,858.000,FINISH_END,j2,partition=1,fin=0,finish_ms=8,verified=1,status=ok\n"
    "TIMELINE,858.000,JOB_DONE,j2,status=ok,partitions=2,ms=758\n";

static int near(double a, double b) { return fabs(a - b) < 1e-9; }

static void check_stat(const sp_waterfall *wf, const char *name, size_t n, double mean, double p50, double p95,
                       double max)
{
    const sp_wf_stat *s = sp_waterfall_stat(wf, name);
    CHECKF(s && s->count == n && near(s->mean, mean) && near(s->p50, p50) && near(s->p95, p95) && near(s->max, max),
           "%s: %zu %g %g %g %g", name, s ? s->count : 0, s ? s->mean : 0, s ? s->p50 : 0, s ? s->p95 : 0,
           s ? s->max : 0);
}

/* A call suspended for 25 ms by one of higher priority (DEV_PAUSE /
 * DEV_RESUME): its gpu time is its token time, 50 - 25 ms. */
static const char *const HAND_PREEMPT =
    "TIMELINE,0.000,JOB_SUBMIT,j1,partitions=1,priority=0,circuit=c,request=-\n"
    "TIMELINE,0.000,GPU_PICKUP,j1,partition=0,gpu=0,worker=0\n"
    "TIMELINE,0.000,GPU_START,j1,partition=0,gpu=0,worker=0,lock_wait_ms=0\n"
    "TIMELINE,5.000,JOB_SUBMIT,j2,partitions=1,priority=9,circuit=c,request=-\n"
    "TIMELINE,8.000,PREEMPT,j2,partition=0,gpu=0,dev=cpu,worker=1,running=j1\n"
    "TIMELINE,8.000,GPU_PICKUP,j2,partition=0,gpu=0,worker=1\n"
    "TIMELINE,10.000,DEV_PAUSE,j1,partition=0,gpu=0,dev=cpu,worker=0,for=j2\n"
    "TIMELINE,10.000,GPU_START,j2,partition=0,gpu=0,worker=1,lock_wait_ms=2\n"
    "TIMELINE,30.000,GPU_END,j2,partition=0,gpu=0,worker=1,gpu_ms=20,status=ok\n"
    "TIMELINE,35.000,DEV_RESUME,j1,partition=0,gpu=0,dev=cpu,worker=0,paused_ms=25.000\n"
    "TIMELINE,50.000,GPU_END,j1,partition=0,gpu=0,worker=0,gpu_ms=25,status=ok\n";

/* sp_waterfall_parse over the text of a timeline. */
static sp_status parse_text(sp_waterfall *wf, const char *text, char err[SP_ERR_LEN])
{
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    sp_status st = sp_waterfall_parse(wf, f, err);
    fclose(f);
    return st;
}

static void test_waterfall_preempt(void)
{
    char err[SP_ERR_LEN] = "";
    sp_waterfall wf;
    CHECKF(parse_text(&wf, HAND_PREEMPT, err) == SP_OK, "%s", err);
    check_stat(&wf, "gpu", 2, 22.5, 20, 25, 25);
    CHECK(wf.n_gpus == 1 && near(wf.gpus[0].busy_ms, 50)); /* the union of the two calls' spans */
    sp_waterfall_free(&wf);
}

static void test_waterfall_hand(void)
{
    char err[SP_ERR_LEN] = "";
    sp_waterfall wf;
    CHECKF(parse_text(&wf, HAND, err) == SP_OK, "%s", err);
    CHECK(wf.n_lines == 36 && wf.n_jobs == 2 && wf.jobs_done == 2 && wf.partitions == 4);
    /* sorted durations: synth 10 20 40 90; gpu 20 20 40 50; lead 2 10 15 20 */
    check_stat(&wf, "synth", 4, 40, 20, 90, 90);
    check_stat(&wf, "gpu", 4, 32.5, 20, 50, 50);
    check_stat(&wf, "synth_lead", 4, 11.75, 10, 20, 20);
    check_stat(&wf, "lock_wait", 4, 5.5, 2, 10, 10);
    check_stat(&wf, "gpu_queue", 2, 2, 0, 4, 4);
    check_stat(&wf, "finish", 4, 5.25, 4, 8, 8);
    check_stat(&wf, "job", 2, 412, 66, 758, 758);
    check_stat(&wf, "dev:h", 2, 3, 2, 4, 4);
    check_stat(&wf, "transition", 1, 100, 100, 100, 100);
    CHECK(wf.n_gpus == 1);
    const sp_wf_gpu *g = &wf.gpus[0];
    /* busy [12,32] [40,60] [160,200] [800,850] = 130 ms; gaps 8, 100, 600 */
    CHECK(g->calls == 4 && near(g->busy_ms, 130) && near(g->span_ms, 838));
    CHECK(near(g->eff_span, 130.0 / 838) && near(g->eff_wall, 130.0 / 858));
    CHECK(g->gaps[0] == 1 && g->gaps[1] == 1 && g->gaps[2] == 1);
    CHECK(near(g->gap_ms[0], 8) && near(g->gap_ms[1], 100) && near(g->gap_ms[2], 600));
    /* held [10,32] [30,60] [150,200] [800,850] -> holes 90 and 600 */
    CHECK(g->all_idle == 2 && near(g->all_idle_ms, 690));
    size_t bars = 0, waits = 0;
    for (size_t i = 0; i < wf.n_bars; i++)
        *(wf.bars[i].kind == SP_WF_WAIT ? &waits : &bars) += 1;
    CHECK(bars == 12 && waits == 4);
    CHECK(wf.n_lanes == 5); /* synth 0, synth 1, gpu0 worker 0, gpu0 worker 1, finish 0 */
    CHECK(wf.lanes[0].kind == SP_WF_SYNTH && wf.lanes[2].kind == SP_WF_GPU && wf.lanes[4].kind == SP_WF_FINISH);
    sp_waterfall_free(&wf);

    static const char *const bad = "TIMELINE,1.0,JOB_SUBMIT,j1,partitions=1\nTIMELINE,abc,SYNTH_START,j1,x=1\n";
    CHECK(parse_text(&wf, bad, err) == SP_ERR_FORMAT && strstr(err, "line 2") != NULL);
    static const char *const bad2 = "TIMELINE,1.0,JOB_SUBMIT,j1,partition\n";
    CHECK(parse_text(&wf, bad2, err) == SP_ERR_FORMAT && strstr(err, "not a TIMELINE"));
    static const char *const bad3 = "TIMELINE,1.0,JOB_SUBMIT,j1,partitions=1\n"
                                    "TIMELINE,2.0,DEV_STAGE,j1,partition=0,gpu=0,worker=0,stage=msm_a,ms=-1.5\n";
    CHECK(parse_text(&wf, bad3, err) == SP_ERR_FORMAT && strstr(err, "line 2: ms=-1.5 is not"));
}

/* ---- a real engine timeline ---- */

/* Counts the TIMELINE lines per event name, reading the format directly. */
static int count_events(const char *text, const char *event, int *bad)
{
    int n = 0;
    for (const char *p = text; *p;) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        char line[1024];
        snprintf(line, sizeof line, "%.*s", (int)(len < 1023 ? len : 1023), p);
        char *f1 = strchr(line, ','), *f2 = f1 ? strchr(f1 + 1, ',') : NULL, *f3 = f2 ? strchr(f2 + 1, ',') : NULL,
             *f4 = f3 ? strchr(f3 + 1, ',') : NULL, *end;
        if (strncmp(line, "TIMELINE,", 9) || !f4 || (strtod(f1 + 1, &end), end != f2))
            (*bad)++;
        else if ((size_t)(f3 - f2 - 1) == strlen(event) && !strncmp(f2 + 1, event, strlen(event)))
            n++;
        p += len + (eol != NULL);
    }
    return n;
}

static void test_engine_timeline(const fx_circuit *c)
{
    char path[] = "/tmp/sp_test_timeline_XXXXXX", svg[64], err[SP_ERR_LEN] = "";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    close(fd);
    snprintf(svg, sizeof svg, "%s.svg", path);
    sp_engine_config cfg = fx_config();
    cfg.timeline_path = path;
    sp_engine *e;
    CHECKF(sp_engine_create(&e, &sp_synth_curve_ops, &cfg, err) == SP_OK, "%s", err);
    CHECKF(sp_engine_register(e, "c", &c->pk, &c->cs, err) == SP_OK, "%s", err);
    enum { J = 4, P = 2 };
    sp_fr *w[J][P];
    sp_engine_job *jobs[J];
    for (int j = 0; j < J; j++) {
        for (int k = 0; k < P; k++)
            w[j][k] = fx_witness(c, &rng);
        sp_engine_job_desc d = {"c", P, w[j], c->pk.n_vars, 1, 0, NULL, NULL, NULL, NULL};
        CHECK(sp_engine_submit(e, &d, &jobs[j], err) == SP_OK);
    }
    for (int j = 0; j < J; j++)
        CHECK(sp_engine_await(e, jobs[j], 120000, NULL) == 1);
    sp_engine_destroy(e);

    char *text = slurp(path);
    CHECK(text != NULL);
    int bad = 0, synth = count_events(text, "SYNTH_END", &bad), gpu = count_events(text, "GPU_END", &bad),
        fin = count_events(text, "FINISH_END", &bad);
    CHECK(bad == 0);
    CHECK(synth == J * P && gpu == J * P && fin == J * P);
    CHECK(count_events(text, "SYNTH_START", &bad) == J * P && count_events(text, "GPU_START", &bad) == J * P);
    CHECK(count_events(text, "JOB_DONE", &bad) == J && count_events(text, "JOB_SUBMIT", &bad) == J);
    /* the CPU backend's stages (groth16/backend.h): scalars, h, msm_h, msm_a, msm_b1, msm_c */
    CHECK(count_events(text, "DEV_STAGE", &bad) == 6 * J * P);
    free(text);

    sp_waterfall wf;
    CHECKF(sp_waterfall_read(&wf, path, err) == SP_OK, "%s", err);
    CHECK(wf.jobs_done == J && wf.partitions == J * P && wf.n_gpus == 1);
    CHECK(wf.gpus[0].eff_span > 0 && wf.gpus[0].eff_span <= 1.0 + 1e-9);
    CHECK(sp_waterfall_stat(&wf, "dev:msm_h") && sp_waterfall_stat(&wf, "dev:msm_h")->count == J * P);
    FILE *out = fopen(svg, "w");
    CHECK(out && sp_waterfall_svg(&wf, out) == SP_OK);
    fclose(out);
    sp_waterfall_free(&wf);
    char *xml = slurp(svg);
    int bars = -1;
    CHECKF(xml && xml_ok(xml, &bars), "the SVG is not well-formed XML");
    CHECKF(bars == synth + gpu + fin, "%d bars for %d stages", bars, synth + gpu + fin);
    free(xml);
    if (system("command -v xmllint >/dev/null 2>&1") == 0) { /* a second opinion where available */
        char cmd[160];
        snprintf(cmd, sizeof cmd, "xmllint --noout %s", svg);
        CHECK(system(cmd) == 0);
    }
    unlink(path);
    unlink(svg);
}

int main(void)
{
    sp_test_begin("test_engine_parts", &rng);
    test_heap();
    test_freer();
    test_xml_checker();
    test_waterfall_hand();
    test_waterfall_preempt();
    fx_circuit c;
    fx_make(&c, 300, 1, SP_G16_H_SNARKJS, sp_rng_u64(&rng));
    test_chunked(&c);
    test_engine_timeline(&c);
    fx_free(&c);
    return sp_test_done();
}
