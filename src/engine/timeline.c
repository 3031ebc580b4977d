/* The TIMELINE writer (timeline.h). */
#include "engine/timeline.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct sp_timeline {
    FILE *f;
    int own; /* 1: a file we opened */
    double t0;
    pthread_mutex_t mu;
};

double sp_engine_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

sp_status sp_timeline_open(sp_timeline **out, const char *path, double t0_ms, char err[SP_ERR_LEN])
{
    *out = NULL;
    sp_timeline *tl = calloc(1, sizeof *tl);
    if (!tl) {
        snprintf(err, SP_ERR_LEN, "out of memory for the timeline");
        return SP_ERR_NOMEM;
    }
    if (strcmp(path, "-") == 0) {
        tl->f = stderr;
    } else {
        tl->f = fopen(path, "w");
        tl->own = 1;
        if (!tl->f) {
            snprintf(err, SP_ERR_LEN, "timeline %s: %s", path, strerror(errno));
            free(tl);
            return SP_ERR_IO;
        }
    }
    tl->t0 = t0_ms;
    pthread_mutex_init(&tl->mu, NULL);
    *out = tl;
    return SP_OK;
}

void sp_timeline_clean(char *out, size_t out_len, const char *s)
{
    size_t i = 0;
    for (; s && s[i] && i + 1 < out_len; i++)
        out[i] = (s[i] == ',' || s[i] == '\n' || s[i] == '\r') ? '_' : s[i];
    if (out_len)
        out[i] = '\0';
}

void sp_timeline_emit(sp_timeline *tl, const char *event, uint64_t job_seq, const char *fmt, ...)
{
    if (!tl)
        return;
    char detail[512], clean[512], job[24];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof detail, fmt, ap);
    va_end(ap);
    /* the detail's own commas separate pairs; only line breaks must go */
    size_t i = 0;
    for (; detail[i]; i++)
        clean[i] = (detail[i] == '\n' || detail[i] == '\r') ? '_' : detail[i];
    clean[i] = '\0';
    if (job_seq)
        snprintf(job, sizeof job, "j%llu", (unsigned long long)job_seq);
    else
        snprintf(job, sizeof job, "-");
    pthread_mutex_lock(&tl->mu); /* time taken inside: the file is in time order */
    double t = sp_engine_now_ms() - tl->t0;
    fprintf(tl->f, "TIMELINE,%.3f,%s,%s,%s\n", t, event, job, clean);
    fflush(tl->f);
    pthread_mutex_unlock(&tl->mu);
}

void sp_timeline_close(sp_timeline *tl)
{
    if (!tl)
        return;
    if (tl->own)
        fclose(tl->f);
    pthread_mutex_destroy(&tl->mu);
    free(tl);
}
