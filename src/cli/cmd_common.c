/* Helpers shared by the Groth16 commands (cmds.h). */
#include <errno.h>
#include <stdio.h>
#include <malloc.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "cli/cli.h"
#include "cli/cmds.h"
#include "groth16/json_io.h"
#include "groth16/params.h"
#include "groth16/zkey.h"
#include "util/file.h"
#include "util/progress.h"

sp_cli_globals sp_cli_g;

const char *sp_cli_opt(int argc, char **argv, int *i, const char *name, int *missing)
{
    size_t n = strlen(name);
    if (strncmp(argv[*i], name, n) != 0)
        return NULL;
    if (argv[*i][n] == '=')
        return argv[*i] + n + 1;
    if (argv[*i][n] != '\0')
        return NULL;
    if (*i + 1 >= argc) {
        *missing = 1;
        return NULL;
    }
    return argv[++*i];
}

int sp_cli_int(int *out, const char *s, int min, int max)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || !*s || *end || v < min || v > max)
        return -1;
    *out = (int)v;
    return 0;
}

int sp_cli_global_opt(const char *cmd, int argc, char **argv, int *i)
{
    int missing = 0;
    const char *v;
    if (!strcmp(argv[*i], "--quiet") || !strcmp(argv[*i], "-q")) {
        sp_cli_g.quiet = 1;
        sp_progress_configure(NULL);
        return 1;
    }
    if (!strcmp(argv[*i], "--json")) {
        sp_cli_g.json = 1;
        return 1;
    }
    if ((v = sp_cli_opt(argc, argv, i, "--threads", &missing)) || missing) {
        if (!v || sp_cli_int(&sp_cli_g.threads, v, 0, 4096)) {
            fprintf(stderr, "snarkpipe %s: --threads needs a number from 0 (all cores) to 4096\n", cmd);
            return -1;
        }
        return 1;
    }
    return 0;
}

int sp_cli_arg(const char *cmd, const char *usage, int argc, char **argv, int *i)
{
    int g = sp_cli_global_opt(cmd, argc, argv, i);
    if (g < 0)
        return SP_EXIT_USAGE;
    if (g > 0)
        return SP_CLI_NEXT;
    if (!strcmp(argv[*i], "--help") || !strcmp(argv[*i], "-h")) {
        fputs(usage, stdout);
        return SP_EXIT_OK;
    }
    return SP_CLI_OWN;
}

int sp_cli_files(const char *cmd, const char *usage, int argc, char **argv, char **pos, int n)
{
    int npos = 0;
    for (int i = 1; i < argc; i++) {
        int h = sp_cli_arg(cmd, usage, argc, argv, &i);
        if (h == SP_CLI_NEXT)
            continue;
        if (h != SP_CLI_OWN)
            return h;
        if (argv[i][0] == '-' && argv[i][1])
            return sp_cli_unknown_opt(cmd, usage, argv[i]);
        if (npos == n)
            return sp_cli_usage(cmd, usage, "too many arguments");
        pos[npos++] = argv[i];
    }
    if (npos != n)
        return sp_cli_usage(cmd, usage, "expected %d file arguments, got %d", n, npos);
    return SP_CLI_NEXT;
}

int sp_cli_parse_globals(int *argc, char ***argv)
{
    int i = 1;
    while (i < *argc && (*argv)[i][0] == '-') {
        int r = sp_cli_global_opt("", *argc, *argv, &i);
        if (r < 0)
            return SP_EXIT_USAGE;
        if (r == 0)
            break;
        i++;
    }
    /* Keep argv[0] (the program) in front of what is left. */
    (*argv)[i - 1] = (*argv)[0];
    *argv += i - 1;
    *argc -= i - 1;
    return 0;
}

int sp_cli_threads(void)
{
    if (sp_cli_g.threads > 0)
        return sp_cli_g.threads;
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

/* An indented line that continues the usage form above it (not another
 * "snarkpipe ..." form, not an option's line). */
static int is_continuation(const char *line)
{
    size_t n = strcspn(line, "\n"), sp = strspn(line, " ");
    return sp >= 8 && sp < n && strncmp(line + sp, "snarkpipe ", 10) != 0;
}

/* The usage's first form: its first line and the lines that continue it. */
static void usage_line(FILE *f, const char *usage)
{
    const char *p = usage;
    for (int first = 1; *p && (first || is_continuation(p)); first = 0) {
        size_t n = strcspn(p, "\n");
        fprintf(f, "%.*s\n", (int)n, p);
        p += n + (p[n] == '\n');
    }
}

int sp_cli_usage(const char *cmd, const char *usage, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "snarkpipe %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n");
    usage_line(stderr, usage);
    fprintf(stderr, "(snarkpipe %s --help: every option)\n", cmd);
    return SP_EXIT_USAGE;
}

/* Edit distance with adjacent transpositions (optimal string alignment),
 * over the first 63 bytes of each word. */
static int edit_distance(const char *a, size_t la, const char *b, size_t lb)
{
    int d[64][64];
    la = la < 63 ? la : 63;
    lb = lb < 63 ? lb : 63;
    for (size_t i = 0; i <= la; i++)
        d[i][0] = (int)i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = (int)j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            int cost = a[i - 1] != b[j - 1], v = d[i - 1][j - 1] + cost;
            v = d[i - 1][j] + 1 < v ? d[i - 1][j] + 1 : v;
            v = d[i][j - 1] + 1 < v ? d[i][j - 1] + 1 : v;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < v)
                v = d[i - 2][j - 2] + 1;
            d[i][j] = v;
        }
    return d[la][lb];
}

/* Keeps cand[0..n) in *best when it is closer to word than what *best holds. */
static void closer(const char **best, int *best_d, const char *word, size_t lw, const char *cand, size_t n)
{
    int d = edit_distance(word, lw, cand, n);
    int limit = lw < 4 ? 1 : lw < 9 ? 2 : 3;
    if (d > limit && !(lw >= 3 && lw < n && !strncmp(word, cand, lw)))
        return;
    if (d > limit)
        d = limit; /* a prefix of the candidate */
    if (d < *best_d) {
        *best = cand;
        *best_d = d;
    }
}

const char *sp_cli_suggest(const char *word, const char *const *cands, int n)
{
    const char *best = NULL;
    int best_d = INT32_MAX;
    size_t lw = strlen(word);
    for (int k = 0; k < n; k++)
        if (strcmp(word, cands[k]))
            closer(&best, &best_d, word, lw, cands[k], strlen(cands[k]));
    return best;
}

int sp_cli_unknown_opt(const char *cmd, const char *usage, const char *opt)
{
    const char *best = NULL;
    int best_d = INT32_MAX;
    size_t lw = strcspn(opt, "=");
    for (const char *p = strstr(usage, "--"); p; p = strstr(p + 2, "--")) {
        size_t n = 2 + strspn(p + 2, "abcdefghijklmnopqrstuvwxyz0123456789-");
        /* the option itself never: usage may name it where this command
         * does not take it (a global option given after the command) */
        if (n > 2 && (p == usage || p[-1] == ' ' || p[-1] == '[' || p[-1] == '(' || p[-1] == '|') &&
            !(n == lw && !strncmp(p, opt, lw)))
            closer(&best, &best_d, opt, lw, p, n);
    }
    if (best)
        return sp_cli_usage(cmd, usage, "unknown option %s (did you mean %.*s?)", opt,
                            (int)(2 + strspn(best + 2, "abcdefghijklmnopqrstuvwxyz0123456789-")), best);
    return sp_cli_usage(cmd, usage, "unknown option %s", opt);
}

int sp_cli_fail(const char *cmd, sp_status st, const char *msg)
{
    fprintf(stderr, "snarkpipe %s: %s (%s)\n", cmd, msg && *msg ? msg : "failed", sp_status_str(st));
    return SP_EXIT_RUNTIME;
}

int sp_cli_fail_file(const char *cmd, const char *path, sp_status st, const char *msg)
{
    if (msg && strstr(msg, path))
        return sp_cli_fail(cmd, st, msg);
    char full[SP_ERR_LEN + 256];
    snprintf(full, sizeof full, "%s: %s", path, msg && *msg ? msg : "failed");
    return sp_cli_fail(cmd, st, full);
}

double sp_cli_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void sp_cli_progress(const char *name, double t0)
{
    double dt = sp_cli_now() - t0;
    if (dt > 1.0)
        sp_progress_note("%-24s %.2f s", name, dt);
}

void sp_cli_progress_setup(const char *cmd)
{
    static const char *const busy[] = {"daemon", "client", "bench"};
    for (size_t i = 0; i < sizeof busy / sizeof busy[0]; i++)
        if (!strcmp(cmd, busy[i]))
            return;
    if (sp_cli_g.quiet || !isatty(STDERR_FILENO))
        return;
    sp_progress_config c = sp_progress_defaults();
    const char *now = getenv("SP_TEST_PROGRESS_NOW");
    if (now && !strcmp(now, "1"))
        c.delay_s = c.interval_s = 0;
    sp_progress_configure(&c);
}

void sp_cli_json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(f, "\\%c", ch);
        else if (ch < 0x20)
            fprintf(f, "\\u%04x", ch);
        else
            fputc(ch, f);
    }
    fputc('"', f);
}

int sp_cli_verdict(const char *cmd, int valid, const char *json_extra, const char *why)
{
    if (sp_cli_g.json) {
        printf("{\"valid\":%s", valid ? "true" : "false");
        if (json_extra)
            printf(",%s", json_extra);
        if (why) {
            printf(",\"reason\":");
            sp_cli_json_str(stdout, why);
        }
        printf("}\n");
    } else if (!sp_cli_g.quiet) {
        printf("%s\n", valid ? "OK" : "INVALID");
    }
    if (why)
        fprintf(stderr, "snarkpipe %s: %s\n", cmd, why);
    return valid ? SP_EXIT_OK : SP_EXIT_CHECK;
}

sp_status sp_cli_read_prefix(uint8_t **out, const char *path, size_t len, char err[SP_ERR_LEN])
{
    *out = NULL;
    FILE *f = sp_file_fopen_regular(path, "rb", "input", err);
    if (!f)
        return SP_ERR_IO;
    uint8_t *buf = malloc(len ? len : 1);
    if (!buf) {
        fclose(f);
        snprintf(err, SP_ERR_LEN, "%s: out of memory for %zu bytes", path, len);
        return SP_ERR_NOMEM;
    }
    size_t got = fread(buf, 1, len, f);
    int bad = ferror(f);
    fclose(f);
    if (bad || got != len) {
        free(buf);
        snprintf(err, SP_ERR_LEN, "%s: %s after %zu of %zu bytes", path, bad ? "read error" : "file ends", got, len);
        return bad ? SP_ERR_IO : SP_ERR_TRUNCATED;
    }
    *out = buf;
    return SP_OK;
}

/* Big-endian u32 at the current position; 0 at end of file. */
static int read_be32(FILE *f, uint32_t *v)
{
    uint8_t b[4];
    if (fread(b, 1, 4, f) != 4)
        return 0;
    *v = (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
    return 1;
}

#define BP_G1 96u
#define BP_G2 192u
/* alpha_g1, beta_g1, beta_g2, gamma_g2, delta_g1, delta_g2 */
#define BP_VK_HEAD (3u * BP_G1 + 3u * BP_G2)

/* Walks a bellperson .vk / .params: every count must fit the file. */
static int bp_layout(sp_cli_bp_layout *lay, FILE *f, uint64_t size)
{
    memset(lay, 0, sizeof *lay);
    if (size < BP_VK_HEAD + 4 || fseek(f, BP_VK_HEAD, SEEK_SET) || !read_be32(f, &lay->ic))
        return 0;
    uint64_t pos = BP_VK_HEAD + 4 + (uint64_t)lay->ic * BP_G1;
    lay->vk_bytes = pos;
    if (pos == size) {
        lay->is_vk_only = 1;
        return lay->ic > 0;
    }
    uint32_t *counts[5] = {&lay->h, &lay->l, &lay->a, &lay->b_g1, &lay->b_g2};
    for (int k = 0; k < 5; k++) {
        if (pos + 4 > size || fseeko(f, (off_t)pos, SEEK_SET) || !read_be32(f, counts[k]))
            return 0;
        pos += 4 + (uint64_t)*counts[k] * (k == 4 ? BP_G2 : BP_G1);
    }
    return pos == size && lay->ic > 0;
}

static void describe_magic(char *out, size_t out_len, const uint8_t *b, size_t n)
{
    char m[5] = {0};
    int printable = n >= 4;
    for (size_t i = 0; i < 4 && i < n; i++) {
        m[i] = (char)b[i];
        if (b[i] < 0x20 || b[i] > 0x7e)
            printable = 0;
    }
    if (printable)
        snprintf(out, out_len, "starts with \"%s\"", m);
    else
        snprintf(out, out_len, "has no known magic or layout");
}

sp_status sp_cli_detect(sp_cli_file_kind *kind, sp_cli_bp_layout *bp, const char *path, char err[SP_ERR_LEN])
{
    *kind = SP_FILE_UNKNOWN;
    FILE *f = sp_file_fopen_regular(path, "rb", "input", err);
    struct stat stt;
    if (!f)
        return SP_ERR_IO;
    if (fstat(fileno(f), &stt)) {
        snprintf(err, SP_ERR_LEN, "%s: cannot open: %s", path, strerror(errno));
        fclose(f);
        return SP_ERR_IO;
    }
    uint8_t head[64];
    size_t n = fread(head, 1, sizeof head, f);
    uint64_t size = (uint64_t)stt.st_size;
    size_t j = 0;
    while (j < n && (head[j] == ' ' || head[j] == '\n' || head[j] == '\r' || head[j] == '\t'))
        j++;
    static const struct { const char *magic; sp_cli_file_kind kind; } magics[] = {
        {"r1cs", SP_FILE_R1CS}, {"wtns", SP_FILE_WTNS}, {"zkey", SP_FILE_ZKEY}, {"ptau", SP_FILE_PTAU}};
    for (size_t k = 0; k < sizeof magics / sizeof magics[0] && *kind == SP_FILE_UNKNOWN; k++)
        if (n >= 4 && !memcmp(head, magics[k].magic, 4))
            *kind = magics[k].kind;
    sp_cli_bp_layout lay;
    /* The bellperson layout before JSON: a key's first coordinate byte can
     * be whitespace followed by '{' or '[', but no JSON text has counts that
     * add up to its size exactly. */
    if (*kind != SP_FILE_UNKNOWN)
        ;
    else if (bp_layout(&lay, f, size)) {
        *kind = lay.is_vk_only ? SP_FILE_BP_VK : SP_FILE_PARAMS;
        if (bp)
            *bp = lay;
    } else if (j < n && (head[j] == '{' || head[j] == '['))
        *kind = SP_FILE_JSON;
    else if (size == 192)
        *kind = SP_FILE_BP_PROOF;
    fclose(f);
    if (*kind != SP_FILE_UNKNOWN)
        return SP_OK;
    char what[64];
    if (size == 0)
        snprintf(what, sizeof what, "is empty");
    else
        describe_magic(what, sizeof what, head, n);
    snprintf(err, SP_ERR_LEN,
             "%s: unknown file type (%" PRIu64 " bytes, %s): expected .r1cs, .wtns, .zkey, .ptau, bellperson "
             ".params/.vk/proof, or snarkjs JSON", path, size, what);
    return SP_ERR_FORMAT;
}

int sp_cli_u64(uint64_t *out, const char *s)
{
    char *end;
    if (!*s || *s == '-')
        return -1;
    errno = 0;
    if (s[0] == '2' && s[1] == '^') {
        unsigned long k = strtoul(s + 2, &end, 10);
        if (errno || *end || end == s + 2 || k > 63)
            return -1;
        *out = (uint64_t)1 << k;
        return 0;
    }
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end)
        return -1;
    *out = v;
    return 0;
}

size_t sp_cli_peak_rss(int reset)
{
    if (reset) {
#ifdef __GLIBC__
        malloc_trim(0);
#endif
        FILE *f = fopen("/proc/self/clear_refs", "w");
        if (f) {
            fputs("5", f); /* resets VmHWM (Linux >= 4.0) */
            fclose(f);
        }
        return 0;
    }
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    unsigned long long kb = 0;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "VmHWM: %llu kB", &kb) == 1)
            break;
    if (f)
        fclose(f);
    return (size_t)kb * 1024;
}

int sp_cli_cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

double sp_cli_median(double *t, int n)
{
    qsort(t, (size_t)n, sizeof *t, sp_cli_cmp_double);
    return n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
}

int sp_cli_read_vk(sp_g16_vk *vk, sp_cli_file_kind *from, const char *cmd, const char *path)
{
    char err[SP_ERR_LEN] = "", bp_err[SP_ERR_LEN];
    sp_cli_file_kind kind;
    sp_cli_bp_layout lay;
    sp_status st = sp_cli_detect(&kind, &lay, path, err);
    if (from)
        *from = kind;
    if (st == SP_OK && kind == SP_FILE_JSON) {
        st = sp_g16_vk_json_read(vk, path, 0, err);
    } else if (st == SP_OK && kind == SP_FILE_ZKEY) {
        st = sp_zkey_read_vk(vk, NULL, path, 0, err);
    } else if (st == SP_OK && (kind == SP_FILE_PARAMS || kind == SP_FILE_BP_VK)) {
        uint8_t *head; /* the .vk part that starts every .params file */
        if ((st = sp_cli_read_prefix(&head, path, (size_t)lay.vk_bytes, err)) == SP_OK) {
            st = sp_bp_vk_parse(vk, head, (size_t)lay.vk_bytes, 0, err);
            free(head);
        }
    } else if (st == SP_ERR_FORMAT && sp_bp_curve_check(bp_err) == SP_OK) {
        st = sp_bp_vk_read(vk, path, 0, err); /* no known kind: the .vk reader says what is wrong (its size) */
    } else if (st == SP_OK) {
        snprintf(err, SP_ERR_LEN,
                 "holds no verifying key (expected verification_key.json, a .zkey, a bellperson .params or .vk)");
        st = SP_ERR_FORMAT;
    }
    return st == SP_OK ? SP_EXIT_OK : sp_cli_fail_file(cmd, path, st, err);
}
