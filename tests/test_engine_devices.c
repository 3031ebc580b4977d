/*
 * Several devices in one engine: each device has its lock, its
 * workers and its own attached keys; a partition goes to whichever device
 * frees first among those its key is attached to, and never to another.
 *
 * The devices are "probe" backends (a provider registered here): the CPU
 * backend's arithmetic behind bookkeeping that records, per instance,
 * which keys were attached to it and every proof it makes. A proof with a
 * key that is not attached to the instance receiving it, a detach of a
 * key it never had, or two threads inside one instance at once (the
 * device lock not held, or a worker using another device's backend) is
 * counted as a violation: a routing mistake makes this test fail, it does
 * not just go unnoticed. Every proof is verified against its witness.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>
#include "groth16/backend.h"
#include "test_engine.h"

static sp_rng rng;

/* ---- the probe backend ---- */

#define MAX_PROBES 8
#define MAX_KEYS 8

typedef struct {
    sp_backend be;
    char name[16];
    int index;                       /* open order */
    const sp_g16_pk *keys[MAX_KEYS]; /* attached here */
    atomic_int inside;
    atomic_int calls;                /* prove calls (one per partition) */
    sp_backend *cpu;                 /* does the arithmetic */
    int calls_of[MAX_KEYS];          /* per attached-key slot, under probe_mu */
} probe;

static pthread_mutex_t probe_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t probe_cv = PTHREAD_COND_INITIALIZER;
static probe *probes[MAX_PROBES];
static int n_probes;
static atomic_int violations;
static const sp_g16_pk *refuse[MAX_PROBES]; /* instance i refuses this key */
static int gate_on;                         /* see gate() */

static probe *of(sp_backend *be) { return be->impl; }

/* The slot of pk among p's keys, or -1. */
static int slot_of(probe *p, const sp_g16_pk *pk)
{
    for (int i = 0; i < MAX_KEYS; i++)
        if (pk && p->keys[i] == pk)
            return i;
    return -1;
}

static void enter(probe *p)
{
    if (atomic_fetch_add(&p->inside, 1) != 0) {
        atomic_fetch_add(&violations, 1);
        fprintf(stderr, "probe %s: two threads inside at once\n", p->name);
    }
}

static void leave(probe *p) { atomic_fetch_sub(&p->inside, 1); }

static void violation(probe *p, const char *what)
{
    atomic_fetch_add(&violations, 1);
    fprintf(stderr, "probe %s: %s\n", p->name, what);
}

/* Under the gate, each of the first two instances' first call waits (at
 * most 10 s) until the other has begun one: with one device busy, the
 * next partition must go to the free one, not queue behind the busy one. */
static int gate_started[2];

static void gate(probe *p)
{
    pthread_mutex_lock(&probe_mu);
    if (gate_on && p->index < 2) {
        gate_started[p->index] = 1;
        pthread_cond_broadcast(&probe_cv);
        struct timespec dl;
        clock_gettime(CLOCK_REALTIME, &dl);
        dl.tv_sec += 10;
        while (gate_on && !(gate_started[0] && gate_started[1]))
            if (pthread_cond_timedwait(&probe_cv, &probe_mu, &dl) != 0)
                break;
        if (gate_on && !(gate_started[0] && gate_started[1]))
            violation(p, "the other device took no partition while this one was busy");
        gate_on = 0;
        pthread_cond_broadcast(&probe_cv);
    }
    pthread_mutex_unlock(&probe_mu);
}

/* One proof: the CPU's, after checking that its key is attached here
 * (the stage reports go to whoever set the hook on this device). */
static sp_status probe_prove(sp_backend *be, sp_backend_msms *out, const sp_backend_proof *in, char err[SP_ERR_LEN])
{
    probe *p = of(be);
    gate(p);
    enter(p);
    int s = slot_of(p, in->pk);
    if (s < 0)
        violation(p, "a proof with a key not attached here");
    p->cpu->stage_hook = be->stage_hook;
    p->cpu->stage_ctx = be->stage_ctx;
    sp_status st = p->cpu->prove(p->cpu, out, in, err);
    p->cpu->stage_hook = NULL;
    pthread_mutex_lock(&probe_mu);
    if (s >= 0)
        p->calls_of[s]++;
    atomic_fetch_add(&p->calls, 1);
    pthread_cond_broadcast(&probe_cv);
    pthread_mutex_unlock(&probe_mu);
    leave(p);
    return st;
}

static sp_status probe_attach(sp_backend *be, const sp_g16_pk *pk, char err[SP_ERR_LEN])
{
    probe *p = of(be);
    enter(p);
    sp_status st = SP_OK;
    pthread_mutex_lock(&probe_mu);
    if (refuse[p->index] == pk) {
        snprintf(err, SP_ERR_LEN, "probe %s: no room for this key", p->name);
        st = SP_ERR_GPU;
    } else if (slot_of(p, pk) >= 0) {
        violation(p, "a key attached twice");
    } else {
        int s = 0;
        while (s < MAX_KEYS && p->keys[s])
            s++;
        CHECK(s < MAX_KEYS);
        if (s < MAX_KEYS) {
            p->keys[s] = pk;
            p->calls_of[s] = 0;
        }
    }
    pthread_mutex_unlock(&probe_mu);
    leave(p);
    return st;
}

static void probe_detach(sp_backend *be, const sp_g16_pk *pk)
{
    probe *p = of(be);
    enter(p);
    pthread_mutex_lock(&probe_mu);
    int s = slot_of(p, pk);
    if (s < 0)
        violation(p, "detach of a key never attached here");
    else
        p->keys[s] = NULL;
    pthread_mutex_unlock(&probe_mu);
    leave(p);
}

static void probe_memory(sp_backend *be, size_t *resident, size_t *free_bytes) { *resident = *free_bytes = 0; }

static void probe_destroy(sp_backend *be)
{
    pthread_mutex_lock(&probe_mu);
    for (int i = 0; i < n_probes; i++)
        if (probes[i] == of(be)) {
            for (int k = 0; k < MAX_KEYS; k++)
                if (probes[i]->keys[k])
                    violation(probes[i], "closed with a key still attached");
            probes[i] = NULL;
        }
    pthread_mutex_unlock(&probe_mu);
    sp_backend_close(of(be)->cpu);
    free(of(be));
}

static sp_status probe_open(sp_backend **be, const char *name, int threads, char err[SP_ERR_LEN])
{
    probe *p = calloc(1, sizeof *p);
    *be = NULL;
    if (!p || n_probes == MAX_PROBES || sp_backend_cpu_open(&p->cpu, threads) != SP_OK) {
        if (p)
            sp_backend_close(p->cpu);
        free(p);
        snprintf(err, SP_ERR_LEN, "probe: too many");
        return SP_ERR_NOMEM;
    }
    snprintf(p->name, sizeof p->name, "%s", name);
    p->be = (sp_backend){.name = p->name, .impl = p, .threads = threads, .prove = probe_prove,
                         .key_attach = probe_attach, .key_detach = probe_detach, .memory = probe_memory,
                         .destroy = probe_destroy};
    pthread_mutex_lock(&probe_mu);
    p->index = n_probes;
    probes[n_probes++] = p;
    pthread_mutex_unlock(&probe_mu);
    *be = &p->be;
    return SP_OK;
}

static int probe_count(void) { return 2; }

static const sp_backend_provider probe_provider = {"probe", NULL, probe_open, probe_count};

/* Forgets the probes of an engine that was destroyed. */
static void probes_reset(void)
{
    pthread_mutex_lock(&probe_mu);
    n_probes = 0;
    memset(refuse, 0, sizeof refuse);
    gate_on = 0;
    gate_started[0] = gate_started[1] = 0;
    pthread_mutex_unlock(&probe_mu);
}

/* ---- helpers ---- */

typedef struct {
    sp_engine_job *job;
    sp_fr *w[4];
    size_t n;
    const fx_circuit *c;
} tjob;

static void submit(sp_engine *e, tjob *t, const char *id, const fx_circuit *c, size_t n)
{
    char err[SP_ERR_LEN] = "";
    t->c = c;
    t->n = n;
    for (size_t k = 0; k < n; k++)
        t->w[k] = fx_witness(c, &rng);
    sp_engine_job_desc d = {id, n, t->w, c->pk.n_vars, 0, 0, NULL, NULL, NULL, NULL};
    CHECKF(sp_engine_submit(e, &d, &t->job, err) == SP_OK, "%s", err);
}

/* Awaits t, checks every proof against its witness; returns the devices
 * its partitions ran on as a mask (from the status snapshot taken first). */
static unsigned finish(sp_engine *e, tjob *t)
{
    sp_engine_result res;
    unsigned mask = 0;
    CHECK(sp_engine_await(e, t->job, 120000, &res) == 1);
    CHECKF(res.status == SP_OK, "%s", res.err);
    sp_engine_status st;
    CHECK(sp_engine_status_get(e, &st) == SP_OK);
    for (size_t i = 0; i < st.n_jobs; i++)
        if (st.jobs[i].seq == res.job_seq)
            for (size_t k = 0; k < st.jobs[i].n_partitions; k++) {
                int dev = st.jobs[i].parts[k].device;
                CHECK(dev >= 0 && (size_t)dev < st.n_devices);
                mask |= 1u << (dev & 7);
            }
    sp_engine_status_free(&st);
    for (size_t k = 0; res.status == SP_OK && k < t->n; k++)
        CHECKF(fx_verifies(t->c, &res.proofs[k], t->w[k]), "partition %zu does not verify", k);
    sp_engine_job_release(e, t->job);
    for (size_t k = 0; k < t->n; k++)
        free(t->w[k]);
    return mask;
}

static sp_engine_config cfg_for(const char *backends, const char *timeline)
{
    sp_engine_config cfg = fx_config();
    cfg.backends = backends;
    cfg.gpu_workers_per_device = 1;
    cfg.timeline_path = timeline;
    cfg.pool_prefill = 0;
    return cfg;
}

/* A text file, NUL-terminated (test.h's reader), or NULL. */
static char *slurp(const char *path)
{
    size_t len;
    return (char *)sp_test_slurp(path, &len);
}

/* Lines of the timeline text with event ev for job seq that contain needle. */
static int count_lines(const char *text, const char *ev, uint64_t seq, const char *needle)
{
    char head[64];
    int n = 0;
    snprintf(head, sizeof head, ",%s,j%llu,", ev, (unsigned long long)seq);
    for (const char *p = text; (p = strstr(p, head)); p++) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        const char *hit = strstr(p, needle);
        n += hit && hit < p + len;
    }
    return n;
}

/* ---- the tests ---- */

/* A (refused by device 1) runs on device 0 only, B (refused by device 0)
 * on device 1 only, C on both; every device line of the timeline names
 * its device, and status counts each device's keys. */
static void test_routing(const fx_circuit cs[3])
{
    char tl[] = "/tmp/sp_test_devices_XXXXXX", err[SP_ERR_LEN] = "";
    int fd = mkstemp(tl);
    CHECK(fd >= 0);
    close(fd);
    probes_reset();
    sp_engine *e = NULL;
    sp_engine_config cfg = cfg_for("probe:0,probe:1", tl);
    CHECKF(sp_engine_create(&e, &sp_synth_curve_ops, &cfg, err) == SP_OK, "%s", err);
    if (!e)
        return;
    CHECK(n_probes == 2);
    refuse[1] = &cs[0].pk;
    refuse[0] = &cs[1].pk;
    CHECKF(sp_engine_register(e, "A", &cs[0].pk, &cs[0].cs, err) == SP_OK, "%s", err);
    CHECKF(sp_engine_register(e, "B", &cs[1].pk, &cs[1].cs, err) == SP_OK, "%s", err);
    CHECKF(sp_engine_register(e, "C", &cs[2].pk, &cs[2].cs, err) == SP_OK, "%s", err);
    /* a key no device takes cannot be registered; the first refusal says why */
    refuse[0] = refuse[1] = &cs[0].pk;
    CHECK(sp_engine_register(e, "A2", &cs[0].pk, &cs[0].cs, err) == SP_ERR_GPU && strstr(err, "probe:0") &&
          strstr(err, "no room"));

    sp_engine_status st;
    CHECK(sp_engine_status_get(e, &st) == SP_OK);
    CHECK(st.n_devices == 2 && !strcmp(st.devices[0].name, "probe:0") && !strcmp(st.devices[1].name, "probe:1"));
    CHECK(st.devices[0].keys == 2 && st.devices[1].keys == 2);
    sp_engine_status_free(&st);

    enum { J = 4 };
    tjob a[J], b[J], c[J];
    for (int j = 0; j < J; j++) { /* interleaved, so that either device could take any of them */
        submit(e, &a[j], "A", &cs[0], 2);
        submit(e, &b[j], "B", &cs[1], 2);
        submit(e, &c[j], "C", &cs[2], 1);
    }
    uint64_t seq_a = 0, seq_b = 0;
    unsigned ma = 0, mb = 0;
    for (int j = 0; j < J; j++) {
        sp_engine_result r;
        CHECK(sp_engine_await(e, a[j].job, 120000, &r) == 1);
        seq_a = j == 0 ? r.job_seq : seq_a;
        CHECK(sp_engine_await(e, b[j].job, 120000, &r) == 1);
        seq_b = j == 0 ? r.job_seq : seq_b;
        ma |= finish(e, &a[j]);
        mb |= finish(e, &b[j]);
        finish(e, &c[j]);
    }
    CHECKF(ma == 1u, "A ran on devices %#x", ma);
    CHECKF(mb == 2u, "B ran on devices %#x", mb);
    pthread_mutex_lock(&probe_mu);
    int a0 = probes[0]->calls_of[slot_of(probes[0], &cs[0].pk)], b1 = probes[1]->calls_of[slot_of(probes[1], &cs[1].pk)];
    CHECK(slot_of(probes[1], &cs[0].pk) < 0 && slot_of(probes[0], &cs[1].pk) < 0);
    pthread_mutex_unlock(&probe_mu);
    CHECKF(a0 == 2 * J && b1 == 2 * J, "A on device 0: %d, B on device 1: %d", a0, b1);
    CHECKF(sp_engine_unregister(e, "A", err) == SP_OK, "%s", err); /* detaches from device 0 only */
    sp_engine_destroy(e);

    char *text = slurp(tl);
    CHECK(text != NULL);
    if (text) {
        CHECK(count_lines(text, "GPU_START", seq_a, "gpu=0,dev=probe:0,") == 2);
        CHECK(count_lines(text, "GPU_END", seq_b, "gpu=1,dev=probe:1,") == 2);
        CHECK(count_lines(text, "DEV_STAGE", seq_a, "dev=probe:1") == 0);
        CHECK(strstr(text, "KEY_ATTACH,-,circuit=A,gpu=1,dev=probe:1,status=") &&
              !strstr(text, "KEY_ATTACH,-,circuit=A,gpu=1,dev=probe:1,status=ok"));
        CHECK(strstr(text, "KEY_ATTACH,-,circuit=C,gpu=1,dev=probe:1,status=ok") != NULL);
    }
    free(text);
    unlink(tl);
    CHECKF(atomic_load(&violations) == 0, "%d routing violations", atomic_load(&violations));
}

/* While device 0 is held busy, device 1 takes the next partitions. */
static void test_free_device_first(const fx_circuit *c)
{
    char err[SP_ERR_LEN] = "";
    probes_reset();
    sp_engine *e = NULL;
    sp_engine_config cfg = cfg_for("probe:all", NULL);
    CHECKF(sp_engine_create(&e, &sp_synth_curve_ops, &cfg, err) == SP_OK, "%s", err);
    if (!e)
        return;
    CHECK(n_probes == 2 && !strcmp(probes[0]->name, "probe:0") && !strcmp(probes[1]->name, "probe:1"));
    CHECKF(sp_engine_register(e, "c", &c->pk, &c->cs, err) == SP_OK, "%s", err);
    pthread_mutex_lock(&probe_mu);
    gate_on = 1;
    pthread_mutex_unlock(&probe_mu);
    tjob t;
    submit(e, &t, "c", c, 4);
    unsigned m = finish(e, &t);
    CHECKF(m == 3u, "the job ran on devices %#x", m);
    CHECK(atomic_load(&probes[0]->calls) + atomic_load(&probes[1]->calls) == 4);
    sp_engine_destroy(e);
    CHECKF(atomic_load(&violations) == 0, "%d violations", atomic_load(&violations));
}

/* Two CPU devices (cpu,cpu and named ones): distinct labels, all proofs
 * verify, the partitions are counted once across the devices. */
static void test_cpu_pair(const fx_circuit *c, const char *backends, const char *name0, const char *name1)
{
    char err[SP_ERR_LEN] = "";
    sp_engine *e = NULL;
    sp_engine_config cfg = cfg_for(backends, NULL);
    CHECKF(sp_engine_create(&e, &sp_synth_curve_ops, &cfg, err) == SP_OK, "%s: %s", backends, err);
    if (!e)
        return;
    CHECKF(sp_engine_register(e, "c", &c->pk, &c->cs, err) == SP_OK, "%s", err);
    tjob t[3];
    for (int j = 0; j < 3; j++)
        submit(e, &t[j], "c", c, 2);
    for (int j = 0; j < 3; j++)
        finish(e, &t[j]);
    sp_engine_status st;
    CHECK(sp_engine_status_get(e, &st) == SP_OK);
    CHECK(st.n_devices == 2);
    if (st.n_devices == 2) {
        CHECKF(!strcmp(st.devices[0].name, name0) && !strcmp(st.devices[1].name, name1), "%s: %s, %s", backends,
               st.devices[0].name, st.devices[1].name);
        CHECK(st.devices[0].partitions + st.devices[1].partitions == 6);
        CHECK(st.devices[0].keys == 1 && st.devices[1].keys == 1);
    }
    sp_engine_status_free(&st);
    sp_engine_destroy(e);
}

static void test_bad_lists(void)
{
    char err[SP_ERR_LEN] = "";
    sp_engine *e = NULL;
    sp_engine_config cfg = cfg_for("nope:all", NULL);
    CHECK(sp_engine_create(&e, &sp_synth_curve_ops, &cfg, err) == SP_ERR_UNSUPPORTED && e == NULL &&
          strstr(err, "nope:all"));
    cfg.backends = "cpu,cpu:x";
    CHECK(sp_engine_create(&e, &sp_synth_curve_ops, &cfg, err) == SP_ERR_UNSUPPORTED && e == NULL &&
          strstr(err, "cpu:x"));
    cfg.backends = "cpu:all";
    CHECKF(sp_engine_create(&e, &sp_synth_curve_ops, &cfg, err) == SP_OK, "%s", err);
    sp_engine_status st;
    CHECK(e && sp_engine_status_get(e, &st) == SP_OK);
    CHECK(st.n_devices == 1 && !strcmp(st.devices[0].name, "cpu:0"));
    sp_engine_status_free(&st);
    sp_engine_destroy(e);
}

int main(void)
{
    sp_test_begin("test_engine_devices", &rng);
    sp_backend_register(&probe_provider);
    fx_circuit cs[3];
    for (int i = 0; i < 3; i++)
        fx_make(&cs[i], 40 + 8 * i, 1 + i, SP_G16_H_SNARKJS, sp_rng_u64(&rng));
    test_routing(cs);
    test_free_device_first(&cs[2]);
    test_cpu_pair(&cs[0], "cpu,cpu", "cpu", "cpu#2");
    test_cpu_pair(&cs[1], "cpu:0,cpu:1", "cpu:0", "cpu:1");
    test_bad_lists();
    for (int i = 0; i < 3; i++)
        fx_free(&cs[i]);
    return sp_test_done();
}
