/* The run-time extension switch (see cpu_switch.h). */
#include <stdlib.h>
#include "util/cpu_switch.h"

int sp_cpu_switch_active(sp_cpu_switch *s)
{
    int v = atomic_load_explicit(&s->state, memory_order_relaxed);
    if (v >= 0)
        return v;
    const char *e = getenv("SP_NO_ASM");
    v = s->cpu_has() && !(e && *e && *e != '0');
    atomic_store_explicit(&s->state, v, memory_order_relaxed);
    return v;
}

int sp_cpu_switch_use(sp_cpu_switch *s, int on)
{
    int prev = sp_cpu_switch_active(s);
    atomic_store_explicit(&s->state, on && s->cpu_has(), memory_order_relaxed);
    return prev;
}
