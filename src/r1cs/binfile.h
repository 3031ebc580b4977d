/*
 * The iden3 "binfile" container used by .r1cs, .wtns, .zkey and .ptau
 * (docs/formats.md §1): magic(4) | version u32 | nSections u32 |
 * nSections x (id u32 | size u64 | payload). Little-endian throughout;
 * sections may come in any order and are looked up by id.
 *
 * Readers fill a caller-supplied char err[SP_ERR_LEN] with a precise,
 * NUL-terminated message whenever they return something other than SP_OK.
 */
#ifndef SP_R1CS_BINFILE_H
#define SP_R1CS_BINFILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "snarkpipe.h"

typedef struct {
    uint32_t id;
    uint64_t offset; /* of the payload, from the start of the file */
    uint64_t size;   /* of the payload */
} sp_bin_section;

/* An opened container. Owner: the caller of sp_binfile_open/parse, who
 * releases it with sp_binfile_close. */
typedef struct {
    const uint8_t *data; /* the whole file */
    size_t len;
    char magic[5];
    uint32_t version;
    uint32_t n_sections;
    sp_bin_section *sections; /* in file order */
    void *map;                /* mmap'ed region (NULL when parsing memory) */
    size_t map_len;
} sp_binfile;

/*
 * Maps the file at path and parses its container.
 * On input: magic is the expected 4-character type ("r1cs", ...); versions
 *   in [min_version, max_version] are accepted.
 * Returns SP_OK, or SP_ERR_IO (cannot open / map; empty file),
 *   SP_ERR_FORMAT (wrong magic or version, section table inconsistent with
 *   the file size, trailing bytes), SP_ERR_TRUNCATED, SP_ERR_NOMEM; then bf
 *   holds nothing that needs closing (closing it anyway is harmless).
 */
sp_status sp_binfile_open(sp_binfile *bf, const char *path, const char *magic, uint32_t min_version,
                          uint32_t max_version, char err[SP_ERR_LEN]) SP_WARN_UNUSED;

/* As sp_binfile_open on data[0..len), which must outlive bf. */
sp_status sp_binfile_parse(sp_binfile *bf, const uint8_t *data, size_t len, const char *magic,
                           uint32_t min_version, uint32_t max_version, char err[SP_ERR_LEN]) SP_WARN_UNUSED;

/*
 * Finds the section with this id.
 * On output: *out points into bf->sections, or is NULL when the section is
 *   absent and !required.
 * Returns SP_ERR_FORMAT when it appears more than once, or is absent and
 *   required ("<magic>: section <id> (<name>) missing").
 */
sp_status sp_binfile_section(const sp_bin_section **out, const sp_binfile *bf, uint32_t id, const char *name,
                             int required, char err[SP_ERR_LEN]) SP_WARN_UNUSED;

/* Releases what open/parse acquired; bf may be zeroed or half-opened. */
void sp_binfile_close(sp_binfile *bf);

/* Bounds-checked little-endian reading of a byte range. */
typedef struct {
    const uint8_t *p;
    uint64_t left;
} sp_bin_cursor;

static inline sp_bin_cursor sp_bin_cursor_of(const sp_binfile *bf, const sp_bin_section *s)
{
    sp_bin_cursor c = {bf->data + s->offset, s->size};
    return c;
}

/* Unchecked little-endian load, for callers that checked the length. */
static inline uint32_t sp_bin_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Each returns 1 and advances, or returns 0 (nothing read) when fewer
 * bytes than needed are left. */
static inline int sp_bin_u32(sp_bin_cursor *c, uint32_t *v)
{
    if (c->left < 4)
        return 0;
    *v = sp_bin_le32(c->p);
    c->p += 4;
    c->left -= 4;
    return 1;
}

static inline int sp_bin_u64(sp_bin_cursor *c, uint64_t *v)
{
    uint32_t lo, hi;
    if (c->left < 8)
        return 0;
    sp_bin_u32(c, &lo);
    sp_bin_u32(c, &hi);
    *v = (uint64_t)hi << 32 | lo;
    return 1;
}

/* On success *p points at the n bytes, which stay in the file. */
static inline int sp_bin_bytes(sp_bin_cursor *c, const uint8_t **p, uint64_t n)
{
    if (c->left < n)
        return 0;
    *p = c->p;
    c->p += n;
    c->left -= n;
    return 1;
}

/* Little-endian stores for writers. */
static inline void sp_bin_put_u32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static inline void sp_bin_put_u64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* snprintf into err, which may be NULL (the message is dropped then).
 * The readers' messages name the check that failed and never quote what
 * the file holds, in any form (bytes, counts, sizes, ids, versions,
 * primes): the daemon answers them to clients that name files they may
 * not read. A count or size larger than the file is said to be so. */
void sp_bin_errf(char err[SP_ERR_LEN], const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * A buffered writer for container files whose section sizes are patched
 * in when each section ends (so payloads can be streamed).
 * Owner: the caller of sp_binw_open; sp_binw_close always frees it.
 */
typedef struct sp_binw sp_binw;

sp_status sp_binw_open(sp_binw **w, const char *path, const char *magic, uint32_t version,
                       uint32_t n_sections, char err[SP_ERR_LEN]) SP_WARN_UNUSED;
/* Starts a section (ending the previous one). */
sp_status sp_binw_section(sp_binw *w, uint32_t id, char err[SP_ERR_LEN]) SP_WARN_UNUSED;
/* Appends bytes to the current section. */
sp_status sp_binw_write(sp_binw *w, const void *p, size_t n, char err[SP_ERR_LEN]) SP_WARN_UNUSED;
/* Ends the last section, checks that n_sections were written, flushes and
 * closes. On any earlier failure the file is left incomplete. */
sp_status sp_binw_close(sp_binw *w, char err[SP_ERR_LEN]) SP_WARN_UNUSED;
/* Closes without the checks (after a failure); w may be NULL. */
void sp_binw_abort(sp_binw *w);

#endif
