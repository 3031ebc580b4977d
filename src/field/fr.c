/* Fr, the BLS12-381 scalar field: instantiation of field_tmpl.h. */
#include "field/field.h"
#include "field/consts.h"
#include "field/fp_asm.h"

#define F fr
#define N SP_FR_LIMBS
#define MODULUS_NAME FR
#define MODULUS SP_FR_MODULUS_INIT
#define MONT_ONE SP_FR_MONT_ONE_INIT
#define MONT_R2 SP_FR_MONT_R2_INIT
#define N0 SP_FR_N0
#define DEC_MAX SP_FR_DEC_MAX
#if SP_HAVE_FP_ASM
#define ASM_MUL sp_fr_mul_adx
#define ASM_SQR sp_fr_sqr_adx
#define ASM_ADD sp_fr_add_x86
#define ASM_SUB sp_fr_sub_x86
#define ASM_NEG sp_fr_neg_x86
#endif
#include "field/field_tmpl.h"
