/*
 * circom 2's witness protocol over the interpreter (circom.h). The order
 * of calls and the wording of errors follow circom_runtime's
 * WitnessCalculatorCircom2 (what snarkjs 0.7.6 runs); input values are
 * read as snarkjs reads them (circom_value.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "util/file.h"
#include "util/hugemem.h"
#include "util/json.h"
#include "wasm/circom.h"
#include "wasm/circom_value.h"
#include "wasm/frnative.h"
#include "wasm/internal.h"

enum {
    X_VERSION, X_N32, X_PRIME, X_READ, X_WRITE, X_INIT, X_SIG_SIZE, X_SET, X_INPUT_SIZE, X_WITNESS_SIZE,
    X_WITNESS, X_MSG_CHAR, X_SHARED_START, N_EXPORTS
};

static const struct {
    const char *name, *sig;
} exports_[N_EXPORTS] = {
    {"getVersion", ":i"},         {"getFieldNumLen32", ":i"},     {"getRawPrime", ":"},
    {"readSharedRWMemory", "i:i"}, {"writeSharedRWMemory", "ii:"}, {"init", "i:"},
    {"getInputSignalSize", "ii:i"}, {"setInputSignal", "iii:"},    {"getInputSize", ":i"},
    {"getWitnessSize", ":i"},     {"getWitness", "i:"},           {"getMessageChar", ":i"},
    {"getSharedRWMemoryStart", ":i"},
};

#define MAX_MSG 4096 /* characters of one message read from the module */

struct sp_circom {
    sp_fn_field field; /* first: the natives' context (frnative.h) */
    sp_circom_opts opts;
    sp_wasm_module *m;
    sp_wasm_inst *in;
    sp_wasm_host_fn *hosts;
    int fx[N_EXPORTS];
    int natives_on; /* the natives run (the options asked and the prime suits them) */
    uint32_t n32, prime[SP_CIRCOM_MAX_N32], witness_size, shared;
    int exc_code;              /* the last exceptionHandler code, 0 = none */
    char errstr[SP_ERR_LEN];   /* printErrorMessage's text so far */
    char msgstr[1024];         /* the log line being built */
    char *sym_path;            /* the symbol file, or NULL */
};

sp_circom_opts sp_circom_opts_default(void)
{
    sp_circom_opts o;
    o.lim = sp_wasm_limits_default();
    o.natives = 1;
    o.log_to_stderr = 1;
    return o;
}

uint32_t sp_circom_n32(const sp_circom *c) { return c->n32; }
int sp_circom_natives_on(const sp_circom *c) { return c->natives_on; }
const uint32_t *sp_circom_prime(const sp_circom *c) { return c->prime; }
uint32_t sp_circom_witness_size(const sp_circom *c) { return c->witness_size; }

/* ---- the runtime's imports ---- */

/* getMessage(): getMessageChar until 0, into out[MAX_MSG + 1]. */
static int get_message(sp_circom *c, char *out)
{
    char err[SP_ERR_LEN];
    size_t k = 0;
    for (;;) {
        uint64_t ch;
        if (sp_wasm_call(c->in, c->fx[X_MSG_CHAR], NULL, &ch, err) != SP_OK)
            return sp_wasm_trap(c->in, "%s", err + 6), 0; /* drop "wasm: " */
        if (!(uint32_t)ch)
            break;
        if (k == MAX_MSG)
            return sp_wasm_trap(c->in, "a message of the module is longer than %d characters", MAX_MSG), 0;
        out[k++] = (char)(uint8_t)ch;
    }
    out[k] = 0;
    return 1;
}

static int h_exception(sp_wasm_inst *in, void *ctx, const uint64_t *a, uint64_t *ret)
{
    static const char *const text[] = {"Unknown error.", "Signal not found.", "Too many signals set.",
                                       "Signal already set.", "Assert Failed.", "Not enough memory.",
                                       "Input signal array access exceeds the size."};
    sp_circom *c = ctx;
    uint32_t code = (uint32_t)a[0];
    c->exc_code = code ? (int)code : -1;
    size_t n = strlen(c->errstr);
    while (n && c->errstr[n - 1] == '\n') /* messages end in newlines; the last one is not kept */
        c->errstr[--n] = 0;
    for (char *p = c->errstr; *p; p++)
        if (*p == '\n')
            *p = ' ';
    return sp_wasm_trap(in, "%s%s%.200s", text[code < 7 ? code : 0], n ? " " : "", c->errstr);
}

static int h_print_error(sp_wasm_inst *in, void *ctx, const uint64_t *a, uint64_t *ret)
{
    sp_circom *c = ctx;
    char msg[MAX_MSG + 1];
    if (!get_message(c, msg))
        return 1;
    size_t n = strlen(c->errstr);
    snprintf(c->errstr + n, sizeof c->errstr - n, "%s\n", msg);
    return 0;
}

static void msg_append(sp_circom *c, const char *s)
{
    size_t n = strlen(c->msgstr);
    snprintf(c->msgstr + n, sizeof c->msgstr - n, "%s%s", n ? " " : "", s);
}

static int h_write_buffer(sp_wasm_inst *in, void *ctx, const uint64_t *a, uint64_t *ret)
{
    sp_circom *c = ctx;
    char msg[MAX_MSG + 1];
    if (!get_message(c, msg))
        return 1;
    if (strcmp(msg, "\n")) {
        msg_append(c, msg);
        return 0;
    }
    if (c->opts.log_to_stderr)
        fprintf(stderr, "%s\n", c->msgstr);
    c->msgstr[0] = 0;
    return 0;
}

static int read_shared(sp_circom *c, uint32_t *w)
{
    size_t len;
    const uint8_t *mem = sp_wasm_memory(c->in, &len);
    if ((uint64_t)c->shared + 4ull * c->n32 > len)
        return sp_wasm_trap(c->in, "the shared memory (byte %u) is outside the module's memory", c->shared), 0;
    memcpy(w, mem + c->shared, 4u * c->n32);
    return 1;
}

static int h_show_shared(sp_wasm_inst *in, void *ctx, const uint64_t *a, uint64_t *ret)
{
    sp_circom *c = ctx;
    uint32_t w[SP_CIRCOM_MAX_N32];
    char dec[SP_CIRCOM_MAX_N32 * 10 + 2];
    if (!read_shared(c, w))
        return 1;
    sp_cv_to_decimal(dec, w, c->n32);
    msg_append(c, dec);
    return 0;
}

static const struct {
    const char *name, *sig;
    sp_wasm_host_fn fn;
} imports_[] = {
    {"exceptionHandler", "i:", h_exception},
    {"printErrorMessage", ":", h_print_error},
    {"writeBufferMessage", ":", h_write_buffer},
    {"showSharedRWMemory", ":", h_show_shared},
};

/* ---- opening ---- */

static sp_status bind_imports(sp_circom *c, char err[SP_ERR_LEN])
{
    size_t n = sp_wasm_import_count(c->m);
    if (!(c->hosts = calloc(n + 1, sizeof *c->hosts))) {
        snprintf(err, SP_ERR_LEN, "circom: out of memory");
        return SP_ERR_NOMEM;
    }
    for (size_t i = 0; i < n; i++) {
        const char *mod, *field;
        char sig[16];
        sp_wasm_import_name(c->m, i, &mod, &field);
        sp_wasm_import_sig(c->m, i, sig);
        for (size_t k = 0; k < sizeof imports_ / sizeof imports_[0]; k++)
            if (!strcmp(mod, "runtime") && !strcmp(field, imports_[k].name) && !strcmp(sig, imports_[k].sig))
                c->hosts[i] = imports_[k].fn;
        if (!c->hosts[i]) {
            snprintf(err, SP_ERR_LEN,
                     "circom: the module imports %.60s.%.60s (%s), which circom 2's runtime does not provide "
                     "(not a circom 2 witness generator?)", mod, field, sig);
            return SP_ERR_FORMAT;
        }
    }
    return SP_OK;
}

static sp_status call(sp_circom *c, int x, const uint64_t *args, uint64_t *ret, char err[SP_ERR_LEN])
{
    c->exc_code = 0;
    c->errstr[0] = 0;
    sp_status st = sp_wasm_call(c->in, c->fx[x], args, ret, err);
    if (st != SP_OK && c->exc_code == 4)
        return SP_ERR_UNSATISFIED;
    return st;
}

/* Reads the version, the prime and the sizes; turns the natives on when
 * the prime suits them. */
static sp_status read_constants(sp_circom *c, char err[SP_ERR_LEN])
{
    uint64_t v, n32, ws, sh;
    sp_status st;
    if ((st = call(c, X_VERSION, NULL, &v, err)) != SP_OK || (st = call(c, X_N32, NULL, &n32, err)) != SP_OK ||
        (st = call(c, X_WITNESS_SIZE, NULL, &ws, err)) != SP_OK ||
        (st = call(c, X_SHARED_START, NULL, &sh, err)) != SP_OK)
        return st;
    if ((uint32_t)v != 2) {
        snprintf(err, SP_ERR_LEN, "circom: the module says it is from circom %u; only circom 2's are supported",
                 (uint32_t)v);
        return SP_ERR_UNSUPPORTED;
    }
    if ((uint32_t)n32 == 0 || (uint32_t)n32 > SP_CIRCOM_MAX_N32) {
        snprintf(err, SP_ERR_LEN, "circom: field elements of %u 32-bit words (1 to %d supported)", (uint32_t)n32,
                 SP_CIRCOM_MAX_N32);
        return SP_ERR_UNSUPPORTED;
    }
    c->n32 = (uint32_t)n32;
    c->witness_size = (uint32_t)ws;
    c->shared = (uint32_t)sh;
    if ((st = call(c, X_PRIME, NULL, NULL, err)) != SP_OK)
        return st;
    if (!read_shared(c, c->prime)) {
        snprintf(err, SP_ERR_LEN, "circom: %.240s", c->in->trap);
        return SP_ERR_FORMAT;
    }
    if (!(c->prime[0] & 1) || c->witness_size == 0) {
        snprintf(err, SP_ERR_LEN, "circom: %s", c->witness_size ? "the prime is even" : "the witness is empty");
        return SP_ERR_FORMAT;
    }
    /* circom sizes n32 from the prime's bits, so its top 64-bit word is
     * never 0; a module that says more words than its prime fills runs
     * without the natives, whose Montgomery constants need that word. */
    if (c->opts.natives && c->n32 % 2 == 0 && (c->prime[c->n32 - 1] | c->prime[c->n32 - 2])) {
        sp_fn_field_init(&c->field, c->prime, c->n32);
        c->natives_on = 1;
        sp_wasm_enable_natives(c->in, 1);
    }
    return SP_OK;
}

sp_status sp_circom_open(sp_circom **out, const uint8_t *wasm, size_t len, const sp_circom_opts *opts,
                         char err[SP_ERR_LEN])
{
    *out = NULL;
    sp_circom *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(err, SP_ERR_LEN, "circom: out of memory");
        return SP_ERR_NOMEM;
    }
    c->opts = opts ? *opts : sp_circom_opts_default();
    sp_status st = sp_wasm_module_load(&c->m, wasm, len, sp_fn_natives, sp_fn_n_natives, &c->opts.lim, err);
    if (st == SP_OK)
        st = bind_imports(c, err);
    for (int x = 0; st == SP_OK && x < N_EXPORTS; x++)
        if ((c->fx[x] = sp_wasm_export_func(c->m, exports_[x].name, exports_[x].sig)) < 0 && x != X_SIG_SIZE) {
            snprintf(err, SP_ERR_LEN, "circom: the module exports no function %s (%s) (not a circom 2 witness "
                     "generator?)", exports_[x].name, exports_[x].sig);
            st = SP_ERR_FORMAT;
        }
    if (st == SP_OK)
        st = sp_wasm_instantiate(&c->in, c->m, c->hosts, c, err);
    if (st == SP_OK)
        st = read_constants(c, err);
    if (st != SP_OK) {
        sp_circom_close(c);
        return st;
    }
    *out = c;
    return SP_OK;
}

void sp_circom_close(sp_circom *c)
{
    if (!c)
        return;
    sp_wasm_inst_free(c->in);
    sp_wasm_module_free(c->m);
    free(c->hosts);
    free(c->sym_path);
    free(c);
}

/* ---- inputs ---- */

/* The FNV-1a 64-bit hash of a signal name, as (high, low) 32-bit halves. */
static void fnv(uint64_t hl[2], const char *s)
{
    uint64_t h = 0xCBF29CE484222325ull;
    for (; *s; s++) {
        h ^= (uint8_t)*s;
        h *= 0x100000001B3ull;
    }
    hl[0] = h >> 32;
    hl[1] = h & 0xffffffffu;
}

/* Sets input signal `name` from value v: its values flattened, checked
 * against the signal's size, each written and set. *count grows by the
 * values set. */
static sp_status set_signal(sp_circom *c, const char *name, const sp_json_val *v, uint64_t *count,
                            char err[SP_ERR_LEN])
{
    uint64_t args[3], size = 0;
    const sp_json_val **flat = NULL;
    size_t n_flat = 0;
    sp_status st;
    fnv(args, name);
    for (const char *p = name; *p; p++)
        if ((uint8_t)*p >= 0x80) { /* snarkjs hashes UTF-16 units; no circom signal name has any */
            snprintf(err, SP_ERR_LEN, "Signal %.200s not found", name);
            return SP_ERR_INVALID_ARG;
        }
    if (c->fx[X_SIG_SIZE] >= 0 && (st = call(c, X_SIG_SIZE, args, &size, err)) != SP_OK)
        return st;
    if (c->fx[X_SIG_SIZE] >= 0 && (int32_t)(uint32_t)size < 0) {
        snprintf(err, SP_ERR_LEN, "Signal %.200s not found", name);
        return SP_ERR_INVALID_ARG;
    }
    if ((st = sp_cv_flatten(&flat, &n_flat, v, name, err)) != SP_OK)
        return st;
    /* without getInputSignalSize (circom before 2.0.6) snarkjs counts nothing: the module's
     * exceptions and the final count say what is wrong */
    if (c->fx[X_SIG_SIZE] >= 0 && n_flat != (uint32_t)size) {
        snprintf(err, SP_ERR_LEN, "%s values for input signal %.150s (%zu given, %u expected%s)",
                 n_flat < (uint32_t)size ? "Not enough" : "Too many", name, n_flat, (uint32_t)size,
                 size ? "" : ": not an input of the circuit");
        free(flat);
        return SP_ERR_INVALID_ARG;
    }
    for (size_t i = 0; i < n_flat && st == SP_OK; i++) {
        uint32_t w[SP_CIRCOM_MAX_N32];
        if ((st = sp_cv_value(w, flat[i], c->prime, c->n32, name, err)) != SP_OK)
            break;
        for (uint32_t j = 0; j < c->n32 && st == SP_OK; j++) {
            uint64_t wa[2] = {j, w[j]};
            st = call(c, X_WRITE, wa, NULL, err);
        }
        args[2] = i;
        if (st == SP_OK && (st = call(c, X_SET, args, NULL, err)) == SP_OK)
            ++*count;
        else if (st != SP_OK && c->exc_code >= 1 && c->exc_code <= 3) { /* not found, too many, set twice */
            size_t k = strlen(err);
            snprintf(err + k, SP_ERR_LEN - k, " (input signal %.100s)", name);
            st = SP_ERR_INVALID_ARG;
        }
    }
    free(flat);
    return st;
}

sp_status sp_circom_set_sym_path(sp_circom *c, const char *path)
{
    char *copy = strdup(path);
    if (!copy)
        return SP_ERR_NOMEM;
    free(c->sym_path);
    c->sym_path = copy;
    return SP_OK;
}

/* The symbol file's text, NUL-terminated (free()), or NULL. */
static char *read_sym(const char *path)
{
    char err[SP_ERR_LEN];
    int fd;
    uint64_t size;
    if (!path || sp_file_open_regular(&fd, &size, path, "sym", err) != SP_OK)
        return NULL;
    char *b = size < ((uint64_t)1 << 30) ? malloc((size_t)size + 1) : NULL;
    size_t got = 0;
    while (b && got < size) {
        ssize_t n = read(fd, b + got, (size_t)size - got);
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    close(fd);
    if (b)
        b[got] = 0;
    return b;
}

/* 1 when an item of object root has a key that starts with name[0..n)
 * and goes on with '.' or '[' (a field or element of that signal). */
static int gives_part(const sp_json_val *root, const char *name, size_t n)
{
    for (size_t i = 0; i < root->n; i++) {
        const char *key = root->items[i]->key;
        if (!strncmp(key, name, n) && (key[n] == '.' || key[n] == '['))
            return 1;
    }
    return 0;
}

/* Appends to err the main component's input signals (from the symbol
 * file: "main.<name>", "main.<name>[...]", bus fields "main.<name>.<field>
 * ...", an input when the module gives <name>'s hash a size: other names
 * get 0) that root does not give, whole or by a bus or field holding them:
 * the signal's name, or the field's where root gives other fields of it. */
static void name_missing(sp_circom *c, const sp_json_val *root, char err[SP_ERR_LEN])
{
    char last[512] = "", base[256] = "";
    int input = 0, partly = 0;
    size_t k = strlen(err);
    int listed = 0;
    char *sym = c->fx[X_SIG_SIZE] >= 0 ? read_sym(c->sym_path) : NULL; /* else no sizes tell inputs */
    for (const char *line = sym; line && *line;) {
        const char *eol = strchr(line, '\n'), *end = eol ? eol : line + strlen(line);
        const char *nm = line;
        for (int commas = 0; commas < 3 && nm < end; nm++)
            commas += *nm == ',';
        line = eol ? eol + 1 : end;
        if (end - nm < 6 || strncmp(nm, "main.", 5))
            continue;
        nm += 5;
        size_t len = strcspn(nm, "\r\n"), n = strcspn(nm, "[.\r\n");
        char leaf[sizeof last];
        if (len >= sizeof leaf || n >= sizeof base || n == 0 || (size_t)(end - nm) < len)
            continue;
        memcpy(leaf, nm, len);
        leaf[len] = 0;
        if (strncmp(leaf, base, n) || base[n]) { /* a new signal: is it an input, given in part? */
            memcpy(base, leaf, n);
            base[n] = 0;
            uint64_t args[2], size;
            fnv(args, base);
            char e2[SP_ERR_LEN];
            input = sp_wasm_call(c->in, c->fx[X_SIG_SIZE], args, &size, e2) == SP_OK && (int32_t)(uint32_t)size > 0;
            partly = input && gives_part(root, base, n);
        }
        int given = !input;
        for (size_t i = n; i <= len && !given; i++)
            if (i == len || leaf[i] == '.' || leaf[i] == '[') {
                char save = leaf[i];
                leaf[i] = 0;
                given = sp_json_get(root, leaf) != NULL;
                leaf[i] = save;
            }
        const char *name = partly ? leaf : base;
        if (given || !strcmp(name, last))
            continue;
        snprintf(last, sizeof last, "%s", name);
        k += (size_t)snprintf(err + k, k < SP_ERR_LEN ? SP_ERR_LEN - k : 0, "%s%s", listed++ ? ", " : " (missing: ",
                              name);
        if (k >= SP_ERR_LEN)
            break;
    }
    free(sym);
    if (listed && k + 1 < SP_ERR_LEN)
        snprintf(err + k, SP_ERR_LEN - k, ")");
}

sp_status sp_circom_parse_input(sp_json_doc **doc, const char *input, size_t input_len, unsigned max_depth,
                                char err[SP_ERR_LEN])
{
    char why[SP_ERR_LEN - 32];
    sp_json_limits js = {.max_bytes = input_len + 1, .max_depth = max_depth, .last_key_wins = 1};
    sp_status st = sp_json_parse(doc, input, input_len, &js, why, sizeof why);
    if (st != SP_OK) {
        snprintf(err, SP_ERR_LEN, "input.json is not JSON: %s", why);
        return st == SP_ERR_NOMEM ? st : SP_ERR_BAD_ENCODING;
    }
    const sp_json_val *root = sp_json_root(*doc);
    if (root->type != SP_JSON_OBJECT && !(root->type == SP_JSON_ARRAY && !root->n)) {
        snprintf(err, SP_ERR_LEN, "input.json: expected an object of input signals, found %s",
                 sp_json_type_name(root->type));
        sp_json_free(*doc);
        *doc = NULL;
        return SP_ERR_BAD_ENCODING;
    }
    return SP_OK;
}

static sp_status set_inputs(sp_circom *c, const sp_json_val *root, char err[SP_ERR_LEN])
{
    uint64_t zero = 0, count = 0, need;
    sp_status st;
    if ((st = call(c, X_INIT, &zero, NULL, err)) != SP_OK)
        return st;
    for (size_t i = 0; i < root->n; i++)
        if ((st = set_signal(c, root->items[i]->key, root->items[i], &count, err)) != SP_OK)
            return st;
    if ((st = call(c, X_INPUT_SIZE, NULL, &need, err)) != SP_OK)
        return st;
    if (count < (uint32_t)need) {
        snprintf(err, SP_ERR_LEN, "Not all inputs have been set. Only %llu out of %u", (unsigned long long)count,
                 (uint32_t)need);
        name_missing(c, root, err);
        return SP_ERR_INVALID_ARG;
    }
    return SP_OK;
}

/* ---- the .wtns ---- */

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* The file as snarkjs' calculateWTNSBin lays it out: magic, version 2,
 * 2 sections; section 1 (n8, prime, witness size), section 2 (values). */
static sp_status write_wtns(sp_circom *c, uint8_t **out, size_t *out_len, char err[SP_ERR_LEN])
{
    size_t words = (size_t)c->witness_size * c->n32 + c->n32 + 11;
    uint64_t n8 = 4ull * c->n32, sec2 = n8 * c->witness_size;
    uint8_t *b = sp_huge_alloc(4 * words); /* written whole: on huge pages, few faults */
    if (!b) {
        snprintf(err, SP_ERR_LEN, "circom: out of memory for a witness of %u values", c->witness_size);
        return SP_ERR_NOMEM;
    }
    memcpy(b, "wtns", 4);
    put32(b + 4, 2);
    put32(b + 8, 2);
    put32(b + 12, 1);
    put32(b + 16, (uint32_t)(8 + n8));
    put32(b + 20, 0);
    put32(b + 24, (uint32_t)n8);
    for (uint32_t j = 0; j < c->n32; j++)
        put32(b + 28 + 4 * j, c->prime[j]);
    size_t pos = 28 + n8;
    put32(b + pos, c->witness_size);
    put32(b + pos + 4, 2);
    put32(b + pos + 8, (uint32_t)sec2); /* snarkjs keeps the low 32 bits only */
    put32(b + pos + 12, 0);
    pos += 16;
    for (uint32_t i = 0; i < c->witness_size; i++, pos += n8) {
        uint64_t arg = i;
        uint32_t w[SP_CIRCOM_MAX_N32];
        sp_status st = call(c, X_WITNESS, &arg, NULL, err);
        if (st == SP_OK && !read_shared(c, w)) {
            snprintf(err, SP_ERR_LEN, "circom: %.240s", c->in->trap);
            st = SP_ERR_FORMAT;
        }
        if (st != SP_OK) {
            sp_huge_free(b);
            return st;
        }
        for (uint32_t j = 0; j < c->n32; j++)
            put32(b + pos + 4 * j, w[j]);
    }
    *out = b;
    *out_len = 4 * words;
    return SP_OK;
}

sp_status sp_circom_witness(sp_circom *c, const char *input, size_t input_len, uint8_t **wtns, size_t *wtns_len,
                            char err[SP_ERR_LEN])
{
    sp_json_doc *doc;
    *wtns = NULL;
    *wtns_len = 0;
    sp_status st = sp_circom_parse_input(&doc, input, input_len, 0, err);
    if (st != SP_OK)
        return st;
    c->msgstr[0] = 0;
    st = set_inputs(c, sp_json_root(doc), err);
    sp_json_free(doc);
    if (st == SP_OK)
        st = write_wtns(c, wtns, wtns_len, err);
    return st;
}

/* ---- tests ---- */

/* How each native's arguments are made from the elements A, B, R in
 * test_op: 'A', 'B', 'R' an element's address, 'a', 'b', 'r' its limbs,
 * 's' the limbs n8 bytes after R's, 'k' a shift from B's first word (the
 * word itself when its top bit is set, else the word modulo 600, so that
 * both every limb and bit offset and shifts past the end are tried). */
static const struct {
    const char *name, *args;
} test_args_[] = {
    {"Fr_int_add", "abr"},    {"Fr_int_sub", "abr"},    {"Fr_int_gte", "ab"},   {"Fr_int_mul", "abr"},
    {"Fr_int_square", "ar"},  {"Fr_F1m_add", "abr"},    {"Fr_F1m_sub", "abr"},  {"Fr_F1m_mul", "abr"},
    {"Fr_F1m_square", "ar"},  {"Fr_F1m_toMontgomery", "ar"}, {"Fr_F1m_fromMontgomery", "ar"},
    {"Fr_copy", "RA"},        {"Fr_int_gt", "ab"},      {"Fr_int_eq", "ab"},    {"Fr_toNormal", "A"},
    {"Fr_isNegative", "A"},   {"Fr_getLsb32", "A"},     {"Fr_int_div", "abrs"},
    {"Fr_add", "RAB"},        {"Fr_sub", "RAB"},        {"Fr_mul", "RAB"},      {"Fr_toMontgomery", "A"},
    {"Fr_isTrue", "A"},       {"Fr_eqR", "AB"},         {"Fr_toInt", "A"},      {"Fr_gtR", "AB"},
    {"Fr_eq", "RAB"},         {"Fr_neq", "RAB"},        {"Fr_lt", "RAB"},       {"Fr_leq", "RAB"},
    {"Fr_gt", "RAB"},         {"Fr_geq", "RAB"},        {"Fr_band", "RAB"},     {"Fr_rawshrl", "rak"},
    {"Fr_rawshr", "RAk"},
};

const char *const sp_circom_native_names[] = {
    "Fr_int_add", "Fr_int_sub", "Fr_int_gte", "Fr_int_mul", "Fr_int_square", "Fr_F1m_add", "Fr_F1m_sub",
    "Fr_F1m_mul", "Fr_F1m_square", "Fr_F1m_toMontgomery", "Fr_F1m_fromMontgomery", "Fr_copy", "Fr_int_gt",
    "Fr_int_eq", "Fr_toNormal", "Fr_isNegative", "Fr_getLsb32", "Fr_int_div", "Fr_add", "Fr_sub", "Fr_mul",
    "Fr_toMontgomery", "Fr_isTrue", "Fr_eqR", "Fr_toInt", "Fr_gtR", "Fr_eq", "Fr_neq", "Fr_lt", "Fr_leq", "Fr_gt",
    "Fr_geq", "Fr_band", "Fr_rawshrl", "Fr_rawshr", NULL};

sp_status sp_circom_test_op(sp_circom *c, const char *name, int natives, const uint8_t *a, const uint8_t *b,
                            uint8_t *out, uint64_t *ret, char err[SP_ERR_LEN])
{
    size_t len, n8 = 4u * c->n32, el = 8 + 2 * n8;
    uint8_t *mem = sp_wasm_memory(c->in, &len);
    int f = sp_wasm_func_by_name(c->m, name);
    const char *spec = NULL;
    for (size_t k = 0; k < sizeof test_args_ / sizeof test_args_[0]; k++)
        if (!strcmp(test_args_[k].name, name))
            spec = test_args_[k].args;
    if (f < 0 || !spec || len < 3 * el) {
        snprintf(err, SP_ERR_LEN, "circom: no function %s", name);
        return SP_ERR_INVALID_ARG;
    }
    size_t pa = len - 3 * el, pb = pa + el, pr = pb + el; /* the top of memory */
    memcpy(mem + pa, a, 8 + n8);
    memcpy(mem + pb, b, 8 + n8);
    memset(mem + pr, 0, el);
    uint64_t args[4];
    for (int k = 0; spec[k]; k++) {
        char ch = spec[k];
        if (ch == 'k') {
            uint32_t w;
            memcpy(&w, b, 4);
            args[k] = w >> 31 ? w : w % 600;
            continue;
        }
        size_t base = ch == 'A' || ch == 'a' ? pa : ch == 'B' || ch == 'b' ? pb : pr;
        args[k] = base + (ch >= 'a' ? 8 : 0) + (ch == 's' ? n8 : 0);
    }
    *ret = 0;
    sp_wasm_enable_natives(c->in, natives && c->natives_on);
    sp_status st = sp_wasm_call(c->in, f, args, ret, err);
    sp_wasm_enable_natives(c->in, c->natives_on);
    mem = sp_wasm_memory(c->in, &len);
    memcpy(out, mem + pr, el);
    memcpy(out + el, mem + pa, 8 + n8);
    memcpy(out + el + 8 + n8, mem + pb, 8 + n8);
    return st;
}
