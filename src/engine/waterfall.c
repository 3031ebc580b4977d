/* TIMELINE analysis and the SVG waterfall (waterfall.h). */
#include "engine/waterfall.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* What one partition did, gathered from its events (-1 = not seen). */
typedef struct {
    int job, partition;
    double synth0, synth1, queued, pickup, gpu0, gpu1, fin0, fin1;
    int slot, gpu, worker, fin;
    double paused;     /* ms its device call was suspended for another (DEV_RESUME) */
    double fin_paused; /* ms its finish ran others' first (FIN_RESUME) */
} prec;

typedef struct {
    double submit, done, first_gpu, last_gpu1;
    int status; /* 0 unknown, 1 ok, 2 failed, 3 cancelled */
} jrec;

/* A growing array of durations, one per statistic. */
typedef struct {
    char name[32];
    double *v;
    size_t n, cap;
} series;

typedef struct {
    sp_waterfall *wf;
    prec *p;
    size_t np, capp;
    uint64_t *hkeys;  /* (job, partition) -> index + 1 into p; 0 = empty */
    size_t *hval;
    size_t hcap;
    jrec *j;
    size_t capj;
    series *s;
    size_t ns, caps;
    char bad[64];     /* "key=value" of the last line refused for a value, else "" */
} parser;

/* ---- small growable containers ---- */

static int grow(void **a, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return 0;
    size_t c = *cap ? *cap * 2 : 64;
    while (c < need)
        c *= 2;
    void *n = realloc(*a, c * elem);
    if (!n)
        return -1;
    memset((char *)n + *cap * elem, 0, (c - *cap) * elem);
    *a = n;
    *cap = c;
    return 0;
}

static int series_add(parser *ps, const char *name, double v)
{
    size_t i = 0;
    while (i < ps->ns && strcmp(ps->s[i].name, name) != 0)
        i++;
    if (i == ps->ns) {
        if (grow((void **)&ps->s, &ps->caps, ps->ns + 1, sizeof *ps->s))
            return -1;
        snprintf(ps->s[ps->ns++].name, sizeof ps->s[0].name, "%s", name);
    }
    series *s = &ps->s[i];
    if (grow((void **)&s->v, &s->cap, s->n + 1, sizeof *s->v))
        return -1;
    s->v[s->n++] = v;
    return 0;
}

static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return x;
}

static int rehash(parser *ps)
{
    size_t cap = ps->hcap ? ps->hcap * 2 : 1024;
    uint64_t *k = calloc(cap, sizeof *k);
    size_t *v = calloc(cap, sizeof *v);
    if (!k || !v) {
        free(k);
        free(v);
        return -1;
    }
    for (size_t i = 0; i < ps->hcap; i++) {
        if (!ps->hkeys[i])
            continue;
        size_t h = mix(ps->hkeys[i]) & (cap - 1);
        while (k[h])
            h = (h + 1) & (cap - 1);
        k[h] = ps->hkeys[i];
        v[h] = ps->hval[i];
    }
    free(ps->hkeys);
    free(ps->hval);
    ps->hkeys = k;
    ps->hval = v;
    ps->hcap = cap;
    return 0;
}

/* The record of (job, partition), created on first use; NULL on no memory. */
static prec *record(parser *ps, int job, int partition)
{
    uint64_t key = ((uint64_t)(uint32_t)job << 32 | (uint32_t)partition) + 1;
    if ((ps->np + 1) * 2 > ps->hcap && rehash(ps))
        return NULL;
    size_t h = mix(key) & (ps->hcap - 1);
    while (ps->hkeys[h] && ps->hkeys[h] != key)
        h = (h + 1) & (ps->hcap - 1);
    if (ps->hkeys[h])
        return &ps->p[ps->hval[h] - 1];
    if (grow((void **)&ps->p, &ps->capp, ps->np + 1, sizeof *ps->p))
        return NULL;
    prec *r = &ps->p[ps->np];
    *r = (prec){job, partition, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 0};
    ps->hkeys[h] = key;
    ps->hval[h] = ++ps->np;
    return r;
}

/* Index of job name, added on first sight; -1 on no memory. */
static int job_index(parser *ps, const char *name)
{
    sp_waterfall *wf = ps->wf;
    for (size_t i = wf->n_jobs; i-- > 0;) /* recent jobs first */
        if (strcmp(wf->jobs[i], name) == 0)
            return (int)i;
    if (grow((void **)&ps->j, &ps->capj, wf->n_jobs + 1, sizeof *ps->j))
        return -1;
    size_t cap = ps->capj;
    char(*nj)[32] = realloc(wf->jobs, cap * sizeof *wf->jobs);
    if (!nj)
        return -1;
    wf->jobs = nj;
    snprintf(wf->jobs[wf->n_jobs], sizeof wf->jobs[0], "%s", name);
    ps->j[wf->n_jobs] = (jrec){-1, -1, -1, -1, 0};
    return (int)wf->n_jobs++;
}

/* ---- one line ---- */

typedef struct {
    int partition, slot, gpu, worker, fin;
    double ms, paused_ms;
    char stage[32], status[32];
} detail;

/* -1, with bad = "k=v": a known key's value refused. */
static int bad_value(char *bad, size_t bad_len, const char *k, const char *v)
{
    snprintf(bad, bad_len, "%s=%s", k, v);
    return -1;
}

/* Returns 0, or -1 with bad = "key=value" for a known key with a bad
 * value (bad left "" for a malformed pair). */
static int parse_detail(detail *d, char *s, char *bad, size_t bad_len)
{
    *d = (detail){-1, -1, -1, -1, -1, -1, -1, "", ""};
    for (char *save = NULL, *kv = strtok_r(s, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(kv, '='), *end;
        if (!eq || eq == kv)
            return -1;
        *eq = '\0';
        const char *k = kv, *v = eq + 1;
        long iv = strtol(v, &end, 10);
        int is_int = *v && !*end && iv >= 0 && iv < (1L << 28);
        if (!strcmp(k, "partition") || !strcmp(k, "slot") || !strcmp(k, "gpu") || !strcmp(k, "worker") ||
            !strcmp(k, "fin")) {
            if (!is_int)
                return bad_value(bad, bad_len, k, v);
            int *f = !strcmp(k, "partition") ? &d->partition : !strcmp(k, "slot") ? &d->slot
                     : !strcmp(k, "gpu") ? &d->gpu : !strcmp(k, "worker") ? &d->worker : &d->fin;
            *f = (int)iv;
        } else if (!strcmp(k, "ms") || !strcmp(k, "paused_ms")) {
            double *f = !strcmp(k, "ms") ? &d->ms : &d->paused_ms;
            *f = strtod(v, &end);
            if (!*v || *end || !(*f >= 0))
                return bad_value(bad, bad_len, k, v);
        } else if (!strcmp(k, "stage")) {
            snprintf(d->stage, sizeof d->stage, "%s", v);
        } else if (!strcmp(k, "status")) {
            snprintf(d->status, sizeof d->status, "%s", v);
        }
    }
    return 0;
}

/* Splits "TIMELINE,t,EVENT,job,detail"; returns 0 or -1. */
static int split_line(char *line, double *t, char **ev, char **job, char **det)
{
    char *f[4], *s = line + 9, *end;
    for (int i = 0; i < 3; i++) {
        char *c = strchr(s, ',');
        if (!c)
            return -1;
        *c = '\0';
        f[i] = s;
        s = c + 1;
    }
    f[3] = s;
    *t = strtod(f[0], &end);
    if (!*f[0] || *end || !(*t >= 0) || !*f[1] || !*f[2])
        return -1;
    for (const char *c = f[1]; *c; c++)
        if (!((*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '_'))
            return -1;
    *ev = f[1];
    *job = f[2];
    *det = f[3];
    return 0;
}

/* Records what a partition event says. */
static void on_part_event(prec *r, const char *ev, double t, const detail *d)
{
    if (!strcmp(ev, "SYNTH_START"))
        r->synth0 = t, r->slot = d->slot;
    else if (!strcmp(ev, "SYNTH_END"))
        r->synth1 = t;
    else if (!strcmp(ev, "GPU_QUEUE"))
        r->queued = t;
    else if (!strcmp(ev, "GPU_PICKUP"))
        r->pickup = t, r->gpu = d->gpu, r->worker = d->worker;
    else if (!strcmp(ev, "GPU_START"))
        r->gpu0 = t, r->gpu = d->gpu, r->worker = d->worker;
    else if (!strcmp(ev, "GPU_END"))
        r->gpu1 = t;
    else if (!strcmp(ev, "FINISH_START"))
        r->fin0 = t, r->fin = d->fin;
    else if (!strcmp(ev, "FINISH_END"))
        r->fin1 = t;
    else if (!strcmp(ev, "DEV_RESUME") && d->paused_ms >= 0)
        r->paused += d->paused_ms;
    else if (!strcmp(ev, "FIN_RESUME") && d->paused_ms >= 0)
        r->fin_paused += d->paused_ms;
}

static int on_job_event(parser *ps, int ji, const char *ev, double t, const detail *d)
{
    jrec *j = &ps->j[ji];
    if (!strcmp(ev, "JOB_SUBMIT")) {
        j->submit = t;
    } else if (!strcmp(ev, "JOB_DONE")) {
        j->done = t;
        j->status = !strcmp(d->status, "ok") ? 1 : !strcmp(d->status, "cancelled") ? 3 : 2;
    } else if (!strcmp(ev, "DEV_STAGE") && d->stage[0] && d->ms >= 0) {
        char name[32];
        snprintf(name, sizeof name, "dev:%.27s", d->stage);
        return series_add(ps, name, d->ms);
    }
    return 0;
}

/* Returns 0, -1 (format) or -2 (memory). */
static int parse_line(parser *ps, char *line)
{
    double t;
    char *ev, *jn, *ds;
    detail d;
    ps->bad[0] = '\0';
    if (split_line(line, &t, &ev, &jn, &ds) || parse_detail(&d, ds, ps->bad, sizeof ps->bad))
        return -1;
    sp_waterfall *wf = ps->wf;
    if (!wf->n_lines++ || t < wf->t_first)
        wf->t_first = t;
    if (t > wf->t_last)
        wf->t_last = t;
    if (!strcmp(jn, "-"))
        return 0;
    int ji = job_index(ps, jn);
    if (ji < 0)
        return -2;
    if (d.partition >= 0) {
        prec *r = record(ps, ji, d.partition);
        if (!r)
            return -2;
        on_part_event(r, ev, t, &d);
    }
    return on_job_event(ps, ji, ev, t, &d) ? -2 : 0;
}

/* ---- analysis ---- */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void finish_stat(sp_wf_stat *st, series *s)
{
    snprintf(st->name, sizeof st->name, "%s", s->name);
    st->count = s->n;
    if (!s->n)
        return;
    qsort(s->v, s->n, sizeof *s->v, cmp_double);
    double sum = 0;
    for (size_t i = 0; i < s->n; i++)
        sum += s->v[i];
    st->mean = sum / (double)s->n;
    st->p50 = s->v[(size_t)ceil(0.50 * (double)s->n) - 1]; /* nearest rank */
    st->p95 = s->v[(size_t)ceil(0.95 * (double)s->n) - 1];
    st->max = s->v[s->n - 1];
}

static int lane_of(sp_waterfall *wf, sp_wf_lane_kind kind, int a, int b)
{
    for (size_t i = 0; i < wf->n_lanes; i++)
        if (wf->lanes[i].kind == kind && wf->lanes[i].a == a && wf->lanes[i].b == b)
            return (int)i;
    sp_wf_lane *l = realloc(wf->lanes, (wf->n_lanes + 1) * sizeof *l);
    if (!l)
        return -1;
    wf->lanes = l;
    l = &wf->lanes[wf->n_lanes];
    l->kind = kind;
    l->a = a;
    l->b = b;
    if (kind == SP_WF_SYNTH)
        snprintf(l->name, sizeof l->name, "synth %d", a);
    else if (kind == SP_WF_GPU)
        snprintf(l->name, sizeof l->name, "gpu%d worker %d", a, b);
    else
        snprintf(l->name, sizeof l->name, "finish %d", a);
    return (int)wf->n_lanes++;
}

static int add_bar(sp_waterfall *wf, size_t *cap, sp_wf_lane_kind kind, const prec *r, double t0, double t1)
{
    int a = kind == SP_WF_SYNTH ? r->slot : kind == SP_WF_FINISH ? r->fin : r->gpu;
    int on_gpu = kind == SP_WF_GPU || kind == SP_WF_WAIT; /* a lock wait is drawn in its worker's lane */
    int lane = lane_of(wf, on_gpu ? SP_WF_GPU : kind, a, on_gpu ? r->worker : 0);
    if (lane < 0 || grow((void **)&wf->bars, cap, wf->n_bars + 1, sizeof *wf->bars))
        return -1;
    wf->bars[wf->n_bars++] = (sp_wf_bar){kind, lane, r->job, r->partition, t0, t1};
    return 0;
}

/* Bars and the per-partition statistics. */
static int collect_partitions(parser *ps)
{
    sp_waterfall *wf = ps->wf;
    size_t cap = 0;
    int bad = 0;
    for (size_t i = 0; i < ps->np && !bad; i++) {
        const prec *r = &ps->p[i];
        jrec *j = &ps->j[r->job];
        if (r->synth0 >= 0 && r->synth1 >= 0)
            bad |= add_bar(wf, &cap, SP_WF_SYNTH, r, r->synth0, r->synth1) |
                   series_add(ps, "synth", r->synth1 - r->synth0);
        if (r->queued >= 0 && r->pickup >= 0)
            bad |= series_add(ps, "gpu_queue", r->pickup - r->queued);
        if (r->pickup >= 0 && r->gpu0 >= 0)
            bad |= add_bar(wf, &cap, SP_WF_WAIT, r, r->pickup, r->gpu0) |
                   series_add(ps, "lock_wait", r->gpu0 - r->pickup);
        if (r->gpu0 >= 0 && r->gpu1 >= 0) {
            bad |= add_bar(wf, &cap, SP_WF_GPU, r, r->gpu0, r->gpu1) | series_add(ps, "gpu", r->gpu1 - r->gpu0 - r->paused);
            if (j->first_gpu < 0 || r->gpu0 < j->first_gpu)
                j->first_gpu = r->gpu0;
            if (r->gpu1 > j->last_gpu1)
                j->last_gpu1 = r->gpu1;
        }
        if (r->synth1 >= 0 && r->gpu0 >= 0)
            bad |= series_add(ps, "synth_lead", r->gpu0 - r->synth1);
        if (r->fin0 >= 0 && r->fin1 >= 0)
            bad |= add_bar(wf, &cap, SP_WF_FINISH, r, r->fin0, r->fin1) |
                   series_add(ps, "finish", r->fin1 - r->fin0 - r->fin_paused);
    }
    wf->partitions = ps->np;
    return bad ? -1 : 0;
}

typedef struct {
    double t0, t1;
} span;

static int cmp_span(const void *a, const void *b)
{
    return cmp_double(&((const span *)a)->t0, &((const span *)b)->t0);
}

/* Sorts and merges v in place; returns the merged count. */
static size_t merge(span *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_span);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (m && v[i].t0 <= v[m - 1].t1) {
            if (v[i].t1 > v[m - 1].t1)
                v[m - 1].t1 = v[i].t1;
        } else {
            v[m++] = v[i];
        }
    }
    return m;
}

/* Efficiency, gaps and all-idle holes of device g. */
static void analyze_gpu(const parser *ps, sp_wf_gpu *g, span *busy, span *hold)
{
    size_t nb = 0, nh = 0;
    for (size_t i = 0; i < ps->np; i++) {
        const prec *r = &ps->p[i];
        if (r->gpu != g->gpu || r->gpu0 < 0 || r->gpu1 < 0)
            continue;
        busy[nb++] = (span){r->gpu0, r->gpu1};
        hold[nh++] = (span){r->pickup >= 0 ? r->pickup : r->gpu0, r->gpu1};
    }
    g->calls = nb;
    nb = merge(busy, nb);
    nh = merge(hold, nh);
    for (size_t i = 0; i < nb; i++) {
        g->busy_ms += busy[i].t1 - busy[i].t0;
        if (i) {
            double gap = busy[i].t0 - busy[i - 1].t1;
            int bin = gap < 50 ? 0 : gap <= 500 ? 1 : 2;
            g->gaps[bin]++;
            g->gap_ms[bin] += gap;
        }
    }
    for (size_t i = 1; i < nh; i++) {
        g->all_idle++;
        g->all_idle_ms += hold[i].t0 - hold[i - 1].t1;
    }
    g->span_ms = nb ? busy[nb - 1].t1 - busy[0].t0 : 0;
    g->eff_span = g->span_ms > 0 ? g->busy_ms / g->span_ms : 0;
    double wall = ps->wf->t_last - ps->wf->t_first;
    g->eff_wall = wall > 0 ? g->busy_ms / wall : 0;
}

static int collect_gpus(parser *ps)
{
    sp_waterfall *wf = ps->wf;
    span *busy = malloc((ps->np + 1) * sizeof *busy), *hold = malloc((ps->np + 1) * sizeof *hold);
    int rc = busy && hold ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < ps->np; i++) {
        int g = ps->p[i].gpu;
        if (g < 0 || ps->p[i].gpu0 < 0)
            continue;
        size_t k = 0;
        while (k < wf->n_gpus && wf->gpus[k].gpu != g)
            k++;
        if (k < wf->n_gpus)
            continue;
        sp_wf_gpu *n = realloc(wf->gpus, (wf->n_gpus + 1) * sizeof *n);
        if (!n) {
            rc = -1;
            break;
        }
        wf->gpus = n;
        memset(&n[wf->n_gpus], 0, sizeof *n);
        n[wf->n_gpus].gpu = g;
        analyze_gpu(ps, &n[wf->n_gpus++], busy, hold);
    }
    free(busy);
    free(hold);
    return rc;
}

static int cmp_jobs_by_gpu(const void *a, const void *b)
{
    return cmp_double(&((const jrec *)a)->first_gpu, &((const jrec *)b)->first_gpu);
}

/* Job latencies, outcomes and cross-job transitions. */
static int collect_jobs(parser *ps)
{
    sp_waterfall *wf = ps->wf;
    jrec *order = malloc((wf->n_jobs + 1) * sizeof *order);
    if (!order)
        return -1;
    size_t n = 0;
    int bad = 0;
    for (size_t i = 0; i < wf->n_jobs; i++) {
        const jrec *j = &ps->j[i];
        wf->jobs_done += j->status == 1;
        wf->jobs_failed += j->status == 2;
        wf->jobs_cancelled += j->status == 3;
        if (j->submit >= 0 && j->done >= 0)
            bad |= series_add(ps, "job", j->done - j->submit);
        if (j->first_gpu >= 0)
            order[n++] = *j;
    }
    qsort(order, n, sizeof *order, cmp_jobs_by_gpu);
    wf->transitions = calloc(n + 1, sizeof *wf->transitions);
    bad |= !wf->transitions;
    for (size_t i = 1; !bad && i < n; i++) {
        double t = order[i].first_gpu - order[i - 1].last_gpu1;
        wf->transitions[wf->n_transitions++] = t;
        bad |= series_add(ps, "transition", t);
    }
    free(order);
    return bad ? -1 : 0;
}

static int cmp_lane(const void *a, const void *b)
{
    const sp_wf_lane *x = a, *y = b;
    if (x->kind != y->kind)
        return x->kind < y->kind ? -1 : 1;
    if (x->a != y->a)
        return x->a < y->a ? -1 : 1;
    return (x->b > y->b) - (x->b < y->b);
}

/* Sorts the lanes and renumbers the bars' lane indexes. */
static int sort_lanes(sp_waterfall *wf)
{
    sp_wf_lane *old = malloc((wf->n_lanes + 1) * sizeof *old);
    if (!old)
        return -1;
    memcpy(old, wf->lanes, wf->n_lanes * sizeof *old);
    qsort(wf->lanes, wf->n_lanes, sizeof *wf->lanes, cmp_lane);
    for (size_t b = 0; b < wf->n_bars; b++) {
        const sp_wf_lane *l = &old[wf->bars[b].lane];
        for (size_t i = 0; i < wf->n_lanes; i++)
            if (!cmp_lane(l, &wf->lanes[i]))
                wf->bars[b].lane = (int)i;
    }
    free(old);
    return 0;
}

static int analyze(parser *ps)
{
    sp_waterfall *wf = ps->wf;
    if (collect_partitions(ps) || collect_gpus(ps) || collect_jobs(ps) || sort_lanes(wf))
        return -1;
    static const char *const order[] = {"synth", "gpu_queue", "lock_wait", "gpu", "finish", "synth_lead", "job",
                                        "transition"};
    wf->stats = calloc(ps->ns + 1, sizeof *wf->stats);
    if (!wf->stats)
        return -1;
    for (size_t o = 0; o <= sizeof order / sizeof order[0]; o++) /* fixed rows first, then dev:* */
        for (size_t i = 0; i < ps->ns; i++) {
            int fixed = 0;
            for (size_t k = 0; k < sizeof order / sizeof order[0]; k++)
                fixed |= !strcmp(ps->s[i].name, order[k]);
            if (o < sizeof order / sizeof order[0] ? !strcmp(ps->s[i].name, order[o]) : !fixed)
                finish_stat(&wf->stats[wf->n_stats++], &ps->s[i]);
        }
    return 0;
}

static void parser_free(parser *ps)
{
    free(ps->p);
    free(ps->hkeys);
    free(ps->hval);
    free(ps->j);
    for (size_t i = 0; i < ps->ns; i++)
        free(ps->s[i].v);
    free(ps->s);
}

sp_status sp_waterfall_parse(sp_waterfall *wf, FILE *in, char err[SP_ERR_LEN])
{
    memset(wf, 0, sizeof *wf);
    parser ps = {.wf = wf};
    char *line = NULL;
    size_t cap = 0, lineno = 0;
    sp_status st = SP_OK;
    ssize_t len;
    while (st == SP_OK && (len = getline(&line, &cap, in)) >= 0) {
        lineno++;
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = '\0';
        if (strncmp(line, "TIMELINE,", 9) != 0)
            continue;
        int rc = parse_line(&ps, line);
        if (rc == -1 && ps.bad[0]) {
            snprintf(err, SP_ERR_LEN, "line %zu: %s is not a count or a duration of 0 or more", lineno, ps.bad);
            st = SP_ERR_FORMAT;
        } else if (rc == -1) {
            snprintf(err, SP_ERR_LEN, "line %zu: not a TIMELINE,<ms>,<EVENT>,<job>,<key=value,...> line", lineno);
            st = SP_ERR_FORMAT;
        } else if (rc == -2) {
            st = SP_ERR_NOMEM;
        }
    }
    free(line);
    if (st == SP_OK && analyze(&ps))
        st = SP_ERR_NOMEM;
    if (st == SP_ERR_NOMEM)
        snprintf(err, SP_ERR_LEN, "out of memory reading the timeline");
    parser_free(&ps);
    if (st != SP_OK)
        sp_waterfall_free(wf);
    return st;
}

sp_status sp_waterfall_read(sp_waterfall *wf, const char *path, char err[SP_ERR_LEN])
{
    memset(wf, 0, sizeof *wf);
    FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
    if (!f) {
        snprintf(err, SP_ERR_LEN, "%s: %s", path, strerror(errno));
        return SP_ERR_IO;
    }
    sp_status st = sp_waterfall_parse(wf, f, err);
    if (f != stdin)
        fclose(f);
    return st;
}

const sp_wf_stat *sp_waterfall_stat(const sp_waterfall *wf, const char *name)
{
    for (size_t i = 0; i < wf->n_stats; i++)
        if (!strcmp(wf->stats[i].name, name))
            return &wf->stats[i];
    return NULL;
}

void sp_waterfall_free(sp_waterfall *wf)
{
    free(wf->jobs);
    free(wf->lanes);
    free(wf->bars);
    free(wf->stats);
    free(wf->gpus);
    free(wf->transitions);
    memset(wf, 0, sizeof *wf);
}
