/* multipart/form-data parsing (form.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "daemon/form.h"

/* The boundary parameter of a Content-Type value, unquoted, into b. */
static int boundary_of(char *b, size_t b_len, const char *ct)
{
    if (!ct || strncasecmp(ct, "multipart/form-data", 19) != 0)
        return -1;
    const char *p = strcasestr(ct, "boundary=");
    if (!p)
        return -1;
    p += 9;
    size_t n;
    if (*p == '"') {
        p++;
        const char *q = strchr(p, '"');
        if (!q)
            return -1;
        n = (size_t)(q - p);
    } else {
        n = strcspn(p, "; \t");
    }
    if (n == 0 || n > 70 || n + 1 > b_len) /* RFC 2046: 1 to 70 characters */
        return -1;
    memcpy(b, p, n);
    b[n] = 0;
    return 0;
}

/* Copies the value of parameter key (name= or filename=) of a
 * Content-Disposition line into out; 1 when present. */
static int disp_param(char *out, size_t out_len, const char *line, size_t line_len, const char *key)
{
    size_t kl = strlen(key);
    for (size_t i = 0; i + kl + 1 < line_len; i++) {
        if ((i == 0 || line[i - 1] == ' ' || line[i - 1] == ';') && strncasecmp(line + i, key, kl) == 0 &&
            line[i + kl] == '=') {
            const char *v = line + i + kl + 1, *end = line + line_len;
            size_t n;
            if (v < end && *v == '"') {
                v++;
                const char *q = memchr(v, '"', (size_t)(end - v));
                if (!q)
                    return 0;
                n = (size_t)(q - v);
            } else {
                n = 0;
                while (v + n < end && v[n] != ';' && v[n] != ' ')
                    n++;
            }
            if (n + 1 > out_len)
                return -1;
            memcpy(out, v, n);
            out[n] = 0;
            return 1;
        }
    }
    return 0;
}

/* Parses the header block head[0..n) of one part into p. */
static int part_headers(sp_dmn_form_part *p, const char *head, size_t n, char err[SP_ERR_LEN])
{
    int have_name = 0;
    for (size_t i = 0; i < n;) {
        const char *l = head + i;
        const char *e = memchr(l, '\n', n - i);
        size_t ll = e ? (size_t)(e - l) : n - i;
        i += ll + 1;
        if (ll && l[ll - 1] == '\r')
            ll--;
        if (ll < 20 || strncasecmp(l, "Content-Disposition:", 20) != 0)
            continue;
        if (!strcasestr(l, "form-data")) /* strcasestr stops at the NUL after the head */
            break;
        int r = disp_param(p->name, sizeof p->name, l, ll, "name");
        if (r < 0 || disp_param(p->filename, sizeof p->filename, l, ll, "filename") < 0) {
            snprintf(err, SP_ERR_LEN, "multipart: a field or file name is too long");
            return -1;
        }
        have_name = r == 1 && p->name[0];
    }
    if (!have_name) {
        snprintf(err, SP_ERR_LEN, "multipart: a part has no Content-Disposition: form-data; name=...");
        return -1;
    }
    return 0;
}

static const uint8_t *find(const uint8_t *hay, size_t n, const char *needle, size_t nl)
{
    return n >= nl ? memmem(hay, n, needle, nl) : NULL;
}

sp_status sp_dmn_form_parse(sp_dmn_form_part **parts, size_t *n, const char *content_type, const uint8_t *body,
                            size_t len, char err[SP_ERR_LEN])
{
    char b[80], delim[90];
    *parts = NULL;
    *n = 0;
    if (boundary_of(b, sizeof b, content_type)) {
        snprintf(err, SP_ERR_LEN, "multipart: Content-Type has no usable boundary");
        return SP_ERR_BAD_ENCODING;
    }
    size_t dl = (size_t)snprintf(delim, sizeof delim, "\r\n--%s", b);
    /* The first delimiter may open the body without its CRLF. */
    const uint8_t *p = len >= dl - 2 && !memcmp(body, delim + 2, dl - 2) ? body + dl - 2 : NULL;
    if (!p && (p = find(body, len, delim, dl)))
        p += dl;
    sp_dmn_form_part *out = NULL;
    size_t cnt = 0, cap = 0;
    const uint8_t *end = body + len;
    while (p) {
        if (end - p >= 2 && p[0] == '-' && p[1] == '-') { /* closing delimiter */
            *parts = out;
            *n = cnt;
            return SP_OK;
        }
        const uint8_t *hs = find(p, (size_t)(end - p), "\r\n", 2); /* end of the delimiter line */
        const uint8_t *he = hs ? find(hs, (size_t)(end - hs), "\r\n\r\n", 4) : NULL;
        const uint8_t *next = he ? find(he + 4, (size_t)(end - he - 4), delim, dl) : NULL;
        if (!next) {
            snprintf(err, SP_ERR_LEN, "multipart: body ends inside a part (no closing boundary)");
            break;
        }
        if (cnt == SP_DMN_FORM_MAX_PARTS) {
            snprintf(err, SP_ERR_LEN, "multipart: more than %d parts", SP_DMN_FORM_MAX_PARTS);
            break;
        }
        if (cnt == cap) {
            cap = cap ? cap * 2 : 8;
            sp_dmn_form_part *np = realloc(out, cap * sizeof *np);
            if (!np) {
                free(out);
                return SP_ERR_NOMEM;
            }
            out = np;
        }
        sp_dmn_form_part *pt = &out[cnt];
        memset(pt, 0, sizeof *pt);
        char head[2048];
        size_t hl = (size_t)(he + 2 - hs - 2);
        if (hl >= sizeof head) {
            snprintf(err, SP_ERR_LEN, "multipart: part headers longer than %zu bytes", sizeof head - 1);
            break;
        }
        memcpy(head, hs + 2, hl);
        head[hl] = 0;
        if (part_headers(pt, head, hl, err))
            break;
        pt->data = he + 4;
        pt->len = (size_t)(next - pt->data);
        cnt++;
        p = next + dl;
    }
    if (!p)
        snprintf(err, SP_ERR_LEN, "multipart: no boundary line in the body");
    free(out);
    return SP_ERR_BAD_ENCODING;
}

const sp_dmn_form_part *sp_dmn_form_get(const sp_dmn_form_part *parts, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(parts[i].name, name))
            return &parts[i];
    return NULL;
}
