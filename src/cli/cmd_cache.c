/* The key cache in the CLI: its directory, loads through it, `snarkpipe cache` (cmd_cache.h). */
#include "cli/cmd_cache.h"

#include <inttypes.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "cli/cli.h"
#include "cli/cmds.h"
#include "groth16/params.h"
#include "groth16/zkey.h"
#include "util/bytes.h"

#if !SP_CURVE_BN254
/* The BN254 instance's sp_kc_fingerprint in the two-curve binary, renamed
 * (ARCHITECTURE.md, "Curves"); NULL in a one-curve build. */
extern void sp_bn254_kc_fingerprint(uint8_t out[32]) __attribute__((weak));
#endif

int sp_cli_kc_opt(sp_cli_kc_opts *o, const char *cmd, int argc, char **argv, int *i)
{
    int missing = 0;
    const char *v;
    size_t b;
    if (!strcmp(argv[*i], "--no-key-cache")) {
        o->off = 1;
        return 1;
    }
    if ((v = sp_cli_opt(argc, argv, i, "--key-cache-max", &missing)) || missing) {
        if (!v || sp_bytes_parse(&b, v) != SP_OK) {
            fprintf(stderr, "snarkpipe %s: --key-cache-max needs a size (4G, 512M; 0: the cache off)\n", cmd);
            return -1;
        }
        o->max = v;
        return 1;
    }
    if ((v = sp_cli_opt(argc, argv, i, "--key-cache-dir", &missing)) && *v) {
        o->dir = v;
        return 1;
    }
    if (missing || v) {
        fprintf(stderr, "snarkpipe %s: --key-cache-dir needs a directory\n", cmd);
        return -1;
    }
    return 0;
}

int sp_cli_kc_max(uint64_t *out, const char *cmd, const sp_cli_kc_opts *o)
{
    const char *v = o->max ? o->max : getenv("SNARKPIPE_CACHE_MAX");
    size_t b;
    *out = SP_KC_DEFAULT_MAX;
    if (!v || !*v)
        return 0;
    if (sp_bytes_parse(&b, v) != SP_OK) {
        fprintf(stderr, "snarkpipe %s: key cache: SNARKPIPE_CACHE_MAX=%s is not a size (4G, 512M; 0: the cache off)\n",
                cmd, v);
        return -1;
    }
    *out = b;
    return 0;
}

/* "812.0 KiB", "1.2 MiB", "3.50 GiB". */
static const char *human(char out[32], uint64_t n)
{
    if (n < ((uint64_t)1 << 20))
        snprintf(out, 32, "%.1f KiB", (double)n / 1024);
    else if (n < ((uint64_t)1 << 30))
        snprintf(out, 32, "%.1f MiB", (double)n / (1 << 20));
    else
        snprintf(out, 32, "%.2f GiB", (double)n / (1 << 30));
    return out;
}

/* The line that says an entry was written: how big, where, how to turn it off. */
static void stored_notice(const char *cmd, const char *dir, const sp_kc_report *rep)
{
    char e[32], c[32], m[32], ev[80] = "";
    if (rep->evicted)
        snprintf(ev, sizeof ev, " (%zu least recently used entr%s removed to make room)", rep->evicted,
                 rep->evicted == 1 ? "y" : "ies");
    fprintf(stderr,
            "snarkpipe %s: key cache: kept the checked key (%s) in %s for fast loads; the cache holds %s of its "
            "%s cap%s; --no-key-cache or SNARKPIPE_CACHE_MAX=0 turn it off\n",
            cmd, human(e, rep->entry_bytes), dir, human(c, rep->cache_bytes), human(m, rep->max_bytes), ev);
}

int sp_cli_kc_dir(char *out, size_t n, const char *opt_dir)
{
    const char *env = getenv("SNARKPIPE_CACHE_DIR"), *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    int w;
    if (opt_dir)
        w = snprintf(out, n, "%s", opt_dir);
    else if (env && *env)
        w = snprintf(out, n, "%s", env);
    else if (xdg && xdg[0] == '/')
        w = snprintf(out, n, "%s/snarkpipe", xdg);
    else {
        if (!home || !*home) {
            struct passwd *pw = getpwuid(geteuid());
            home = pw && pw->pw_dir && *pw->pw_dir ? pw->pw_dir : NULL;
        }
        if (!home)
            return -1;
        w = snprintf(out, n, "%s/.cache/snarkpipe", home);
    }
    return w > 0 && (size_t)w < n ? 0 : -1;
}

sp_status sp_cli_kc_read(sp_g16_pk *pk, sp_kc_report *rep, const sp_cli_kc_opts *o, const char *cmd,
                         sp_kc_kind kind, const char *path, const sp_g16_density *density, unsigned flags,
                         int threads, char err[SP_ERR_LEN])
{
    char dir[SP_KC_PATH];
    uint64_t max = SP_KC_DEFAULT_MAX;
    memset(rep, 0, sizeof *rep);
    int on = !o->off && (sp_cli_kc_max(&max, cmd, o) != 0 || max > 0);
    if (on && sp_cli_kc_dir(dir, sizeof dir, o->dir) != 0) {
        fprintf(stderr, "snarkpipe %s: key cache: no directory for it (HOME is not set); use --key-cache-dir\n",
                cmd);
    } else if (on) {
        sp_kc_request rq = {.kind = kind, .path = path, .density = density, .flags = flags, .threads = threads,
                            .store = 1, .max_bytes = max};
        sp_status st = sp_kc_load(pk, rep, dir, &rq, err);
        if (*rep->warning)
            fprintf(stderr, "snarkpipe %s: %s\n", cmd, rep->warning);
        if (st == SP_OK && rep->stored && !sp_cli_g.quiet)
            stored_notice(cmd, dir, rep);
        return st;
    }
    if (kind == SP_KC_PARAMS)
        return sp_bp_params_read(pk, path, density, flags, threads, err);
    return sp_zkey_read(pk, NULL, path, flags, threads, err);
}

/* ---- snarkpipe cache ---- */

static const char USAGE[] =
    "usage: snarkpipe cache list|clear|dir [--key-cache-dir DIR] [--key-cache-max SIZE] [--json]\n"
    "  list   the entries, most recently used first: the key files that hold each\n"
    "         one's content (one entry per content, whatever its paths), its size and\n"
    "         SHA-256, the checks it passed, whether this snarkpipe can use it (either\n"
    "         curve) and whether each key file still has that size (a changed key is\n"
    "         checked again at its next load, whatever this says); the total against\n"
    "         the cap\n"
    "  clear  remove every entry and reference (and what interrupted writes left)\n"
    "  dir    print the cache's directory\n"
    "The directory: --key-cache-dir, else $SNARKPIPE_CACHE_DIR, else\n"
    "$XDG_CACHE_HOME/snarkpipe, else ~/.cache/snarkpipe. The cap: --key-cache-max,\n"
    "else $SNARKPIPE_CACHE_MAX, else 4G; writing an entry removes the least recently\n"
    "used ones over it. `prove --no-key-cache` bypasses the cache for one run.\n";

/* Every file of the directory, for the listing. */
typedef struct {
    sp_kc_file **f;
    size_t n, cap;
} file_set;

static int collect(void *vctx, const sp_kc_file *f)
{
    file_set *s = vctx;
    if (s->n == s->cap) {
        size_t grow = s->cap ? 2 * s->cap : 16;
        sp_kc_file **m = realloc(s->f, grow * sizeof *m);
        if (!m)
            return 1;
        s->f = m;
        s->cap = grow;
    }
    if (!(s->f[s->n] = malloc(sizeof **s->f)))
        return 1;
    *s->f[s->n++] = *f;
    return 0;
}

/* Most recently used first. */
static int by_use(const void *x, const void *y)
{
    const sp_kc_file *a = *(sp_kc_file *const *)x, *b = *(sp_kc_file *const *)y;
    if (a->used != b->used)
        return a->used > b->used ? -1 : 1;
    if (a->used_nsec != b->used_nsec)
        return a->used_nsec > b->used_nsec ? -1 : 1;
    return strcmp(a->name, b->name);
}

/* An entry this snarkpipe proves with: this instance's, or in the
 * two-curve binary the BN254 instance's. */
static int usable(const sp_kc_file *f)
{
    if (f->this_build)
        return 1;
#if !SP_CURVE_BN254
    uint8_t b[32];
    if (sp_bn254_kc_fingerprint && !strcmp(f->curve, "bn254")) {
        sp_bn254_kc_fingerprint(b);
        return !memcmp(b, f->build, 32);
    }
#endif
    return 0;
}

/* "same size", "changed" or "missing": key file path against the entry's size. */
static const char *source_state(const char *path, uint64_t size)
{
    struct stat st;
    if (!*path || stat(path, &st) != 0)
        return "missing";
    return (uint64_t)st.st_size == size ? "same size" : "changed";
}

/* The key files of entry e: the references naming it, else the path it recorded. */
static void print_paths(const file_set *s, const sp_kc_file *e, int json)
{
    int k = 0;
    for (size_t i = 0; i < s->n; i++) {
        const sp_kc_file *r = s->f[i];
        if (!r->ref || !r->readable || strcmp(r->target, e->name) || memcmp(r->source_sha256, e->source_sha256, 32))
            continue;
        if (json) {
            printf("%s{\"key\":", k ? "," : "");
            sp_cli_json_str(stdout, r->source);
            printf(",\"now\":\"%s\"}", source_state(r->source, e->source_size));
        } else {
            printf("  key %s (%" PRIu64 " bytes, now: %s)\n", r->source, e->source_size,
                   source_state(r->source, e->source_size));
        }
        k++;
    }
    if (!k && !json)
        printf("  key %s (%" PRIu64 " bytes, now: %s)\n", e->source, e->source_size,
               source_state(e->source, e->source_size));
}

static void print_entry(const file_set *s, const sp_kc_file *f, int json, int first)
{
    char sha[65] = "", made[32] = "?", used[32] = "?";
    for (int i = 0; i < 32 && f->readable; i++)
        snprintf(sha + 2 * i, 3, "%02x", f->source_sha256[i]);
    const char *what = f->temp ? "temporary" : !f->readable ? "unreadable" : usable(f) ? "usable" : "other build";
    const char *kind = f->kind == SP_KC_ZKEY ? "zkey" : f->kind == SP_KC_PARAMS ? "params" : "?";
    const char *checks = f->subgroup_checked ? "subgroup" : "curve";
    struct tm tm;
    time_t t = (time_t)f->created, u = (time_t)f->used;
    if (gmtime_r(&t, &tm))
        strftime(made, sizeof made, "%Y-%m-%d %H:%M", &tm);
    if (gmtime_r(&u, &tm))
        strftime(used, sizeof used, "%Y-%m-%d %H:%M", &tm);
    if (json) {
        printf("%s{\"file\":", first ? "" : ",");
        sp_cli_json_str(stdout, f->name);
        printf(",\"bytes\":%" PRIu64 ",\"state\":\"%s\",\"last_used\":%" PRId64, f->bytes, what, f->used);
        if (f->readable) {
            printf(",\"curve\":");
            sp_cli_json_str(stdout, f->curve);
            printf(",\"kind\":\"%s\",\"checks\":\"%s\",\"key\":", kind, checks);
            sp_cli_json_str(stdout, f->source);
            printf(",\"key_bytes\":%" PRIu64 ",\"key_sha256\":\"%s\",\"key_now\":\"%s\",\"created\":%" PRId64
                   ",\"paths\":[", f->source_size, sha, source_state(f->source, f->source_size), f->created);
            print_paths(s, f, 1);
            printf("]");
        }
        printf("}");
    } else if (f->readable) {
        printf("%s\n  %s, %s %s key, %s checks, %.1f MiB, made %s UTC, last used %s UTC\n", f->name, what, f->curve,
               kind, checks, (double)f->bytes / (1 << 20), made, used);
        print_paths(s, f, 0);
        printf("  sha256 %s\n", sha);
    } else {
        printf("%s\n  %s, %.1f MiB\n", f->name, what, (double)f->bytes / (1 << 20));
    }
}

static int cache_list(const char *dir, uint64_t max)
{
    char err[SP_ERR_LEN] = "", b[32], m[32];
    file_set s = {NULL, 0, 0};
    int json = sp_cli_g.json;
    sp_status st = sp_kc_list(dir, collect, &s, err);
    if (s.n) /* s.f is NULL when nothing was found */
        qsort(s.f, s.n, sizeof *s.f, by_use);
    size_t entries = 0, refs = 0;
    uint64_t bytes = 0;
    if (json) {
        printf("{\"dir\":");
        sp_cli_json_str(stdout, dir);
        printf(",\"max_bytes\":%" PRIu64 ",\"entries\":[", max);
    }
    for (size_t i = 0; i < s.n; i++) {
        if (s.f[i]->ref) {
            refs++;
            continue;
        }
        print_entry(&s, s.f[i], json, entries == 0);
        entries++;
        bytes += s.f[i]->bytes;
    }
    if (json)
        printf("],\"bytes\":%" PRIu64 ",\"references\":%zu}\n", bytes, refs);
    else if (!sp_cli_g.quiet)
        printf("%zu file(s), %s of the %s cap, in %s (and %zu key path reference(s))\n", entries, human(b, bytes),
               human(m, max), dir, refs);
    for (size_t i = 0; i < s.n; i++)
        free(s.f[i]);
    free(s.f);
    return st == SP_OK ? SP_EXIT_OK : sp_cli_fail("cache", st, err);
}

int sp_cli_cache(int argc, char **argv)
{
    sp_cli_kc_opts o = {0, NULL, NULL};
    const char *verb = NULL;
    char dir[SP_KC_PATH], err[SP_ERR_LEN] = "";
    for (int i = 1; i < argc; i++) {
        int h = sp_cli_arg("cache", USAGE, argc, argv, &i), k;
        if (h == SP_CLI_NEXT)
            continue;
        if (h != SP_CLI_OWN)
            return h;
        if ((k = sp_cli_kc_opt(&o, "cache", argc, argv, &i)) != 0) {
            if (k < 0 || o.off)
                return sp_cli_usage("cache", USAGE, "%s", k < 0 ? "bad option" : "--no-key-cache makes no sense here");
        } else if (argv[i][0] == '-' || verb) {
            return sp_cli_usage("cache", USAGE, "unexpected %s", argv[i]);
        } else {
            verb = argv[i];
        }
    }
    if (!verb || (strcmp(verb, "list") && strcmp(verb, "clear") && strcmp(verb, "dir")))
        return sp_cli_usage("cache", USAGE, "%s", verb ? "unknown action" : "list, clear or dir?");
    if (sp_cli_kc_dir(dir, sizeof dir, o.dir) != 0)
        return sp_cli_fail("cache", SP_ERR_INVALID_ARG, "no cache directory (HOME is not set); use --key-cache-dir");
    if (!strcmp(verb, "dir")) {
        printf("%s\n", dir);
        return SP_EXIT_OK;
    }
    uint64_t max;
    if (!strcmp(verb, "list"))
        return sp_cli_kc_max(&max, "cache", &o) ? SP_EXIT_USAGE : cache_list(dir, max);
    size_t n = 0;
    uint64_t bytes = 0;
    sp_status st = sp_kc_clear(dir, &n, &bytes, err);
    if (st != SP_OK)
        return sp_cli_fail("cache", st, err);
    if (sp_cli_g.json)
        printf("{\"op\":\"cache clear\",\"removed\":%zu,\"bytes\":%" PRIu64 "}\n", n, bytes);
    else if (!sp_cli_g.quiet)
        printf("removed %zu file(s), %.1f MiB, from %s\n", n, (double)bytes / (1 << 20), dir);
    return SP_EXIT_OK;
}
