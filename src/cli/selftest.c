/*
 * `snarkpipe selftest [VECTORS]`: a short, readable check of the
 * arithmetic foundation, for `make demo` and for users on a new machine.
 *
 *   1. the generators encode to the constants of the curve's specification
 *      (BLS12-381: the zcash serialization; BN254: EIP-196/197's EVM form);
 *   2. the generators have order r;
 *   3. the pairing is bilinear and non-degenerate, on scalars a, b drawn
 *      fresh from the OS and printed: e([a]G1, [b]G2) = e([ab]G1, G2)
 *      = e(G1, [ab]G2) != 1;
 *   4. with VECTORS, every known answer of that file (kat.h).
 */
#include <stdio.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/kat.h"
#include "curve/curve.h"
#include "curve/encode.h"
#include "field/fp12.h"
#include "pairing/pairing.h"

#if SP_CURVE_BN254
/* The generators in the EVM form (EIP-196's G1 (1, 2), EIP-197's G2 as
 * x.c1 | x.c0 | y.c1 | y.c0). */
#define GEN_SPEC "the EVM form of EIP-196/197"
#define G1_GEN_BYTES SP_G1_EVM_BYTES
#define G2_GEN_BYTES SP_G2_EVM_BYTES
#define g1_gen_encode sp_g1_to_evm
#define g2_gen_encode sp_g2_to_evm
static const char G1_GEN_HEX[] = "0000000000000000000000000000000000000000000000000000000000000001"
                                 "0000000000000000000000000000000000000000000000000000000000000002";
static const char G2_GEN_HEX[] = "198e9393920d483a7260bfb731fb5d25f1aa493335a9e71297e485b7aef312c2"
                                 "1800deef121f1e76426a00665e5c4479674322d4f75edadd46debd5cd992f6ed"
                                 "090689d0585ff075ec9e99ad690c3395bc4b313370b38ef355acdadcd122975b"
                                 "12c85ea5db8c6deb4aab71808dcb408fe3d1e7690c43d37b4ce6cc0166fa7daa";
#else
/* Compressed generators, from the zcash serialization format of BLS12-381
 * (the same points as the IETF pairing-friendly-curves draft, section 4.2.1). */
#define GEN_SPEC "the zcash serialization spec"
#define G1_GEN_BYTES SP_G1_COMPRESSED_BYTES
#define G2_GEN_BYTES SP_G2_COMPRESSED_BYTES
#define g1_gen_encode sp_g1_to_bytes_compressed
#define g2_gen_encode sp_g2_to_bytes_compressed
static const char G1_GEN_HEX[] =
    "97f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb";
static const char G2_GEN_HEX[] =
    "93e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e"
    "024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8";
#endif

static int checks_, failures_;

static void report(int ok, const char *what)
{
    checks_++;
    failures_ += !ok;
    printf("  %-62s %s\n", what, ok ? "ok" : "FAILED");
}

static void to_hex(char *out, const uint8_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        sprintf(out + 2 * i, "%02x", b[i]);
}

static void check_generators(void)
{
    sp_g1_affine g1;
    sp_g2_affine g2;
    uint8_t b1[G1_GEN_BYTES], b2[G2_GEN_BYTES];
    char h1[2 * sizeof b1 + 1], h2[2 * sizeof b2 + 1];
    sp_g1_generator(&g1);
    sp_g2_generator(&g2);
    g1_gen_encode(b1, &g1);
    g2_gen_encode(b2, &g2);
    to_hex(h1, b1, sizeof b1);
    to_hex(h2, b2, sizeof b2);
    printf("  G1 generator  %.16s..%s\n", h1, h1 + strlen(h1) - 8);
    report(strcmp(h1, G1_GEN_HEX) == 0, "  encodes as in " GEN_SPEC);
    printf("  G2 generator  %.16s..%s\n", h2, h2 + strlen(h2) - 8);
    report(strcmp(h2, G2_GEN_HEX) == 0, "  encodes as in " GEN_SPEC);
    report(sp_g1_in_subgroup_slow(&g1) && sp_g2_in_subgroup_slow(&g2),
           "[r]G1 = 0 and [r]G2 = 0");
}

/* A uniform nonzero scalar from the OS (rejection sampling on 255 bits). */
static int os_scalar(sp_fr *r)
{
    uint8_t b[SP_FR_BYTES];
    do {
        if (sp_os_random(b, sizeof b) != SP_OK)
            return 0;
        b[0] &= 0x7f;
    } while (sp_fr_from_bytes_be(r, b) != SP_OK || sp_fr_is_zero(r));
    return 1;
}

static void print_scalar(const char *name, const sp_fr *k)
{
    char dec[SP_FR_DEC_MAX];
    if (sp_fr_to_dec(dec, sizeof dec, k) == SP_OK)
        printf("    %s = %s\n", name, dec);
}

/* e([x]G1, [y]G2) with the constant-time multiplications. */
static void pairing_of(sp_fp12 *e, const sp_fr *x, const sp_fr *y)
{
    sp_g1_affine g1, p;
    sp_g2_affine g2, q;
    sp_g1_jac j1;
    sp_g2_jac j2;
    sp_g1_generator(&g1);
    sp_g2_generator(&g2);
    sp_g1_jac_from_affine(&j1, &g1);
    sp_g2_jac_from_affine(&j2, &g2);
    sp_g1_mul(&j1, &j1, x);
    sp_g2_mul(&j2, &j2, y);
    sp_g1_jac_to_affine(&p, &j1);
    sp_g2_jac_to_affine(&q, &j2);
    sp_pairing(e, &p, &q);
}

static int check_bilinearity(void)
{
    sp_fr a, b, ab, one;
    if (!os_scalar(&a) || !os_scalar(&b)) {
        fprintf(stderr, "snarkpipe: getrandom failed\n");
        return 0;
    }
    sp_fr_mul(&ab, &a, &b);
    sp_fr_set_one(&one);
    printf("  pairing bilinearity, scalars fresh from getrandom:\n");
    print_scalar("a", &a);
    print_scalar("b", &b);
    sp_fp12 e1, e2, e3;
    pairing_of(&e1, &a, &b);
    pairing_of(&e2, &ab, &one);
    pairing_of(&e3, &one, &ab);
    report(sp_fp12_eq(&e1, &e2) && sp_fp12_eq(&e1, &e3) && !sp_fp12_is_one(&e1),
           "e([a]G1, [b]G2) = e([ab]G1, G2) = e(G1, [ab]G2) != 1");
    return 1;
}

/* f is the open known-answer file called path. */
static void check_vectors(FILE *f, const char *path)
{
    sp_kat_report rep;
    unsigned long bad = sp_kat_check_file(&rep, f, path, stderr);
    unsigned long total = 0;
    int kinds = 0;
    for (int i = 0; i < SP_KAT_KINDS; i++) {
        total += rep.checked[i];
        kinds += rep.checked[i] > 0;
    }
    char what[128];
    snprintf(what, sizeof what, "%lu known answers of %d kinds (@noble/curves)", total, kinds);
    printf("  %s:\n", path);
    report(bad == 0 && total > 0, what);
    printf("   ");
    for (int i = 0; i < SP_KAT_KINDS; i++)
        printf(" %s %lu%s", sp_kat_kind_name(i), rep.checked[i], i % 7 == 6 ? "\n   " : "");
    printf("\n");
}

int sp_cli_selftest(int argc, char **argv)
{
    if (argc > 2) {
        fprintf(stderr, "usage: snarkpipe selftest [VECTORS]\n");
        return SP_EXIT_USAGE;
    }
    FILE *f = NULL;
    if (argc == 2 && !(f = fopen(argv[1], "r"))) {
        perror(argv[1]);
        return SP_EXIT_RUNTIME;
    }
    printf("snarkpipe selftest: %s arithmetic\n", SP_CURVE_NAME);
    check_generators();
    int ok = check_bilinearity();
    if (ok && f)
        check_vectors(f, argv[1]);
    if (f)
        fclose(f);
    if (!ok)
        return SP_EXIT_RUNTIME;
    printf("selftest: %d checks, %s\n", checks_, failures_ ? "FAILED" : "all passed");
    return failures_ ? SP_EXIT_CHECK : SP_EXIT_OK;
}
