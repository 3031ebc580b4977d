/* The daemon's option table and everything it drives (config.h). */
#include <errno.h>
#include <ini.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "daemon/config.h"
#include "daemon/log.h"
#include "daemon/farm/queue.h"
#include "daemon/wire.h"
#include "util/bytes.h"
#include "util/curves.h"

enum { T_INT, T_SIZE, T_BYTES, T_MS, T_BOOL, T_STR, T_ENUM, T_LIST, T_OCTAL };
#define F_RELOAD 1u /* SIGHUP applies it */
#define F_ALIAS 2u  /* an old name, still read; not printed or listed */
#define F_SECRET 4u /* may hold a password: shown redacted */

typedef struct {
    const char *section, *key;
    int type;
    unsigned flags;
    size_t off, cap;    /* field offset; T_STR: array size */
    long long min, max; /* integer bounds */
    const char *choices; /* T_ENUM: names separated by '|', value = index */
    const char *def;    /* default as text; NULL: sp_dmn_conf_defaults sets it */
    const char *help;
} opt;

#define OFF(f) offsetof(sp_dmn_conf, f)
#define STR(f) OFF(f), sizeof(((sp_dmn_conf *)0)->f)
#define KIB 1024LL
#define BIG (1LL << 62)

static const opt opts_[] = {
    /* ---- engine (engine.h): fixed once the engine runs ---- */
    {"engine", "curve", T_STR, 0, STR(curve), 0, 0, NULL, NULL,
     "the curve of every key and witness: bls12-381, or bn254 (= bn128); `snarkpipe daemon` runs that "
     "curve's prover (--curve on its command line chooses it too)"},
    {"engine", "budget", T_BYTES, 0, OFF(eng.budget_bytes), 0, 0, BIG, NULL, "auto",
     "bytes for partitions in flight (a, b, c, prover scratch, idle buffer pool); auto = MemTotal minus a margin"},
    {"engine", "max_parallel_synthesis", T_INT, 0, OFF(eng.max_parallel_synthesis), 0, 1, 1024, NULL, NULL,
     "synthesis workers"},
    {"engine", "synth_threads", T_INT, 0, OFF(eng.synth_threads), 0, 0, 4096, NULL, NULL,
     "threads of one synthesis (0 = every core)"},
    {"engine", "gpu_workers_per_device", T_INT, 0, OFF(eng.gpu_workers_per_device), 0, 1, 64, NULL, NULL,
     "workers sharing one device lock"},
    {"engine", "finish_threads", T_INT, 0, OFF(eng.finish_threads), 0, 0, 4096, NULL, NULL,
     "threads of the finish stage's CPU G2 MSM (0 = min(32, cores))"},
    {"engine", "gpu_threads", T_INT, F_ALIAS, OFF(eng.finish_threads), 0, 0, 4096, NULL, NULL,
     "old name of finish_threads, still accepted"},
    {"engine", "finish_workers", T_INT, 0, OFF(eng.finish_workers), 0, 0, 1024, NULL, NULL,
     "partitions finishing at once (0 = one per device)"},
    {"engine", "backend_threads", T_INT, 0, OFF(eng.backend_threads), 0, 0, 4096, NULL, NULL,
     "host threads of a backend's own work (0 = all cores)"},
    {"engine", "backends", T_STR, 0, STR(backends), 0, 0, NULL, NULL,
     "comma-separated backends: cpu, cuda:0,cuda:1, cuda:all (every CUDA device), auto"},
    {"engine", "g2_on_device", T_BOOL, 0, OFF(eng.g2_on_device), 0, 0, 1, NULL, NULL,
     "run the G2 MSM on the device inside the lock (when the backend has one)"},
    {"engine", "split_msm", T_BOOL, 0, OFF(eng.split_msm), 0, 0, 1, NULL, NULL, "0/1-aware witness MSMs"},
    {"engine", "verify_proofs", T_BOOL, 0, OFF(eng.verify_proofs), 0, 0, 1, NULL, NULL,
     "verify every proof before its job completes"},
    {"engine", "check_witness", T_BOOL, 0, OFF(eng.check_witness), 0, 0, 1, NULL, NULL,
     "check every constraint during synthesis (circuits registered with their r1cs, native circuits)"},
    {"engine", "timeline", T_STR, 0, STR(timeline), 0, 0, NULL, "",
     "also write the TIMELINE lines here (\"-\" = stderr); the status page reads them either way"},
    {"engine", "serialized_free", T_BOOL, 0, OFF(eng.serialized_free), 0, 0, 1, NULL, NULL,
     "free large buffers from one background thread"},
    {"engine", "pinned_pool", T_BOOL, 0, OFF(eng.pinned_pool), 0, 0, 1, NULL, NULL,
     "reuse a, b, c buffers from a pool of backend host memory"},
    {"engine", "bw_throttle", T_BOOL, 0, OFF(eng.bw_throttle), 0, 0, 1, NULL, NULL,
     "synthesis yields while a CPU G2 MSM runs"},
    {"engine", "two_step_release", T_BOOL, 0, OFF(eng.two_step_release), 0, 0, 1, NULL, NULL,
     "return a, b, c to the budget as soon as the device has them"},
    {"engine", "pool_max", T_BYTES, 0, OFF(eng.pool_max_bytes), 0, 0, BIG, NULL, NULL,
     "cap on idle pool bytes (0 = only the budget limits it)"},
    {"engine", "max_jobs", T_SIZE, 0, OFF(eng.max_jobs), 0, 1, 1000000, NULL, NULL,
     "jobs held at once (submitted, not yet finished); more get 503"},
    {"engine", "max_partitions", T_SIZE, 0, OFF(eng.max_partitions), 0, 1, 10000000, NULL, NULL,
     "partitions not yet finished; more get 503"},

    /* ---- server ---- */
    {"server", "listen", T_LIST, 0, OFF(listen), 0, 0, 0, NULL, "127.0.0.1:7420",
     "host:port, [v6]:port or unix:/path; repeatable (one per line in the file)"},
    {"server", "token_file", T_STR, F_RELOAD, STR(token_file), 0, 0, NULL, "",
     "file holding the bearer token every request but GET / and /healthz must carry (empty = no auth)"},
    {"server", "insecure", T_BOOL, 0, OFF(insecure), 0, 0, 1, NULL, "no",
     "allow a TCP listener on a non-loopback address without a token"},
    {"server", "unix_mode", T_OCTAL, 0, OFF(unix_mode), 0, 0, 0777, NULL, "0660", "permissions of unix sockets"},
    {"server", "max_body", T_BYTES, F_RELOAD, OFF(max_body), 0, 4 * KIB, BIG, NULL, "256MiB",
     "request bodies above this get 413"},
    {"server", "body_memory", T_BYTES, 0, OFF(body_memory), 0, 0, BIG, NULL, "auto",
     "bytes of request bodies held at once, taken out of engine.budget; a body past what is left gets 503 "
     "(Retry-After) before it is read; auto = an eighth of the budget"},
    {"server", "max_connections", T_INT, 0, OFF(max_connections), 0, 1, 100000, NULL, "64",
     "connections served at once (one thread each)"},
    {"server", "max_connections_per_address", T_INT, 0, OFF(max_connections_per_address), 0, 0, 100000, NULL, "32",
     "TCP connections from one client address at once (0 = no limit)"},
    {"server", "connection_timeout", T_MS, 0, OFF(connection_timeout_ms), 0, 0, BIG, NULL, "60s",
     "idle connections are closed after this"},
    {"server", "header_timeout", T_MS, F_RELOAD, OFF(header_timeout_ms), 0, 100, BIG, NULL, "10s",
     "a request's headers must be in this long after it began, however slowly they trickle"},
    {"server", "body_timeout", T_MS, F_RELOAD, OFF(body_timeout_ms), 0, 100, BIG, NULL, "5m",
     "a request's body must be in this long after its headers"},
    {"server", "max_wait", T_MS, F_RELOAD, OFF(max_wait_ms), 0, 0, BIG, NULL, "10m",
     "longest wait of one await or prove request"},
    {"server", "result_ttl", T_MS, F_RELOAD, OFF(result_ttl_ms), 0, 0, BIG, NULL, "10m",
     "finished jobs stay readable this long"},
    {"server", "shutdown", T_ENUM, F_RELOAD, OFF(shutdown), 0, 0, 0, "drain|cancel", "drain",
     "on SIGTERM / SIGINT: finish the jobs in flight, or cancel them (a second signal cancels)"},
    {"server", "drain_timeout", T_MS, F_RELOAD, OFF(drain_timeout_ms), 0, 0, BIG, NULL, "10m",
     "drain: cancel what is left after this (0 = wait for ever)"},
    {"server", "log_level", T_ENUM, F_RELOAD, OFF(log_level), 0, 0, 0, "error|warn|info|debug", "info",
     "messages on stderr up to this level"},
    {"server", "state_dir", T_STR, 0, STR(state_dir), 0, 0, NULL, "",
     "directory where registered circuits and uploaded keys survive a restart (empty = none)"},
    {"server", "ready_file", T_STR, 0, STR(ready_file), 0, 0, NULL, "",
     "written with the bound addresses (one per line) once the daemon serves"},

    /* ---- farm: several daemons on one PostgreSQL queue (daemon/farm/queue.h) ---- */
    {"farm", "queue", T_STR, F_SECRET, STR(queue), 0, 0, NULL, "",
     "PostgreSQL connection string of the farm's queue (postgresql://user@host/db or key=value pairs); empty = "
     "this host alone. Keep the password in ~/.pgpass or PGPASSFILE"},
    {"farm", "node_id", T_STR, 0, STR(node_id), 0, 0, NULL, "",
     "this daemon's id in the farm, one per host ([A-Za-z0-9._:-]; empty = the host name)"},
    {"farm", "lease", T_MS, 0, OFF(lease_ms), 0, 1000, 86400000, NULL, "30s",
     "a claimed partition whose lease is not renewed this long goes to another node (renewed every lease / 3)"},
    {"farm", "poll", T_MS, 0, OFF(poll_ms), 0, 100, 3600000, NULL, "5s",
     "look at the queue at least this often (notifications wake the nodes sooner)"},
    {"farm", "max_claims", T_INT, 0, OFF(max_claims), 0, 0, 4096, NULL, "0",
     "partitions this node holds at once (0 = its synthesis workers plus its device workers)"},
    {"farm", "max_attempts", T_INT, 0, OFF(max_attempts), 0, 1, 1000, NULL, "5",
     "claims of one partition (failures, lost nodes) before its job fails"},
    {"farm", "db_connections", T_INT, 0, OFF(db_connections), 0, 1, 16, NULL, "4",
     "database connections of the HTTP side (submit, await, cancel)"},
    {"farm", "progress_timeout", T_MS, 0, OFF(progress_timeout_ms), 0, 1000, BIG, NULL, "5m",
     "a claim's lease is renewed only while its partition moves to a next stage within this long; a stalled one "
     "is given up (another node takes it)"},
    {"farm", "max_run", T_MS, 0, OFF(max_run_ms), 0, 0, BIG, NULL, "1h",
     "a partition running longer than this on a node is cancelled and given up (0 = no limit)"},
    {"farm", "job_deadline", T_MS, 0, OFF(job_deadline_ms), 0, 0, BIG, NULL, "0",
     "a job submitted here fails when a partition of it is still queued this long after submission (0 = never)"},
    {"farm", "max_queued_per_client", T_INT, 0, OFF(max_queued_per_client), 0, 0, 1 << 30, NULL, "0",
     "jobs one client (its bearer token) may have queued in the farm through this node (0 = no limit; 429 past it)"},
    {"farm", "memory", T_BYTES, 0, OFF(farm_memory), 0, 0, BIG, NULL, "auto",
     "bytes of the partitions this node holds at once, each weighed by its circuit (auto = the engine budget)"},

    /* ---- key residency ---- */
    {"keys", "hot_budget", T_BYTES, F_RELOAD, OFF(hot_budget), 0, 0, BIG, NULL, "auto",
     "bytes of parsed (hot) keys before idle ones are demoted; auto = a quarter of the engine budget"},
    {"keys", "warm_budget", T_BYTES, F_RELOAD, OFF(warm_budget), 0, 0, BIG, NULL, "0",
     "bytes of mapped (warm) key files before idle ones go cold (0 = no limit)"},
    {"keys", "min_idle", T_MS, F_RELOAD, OFF(key_min_idle_ms), 0, 0, BIG, NULL, "0",
     "a key is demoted only after being idle this long"},
    {"keys", "idle_demote", T_MS, F_RELOAD, OFF(key_idle_demote_ms), 0, 0, BIG, NULL, "0",
     "hot keys idle this long go warm even within the budget (0 = never)"},
    {"keys", "skip_subgroup_check", T_BOOL, F_RELOAD, OFF(skip_subgroup_check), 0, 0, 1, NULL, "no",
     "load keys without subgroup checks (keys from a trusted source only)"},
    {"keys", "load_threads", T_INT, F_RELOAD, OFF(load_threads), 0, 0, 4096, NULL, "0",
     "threads decoding a key (0 = all cores)"},
    {"keys", "cache_dir", T_STR, F_RELOAD, STR(key_cache_dir), 0, 0, NULL, "",
     "directory of the key cache: keys checked once load from there next time (empty = no cache)"},
    {"keys", "cache_max", T_BYTES, F_RELOAD, OFF(key_cache_max), 0, 1 << 20, BIG, NULL, "4G",
     "the key cache's cap: the least recently used entries make room for a new one"},
    {"keys", "key_dirs", T_STR, F_RELOAD, STR(key_dirs), 0, 0, NULL, "",
     "':'-separated directories whose files POST /v1/circuits may register by path (empty = none)"},
    {"keys", "any_key_path", T_BOOL, F_RELOAD, OFF(any_key_path), 0, 0, 1, NULL, "no",
     "let registration by path name any regular file the daemon can read (ignores key_dirs)"},
    {"keys", "max_circuits", T_SIZE, F_RELOAD, OFF(max_circuits), 0, 1, 10000000, NULL, "1000",
     "circuits registered at once; more registrations get 507"},
    {"keys", "wasm_max_time", T_MS, F_RELOAD, OFF(wasm_max_ms), 0, 0, BIG, NULL, "10m",
     "longest run of a circuit's .wasm making one witness; longer fails the job (0 = no limit)"},
    {"keys", "wasm_max_memory", T_INT, F_RELOAD, OFF(wasm_max_mib), 0, 1, 4096, NULL, "4096",
     "linear memory a circuit's .wasm may grow to, in MiB (4096: all wasm32 can address)"},
};
#define N_OPTS (sizeof opts_ / sizeof opts_[0])

/* ---- value parsers ---- */

static int parse_ll(long long *out, const char *s)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || end == s || *end || (*s != '-' && (*s < '0' || *s > '9')))
        return -1;
    *out = v;
    return 0;
}

int sp_dmn_conf_parse_ms(long *out, const char *s)
{
    if (!strcmp(s, "0")) {
        *out = 0;
        return 0;
    }
    char *end;
    errno = 0;
    if (*s < '0' || *s > '9')
        return -1;
    double v = strtod(s, &end);
    if (errno || end == s)
        return -1;
    double mul = !strcmp(end, "ms") ? 1 : !strcmp(end, "s") ? 1e3 : !strcmp(end, "m") ? 6e4
               : !strcmp(end, "h") ? 3.6e6 : -1;
    if (mul < 0 || v * mul > 1e15)
        return -1;
    *out = (long)(v * mul + 0.5);
    return 0;
}

int sp_dmn_conf_parse_bool(int *out, const char *s)
{
    static const char *yes[] = {"1", "yes", "true", "on"}, *no[] = {"0", "no", "false", "off"};
    for (int i = 0; i < 4; i++) {
        if (!strcasecmp(s, yes[i])) {
            *out = 1;
            return 0;
        }
        if (!strcasecmp(s, no[i])) {
            *out = 0;
            return 0;
        }
    }
    return -1;
}

/* Index of name among the '|'-separated choices, or -1. */
static int choice_index(const char *choices, const char *name)
{
    size_t nl = strlen(name);
    int i = 0;
    for (const char *p = choices; *p; i++) {
        size_t l = strcspn(p, "|");
        if (l == nl && strncasecmp(p, name, l) == 0)
            return i;
        p += l + (p[l] == '|');
    }
    return -1;
}

/* ---- setting one option ---- */

static void *field(sp_dmn_conf *c, const opt *o) { return (char *)c + o->off; }

static int set_int_like(sp_dmn_conf *c, const opt *o, const char *v)
{
    long long x = 0;
    size_t sz = 0;
    long ms = 0;
    int b = 0;
    switch (o->type) {
    case T_INT:
    case T_SIZE:
        if (parse_ll(&x, v))
            return -1;
        break;
    case T_OCTAL: {
        char *end;
        errno = 0;
        x = strtoll(v, &end, 8);
        if (errno || end == v || *end)
            return -1;
        break;
    }
    case T_BYTES: /* util/bytes.h's syntax, or "auto" (0: the option's computed default) */
        if (strcasecmp(v, "auto") && sp_bytes_parse(&sz, v) != SP_OK)
            return -1;
        x = (long long)sz;
        break;
    case T_MS:
        if (sp_dmn_conf_parse_ms(&ms, v))
            return -1;
        x = ms;
        break;
    case T_BOOL:
        if (sp_dmn_conf_parse_bool(&b, v))
            return -1;
        x = b;
        break;
    default:
        return -1;
    }
    if (x < o->min || x > o->max)
        return -1;
    if (o->type == T_SIZE || o->type == T_BYTES)
        *(size_t *)field(c, o) = (size_t)x;
    else if (o->type == T_MS)
        *(long *)field(c, o) = (long)x;
    else
        *(int *)field(c, o) = (int)x;
    return 0;
}

static const char *type_hint(const opt *o)
{
    static const char *h[] = {"an integer", "an integer", "a size (e.g. 512MiB, auto)", "a duration (e.g. 30s, 250ms)",
                              "yes or no", "text", NULL, "an address", "octal permission bits"};
    return o->type == T_ENUM ? o->choices : h[o->type];
}

static sp_status set_opt(sp_dmn_conf *c, const opt *o, const char *v, char err[SP_ERR_LEN])
{
    int bad = 0;
    if (o->type == T_STR) {
        bad = strlen(v) >= o->cap;
        if (!bad)
            memcpy(field(c, o), v, strlen(v) + 1);
    } else if (o->type == T_ENUM) {
        int i = choice_index(o->choices, v);
        bad = i < 0;
        if (!bad)
            *(int *)field(c, o) = i;
    } else if (o->type == T_LIST) {
        char e2[SP_ERR_LEN];
        sp_dmn_addr a;
        if (sp_dmn_addr_parse(&a, v, e2) != SP_OK) {
            snprintf(err, SP_ERR_LEN, "%s: %.200s", o->key, e2);
            return SP_ERR_INVALID_ARG;
        }
        if (c->listen_src < c->setting_src) { /* the first address from a file or flag replaces the defaults */
            c->n_listen = 0;
            c->listen_src = c->setting_src;
        }
        if (c->n_listen >= SP_DMN_CONF_MAX_LISTEN) {
            snprintf(err, SP_ERR_LEN, "%s: at most %d listeners", o->key, SP_DMN_CONF_MAX_LISTEN);
            return SP_ERR_INVALID_ARG;
        }
        snprintf(c->listen[c->n_listen++], SP_DMN_CONF_PATH, "%s", v);
    } else {
        bad = set_int_like(c, o, v);
    }
    if (bad) {
        if (o->type == T_INT || o->type == T_SIZE)
            snprintf(err, SP_ERR_LEN, "%s: '%.100s' is not an integer from %lld to %lld", o->key, v, o->min, o->max);
        else
            snprintf(err, SP_ERR_LEN, "%s: '%.100s' is not %s", o->key, v, type_hint(o));
        return SP_ERR_INVALID_ARG;
    }
    return SP_OK;
}

static const opt *find_opt(const char *section, const char *key)
{
    for (size_t i = 0; i < N_OPTS; i++)
        if (!strcmp(opts_[i].key, key) && (!section || !*section || !strcmp(opts_[i].section, section)))
            return &opts_[i];
    return NULL;
}

sp_status sp_dmn_conf_set(sp_dmn_conf *c, const char *section, const char *key, const char *value, char err[SP_ERR_LEN])
{
    const opt *o = find_opt(section, key);
    if (!o) {
        snprintf(err, SP_ERR_LEN, "unknown option '%s%s%s'", section && *section ? section : "",
                 section && *section ? "." : "", key);
        return SP_ERR_INVALID_ARG;
    }
    return set_opt(c, o, value, err);
}

void sp_dmn_conf_defaults(sp_dmn_conf *c, const sp_dmn_ops *ops)
{
    char err[SP_ERR_LEN];
    memset(c, 0, sizeof *c);
    c->ops = ops;
    c->eng = sp_engine_config_default();
    snprintf(c->backends, sizeof c->backends, "%s", c->eng.backends ? c->eng.backends : "cpu");
    snprintf(c->curve, sizeof c->curve, "%s", sp_curve_name(ops->curve));
    for (size_t i = 0; i < N_OPTS; i++)
        if (opts_[i].def && set_opt(c, &opts_[i], opts_[i].def, err) != SP_OK)
            SP_DMN_LOGE("built-in default: %s", err); /* a bug in the table; the test suite checks */
    sp_dmn_conf_finish(c, err) == SP_OK ? (void)0 : SP_DMN_LOGE("built-in defaults: %s", err);
}

void sp_dmn_conf_free(sp_dmn_conf *c)
{
    free(c->circuits);
    c->circuits = NULL;
    c->n_circuits = 0;
    free(c->clients);
    c->clients = NULL;
    c->n_clients = 0;
}

sp_status sp_dmn_conf_finish(sp_dmn_conf *c, char err[SP_ERR_LEN])
{
    size_t nl = strlen(c->node_id);
    if (strspn(c->node_id, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._:-") != nl) {
        snprintf(err, SP_ERR_LEN, "node_id: use [A-Za-z0-9._:-] only");
        return SP_ERR_INVALID_ARG;
    }
    c->eng.backends = c->backends;
    c->eng.timeline_path = NULL; /* the daemon always reads the timeline itself (server.c) */
    sp_curve_id curve = sp_curve_from_name(c->curve, strlen(c->curve));
    if (curve == SP_CURVE_ID_NONE) {
        snprintf(err, SP_ERR_LEN, "curve: '%.40s' is not bls12-381 or bn254 (bn128)", c->curve);
        return SP_ERR_INVALID_ARG;
    }
    if (curve != c->ops->curve) { /* the dispatcher read --curve over the file's curve */
        snprintf(err, SP_ERR_LEN, "curve = %s, but this is the %s daemon", sp_curve_name(curve),
                 sp_curve_label(c->ops->curve));
        return SP_ERR_INVALID_ARG;
    }
    if (c->n_listen == 0) {
        snprintf(err, SP_ERR_LEN, "no listen address");
        return SP_ERR_INVALID_ARG;
    }
    return SP_OK;
}

void sp_dmn_conf_redact(char *out, size_t out_len, const char *s)
{
    char buf[SP_DMN_CONF_PATH * 2];
    size_t n = 0, len = strlen(s);
    const char *scheme = strstr(s, "://"), *slash = scheme ? strchr(scheme + 3, '/') : NULL;
    const char *at = scheme ? memchr(scheme + 3, '@', (size_t)((slash ? slash : s + len) - (scheme + 3))) : NULL;
    const char *colon = at ? memchr(scheme + 3, ':', (size_t)(at - (scheme + 3))) : NULL;
    for (size_t i = 0; i < len && n + 4 < sizeof buf;) {
        if (colon && s + i == colon + 1) { /* URI: user:PASSWORD@ */
            memcpy(buf + n, "***", 3);
            n += 3;
            i = (size_t)(at - s);
            continue;
        }
        if (!strncmp(s + i, "password", 8) && (i == 0 || strchr(" ?&", s[i - 1]))) {
            size_t k = i + 8;
            while (s[k] == ' ')
                k++;
            if (s[k] == '=') { /* key=value pairs, or a URI's ?password= */
                k++;
                while (s[k] == ' ')
                    k++;
                size_t v = k;
                if (s[v] == '\'') {
                    for (v++; s[v] && s[v] != '\''; v++)
                        v += s[v] == '\\' && s[v + 1];
                    v += s[v] == '\'';
                } else {
                    while (s[v] && s[v] != ' ' && s[v] != '&')
                        v++;
                }
                size_t head = k - i < sizeof buf - n - 4 ? k - i : 0;
                memcpy(buf + n, s + i, head);
                n += head;
                memcpy(buf + n, "***", 3);
                n += 3;
                i = v;
                continue;
            }
        }
        buf[n++] = s[i++];
    }
    buf[n] = 0;
    snprintf(out, out_len, "%s", buf);
}

/* ---- the file ---- */

typedef struct {
    sp_dmn_conf *c;
    unsigned char seen[N_OPTS];
    char err[SP_ERR_LEN];
    int failed;
} ini_ctx;

static int valid_circuit_id(const char *id)
{
    size_t n = strlen(id);
    return n > 0 && n <= 63 && strspn(id, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._:-") == n;
}

static sp_dmn_conf_circuit *circuit_entry(sp_dmn_conf *c, const char *id)
{
    for (size_t i = 0; i < c->n_circuits; i++)
        if (!strcmp(c->circuits[i].id, id))
            return &c->circuits[i];
    sp_dmn_conf_circuit *nc = realloc(c->circuits, (c->n_circuits + 1) * sizeof *nc);
    if (!nc)
        return NULL;
    c->circuits = nc;
    sp_dmn_conf_circuit *e = &nc[c->n_circuits++];
    memset(e, 0, sizeof *e);
    snprintf(e->id, sizeof e->id, "%s", id);
    e->preload = 1;
    sp_dmn_native_init(&e->native);
    return e;
}

static int circuit_key(ini_ctx *x, const char *id, const char *key, const char *v, char err[SP_ERR_LEN])
{
    if (!valid_circuit_id(id)) {
        snprintf(err, SP_ERR_LEN, "[circuit.%.80s]: an id is 1 to 63 characters of [A-Za-z0-9._:-]", id);
        return 0;
    }
    sp_dmn_conf_circuit *e = circuit_entry(x->c, id);
    char *dst = NULL;
    if (!e) {
        snprintf(err, SP_ERR_LEN, "out of memory");
        return 0;
    }
    char nerr[SP_ERR_LEN];
    int nat = sp_dmn_native_set(&e->native, key, v, nerr);
    if (nat) {
        if (nat < 0)
            snprintf(err, SP_ERR_LEN, "[circuit.%s] %.180s", id, nerr);
        return nat > 0;
    }
    if (!strcmp(key, "zkey"))
        dst = e->zkey;
    else if (!strcmp(key, "params"))
        dst = e->params;
    else if (!strcmp(key, "r1cs"))
        dst = e->r1cs;
    else if (!strcmp(key, "wasm"))
        dst = e->wasm;
    else if (!strcmp(key, "preload")) {
        if (sp_dmn_conf_parse_bool(&e->preload, v) == 0)
            return 1;
        snprintf(err, SP_ERR_LEN, "[circuit.%s] preload: '%.80s' is not yes or no", id, v);
        return 0;
    }
    if (!dst || strlen(v) >= SP_DMN_CONF_PATH) {
        snprintf(err, SP_ERR_LEN, dst ? "[circuit.%s] %s: path too long" : "[circuit.%s]: unknown key '%s' "
                 "(zkey, params, r1cs, wasm, preload, native, " SP_DMN_NATIVE_KEYS ")", id, key);
        return 0;
    }
    memcpy(dst, v, strlen(v) + 1);
    return 1;
}

/* One line of a [client.NAME] section. */
static int client_key(sp_dmn_conf *c, const char *name, const char *key, const char *v, char err[SP_ERR_LEN])
{
    if (!valid_circuit_id(name)) {
        snprintf(err, SP_ERR_LEN, "[client.%.80s]: a name is 1 to 63 characters of [A-Za-z0-9._:-]", name);
        return 0;
    }
    size_t i = 0;
    while (i < c->n_clients && strcmp(c->clients[i].name, name))
        i++;
    if (i == c->n_clients) {
        sp_dmn_conf_client *nc = realloc(c->clients, (c->n_clients + 1) * sizeof *nc);
        if (!nc) {
            snprintf(err, SP_ERR_LEN, "out of memory");
            return 0;
        }
        c->clients = nc;
        memset(&nc[i], 0, sizeof nc[i]);
        snprintf(nc[i].name, sizeof nc[i].name, "%s", name);
        c->n_clients++;
    }
    sp_dmn_conf_client *e = &c->clients[i];
    long long n = 0;
    char *end = NULL;
    if (!strcmp(key, "token_file") && strlen(v) < sizeof e->token_file) {
        snprintf(e->token_file, sizeof e->token_file, "%s", v);
        return 1;
    }
    if (!strcmp(key, "max_queued")) {
        errno = 0;
        n = strtoll(v, &end, 10);
        if (!errno && end != v && !*end && n >= 0 && n <= 1 << 30) {
            e->max_queued = (int)n;
            return 1;
        }
        snprintf(err, SP_ERR_LEN, "[client.%s] max_queued: '%.80s' is not an integer from 0 to 2^30", name, v);
        return 0;
    }
    snprintf(err, SP_ERR_LEN, strcmp(key, "token_file") ? "[client.%s]: unknown key '%s' (token_file, max_queued)"
             : "[client.%s] %s: path too long", name, key);
    return 0;
}

static int on_ini_line(void *user, const char *section, const char *name, const char *value)
{
    ini_ctx *x = user;
    char err[SP_ERR_LEN] = "";
    int ok = 0;
    if (!strncmp(section, "circuit.", 8)) {
        ok = circuit_key(x, section + 8, name, value, err);
    } else if (!strncmp(section, "client.", 7)) {
        ok = client_key(x->c, section + 7, name, value, err);
    } else {
        const opt *o = find_opt(section, name);
        if (!o) {
            const opt *any = find_opt(NULL, name);
            if (any)
                snprintf(err, SP_ERR_LEN, "'%s' belongs in section [%s]", name, any->section);
            else
                snprintf(err, SP_ERR_LEN, "[%s]: unknown option '%s'", section, name);
        } else if (o->type != T_LIST && x->seen[o - opts_]) {
            snprintf(err, SP_ERR_LEN, "'%s' is given twice", name);
        } else {
            x->seen[o - opts_] = 1;
            ok = set_opt(x->c, o, value, err) == SP_OK;
        }
    }
    if (!ok && !x->failed) { /* inih reports the first failing line: keep its message */
        x->failed = 1;
        memcpy(x->err, err, sizeof err);
    }
    return ok;
}

static int check_circuits(const sp_dmn_conf *c, char err[SP_ERR_LEN])
{
    for (size_t i = 0; i < c->n_circuits; i++) {
        const sp_dmn_conf_circuit *e = &c->circuits[i];
        if (!*e->zkey == !*e->params || (*e->params && !*e->r1cs)) {
            snprintf(err, SP_ERR_LEN, "[circuit.%s]: give zkey, or params with r1cs", e->id);
            return -1;
        }
        char nerr[SP_ERR_LEN];
        if (sp_dmn_native_on(&e->native) && (*e->params || *e->r1cs || *e->wasm)) {
            snprintf(err, SP_ERR_LEN, "[circuit.%s]: a native circuit takes a zkey only (no params, r1cs or wasm)",
                     e->id);
            return -1;
        }
        if (*e->wasm && !*e->zkey) {
            snprintf(err, SP_ERR_LEN, "[circuit.%s]: a wasm comes with its circuit's zkey", e->id);
            return -1;
        }
        if (sp_dmn_native_given(&e->native) && sp_dmn_native_check(&e->native, c->ops->native, nerr) != SP_OK) {
            snprintf(err, SP_ERR_LEN, "[circuit.%s]: %.180s", e->id, nerr); /* so that --check-config tells */
            return -1;
        }
    }
    return 0;
}

sp_status sp_dmn_conf_load_file(sp_dmn_conf *c, const char *path, char err[SP_ERR_LEN])
{
    ini_ctx x = {.c = c};
    c->setting_src = 1;
    int line = ini_parse(path, on_ini_line, &x);
    c->setting_src = 0;
    if (line == -1) {
        snprintf(err, SP_ERR_LEN, "%s: %s", path, strerror(errno ? errno : ENOENT));
        return SP_ERR_IO;
    }
    if (line != 0) {
        snprintf(err, SP_ERR_LEN, "%.60s:%d: %.180s", path, line, x.failed ? x.err : "syntax error (or line over 200 bytes)");
        return SP_ERR_INVALID_ARG;
    }
    for (size_t i = 0; i < c->n_clients; i++)
        if (!*c->clients[i].token_file) {
            snprintf(err, SP_ERR_LEN, "%.60s: [client.%s]: give its token_file", path, c->clients[i].name);
            return SP_ERR_INVALID_ARG;
        }
    if (check_circuits(c, x.err)) {
        snprintf(err, SP_ERR_LEN, "%.60s: %.190s", path, x.err);
        return SP_ERR_INVALID_ARG;
    }
    snprintf(c->config_path, sizeof c->config_path, "%s", path);
    return SP_OK;
}

/* ---- flags ---- */

/* Matches argv[*i] against o: 1 applied, 0 not this option, -1 error. */
static int apply_flag(sp_dmn_conf *c, const opt *o, int argc, char **argv, int *i, char err[SP_ERR_LEN])
{
    const char *a = argv[*i] + 2;
    char name[64];
    snprintf(name, sizeof name, "%s", o->key);
    for (char *p = name; *p; p++)
        *p = *p == '_' ? '-' : *p;
    size_t nl = strlen(name);
    const char *v = NULL;
    if (o->type == T_BOOL && !strncmp(a, "no-", 3) && !strcmp(a + 3, name))
        v = "0";
    else if (strncmp(a, name, nl) != 0 || (a[nl] != 0 && a[nl] != '='))
        return 0;
    else if (a[nl] == '=')
        v = a + nl + 1;
    else if (o->type == T_BOOL)
        v = "1";
    else if (*i + 1 < argc)
        v = argv[++*i];
    else {
        snprintf(err, SP_ERR_LEN, "--%s needs a value (%s)", name, type_hint(o));
        return -1;
    }
    return set_opt(c, o, v, err) == SP_OK ? 1 : -1;
}

static sp_status apply_flags(sp_dmn_conf *c, int argc, char **argv, char err[SP_ERR_LEN])
{
    c->setting_src = 2;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h") || !strcmp(a, "--print-config") || !strcmp(a, "--check-config"))
            continue;
        if (!strncmp(a, "--config", 8) && (a[8] == 0 || a[8] == '=')) {
            i += a[8] == 0;
            continue;
        }
        int r = 0;
        for (size_t k = 0; k < N_OPTS && r == 0 && !strncmp(a, "--", 2); k++)
            r = apply_flag(c, &opts_[k], argc, argv, &i, err);
        if (r == 0)
            snprintf(err, SP_ERR_LEN, "unknown option '%.100s' (snarkpipe daemon --help lists them)", a);
        if (r != 1) {
            c->setting_src = 0;
            return SP_ERR_INVALID_ARG;
        }
    }
    c->setting_src = 0;
    return SP_OK;
}

sp_status sp_dmn_conf_from_args(sp_dmn_conf *c, const sp_dmn_ops *ops, int *action, int argc, char **argv,
                                char err[SP_ERR_LEN])
{
    const char *path = NULL;
    *action = 0;
    sp_dmn_conf_defaults(c, ops);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h"))
            *action = 1;
        else if (!strcmp(a, "--print-config") && *action != 1)
            *action = 2;
        else if (!strcmp(a, "--check-config") && !*action)
            *action = 3;
        else if (!strcmp(a, "--config") && i + 1 < argc)
            path = argv[++i];
        else if (!strncmp(a, "--config=", 9))
            path = a + 9;
        else if (!strcmp(a, "--config")) {
            snprintf(err, SP_ERR_LEN, "--config needs a file");
            return SP_ERR_INVALID_ARG;
        }
    }
    if (*action == 1)
        return SP_OK;
    sp_status st = path ? sp_dmn_conf_load_file(c, path, err) : SP_OK;
    if (st == SP_OK)
        st = apply_flags(c, argc, argv, err);
    if (st == SP_OK)
        st = sp_dmn_conf_finish(c, err);
    return st;
}

/* ---- printing ---- */

static void format_value(char *out, size_t n, const sp_dmn_conf *c, const opt *o, int k)
{
    const void *f = (const char *)c + o->off;
    switch (o->type) {
    case T_INT: snprintf(out, n, "%d", *(const int *)f); break;
    case T_SIZE: snprintf(out, n, "%zu", *(const size_t *)f); break;
    case T_OCTAL: snprintf(out, n, "0%o", (unsigned)*(const int *)f); break;
    case T_BOOL: snprintf(out, n, "%s", *(const int *)f ? "yes" : "no"); break;
    case T_STR:
        if (o->flags & F_SECRET)
            sp_dmn_conf_redact(out, n, (const char *)f);
        else
            snprintf(out, n, "%s", (const char *)f);
        break;
    case T_LIST: snprintf(out, n, "%s", k < c->n_listen ? c->listen[k] : ""); break;
    case T_ENUM: {
        int idx = *(const int *)f;
        const char *p = o->choices;
        for (int j = 0; j < idx && strchr(p, '|'); j++)
            p = strchr(p, '|') + 1;
        snprintf(out, n, "%.*s", (int)strcspn(p, "|"), p);
        break;
    }
    case T_BYTES: {
        size_t v = *(const size_t *)f;
        static const char *suf[] = {"", "KiB", "MiB", "GiB", "TiB"};
        int s = 0;
        while (v && s < 4 && v % 1024 == 0) {
            v /= 1024;
            s++;
        }
        if (v == 0)
            snprintf(out, n, "%s", o->def && !strcmp(o->def, "auto") ? "auto" : "0");
        else
            snprintf(out, n, "%zu%s", v, suf[s]);
        break;
    }
    case T_MS: {
        long v = *(const long *)f;
        if (v == 0)
            snprintf(out, n, "0");
        else if (v % 3600000 == 0)
            snprintf(out, n, "%ldh", v / 3600000);
        else if (v % 60000 == 0)
            snprintf(out, n, "%ldm", v / 60000);
        else if (v % 1000 == 0)
            snprintf(out, n, "%lds", v / 1000);
        else
            snprintf(out, n, "%ldms", v);
        break;
    }
    }
}

static const char *metavar(const opt *o)
{
    static const char *m[] = {"N", "N", "SIZE", "DURATION", "", "TEXT", "NAME", "ADDR", "MODE"};
    if (o->type == T_STR && (strstr(o->key, "file") || strstr(o->key, "dir") || !strcmp(o->key, "timeline")))
        return "PATH";
    return m[o->type];
}

void sp_dmn_conf_help(FILE *f, const sp_dmn_ops *ops)
{
    sp_dmn_conf d;
    sp_dmn_conf_defaults(&d, ops);
    fprintf(f, "usage: snarkpipe daemon [--config FILE] [--listen ADDR]... [OPTIONS]\n\n"
               "  --config FILE      INI file (snarkpipe.conf.example describes it); flags override it\n"
               "  --print-config     print the effective configuration as an annotated INI file and exit\n"
               "  --check-config     check the file and flags, then exit (0 when valid)\n"
               "  --help             this text\n");
    const char *sec = "";
    for (size_t i = 0; i < N_OPTS; i++) {
        const opt *o = &opts_[i];
        if (o->flags & F_ALIAS)
            continue;
        if (strcmp(sec, o->section))
            fprintf(f, "\n[%s]\n", sec = o->section);
        char flag[96], def[SP_DMN_CONF_PATH];
        snprintf(flag, sizeof flag, "--%s%s%s", o->key, *metavar(o) ? " " : "", metavar(o));
        for (char *p = flag + 2; *p && *p != ' '; p++)
            *p = *p == '_' ? '-' : *p;
        format_value(def, sizeof def, &d, o, 0);
        fprintf(f, "  %-34s %s", flag, o->help);
        if (o->type == T_ENUM)
            fprintf(f, " (%s)", o->choices);
        fprintf(f, " [%s%s]%s\n", *def ? def : "\"\"", o->type == T_BOOL ? "; --no-... turns it off" : "",
                o->flags & F_RELOAD ? " (SIGHUP)" : "");
    }
    fprintf(f, "\nADDR: host:port, [v6addr]:port or unix:/path. SIZE: 512MiB, 2G, 1000000, auto.\n"
               "DURATION: 250ms, 30s, 5m, 1h. (SIGHUP): changed by `kill -HUP`; the rest need a restart.\n");
    fprintf(f, "The farm (farm.queue, --queue): %s\n", sp_dmn_q_available() ? "built in (libpq)"
               : "not built: libpq (Debian: libpq-dev) was missing at build time; one host only");
    sp_dmn_conf_free(&d);
}

void sp_dmn_conf_print(FILE *f, const sp_dmn_conf *c)
{
    const char *sec = "";
    fprintf(f, "; snarkpipe daemon configuration (snarkpipe daemon --print-config).\n"
               "; Every option is also a flag: --<key> with '_' written '-'; flags override this file.\n"
               "; Options marked (SIGHUP) change on `kill -HUP <pid>`; the others need a restart.\n");
    for (size_t i = 0; i < N_OPTS; i++) {
        const opt *o = &opts_[i];
        if (o->flags & F_ALIAS)
            continue;
        if (strcmp(sec, o->section))
            fprintf(f, "\n[%s]\n", sec = o->section);
        char v[SP_DMN_CONF_PATH];
        fprintf(f, "\n; %s%s", o->help, o->flags & F_RELOAD ? " (SIGHUP)" : "");
        if (o->type == T_ENUM)
            fprintf(f, "\n; one of: %s", o->choices);
        fprintf(f, "\n");
        for (int k = 0; k < (o->type == T_LIST ? c->n_listen : 1); k++) {
            format_value(v, sizeof v, c, o, k);
            fprintf(f, "%s = %s\n", o->key, v);
        }
    }
    for (size_t i = 0; i < c->n_circuits; i++) {
        const sp_dmn_conf_circuit *e = &c->circuits[i];
        fprintf(f, "\n[circuit.%s]\n", e->id);
        if (*e->zkey)
            fprintf(f, "zkey = %s\n", e->zkey);
        if (*e->params)
            fprintf(f, "params = %s\n", e->params);
        if (*e->r1cs)
            fprintf(f, "r1cs = %s\n", e->r1cs);
        if (*e->wasm)
            fprintf(f, "wasm = %s\n", e->wasm);
        fprintf(f, "preload = %s\n", e->preload ? "yes" : "no");
        sp_dmn_native_print(f, &e->native);
    }
    for (size_t i = 0; i < c->n_clients; i++)
        fprintf(f, "\n[client.%s]\ntoken_file = %s\nmax_queued = %d\n", c->clients[i].name, c->clients[i].token_file,
                c->clients[i].max_queued);
}

/* ---- SIGHUP ---- */

static size_t value_size(const opt *o)
{
    switch (o->type) {
    case T_SIZE:
    case T_BYTES: return sizeof(size_t);
    case T_MS: return sizeof(long);
    case T_STR: return o->cap;
    default: return sizeof(int);
    }
}

int sp_dmn_conf_reload(sp_dmn_conf *live, const sp_dmn_conf *fresh, size_t *first_new_circuit)
{
    int changed = 0;
    for (size_t i = 0; i < N_OPTS; i++) {
        const opt *o = &opts_[i];
        if (o->flags & F_ALIAS)
            continue; /* its option's own row compares the value */
        char a[SP_DMN_CONF_PATH * 2], b[SP_DMN_CONF_PATH * 2];
        a[0] = b[0] = 0;
        for (int k = 0; k < (o->type == T_LIST ? SP_DMN_CONF_MAX_LISTEN : 1); k++) {
            size_t la = strlen(a), lb = strlen(b);
            format_value(a + la, sizeof a - la, live, o, k);
            format_value(b + lb, sizeof b - lb, fresh, o, k);
        }
        if (!strcmp(a, b))
            continue;
        if (!(o->flags & F_RELOAD)) {
            SP_DMN_LOGW("config: %s changed (%s -> %s) but needs a restart; keeping %s", o->key, a, b, a);
            continue;
        }
        memcpy((char *)live + o->off, (const char *)fresh + o->off, value_size(o));
        SP_DMN_LOGI("config: %s = %s (was %s)", o->key, b, a);
        changed++;
    }
    /* The sections as the file has them now: the daemon registers those it
     * lacks (new, or failed before) and replaces the changed ones. */
    *first_new_circuit = 0;
    sp_dmn_conf_circuit *nc = fresh->n_circuits ? malloc(fresh->n_circuits * sizeof *nc) : NULL;
    if (fresh->n_circuits && !nc)
        return -1;
    if (nc)
        memcpy(nc, fresh->circuits, fresh->n_circuits * sizeof *nc);
    for (size_t i = 0; i < live->n_circuits; i++) {
        size_t k = 0;
        while (k < fresh->n_circuits && strcmp(live->circuits[i].id, fresh->circuits[k].id))
            k++;
        if (k == fresh->n_circuits)
            SP_DMN_LOGW("config: [circuit.%s] is gone; the circuit stays registered until evicted", live->circuits[i].id);
    }
    free(live->circuits);
    live->circuits = nc;
    live->n_circuits = fresh->n_circuits;
    /* the clients as the file has them now (their tokens are read again) */
    sp_dmn_conf_client *ncl = fresh->n_clients ? malloc(fresh->n_clients * sizeof *ncl) : NULL;
    if (fresh->n_clients && !ncl)
        return -1;
    if (ncl)
        memcpy(ncl, fresh->clients, fresh->n_clients * sizeof *ncl);
    free(live->clients);
    live->clients = ncl;
    live->n_clients = fresh->n_clients;
    return changed;
}
