/* libFuzzer target: the daemon's multipart/form-data reader
 * (sp_dmn_form_parse). The first input byte picks the boundary's length
 * (1 to 70), the next bytes the boundary (mapped onto RFC 2046's
 * characters), the rest is the body. An
 * accepted body must give at most SP_DMN_FORM_MAX_PARTS parts, in body order,
 * each lying inside the body without overlapping the next, with a
 * non-empty NUL-terminated name, and each part's data followed by the
 * delimiter; sp_dmn_form_get must return the first part of a name. A refusal
 * must leave no array behind and say why. */
#include "fuzz.h"
#include "daemon/form.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    size_t bl = 1 + data[0] % 70;
    if (size < 1 + bl)
        return 0;
    /* the boundary in RFC 2046's characters (bchars without space), so the header carries all of it */
    static const char bchars[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'()+_,-./:=?";
    char bnd[71], ct[128], delim[80];
    for (size_t i = 0; i < bl; i++)
        bnd[i] = bchars[data[1 + i] % (sizeof bchars - 1)];
    bnd[bl] = 0;
    snprintf(ct, sizeof ct, "multipart/form-data; boundary=%s", bnd);
    const uint8_t *body = data + 1 + bl;
    size_t len = size - 1 - bl;
    uint8_t *copy = malloc(len ? len : 1); /* exact size: ASan sees reads past the end */
    if (!copy)
        return 0;
    memcpy(copy, body, len);
    sp_dmn_form_part *parts = (sp_dmn_form_part *)1;
    size_t n = 7;
    char err[SP_ERR_LEN] = "";
    sp_status st = sp_dmn_form_parse(&parts, &n, ct, copy, len, err);
    if (st != SP_OK) {
        FUZZ_CHECK(parts == NULL && n == 0 && err[0] && memchr(err, 0, sizeof err));
        FUZZ_CHECK(st == SP_ERR_BAD_ENCODING || st == SP_ERR_NOMEM);
        free(copy);
        return 0;
    }
    FUZZ_CHECK(n <= SP_DMN_FORM_MAX_PARTS && (n == 0 || parts != NULL));
    int dl = snprintf(delim, sizeof delim, "\r\n--%s", bnd);
    const uint8_t *prev_end = copy;
    for (size_t i = 0; i < n; i++) {
        const sp_dmn_form_part *p = &parts[i];
        FUZZ_CHECK(memchr(p->name, 0, sizeof p->name) && p->name[0]);
        FUZZ_CHECK(memchr(p->filename, 0, sizeof p->filename));
        FUZZ_CHECK(p->data >= prev_end && p->data <= copy + len && p->len <= (size_t)(copy + len - p->data));
        FUZZ_CHECK((size_t)(copy + len - p->data) - p->len >= (size_t)dl &&
                   !memcmp(p->data + p->len, delim, (size_t)dl));
        FUZZ_CHECK(sp_dmn_form_get(parts, n, p->name) <= p);
        prev_end = p->data + p->len;
    }
    /* a name of 64 characters cannot be a part's (names hold at most 63) */
    FUZZ_CHECK(sp_dmn_form_get(parts, n, "0123456789012345678901234567890123456789012345678901234567890123") == NULL);
    free(parts);
    free(copy);
    return 0;
}
