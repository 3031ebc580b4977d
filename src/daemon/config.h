/*
 * The daemon's configuration: one table of options (config.c) drives the
 * INI file reader (libinih), the command-line flags, `--help`,
 * `--print-config` and what SIGHUP may change. Each row names its INI
 * section and key; its flag is --<key> with '_' written '-'.
 *
 * Precedence: built-in defaults (the engine's own for engine knobs), then
 * the file, then the flags. SIGHUP builds a fresh configuration the same
 * way (same file path, same flags) and applies only the options marked
 * reloadable; a changed option that is not is logged as needing a restart.
 *
 * Value syntax: integers in decimal; sizes in the byte syntax of
 * util/bytes.h (123, 64K, 512MiB, 2^30: powers of 1024; KB, MB, GB are
 * refused), or "auto" = 0 where 0 means automatic; durations with
 * a unit (250ms, 30s, 5m, 1h; "0" alone is zero); booleans as
 * 1/0/yes/no/true/false/on/off; choices by name.
 *
 * Circuits can be declared in the file, one section each:
 *   [circuit.ID]   zkey = PATH | params = PATH, r1cs = PATH, preload = yes|no
 *   [circuit.ID]   zkey = PATH, native = porep-like, preset = NAME,
 *                  challenges = N, layers = N, ... (daemon/native.h)
 * and are registered at start (and, for new sections, at SIGHUP).
 * Clients, each with its own bearer token (taken besides server.token_file;
 * read again at SIGHUP) and limit on unfinished jobs:
 *   [client.NAME]  token_file = PATH, max_queued = N (0 = no limit)
 */
#ifndef SP_DAEMON_CONFIG_H
#define SP_DAEMON_CONFIG_H

#include <stddef.h>
#include <stdio.h>
#include "snarkpipe.h"
#include "daemon/native.h"
#include "daemon/ops.h"
#include "engine/engine.h"

#define SP_DMN_CONF_MAX_LISTEN 8
#define SP_DMN_CONF_PATH 512

typedef enum { SP_DMN_SHUTDOWN_DRAIN = 0, SP_DMN_SHUTDOWN_CANCEL = 1 } sp_dmn_shutdown_mode;

typedef struct {
    char id[64];
    char zkey[SP_DMN_CONF_PATH];
    char params[SP_DMN_CONF_PATH];
    char r1cs[SP_DMN_CONF_PATH];
    char wasm[SP_DMN_CONF_PATH]; /* a circom circuit's witness generator: its jobs carry input.json */
    int preload; /* default 1 */
    sp_dmn_native native; /* a native circuit: its jobs carry inputs, not witnesses */
} sp_dmn_conf_circuit;

/* A [client.NAME] section: a bearer token the daemon takes besides
 * server.token_file, with its own limit on queued jobs. */
typedef struct {
    char name[64];
    char token_file[SP_DMN_CONF_PATH];
    int max_queued; /* jobs queued at once (farm mode: in the whole farm); 0 = no limit */
} sp_dmn_conf_client;

typedef struct {
    /* engine knobs; the strings live in the arrays below (eng.backends
     * and eng.timeline_path point to them after sp_dmn_conf_finish) */
    sp_engine_config eng;
    char backends[256];
    char timeline[SP_DMN_CONF_PATH];
    char curve[32]; /* as written; sp_dmn_conf_finish checks it is ops's curve */
    const sp_dmn_ops *ops; /* the curve of the daemon reading it (sp_dmn_conf_defaults) */

    /* server */
    char listen[SP_DMN_CONF_MAX_LISTEN][SP_DMN_CONF_PATH];
    int n_listen;
    int listen_src, setting_src; /* 0 defaults, 1 file, 2 flags: the first of a later source replaces */
    char token_file[SP_DMN_CONF_PATH];
    int insecure;            /* allow a non-loopback TCP listener without a token */
    int unix_mode;           /* permission bits of unix sockets */
    size_t max_body;         /* request bodies above this get 413 */
    size_t body_memory;      /* bytes of bodies held at once, all connections (0 = an eighth of the budget) */
    int max_connections;
    int max_connections_per_address; /* TCP connections from one client address (0 = no limit) */
    long connection_timeout_ms; /* idle connections are closed after this */
    long header_timeout_ms;  /* a request's headers must have arrived this long after it began */
    long body_timeout_ms;    /* and its body this long after its headers */
    long max_wait_ms;        /* cap on wait_ms and on /v1/prove waits */
    long result_ttl_ms;      /* finished jobs are kept this long for await */
    int shutdown;            /* sp_dmn_shutdown_mode on SIGTERM / SIGINT */
    long drain_timeout_ms;   /* drain: cancel what is left after this (0 = wait for ever) */
    int log_level;           /* sp_dmn_log_level */
    char state_dir[SP_DMN_CONF_PATH]; /* registered circuits and uploads survive restarts here */
    char ready_file[SP_DMN_CONF_PATH]; /* written with the bound addresses once serving */

    /* keys */
    size_t hot_budget;       /* bytes of parsed (hot) keys; 0 = a quarter of the engine budget */
    size_t warm_budget;      /* bytes of mapped (warm) key files; 0 = no limit */
    long key_min_idle_ms;    /* LRU demotion only of keys idle at least this long */
    long key_idle_demote_ms; /* hot keys idle this long go warm even under budget (0 = never) */
    int skip_subgroup_check; /* keys from a trusted source only */
    int load_threads;        /* threads to decode a key (0 = all cores) */
    char key_cache_dir[SP_DMN_CONF_PATH]; /* the key cache (groth16/keycache.h); empty = none */
    size_t key_cache_max;    /* its cap on the entries' bytes */
    char key_dirs[SP_DMN_CONF_PATH];     /* ':'-separated directories registration by path may read */
    int any_key_path;        /* registration by path may name any file the daemon can read */
    size_t max_circuits;     /* circuits registered at once */
    long wasm_max_ms;        /* a circuit's .wasm: one witness's time (0 = no limit) */
    int wasm_max_mib;        /* and its linear memory */

    /* farm (daemon/farm/queue.h): an empty queue = this host alone */
    char queue[SP_DMN_CONF_PATH]; /* PostgreSQL connection string (never logged with its password) */
    char node_id[64];        /* this node's id in the farm ("" = the host name) */
    long lease_ms;           /* a claim not renewed this long is taken over */
    long poll_ms;            /* look at the queue at least this often */
    int max_claims;          /* partitions held at once (0 = the engine's workers) */
    int max_attempts;        /* claims of one partition before its job fails */
    int db_connections;      /* connections of the HTTP side */
    long progress_timeout_ms; /* a claim without a stage event this long is given up */
    long max_run_ms;         /* a partition running longer is cancelled and given up (0 = no limit) */
    long job_deadline_ms;    /* jobs submitted here fail when still queued this long after (0 = never) */
    int max_queued_per_client; /* queued jobs per client (bearer token) through this node (0 = no limit) */
    size_t farm_memory;      /* bytes of partitions claimed at once (0 = the engine budget) */

    /* [circuit.ID] sections, in file order */
    sp_dmn_conf_circuit *circuits;
    size_t n_circuits;

    /* [client.NAME] sections, in file order */
    sp_dmn_conf_client *clients;
    size_t n_clients;

    /* where the file came from, and the flags, for SIGHUP */
    char config_path[SP_DMN_CONF_PATH];
} sp_dmn_conf;

/* On output: *c holds the defaults (no file, no flags) of a daemon
 * proving ops's curve. */
void sp_dmn_conf_defaults(sp_dmn_conf *c, const sp_dmn_ops *ops);

/* Frees c->circuits and c->clients. */
void sp_dmn_conf_free(sp_dmn_conf *c);

/*
 * Builds a configuration from the command line of `snarkpipe daemon`
 * (argv[0] is "daemon"): defaults (sp_dmn_conf_defaults with ops), then
 * --config FILE, then the flags.
 * On output: *c filled (free with sp_dmn_conf_free); *action 0 = run,
 *   1 = --help printed, 2 = --print-config printed, 3 = --check-config
 *   passed.
 * Returns SP_OK or SP_ERR_INVALID_ARG (bad flag, value or file line: err
 *   says which), SP_ERR_IO (the file cannot be read).
 */
sp_status sp_dmn_conf_from_args(sp_dmn_conf *c, const sp_dmn_ops *ops, int *action, int argc, char **argv,
                                char err[SP_ERR_LEN]) SP_WARN_UNUSED;

/* Reads only the file (no flags) on top of what *c holds. */
sp_status sp_dmn_conf_load_file(sp_dmn_conf *c, const char *path, char err[SP_ERR_LEN]) SP_WARN_UNUSED;

/* Applies one option by its INI key (section "" = search every section),
 * as the file reader does. */
sp_status sp_dmn_conf_set(sp_dmn_conf *c, const char *section, const char *key, const char *value,
                          char err[SP_ERR_LEN]) SP_WARN_UNUSED;

/* Points eng's strings at the arrays and checks what depends on several
 * options. Returns SP_OK or SP_ERR_INVALID_ARG. */
sp_status sp_dmn_conf_finish(sp_dmn_conf *c, char err[SP_ERR_LEN]) SP_WARN_UNUSED;

/*
 * SIGHUP: copies the reloadable options of fresh into live and replaces
 * live's circuit sections with fresh's (the daemon then registers the
 * missing and changed ones; *first_new_circuit is 0). Logs each change,
 * each changed option that needs a restart and each section removed.
 * Returns the number of options changed, -1 when out of memory.
 */
int sp_dmn_conf_reload(sp_dmn_conf *live, const sp_dmn_conf *fresh, size_t *first_new_circuit);

/* Writes c as an annotated INI file (every option with its help). */
void sp_dmn_conf_print(FILE *f, const sp_dmn_conf *c);

/* Writes the flag list (for --help). */
void sp_dmn_conf_help(FILE *f, const sp_dmn_ops *ops);

/* A connection string with its password (URI user:password@, or a
 * password=... pair) replaced by "***": what --print-config, --help and
 * SIGHUP's log show of farm.queue. */
void sp_dmn_conf_redact(char *out, size_t out_len, const char *conninfo);

/* Parsers of the value syntax above, exposed for the tests. */
int sp_dmn_conf_parse_ms(long *out, const char *s);
int sp_dmn_conf_parse_bool(int *out, const char *s);

#endif
