/*
 * The key cache: a proving key read and checked once is kept as an entry
 * file holding its points and matrices in this build's in-memory
 * representation, so that the next load of the same key file reads them
 * back in one go and skips the decoding and every point check. The CLI's
 * `prove` uses it by default; the daemon when keys.cache_dir is set.
 *
 * An entry serves a load only when all of these match:
 *   - the key file's exact content: its size and SHA-256, recomputed from
 *     the file at every load (util/sha256.h: about 1.5 GB/s with the SHA
 *     extensions, a small fraction of what checking the points costs),
 *     except when the file's identity (device, inode, size, mtime and
 *     ctime to the ns) is exactly what its reference's stamp recorded when the
 *     file was hashed to this content: on local file systems the kernel
 *     sets ctime on every change and no one can set it back, so a file
 *     with that ctime has not changed since. Stamps are written only when
 *     that holds (keycache.c: a ctime less than 2 s older than the hash is
 *     not trusted, as git does for its index); a file changed through a
 *     shared writable mapping of it, whose pages the kernel stamps only at
 *     their first write after writeback, is the one change it can miss
 *     for up to that writeback interval (~30 s): a key file is not written
 *     so, and `prove --no-key-cache` or `cache clear` bypass it;
 *   - for a bellperson .params key, the densities it was expanded with
 *     (they come from the circuit, not from the file);
 *   - the curve, the entry format and the build's representation (limb
 *     counts, struct sizes, moduli, the Montgomery form, byte order);
 *   - the checks the key passed: an entry made under
 *     SP_G16_SKIP_SUBGROUP_CHECK never serves a load that asks for the
 *     subgroup checks (a fully checked entry serves both);
 *   - the entry's own CRC-32C over all its bytes (util/crc32c.h: the entry
 *     lives in a trusted directory, so its checksum is there for accidents,
 *     and it costs a fifth of a SHA-256 on every load), checked as it is
 *     read, and its structure (sizes, matrix rows and wire indices in range).
 * Whatever does not match is ignored: the key is read and checked from
 * its file exactly as without a cache, and the entry written again.
 *
 * Trust model. The cache directory is trusted like the user's own files:
 * it must belong to the user and be writable by nobody else, and entries
 * must be regular files of the user that nobody else can write, or they
 * are not used. Whoever can write there can already run code as the user
 * (~/.bashrc), so the checksums catch accidents (a torn write, a full disk,
 * bit rot, a bug), not an attacker; the structural check still keeps a
 * forged entry from making the prover read outside its arrays.
 *
 * Entries are named after the key file's content (its SHA-256, with the
 * curve, the build and the densities): the same key at two paths shares
 * one entry. Each path has a small reference to the content it last held
 * (and the stamp above), so that a load finds its entry without hashing
 * when the stamp allows, and with one hash otherwise; a path whose file
 * changed finds the new content's entry, if another path made it.
 * The entries' bytes are kept under a cap (request max_bytes): writing one
 * first removes the least recently used entries (the one a load read or
 * wrote last is the most recent) as needed, and an entry larger than the
 * cap is not written.
 * An entry is written to a temporary file (unnamed where the file system
 * allows) and renamed into place, mode 0600 in a 0700 directory: a reader
 * sees a whole entry or none, and two processes writing the same entry
 * both succeed (the last rename wins; both wrote the same key). No fsync:
 * an entry lost or torn by a crash fails its checksum and is rebuilt.
 * A write that fails (full disk, read-only or foreign directory) leaves
 * nothing behind and does not fail the load: the report says why.
 */
#ifndef SP_GROTH16_KEYCACHE_H
#define SP_GROTH16_KEYCACHE_H

#include <stddef.h>
#include <stdint.h>
#include "snarkpipe.h"
#include "groth16/keys.h"
#include "groth16/params.h"

#define SP_KC_PATH 4096

/* The entries' bytes a cache keeps at most unless told otherwise. */
#define SP_KC_DEFAULT_MAX ((uint64_t)4 << 30)

typedef enum { SP_KC_ZKEY = 1, SP_KC_PARAMS = 2 } sp_kc_kind;

/* What a load found in the cache. */
typedef enum {
    SP_KC_HIT = 1,  /* the key came from its entry: nothing decoded or checked */
    SP_KC_MISS,     /* no entry for this key file */
    SP_KC_STALE,    /* the entry holds another content: the key file changed */
    SP_KC_WEAKER,   /* the entry's key passed fewer checks than this load asks */
    SP_KC_DAMAGED,  /* the entry fails its checksum, its size or its structure */
    SP_KC_UNUSABLE  /* the directory cannot be used (see the warning) */
} sp_kc_outcome;

/* "hit", "miss", "stale", "weaker", "damaged", "unusable". */
const char *sp_kc_outcome_str(sp_kc_outcome o);

typedef struct {
    sp_kc_kind kind;
    const char *path;     /* the key file; its canonical path names the entry */
    /* The key file's bytes when the caller holds them mapped (the daemon's
     * warm tier), else NULL: the call maps path itself. */
    const uint8_t *data;
    size_t len;
    const sp_g16_density *density; /* .params only: as sp_bp_params_parse (NULL: every wire listed) */
    unsigned flags;                /* 0 or SP_G16_SKIP_SUBGROUP_CHECK */
    int threads;                   /* >= 1 */
    int store;                     /* write the entry when the key had to be read and checked */
    uint64_t max_bytes;            /* the cap on the entries' bytes; 0: SP_KC_DEFAULT_MAX */
} sp_kc_request;

typedef struct {
    sp_kc_outcome outcome;
    int stored;                /* this load wrote the entry */
    char entry[SP_KC_PATH];    /* the entry's path ("" when the directory was unusable) */
    /* A cache problem worth one line to the user ("" when none): the load
     * itself succeeded without the cache. */
    char warning[SP_ERR_LEN];
    /* Seconds: hashing the key file, reading the entry, reading and
     * checking the key file, writing the entry. */
    double t_hash, t_entry, t_check, t_store;
    int identity; /* the key file matched its reference's stamp: not hashed */
    int stamped;  /* this load wrote the stamp */
    /* When stored: the entry's bytes, the entries' bytes with it, the cap
     * and the entries evicted to make room. */
    uint64_t entry_bytes, cache_bytes, max_bytes;
    size_t evicted;
} sp_kc_report;

/*
 * Loads a proving key through the cache in dir.
 * On input: dir is the cache directory (created with mode 0700, parents
 *   too, when missing); rq as above.
 * On output: *pk is the key, exactly as sp_zkey_parse / sp_bp_params_parse
 *   of the file with rq->flags makes it (from the entry on a hit); *rep
 *   says what the cache did. On failure *pk is zeroed and err says why.
 * Returns what the key file's reader returns (the cache never makes a
 *   load fail), or SP_ERR_IO when the key file cannot be opened or changed
 *   while it was being read (its content hashed differently before and
 *   after the check: nothing is cached and nothing returned).
 */
sp_status sp_kc_load(sp_g16_pk *pk, sp_kc_report *rep, const char *dir, const sp_kc_request *rq,
                     char err[SP_ERR_LEN]) SP_WARN_UNUSED;

/* Tests only: when set, called after a load has checked the key file and
 * before it hashes the file again to store the entry (a test changes the
 * bytes there). NULL in programs; set it only while no load runs. */
extern void (*sp_kc_debug_after_check)(void);

/* Tests only: how much older than a hash a key file's mtime and ctime must
 * be for a stamp (2 s in programs; a test lowers it instead of sleeping). */
extern int64_t sp_kc_debug_racy_ns;

/* One file of a cache directory, for listing. */
typedef struct {
    char name[256];        /* the file's name in the directory */
    uint64_t bytes;        /* its size */
    int temp;              /* a temporary file an interrupted write left */
    int ref;               /* a key file's reference (source, source_sha256 and target below) */
    int readable;          /* the header below was read (else only name and bytes) */
    int this_build;        /* made by a build with this one's curve and representation */
    uint8_t build[32];     /* the fingerprint of the build that made it (sp_kc_fingerprint) */
    char target[256];      /* a reference: the entry it names */
    int64_t used;          /* Unix seconds: last served or written (the file's mtime) */
    long used_nsec;        /* and its nanoseconds, so that order agrees with eviction's */
    char curve[16];
    sp_kc_kind kind;
    int subgroup_checked;  /* its key passed the subgroup checks (else only the curve checks) */
    uint64_t source_size;
    uint8_t source_sha256[32];
    int64_t created;       /* Unix seconds */
    char source[SP_KC_PATH]; /* the key file's canonical path (an entry: the first to make it) */
} sp_kc_file;

/* This build's representation fingerprint, as entries record it (another
 * curve's instance in the same binary has its own). */
void sp_kc_fingerprint(uint8_t out[32]);

/* Called once per file; returns 0 to go on, anything else to stop. */
typedef int (*sp_kc_list_fn)(void *ctx, const sp_kc_file *f);

/*
 * Lists the cache's files (entries of every curve and build, references
 * and temporary files) in directory order. A missing directory lists nothing.
 * Returns SP_OK, or SP_ERR_IO (the directory cannot be read; err says why).
 */
sp_status sp_kc_list(const char *dir, sp_kc_list_fn fn, void *ctx, char err[SP_ERR_LEN]) SP_WARN_UNUSED;

/*
 * Removes every entry, reference and temporary file of the cache (files named as
 * this module names them; nothing else in dir is touched).
 * On output: *removed files and *bytes freed (either may be NULL).
 * Returns SP_OK (also for a missing directory), or SP_ERR_IO with err
 *   naming the first file that could not be removed.
 */
sp_status sp_kc_clear(const char *dir, size_t *removed, uint64_t *bytes, char err[SP_ERR_LEN]) SP_WARN_UNUSED;

#endif
