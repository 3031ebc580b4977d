/*
 * The farm's view of the registered circuits (farm.h): each one's content
 * digest, which is what claims match across the farm (the same key under
 * any name or path on any host), and the verifying key kept for assembly.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "daemon/farm/farm.h"
#include "daemon/log.h"
#include "util/file.h"
#include "util/sha256.h"

static sp_status hash_file(sp_sha256_ctx *h, const char *path, const char *tag, char err[SP_ERR_LEN])
{
    int fd;
    uint64_t size;
    if (sp_file_open_regular(&fd, &size, path, tag, err) != SP_OK)
        return SP_ERR_IO;
    char head[64];
    int hl = snprintf(head, sizeof head, "%s %llu\n", tag, (unsigned long long)size);
    sp_sha256_update(h, head, (size_t)hl);
    static const size_t CHUNK = 1 << 20;
    uint8_t *buf = malloc(CHUNK);
    uint64_t done = 0;
    while (buf && done < size) {
        ssize_t k = read(fd, buf, CHUNK);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        sp_sha256_update(h, buf, (size_t)k);
        done += (uint64_t)k;
    }
    free(buf);
    close(fd);
    if (done != size) {
        snprintf(err, SP_ERR_LEN, "%.200s: %s while digesting", path, buf ? "short read" : "out of memory");
        return SP_ERR_IO;
    }
    return SP_OK;
}

/* The digest that names a circuit across the farm: SHA-256 over the key
 * file (a params key with its r1cs, which makes its densities; a zkey's
 * r1cs only checks witnesses, so it is left out) and, for a native
 * circuit, its kind and resolved parameters. Two hosts with the same
 * files get the same digest whatever they call the circuit. */
static sp_status digest_of(const reg_ident *ri, char hex[SP_DMN_Q_DIGEST_HEX], char err[SP_ERR_LEN])
{
    sp_sha256_ctx h;
    sp_sha256_init(&h);
    static const char tag[] = "snarkpipe farm circuit 1\n";
    sp_sha256_update(&h, tag, sizeof tag - 1);
    sp_status st = *ri->zkey ? hash_file(&h, ri->zkey, "zkey", err) : hash_file(&h, ri->params, "params", err);
    if (st == SP_OK && !*ri->zkey)
        st = hash_file(&h, ri->r1cs, "r1cs", err);
    if (st != SP_OK)
        return st;
    if (ri->native)
        sp_sha256_update(&h, ri->native_ident, strlen(ri->native_ident));
    uint8_t dg[32];
    sp_sha256_final(dg, &h);
    for (int i = 0; i < 32; i++)
        snprintf(hex + 2 * i, 3, "%02x", dg[i]);
    return SP_OK;
}

static fcirc *find_circ_locked(sp_dmn_farm *f, const char *id)
{
    for (fcirc *c = f->circs; c; c = c->next)
        if (!c->gone && !strcmp(c->id, id))
            return c;
    return NULL;
}

const fcirc *sp_dmn_farm_circuit(sp_dmn_farm *f, const char *id, char err[SP_ERR_LEN])
{
    reg_ident ri;
    if (sp_dmn_reg_ident(f->d, id, &ri) != 0) {
        snprintf(err, SP_ERR_LEN, "no circuit '%.100s' is registered", id);
        return NULL;
    }
    pthread_mutex_lock(&f->mu);
    fcirc *c = find_circ_locked(f, id);
    int same = c && c->gen == ri.gen;
    pthread_mutex_unlock(&f->mu);
    if (same)
        return c;
    fcirc *n = calloc(1, sizeof *n);
    if (!n) {
        snprintf(err, SP_ERR_LEN, "out of memory");
        return NULL;
    }
    if (digest_of(&ri, n->digest, err) != SP_OK) {
        free(n);
        return NULL;
    }
    snprintf(n->id, sizeof n->id, "%s", id);
    n->gen = ri.gen;
    n->n_vars = ri.n_vars;
    n->n_public = ri.n_public;
    n->native = ri.native;
    pthread_mutex_lock(&f->mu);
    for (fcirc *o = f->circs; o; o = o->next) /* an older registration of the id, or another thread's twin */
        if (!o->gone && !strcmp(o->id, id))
            o->gone = 1;
    n->next = f->circs; /* entries stay until the farm stops: pointers handed out stay valid */
    f->circs = n;
    pthread_mutex_unlock(&f->mu);
    SP_DMN_LOGI("farm: circuit %s has digest %.16s...", id, n->digest);
    return n;
}

/* Records c's facts in the database, so that any node takes jobs for its
 * digest (best effort: a refresh tries again). */
static void record(sp_dmn_farm *f, fcirc *c)
{
    char err[SP_ERR_LEN];
    sp_dmn_queue *q = sp_dmn_farm_conn_get(f, err);
    sp_status st = q ? sp_dmn_q_circuit_put(q, c->digest, c->id, c->n_vars, c->n_public, c->native, err) : SP_ERR_IO;
    if (q)
        sp_dmn_farm_conn_put(f, q);
    pthread_mutex_lock(&f->mu);
    c->recorded = st == SP_OK;
    pthread_mutex_unlock(&f->mu);
}

/* Brings the cache in line with the registry (starter thread). */
void sp_dmn_farm_refresh(sp_dmn_farm *f)
{
    char (*ids)[64] = NULL, err[SP_ERR_LEN];
    size_t n = sp_dmn_reg_ids(f->d, &ids);
    for (size_t i = 0; i < n; i++)
        if (!sp_dmn_farm_circuit(f, ids[i], err))
            SP_DMN_LOGW("farm: circuit %s: %s", ids[i], err);
    fcirc *todo[16];
    size_t nt = 0;
    pthread_mutex_lock(&f->mu);
    for (fcirc *c = f->circs; c; c = c->next) {
        size_t k = 0;
        while (k < n && strcmp(ids[k], c->id))
            k++;
        c->gone |= k == n;
        if (!c->gone && !c->recorded && nt < sizeof todo / sizeof todo[0])
            todo[nt++] = c;
    }
    for (fcirc *c = f->circs; c; c = c->next) { /* a hot key tells what its partitions weigh */
        size_t abc = 0, rest = 0;
        if (!c->gone && sp_engine_partition_bytes(f->d->eng, c->id, &abc, &rest) == SP_OK)
            c->part_bytes = abc + rest;
    }
    pthread_mutex_unlock(&f->mu);
    free(ids);
    for (size_t i = 0; i < nt; i++) /* entries stay until the farm stops */
        record(f, todo[i]);
}

void sp_dmn_farm_bytes_locked(sp_dmn_farm *f, const char *const *dig, size_t n, uint64_t *bytes)
{
    for (size_t i = 0; i < n; i++) {
        bytes[i] = 0;
        for (fcirc *c = f->circs; c; c = c->next)
            if (!c->gone && !strcmp(c->digest, dig[i]) && c->part_bytes > bytes[i])
                bytes[i] = c->part_bytes;
    }
}

/* The distinct digests this node proves (when with_pvk: only those whose
 * verifying key it holds). *out: n pointers into one malloc'ed block. */
size_t sp_dmn_farm_digests_locked(sp_dmn_farm *f, int with_pvk, const char ***out)
{
    size_t n = 0, cap = 0;
    for (fcirc *c = f->circs; c; c = c->next)
        cap++;
    const char **v = malloc((cap ? cap : 1) * sizeof *v);
    for (fcirc *c = f->circs; v && c; c = c->next) {
        if (c->gone || (with_pvk && !c->have_pvk))
            continue;
        size_t k = 0;
        while (k < n && strcmp(v[k], c->digest))
            k++;
        if (k == n)
            v[n++] = c->digest;
    }
    *out = v;
    return v ? n : 0;
}

/* A copy of the digests (they live in entries that stay until stop, so
 * the pointers stay valid without the lock). */
size_t sp_dmn_farm_digests(sp_dmn_farm *f, int with_pvk, const char ***out)
{
    pthread_mutex_lock(&f->mu);
    size_t n = sp_dmn_farm_digests_locked(f, with_pvk, out);
    pthread_mutex_unlock(&f->mu);
    return n;
}

fcirc *sp_dmn_farm_by_digest_locked(sp_dmn_farm *f, const char *digest, int with_pvk)
{
    for (fcirc *c = f->circs; c; c = c->next)
        if (!c->gone && !strcmp(c->digest, digest) && (!with_pvk || c->have_pvk))
            return c;
    return NULL;
}

