/*
 * Known answers from @noble/curves, an independent implementation:
 * every line of tests/vectors/noble_bls12381.txt (noble_bn254.txt in a
 * BN254 build; written by tools/noble/gen.mjs; format and Fp12 coordinate
 * order described there and in src/cli/kat.c) is recomputed with our
 * field, curve and pairing code and compared byte for byte. Pairing values
 * are the 12 Fp coordinates c0.c0.c0, c0.c0.c1, c0.c1.c0, ..., c1.c2.c1 of
 * Fp12 = Fp6[w]/(w^2 - v), Fp6 = Fp2[v]/(v^3 - xi), Fp2 = Fp[u]/(u^2+1),
 * after the final exponentiation.
 *
 * The checker itself is tested first: damaged, unknown and malformed lines
 * must be reported, never skipped, and one damaged copy of a line of each
 * kind must fail.
 *
 * Usage: test_noble [VECTORS]   (default tests/vectors/noble_<curve>.txt,
 * relative to the repository root, where `make test` runs).
 */
#include <string.h>
#include "test.h"
#include "cli/kat.h"
#include "field/field.h"

#if SP_CURVE_BN254
#define DEFAULT_VECTORS "tests/vectors/noble_bn254.txt"
#else
#define DEFAULT_VECTORS "tests/vectors/noble_bls12381.txt"
#endif
#define FP_HEX (2 * SP_FP_BYTES) /* hex digits of an fp value */

/* Runs the checker on text; returns its problem count, *rep filled. */
static unsigned long check_text(sp_kat_report *rep, const char *text)
{
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    if (!f) {
        CHECKF(0, "fmemopen failed");
        memset(rep, 0, sizeof *rep);
        return 0;
    }
    unsigned long bad = sp_kat_check_file(rep, f, "(text)", NULL);
    fclose(f);
    return bad;
}

static void fp_hex(char *out, uint64_t v)
{
    snprintf(out, FP_HEX + 1, "%0*d%016" PRIx64, FP_HEX - 16, 0, v);
}

/* Hand-made lines: a right answer, a wrong one, and lines the checker
 * must call malformed. */
static void test_checker_basics(void)
{
    char one[FP_HEX + 1], two[FP_HEX + 1], three[FP_HEX + 1], four[FP_HEX + 1], line[512];
    sp_kat_report rep;
    fp_hex(one, 1);
    fp_hex(two, 2);
    fp_hex(three, 3);
    fp_hex(four, 4);

    snprintf(line, sizeof line, "# comment\nfp_add %s %s %s\n", one, two, three);
    CHECK(check_text(&rep, line) == 0 && rep.checked[0] == 1 && rep.lines == 2);
    snprintf(line, sizeof line, "fp_add %s %s %s", one, two, four); /* no final newline */
    CHECK(check_text(&rep, line) == 1 && rep.failed[0] == 1 && rep.bad_lines == 0);

    const char *malformed[] = {
        "fp_div 00 00 00\n",     /* unknown kind */
        "\n",                    /* empty line */
        "fp_add  00\n",          /* empty field */
        "pairing\n",             /* wrong field count */
    };
    for (size_t i = 0; i < sizeof malformed / sizeof malformed[0]; i++)
        CHECKF(check_text(&rep, malformed[i]) == 1 && rep.bad_lines == 1, "case %zu", i);

    snprintf(line, sizeof line, "fp_add %s %s %s x\n", one, two, three); /* extra field */
    CHECK(check_text(&rep, line) == 1 && rep.bad_lines == 1);
    snprintf(line, sizeof line, "fp_add %s %s %s\n", one, two, three);
    line[10] = 'A'; /* uppercase is not in the format */
    CHECK(check_text(&rep, line) == 1 && rep.bad_lines == 1);
    snprintf(line, sizeof line, "fp_add %.*s %s %s\n", FP_HEX - 2, one, two, three); /* short value */
    CHECK(check_text(&rep, line) == 1 && rep.bad_lines == 1);
    snprintf(line, sizeof line, "fp_add ff%.*s %s %s\n", FP_HEX - 2, one + 2, two, three); /* >= p */
    CHECK(check_text(&rep, line) == 1 && rep.bad_lines == 1);

    static char longline[SP_KAT_LINE_MAX + 64];
    memset(longline, '0', sizeof longline - 2);
    memcpy(longline, "fp_add ", 7);
    longline[sizeof longline - 2] = '\n';
    CHECK(check_text(&rep, longline) == 1 && rep.bad_lines == 1 && rep.lines == 1);
}

/* A copy of line with its answer changed: the last character is moved to
 * a neighbouring digit of the same alphabet (hex or decimal); for invalid
 * encodings the expected reason is changed instead, and a non-square
 * becomes 1, a square (a neighbour of a non-square may be one too: BN254's
 * first, p - 1, has p - 2 next to it, both non-squares as p = 7 mod 8). */
static void damage(char *out, size_t cap, const char *line)
{
    if (strncmp(line, "fp_nosqrt ", 10) == 0) {
        char one[FP_HEX + 1];
        fp_hex(one, 1);
        snprintf(out, cap, "fp_nosqrt %s", one);
        return;
    }
    static const char *reasons[] = {"not_in_subgroup", "not_on_curve", "no_sqrt",
                                    "not_canonical",   "bad_flags",    "bad_length"};
    snprintf(out, cap, "%s", line);
    char *sp = strchr(out, ' ');
    if (strstr(out, "_invalid ") == out + 2 && sp) {
        const char *hex = strchr(sp + 1, ' ');
        char reason[32];
        snprintf(reason, sizeof reason, "%.*s", hex ? (int)(hex - sp - 1) : 0, sp + 1);
        size_t i = 0;
        while (i < 6 && strcmp(reasons[i], reason) != 0)
            i++;
        snprintf(out, cap, "%.*s %s%s", (int)(sp - out), line, reasons[(i + 1) % 6], hex ? hex : "");
        return;
    }
    size_t n = strlen(out);
    char *c = &out[n - 1];
    *c = *c == '0' ? '1' : *c == 'a' ? 'b' : (char)(*c - 1);
}

/* For every kind, the first line of that kind damaged must not pass. */
static void test_checker_catches_damage(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return; /* reported by the main check */
    static char line[SP_KAT_LINE_MAX], bad[SP_KAT_LINE_MAX + 64];
    int seen[SP_KAT_KINDS] = {0};
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        for (int k = 0; k < SP_KAT_KINDS; k++) {
            size_t n = strlen(sp_kat_kind_name(k));
            if (seen[k] || strncmp(line, sp_kat_kind_name(k), n) != 0 || line[n] != ' ')
                continue;
            seen[k] = 1;
            damage(bad, sizeof bad, line);
            sp_kat_report rep;
            CHECKF(check_text(&rep, bad) == 1, "damaged %s line passes", sp_kat_kind_name(k));
        }
    }
    fclose(f);
}

static void test_vectors(const char *path)
{
    FILE *f = fopen(path, "r");
    CHECKF(f != NULL, "cannot open %s (run from the repository root)", path);
    if (!f)
        return;
    sp_kat_report rep;
    unsigned long bad = sp_kat_check_file(&rep, f, path, stderr);
    fclose(f);
    CHECKF(rep.bad_lines == 0, "%lu unknown or malformed lines", rep.bad_lines);
    unsigned long total = 0;
    printf("%s: vectors checked per kind:\n ", sp_test_name);
    for (int k = 0; k < SP_KAT_KINDS; k++) {
        printf(" %s %lu%s", sp_kat_kind_name(k), rep.checked[k], k % 7 == 6 ? "\n " : "");
        CHECKF(rep.checked[k] > 0, "no %s vectors in %s", sp_kat_kind_name(k), path);
        CHECKF(rep.failed[k] == 0, "%lu %s vectors failed", rep.failed[k], sp_kat_kind_name(k));
        total += rep.checked[k];
    }
    printf("\n");
    printf("%s: %lu vectors, %lu failed or malformed\n", sp_test_name, total, bad);
}

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : DEFAULT_VECTORS;
    sp_test_begin("test_noble", NULL);
    test_checker_basics();
    test_checker_catches_damage(path);
    test_vectors(path);
    return sp_test_done();
}
