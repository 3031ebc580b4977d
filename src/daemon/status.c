/* GET /v1/status, /metrics, /healthz, /readyz and / (api.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "daemon/api.h"
#include "util/buf.h"
#include "util/curves.h"

/* VmRSS and VmHWM of this process, bytes. */
static void rss(size_t *now, size_t *peak)
{
    *now = *peak = 0;
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    while (f && fgets(line, sizeof line, f)) {
        unsigned long kb;
        if (sscanf(line, "VmRSS: %lu kB", &kb) == 1)
            *now = (size_t)kb * 1024;
        else if (sscanf(line, "VmHWM: %lu kB", &kb) == 1)
            *peak = (size_t)kb * 1024;
    }
    if (f)
        fclose(f);
}

/* ---- /, /healthz and /readyz ---- */

void sp_dmn_api_page(sp_dmn *d, dreq *r)
{
    sp_dmn_http_send_static(r, 200, "text/html; charset=utf-8", sp_dmn_page_html, strlen(sp_dmn_page_html));
}

/* /healthz is liveness: the process answers (503 only while it shuts
 * down; a queue database that is away is no reason to restart it).
 * /readyz is readiness: it takes jobs now (503 while it shuts down or
 * while a farm node's queue database is unreachable). A farm node's
 * answers both say how its queue stands. */
static void health(sp_dmn *d, dreq *r, int readiness)
{
    int q = sp_dmn_farm_connected(d), draining = atomic_load(&d->draining);
    int down = q == 0, code = draining || (readiness && down) ? 503 : 200;
    sp_json_writer w;
    sp_jw_init(&w, 0);
    sp_jw_begin_object(&w);
    sp_jw_key(&w, "status");
    sp_jw_string(&w, draining ? "draining" : !down ? "ok" : readiness ? "not_ready" : "degraded");
    if (q >= 0) {
        sp_jw_key(&w, "queue");
        sp_jw_string(&w, down ? "unreachable" : "connected");
    }
    sp_jw_end_object(&w);
    sp_dmn_http_send_json(r, code, &w);
}

void sp_dmn_api_healthz(sp_dmn *d, dreq *r) { health(d, r, 0); }
void sp_dmn_api_readyz(sp_dmn *d, dreq *r) { health(d, r, 1); }

/* ---- /v1/status ---- */

static void kv_u64(sp_json_writer *w, const char *k, uint64_t v)
{
    sp_jw_key(w, k);
    sp_jw_u64(w, v);
}

static void devices_json(sp_json_writer *w, const sp_engine_status *st)
{
    sp_jw_key(w, "devices");
    sp_jw_begin_array(w);
    for (size_t i = 0; i < st->n_devices; i++) {
        const sp_engine_device_status *dv = &st->devices[i];
        sp_jw_begin_object(w);
        sp_jw_key(w, "name");
        sp_jw_string(w, dv->name);
        kv_u64(w, "workers", (uint64_t)dv->workers);
        kv_u64(w, "busy", (uint64_t)dv->busy);
        sp_jw_key(w, "lock_held_ms");
        sp_jw_double(w, dv->lock_held_ms);
        sp_jw_key(w, "busy_ratio");
        sp_jw_double(w, st->uptime_ms > 0 ? dv->lock_held_ms / st->uptime_ms : 0);
        kv_u64(w, "partitions", dv->partitions);
        kv_u64(w, "preemptions", dv->preemptions);
        kv_u64(w, "keys", dv->keys);
        if (dv->memory_known) { /* GPU backends; null for the CPU */
            kv_u64(w, "vram_resident_bytes", dv->resident_bytes);
            kv_u64(w, "vram_free_bytes", dv->free_bytes);
            kv_u64(w, "key_streamed_bytes", dv->streamed_bytes);
        } else {
            sp_jw_key(w, "vram_resident_bytes");
            sp_jw_number(w, "null");
            sp_jw_key(w, "vram_free_bytes");
            sp_jw_number(w, "null");
            sp_jw_key(w, "key_streamed_bytes");
            sp_jw_number(w, "null");
        }
        sp_jw_end_object(w);
    }
    sp_jw_end_array(w);
}

static void memory_json(sp_dmn *d, sp_json_writer *w, const sp_engine_status *st)
{
    size_t now, peak;
    rss(&now, &peak);
    sp_jw_key(w, "memory");
    sp_jw_begin_object(w);
    kv_u64(w, "budget_bytes", st->budget_total);
    kv_u64(w, "used_bytes", st->budget_used);
    kv_u64(w, "high_water_bytes", st->budget_high_water);
    kv_u64(w, "reserved_bytes", st->reserved_bytes);
    kv_u64(w, "pool_idle_bytes", st->pool_idle_bytes);
    kv_u64(w, "pool_buffers", st->pool_buffers);
    kv_u64(w, "freeing_bytes", st->freeing_bytes);
    kv_u64(w, "request_body_bytes", atomic_load(&d->body_bytes));
    kv_u64(w, "request_body_limit_bytes", d->body_cap);
    kv_u64(w, "process_rss_bytes", now);
    kv_u64(w, "process_rss_peak_bytes", peak);
    sp_jw_end_object(w);
}

static void queues_json(sp_json_writer *w, const sp_engine_status *st)
{
    sp_jw_key(w, "queues");
    sp_jw_begin_object(w);
    kv_u64(w, "dispatch", st->queued);
    kv_u64(w, "device", st->gpu_queued);
    kv_u64(w, "finish", st->finish_queued);
    sp_jw_end_object(w);
    sp_jw_key(w, "workers");
    sp_jw_begin_object(w);
    kv_u64(w, "synth", (uint64_t)st->synth_workers);
    kv_u64(w, "synth_busy", (uint64_t)st->synth_busy);
    kv_u64(w, "finish", (uint64_t)st->finish_workers);
    kv_u64(w, "finish_busy", (uint64_t)st->finish_busy);
    kv_u64(w, "g2_throttled", (uint64_t)st->throttled);
    kv_u64(w, "synth_yields", st->synth_yields);
    sp_jw_end_object(w);
}

static void totals_json(sp_dmn *d, sp_json_writer *w, const sp_engine_status *st)
{
    sp_jw_key(w, "totals");
    sp_jw_begin_object(w);
    kv_u64(w, "jobs_submitted", st->jobs_submitted);
    kv_u64(w, "jobs_completed", st->jobs_done);
    kv_u64(w, "jobs_failed", st->jobs_failed);
    kv_u64(w, "jobs_cancelled", st->jobs_cancelled);
    kv_u64(w, "jobs_rejected", atomic_load(&d->rejected_submits));
    kv_u64(w, "partitions_proved", st->partitions_proved);
    kv_u64(w, "proofs_verified", st->proofs_verified);
    kv_u64(w, "finish_preemptions", st->finish_preemptions);
    kv_u64(w, "http_requests", atomic_load(&d->requests));
    sp_jw_end_object(w);
}

static void jobs_json(sp_json_writer *w, const sp_engine_status *st)
{
    sp_jw_key(w, "jobs");
    sp_jw_begin_array(w);
    for (size_t i = 0; i < st->n_jobs; i++) {
        const sp_engine_job_status *j = &st->jobs[i];
        if (j->finished)
            continue;
        sp_jw_begin_object(w);
        sp_jw_key(w, "job_id");
        sp_jw_string(w, j->request_id);
        sp_jw_key(w, "circuit");
        sp_jw_string(w, j->circuit_id);
        sp_jw_key(w, "priority");
        char p[16];
        snprintf(p, sizeof p, "%d", j->priority);
        sp_jw_number(w, p);
        sp_jw_key(w, "age_ms");
        sp_jw_double(w, j->age_ms);
        sp_jw_key(w, "partitions");
        sp_jw_begin_array(w);
        for (size_t k = 0; k < j->n_partitions; k++)
            sp_jw_string(w, sp_dmn_part_state_name(j->parts[k].state));
        sp_jw_end_array(w);
        sp_jw_key(w, "devices"); /* where each partition's device call ran (null: not yet) */
        sp_jw_begin_array(w);
        for (size_t k = 0; k < j->n_partitions; k++) {
            int dv = j->parts[k].device;
            if (dv >= 0 && (size_t)dv < st->n_devices)
                sp_jw_string(w, st->devices[dv].name);
            else
                sp_jw_number(w, "null");
        }
        sp_jw_end_array(w);
        sp_jw_end_object(w);
    }
    sp_jw_end_array(w);
}

void sp_dmn_api_status(sp_dmn *d, dreq *r)
{
    sp_engine_status st;
    if (sp_engine_status_get(d->eng, &st) != SP_OK) {
        sp_dmn_http_error(r, 503, "out_of_memory", "out of memory for the status");
        return;
    }
    sp_json_writer w;
    sp_jw_init(&w, 0);
    sp_jw_begin_object(&w);
    sp_jw_key(&w, "version");
    sp_jw_string(&w, SP_VERSION_STRING);
    sp_jw_key(&w, "curve");
    sp_jw_string(&w, sp_curve_name(d->ops->curve));
    sp_jw_key(&w, "state");
    sp_jw_string(&w, atomic_load(&d->draining) ? "draining" : atomic_load(&d->paused) ? "paused" : "serving");
    kv_u64(&w, "pid", (uint64_t)getpid());
    sp_jw_key(&w, "uptime_s");
    sp_jw_double(&w, (sp_dmn_wire_now_ms() - d->t_start) / 1e3);
    devices_json(&w, &st);
    memory_json(d, &w, &st);
    sp_jw_key(&w, "keys");
    sp_jw_begin_object(&w);
    sp_dmn_reg_json(d, &w);
    sp_jw_end_object(&w);
    queues_json(&w, &st);
    totals_json(d, &w, &st);
    jobs_json(&w, &st);
    sp_dmn_farm_status_json(d, &w);
    sp_dmn_trk_json(d, &w, &st);
    sp_jw_end_object(&w);
    sp_engine_status_free(&st);
    sp_dmn_http_send_json(r, 200, &w);
}

/* ---- /metrics ---- */

#define GAUGE(name, help, ...) \
    sp_buf_printf(&b, &len, &cap, "# HELP " name " " help "\n# TYPE " name " gauge\n" name " " __VA_ARGS__)
#define COUNTER(name, help, ...) \
    sp_buf_printf(&b, &len, &cap, "# HELP " name " " help "\n# TYPE " name " counter\n" name " " __VA_ARGS__)

void sp_dmn_api_metrics(sp_dmn *d, dreq *r)
{
    static const char *codes[SP_DMN_HTTP_CODES] = {"2xx", "400", "401", "404", "409", "413", "4xx", "5xx"};
    sp_engine_status st;
    if (sp_engine_status_get(d->eng, &st) != SP_OK) {
        sp_dmn_http_error(r, 503, "out_of_memory", "out of memory for the metrics");
        return;
    }
    char *b = NULL;
    size_t len = 0, cap = 0, now, peak;
    rss(&now, &peak);
    GAUGE("snarkpipe_up", "1 while the daemon serves.", "%d\n", atomic_load(&d->draining) ? 0 : 1);
    GAUGE("snarkpipe_uptime_seconds", "Seconds since start.", "%.3f\n", (sp_dmn_wire_now_ms() - d->t_start) / 1e3);
    sp_dmn_reg_metrics(d, &b, &len, &cap);
    COUNTER("snarkpipe_jobs_submitted_total", "Jobs accepted by the engine.", "%llu\n",
            (unsigned long long)st.jobs_submitted);
    COUNTER("snarkpipe_submits_rejected_total", "Submissions refused (bad request, unknown circuit, busy).", "%llu\n",
            (unsigned long long)atomic_load(&d->rejected_submits));
    COUNTER("snarkpipe_partitions_proved_total", "Partitions proved.", "%llu\n", (unsigned long long)st.partitions_proved);
    COUNTER("snarkpipe_finish_preemptions_total", "Finishes run first at another finish's pause point (higher priority).",
            "%llu\n", (unsigned long long)st.finish_preemptions);
    GAUGE("snarkpipe_jobs_in_flight", "Jobs submitted and not finished.", "%zu\n", sp_dmn_jobs_live(d));
    sp_buf_printf(&b, &len, &cap, "# HELP snarkpipe_queue_depth Partitions waiting, by queue.\n"
                  "# TYPE snarkpipe_queue_depth gauge\nsnarkpipe_queue_depth{queue=\"dispatch\"} %zu\n"
                  "snarkpipe_queue_depth{queue=\"device\"} %zu\nsnarkpipe_queue_depth{queue=\"finish\"} %zu\n",
                  st.queued, st.gpu_queued, st.finish_queued);
    sp_buf_printf(&b, &len, &cap, "# HELP snarkpipe_workers_busy Workers holding a partition, by pool.\n"
                  "# TYPE snarkpipe_workers_busy gauge\nsnarkpipe_workers_busy{pool=\"synth\"} %d\n"
                  "snarkpipe_workers_busy{pool=\"finish\"} %d\n", st.synth_busy, st.finish_busy);
    sp_buf_printf(&b, &len, &cap, "# HELP snarkpipe_device_busy_ratio Share of the uptime the device lock was held.\n"
                  "# TYPE snarkpipe_device_busy_ratio gauge\n");
    for (size_t i = 0; i < st.n_devices; i++)
        sp_buf_printf(&b, &len, &cap, "snarkpipe_device_busy_ratio{device=\"%s\"} %.6f\n", st.devices[i].name,
                      st.uptime_ms > 0 ? st.devices[i].lock_held_ms / st.uptime_ms : 0.0);
    sp_buf_printf(&b, &len, &cap, "# HELP snarkpipe_device_partitions_total Device calls (partitions) per device.\n"
                  "# TYPE snarkpipe_device_partitions_total counter\n");
    for (size_t i = 0; i < st.n_devices; i++)
        sp_buf_printf(&b, &len, &cap, "snarkpipe_device_partitions_total{device=\"%s\"} %llu\n", st.devices[i].name,
                      (unsigned long long)st.devices[i].partitions);
    sp_buf_printf(&b, &len, &cap, "# HELP snarkpipe_device_preemptions_total Device calls suspended for a job of "
                  "higher priority.\n# TYPE snarkpipe_device_preemptions_total counter\n");
    for (size_t i = 0; i < st.n_devices; i++)
        sp_buf_printf(&b, &len, &cap, "snarkpipe_device_preemptions_total{device=\"%s\"} %llu\n", st.devices[i].name,
                      (unsigned long long)st.devices[i].preemptions);
    GAUGE("snarkpipe_memory_budget_bytes", "The engine's byte budget.", "%zu\n", st.budget_total);
    GAUGE("snarkpipe_memory_used_bytes", "Bytes of the budget in use.", "%zu\n", st.budget_used);
    GAUGE("snarkpipe_memory_high_water_bytes", "Most bytes of the budget ever in use.", "%zu\n", st.budget_high_water);
    GAUGE("snarkpipe_process_resident_bytes", "Resident set size of the daemon.", "%zu\n", now);
    GAUGE("snarkpipe_process_resident_peak_bytes", "Peak resident set size of the daemon.", "%zu\n", peak);
    sp_dmn_trk_metrics(d, &b, &len, &cap);
    sp_dmn_farm_metrics(d, &b, &len, &cap);
    sp_buf_printf(&b, &len, &cap, "# HELP snarkpipe_http_responses_total HTTP responses by status.\n"
                  "# TYPE snarkpipe_http_responses_total counter\n");
    for (int k = 0; k < SP_DMN_HTTP_CODES; k++)
        sp_buf_printf(&b, &len, &cap, "snarkpipe_http_responses_total{code=\"%s\"} %llu\n", codes[k],
                      (unsigned long long)atomic_load(&d->http_codes[k]));
    COUNTER("snarkpipe_http_connections_cut_total", "Connections closed because their headers or body were late "
            "(server.header_timeout, body_timeout).", "%llu\n", (unsigned long long)atomic_load(&d->conns_cut));
    sp_engine_status_free(&st);
    if (!b) {
        sp_dmn_http_error(r, 503, "out_of_memory", "out of memory for the metrics");
        return;
    }
    sp_dmn_http_send(r, 200, "text/plain; version=0.0.4; charset=utf-8", b, len);
}
