/*
 * Internal to the key cache (keycache.h): the entry file and the cache
 * directory. keycache.c decides when to read and write entries; this part
 * knows their layout and how they get on disk.
 *
 * Entry layout (little-endian header; the payload in the writing build's
 * memory layout, which the build fingerprint pins):
 *
 *   off   size  field
 *     0      8  magic "SPKCACHE"
 *     8      4  format (KC_FORMAT)
 *    12      4  header bytes (KC_HEAD)
 *    16     16  curve name, NUL-padded
 *    32     32  build fingerprint (kc_build_fingerprint)
 *    64      4  kind (sp_kc_kind)
 *    68      4  level: 1 on-curve checks only, 2 subgroup checks too
 *    72      8  key file size
 *    80     32  key file SHA-256
 *   112     32  densities digest (.params), zeros for a zkey
 *   144      8  created, Unix seconds
 *   152      8  payload bytes
 *   160      4  n_vars        164  4  n_public     168  4  domain size
 *   172      4  h_kind        176  8  n_h          184  4  has_qap
 *   192      8  QAP A entries 200  8  QAP B entries 208  8  mpc bytes
 *   224    736  the key file's canonical path, NUL-terminated (information only)
 *   960     64  reserved (zeros; not covered by the CRC)
 *  1024      -  payload: alpha1 beta1 delta1 beta2 gamma2 delta2, ic, a, b1, b2,
 *               c, h; with the QAP: A row offsets, columns, values, then B's;
 *               the mpc bytes
 *   end-4    4  CRC-32C of every byte before it but the stamp's (util/crc32c.h;
 *               format 1 had a SHA-256 there: an entry guards against
 *               accidents, and the CRC costs a fifth as much to check on
 *               every load)
 *
 * An entry is named after what it holds: the SHA-256 of the key file's
 * content with the build, the key kind and the densities (kc_entry_name),
 * so one content has one entry whatever paths it is read from. A key
 * file's path has a reference (kc_ref_name, from its canonical path), a
 * small file saying which content the path held when it was last hashed,
 * and, when keycache.c allows, the file's identity then (the stamp):
 * device, inode, size, mtime and ctime in ns, when the hash began (realtime
 * ns), a version word (1; 0: no stamp) and a CRC-32C of those 60 bytes
 * followed by the content's SHA-256, so that a stamp vouches only for that
 * content. Reference layout (little-endian):
 *
 *     0      8  magic "SPKCREF1"
 *     8     32  the content's SHA-256
 *    40     64  the stamp (version 0: none)
 *   104     96  the entry's name when the reference was written (listing, clean-up)
 *   200      4  path length L (< SP_KC_PATH)
 *   204      L  the key file's canonical path
 *   204+L    4  CRC-32C of every byte before it
 *
 * References are rewritten whole (a temporary file renamed into place).
 * Entries are evicted least recently used first: an entry's mtime is when
 * it last served a load or was written (kc_touch).
 */
#ifndef SP_GROTH16_KEYCACHE_ENTRY_H
#define SP_GROTH16_KEYCACHE_ENTRY_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include "groth16/keycache.h"

#define KC_FORMAT 4
#define KC_HEAD 1024
#define KC_TRAILER 4
#define KC_PATH_ROOM 736
#define KC_STAMP_AT 960
#define KC_STAMP_BYTES 64
#define KC_NAME_MAX 96

/* The curve this build is for, as entries record it. */
#if defined(SP_CURVE_NAME)
#define KC_CURVE SP_CURVE_NAME
#elif defined(SP_CURVE_BN254) && SP_CURVE_BN254
#define KC_CURVE "bn254"
#else
#define KC_CURVE "bls12-381"
#endif

enum { KC_LEVEL_CURVE = 1, KC_LEVEL_SUBGROUP = 2 };

typedef struct {
    char curve[16];
    uint8_t build[32];
    uint32_t kind, level;
    uint64_t src_size;
    uint8_t src_sha[32], density[32];
    int64_t created;
    uint64_t payload;
    uint32_t n_vars, n_public, domain, h_kind;
    uint64_t n_h;
    uint32_t has_qap;
    uint64_t nnz_a, nnz_b, mpc_len;
    char path[KC_PATH_ROOM];
} kc_head;

/* The key file's identity at the time it was hashed (see the layout). */
typedef struct {
    uint64_t dev, ino, size;
    int64_t mtime_ns, ctime_ns;
    int64_t hashed_ns; /* realtime when the hash began */
} kc_stamp;

/* 1 when open file fd's file system sets ctime on every change and nobody
 * can set it back (local file systems with fine timestamps), else 0: only
 * then does a stamp describe the file. */
int kc_keeps_ctime(int fd);

/* The stamp's 64 bytes for s and content src_sha. */
void kc_stamp_pack(uint8_t out[KC_STAMP_BYTES], const kc_stamp *s, const uint8_t src_sha[32]);

/* Returns 0 and fills *s when the stamp p is present, intact and made for
 * content src_sha; -1 otherwise. */
int kc_stamp_get(kc_stamp *s, const uint8_t p[KC_STAMP_BYTES], const uint8_t src_sha[32]);

/* This build's representation, hashed (curve, limbs, struct sizes,
 * moduli, Montgomery one, byte order, representation version). */
void kc_build_fingerprint(uint8_t out[32]);

/* Digest of the densities a .params key is expanded with; zeros for NULL. */
void kc_density_digest(uint8_t out[32], const sp_g16_density *d);

/* The entry's file name for a key content (its SHA-256) of this build. */
void kc_entry_name(char out[KC_NAME_MAX], const uint8_t build[32], sp_kc_kind kind, const uint8_t density[32],
                   const uint8_t src_sha[32]);

/* The reference's file name for a key file (canonical path) of this build. */
void kc_ref_name(char out[KC_NAME_MAX], const uint8_t build[32], sp_kc_kind kind, const uint8_t density[32],
                 const char *canon);

/* 1 when n is named as an entry / a reference of any curve is, else 0. */
int kc_is_entry_name(const char *n);
int kc_is_ref_name(const char *n);

/* The header of pk's entry (counts from pk; the caller fills the rest). */
void kc_head_of(kc_head *h, const sp_g16_pk *pk);

/*
 * Opens (creating it, and its parents, with mode 0700 when missing) the
 * cache directory and checks that it belongs to this user and that no one
 * else may write it.
 * Returns a directory descriptor, or -1 with warn set.
 */
int kc_dir_open(const char *dir, char warn[SP_ERR_LEN]);

/* Why an entry is not used: the outcome, and a warning when it is worth one. */
typedef struct {
    sp_kc_outcome outcome;
    char why[SP_ERR_LEN];
} kc_verdict;

/*
 * Opens entry `name` and reads its header (raw: all KC_HEAD bytes, stamp
 * included; *st: the entry file's).
 * Returns the descriptor with *h filled and v->outcome = SP_KC_HIT (so far),
 *   or -1 with v saying why not: SP_KC_MISS (no such file), SP_KC_DAMAGED
 *   (not a private regular file, a bad header, a size that contradicts the
 *   counts, another curve or build), with v->why.
 */
int kc_entry_open(kc_head *h, uint8_t raw[KC_HEAD], struct stat *st, kc_verdict *v, int dirfd, const char *name);

/*
 * Reads the payload of an opened entry into a new key (in `threads` parts
 * at once, each checksummed apart) and checks the entry's digest and the
 * key's structure.
 * Returns SP_OK (*pk filled), SP_ERR_FORMAT (damaged: why says how; *pk
 *   zeroed) or SP_ERR_NOMEM.
 */
sp_status kc_entry_read(sp_g16_pk *pk, int fd, const kc_head *h, const uint8_t raw[KC_HEAD], int threads,
                        char why[SP_ERR_LEN]);

/* An entry written but not yet in place (kc_entry_write, then publish or drop). */
typedef struct {
    int fd;                  /* open, unnamed (O_TMPFILE) or named */
    int named;               /* tmp is its name in the directory */
    char tmp[KC_NAME_MAX + 32];
} kc_pending;

/*
 * Writes pk's entry `name` with header h (kc_head_of plus the caller's
 * fields) to a temporary file of dirfd, the digest added.
 * Returns SP_OK (*p to publish or drop) or SP_ERR_IO with why (nothing
 *   left in the directory).
 */
sp_status kc_entry_write(kc_pending *p, int dirfd, const char *name, const kc_head *h, const sp_g16_pk *pk,
                         char why[SP_ERR_LEN]);

/* Renames the pending entry into place as `name`; SP_OK or SP_ERR_IO (why). */
sp_status kc_entry_publish(kc_pending *p, int dirfd, const char *name, char why[SP_ERR_LEN]);

/* Closes and removes the pending entry. */
void kc_entry_drop(kc_pending *p, int dirfd);

/* ---- references (keycache_entry.c) ---- */

/* A key file's reference (layout above). */
typedef struct {
    uint8_t src_sha[32];
    int stamped; /* stamp holds the file's identity when it was hashed to src_sha */
    kc_stamp stamp;
    char entry[KC_NAME_MAX];
    char path[SP_KC_PATH];
} kc_ref;

/* Reads reference `name` of dirfd. Returns 0 (*r filled), or -1 when there
 * is none or it is damaged (then it is as if there were none). */
int kc_ref_get(kc_ref *r, int dirfd, const char *name);

/* Writes reference `name` (a temporary file renamed into place, mode 0600).
 * Returns 0, or -1 when it could not (nothing left behind). */
int kc_ref_put(int dirfd, const char *name, const kc_ref *r);

/* ---- the size cap and the listing (keycache_dir.c) ---- */

/* Marks the open entry fd as used now (its mtime; nothing when it cannot). */
void kc_touch(int fd);

/*
 * Makes room for an entry of `incoming` bytes under the cap: removes the
 * least recently used entries (oldest mtime first) until the entries'
 * bytes plus incoming are at most cap, then the references whose entry is
 * gone. keep names the entry being written: never removed, its present
 * bytes not counted (it is replaced). Temporary files of writes in
 * progress are left alone.
 * On output: *total the entries' bytes left (incoming not counted),
 *   *evicted the entries removed.
 */
void kc_evict(uint64_t *total, size_t *evicted, int dirfd, uint64_t cap, uint64_t incoming, const char *keep);

#endif
