/*
 * Deadlines for timed waits: pthread_cond_timedwait takes an absolute
 * time on the condition variable's clock (CLOCK_REALTIME unless it was
 * made with another), which every waiter used to add up by hand.
 */
#ifndef SP_UTIL_CLOCK_H
#define SP_UTIL_CLOCK_H

#include <time.h>

/*
 * On input: clk, the condition variable's clock; ms, milliseconds from
 *   now (<= 0: now).
 * Returns the absolute time ms from now on clk, tv_nsec normalized.
 */
struct timespec sp_clock_after(clockid_t clk, long ms);

#endif
