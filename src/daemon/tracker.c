/*
 * The TIMELINE reader (services.h). The engine writes its TIMELINE
 * (engine.h) into a pipe the daemon made; one thread reads it line by
 * line and keeps: each job's stage times (the timings of its result),
 * duration histograms per stage (/metrics), and a ring of the most recent
 * partition bars per worker lane (the status page's waterfall). When the
 * configuration names a timeline file, every line is copied there too.
 * The engine writes the lines under its own lock, so this thread never
 * blocks on anything but its own short mutex.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "daemon/services.h"
#include "util/buf.h"
#include "daemon/log.h"

static const double bucket_le_[SP_DMN_TRK_BUCKETS] = {0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1,
                                                  2.5,   5,    10,    30,   60,  120,  300, 600};

/* Value of key in a "k=v,k=v" detail, copied into out; 1 when present. */
static int detail(const char *d, const char *key, char *out, size_t out_len)
{
    size_t kl = strlen(key);
    for (const char *p = d; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL) {
        if (!strncmp(p, key, kl) && p[kl] == '=') {
            size_t n = strcspn(p + kl + 1, ",");
            snprintf(out, out_len, "%.*s", (int)n, p + kl + 1);
            return 1;
        }
    }
    return 0;
}

static long detail_l(const char *d, const char *key, long def)
{
    char v[32];
    return detail(d, key, v, sizeof v) ? atol(v) : def;
}

static double detail_f(const char *d, const char *key)
{
    char v[32];
    return detail(d, key, v, sizeof v) ? atof(v) : 0;
}

static void hist_add(dtracker *t, sp_dmn_stage s, double ms)
{
    double sec = ms / 1e3;
    int b = 0;
    while (b < SP_DMN_TRK_BUCKETS && sec > bucket_le_[b])
        b++;
    t->hist[s][b]++;
    t->hist_sum[s] += sec;
    t->hist_count[s]++;
}

static int lane_of(const dtracker *t, int kind, long a, long b)
{
    int ns = t->n_synth > 0 ? t->n_synth : 1, ng = t->n_gpu_workers > 0 ? t->n_gpu_workers : 1;
    int nd = t->n_dev > 0 ? t->n_dev : 1;
    if (kind == 0)
        return (int)(a < ns ? a : ns - 1);
    if (kind == 1 || kind == 2)
        return ns + (int)((a < nd ? a : nd - 1) * ng + (b < ng ? b : ng - 1));
    return ns + nd * ng + (int)a;
}

static void bar_open(dtracker *t, uint64_t seq, uint32_t part, int kind, int lane, double t0)
{
    trk_bar *b = &t->bars[t->bar_next++ % SP_DMN_TRK_BARS];
    const trk_job *tj = &t->jobs[seq % SP_DMN_TRK_DONE];
    *b = (trk_bar){seq, part, kind, lane, t0, -1, "", 0, ""};
    snprintf(b->job, sizeof b->job, "%s", tj->seq == seq ? tj->job : "?");
}

/* The open bar (seq, part, kind), or NULL. */
static trk_bar *bar_find(dtracker *t, uint64_t seq, uint32_t part, int kind)
{
    for (size_t i = 0; i < SP_DMN_TRK_BARS; i++) {
        trk_bar *b = &t->bars[i];
        if (b->t1 < 0 && b->seq == seq && b->part == part && b->kind == kind)
            return b;
    }
    return NULL;
}

/* Closes the open bar (seq, part, kind); kind -1 closes every kind. */
static void bar_close(dtracker *t, uint64_t seq, long part, int kind, double t1)
{
    for (size_t i = 0; i < SP_DMN_TRK_BARS; i++) {
        trk_bar *b = &t->bars[i];
        if (b->t1 < 0 && b->seq == seq && (part < 0 || b->part == (uint32_t)part) && (kind < 0 || b->kind == kind))
            b->t1 = t1;
    }
}

/* Lane counts; the device count comes from the engine's status (server.c). */
static void on_engine_start(dtracker *t, const char *det)
{
    t->n_synth = (int)detail_l(det, "synth", 1);
    t->n_gpu_workers = (int)detail_l(det, "gpu_workers", 1);
    t->n_finish = (int)detail_l(det, "finish", 1);
}

/* A backend's step of a running device call (DEV_STAGE): counted on its bar. */
static void on_device_step(dtracker *t, uint64_t seq, long part, const char *det)
{
    char step[24];
    trk_bar *b = bar_find(t, seq, (uint32_t)part, 2);
    if (!b || !detail(det, "stage", step, sizeof step) || t->side_stage(step))
        return;
    b->steps++;
    snprintf(b->step, sizeof b->step, "%s", step);
}

/* One job event; msg gets the log line it is worth ("" for none), written
 * once the tracker's lock is released. */
static void on_job_event(dtracker *t, const char *ev, uint64_t seq, double ts, const char *det, char *msg, size_t msg_len)
{
    trk_job *tj = &t->jobs[seq % SP_DMN_TRK_DONE];
    long part = detail_l(det, "partition", -1);
    if (!strcmp(ev, "JOB_SUBMIT")) {
        memset(tj, 0, sizeof *tj);
        tj->seq = seq;
        tj->t_submit = ts;
        tj->n_parts = (size_t)detail_l(det, "partitions", 0);
        detail(det, "request", tj->job, sizeof tj->job);
        return;
    }
    int known = tj->seq == seq;
    if (!strcmp(ev, "SYNTH_START")) {
        bar_open(t, seq, (uint32_t)part, 0, lane_of(t, 0, detail_l(det, "slot", 0), 0), ts);
        if (known && tj->t_first_synth == 0) {
            tj->t_first_synth = ts;
            snprintf(msg, msg_len, "job %s: started (%zu partition%s; %.0f ms in the queue)", tj->job, tj->n_parts,
                     tj->n_parts == 1 ? "" : "s", ts - tj->t_submit);
        }
    } else if (!strcmp(ev, "DEV_STAGE")) {
        on_device_step(t, seq, part, det);
    } else if (!strcmp(ev, "SYNTH_END")) {
        bar_close(t, seq, part, 0, ts);
        double ms = detail_f(det, "synth_ms");
        hist_add(t, SP_DMN_STAGE_SYNTH, ms);
        tj->synth_ms += known ? ms : 0;
    } else if (!strcmp(ev, "GPU_PICKUP")) {
        bar_open(t, seq, (uint32_t)part, 1, lane_of(t, 1, detail_l(det, "gpu", 0), detail_l(det, "worker", 0)), ts);
    } else if (!strcmp(ev, "GPU_START")) {
        bar_close(t, seq, part, 1, ts);
        bar_open(t, seq, (uint32_t)part, 2, lane_of(t, 2, detail_l(det, "gpu", 0), detail_l(det, "worker", 0)), ts);
    } else if (!strcmp(ev, "GPU_END")) {
        const trk_bar *b = bar_find(t, seq, (uint32_t)part, 2);
        if (b && b->steps)
            t->steps_per_call = b->steps;
        bar_close(t, seq, part, 2, ts);
        double ms = detail_f(det, "gpu_ms");
        hist_add(t, SP_DMN_STAGE_GPU, ms);
        tj->gpu_ms += known ? ms : 0;
    } else if (!strcmp(ev, "FINISH_START")) {
        bar_open(t, seq, (uint32_t)part, 3, lane_of(t, 3, detail_l(det, "fin", 0), 0), ts);
    } else if (!strcmp(ev, "FINISH_END")) {
        bar_close(t, seq, part, 3, ts);
        double ms = detail_f(det, "finish_ms");
        hist_add(t, SP_DMN_STAGE_FINISH, ms);
        tj->finish_ms += known ? ms : 0;
        tj->n_proved += known;
        if (known && tj->n_parts > 1) /* one partition: the job's own line says it */
            snprintf(msg, msg_len, "job %s: partition %ld proved (%zu of %zu)", tj->job, part, tj->n_proved, tj->n_parts);
    } else if (!strcmp(ev, "PART_FAIL")) {
        bar_close(t, seq, part, -1, ts);
    } else if (!strcmp(ev, "JOB_DONE")) {
        bar_close(t, seq, -1, -1, ts);
        if (known) {
            tj->t_done = ts;
            tj->done = 1;
            hist_add(t, SP_DMN_STAGE_QUEUE, (tj->t_first_synth ? tj->t_first_synth : ts) - tj->t_submit);
            hist_add(t, SP_DMN_STAGE_TOTAL, ts - tj->t_submit);
        }
        pthread_cond_broadcast(&t->cv);
    }
}

/* One TIMELINE line (NUL-terminated, no newline). */
static void on_line(dtracker *t, char *line)
{
    if (strncmp(line, "TIMELINE,", 9))
        return;
    char *f[4] = {NULL};
    char *p = line + 9;
    for (int k = 0; k < 3; k++) { /* t, event, job; the rest is the detail */
        f[k] = p;
        p = strchr(p, ',');
        if (!p)
            return;
        *p++ = 0;
    }
    f[3] = p;
    double ts = atof(f[0]);
    char msg[256] = "";
    pthread_mutex_lock(&t->mu);
    t->lines++;
    if (!strcmp(f[1], "ENGINE_START"))
        on_engine_start(t, f[3]);
    else if (f[2][0] == 'j')
        on_job_event(t, f[1], strtoull(f[2] + 1, NULL, 10), ts, f[3], msg, sizeof msg);
    pthread_mutex_unlock(&t->mu);
    if (msg[0])
        SP_DMN_LOGI("%s", msg);
}

static void *reader(void *arg)
{
    sp_dmn *d = arg;
    dtracker *t = &d->trk;
    char buf[65536];
    size_t have = 0;
    for (;;) {
        ssize_t k = read(t->fd, buf + have, sizeof buf - 1 - have);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break; /* the engine closed its end */
        if (t->tee) {
            fwrite(buf + have, 1, (size_t)k, t->tee);
            fflush(t->tee);
        }
        have += (size_t)k;
        buf[have] = 0;
        char *start = buf, *nl;
        while ((nl = memchr(start, '\n', have - (size_t)(start - buf)))) {
            *nl = 0;
            on_line(t, start);
            start = nl + 1;
        }
        have -= (size_t)(start - buf);
        memmove(buf, start, have);
        if (have == sizeof buf - 1)
            have = 0; /* a line longer than the buffer: not ours, drop it */
    }
    return NULL;
}

sp_status sp_dmn_trk_open(sp_dmn *d, char *path_out, size_t path_len, char err[SP_ERR_LEN])
{
    dtracker *t = &d->trk;
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) {
        snprintf(err, SP_ERR_LEN, "pipe: %s", strerror(errno));
        return SP_ERR_IO;
    }
    fcntl(fds[1], F_SETPIPE_SZ, 1 << 20); /* room for bursts; best effort */
    t->fd = fds[0];
    t->wfd = fds[1];
    snprintf(path_out, path_len, "/proc/self/fd/%d", fds[1]);
    const char *tl = d->cfg.timeline;
    if (*tl) {
        t->tee = !strcmp(tl, "-") ? stderr : fopen(tl, "w");
        if (!t->tee) {
            snprintf(err, SP_ERR_LEN, "timeline %.200s: %s", tl, strerror(errno));
            return SP_ERR_IO;
        }
    }
    return SP_OK;
}

sp_status sp_dmn_trk_start(sp_dmn *d, char err[SP_ERR_LEN])
{
    dtracker *t = &d->trk;
    t->side_stage = d->ops->backend_side_stage;
    close(t->wfd); /* the engine holds its own descriptor of the pipe now */
    t->wfd = -1;
    int rc = pthread_create(&t->thread, NULL, reader, d);
    if (rc) {
        snprintf(err, SP_ERR_LEN, "cannot start the timeline reader: %s", strerror(rc));
        return SP_ERR_NOMEM;
    }
    t->running = 1;
    return SP_OK;
}

void sp_dmn_trk_stop(sp_dmn *d)
{
    dtracker *t = &d->trk;
    if (t->wfd >= 0)
        close(t->wfd);
    t->wfd = -1;
    if (t->running)
        pthread_join(t->thread, NULL);
    t->running = 0;
    if (t->fd >= 0)
        close(t->fd);
    t->fd = -1;
    if (t->tee && t->tee != stderr)
        fclose(t->tee);
    t->tee = NULL;
}

int sp_dmn_trk_job_timings(sp_dmn *d, uint64_t seq, long wait_ms, double out[SP_DMN_STAGE_N])
{
    dtracker *t = &d->trk;
    const trk_job *tj = &t->jobs[seq % SP_DMN_TRK_DONE];
    double deadline = sp_dmn_wire_now_ms() + (double)wait_ms;
    pthread_mutex_lock(&t->mu);
    while (!(tj->seq == seq && tj->done) && t->running) {
        double left = deadline - sp_dmn_wire_now_ms();
        if (left <= 0)
            break;
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        long ns = ts.tv_nsec + (long)(left > 50 ? 50 : left) * 1000000L; /* re-check at least every 50 ms */
        ts.tv_sec += ns / 1000000000L;
        ts.tv_nsec = ns % 1000000000L;
        pthread_cond_timedwait(&t->cv, &t->mu, &ts);
    }
    int known = tj->seq == seq && tj->done;
    if (known) {
        out[SP_DMN_STAGE_QUEUE] = (tj->t_first_synth ? tj->t_first_synth : tj->t_done) - tj->t_submit;
        out[SP_DMN_STAGE_SYNTH] = tj->synth_ms;
        out[SP_DMN_STAGE_GPU] = tj->gpu_ms;
        out[SP_DMN_STAGE_FINISH] = tj->finish_ms;
        out[SP_DMN_STAGE_TOTAL] = tj->t_done - tj->t_submit;
    }
    pthread_mutex_unlock(&t->mu);
    return known;
}

int sp_dmn_trk_device_steps(sp_dmn *d, const char *job, uint32_t part, int *steps, int *of, char step[24])
{
    dtracker *t = &d->trk;
    int found = 0;
    *steps = *of = 0;
    step[0] = 0;
    pthread_mutex_lock(&t->mu);
    for (size_t i = 0; i < SP_DMN_TRK_BARS && !found; i++) {
        const trk_bar *b = &t->bars[i];
        if (b->t1 < 0 && b->kind == 2 && b->part == part && b->seq && !strcmp(b->job, job)) {
            *steps = b->steps;
            snprintf(step, 24, "%s", b->step);
            found = 1;
        }
    }
    *of = t->steps_per_call;
    pthread_mutex_unlock(&t->mu);
    return found;
}

/* A device's lane name: its kind and number ("cpu" and "cpu#2" are cpu0
 * and cpu1, "cuda:1" is cuda1), so a CPU-only daemon shows no GPU. */
static void device_lane(char *out, size_t out_len, const char *name)
{
    size_t kind = strcspn(name, ":#");
    long n = name[kind] == ':' ? atol(name + kind + 1) : name[kind] == '#' ? atol(name + kind + 1) - 1 : 0;
    snprintf(out, out_len, "%.*s%ld", (int)(kind < 24 ? kind : 24), name, n < 0 ? 0 : n);
}

static void lanes_json(const dtracker *t, sp_json_writer *w, const sp_engine_status *st)
{
    char name[48], dev[32];
    sp_jw_key(w, "lanes");
    sp_jw_begin_array(w);
    for (int i = 0; i < t->n_synth; i++) {
        snprintf(name, sizeof name, "synth %d", i);
        sp_jw_string(w, name);
    }
    for (int g = 0; g < t->n_dev; g++)
        for (int k = 0; k < t->n_gpu_workers; k++) {
            if ((size_t)g < st->n_devices)
                device_lane(dev, sizeof dev, st->devices[g].name);
            else
                snprintf(dev, sizeof dev, "device%d", g);
            snprintf(name, sizeof name, "%s w%d", dev, k);
            sp_jw_string(w, name);
        }
    for (int i = 0; i < t->n_finish; i++) {
        snprintf(name, sizeof name, "finish %d", i);
        sp_jw_string(w, name);
    }
    sp_jw_end_array(w);
}

void sp_dmn_trk_json(sp_dmn *d, sp_json_writer *w, const sp_engine_status *st)
{
    static const char *kinds[] = {"synth", "wait", "device", "finish"};
    dtracker *t = &d->trk;
    double now_ms = st->uptime_ms;
    pthread_mutex_lock(&t->mu);
    sp_jw_key(w, "waterfall");
    sp_jw_begin_object(w);
    sp_jw_key(w, "now_ms");
    sp_jw_double(w, now_ms);
    lanes_json(t, w, st);
    sp_jw_key(w, "bars"); /* [lane, kind, t0, t1 or null (running), job, partition] */
    sp_jw_begin_array(w);
    for (size_t i = 0; i < SP_DMN_TRK_BARS; i++) {
        const trk_bar *b = &t->bars[(t->bar_next + i) % SP_DMN_TRK_BARS];
        if (!b->seq || (b->t1 >= 0 && b->t1 < now_ms - 60000))
            continue;
        sp_jw_begin_array(w);
        sp_jw_u64(w, (uint64_t)b->lane);
        sp_jw_string(w, kinds[b->kind]);
        sp_jw_double(w, b->t0);
        if (b->t1 >= 0)
            sp_jw_double(w, b->t1);
        else
            sp_jw_number(w, "null");
        sp_jw_string(w, b->job);
        sp_jw_u64(w, b->part);
        sp_jw_end_array(w);
    }
    sp_jw_end_array(w);
    sp_jw_end_object(w);
    pthread_mutex_unlock(&t->mu);
}

void sp_dmn_trk_metrics(sp_dmn *d, char **b, size_t *len, size_t *cap)
{
    static const char *names[SP_DMN_STAGE_N] = {"queue_wait", "synthesis", "device", "finish", "total"};
    dtracker *t = &d->trk;
    pthread_mutex_lock(&t->mu);
    sp_buf_printf(b, len, cap, "# HELP snarkpipe_stage_duration_seconds Time per stage: queue_wait and total per job, "
                               "synthesis, device (device lock held) and finish per partition.\n"
                               "# TYPE snarkpipe_stage_duration_seconds histogram\n");
    for (int s = 0; s < SP_DMN_STAGE_N; s++) {
        uint64_t cum = 0;
        for (int k = 0; k < SP_DMN_TRK_BUCKETS; k++) {
            cum += t->hist[s][k];
            sp_buf_printf(b, len, cap, "snarkpipe_stage_duration_seconds_bucket{stage=\"%s\",le=\"%g\"} %llu\n",
                          names[s], bucket_le_[k], (unsigned long long)cum);
        }
        sp_buf_printf(b, len, cap, "snarkpipe_stage_duration_seconds_bucket{stage=\"%s\",le=\"+Inf\"} %llu\n"
                      "snarkpipe_stage_duration_seconds_sum{stage=\"%s\"} %.6f\n"
                      "snarkpipe_stage_duration_seconds_count{stage=\"%s\"} %llu\n", names[s],
                      (unsigned long long)t->hist_count[s], names[s], t->hist_sum[s], names[s],
                      (unsigned long long)t->hist_count[s]);
    }
    sp_buf_printf(b, len, cap, "# HELP snarkpipe_timeline_lines_total TIMELINE lines read from the engine.\n"
                  "# TYPE snarkpipe_timeline_lines_total counter\nsnarkpipe_timeline_lines_total %llu\n",
                  (unsigned long long)t->lines);
    pthread_mutex_unlock(&t->mu);
}
