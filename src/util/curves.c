/* The curves snarkpipe knows (curves.h). */
#include "util/curves.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "util/json.h"

typedef struct {
    const char *name, *snarkjs, *label;
    const char *const *aliases; /* normalised: lower case, letters and digits only */
    size_t fp_bytes;
    uint64_t p[6]; /* base field prime, little-endian limbs (fp_bytes / 8 used) */
    uint64_t r[4]; /* scalar field prime (group order) */
} curve_info;

static const char *const BLS_ALIASES[] = {"bls12381", NULL};
static const char *const BN_ALIASES[] = {"bn254", "bn128", "altbn128", NULL};

static const curve_info CURVES[] = {
    [SP_CURVE_ID_BLS12_381] = {"bls12-381", "bls12381", "bls12-381", BLS_ALIASES, 48,
                               {0xb9feffffffffaaabULL, 0x1eabfffeb153ffffULL, 0x6730d2a0f6b0f624ULL,
                                0x64774b84f38512bfULL, 0x4b1ba7b6434bacd7ULL, 0x1a0111ea397fe69aULL},
                               {0xffffffff00000001ULL, 0x53bda402fffe5bfeULL, 0x3339d80809a1d805ULL,
                                0x73eda753299d7d48ULL}},
    [SP_CURVE_ID_BN254] = {"bn254", "bn128", "bn254 (bn128)", BN_ALIASES, 32,
                           {0x3c208c16d87cfd47ULL, 0x97816a916871ca8dULL, 0xb85045b68181585dULL,
                            0x30644e72e131a029ULL},
                           {0x43e1f593f0000001ULL, 0x2833e84879b97091ULL, 0xb85045b68181585dULL,
                            0x30644e72e131a029ULL}},
};
#define N_CURVES (sizeof CURVES / sizeof CURVES[0])

static const curve_info *info(sp_curve_id c)
{
    return c > SP_CURVE_ID_NONE && (size_t)c < N_CURVES ? &CURVES[c] : NULL;
}

const char *sp_curve_name(sp_curve_id c) { return info(c) ? info(c)->name : "unknown"; }
const char *sp_curve_snarkjs_name(sp_curve_id c) { return info(c) ? info(c)->snarkjs : "unknown"; }
const char *sp_curve_label(sp_curve_id c) { return info(c) ? info(c)->label : "unknown"; }
size_t sp_curve_fp_bytes(sp_curve_id c) { return info(c) ? info(c)->fp_bytes : 0; }

sp_curve_id sp_curve_from_name(const char *s, size_t n)
{
    char norm[16];
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (!isalnum((unsigned char)s[i]))
            continue;
        if (k + 1 >= sizeof norm)
            return SP_CURVE_ID_NONE;
        norm[k++] = (char)tolower((unsigned char)s[i]);
    }
    norm[k] = 0;
    for (size_t c = 1; c < N_CURVES; c++)
        for (const char *const *a = CURVES[c].aliases; *a; a++)
            if (!strcmp(norm, *a))
                return (sp_curve_id)c;
    return SP_CURVE_ID_NONE;
}

/* le[0..n) equals the limbs l[0..n/8) written little-endian. */
static int same_le(const uint8_t *le, size_t n, const uint64_t *l, size_t want_bytes)
{
    if (n != want_bytes)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (le[i] != (uint8_t)(l[i / 8] >> (8 * (i % 8))))
            return 0;
    return 1;
}

sp_curve_id sp_curve_from_scalar_prime(const uint8_t *le, size_t n)
{
    for (size_t c = 1; c < N_CURVES; c++)
        if (same_le(le, n, CURVES[c].r, 32))
            return (sp_curve_id)c;
    return SP_CURVE_ID_NONE;
}

sp_curve_id sp_curve_from_base_prime(const uint8_t *le, size_t n)
{
    for (size_t c = 1; c < N_CURVES; c++)
        if (same_le(le, n, CURVES[c].p, CURVES[c].fp_bytes))
            return (sp_curve_id)c;
    return SP_CURVE_ID_NONE;
}

/* ---- what a file says about its curve ---- */

static int read_at(int fd, void *buf, size_t n, uint64_t off)
{
    return pread(fd, buf, n, (off_t)off) == (ssize_t)n;
}

static uint32_t le32(const uint8_t *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }

/* An iden3 binfile (.zkey, .r1cs, .wtns, .ptau): the section holding the
 * prime (2 for a zkey, where the base field prime comes first; 1
 * otherwise, the base field's for a ptau), found by walking the section
 * table. */
static sp_curve_id sniff_binfile(int fd, uint64_t size, const uint8_t head[12])
{
    int zkey = !memcmp(head, "zkey", 4), base = zkey || !memcmp(head, "ptau", 4);
    uint32_t want = zkey ? 2 : 1, n_sections = le32(head + 8);
    uint64_t pos = 12;
    for (uint32_t i = 0; i < n_sections && i < 64 && pos + 12 <= size; i++) { /* iden3 files have a few */
        uint8_t h[12], prime[64];
        if (!read_at(fd, h, 12, pos))
            break;
        uint64_t len = le32(h + 4) | (uint64_t)le32(h + 8) << 32;
        if (le32(h) == want) {
            uint32_t n8;
            if (len < 4 || !read_at(fd, prime, 4, pos + 12))
                break;
            n8 = le32(prime);
            if (n8 > sizeof prime || len < 4 + (uint64_t)n8 || !read_at(fd, prime, n8, pos + 16))
                break;
            return base ? sp_curve_from_base_prime(prime, n8) : sp_curve_from_scalar_prime(prime, n8);
        }
        if (len > size - pos - 12)
            break; /* a section that claims more than the file holds */
        pos += 12 + len;
    }
    return SP_CURVE_ID_NONE;
}

/* snarkjs JSON: the top-level "curve" member (public.json has none). */
static sp_curve_id sniff_json(int fd, uint64_t size)
{
    enum { MAX = 16 << 20 }; /* keys and proofs are far smaller */
    if (size > MAX)
        return SP_CURVE_ID_NONE;
    char *text = malloc(size ? size : 1);
    sp_json_doc *doc = NULL;
    sp_curve_id c = SP_CURVE_ID_NONE;
    if (text && read_at(fd, text, size, 0) && sp_json_parse(&doc, text, size, NULL, NULL, 0) == SP_OK) {
        const sp_json_val *v = sp_json_get(sp_json_root(doc), "curve");
        if (v && v->type == SP_JSON_STRING)
            c = sp_curve_from_name(v->text, v->n);
    }
    sp_json_free(doc);
    free(text);
    return c;
}

sp_curve_id sp_curve_of_file(int fd, uint64_t size)
{
    uint8_t head[64];
    size_t n = size < sizeof head ? (size_t)size : sizeof head, j = 0;
    if (n < 4 || !read_at(fd, head, n, 0))
        return SP_CURVE_ID_NONE;
    if (n >= 12 && (!memcmp(head, "zkey", 4) || !memcmp(head, "r1cs", 4) || !memcmp(head, "wtns", 4) ||
                    !memcmp(head, "ptau", 4)))
        return sniff_binfile(fd, size, head);
    if (n >= 8 && !memcmp(head, "SPREC\0\1\0", 8))
        return SP_CURVE_ID_BLS12_381; /* porep-like recordings are BLS12-381's (circuit/rec.h) */
    while (j < n && (head[j] == ' ' || head[j] == '\t' || head[j] == '\r' || head[j] == '\n'))
        j++;
    return j < n && head[j] == '{' ? sniff_json(fd, size) : SP_CURVE_ID_NONE; /* only an object has "curve" */
}

void sp_curve_mismatch_msg(char *out, size_t out_len, const char *what, sp_curve_id file_curve,
                           sp_curve_id prover)
{
    snprintf(out, out_len, "%s is for %s but this is the %s prover", what, sp_curve_label(file_curve),
             sp_curve_label(prover));
}
