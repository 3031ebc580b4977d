/*
 * Progress lines (util/progress.h), written to a file and compared byte
 * for byte, on a clock the test moves:
 *   - off (never configured, or configured off): no byte written;
 *   - the delay before a stage's first line, the redraw interval, the
 *     part name, the percent capped at 100, the padding over a longer
 *     line, the erasing at the end, a stage without a total;
 *   - a stage begun inside another: the inner one takes the line, the
 *     outer one resumes with its count and its own elapsed time;
 *   - notes stay, the line under them is erased first;
 *   - thread safety on the real clock: threads adding at once, every line
 *     whole, percents never going back, every unit counted;
 *   - the ticker: lines (the time moving) while nothing is counted.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "test.h"
#include "util/progress.h"

static char path_[] = "/tmp/sp_test_progress_XXXXXX";
static int fd_ = -1;
static double clock_;

static double fake_now(void) { return clock_; }

/* Empties the output file. */
static void reset(void)
{
    CHECK(ftruncate(fd_, 0) == 0 && lseek(fd_, 0, SEEK_SET) == 0);
}

/* What was written since the last reset, NUL-terminated (caller frees). */
static char *written(void)
{
    size_t n;
    char *b = (char *)sp_test_slurp(path_, &n);
    return b ? b : calloc(1, 1);
}

static void expect_written(const char *want, const char *what)
{
    char *got = written();
    CHECKF(!strcmp(got, want), "%s: got [%s], want [%s]", what, got, want);
    free(got);
    reset();
}

static void on_fake(void)
{
    sp_progress_config c = {fd_, 0.5, 0.1, fake_now, 0};
    sp_progress_configure(&c);
}

static void test_off(void)
{
    sp_progress_begin("never", 10); /* never configured */
    sp_progress_add(10);
    sp_progress_end();
    sp_progress_note("never");
    CHECK(!sp_progress_on());
    on_fake();
    CHECK(sp_progress_on());
    sp_progress_configure(NULL);
    CHECK(!sp_progress_on());
    clock_ = 10;
    sp_progress_begin("off", 10);
    sp_progress_part("x");
    clock_ = 20;
    sp_progress_add(5);
    sp_progress_note("a note %d", 1);
    sp_progress_end();
    expect_written("", "off");
}

static void test_line(void)
{
    on_fake();
    clock_ = 0;
    sp_progress_begin("stage", 100);
    clock_ = 0.1;
    sp_progress_add(10);
    expect_written("", "within the delay");
    clock_ = 0.6;
    sp_progress_add(10);
    expect_written("\rstage   20%  0.6 s", "first line");
    clock_ = 0.65;
    sp_progress_add(10);
    expect_written("", "within the interval");
    clock_ = 0.8;
    sp_progress_part("B");
    sp_progress_add(5);
    expect_written("\rstage: B   35%  0.8 s", "part");
    clock_ = 0.9;
    sp_progress_part(NULL);
    sp_progress_add(500);
    expect_written("\rstage  100%  0.9 s   ", "capped, padded over the longer line");
    sp_progress_end();
    expect_written("\r                  \r", "erased");
    clock_ = 5;
    sp_progress_begin("short", 3);
    sp_progress_add(3);
    sp_progress_end();
    expect_written("", "a short stage draws nothing");
    sp_progress_begin("unknown", 0);
    clock_ = 6;
    sp_progress_add(7);
    expect_written("\runknown    1.0 s", "no total, no percent");
    sp_progress_note("kept %s", "line");
    expect_written("\r                \r  kept line\n", "a note erases the line, then stays");
    clock_ = 6.05;
    sp_progress_add(1);
    expect_written("", "interval after the note");
    clock_ = 6.2;
    sp_progress_add(1);
    expect_written("\runknown    1.2 s", "redrawn after the note");
    sp_progress_end();
    reset();
    sp_progress_add(1);
    expect_written("", "no stage: adds ignored");
}

static void test_nested(void)
{
    on_fake();
    clock_ = 0;
    sp_progress_begin("outer", 100);
    clock_ = 1;
    sp_progress_add(10);
    expect_written("\router   10%  1.0 s", "outer");
    sp_progress_begin("inner", 4);
    expect_written("\r                  \r", "inner begins: the outer line goes");
    clock_ = 1.1;
    sp_progress_add(1);
    expect_written("", "inner within its delay");
    clock_ = 1.6;
    sp_progress_add(1);
    expect_written("\rinner   50%  0.6 s", "inner line");
    sp_progress_end();
    expect_written("\r                  \r", "inner ends");
    clock_ = 1.7;
    sp_progress_add(10);
    expect_written("\router   20%  1.7 s", "outer resumes with its count and time");
    sp_progress_end();
    reset();
    /* deeper than shown: ignored, and the ends still match */
    clock_ = 2;
    for (int i = 0; i < 6; i++)
        sp_progress_begin("deep", 10);
    clock_ = 10;
    sp_progress_add(5);
    expect_written("", "beyond four stages nothing is shown");
    sp_progress_end();
    sp_progress_end();
    sp_progress_add(5);
    expect_written("\rdeep   50%  8.0 s", "the fourth resumes");
    for (int i = 0; i < 4; i++)
        sp_progress_end();
    reset();
    sp_progress_configure(NULL);
}

/* ---- threads ---- */

enum { THREADS = 4, ADDS = 20000 };

static void *adder(void *arg)
{
    (void)arg;
    for (int i = 0; i < ADDS; i++)
        sp_progress_add(1);
    return NULL;
}

static void test_threads(void)
{
    sp_progress_config c = {fd_, 0, 0, NULL, 0}; /* draw at every add that gets the lock */
    sp_progress_configure(&c);
    sp_progress_begin("work", (uint64_t)THREADS * ADDS);
    pthread_t t[THREADS];
    for (int i = 0; i < THREADS; i++)
        CHECK(pthread_create(&t[i], NULL, adder, NULL) == 0);
    for (int i = 0; i < THREADS; i++)
        pthread_join(t[i], NULL);
    sp_progress_add(0); /* one more line, after every unit is in */
    sp_progress_configure(NULL);
    char *out = written(), *save = NULL;
    int lines = 0, bad = 0, last_pct = -1, back = 0;
    for (char *l = strtok_r(out, "\r", &save); l; l = strtok_r(NULL, "\r", &save)) {
        unsigned pct;
        double sec;
        char rest[8];
        lines++;
        if (sscanf(l, "work %u%%  %lf %1s", &pct, &sec, rest) != 3 || strcmp(rest, "s") || pct > 100) {
            bad++;
            continue;
        }
        back += (int)pct < last_pct;
        last_pct = (int)pct;
    }
    CHECKF(lines > 1 && bad == 0 && back == 0, "%d lines, %d malformed, %d went back", lines, bad, back);
    CHECKF(last_pct == 100, "last line at %d%%", last_pct);
    free(out);
    reset();
}

static void test_ticker(void)
{
    sp_progress_config c = {fd_, 0, 0.02, NULL, 1};
    sp_progress_configure(&c);
    sp_progress_begin("waiting", 10);
    sp_progress_add(1);
    size_t n = 0;
    char *out = NULL;
    for (int i = 0; i < 1000; i++) { /* until three lines came (10 s at most, ~0.1 s normally) */
        free(out);
        out = written();
        n = 0;
        for (char *p = out; *p; p++)
            n += *p == '\r';
        if (n >= 3)
            break;
        usleep(10000);
    }
    sp_progress_configure(NULL);
    CHECKF(n >= 3 && strstr(out, "\rwaiting   10%  0.") == out, "the ticker drew %zu lines: [%s]", n, out);
    free(out);
    reset();
}

int main(void)
{
    sp_test_begin("test_progress", NULL);
    fd_ = mkstemp(path_);
    CHECK(fd_ >= 0);
    test_off();
    test_line();
    test_nested();
    test_threads();
    test_ticker();
    close(fd_);
    unlink(path_);
    return sp_test_done();
}
