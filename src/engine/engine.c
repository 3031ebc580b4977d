/* The engine's API: configuration, lifecycle, circuits, jobs, status (engine.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "engine/internal.h"

static int cores(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

sp_engine_config sp_engine_config_default(void)
{
    sp_engine_config c;
    memset(&c, 0, sizeof c);
    c.max_parallel_synthesis = 2;
    c.gpu_workers_per_device = 2;
    c.backends = "cpu";
    c.split_msm = 1;
    c.verify_proofs = 1;
    c.check_witness = 1;
    c.serialized_free = 1;
    c.pinned_pool = 1;
    c.bw_throttle = 1;
    c.two_step_release = 1;
    c.pool_prefill = -1;
    c.max_jobs = 1024;
    c.max_partitions = 4096;
    return c;
}

size_t sp_engine_default_budget(void)
{
    const size_t gib = (size_t)1 << 30;
    FILE *f = fopen("/proc/meminfo", "r");
    unsigned long long kb = 0;
    char line[256];
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "MemTotal: %llu kB", &kb) == 1)
            break;
    if (f)
        fclose(f);
    if (!kb)
        return 4 * gib;
    size_t total = (size_t)kb * 1024, margin = total / 10 > gib ? total / 10 : gib;
    return total > 2 * margin ? total - margin : total / 2;
}

const char *sp_engine_part_state_str(sp_engine_part_state s)
{
    static const char *const names[] = {"queued", "synthesizing", "synth_done", "gpu",
                                        "finishing", "done", "failed", "cancelled"};
    return (unsigned)s < sizeof names / sizeof names[0] ? names[s] : "unknown";
}

/* ---- create / destroy ---- */

static sp_status check_config(sp_engine_config *c, char err[SP_ERR_LEN])
{
    const char *bad = NULL;
    if (c->max_parallel_synthesis < 1 || c->max_parallel_synthesis > 256)
        bad = "max_parallel_synthesis must be 1..256";
    else if (c->gpu_workers_per_device < 1 || c->gpu_workers_per_device > 16)
        bad = "gpu_workers_per_device must be 1..16";
    else if (c->synth_threads < 0 || c->finish_threads < 0 || c->finish_workers < 0 || c->backend_threads < 0 ||
             c->synth_threads > 4096 || c->finish_threads > 4096 || c->finish_workers > 256 ||
             c->backend_threads > 4096)
        bad = "synth_threads, finish_threads, backend_threads (0..4096) or finish_workers (0..256) out of range";
    else if (c->max_jobs < 1 || c->max_partitions < 1 || c->max_partitions > ((size_t)1 << 24))
        bad = "max_jobs and max_partitions must be >= 1 (max_partitions <= 2^24)";
    else if (!c->backends || !*c->backends || strlen(c->backends) >= 256)
        bad = "backends must name at least one backend (under 256 characters)";
    if (bad) {
        snprintf(err, SP_ERR_LEN, "engine config: %s", bad);
        return SP_ERR_INVALID_ARG;
    }
    if (!c->budget_bytes)
        c->budget_bytes = sp_engine_default_budget();
    /* Every core for each synthesis: the devices set the pace, so one
     * synthesis usually runs alone and its latency is the partition's;
     * when two overlap they share the cores. */
    if (!c->synth_threads)
        c->synth_threads = cores();
    if (!c->finish_threads)
        c->finish_threads = cores() < 32 ? cores() : 32;
    return SP_OK;
}

/* Opens device e->n_dev as `name`, labelled after the devices before it. */
static sp_status open_device(sp_engine *e, const char *name, char err[SP_ERR_LEN])
{
    if (e->n_dev == SP_ENG_MAX_DEVICES) {
        snprintf(err, SP_ERR_LEN, "engine config: more than %d devices in '%.160s'", SP_ENG_MAX_DEVICES, e->backends);
        return SP_ERR_INVALID_ARG;
    }
    device *d = &e->dev[e->n_dev];
    sp_status st = e->ops->backend_open(&d->be, name, e->cfg.backend_threads, err);
    if (st != SP_OK)
        return st;
    /* Two devices of one name (cpu,cpu; two contexts on one GPU) get
     * distinct labels, so status, metrics and TIMELINE tell them apart. */
    const char *bn = e->ops->backend_name(d->be);
    int same = 0;
    for (size_t i = 0; i < e->n_dev; i++)
        same += !strcmp(e->ops->backend_name(e->dev[i].be), bn);
    if (same)
        snprintf(d->label, sizeof d->label, "%.30s#%d", bn, (same + 1) & 0xff); /* <= 64 devices */
    else
        snprintf(d->label, sizeof d->label, "%.39s", bn);
    atomic_init(&d->stop, 0);
    e->n_dev++;
    return SP_OK;
}

/* Opens one backend per comma-separated name; "prefix:all" opens every
 * device its provider counts (prefix:0 .. prefix:n-1). */
static sp_status open_backends(sp_engine *e, char err[SP_ERR_LEN])
{
    if (!(e->dev = calloc(SP_ENG_MAX_DEVICES, sizeof *e->dev))) {
        snprintf(err, SP_ERR_LEN, "out of memory for the devices");
        return SP_ERR_NOMEM;
    }
    char *list = strdup(e->backends), *save = NULL; /* strtok_r cuts its input */
    if (!list) {
        snprintf(err, SP_ERR_LEN, "out of memory for the backend list");
        return SP_ERR_NOMEM;
    }
    sp_status st = SP_OK;
    for (char *name = strtok_r(list, ",", &save); name && st == SP_OK; name = strtok_r(NULL, ",", &save)) {
        size_t len = strlen(name);
        if (len > 4 && !strcmp(name + len - 4, ":all")) {
            name[len - 4] = 0;
            int n = e->ops->backend_count(name);
            if (n <= 0) {
                snprintf(err, SP_ERR_LEN, "backend '%.60s:all': %s", name, n == 0 ? "no device present"
                         : "unknown backend, or one that cannot count its devices");
                st = n == 0 ? SP_ERR_GPU : SP_ERR_UNSUPPORTED;
            }
            for (int k = 0; k < n && st == SP_OK; k++) {
                char one[80];
                snprintf(one, sizeof one, "%.60s:%d", name, k);
                st = open_device(e, one, err);
            }
        } else {
            st = open_device(e, name, err);
        }
    }
    free(list);
    if (st == SP_OK && !e->n_dev) {
        snprintf(err, SP_ERR_LEN, "engine config: no backend named in '%.160s'", e->backends);
        st = SP_ERR_INVALID_ARG;
    }
    return st;
}

static sp_status alloc_parts(sp_engine *e, char err[SP_ERR_LEN])
{
    e->n_synth = e->cfg.max_parallel_synthesis;
    e->n_gpu = (int)e->n_dev * e->cfg.gpu_workers_per_device;
    e->n_finish = e->cfg.finish_workers ? e->cfg.finish_workers : (int)e->n_dev;
    e->synth = calloc((size_t)e->n_synth, sizeof *e->synth);
    e->gpu = calloc((size_t)e->n_gpu, sizeof *e->gpu);
    e->finish = calloc((size_t)e->n_finish, sizeof *e->finish);
    size_t cap = e->cfg.max_partitions;
    if (!e->synth || !e->gpu || !e->finish || sp_eng_heap_init(&e->dq, cap) || sp_eng_heap_init(&e->gq, cap) ||
        sp_eng_heap_init(&e->fq, cap)) {
        snprintf(err, SP_ERR_LEN, "out of memory for the engine's queues");
        return SP_ERR_NOMEM;
    }
    return SP_OK;
}

static void init_sync(sp_engine *e)
{
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC); /* sp_engine_await's deadline */
    pthread_mutex_init(&e->mu, NULL);
    pthread_cond_init(&e->cv_dispatch, NULL);
    pthread_cond_init(&e->cv_gpu, NULL);
    pthread_cond_init(&e->cv_dev, NULL);
    pthread_cond_init(&e->cv_finish, NULL);
    pthread_cond_init(&e->cv_fin_pause, NULL);
    pthread_cond_init(&e->cv_done, &ca);
    pthread_cond_init(&e->cv_notify, NULL);
    pthread_cond_init(&e->cv_freed, NULL);
    pthread_condattr_destroy(&ca);
}

sp_status sp_engine_create(sp_engine **out, const sp_synth_ops *ops, const sp_engine_config *cfg,
                           char err[SP_ERR_LEN])
{
    *out = NULL;
    sp_engine *e = calloc(1, sizeof *e);
    if (!e) {
        snprintf(err, SP_ERR_LEN, "out of memory for the engine");
        return SP_ERR_NOMEM;
    }
    e->ops = ops;
    e->cfg = cfg ? *cfg : sp_engine_config_default();
    init_sync(e);
    e->t0 = sp_engine_now_ms();
    e->blocked_since = -1;
    atomic_init(&e->throttle, 0);
    atomic_init(&e->yields, 0);
    sp_status st = check_config(&e->cfg, err);
    if (st == SP_OK) {
        snprintf(e->backends, sizeof e->backends, "%s", e->cfg.backends);
        e->cfg.backends = NULL; /* the caller's string is not kept */
        e->cfg.timeline_path = NULL;
        e->budget_total = e->cfg.budget_bytes;
        st = open_backends(e, err);
    }
    if (st == SP_OK && cfg && cfg->timeline_path)
        st = sp_timeline_open(&e->tl, cfg->timeline_path, e->t0, err);
    if (st == SP_OK && (st = sp_freer_create(&e->freer, sp_eng_mem_freed_cb, e)) != SP_OK)
        snprintf(err, SP_ERR_LEN, "cannot start the freeing thread");
    if (st == SP_OK)
        st = alloc_parts(e, err);
    if (st == SP_OK)
        st = sp_eng_sched_start(e, err);
    if (st != SP_OK) {
        sp_engine_destroy(e);
        return st;
    }
    char names[256]; /* the list with '+' between names: ',' separates the detail's fields */
    snprintf(names, sizeof names, "%s", e->backends);
    for (char *c = names; *c; c++)
        if (*c == ',')
            *c = '+';
    sp_timeline_emit(e->tl, "ENGINE_START", 0, "backends=%s,synth=%d,gpu_workers=%d,finish=%d,budget=%zu", names,
                     e->n_synth, e->cfg.gpu_workers_per_device, e->n_finish, e->budget_total);
    *out = e;
    return SP_OK;
}

/* Cancels every job and waits until each has finished. */
static void drain_jobs(sp_engine *e)
{
    trash t = {0};
    pthread_mutex_lock(&e->mu);
    e->closing = 1;
    for (job *j = e->jobs; j; j = j->next)
        sp_eng_sched_abort_job_locked(e, j, SP_ERR_CANCELLED, "the engine shut down", &t);
    pthread_mutex_unlock(&e->mu);
    sp_eng_mem_dispose(e, &t);
    pthread_mutex_lock(&e->mu);
    for (;;) {
        job *j = e->jobs;
        while (j && j->finished)
            j = j->next;
        if (!j)
            break;
        pthread_cond_wait(&e->cv_done, &e->mu);
    }
    pthread_mutex_unlock(&e->mu);
}

static void free_circuit(sp_engine *e, circuit *c)
{
    for (size_t i = 0; i < e->n_dev; i++) {
        if (!(c->dev_mask >> i & 1))
            continue;
        pthread_mutex_lock(&e->mu);
        e->dev[i].keys--;
        sp_eng_dev_take_locked(e, &e->dev[i], e);
        pthread_mutex_unlock(&e->mu);
        e->ops->key_detach(e->dev[i].be, c->sc);
        pthread_mutex_lock(&e->mu);
        sp_eng_dev_give_locked(e, &e->dev[i]);
        pthread_mutex_unlock(&e->mu);
    }
    e->ops->close(c->sc);
    free(c);
}

void sp_engine_destroy(sp_engine *e)
{
    if (!e)
        return;
    if (e->dispatcher_started)
        drain_jobs(e);
    sp_eng_sched_stop(e);
    trash t = {0};
    pthread_mutex_lock(&e->mu);
    while (e->jobs) {
        e->jobs->released = 1;
        e->jobs->pins = 0;
        sp_eng_sched_maybe_free_job_locked(e, e->jobs, &t);
    }
    sp_eng_mem_pool_drain_locked(e, &t);
    pthread_mutex_unlock(&e->mu);
    if (e->n_dev)
        sp_eng_mem_dispose(e, &t);
    sp_freer_destroy(e->freer);
    while (e->circuits) {
        circuit *c = e->circuits;
        e->circuits = c->next;
        free_circuit(e, c);
    }
    for (size_t i = 0; i < e->n_dev; i++)
        e->ops->backend_close(e->dev[i].be);
    sp_timeline_emit(e->tl, "ENGINE_STOP", 0, "jobs=%llu", (unsigned long long)e->c_submitted);
    sp_timeline_close(e->tl);
    sp_eng_heap_free(&e->dq);
    sp_eng_heap_free(&e->gq);
    sp_eng_heap_free(&e->fq);
    free(e->synth);
    free(e->gpu);
    free(e->finish);
    free(e->dev);
    pthread_cond_destroy(&e->cv_dispatch);
    pthread_cond_destroy(&e->cv_gpu);
    pthread_cond_destroy(&e->cv_dev);
    pthread_cond_destroy(&e->cv_finish);
    pthread_cond_destroy(&e->cv_fin_pause);
    pthread_cond_destroy(&e->cv_done);
    pthread_cond_destroy(&e->cv_notify);
    pthread_cond_destroy(&e->cv_freed);
    pthread_mutex_destroy(&e->mu);
    free(e);
}

/* ---- circuits ---- */

static circuit *find_circuit_locked(sp_engine *e, const char *id)
{
    for (circuit *c = e->circuits; c; c = c->next)
        if (strcmp(c->id, id) == 0)
            return c;
    return NULL;
}

static int valid_id(const char *id, size_t max)
{
    size_t n = 0;
    for (; id[n]; n++) {
        char ch = id[n];
        if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '.' ||
              ch == '_' || ch == ':' || ch == '-'))
            return 0;
    }
    return n > 0 && n <= max;
}

/* Attaches c's key to every device that takes it (c->dev_mask). A device
 * that refuses it (a GPU without room or with an error) gets none of the
 * circuit's partitions; only when none takes it does registration fail,
 * with the first refusal's message. Every attempt is a KEY_ATTACH line. */
static sp_status attach_all(sp_engine *e, circuit *c, char err[SP_ERR_LEN])
{
    sp_status first = SP_OK;
    c->dev_mask = 0;
    for (size_t i = 0; i < e->n_dev; i++) {
        device *d = &e->dev[i];
        char why[SP_ERR_LEN] = "";
        pthread_mutex_lock(&e->mu);
        sp_eng_dev_take_locked(e, d, e);
        pthread_mutex_unlock(&e->mu);
        sp_status st = e->ops->key_attach(d->be, c->sc, why);
        pthread_mutex_lock(&e->mu);
        sp_eng_dev_give_locked(e, d);
        pthread_mutex_unlock(&e->mu);
        sp_timeline_emit(e->tl, "KEY_ATTACH", 0, "circuit=%s,gpu=%zu,dev=%s,status=%s", c->id, i, d->label,
                         sp_status_str(st));
        if (st == SP_OK) {
            c->dev_mask |= (uint64_t)1 << i;
            pthread_mutex_lock(&e->mu);
            d->keys++;
            pthread_mutex_unlock(&e->mu);
        } else if (first == SP_OK) {
            first = st;
            snprintf(err, SP_ERR_LEN, "device %s: %.200s", d->label, why);
        }
    }
    if (c->dev_mask)
        err[0] = 0;
    return c->dev_mask ? SP_OK : first;
}

/* Prepares c (ops->open: checks, verifying key, NTT domain, sizes; then
 * the key attached to the devices) without holding mu. */
static sp_status prepare_circuit(sp_engine *e, circuit *c, const sp_g16_pk *pk, const sp_r1cs *cs,
                                 const sp_native_circuit *nat, char err[SP_ERR_LEN])
{
    int bt = e->cfg.backend_threads ? e->cfg.backend_threads : cores();
    sp_status st = e->ops->open(&c->sc, &c->info, pk, cs, nat, bt, bt, e->cfg.finish_threads, err);
    if (st == SP_OK && (st = attach_all(e, c, err)) != SP_OK) {
        e->ops->close(c->sc);
        c->sc = NULL;
    }
    return st;
}

static sp_status register_(sp_engine *e, const char *id, const sp_g16_pk *pk, const sp_r1cs *cs,
                           const sp_native_circuit *nat, char err[SP_ERR_LEN])
{
    if (!id || !valid_id(id, 63) || !pk) {
        snprintf(err, SP_ERR_LEN, "circuit id must be 1 to 63 characters of [A-Za-z0-9._:-], with a key");
        return SP_ERR_INVALID_ARG;
    }
    circuit *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(err, SP_ERR_LEN, "out of memory");
        return SP_ERR_NOMEM;
    }
    snprintf(c->id, sizeof c->id, "%s", id);
    sp_status st = prepare_circuit(e, c, pk, cs, nat, err);
    if (st != SP_OK) {
        free(c);
        return st;
    }
    pthread_mutex_lock(&e->mu);
    int dup = find_circuit_locked(e, id) != NULL;
    if (!dup) {
        c->next = e->circuits;
        e->circuits = c;
    }
    pthread_mutex_unlock(&e->mu);
    if (dup) {
        snprintf(err, SP_ERR_LEN, "a circuit '%s' is already registered", id);
        free_circuit(e, c);
        return SP_ERR_INVALID_ARG;
    }
    if (e->cfg.pool_prefill)
        sp_engine_warm(e, id, e->cfg.pool_prefill);
    return SP_OK;
}

sp_status sp_engine_register(sp_engine *e, const char *id, const sp_g16_pk *pk, const sp_r1cs *cs,
                             char err[SP_ERR_LEN])
{
    return register_(e, id, pk, cs, NULL, err);
}

size_t sp_engine_warm(sp_engine *e, const char *id, int blocks)
{
    pthread_mutex_lock(&e->mu);
    const circuit *c = find_circuit_locked(e, id);
    size_t abc = c ? c->info.abc_bytes : 0, rest = c ? c->info.rest_bytes : 0;
    pthread_mutex_unlock(&e->mu);
    if (!c)
        return 0;
    if (blocks < 0)
        blocks = e->cfg.max_parallel_synthesis + (int)e->n_dev * e->cfg.gpu_workers_per_device;
    size_t made = sp_eng_mem_prefill(e, abc, rest, (size_t)blocks);
    sp_timeline_emit(e->tl, "POOL_PREFILL", 0, "circuit=%s,blocks=%zu,bytes=%zu", id, made, made * abc);
    return made;
}

sp_status sp_engine_register_native(sp_engine *e, const char *id, const sp_g16_pk *pk, const sp_native_circuit *nat,
                                    char err[SP_ERR_LEN])
{
    if (!nat) { /* its witness function and input size: ops->open */
        snprintf(err, SP_ERR_LEN, "a native circuit needs its witness function and input size");
        return SP_ERR_INVALID_ARG;
    }
    return register_(e, id, pk, NULL, nat, err);
}

sp_status sp_engine_unregister(sp_engine *e, const char *id, char err[SP_ERR_LEN])
{
    pthread_mutex_lock(&e->mu);
    circuit **pp = &e->circuits;
    while (*pp && strcmp((*pp)->id, id) != 0)
        pp = &(*pp)->next;
    circuit *c = *pp;
    size_t held = c ? c->held : 0;
    if (c && !held) {
        *pp = c->next; /* no new jobs; released ones may still be finishing a callback */
        while (c->jobs)
            pthread_cond_wait(&e->cv_done, &e->mu);
    }
    pthread_mutex_unlock(&e->mu);
    if (!c || held) {
        snprintf(err, SP_ERR_LEN, c ? "circuit '%s' is used by %zu job(s) not yet released" : "no circuit '%s'", id,
                 held);
        return SP_ERR_INVALID_ARG;
    }
    free_circuit(e, c);
    return SP_OK;
}

sp_status sp_engine_partition_bytes(sp_engine *e, const char *circuit_id, size_t *abc, size_t *rest)
{
    pthread_mutex_lock(&e->mu);
    circuit *c = find_circuit_locked(e, circuit_id);
    if (c) {
        *abc = c->info.abc_bytes;
        *rest = c->info.rest_bytes;
    }
    pthread_mutex_unlock(&e->mu);
    return c ? SP_OK : SP_ERR_INVALID_ARG;
}
