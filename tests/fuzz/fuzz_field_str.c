/* libFuzzer target: sp_fp_from_str and sp_fr_from_str (decimal or 0x-hex
 * field elements from JSON files), checked against GMP: the status must
 * be what the contract in field/field.h says for the string, and an
 * accepted value must print back (to_dec) as GMP prints it. */
#include <gmp.h>
#include "fuzz.h"
#include "field/field.h"

#define MAX_STR 400

/* The contract: "0x"/"0X" then hex digits, or decimal digits; nothing
 * else, not empty. Returns the base, or 0 for SP_ERR_BAD_ENCODING. */
static int contract_base(const char **digits, const char *s)
{
    int base = 10;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        base = 16, s += 2;
    *digits = s;
    if (!*s)
        return 0;
    for (; *s; s++) {
        int ok = (*s >= '0' && *s <= '9') ||
                 (base == 16 && ((*s >= 'a' && *s <= 'f') || (*s >= 'A' && *s <= 'F')));
        if (!ok)
            return 0;
    }
    return base;
}

static void modulus(mpz_t m, const uint64_t *limbs, size_t n)
{
    mpz_import(m, n, -1, sizeof *limbs, 0, 0, limbs);
}

static void one_field(const char *s, int fp)
{
    const char *digits;
    int base = contract_base(&digits, s);
    sp_status want = SP_ERR_BAD_ENCODING;
    mpz_t v, m;
    mpz_inits(v, m, NULL);
    modulus(m, fp ? SP_FP_MODULUS : SP_FR_MODULUS, fp ? SP_FP_LIMBS : SP_FR_LIMBS);
    if (base) {
        FUZZ_CHECK(mpz_set_str(v, digits, base) == 0);
        want = mpz_cmp(v, m) < 0 ? SP_OK : SP_ERR_NOT_CANONICAL;
    }
    char dec[SP_FP_DEC_MAX];
    sp_status got;
    if (fp) {
        sp_fp x;
        got = sp_fp_from_str(&x, s);
        if (got == SP_OK) {
            FUZZ_CHECK(fuzz_limbs_lt(x.l, SP_FP_MODULUS, SP_FP_LIMBS));
            FUZZ_CHECK(sp_fp_to_dec(dec, sizeof dec, &x) == SP_OK);
        }
    } else {
        sp_fr x;
        got = sp_fr_from_str(&x, s);
        if (got == SP_OK) {
            FUZZ_CHECK(fuzz_limbs_lt(x.l, SP_FR_MODULUS, SP_FR_LIMBS));
            FUZZ_CHECK(sp_fr_to_dec(dec, sizeof dec, &x) == SP_OK);
        }
    }
    if (got != want)
        fprintf(stderr, "sp_%s_from_str returned %s, expected %s\n", fp ? "fp" : "fr", sp_status_str(got),
                sp_status_str(want));
    FUZZ_CHECK(got == want);
    if (got == SP_OK) {
        char *ref = mpz_get_str(NULL, 10, v);
        FUZZ_CHECK(!strcmp(ref, dec));
        void (*gmp_free)(void *, size_t);
        mp_get_memory_functions(NULL, NULL, &gmp_free);
        gmp_free(ref, strlen(ref) + 1);
    }
    mpz_clears(v, m, NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > MAX_STR)
        return 0;
    char s[MAX_STR + 1];
    memcpy(s, data, size);
    s[size] = '\0'; /* an embedded NUL simply ends the string, as in C */
    one_field(s, 1);
    one_field(s, 0);
    return 0;
}
