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
