/* The waterfall's report and SVG (waterfall.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "engine/waterfall.h"

void sp_waterfall_print(FILE *out, const sp_waterfall *wf)
{
    fprintf(out, "timeline: %zu lines over %.1f ms; %zu jobs (%zu ok, %zu failed, %zu cancelled), %zu partitions\n\n",
            wf->n_lines, wf->t_last - wf->t_first, wf->n_jobs, wf->jobs_done, wf->jobs_failed, wf->jobs_cancelled,
            wf->partitions);
    fprintf(out, "%-18s %7s %10s %10s %10s %10s   (ms)\n", "stage", "count", "mean", "p50", "p95", "max");
    for (size_t i = 0; i < wf->n_stats; i++) {
        const sp_wf_stat *s = &wf->stats[i];
        fprintf(out, "%-18s %7zu %10.2f %10.2f %10.2f %10.2f\n", s->name, s->count, s->mean, s->p50, s->p95, s->max);
    }
    fprintf(out, "\n%-5s %6s %10s %10s %9s %9s | %-24s | %s\n", "gpu", "calls", "busy ms", "span ms", "eff/span",
            "eff/wall", "idle gaps <50/50-500/>500", "all workers idle");
    for (size_t i = 0; i < wf->n_gpus; i++) {
        const sp_wf_gpu *g = &wf->gpus[i];
        char gaps[64];
        snprintf(gaps, sizeof gaps, "%zu/%zu/%zu (%.0f ms)", g->gaps[0], g->gaps[1], g->gaps[2],
                 g->gap_ms[0] + g->gap_ms[1] + g->gap_ms[2]);
        fprintf(out, "gpu%-2d %6zu %10.1f %10.1f %8.1f%% %8.1f%% | %-24s | %zu (%.1f ms)\n", g->gpu, g->calls,
                g->busy_ms, g->span_ms, 100 * g->eff_span, 100 * g->eff_wall, gaps, g->all_idle, g->all_idle_ms);
    }
    if (!wf->n_gpus)
        fprintf(out, "(no device intervals)\n");
    if (wf->n_transitions) {
        fprintf(out, "\ncross-job transitions (next job's first GPU_START - previous job's last GPU_END, ms):");
        for (size_t i = 0; i < wf->n_transitions && i < 12; i++)
            fprintf(out, " %.1f", wf->transitions[i]);
        fprintf(out, "%s\n", wf->n_transitions > 12 ? " ..." : "");
    }
}

/* ---- SVG ---- */

enum { SVG_W = 1200, LEFT = 130, RIGHT = 20, TOP = 34, LANE_H = 18, LANE_GAP = 4, LEGEND_COLS = 8 };

/* A distinct color per job: golden-angle hues, HSL(h, 0.62, 0.55) to RGB. */
static void job_color(char out[8], int job)
{
    double h = fmod(job * 137.508, 360.0) / 60.0, s = 0.62, l = 0.55;
    double c = (1 - fabs(2 * l - 1)) * s, x = c * (1 - fabs(fmod(h, 2) - 1)), m = l - c / 2;
    double r = 0, g = 0, b = 0;
    switch ((int)h) {
    case 0: r = c, g = x; break;
    case 1: r = x, g = c; break;
    case 2: g = c, b = x; break;
    case 3: g = x, b = c; break;
    case 4: r = x, b = c; break;
    default: r = c, b = x; break;
    }
    snprintf(out, 8, "#%02x%02x%02x", (int)lround((r + m) * 255), (int)lround((g + m) * 255),
             (int)lround((b + m) * 255));
}

/* Writes s with the five XML special characters escaped. */
static void xml_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&apos;", f); break;
        default:
            if ((unsigned char)*s >= 0x20)
                fputc(*s, f);
        }
    }
}

typedef struct {
    double t0, scale; /* x = LEFT + (t - t0) * scale */
    int axis_y;
} geom;

static double x_of(const geom *g, double t) { return LEFT + (t - g->t0) * g->scale; }

/* A tick step of 1, 2 or 5 times a power of ten giving about 10 ticks. */
static double tick_step(double span)
{
    double raw = span / 10, p = pow(10, floor(log10(raw > 0 ? raw : 1)));
    return raw <= p ? p : raw <= 2 * p ? 2 * p : raw <= 5 * p ? 5 * p : 10 * p;
}

static void svg_axis(FILE *f, const sp_waterfall *wf, const geom *g)
{
    double span = wf->t_last - wf->t_first, step = tick_step(span);
    int sec = span >= 5000;
    fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#444\"/>\n", LEFT, g->axis_y, SVG_W - RIGHT,
            g->axis_y);
    for (double t = 0; t <= span + step / 2; t += step) {
        double x = x_of(g, wf->t_first + t);
        fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#444\"/>", x, g->axis_y, x,
                g->axis_y + 5);
        fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%g%s</text>\n", x, g->axis_y + 17,
                sec ? t / 1000 : t, sec ? " s" : " ms");
    }
}

static const char *kind_name(sp_wf_lane_kind k)
{
    return k == SP_WF_SYNTH ? "synth" : k == SP_WF_WAIT ? "lock wait" : k == SP_WF_GPU ? "gpu" : "finish";
}

static void svg_bars(FILE *f, const sp_waterfall *wf, const geom *g)
{
    for (size_t i = 0; i < wf->n_bars; i++) {
        const sp_wf_bar *b = &wf->bars[i];
        double x = x_of(g, b->t0), w = (b->t1 - b->t0) * g->scale;
        int y = TOP + b->lane * (LANE_H + LANE_GAP), wait = b->kind == SP_WF_WAIT;
        char col[8];
        job_color(col, b->job);
        fprintf(f, "<rect class=\"%s\" x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\" fill=\"%s\"><title>",
                wait ? "wait" : "bar", x, wait ? y + LANE_H - 4 : y, w < 0.5 ? 0.5 : w, wait ? 4 : LANE_H,
                wait ? "#9a9a9a" : col);
        xml_text(f, wf->jobs[b->job]);
        fprintf(f, " partition %d %s: %.3f ms</title></rect>\n", b->partition, kind_name(b->kind), b->t1 - b->t0);
    }
}

static void svg_legend(FILE *f, const sp_waterfall *wf, int y0)
{
    size_t shown = wf->n_jobs < 64 ? wf->n_jobs : 64;
    int colw = (SVG_W - LEFT - RIGHT) / LEGEND_COLS;
    for (size_t j = 0; j < shown; j++) {
        int x = LEFT + (int)(j % LEGEND_COLS) * colw, y = y0 + (int)(j / LEGEND_COLS) * 16;
        char col[8];
        job_color(col, (int)j);
        fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/><text x=\"%d\" y=\"%d\">", x,
                y, col, x + 14, y + 9);
        xml_text(f, wf->jobs[j]);
        fputs("</text>\n", f);
    }
    if (shown < wf->n_jobs)
        fprintf(f, "<text x=\"%d\" y=\"%d\">... and %zu more jobs</text>\n", LEFT,
                y0 + (int)((shown + LEGEND_COLS - 1) / LEGEND_COLS) * 16 + 9, wf->n_jobs - shown);
}

sp_status sp_waterfall_svg(const sp_waterfall *wf, FILE *f)
{
    double span = wf->t_last - wf->t_first;
    geom g = {wf->t_first, (SVG_W - LEFT - RIGHT) / (span > 0 ? span : 1), 0};
    g.axis_y = TOP + (int)wf->n_lanes * (LANE_H + LANE_GAP) + 6;
    size_t legend_rows = ((wf->n_jobs < 64 ? wf->n_jobs : 64) + LEGEND_COLS - 1) / LEGEND_COLS + 1;
    int height = g.axis_y + 40 + (int)legend_rows * 16 + 10;
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">\n",
            SVG_W, height, SVG_W, height);
    fprintf(f, "<style>text{font:11px sans-serif;fill:#222}.bar{stroke:#222;stroke-width:0.3}</style>\n");
    fprintf(f, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n", SVG_W, height);
    fprintf(f, "<text x=\"%d\" y=\"18\" font-weight=\"bold\">snarkpipe waterfall: %zu jobs, %zu partitions, "
               "%.1f ms</text>\n", LEFT, wf->n_jobs, wf->partitions, span);
    for (size_t i = 0; i < wf->n_lanes; i++) {
        int y = TOP + (int)i * (LANE_H + LANE_GAP);
        fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>", LEFT, y,
                SVG_W - LEFT - RIGHT, LANE_H, i % 2 ? "#f4f4f4" : "#ebebeb");
        fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">", LEFT - 6, y + LANE_H - 5);
        xml_text(f, wf->lanes[i].name);
        fputs("</text>\n", f);
    }
    svg_bars(f, wf, &g);
    svg_axis(f, wf, &g);
    svg_legend(f, wf, g.axis_y + 34);
    fputs("</svg>\n", f);
    return ferror(f) ? SP_ERR_IO : SP_OK;
}
