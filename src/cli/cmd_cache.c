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

int sp_cli_kc_opt(sp_cli_kc_opts *o, const char *cmd, int argc, char **argv, int *i)
{
    int missing = 0;
    const char *v;
    if (!strcmp(argv[*i], "--no-key-cache")) {
        o->off = 1;
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
    memset(rep, 0, sizeof *rep);
    if (!o->off && sp_cli_kc_dir(dir, sizeof dir, o->dir) != 0) {
        fprintf(stderr, "snarkpipe %s: key cache: no directory for it (HOME is not set); use --key-cache-dir\n",
                cmd);
    } else if (!o->off) {
        sp_kc_request rq = {.kind = kind, .path = path, .density = density, .flags = flags, .threads = threads,
                            .store = 1};
        sp_status st = sp_kc_load(pk, rep, dir, &rq, err);
        if (*rep->warning)
            fprintf(stderr, "snarkpipe %s: %s\n", cmd, rep->warning);
        return st;
    }
    if (kind == SP_KC_PARAMS)
        return sp_bp_params_read(pk, path, density, flags, threads, err);
    return sp_zkey_read(pk, NULL, path, flags, threads, err);
}

/* ---- snarkpipe cache ---- */

static const char USAGE[] =
    "usage: snarkpipe cache list|clear|dir [--key-cache-dir DIR] [--json]\n"
    "  list   the entries: the key file each holds, its size and SHA-256, the\n"
    "         checks it passed, whether this build can use it and whether the key\n"
    "         file still has that size (a changed key is checked again and its\n"
    "         entry rewritten at its next load, whatever this says)\n"
    "  clear  remove every entry (and what interrupted writes left)\n"
    "  dir    print the cache's directory\n"
    "The directory: --key-cache-dir, else $SNARKPIPE_CACHE_DIR, else\n"
    "$XDG_CACHE_HOME/snarkpipe, else ~/.cache/snarkpipe. `prove --no-key-cache`\n"
    "bypasses the cache for one run.\n";

typedef struct {
    size_t n;
    uint64_t bytes;
    int json;
} list_state;

/* "same size", "changed" or "missing": the key file against the entry's size. */
static const char *source_state(const sp_kc_file *f)
{
    struct stat st;
    if (!*f->source || stat(f->source, &st) != 0)
        return "missing";
    return (uint64_t)st.st_size == f->source_size ? "same size" : "changed";
}

static int list_print(void *vctx, const sp_kc_file *f)
{
    list_state *s = vctx;
    char sha[65] = "";
    for (int i = 0; i < 32 && f->readable; i++)
        snprintf(sha + 2 * i, 3, "%02x", f->source_sha256[i]);
    const char *what = f->temp ? "temporary" : !f->readable ? "unreadable" : f->this_build ? "usable" : "other build";
    const char *kind = f->kind == SP_KC_ZKEY ? "zkey" : f->kind == SP_KC_PARAMS ? "params" : "?";
    const char *checks = f->subgroup_checked ? "subgroup" : "curve";
    if (s->json) {
        printf("%s{\"file\":", s->n ? "," : "");
        sp_cli_json_str(stdout, f->name);
        printf(",\"bytes\":%" PRIu64 ",\"state\":\"%s\"", f->bytes, what);
        if (f->readable) {
            printf(",\"curve\":");
            sp_cli_json_str(stdout, f->curve);
            printf(",\"kind\":\"%s\",\"checks\":\"%s\",\"key\":", kind, checks);
            sp_cli_json_str(stdout, f->source);
            printf(",\"key_bytes\":%" PRIu64 ",\"key_sha256\":\"%s\",\"key_now\":\"%s\",\"created\":%" PRId64 "}",
                   f->source_size, sha, source_state(f), f->created);
        } else {
            printf("}");
        }
    } else if (f->readable) {
        char when[32] = "?";
        time_t t = (time_t)f->created;
        struct tm tm;
        if (gmtime_r(&t, &tm))
            strftime(when, sizeof when, "%Y-%m-%d %H:%M", &tm);
        printf("%s\n  %s, %s %s key, %s checks, %.1f MiB, made %s UTC\n  key %s (%" PRIu64 " bytes, now: %s)\n"
               "  sha256 %s\n", f->name, what, f->curve, kind, checks, (double)f->bytes / (1 << 20), when, f->source,
               f->source_size, source_state(f), sha);
    } else {
        printf("%s\n  %s, %.1f MiB\n", f->name, what, (double)f->bytes / (1 << 20));
    }
    s->n++;
    s->bytes += f->bytes;
    return 0;
}

static int cache_list(const char *dir)
{
    char err[SP_ERR_LEN] = "";
    list_state s = {0, 0, sp_cli_g.json};
    if (s.json)
        printf("{\"dir\":");
    if (s.json) {
        sp_cli_json_str(stdout, dir);
        printf(",\"entries\":[");
    }
    sp_status st = sp_kc_list(dir, list_print, &s, err);
    if (s.json)
        printf("]}\n");
    else if (!sp_cli_g.quiet)
        printf("%zu file(s), %.1f MiB in %s\n", s.n, (double)s.bytes / (1 << 20), dir);
    return st == SP_OK ? SP_EXIT_OK : sp_cli_fail("cache", st, err);
}

int sp_cli_cache(int argc, char **argv)
{
    sp_cli_kc_opts o = {0, NULL};
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
    if (!strcmp(verb, "list"))
        return cache_list(dir);
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
