/*
 * A run-time choice between a CPU-extension path and the portable code it
 * is tested against: the field's assembly (ADX/BMI2), SHA-256's SHA
 * extensions, CRC-32C's crc32 instruction. The path is on when the CPU has
 * the extension and $SP_NO_ASM is unset, empty or "0"; tests flip it with
 * sp_cpu_switch_use to compare both paths on one machine.
 */
#ifndef SP_UTIL_CPU_SWITCH_H
#define SP_UTIL_CPU_SWITCH_H

#include <stdatomic.h>

typedef struct {
    _Atomic int state;    /* -1 until decided, then 1 (extension) or 0 (portable) */
    int (*cpu_has)(void); /* whether this CPU has the extension */
} sp_cpu_switch;

/* A switch for the extension that has() detects, not yet decided. */
#define SP_CPU_SWITCH(has) {-1, (has)}

/* Returns 1 when the extension path is in use, deciding on the first call
 * (threads racing on it store the same value). */
int sp_cpu_switch_active(sp_cpu_switch *s);
/* Turns the extension path on or off. Returns the previous setting; on is
 * ignored on a CPU without the extension. */
int sp_cpu_switch_use(sp_cpu_switch *s, int on);

#endif
