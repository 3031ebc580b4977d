/*
 * Reading a TIMELINE (engine.h) back: per-stage statistics, device
 * efficiency, idle gaps, and an SVG waterfall. `snarkpipe waterfall` is a
 * thin wrapper around this; the tests use it to check the engine's own
 * timelines.
 *
 * Definitions (the ones the cuzk analyses used, docs/algorithms.md §5):
 *   stage intervals  synth = SYNTH_START..SYNTH_END, lock_wait =
 *                    GPU_PICKUP..GPU_START, gpu = GPU_START..GPU_END
 *                    (device token held) less the DEV_RESUME paused_ms of
 *                    that partition, finish = FINISH_START..FINISH_END
 *                    less the FIN_RESUME paused_ms of that partition,
 *                    gpu_queue = GPU_QUEUE..GPU_PICKUP, job =
 *                    JOB_SUBMIT..JOB_DONE, dev:<stage> = DEV_STAGE ms;
 *   GPU efficiency   union of a device's gpu intervals over (a) the span
 *                    from its first GPU_START to its last GPU_END and
 *                    (b) the whole timeline (first to last event);
 *   idle gaps        the holes between a device's merged gpu intervals,
 *                    counted in three bins: < 50 ms, 50-500 ms, > 500 ms;
 *   all workers idle the holes, inside that span, when none of a device's
 *                    workers holds a partition (GPU_PICKUP..GPU_END);
 *   synthesis lead   GPU_START - SYNTH_END of each partition (how long
 *                    ready work waited for the device);
 *   transitions      jobs ordered by their first GPU_START; for each next
 *                    job, its first GPU_START minus the previous job's last
 *                    GPU_END (negative: the two overlapped).
 */
#ifndef SP_ENGINE_WATERFALL_H
#define SP_ENGINE_WATERFALL_H

#include <stddef.h>
#include <stdio.h>
#include "snarkpipe.h"

typedef enum { SP_WF_SYNTH = 0, SP_WF_WAIT, SP_WF_GPU, SP_WF_FINISH } sp_wf_lane_kind;

/* One bar of the waterfall. */
typedef struct {
    sp_wf_lane_kind kind;
    int lane;        /* index into sp_waterfall.lanes */
    int job;         /* index into sp_waterfall.jobs */
    int partition;
    double t0, t1;   /* ms */
} sp_wf_bar;

typedef struct {
    sp_wf_lane_kind kind;
    int a, b;        /* synth: slot; gpu and wait: device, worker; finish: worker */
    char name[32];
} sp_wf_lane;

typedef struct {
    char name[32];   /* "synth", "gpu", "dev:msm_a", ... */
    size_t count;
    double mean, p50, p95, max;
} sp_wf_stat;

typedef struct {
    int gpu;
    size_t calls;
    double busy_ms, span_ms, eff_span, eff_wall;
    size_t gaps[3];    /* < 50 ms, 50-500 ms, > 500 ms */
    double gap_ms[3];
    size_t all_idle;   /* holes with no worker of the device holding a partition */
    double all_idle_ms;
} sp_wf_gpu;

typedef struct {
    size_t n_lines;        /* TIMELINE lines read */
    double t_first, t_last;
    size_t n_jobs;
    char (*jobs)[32];      /* job names, in order of first appearance */
    size_t n_lanes;
    sp_wf_lane *lanes;     /* sorted: synth slots, then per device wait/gpu lanes, then finish */
    size_t n_bars;
    sp_wf_bar *bars;
    size_t n_stats;
    sp_wf_stat *stats;
    size_t n_gpus;
    sp_wf_gpu *gpus;
    size_t n_transitions;
    double *transitions;   /* ms, in job order */
    size_t jobs_done, jobs_failed, jobs_cancelled, partitions;
} sp_waterfall;

/*
 * Reads the TIMELINE lines of path ("-": stdin); other lines (a daemon's
 * log) are skipped.
 * On output: *wf filled (free with sp_waterfall_free); zeroed on failure.
 * Returns SP_OK; SP_ERR_IO; SP_ERR_FORMAT (a TIMELINE line that does not
 *   parse: err names its line number), SP_ERR_NOMEM.
 */
sp_status sp_waterfall_read(sp_waterfall *wf, const char *path, char err[SP_ERR_LEN]) SP_WARN_UNUSED;
/* As sp_waterfall_read, from an open stream. */
sp_status sp_waterfall_parse(sp_waterfall *wf, FILE *in, char err[SP_ERR_LEN]) SP_WARN_UNUSED;

/* The statistic called name, or NULL. */
const sp_wf_stat *sp_waterfall_stat(const sp_waterfall *wf, const char *name);

/* Writes the report (tables) to out. */
void sp_waterfall_print(FILE *out, const sp_waterfall *wf);

/* Writes the SVG waterfall: one lane per synthesis slot, GPU worker and
 * finish worker, one <rect class="bar"> per synth, gpu and finish
 * interval, colored by job (lock waits are thin class="wait" rects), a
 * time axis and a legend. Returns SP_OK or SP_ERR_IO. */
sp_status sp_waterfall_svg(const sp_waterfall *wf, FILE *out) SP_WARN_UNUSED;

void sp_waterfall_free(sp_waterfall *wf);

#endif
