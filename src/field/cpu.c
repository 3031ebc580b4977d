/* Run-time choice between the assembly and the portable field paths. */
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
/* AVX-512F and IFMA, and the OS saving the vector state (XCR0: SSE, AVX,
 * opmask, the upper halves of zmm0-15 and zmm16-31). */
static int cpu_has_ifma(void)
{
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d) || !((c >> 27) & 1)) /* OSXSAVE */
        return 0;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d) || !((b >> 16) & 1) || !((b >> 21) & 1))
        return 0;
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return (lo & 0xe6) == 0xe6;
}
#else
static int cpu_has_adx_bmi2(void) { return 0; }
static int cpu_has_ifma(void) { return 0; }
#endif

sp_cpu_switch sp_field_asm = SP_CPU_SWITCH(cpu_has_adx_bmi2);

int sp_field_asm_active(void) { return sp_cpu_switch_active(&sp_field_asm); }

int sp_field_use_asm(int on) { return sp_cpu_switch_use(&sp_field_asm, on); }

static sp_cpu_switch sp_field_ifma = SP_CPU_SWITCH(cpu_has_ifma);

int sp_field_ifma_active(void) { return sp_cpu_switch_active(&sp_field_ifma); }

int sp_field_use_ifma(int on) { return sp_cpu_switch_use(&sp_field_ifma, on); }
