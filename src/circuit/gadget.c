/* What the gadgets' inline helpers share (gadget.h): the small constants,
 * the debug hook's state, 256-bit integers to Fr. */
#include <string.h>
#include "circuit/gadget.h"

const sp_fr sp_gl_small_[5] = {
    {{0xfffffffb00000005ULL, 0xa2b4340efff7cbfaULL, 0x002138283029381aULL, 0x43a4449fd0137269ULL}}, /* -2 */
    {{0xfffffffd00000003ULL, 0xfb38ec08fffb13fcULL, 0x99ad88181ce5880fULL, 0x5bc8f5f97cd877d8ULL}}, /* -1 */
    {{0, 0, 0, 0}},                                                                                 /* 0 */
    {{0x00000001fffffffeULL, 0x5884b7fa00034802ULL, 0x998c4fefecbc4ff5ULL, 0x1824b159acc5056fULL}}, /* 1 */
    {{0x00000003fffffffcULL, 0xb1096ff400069004ULL, 0x33189fdfd9789feaULL, 0x304962b3598a0adfULL}}, /* 2 */
};

_Thread_local uint64_t sp_gl_tamper_wire_ = UINT64_MAX;
_Thread_local const char *sp_gl_tamper_path_;

int sp_gl_tamper_hit(const sp_cs *cs)
{
    int hit = sp_gl_tamper_path_ ? !strcmp(cs->path, sp_gl_tamper_path_) : sp_gl_tamper_wire_ == cs->next_var;
    if (hit)
        sp_gl_tamper_wire_ = UINT64_MAX, sp_gl_tamper_path_ = NULL;
    return hit;
}

/* x >= r as 256-bit integers. */
static int u256_ge_r(const uint64_t x[4])
{
    for (int i = 3; i >= 0; i--)
        if (x[i] != SP_FR_MODULUS[i])
            return x[i] > SP_FR_MODULUS[i];
    return 1;
}

void sp_gl_fr_of_u256(sp_fr *r, const uint64_t x[4])
{
    uint64_t t[4];
    memcpy(t, x, sizeof t);
    while (u256_ge_r(t)) { /* at most 5 times: 2^256 < 6r */
        unsigned __int128 borrow = 0;
        for (int i = 0; i < 4; i++) {
            unsigned __int128 d = (unsigned __int128)t[i] - SP_FR_MODULUS[i] - borrow;
            t[i] = (uint64_t)d;
            borrow = (d >> 64) & 1;
        }
    }
    sp_status st = sp_fr_from_canonical(r, t);
    (void)st; /* t < r by construction */
}
