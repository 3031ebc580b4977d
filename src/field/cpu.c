/* Run-time choice between the assembly and the portable field paths. */
#include <stdlib.h>
#include "field/field.h"
#include "field/fp_asm.h"

#if SP_HAVE_FP_ASM
#include <cpuid.h>
static int cpu_has_adx_bmi2(void)
{
    unsigned a, b, c, d;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d))
        return 0;
    return ((b >> 19) & 1) && ((b >> 8) & 1); /* ADX, BMI2 */
}
#else
static int cpu_has_adx_bmi2(void) { return 0; }
#endif

/* Threads racing on the first decision all store the same value. */
_Atomic int sp_field_asm_state = -1;

static int decide(void)
{
    const char *e = getenv("SP_NO_ASM");
    int on = cpu_has_adx_bmi2() && !(e && *e && *e != '0');
    atomic_store_explicit(&sp_field_asm_state, on, memory_order_relaxed);
    return on;
}

int sp_field_asm_active(void)
{
    int s = atomic_load_explicit(&sp_field_asm_state, memory_order_relaxed);
    return s >= 0 ? s : decide();
}

int sp_field_use_asm(int on)
{
    int prev = sp_field_asm_active();
    atomic_store_explicit(&sp_field_asm_state, on && cpu_has_adx_bmi2(), memory_order_relaxed);
    return prev;
}
