/* iden3 binfile container: reader over mmap or memory, streaming writer. */
#include "r1cs/binfile.h"
#include "util/file.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

void sp_bin_errf(char err[SP_ERR_LEN], const char *fmt, ...)
{
    if (!err)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, SP_ERR_LEN, fmt, ap);
    va_end(ap);
}

static sp_status parse_header(sp_binfile *bf, const char *magic, uint32_t min_version, uint32_t max_version,
                              char *err)
{
    sp_bin_cursor c = {bf->data, bf->len};
    const uint8_t *m;
    if (!sp_bin_bytes(&c, &m, 4)) {
        sp_bin_errf(err, "%s: the file is too short for the magic number", magic);
        return SP_ERR_TRUNCATED;
    }
    for (int i = 0; i < 4; i++)
        bf->magic[i] = (m[i] >= 32 && m[i] < 127) ? (char)m[i] : '?';
    bf->magic[4] = '\0';
    if (memcmp(m, magic, 4) != 0) { /* never quote the bytes: the file may be a secret (a daemon's caller) */
        sp_bin_errf(err, "%s: wrong magic number (not a .%s file)", magic, magic);
        return SP_ERR_FORMAT;
    }
    if (!sp_bin_u32(&c, &bf->version) || !sp_bin_u32(&c, &bf->n_sections)) {
        sp_bin_errf(err, "%s: file ends inside the header", magic);
        return SP_ERR_TRUNCATED;
    }
    if (bf->version < min_version || bf->version > max_version) {
        sp_bin_errf(err, "%s: version not supported (this reader takes %" PRIu32 "..%" PRIu32 ")", magic,
                    min_version, max_version);
        return SP_ERR_FORMAT;
    }
    if (bf->n_sections > c.left / 12) { /* every section header takes 12 bytes */
        sp_bin_errf(err, "%s: the header's section count is larger than the file", magic);
        return SP_ERR_TRUNCATED;
    }
    bf->sections = calloc(bf->n_sections ? bf->n_sections : 1, sizeof *bf->sections);
    if (!bf->sections) {
        sp_bin_errf(err, "%s: out of memory for the section table", magic);
        return SP_ERR_NOMEM;
    }
    for (uint32_t i = 0; i < bf->n_sections; i++) {
        sp_bin_section *s = &bf->sections[i];
        const uint8_t *payload;
        if (!sp_bin_u32(&c, &s->id) || !sp_bin_u64(&c, &s->size)) {
            sp_bin_errf(err, "%s: file ends inside a section header", magic);
            return SP_ERR_TRUNCATED;
        }
        s->offset = (uint64_t)(c.p - bf->data);
        if (!sp_bin_bytes(&c, &payload, s->size)) {
            sp_bin_errf(err, "%s: a section is larger than the rest of the file", magic);
            return SP_ERR_TRUNCATED;
        }
    }
    if (c.left) {
        sp_bin_errf(err, "%s: unexpected bytes after the last section", magic);
        return SP_ERR_FORMAT;
    }
    return SP_OK;
}

sp_status sp_binfile_parse(sp_binfile *bf, const uint8_t *data, size_t len, const char *magic,
                           uint32_t min_version, uint32_t max_version, char err[SP_ERR_LEN])
{
    memset(bf, 0, sizeof *bf);
    bf->data = data;
    bf->len = len;
    sp_status st = parse_header(bf, magic, min_version, max_version, err);
    if (st != SP_OK)
        sp_binfile_close(bf);
    return st;
}

sp_status sp_binfile_open(sp_binfile *bf, const char *path, const char *magic, uint32_t min_version,
                          uint32_t max_version, char err[SP_ERR_LEN])
{
    memset(bf, 0, sizeof *bf);
    int fd;
    uint64_t size;
    if (sp_file_open_regular(&fd, &size, path, magic, err) != SP_OK)
        return SP_ERR_IO;
    if (size == 0) {
        sp_bin_errf(err, "%s: %s is empty", magic, path);
        close(fd);
        return SP_ERR_TRUNCATED;
    }
    void *map = mmap(NULL, (size_t)size, PROT_READ, MAP_PRIVATE, fd, 0);
    int map_errno = errno;
    close(fd);
    if (map == MAP_FAILED) {
        sp_bin_errf(err, "%s: cannot map %s: %s", magic, path, strerror(map_errno));
        return SP_ERR_IO;
    }
    sp_status st = sp_binfile_parse(bf, map, (size_t)size, magic, min_version, max_version, err);
    if (st != SP_OK) {
        munmap(map, (size_t)size);
        return st;
    }
    bf->map = map;
    bf->map_len = (size_t)size;
    return SP_OK;
}

sp_status sp_binfile_section(const sp_bin_section **out, const sp_binfile *bf, uint32_t id, const char *name,
                             int required, char err[SP_ERR_LEN])
{
    *out = NULL;
    for (uint32_t i = 0; i < bf->n_sections; i++) {
        if (bf->sections[i].id != id)
            continue;
        if (*out) {
            sp_bin_errf(err, "%s: section %" PRIu32 " (%s) appears more than once", bf->magic, id, name);
            *out = NULL;
            return SP_ERR_FORMAT;
        }
        *out = &bf->sections[i];
    }
    if (!*out && required) {
        sp_bin_errf(err, "%s: section %" PRIu32 " (%s) missing", bf->magic, id, name);
        return SP_ERR_FORMAT;
    }
    return SP_OK;
}

void sp_binfile_close(sp_binfile *bf)
{
    free(bf->sections);
    if (bf->map)
        munmap(bf->map, bf->map_len);
    memset(bf, 0, sizeof *bf);
}

/* ---- writer ---- */

#define SP_BINW_BUF (1u << 20)

struct sp_binw {
    FILE *f;
    char magic[5];
    uint8_t *buf;
    size_t used;
    uint64_t pos;          /* bytes written so far, buffer included */
    uint64_t sec_size_pos; /* where the current section's size field is */
    int in_section;
    uint32_t n_sections, n_written;
};

static sp_status binw_flush(sp_binw *w, char *err)
{
    if (w->used && fwrite(w->buf, 1, w->used, w->f) != w->used) {
        sp_bin_errf(err, "%s: write failed: %s", w->magic, strerror(errno));
        return SP_ERR_IO;
    }
    w->used = 0;
    return SP_OK;
}

sp_status sp_binw_write(sp_binw *w, const void *p, size_t n, char err[SP_ERR_LEN])
{
    const uint8_t *b = p;
    while (n) {
        size_t k = SP_BINW_BUF - w->used < n ? SP_BINW_BUF - w->used : n;
        memcpy(w->buf + w->used, b, k);
        w->used += k;
        w->pos += k;
        b += k;
        n -= k;
        if (w->used == SP_BINW_BUF && binw_flush(w, err) != SP_OK)
            return SP_ERR_IO;
    }
    return SP_OK;
}

sp_status sp_binw_open(sp_binw **out, const char *path, const char *magic, uint32_t version, uint32_t n_sections,
                       char err[SP_ERR_LEN])
{
    *out = NULL;
    sp_binw *w = calloc(1, sizeof *w);
    if (!w || !(w->buf = malloc(SP_BINW_BUF))) {
        free(w);
        sp_bin_errf(err, "%s: out of memory for the write buffer", magic);
        return SP_ERR_NOMEM;
    }
    memcpy(w->magic, magic, 4);
    w->n_sections = n_sections;
    if (!(w->f = fopen(path, "wb"))) {
        sp_bin_errf(err, "%s: cannot create %s: %s", magic, path, strerror(errno));
        sp_binw_abort(w);
        return SP_ERR_IO;
    }
    uint8_t h[12];
    memcpy(h, magic, 4);
    sp_bin_put_u32(h + 4, version);
    sp_bin_put_u32(h + 8, n_sections);
    sp_status st = sp_binw_write(w, h, sizeof h, err);
    if (st != SP_OK) {
        sp_binw_abort(w);
        return st;
    }
    *out = w;
    return SP_OK;
}

/* Patches the current section's size into its header. */
static sp_status binw_end_section(sp_binw *w, char *err)
{
    if (!w->in_section)
        return SP_OK;
    w->in_section = 0;
    sp_status st = binw_flush(w, err);
    if (st != SP_OK)
        return st;
    uint8_t sz[8];
    sp_bin_put_u64(sz, w->pos - (w->sec_size_pos + 8));
    if (fseeko(w->f, (off_t)w->sec_size_pos, SEEK_SET) != 0 || fwrite(sz, 1, 8, w->f) != 8 ||
        fseeko(w->f, 0, SEEK_END) != 0) {
        sp_bin_errf(err, "%s: cannot patch a section size: %s", w->magic, strerror(errno));
        return SP_ERR_IO;
    }
    return SP_OK;
}

sp_status sp_binw_section(sp_binw *w, uint32_t id, char err[SP_ERR_LEN])
{
    sp_status st = binw_end_section(w, err);
    if (st != SP_OK)
        return st;
    if (w->n_written == w->n_sections) {
        sp_bin_errf(err, "%s: more sections than the %" PRIu32 " announced", w->magic, w->n_sections);
        return SP_ERR_INVALID_ARG;
    }
    uint8_t h[12];
    sp_bin_put_u32(h, id);
    sp_bin_put_u64(h + 4, 0); /* patched by binw_end_section */
    w->sec_size_pos = w->pos + 4;
    w->in_section = 1;
    w->n_written++;
    return sp_binw_write(w, h, sizeof h, err);
}

sp_status sp_binw_close(sp_binw *w, char err[SP_ERR_LEN])
{
    sp_status st = binw_end_section(w, err);
    if (st == SP_OK && w->n_written != w->n_sections) {
        sp_bin_errf(err, "%s: %" PRIu32 " sections written, %" PRIu32 " announced", w->magic, w->n_written,
                    w->n_sections);
        st = SP_ERR_INVALID_ARG;
    }
    if (st == SP_OK)
        st = binw_flush(w, err);
    FILE *f = w->f;
    w->f = NULL;
    if (fclose(f) != 0 && st == SP_OK) {
        sp_bin_errf(err, "%s: closing the file failed: %s", w->magic, strerror(errno));
        st = SP_ERR_IO;
    }
    sp_binw_abort(w);
    return st;
}

void sp_binw_abort(sp_binw *w)
{
    if (!w)
        return;
    if (w->f)
        fclose(w->f);
    free(w->buf);
    free(w);
}
