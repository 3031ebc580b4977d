/* The QAP vectors' tail (rows.h). */
#include <string.h>
#include "circuit/rows.h"

sp_status sp_cs_abc_tail(sp_fr *a, sp_fr *b, sp_fr *c, size_t n, uint64_t n_rows, const sp_fr *w, uint64_t n_public)
{
    if (n < n_rows + n_public + 1)
        return SP_ERR_INVALID_ARG;
    for (uint64_t s = 0; s <= n_public; s++) {
        a[n_rows + s] = w[s];
        sp_fr_set_zero(&b[n_rows + s]);
        sp_fr_set_zero(&c[n_rows + s]);
    }
    size_t from = (size_t)(n_rows + n_public + 1);
    memset(a + from, 0, (n - from) * sizeof *a);
    memset(b + from, 0, (n - from) * sizeof *b);
    memset(c + from, 0, (n - from) * sizeof *c);
    return SP_OK;
}

/* The field's own tests are constant time and cost a call each; these
 * are variable time on purpose. */
static int is_zero_var(const sp_fr *a)
{
    uint64_t t = 0;
    for (int i = 0; i < SP_FR_LIMBS; i++)
        t |= a->l[i];
    return t == 0;
}

static int eq_var(const sp_fr *a, const sp_fr *b) { return memcmp(a, b, sizeof *a) == 0; }

int sp_cs_row_holds_var(const sp_fr *a, const sp_fr *b, const sp_fr *c, const sp_fr *one)
{
    if (is_zero_var(a) || is_zero_var(b))
        return is_zero_var(c);
    if (eq_var(a, one))
        return eq_var(b, c);
    if (eq_var(b, one))
        return eq_var(a, c);
    sp_fr ab;
    sp_fr_mul(&ab, a, b);
    return eq_var(&ab, c);
}
