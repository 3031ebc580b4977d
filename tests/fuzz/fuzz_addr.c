/* libFuzzer target: the daemon's address and Host/Origin decoders
 * (sp_dmn_addr_parse, sp_dmn_http_host_is_loopback,
 * sp_dmn_http_origin_is), on the input as one NUL-terminated string. An
 * accepted address must be consistent (a unix path of 1 to 107 bytes, or
 * a non-empty host of name or address characters and a decimal port up
 * to 65535) and survive sp_dmn_addr_format and a second parse unchanged;
 * a refused one leaves the struct zeroed. A Host
 * value judged loopback must be one of the loopback spellings (checked
 * here independently); an Origin matches the Host it was built from. */
#include <arpa/inet.h>
#include "fuzz.h"
#include "daemon/wire.h"

/* An independent reading of a loopback Host value (see wire.h). */
static int loopback_host(const char *s)
{
    char h[600];
    snprintf(h, sizeof h, "%s", s);
    char *port = NULL;
    if (h[0] == '[') {
        char *e = strchr(h, ']');
        if (!e || (e[1] && e[1] != ':'))
            return 0;
        port = e[1] ? e + 2 : NULL;
        e[1] = 0;
    } else if ((port = strchr(h, ':'))) {
        *port++ = 0;
    }
    if (port) {
        size_t n = strlen(port);
        if (n == 0 || n > 5 || strspn(port, "0123456789") != n || atol(port) > 65535)
            return 0;
    }
    for (char *p = h; *p; p++)
        if (*p >= 'A' && *p <= 'Z')
            *p = (char)(*p - 'A' + 'a');
    if (!strcmp(h, "localhost") || !strcmp(h, "[::1]"))
        return 1;
    unsigned a, b, c, d;
    char tail;
    if (sscanf(h, "%3u.%3u.%3u.%3u%c", &a, &b, &c, &d, &tail) != 4 || a != 127 || b > 255 || c > 255 || d > 255)
        return 0;
    char canon[20];
    snprintf(canon, sizeof canon, "%u.%u.%u.%u", a, b, c, d);
    return !strcmp(canon, h); /* no leading zeros, signs or spaces */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char s[600], err[SP_ERR_LEN];
    size_t n = size < sizeof s - 1 ? size : sizeof s - 1;
    memcpy(s, data, n);
    s[n] = 0;
    sp_dmn_addr a, b;
    static const sp_dmn_addr zero;
    if (sp_dmn_addr_parse(&a, s, err) == SP_OK) {
        if (a.is_unix) {
            FUZZ_CHECK(a.path[0] && strlen(a.path) <= SP_DMN_UNIX_PATH_MAX && !a.host[0] && !a.port[0]);
        } else {
            size_t pl = strlen(a.port);
            size_t hl = strlen(a.host);
            FUZZ_CHECK(hl && strspn(a.host, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789.-_:%") == hl);
            FUZZ_CHECK(pl >= 1 && pl <= 5);
            FUZZ_CHECK(strspn(a.port, "0123456789") == pl && atol(a.port) <= 65535);
        }
        char text[700];
        sp_dmn_addr_format(text, sizeof text, &a);
        FUZZ_CHECK(sp_dmn_addr_parse(&b, text, err) == SP_OK && !memcmp(&a, &b, sizeof a));
    } else {
        FUZZ_CHECK(!memcmp(&a, &zero, sizeof a) && err[0] && memchr(err, 0, sizeof err));
    }
    int lb = sp_dmn_http_host_is_loopback(s);
    FUZZ_CHECK(lb == loopback_host(s));
    char origin[620];
    snprintf(origin, sizeof origin, "http://%s", s);
    FUZZ_CHECK(sp_dmn_http_origin_is(origin, s) == (s[0] != 0));
    FUZZ_CHECK(!sp_dmn_http_origin_is(s, s) || !strncasecmp(s, "http://", 7));
    return 0;
}
