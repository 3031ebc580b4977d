/* Fr, the BLS12-381 scalar field: instantiation of field_tmpl.h. */
#include "field/field.h"
#include "field/fp_asm.h"

#define F fr
#define N SP_FR_LIMBS
#define MODULUS_NAME FR
#define MODULUS {0xffffffff00000001ULL, 0x53bda402fffe5bfeULL, 0x3339d80809a1d805ULL, \
                 0x73eda753299d7d48ULL}
#define MONT_ONE {0x00000001fffffffeULL, 0x5884b7fa00034802ULL, 0x998c4fefecbc4ff5ULL, \
                  0x1824b159acc5056fULL}
#define MONT_R2 {0xc999e990f3f29c6dULL, 0x2b6cedcb87925c23ULL, 0x05d314967254398fULL, \
                 0x0748d9d99f59ff11ULL}
#define N0 0xfffffffeffffffffULL
#define DEC_MAX SP_FR_DEC_MAX
#if SP_HAVE_FP_ASM
#define ASM_MUL sp_fr_mul_adx
#define ASM_SQR sp_fr_sqr_adx
#endif
#include "field/field_tmpl.h"
