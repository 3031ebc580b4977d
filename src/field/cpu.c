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
#else
static int cpu_has_adx_bmi2(void) { return 0; }
#endif

sp_cpu_switch sp_field_asm = SP_CPU_SWITCH(cpu_has_adx_bmi2);

int sp_field_asm_active(void) { return sp_cpu_switch_active(&sp_field_asm); }

int sp_field_use_asm(int on) { return sp_cpu_switch_use(&sp_field_asm, on); }
