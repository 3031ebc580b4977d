/*
 * Progress lines for long work (reading and checking a key, a setup,
 * gen-circuit, large proofs): one line on stderr rewritten in place with a
 * carriage return, the stage, what part of it runs, its percent and the
 * elapsed time:
 *
 *     zkey: checking points: H  42%  3.1 s
 *
 * Off unless a program turns it on as it starts (the CLI does when stderr
 * is a terminal and --quiet is not given); while off every call returns
 * at once, without output, after one atomic load. Programs that run many
 * things at once (the engine, the daemon) leave it off: there is one line.
 *
 * One line, one stage: sp_progress_begin starts a stage; one begun inside
 * another (a key read within a larger step) takes the line until it ends,
 * then the outer one resumes where it was (four deep at most; deeper ones
 * are not shown). sp_progress_add counts done units of the current stage
 * from any thread (an atomic add); the line is redrawn by whichever add
 * finds the redraw interval passed and the drawing lock free (a try-lock:
 * workers never wait on the terminal; with an interval of 0, as tests
 * configure it, every add waits for the lock and draws). With `ticker` a thread of the
 * module also redraws the line every interval, so the time moves while a
 * long step counts nothing (the ticker of an earlier configuration
 * leaves at its next wake-up). Nothing is drawn in a stage's first
 * `delay` seconds, so short work
 * prints nothing; sp_progress_end erases a drawn line, leaving the
 * terminal as it was. sp_progress_note prints a finished step's line,
 * which stays.
 *
 * This is the library's only output to a terminal, and the only global
 * state besides what a program sets as it starts: the current stage,
 * behind a mutex, written by the calls below and never read by any
 * computation.
 */
#ifndef SP_UTIL_PROGRESS_H
#define SP_UTIL_PROGRESS_H

#include <stdint.h>

typedef struct {
    int fd;            /* where lines go (2: stderr) */
    double delay_s;    /* nothing drawn before a stage is this old (default 0.5) */
    double interval_s; /* at most one redraw per interval (default 0.1) */
    /* The clock in seconds; NULL: CLOCK_MONOTONIC. Tests pass their own. */
    double (*now)(void);
    /* Also redraw from a thread of the module's own every interval (on the
     * real clock), so the elapsed time moves during long steps that count
     * nothing (one large MSM, a device call). Default on. */
    int ticker;
} sp_progress_config;

/* The defaults above, on stderr. */
sp_progress_config sp_progress_defaults(void);

/* Turns progress on with *c, or off (c == NULL), ending any stage
 * without drawing. Call while no stage runs (a program's start, --quiet). */
void sp_progress_configure(const sp_progress_config *c);

/* Whether progress is on. */
int sp_progress_on(void);

/* Starts a stage of `total` units (0: unknown, no percent), inside the
 * current one if one runs. stage is copied (at most 47 bytes kept). Every
 * begin needs its end. */
void sp_progress_begin(const char *stage, uint64_t total);

/* Names the part of the stage that runs now (copied, 31 bytes kept; NULL
 * or "" for none); shown after the stage's name at the next redraw. */
void sp_progress_part(const char *part);

/* Adds done units to the current stage (none running: ignored). */
void sp_progress_add(uint64_t units);

/* The units added to the current stage so far (0 when none is shown or
 * progress is off): a caller tops up what a callee did not count. */
uint64_t sp_progress_done(void);

/* Ends the current stage, erasing its line if one was drawn; the stage it
 * was begun in, if any, resumes. */
void sp_progress_end(void);

/* Prints a line that stays ("  <text>\n"), erasing a drawn progress line
 * first and redrawing nothing until the next add. */
void sp_progress_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
