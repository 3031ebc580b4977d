/*
 * Circuits and key residency (services.h).
 *
 * DESIGN. A circuit is in one of three tiers:
 *   HOT   its key (and r1cs) parsed in memory and registered with the
 *         engine (a GPU backend also makes it resident on the device);
 *   WARM  its files mapped (MADV_WILLNEED: pages read ahead into the page
 *         cache), nothing parsed: promotion is a parse from memory;
 *   COLD  only the paths and the facts read at registration.
 * A job takes a reference (refs) and promotes its circuit to HOT first;
 * references pin the tier. Demotion picks the least recently used
 * circuit that is unreferenced and idle for at least keys.min_idle: HOT
 * -> WARM while the hot bytes exceed keys.hot_budget (or after
 * keys.idle_demote of idleness), WARM -> COLD while mapped bytes exceed
 * keys.warm_budget. A key a job needs is always loaded, even over the
 * budget; the budget is restored as soon as others become idle.
 * Loads and demotions run outside reg.mu with the circuit marked busy;
 * whoever needs it waits on reg.cv.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "daemon/services.h"
#include "util/buf.h"
#include "daemon/log.h"
#include "util/curves.h"
#include "util/file.h"

const char *sp_dmn_tier_name(sp_dmn_tier t)
{
    return t == SP_DMN_TIER_HOT ? "hot" : t == SP_DMN_TIER_WARM ? "warm" : "cold";
}

static const char *source_name(sp_dmn_circ_source s)
{
    return s == SP_DMN_SRC_CONFIG ? "config" : s == SP_DMN_SRC_UPLOAD ? "upload" : "api";
}

static dcircuit *find_locked(sp_dmn *d, const char *id, int with_registering)
{
    for (dcircuit *c = d->reg.head; c; c = c->next)
        if (!strcmp(c->id, id) && (with_registering || !c->registering))
            return c;
    return NULL;
}

static void circ_free(sp_dmn *d, dcircuit *c)
{
    sp_dmn_native_close(c->nat);
    if (c->wc)
        d->ops->wasmc_close(c->wc);
    free(c);
}

sp_dmn_takes sp_dmn_reg_takes(const dcircuit *c)
{
    return c->nat ? SP_DMN_TAKES_SEEDS : c->wc ? SP_DMN_TAKES_INPUT_JSON : SP_DMN_TAKES_WITNESS;
}

static void unlink_locked(sp_dmn *d, dcircuit *c)
{
    for (dcircuit **pp = &d->reg.head; *pp; pp = &(*pp)->next)
        if (*pp == c) {
            *pp = c->next;
            d->reg.n--;
            return;
        }
}

/* ---- loading and unloading (outside reg.mu, c->busy set) ---- */

static sp_status map_file(void **p, size_t *len, const char *path, char err[SP_ERR_LEN])
{
    int fd;
    uint64_t size;
    if (sp_file_open_regular(&fd, &size, path, "key", err) != SP_OK) /* a FIFO would block the open */
        return SP_ERR_IO;
    if (size == 0) {
        snprintf(err, SP_ERR_LEN, "%.200s: empty file", path);
        close(fd);
        return SP_ERR_IO;
    }
    void *m = mmap(NULL, (size_t)size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (m == MAP_FAILED) {
        snprintf(err, SP_ERR_LEN, "%.200s: mmap: %s", path, strerror(errno));
        return SP_ERR_IO;
    }
    madvise(m, (size_t)size, MADV_WILLNEED);
    *p = m;
    *len = (size_t)size;
    return SP_OK;
}

static void unmap(dcircuit *c)
{
    if (c->map_key)
        munmap(c->map_key, c->map_key_len);
    if (c->map_cs)
        munmap(c->map_cs, c->map_cs_len);
    c->map_key = c->map_cs = NULL;
    c->map_key_len = c->map_cs_len = 0;
}

static sp_status ensure_mapped(dcircuit *c, char err[SP_ERR_LEN])
{
    sp_status st = SP_OK;
    if (!c->map_key)
        st = map_file(&c->map_key, &c->map_key_len, *c->zkey ? c->zkey : c->params, err);
    if (st == SP_OK && *c->r1cs && !c->map_cs)
        st = map_file(&c->map_cs, &c->map_cs_len, c->r1cs, err);
    if (st != SP_OK)
        unmap(c);
    return st;
}

static void unload_parsed(sp_dmn *d, dcircuit *c)
{
    d->ops->key_free(c->key);
    c->key = NULL;
}

/* Parses the mapped files into c->key, through the key cache when one is set. */
static sp_status parse_key(sp_dmn *d, dcircuit *c, char err[SP_ERR_LEN])
{
    key_policy kp;
    sp_dmn_key_policy(d, &kp);
    sp_dmn_key_src src = {.path = *c->zkey ? c->zkey : c->params, .zkey = *c->zkey != 0,
                          .data = c->map_key, .len = c->map_key_len, .r1cs = c->r1cs, .cs_data = c->map_cs,
                          .cs_len = c->map_cs_len, .cache_dir = kp.cache_dir, .cache_max = kp.cache_max,
                          .skip_subgroup_check = kp.skip_subgroup_check,
                          .threads = kp.load_threads > 0 ? kp.load_threads : (int)sysconf(_SC_NPROCESSORS_ONLN)};
    sp_dmn_key_cache kc = {.outcome = c->last_key_cache};
    sp_status st = d->ops->key_load(&c->key, &kc, &src, err);
    c->last_key_cache = kc.outcome;
    if (*kc.warning)
        SP_DMN_LOGW("circuit %s: %s", c->id, kc.warning);
    if (st == SP_OK && *kp.cache_dir)
        SP_DMN_LOGI("circuit %s: key cache %s%s", c->id, d->ops->key_cache_str(kc.outcome),
                    kc.stored ? ", entry stored" : "");
    return st;
}

static void enforce(sp_dmn *d, size_t incoming);

/* COLD or WARM -> HOT. The key is parsed (and so checked) first: only a
 * key that loads makes others give up their room (enforce), so a bad file
 * never costs the idle hot keys their residency. */
static sp_status promote(sp_dmn *d, dcircuit *c, char err[SP_ERR_LEN])
{
    double t0 = sp_dmn_wire_now_ms();
    sp_status st = ensure_mapped(c, err);
    if (st == SP_OK)
        st = parse_key(d, c, err);
    const sp_dmn_ops *ops = d->ops;
    if (st == SP_OK)
        enforce(d, ops->key_bytes(c->key));
    sp_dmn_key_shape ks = st == SP_OK ? ops->key_shape(c->key) : (sp_dmn_key_shape){0};
    if (st == SP_OK && c->n_vars && (ks.n_vars != c->n_vars || ks.n_public != c->n_public)) {
        snprintf(err, SP_ERR_LEN, "the key file changed since registration (%u wires now, %u then)", ks.n_vars,
                 c->n_vars);
        unload_parsed(d, c);
        st = SP_ERR_FORMAT;
    }
    if (st == SP_OK) {
        const sp_native_circuit *nc = c->nat ? sp_dmn_native_nc(c->nat)
                                    : c->wc ? ops->wasmc_bind(c->wc, c->key) : NULL;
        st = nc ? sp_engine_register_native(d->eng, c->id, ops->key_pk(c->key), nc, err)
                : sp_engine_register(d->eng, c->id, ops->key_pk(c->key), ops->key_cs(c->key), err);
        if (st != SP_OK)
            unload_parsed(d, c);
    }
    if (st != SP_OK)
        return st;
    c->n_vars = ks.n_vars;
    c->n_public = ks.n_public;
    c->domain_size = ks.domain_size;
    c->hot_bytes = ops->key_bytes(c->key);
    c->last_load_ms = sp_dmn_wire_now_ms() - t0;
    SP_DMN_LOGI("circuit %s: loaded (hot, %zu bytes) in %.0f ms", c->id, c->hot_bytes, c->last_load_ms);
    return SP_OK;
}

/* HOT -> WARM: the engine forgets the key (no job holds it: refs == 0). */
static void demote_hot(sp_dmn *d, dcircuit *c)
{
    char err[SP_ERR_LEN];
    if (sp_engine_unregister(d->eng, c->id, err) != SP_OK)
        SP_DMN_LOGE("circuit %s: unregister: %s", c->id, err); /* refs said unused: a bug */
    unload_parsed(d, c);
}

/* ---- demotion policy ---- */

/* The least recently used circuit of tier t that may be demoted now. */
static dcircuit *victim_locked(sp_dmn *d, const key_policy *kp, sp_dmn_tier t, double now)
{
    dcircuit *v = NULL;
    for (dcircuit *c = d->reg.head; c; c = c->next)
        if (c->tier == t && !c->busy && !c->registering && c->refs == 0 &&
            now - c->last_used_ms >= (double)kp->min_idle_ms && (!v || c->last_used_ms < v->last_used_ms))
            v = c;
    return v;
}

/* Demotes until hot bytes + incoming fit the budget and warm bytes fit
 * theirs; also demotes hot keys idle longer than keys.idle_demote. */
static void enforce(sp_dmn *d, size_t incoming)
{
    key_policy kp;
    sp_dmn_key_policy(d, &kp);
    for (;;) {
        pthread_mutex_lock(&d->reg.mu);
        double now = sp_dmn_wire_now_ms();
        dcircuit *v = NULL;
        if (d->reg.hot_bytes + incoming > kp.hot_budget)
            v = victim_locked(d, &kp, SP_DMN_TIER_HOT, now);
        if (!v && kp.idle_demote_ms > 0) {
            v = victim_locked(d, &kp, SP_DMN_TIER_HOT, now);
            if (v && now - v->last_used_ms < (double)kp.idle_demote_ms)
                v = NULL;
        }
        int hot = v != NULL;
        if (!v && kp.warm_budget && d->reg.warm_bytes > kp.warm_budget)
            v = victim_locked(d, &kp, SP_DMN_TIER_WARM, now);
        if (!v) {
            pthread_mutex_unlock(&d->reg.mu);
            return;
        }
        v->busy = 1;
        pthread_mutex_unlock(&d->reg.mu);
        if (hot)
            demote_hot(d, v);
        size_t mapped = v->map_key_len + v->map_cs_len;
        if (!hot)
            unmap(v);
        pthread_mutex_lock(&d->reg.mu);
        if (hot) {
            d->reg.hot_bytes -= v->hot_bytes;
            d->reg.warm_bytes += mapped;
            v->hot_bytes = 0;
            v->tier = SP_DMN_TIER_WARM;
        } else {
            d->reg.warm_bytes -= mapped;
            v->tier = SP_DMN_TIER_COLD;
        }
        v->demotions++;
        v->busy = 0;
        SP_DMN_LOGI("circuit %s: demoted to %s (idle %.1f s)", v->id, sp_dmn_tier_name(v->tier),
                    (now - v->last_used_ms) / 1e3);
        pthread_cond_broadcast(&d->reg.cv);
        pthread_mutex_unlock(&d->reg.mu);
    }
}

void sp_dmn_reg_tick(sp_dmn *d) { enforce(d, 0); }

/* ---- references ---- */

int sp_dmn_reg_acquire(sp_dmn *d, const char *id, dcircuit **out, char err[SP_ERR_LEN])
{
    pthread_mutex_lock(&d->reg.mu);
    dcircuit *c = find_locked(d, id, 0);
    if (!c) {
        pthread_mutex_unlock(&d->reg.mu);
        snprintf(err, SP_ERR_LEN, "no circuit '%.100s' is registered", id);
        return 404;
    }
    c->refs++; /* from here on no demotion picks it */
    for (;;) {
        if (c->busy) { /* a load, or a demotion chosen before our reference: wait for its end */
            pthread_cond_wait(&d->reg.cv, &d->reg.mu);
            continue;
        }
        if (c->tier == SP_DMN_TIER_HOT)
            break;
        c->busy = 1;
        size_t was_mapped = c->tier == SP_DMN_TIER_WARM ? c->map_key_len + c->map_cs_len : 0;
        pthread_mutex_unlock(&d->reg.mu);
        sp_status st = promote(d, c, err);
        if (st != SP_OK && !was_mapped)
            unmap(c); /* it stays cold */
        pthread_mutex_lock(&d->reg.mu);
        c->busy = 0;
        pthread_cond_broadcast(&d->reg.cv);
        if (st != SP_OK) {
            c->refs--;
            pthread_mutex_unlock(&d->reg.mu);
            SP_DMN_LOGE("circuit %s: load failed: %s", id, err);
            return st == SP_ERR_NOMEM ? 503 : 422;
        }
        d->reg.warm_bytes -= was_mapped;
        d->reg.hot_bytes += c->hot_bytes;
        c->tier = SP_DMN_TIER_HOT;
        c->loads++;
    }
    c->last_used_ms = sp_dmn_wire_now_ms();
    pthread_mutex_unlock(&d->reg.mu);
    *out = c;
    return 200;
}

void sp_dmn_reg_release(sp_dmn *d, dcircuit *c, sp_status job_status, size_t n_parts)
{
    pthread_mutex_lock(&d->reg.mu);
    c->refs--;
    c->last_used_ms = sp_dmn_wire_now_ms();
    if (job_status == SP_OK) {
        c->jobs_ok++;
        c->proofs_ok += n_parts;
    } else if (job_status == SP_ERR_CANCELLED) {
        c->jobs_cancelled++;
    } else {
        c->jobs_failed++;
        c->proofs_failed += n_parts;
    }
    pthread_mutex_unlock(&d->reg.mu);
}

/* ---- registration ---- */

static int valid_id(const char *id)
{
    size_t n = strlen(id);
    return n > 0 && n <= 63 && strspn(id, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._:-") == n;
}

static uint64_t file_size(const char *path)
{
    struct stat st;
    return *path && stat(path, &st) == 0 ? (uint64_t)st.st_size : 0;
}

/* The r1cs given with a zkey must be the key's circuit: same wires, same
 * public inputs, rows that fit its domain. (A wrong one used to be taken,
 * and every witness then failed its constraints.) */
static sp_status check_r1cs(const sp_dmn_ops *ops, const dcircuit *c, char err[SP_ERR_LEN])
{
    uint32_t n_vars, n_public;
    uint64_t rows;
    sp_status st = ops->r1cs_shape(&n_vars, &n_public, &rows, c->r1cs, err);
    if (st != SP_OK)
        return st;
    if (n_vars != c->n_vars || n_public != c->n_public || rows > c->domain_size) {
        snprintf(err, SP_ERR_LEN, "the r1cs does not match the zkey: %u wires, %u public, %llu rows against the "
                 "key's %u wires, %u public, domain %u", n_vars, n_public, (unsigned long long)rows, c->n_vars,
                 c->n_public, c->domain_size);
        st = SP_ERR_FORMAT;
    }
    return st;
}

/* Header facts without loading the key (COLD registration). */
static sp_status read_facts(const sp_dmn_ops *ops, dcircuit *c, char err[SP_ERR_LEN])
{
    sp_status st;
    if (*c->zkey) {
        sp_dmn_key_shape ks;
        st = ops->zkey_shape(&ks, c->zkey, err);
        if (st == SP_OK) {
            c->n_vars = ks.n_vars;
            c->n_public = ks.n_public;
            c->domain_size = ks.domain_size;
        }
        if (st == SP_OK && *c->r1cs)
            st = check_r1cs(ops, c, err);
        return st;
    }
    if (!file_size(c->params)) {
        snprintf(err, SP_ERR_LEN, "%.200s: missing or empty", c->params);
        return SP_ERR_IO;
    }
    uint64_t rows, n = 2;
    st = ops->r1cs_shape(&c->n_vars, &c->n_public, &rows, c->r1cs, err);
    if (st != SP_OK)
        return st;
    while (n < rows)
        n <<= 1;
    c->domain_size = (uint32_t)n;
    return SP_OK;
}

/* A native circuit: its parameters resolved and the circuit opened (its
 * sizes counted), before any file is read. */
static sp_status open_native(const sp_dmn_ops *ops, dcircuit *c, char err[SP_ERR_LEN])
{
    return sp_dmn_native_open(&c->nat, &c->native, ops->native, err);
}

/* The key of a native circuit must be its own: the wires and public inputs
 * the circuit makes, and a domain its rows fit (the key's QAP is what the
 * prover uses; the circuit only fills the witness and a, b, c). */
static sp_status check_native(const dcircuit *c, char err[SP_ERR_LEN])
{
    sp_dmn_native_shape nc = sp_dmn_native_shape_of(c->nat);
    if (nc.n_vars == c->n_vars && nc.n_public == c->n_public && nc.n_rows + nc.n_public + 1 <= c->domain_size)
        return SP_OK;
    snprintf(err, SP_ERR_LEN, "the key (%u wires, %u public, domain %u) is not the circuit's (%s %s: %llu wires, %llu "
             "public, %llu constraints)", c->n_vars, c->n_public, c->domain_size, sp_dmn_native_kind(c->nat),
             sp_dmn_native_preset(c->nat), (unsigned long long)nc.n_vars, (unsigned long long)nc.n_public,
             (unsigned long long)nc.n_rows);
    return SP_ERR_FORMAT;
}

/* A circuit's .wasm: read, checked as a circom witness generator of this
 * curve, its witness the key's wires. The limits are the daemon's
 * (keys.wasm_max_time, keys.wasm_max_memory). */
static sp_status open_wasm(sp_dmn *d, dcircuit *c, char err[SP_ERR_LEN])
{
    if (sp_dmn_farm_on(d)) {
        snprintf(err, SP_ERR_LEN, "a farm node takes no circuit with a .wasm: its queue carries witnesses and native "
                 "inputs only; make the witnesses with `snarkpipe wtns calculate`");
        return SP_ERR_INVALID_ARG;
    }
    pthread_mutex_lock(&d->cfg_mu);
    sp_dmn_wasm_limits lim = {d->cfg.wasm_max_ms / 1000.0, (uint32_t)d->cfg.wasm_max_mib};
    pthread_mutex_unlock(&d->cfg_mu);
    sp_status st = d->ops->wasmc_open(&c->wc, c->wasm, &lim, err);
    if (st == SP_OK && d->ops->wasmc_witness_size(c->wc) != c->n_vars) {
        snprintf(err, SP_ERR_LEN, "the .wasm makes witnesses of %u values but the key has %u wires: not the key's "
                 "circuit", d->ops->wasmc_witness_size(c->wc), c->n_vars);
        st = SP_ERR_FORMAT;
    }
    return st;
}

static int http_of(sp_status st) { return st == SP_ERR_IO ? 400 : st == SP_ERR_NOMEM ? 503 : 422; }

int sp_dmn_curve_hint(const sp_dmn_ops *ops, char err[SP_ERR_LEN], const char *thing)
{
    sp_curve_id this = ops->curve;
    sp_curve_id other = this == SP_CURVE_ID_BN254 ? SP_CURVE_ID_BLS12_381 : SP_CURVE_ID_BN254;
    char phrase[96], what[64];
    snprintf(phrase, sizeof phrase, " is for %s but this is the %s prover", sp_curve_label(other),
             sp_curve_label(this));
    const char *at = strstr(err, phrase);
    if (!at)
        return 0;
    snprintf(what, sizeof what, "%.*s", (int)(at - err < 63 ? at - err : 63), err);
    snprintf(err, SP_ERR_LEN, "%s is for %s but this daemon proves %s; start one with `--curve %s` (or `[engine] "
             "curve = %s`) for this %s", what, sp_curve_label(other), sp_curve_name(this),
             sp_curve_name(other), sp_curve_name(other), thing);
    return 1;
}

static int spec_check(const reg_spec *s, char err[SP_ERR_LEN])
{
    int has_z = s->zkey && *s->zkey, has_p = s->params && *s->params;
    if (!s->id || !valid_id(s->id)) {
        snprintf(err, SP_ERR_LEN, "id must be 1 to 63 characters of [A-Za-z0-9._:-]");
        return -1;
    }
    if (has_z == has_p || (has_p && !(s->r1cs && *s->r1cs))) {
        snprintf(err, SP_ERR_LEN, "give a zkey, or params with the circuit's r1cs");
        return -1;
    }
    int has_w = s->wasm && *s->wasm;
    if (s->native && sp_dmn_native_on(s->native) && (has_p || has_w || (s->r1cs && *s->r1cs))) {
        snprintf(err, SP_ERR_LEN, "a native circuit takes a zkey only: its constraints are the circuit's own code");
        return -1;
    }
    if (has_w && !has_z) {
        snprintf(err, SP_ERR_LEN, "a .wasm comes with its circuit's zkey (a circom circuit), not with params");
        return -1;
    }
    size_t lz = has_z ? strlen(s->zkey) : strlen(s->params), lr = s->r1cs ? strlen(s->r1cs) : 0;
    if (lz >= SP_DMN_CONF_PATH || lr >= SP_DMN_CONF_PATH || (has_w && strlen(s->wasm) >= SP_DMN_CONF_PATH)) {
        snprintf(err, SP_ERR_LEN, "path longer than %d bytes", SP_DMN_CONF_PATH - 1);
        return -1;
    }
    return 0;
}

int sp_dmn_reg_reserve(sp_dmn *d, const char *id, sp_dmn_circ_source src, dcircuit **out, char err[SP_ERR_LEN])
{
    *out = NULL;
    if (!id || !valid_id(id)) {
        snprintf(err, SP_ERR_LEN, "id must be 1 to 63 characters of [A-Za-z0-9._:-]");
        return 400;
    }
    dcircuit *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(err, SP_ERR_LEN, "out of memory");
        return 503;
    }
    snprintf(c->id, sizeof c->id, "%s", id);
    c->source = src;
    c->registering = c->busy = 1;
    pthread_mutex_lock(&d->cfg_mu);
    size_t cap = d->cfg.max_circuits;
    pthread_mutex_unlock(&d->cfg_mu);
    pthread_mutex_lock(&d->reg.mu);
    int code = find_locked(d, c->id, 1) ? 409 : src != SP_DMN_SRC_CONFIG && d->reg.n >= cap ? 507 : 0;
    if (code == 0) {
        c->next = d->reg.head;
        d->reg.head = c;
        d->reg.n++;
    }
    pthread_mutex_unlock(&d->reg.mu);
    if (code) {
        if (code == 409)
            snprintf(err, SP_ERR_LEN, "a circuit '%s' is already registered", c->id);
        else
            snprintf(err, SP_ERR_LEN, "%zu circuits are registered, the most this daemon takes (keys.max_circuits); "
                     "evict one first", cap);
        free(c);
        return code;
    }
    *out = c;
    return 0;
}

void sp_dmn_reg_abandon(sp_dmn *d, dcircuit *c)
{
    pthread_mutex_lock(&d->reg.mu);
    unlink_locked(d, c);
    pthread_cond_broadcast(&d->reg.cv);
    pthread_mutex_unlock(&d->reg.mu);
    circ_free(d, c);
}

/* Checks the files and loads (preload) a reserved circuit; SP_OK or the failure. */
static sp_status load_new(sp_dmn *d, dcircuit *c, char err[SP_ERR_LEN])
{
    /* The facts first, always: cheap header checks (and the r1cs against
     * the key) before anything is loaded or any other key demoted. */
    sp_status st = sp_dmn_native_on(&c->native) ? open_native(d->ops, c, err) : SP_OK;
    if (st == SP_OK)
        st = read_facts(d->ops, c, err);
    if (st == SP_OK && c->nat)
        st = check_native(c, err);
    if (st == SP_OK && *c->wasm)
        st = open_wasm(d, c, err);
    if (st == SP_OK && c->preload)
        st = promote(d, c, err);
    if (st != SP_OK)
        unmap(c);
    return st;
}

int sp_dmn_reg_add_reserved(sp_dmn *d, dcircuit *c, const reg_spec *s, char err[SP_ERR_LEN])
{
    if (spec_check(s, err)) {
        sp_dmn_reg_abandon(d, c);
        return 400;
    }
    snprintf(c->zkey, sizeof c->zkey, "%s", s->zkey ? s->zkey : "");
    snprintf(c->params, sizeof c->params, "%s", s->params ? s->params : "");
    snprintf(c->r1cs, sizeof c->r1cs, "%s", s->r1cs ? s->r1cs : "");
    snprintf(c->wasm, sizeof c->wasm, "%s", s->wasm ? s->wasm : "");
    c->preload = s->preload;
    if (s->native)
        c->native = *s->native;
    else
        sp_dmn_native_init(&c->native);
    c->file_bytes = file_size(*c->zkey ? c->zkey : c->params) + file_size(c->r1cs);
    sp_status st = load_new(d, c, err);
    int code = st == SP_OK ? 201 : http_of(st);
    if (code == 422)
        sp_dmn_curve_hint(d->ops, err, "key");
    /* Recorded before anyone can use it; a record that cannot be written
     * undoes the registration (the client hears 500, a restart agrees). */
    if (st == SP_OK && !s->restoring && sp_dmn_state_circuit_save(d, c, err) != SP_OK) {
        if (c->preload)
            demote_hot(d, c);
        unmap(c);
        code = 500;
    }
    if (code != 201) {
        sp_dmn_reg_abandon(d, c);
        return code;
    }
    pthread_mutex_lock(&d->reg.mu);
    c->registering = c->busy = 0;
    c->gen = ++d->reg.next_gen;
    c->tier = c->preload ? SP_DMN_TIER_HOT : SP_DMN_TIER_COLD;
    c->loads = c->preload != 0;
    c->last_used_ms = sp_dmn_wire_now_ms();
    d->reg.hot_bytes += c->hot_bytes;
    pthread_cond_broadcast(&d->reg.cv);
    pthread_mutex_unlock(&d->reg.mu);
    SP_DMN_LOGI("circuit %s: registered (%s, %s%s%s%s%u wires, %u public, domain %u) from %s", c->id,
                sp_dmn_tier_name(c->tier), c->nat ? sp_dmn_native_kind(c->nat) : c->wc ? "with its .wasm" : "",
                c->nat ? " " : "", c->nat ? sp_dmn_native_preset(c->nat) : "", c->nat || c->wc ? ", " : "", c->n_vars,
                c->n_public, c->domain_size, source_name(c->source));
    return 201;
}

int sp_dmn_reg_add(sp_dmn *d, const reg_spec *s, char err[SP_ERR_LEN])
{
    dcircuit *c;
    if (spec_check(s, err))
        return 400;
    int code = sp_dmn_reg_reserve(d, s->id, s->source, &c, err);
    return code ? code : sp_dmn_reg_add_reserved(d, c, s, err);
}

int sp_dmn_reg_config_state(sp_dmn *d, const sp_dmn_conf_circuit *cc)
{
    pthread_mutex_lock(&d->reg.mu);
    const dcircuit *c = find_locked(d, cc->id, 1);
    int r = !c ? 0 : c->source != SP_DMN_SRC_CONFIG ? 3
          : strcmp(c->zkey, cc->zkey) || strcmp(c->params, cc->params) || strcmp(c->r1cs, cc->r1cs) ||
                    strcmp(c->wasm, cc->wasm) ||
                    c->preload != cc->preload || !sp_dmn_native_equal(&c->native, &cc->native) ? 2 : 1;
    pthread_mutex_unlock(&d->reg.mu);
    return r;
}

int sp_dmn_reg_evict(sp_dmn *d, const char *id, size_t *freed, char err[SP_ERR_LEN])
{
    pthread_mutex_lock(&d->reg.mu);
    dcircuit *c = find_locked(d, id, 0);
    if (!c || c->refs || c->busy) {
        if (c)
            snprintf(err, SP_ERR_LEN, c->refs ? "circuit '%s' is used by %zu unfinished job(s)" : "circuit '%s' is "
                     "being loaded or demoted; try again", id, c->refs);
        else
            snprintf(err, SP_ERR_LEN, "no circuit '%.100s' is registered", id);
        pthread_mutex_unlock(&d->reg.mu);
        return c ? 409 : 404;
    }
    if (sp_dmn_state_circuit_drop(d, c, err) != SP_OK) { /* the record goes first: on failure nothing changed */
        pthread_mutex_unlock(&d->reg.mu);
        return 500;
    }
    unlink_locked(d, c); /* nobody can find it any more; nobody holds it (refs == 0, not busy) */
    size_t mapped = c->map_key_len + c->map_cs_len;
    if (c->tier == SP_DMN_TIER_HOT)
        d->reg.hot_bytes -= c->hot_bytes;
    else if (c->tier == SP_DMN_TIER_WARM)
        d->reg.warm_bytes -= mapped;
    pthread_mutex_unlock(&d->reg.mu);
    *freed = c->tier == SP_DMN_TIER_HOT ? c->hot_bytes : c->tier == SP_DMN_TIER_WARM ? mapped : 0;
    if (c->tier == SP_DMN_TIER_HOT)
        demote_hot(d, c);
    unmap(c);
    if (c->source == SP_DMN_SRC_UPLOAD) { /* the daemon's own copies */
        unlink(*c->zkey ? c->zkey : c->params);
        if (*c->r1cs)
            unlink(c->r1cs);
        if (*c->wasm)
            unlink(c->wasm);
    }
    SP_DMN_LOGI("circuit %s: evicted (%s, %zu bytes freed)", id, sp_dmn_tier_name(c->tier), *freed);
    circ_free(d, c);
    return 200;
}

void sp_dmn_reg_free_all(sp_dmn *d)
{
    pthread_mutex_lock(&d->reg.mu);
    dcircuit *c = d->reg.head;
    d->reg.head = NULL;
    d->reg.n = 0;
    pthread_mutex_unlock(&d->reg.mu);
    while (c) {
        dcircuit *next = c->next;
        if (c->tier == SP_DMN_TIER_HOT)
            demote_hot(d, c);
        unmap(c);
        circ_free(d, c);
        c = next;
    }
}

/* ---- reports ---- */

static void circuit_json(const sp_dmn_ops *ops, sp_json_writer *w, const dcircuit *c, double now)
{
    sp_jw_begin_object(w);
    sp_jw_key(w, "id");
    sp_jw_string(w, c->id);
    sp_jw_key(w, "tier");
    sp_jw_string(w, c->registering ? "loading" : sp_dmn_tier_name(c->tier));
    if (!c->registering && c->nat) { /* set outside reg.mu while registering */
        sp_dmn_native_describe(w, c->nat);
    } else {
        sp_jw_key(w, "kind");
        sp_jw_string(w, "file");
    }
    if (*c->wasm) {
        sp_jw_key(w, "wasm");
        sp_jw_string(w, c->wasm);
    }
    sp_jw_key(w, "size_bytes");
    sp_jw_u64(w, c->tier == SP_DMN_TIER_HOT    ? c->hot_bytes
                 : c->tier == SP_DMN_TIER_WARM ? c->map_key_len + c->map_cs_len
                                               : c->file_bytes);
    sp_jw_key(w, "file_bytes");
    sp_jw_u64(w, c->file_bytes);
    sp_jw_key(w, "ref_count");
    sp_jw_u64(w, c->refs);
    sp_jw_key(w, "busy");
    sp_jw_bool(w, c->busy);
    sp_jw_key(w, "n_vars");
    sp_jw_u64(w, c->n_vars);
    sp_jw_key(w, "n_public");
    sp_jw_u64(w, c->n_public);
    sp_jw_key(w, "domain_size");
    sp_jw_u64(w, c->domain_size);
    sp_jw_key(w, "idle_ms");
    sp_jw_double(w, c->refs ? 0 : now - c->last_used_ms);
    sp_jw_key(w, "loads");
    sp_jw_u64(w, c->loads);
    sp_jw_key(w, "demotions");
    sp_jw_u64(w, c->demotions);
    sp_jw_key(w, "last_load_ms");
    sp_jw_double(w, c->last_load_ms);
    sp_jw_key(w, "key_cache"); /* the last load's */
    sp_jw_string(w, c->last_key_cache ? ops->key_cache_str(c->last_key_cache) : "off");
    sp_jw_key(w, "source");
    sp_jw_string(w, source_name(c->source));
    sp_jw_key(w, *c->zkey ? "zkey" : "params");
    sp_jw_string(w, *c->zkey ? c->zkey : c->params);
    if (*c->r1cs) {
        sp_jw_key(w, "r1cs");
        sp_jw_string(w, c->r1cs);
    }
    sp_jw_key(w, "proofs_completed");
    sp_jw_u64(w, c->proofs_ok);
    sp_jw_end_object(w);
}

void sp_dmn_reg_json(sp_dmn *d, sp_json_writer *w)
{
    double now = sp_dmn_wire_now_ms();
    key_policy kp;
    sp_dmn_key_policy(d, &kp);
    pthread_mutex_lock(&d->reg.mu);
    sp_jw_key(w, "circuits");
    sp_jw_begin_array(w);
    for (const dcircuit *c = d->reg.head; c; c = c->next)
        circuit_json(d->ops, w, c, now);
    sp_jw_end_array(w);
    sp_jw_key(w, "keys_hot_bytes");
    sp_jw_u64(w, d->reg.hot_bytes);
    sp_jw_key(w, "keys_hot_budget");
    sp_jw_u64(w, kp.hot_budget);
    sp_jw_key(w, "keys_warm_bytes");
    sp_jw_u64(w, d->reg.warm_bytes);
    sp_jw_key(w, "keys_warm_budget");
    sp_jw_u64(w, kp.warm_budget);
    pthread_mutex_unlock(&d->reg.mu);
}

void sp_dmn_reg_metrics(sp_dmn *d, char **b, size_t *len, size_t *cap)
{
    static const char *names[] = {"snarkpipe_proofs_completed_total", "snarkpipe_proofs_failed_total",
                                  "snarkpipe_jobs_completed_total", "snarkpipe_jobs_failed_total",
                                  "snarkpipe_jobs_cancelled_total"};
    static const char *helps[] = {"Proofs (partitions) completed", "Proofs (partitions) of failed jobs",
                                  "Jobs completed", "Jobs failed", "Jobs cancelled"};
    pthread_mutex_lock(&d->reg.mu);
    for (int k = 0; k < 5; k++) {
        sp_buf_printf(b, len, cap, "# HELP %s %s, by circuit.\n# TYPE %s counter\n", names[k], helps[k], names[k]);
        for (const dcircuit *c = d->reg.head; c; c = c->next) {
            uint64_t v[5] = {c->proofs_ok, c->proofs_failed, c->jobs_ok, c->jobs_failed, c->jobs_cancelled};
            sp_buf_printf(b, len, cap, "%s{circuit=\"%s\"} %llu\n", names[k], c->id, (unsigned long long)v[k]);
        }
    }
    sp_buf_printf(b, len, cap, "# HELP snarkpipe_key_bytes Bytes of keys by residency tier.\n"
                               "# TYPE snarkpipe_key_bytes gauge\nsnarkpipe_key_bytes{tier=\"hot\"} %zu\n"
                               "snarkpipe_key_bytes{tier=\"warm\"} %zu\n", d->reg.hot_bytes, d->reg.warm_bytes);
    sp_buf_printf(b, len, cap, "# HELP snarkpipe_keys Registered circuits by residency tier.\n# TYPE snarkpipe_keys gauge\n");
    size_t n[3] = {0, 0, 0};
    for (const dcircuit *c = d->reg.head; c; c = c->next)
        n[c->tier]++;
    for (int t = 2; t >= 0; t--)
        sp_buf_printf(b, len, cap, "snarkpipe_keys{tier=\"%s\"} %zu\n", sp_dmn_tier_name((sp_dmn_tier)t), n[t]);
    pthread_mutex_unlock(&d->reg.mu);
}

void sp_dmn_reg_unref(sp_dmn *d, dcircuit *c)
{
    pthread_mutex_lock(&d->reg.mu);
    c->refs--;
    pthread_mutex_unlock(&d->reg.mu);
}

int sp_dmn_reg_describe(sp_dmn *d, const char *id, sp_json_writer *w)
{
    pthread_mutex_lock(&d->reg.mu);
    const dcircuit *c = find_locked(d, id, 0);
    if (c)
        circuit_json(d->ops, w, c, sp_dmn_wire_now_ms());
    pthread_mutex_unlock(&d->reg.mu);
    return c ? 0 : -1;
}

int sp_dmn_reg_exists(sp_dmn *d, const char *id)
{
    pthread_mutex_lock(&d->reg.mu);
    int e = find_locked(d, id, 1) != NULL;
    pthread_mutex_unlock(&d->reg.mu);
    return e;
}

int sp_dmn_reg_facts(sp_dmn *d, const char *id, uint32_t *n_vars, uint32_t *domain_size, sp_dmn_takes *takes)
{
    pthread_mutex_lock(&d->reg.mu);
    const dcircuit *c = find_locked(d, id, 0);
    if (c) {
        *n_vars = c->n_vars;
        *domain_size = c->domain_size;
        *takes = sp_dmn_reg_takes(c);
    }
    pthread_mutex_unlock(&d->reg.mu);
    return c ? 0 : -1;
}

int sp_dmn_reg_ident(sp_dmn *d, const char *id, reg_ident *out)
{
    memset(out, 0, sizeof *out);
    pthread_mutex_lock(&d->reg.mu);
    const dcircuit *c = find_locked(d, id, 0);
    if (c) {
        snprintf(out->zkey, sizeof out->zkey, "%s", c->zkey);
        snprintf(out->params, sizeof out->params, "%s", c->params);
        snprintf(out->r1cs, sizeof out->r1cs, "%s", c->r1cs);
        out->n_vars = c->n_vars;
        out->n_public = c->n_public;
        out->gen = c->gen;
        out->native = c->nat != NULL;
        if (c->nat)
            sp_dmn_native_ident(out->native_ident, sizeof out->native_ident, c->nat);
        out->has_wasm = c->wc != NULL;
    }
    pthread_mutex_unlock(&d->reg.mu);
    return c ? 0 : -1;
}

size_t sp_dmn_reg_ids(sp_dmn *d, char (**ids)[64])
{
    pthread_mutex_lock(&d->reg.mu);
    size_t n = 0;
    *ids = malloc((d->reg.n ? d->reg.n : 1) * sizeof **ids);
    for (const dcircuit *c = d->reg.head; *ids && c; c = c->next)
        if (!c->registering)
            memcpy((*ids)[n++], c->id, sizeof c->id);
    pthread_mutex_unlock(&d->reg.mu);
    return n;
}
