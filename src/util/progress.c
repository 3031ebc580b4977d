/* Progress lines (progress.h). */
#include "util/progress.h"

#include <errno.h>
#include <stdint.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define LINE_MAX_CHARS 100

#define MAX_DEPTH 4

static _Atomic int on_;                 /* configured on */
static _Atomic int active_;             /* a stage runs */
static _Atomic uint64_t done_;          /* its done units */
static _Atomic long long next_draw_ns_; /* no redraw before this */
static pthread_mutex_t mu_ = PTHREAD_MUTEX_INITIALIZER;
/* Under mu_: */
static sp_progress_config cfg_;
static size_t drawn_; /* characters of the line on the terminal (0: none) */

/* A stage; a stage begun inside another (a key read inside a larger step)
 * is pushed on it and the outer one resumes when it ends. */
typedef struct {
    char stage[48], part[32];
    uint64_t total, done;
    double t0;
} stage_t;
static stage_t stack_[MAX_DEPTH];
static int depth_;   /* stages begun and not ended (may exceed MAX_DEPTH: those are not shown) */
#define cur_ (stack_[depth_ - 1])

static double mono_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static double now_s(void) { return cfg_.now ? cfg_.now() : mono_now(); }

static long long to_ns(double s) { return (long long)(s * 1e9); }

sp_progress_config sp_progress_defaults(void)
{
    sp_progress_config c = {2, 0.5, 0.1, NULL, 1};
    return c;
}

static void put(const char *s, size_t n)
{
    while (n) {
        ssize_t k = write(cfg_.fd, s, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return; /* a terminal that went away: nothing to do about it */
        s += k;
        n -= (size_t)k;
    }
}

/* Under mu_: blanks the drawn line and returns to its start. */
static void erase(void)
{
    char b[LINE_MAX_CHARS + 3];
    if (!drawn_)
        return;
    b[0] = '\r';
    memset(b + 1, ' ', drawn_);
    b[drawn_ + 1] = '\r';
    put(b, drawn_ + 2);
    drawn_ = 0;
}

/* Under mu_: draws the line (padded over a longer previous one). */
static void draw(double t)
{
    char line[LINE_MAX_CHARS + 1], pct[8] = "";
    uint64_t d = atomic_load_explicit(&done_, memory_order_relaxed), total = cur_.total;
    if (total)
        snprintf(pct, sizeof pct, "%3u%%", (unsigned)(d >= total ? 100 : d * 100 / total));
    int n = snprintf(line, sizeof line, "%s%s%s  %s  %.1f s", cur_.stage, *cur_.part ? ": " : "", cur_.part, pct,
                     t - cur_.t0);
    size_t len = n < 0 ? 0 : (size_t)n >= sizeof line ? sizeof line - 1 : (size_t)n;
    char b[2 * LINE_MAX_CHARS + 2];
    b[0] = '\r';
    memcpy(b + 1, line, len);
    size_t w = len + 1;
    for (size_t i = len; i < drawn_; i++) /* cover what a longer line left */
        b[w++] = ' ';
    put(b, w);
    drawn_ = len; /* the padding is blank: only len characters show */
}

/* Under mu_: redraws when a shown stage's next draw is due. */
static void draw_if_due(double t)
{
    if (atomic_load(&active_) && to_ns(t) >= atomic_load(&next_draw_ns_)) {
        draw(t);
        atomic_store(&next_draw_ns_, to_ns(t + cfg_.interval_s));
    }
}

/* The ticker: while progress stays configured as when it started
 * (generation), redraws every interval. */
static unsigned gen_;      /* under mu_: bumped by every configure */

static void *ticker(void *arg)
{
    unsigned gen = (unsigned)(uintptr_t)arg;
    for (;;) {
        pthread_mutex_lock(&mu_);
        double iv = cfg_.interval_s > 0.01 ? cfg_.interval_s : 0.01;
        if (gen != gen_ || !atomic_load(&on_)) {
            pthread_mutex_unlock(&mu_);
            return NULL;
        }
        draw_if_due(mono_now());
        pthread_mutex_unlock(&mu_);
        struct timespec ts = {(time_t)iv, (long)((iv - (double)(time_t)iv) * 1e9)};
        nanosleep(&ts, NULL);
    }
}

void sp_progress_configure(const sp_progress_config *c)
{
    pthread_mutex_lock(&mu_);
    atomic_store(&active_, 0);
    depth_ = 0;
    drawn_ = 0;
    gen_++;
    if (c)
        cfg_ = *c;
    atomic_store(&on_, c != NULL);
    if (c && c->ticker && !c->now) {
        pthread_t t;
        pthread_attr_t a;
        /* an old ticker sees the new generation and leaves */
        if (pthread_attr_init(&a) == 0) {
            pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
            if (pthread_create(&t, &a, ticker, (void *)(uintptr_t)gen_) != 0) {
                /* no ticker: lines still come with the counted work */
            }
            pthread_attr_destroy(&a);
        }
    }
    pthread_mutex_unlock(&mu_);
}

int sp_progress_on(void) { return atomic_load_explicit(&on_, memory_order_relaxed); }

/* Under mu_: makes the top of the stack the stage adds go to. */
static void resume(double t)
{
    int shown = depth_ >= 1 && depth_ <= MAX_DEPTH;
    if (shown)
        atomic_store(&done_, cur_.done);
    atomic_store(&next_draw_ns_, shown ? to_ns(t > cur_.t0 + cfg_.delay_s ? t : cur_.t0 + cfg_.delay_s) : 0);
    atomic_store(&active_, shown);
}

void sp_progress_begin(const char *stage, uint64_t total)
{
    if (!sp_progress_on())
        return;
    pthread_mutex_lock(&mu_);
    erase();
    double t = now_s();
    if (depth_ >= 1 && depth_ <= MAX_DEPTH)
        cur_.done = atomic_load(&done_);
    depth_++;
    if (depth_ <= MAX_DEPTH) {
        snprintf(cur_.stage, sizeof cur_.stage, "%s", stage);
        cur_.part[0] = 0;
        cur_.total = total;
        cur_.done = 0;
        cur_.t0 = t;
    }
    resume(t);
    pthread_mutex_unlock(&mu_);
}

void sp_progress_part(const char *part)
{
    if (!sp_progress_on())
        return;
    pthread_mutex_lock(&mu_);
    if (depth_ >= 1 && depth_ <= MAX_DEPTH)
        snprintf(cur_.part, sizeof cur_.part, "%s", part ? part : "");
    pthread_mutex_unlock(&mu_);
}

void sp_progress_add(uint64_t units)
{
    if (!sp_progress_on() || !atomic_load_explicit(&active_, memory_order_relaxed))
        return;
    atomic_fetch_add_explicit(&done_, units, memory_order_relaxed);
    double t = cfg_.now ? cfg_.now() : mono_now();
    if (to_ns(t) < atomic_load_explicit(&next_draw_ns_, memory_order_relaxed))
        return;
    /* workers never wait on the terminal, except with an interval of 0
     * (every update drawn: then the last update's line is always drawn,
     * not skipped because the ticker or another worker held the lock) */
    if (cfg_.interval_s > 0 ? pthread_mutex_trylock(&mu_) != 0 : pthread_mutex_lock(&mu_) != 0)
        return;
    draw_if_due(t);
    pthread_mutex_unlock(&mu_);
}

uint64_t sp_progress_done(void)
{
    if (!sp_progress_on() || !atomic_load_explicit(&active_, memory_order_relaxed))
        return 0;
    return atomic_load_explicit(&done_, memory_order_relaxed);
}

void sp_progress_end(void)
{
    if (!sp_progress_on())
        return;
    pthread_mutex_lock(&mu_);
    if (depth_ > 0) {
        erase();
        depth_--;
        resume(now_s());
    }
    pthread_mutex_unlock(&mu_);
}

void sp_progress_note(const char *fmt, ...)
{
    char b[LINE_MAX_CHARS * 2 + 4];
    if (!sp_progress_on())
        return;
    va_list ap;
    va_start(ap, fmt);
    b[0] = b[1] = ' ';
    int n = vsnprintf(b + 2, sizeof b - 3, fmt, ap);
    va_end(ap);
    size_t len = n < 0 ? 2 : 2 + ((size_t)n < sizeof b - 3 ? (size_t)n : sizeof b - 4);
    b[len++] = '\n';
    pthread_mutex_lock(&mu_);
    erase();
    put(b, len);
    pthread_mutex_unlock(&mu_);
}
