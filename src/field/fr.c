/* Fr, the scalar field of the build's curve: instantiation of field_tmpl.h. */
#include <string.h>
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

sp_status sp_fr_random_os(sp_fr *r)
{
    /* Rejection sampling on r's bit length (255 for BLS12-381, 254 for
     * BN254): uniform, at most about two draws on average. */
    const uint8_t top = (uint8_t)(0xff >> (__builtin_clzll(mod_[SP_FR_LIMBS - 1]) % 8));
    for (;;) {
        uint8_t buf[SP_FR_BYTES];
        if (sp_os_random(buf, sizeof buf) != SP_OK)
            return SP_ERR_IO;
        buf[SP_FR_BYTES - 1] &= top;
        sp_fr t;
        if (sp_fr_from_bytes_le(&t, buf) == SP_OK && !sp_fr_is_zero(&t)) {
            *r = t;
            memset(buf, 0, sizeof buf);
            return SP_OK;
        }
    }
}
