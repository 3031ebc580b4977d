/*
 * The daemon (src/daemon): its codecs and configuration table in-process,
 * then its HTTP API against real `snarkpipe daemon` processes on a unix
 * socket and 127.0.0.1 (port 0):
 *   - base64 against the RFC 4648 vectors, config values, files, flags and
 *     --print-config round trips, multipart bodies, native circuits'
 *     parameters and job inputs in each of their forms;
 *   - several clients proving at once (prove, and submit + await; octet,
 *     multipart and JSON bodies), every proof checked here: the snarkjs
 *     JSON and the bellperson bytes verify against the key, with the
 *     public signals of the witness that was sent;
 *   - cancel of a queued and of a running job; evict refused (409) while a
 *     job holds the circuit, accepted after;
 *   - every malformed request: JSON, unknown circuit, witness of the wrong
 *     length, garbage witness, body over the limit (announced, and chunked),
 *     bad arguments, unknown routes and methods;
 *   - key tiers: cold registration, promotion on use, LRU demotion under a
 *     tiny budget;
 *   - bearer token: missing, wrong, right; a non-loopback listener without a
 *     token refuses to start.
 * The daemon binary is ../snarkpipe next to this program (make test builds it).
 */
#include "test_daemon.h"
#include "circuit/post.h"

/* This build's native kinds (daemon/ops.h). */
#define KINDS (sp_dmn_curve_ops.native)

/* ---- in-process units ---- */

static void test_base64(void)
{
    /* RFC 4648 section 10 */
    static const char *in[] = {"", "f", "fo", "foo", "foob", "fooba", "foobar"};
    static const char *out[] = {"", "Zg==", "Zm8=", "Zm9v", "Zm9vYg==", "Zm9vYmE=", "Zm9vYmFy"};
    for (int i = 0; i < 7; i++) {
        char b[16];
        uint8_t *d = NULL;
        size_t n = 0;
        sp_dmn_b64_encode(b, (const uint8_t *)in[i], strlen(in[i]));
        CHECKF(!strcmp(b, out[i]), "b64(%s) = %s", in[i], b);
        CHECK(sp_dmn_b64_len(strlen(in[i])) == strlen(out[i]));
        CHECK(sp_dmn_b64_decode(&d, &n, out[i], strlen(out[i])) == SP_OK && n == strlen(in[i]) && !memcmp(d, in[i], n));
        free(d);
    }
    static const char *bad[] = {"Zg=", "Z===", "Zh==", "Zm9=", "Zm 9", "Zm9v=Zm9", "Zg==Zg==", "****"};
    for (int i = 0; i < 8; i++) {
        uint8_t *d = NULL;
        size_t n = 0;
        CHECKF(sp_dmn_b64_decode(&d, &n, bad[i], strlen(bad[i])) == SP_ERR_BAD_ENCODING && !d, "'%s' accepted", bad[i]);
    }
    for (int it = 0; it < sp_test_iters(200); it++) { /* round trips of random lengths */
        uint8_t raw[300], *d = NULL;
        char b[420];
        size_t n = sp_rng_u64(&rng_) % sizeof raw, m = 0;
        for (size_t k = 0; k < n; k++)
            raw[k] = (uint8_t)sp_rng_u64(&rng_);
        sp_dmn_b64_encode(b, raw, n);
        CHECK(sp_dmn_b64_decode(&d, &m, b, strlen(b)) == SP_OK && m == n && !memcmp(d, raw, n));
        free(d);
    }
}

static void test_config_values(void)
{
    long ms;
    int v;
    /* Size options take util/bytes.h's syntax (test_util checks it in
     * full), plus "auto". */
    sp_dmn_conf bc;
    char berr[SP_ERR_LEN];
    sp_dmn_conf_defaults(&bc, &sp_dmn_curve_ops);
    CHECK(sp_dmn_conf_set(&bc, "engine", "budget", "512MiB", berr) == SP_OK &&
          bc.eng.budget_bytes == (size_t)512 << 20);
    CHECK(sp_dmn_conf_set(&bc, "keys", "hot_budget", "2G", berr) == SP_OK && bc.hot_budget == (size_t)2 << 30);
    CHECK(sp_dmn_conf_set(&bc, "engine", "budget", "AUTO", berr) == SP_OK && bc.eng.budget_bytes == 0);
    CHECK(sp_dmn_conf_set(&bc, "engine", "budget", "1000", berr) == SP_OK && bc.eng.budget_bytes == 1000);
    const char *bad_sizes[] = {"3GB", "1.5G", "-1", "10XB", "", "99999999999T", "autox"};
    for (size_t i = 0; i < sizeof bad_sizes / sizeof bad_sizes[0]; i++)
        CHECKF(sp_dmn_conf_set(&bc, "engine", "budget", bad_sizes[i], berr) == SP_ERR_INVALID_ARG &&
                   bc.eng.budget_bytes == 1000,
               "budget = \"%s\" accepted", bad_sizes[i]);
    sp_dmn_conf_free(&bc);
    CHECK(sp_dmn_conf_parse_ms(&ms, "30s") == 0 && ms == 30000);
    CHECK(sp_dmn_conf_parse_ms(&ms, "250ms") == 0 && ms == 250);
    CHECK(sp_dmn_conf_parse_ms(&ms, "5m") == 0 && ms == 300000);
    CHECK(sp_dmn_conf_parse_ms(&ms, "1h") == 0 && ms == 3600000);
    CHECK(sp_dmn_conf_parse_ms(&ms, "0") == 0 && ms == 0);
    CHECK(sp_dmn_conf_parse_ms(&ms, "5") != 0 && sp_dmn_conf_parse_ms(&ms, "s") != 0 &&
          sp_dmn_conf_parse_ms(&ms, "-3s") != 0);
    CHECK(sp_dmn_conf_parse_bool(&v, "yes") == 0 && v == 1 && sp_dmn_conf_parse_bool(&v, "Off") == 0 && v == 0);
    CHECK(sp_dmn_conf_parse_bool(&v, "2") != 0);
}

/* sp_dmn_conf_from_args on a NULL-terminated list. */
static sp_status conf_args(sp_dmn_conf *c, int *action, char err[SP_ERR_LEN], ...)
{
    char *argv[32] = {"daemon"};
    int argc = 1;
    va_list ap;
    va_start(ap, err);
    for (char *a; argc < 31 && (a = va_arg(ap, char *));)
        argv[argc++] = a;
    va_end(ap);
    return sp_dmn_conf_from_args(c, &sp_dmn_curve_ops, action, argc, argv, err);
}

static void test_config_files(void)
{
    char path[400], err[SP_ERR_LEN], pr[400];
    int action;
    sp_dmn_conf c;
    snprintf(path, sizeof path, "%s/a.conf", dir_);
    write_file(path, "; comment\n[engine]\nbudget = 1GiB\nverify_proofs = no\nmax_jobs = 77\n"
                     "[server]\nlisten = unix:/tmp/x.sock\nlisten = 127.0.0.1:9\nshutdown = cancel\nmax_wait = 2m\n"
                     "[keys]\nhot_budget = 64MiB\n[circuit.alpha]\nzkey = /k/a.zkey\npreload = no\n"
                     "[circuit.beta]\nparams = /k/b.params\nr1cs = /k/b.r1cs\n");
    CHECKF(conf_args(&c, &action, err, "--config", path, "--max-jobs=5", "--no-split-msm", NULL) == SP_OK, "%s", err);
    CHECK(action == 0 && c.eng.budget_bytes == (size_t)1 << 30 && c.eng.verify_proofs == 0 && c.eng.max_jobs == 5);
    CHECK(c.eng.split_msm == 0 && c.n_listen == 2 && !strcmp(c.listen[1], "127.0.0.1:9"));
    CHECK(c.shutdown == SP_DMN_SHUTDOWN_CANCEL && c.max_wait_ms == 120000 && c.hot_budget == (size_t)64 << 20);
    CHECK(c.n_circuits == 2 && !strcmp(c.circuits[0].id, "alpha") && c.circuits[0].preload == 0);
    CHECK(!strcmp(c.circuits[1].r1cs, "/k/b.r1cs") && c.circuits[1].preload == 1);
    /* --print-config is a configuration file that reads back the same */
    snprintf(pr, sizeof pr, "%s/printed.conf", dir_);
    FILE *f = fopen(pr, "w");
    sp_dmn_conf_print(f, &c);
    fclose(f);
    sp_dmn_conf c2;
    CHECKF(conf_args(&c2, &action, err, "--config", pr, NULL) == SP_OK, "%s", err);
    CHECK(c2.eng.max_jobs == 5 && c2.eng.split_msm == 0 && c2.n_listen == 2 && c2.n_circuits == 2);
    CHECK(c2.shutdown == SP_DMN_SHUTDOWN_CANCEL && c2.max_wait_ms == c.max_wait_ms &&
          c2.eng.budget_bytes == c.eng.budget_bytes);
    sp_dmn_conf_free(&c2);
    sp_dmn_conf_free(&c);
    /* flags replace the file's listeners; defaults otherwise */
    CHECK(conf_args(&c, &action, err, "--config", path, "--listen", "unix:/tmp/y", NULL) == SP_OK);
    CHECK(c.n_listen == 1 && !strcmp(c.listen[0], "unix:/tmp/y"));
    sp_dmn_conf_free(&c);
    /* errors name the line or the option */
    static const char *bad[][2] = {
        {"[engine]\nbudget = lots\n", ":2: budget"},          {"[server]\nbudget = 1G\n", "belongs in section [engine]"},
        {"[engine]\nmax_jobs = 1\nmax_jobs = 2\n", ":3:"},    {"[keys]\nnope = 1\n", "unknown option"},
        {"[circuit.x]\nzkey = /a\nparams = /b\n", "give zkey"}, {"[circuit.b@d]\nzkey = /a\n", "id is"},
        {"[server]\nlisten = nowhere\n", "listen"},            {"[engine]\nmax_parallel_synthesis = 0\n", "from 1"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        write_file(path, bad[i][0]);
        err[0] = 0;
        CHECKF(conf_args(&c, &action, err, "--config", path, NULL) == SP_ERR_INVALID_ARG && strstr(err, bad[i][1]),
               "case %zu: %s", i, err);
        sp_dmn_conf_free(&c);
    }
    CHECK(conf_args(&c, &action, err, "--bogus", NULL) == SP_ERR_INVALID_ARG && strstr(err, "--bogus"));
    sp_dmn_conf_free(&c);
    CHECK(conf_args(&c, &action, err, "--budget", NULL) == SP_ERR_INVALID_ARG && strstr(err, "needs a value"));
    sp_dmn_conf_free(&c);
    CHECK(conf_args(&c, &action, err, "--config", "/nonexistent/x.conf", NULL) == SP_ERR_IO);
    sp_dmn_conf_free(&c);
}

/* The [farm] options, and what is shown of a connection string. */
static void test_config_farm(void)
{
    char path[400], err[SP_ERR_LEN], out[SP_DMN_CONF_PATH * 2];
    int action;
    sp_dmn_conf c;
    snprintf(path, sizeof path, "%s/farm.conf", dir_);
    write_file(path, "[farm]\nqueue = host=/run/pg dbname=farm\nnode_id = gpu-1\nlease = 10s\npoll = 250ms\n"
                     "max_claims = 3\nmax_attempts = 7\ndb_connections = 2\n");
    CHECKF(conf_args(&c, &action, err, "--config", path, "--node-id", "gpu.2", NULL) == SP_OK, "%s", err);
    CHECK(!strcmp(c.queue, "host=/run/pg dbname=farm") && !strcmp(c.node_id, "gpu.2") && c.lease_ms == 10000);
    CHECK(c.poll_ms == 250 && c.max_claims == 3 && c.max_attempts == 7 && c.db_connections == 2);
    sp_dmn_conf_free(&c);
    CHECK(conf_args(&c, &action, err, NULL) == SP_OK && !*c.queue && c.lease_ms == 30000 && c.max_attempts == 5);
    sp_dmn_conf_free(&c); /* the default: one host, no database */
    CHECK(conf_args(&c, &action, err, "--node-id", "a b", NULL) == SP_ERR_INVALID_ARG && strstr(err, "node_id"));
    sp_dmn_conf_free(&c);
    CHECK(conf_args(&c, &action, err, "--lease", "10ms", NULL) == SP_ERR_INVALID_ARG && strstr(err, "lease"));
    sp_dmn_conf_free(&c);
    static const char *red[][2] = {
        {"postgresql://u:pw@h:5/db?sslmode=disable", "postgresql://u:***@h:5/db?sslmode=disable"},
        {"postgres://u@h/db?sslmode=disable&password=pw&x=1", "postgres://u@h/db?sslmode=disable&password=***&x=1"},
        {"host=h password=pw dbname=d", "host=h password=*** dbname=d"},
        {"password = 'p w\\'pw' dbname=d", "password = *** dbname=d"},
        {"host=/run/pg dbname=farm", "host=/run/pg dbname=farm"},
        {"postgresql://h:5432/db", "postgresql://h:5432/db"},
        {"postgresql://user:pw@[::1]:5/db", "postgresql://user:***@[::1]:5/db"},
    };
    for (size_t i = 0; i < sizeof red / sizeof red[0]; i++) {
        sp_dmn_conf_redact(out, sizeof out, red[i][0]);
        CHECKF(!strcmp(out, red[i][1]) && !strstr(out, "pw"), "case %zu: %s", i, out);
    }
}

/* Native circuits' forms (daemon/native.h): a configuration's text, the
 * JSON of a request and of a state file mean the same circuit; job inputs
 * round-trip at their limits and every bad one is refused. */
static void test_native_forms(void)
{
    char err[SP_ERR_LEN];
    sp_dmn_native a, b;
    sp_dmn_native_init(&a);
    const char *kv[][2] = {{"native", "porep-like"}, {"preset", "8MiB"}, {"nodes", "16"}, {"layers", "3"},
                           {"challenges", "1"}, {"label_parents", "20"}};
    for (size_t i = 0; i < 6; i++)
        CHECKF(sp_dmn_native_set(&a, kv[i][0], kv[i][1], err) == 1, "%s: %s", kv[i][0], err);
    CHECK(sp_dmn_native_set(&a, "zkey", "/k", err) == 0);            /* not a native key: left to the caller */
    CHECK(sp_dmn_native_set(&a, "layers", "+3", err) == -1 && strstr(err, "layers"));
    CHECK(sp_dmn_native_set(&a, "nodes", "18446744073709551616", err) == -1);
    CHECK(sp_dmn_native_set(&a, "native", "porep", err) == -1 && strstr(err, "unknown native circuit"));
    sp_json_writer w;
    char *text = NULL;
    size_t len = 0;
    sp_json_doc *doc = NULL;
    sp_jw_init(&w, 0);
    sp_jw_begin_object(&w);
    sp_dmn_native_json(&w, &a);
    sp_jw_end_object(&w);
    CHECK(sp_jw_finish(&text, &len, &w) == SP_OK);
    CHECK(text && strstr(text, "\"native_params\":{\"preset\":\"8MiB\",\"challenges\":1,\"layers\":3,\"nodes\":16,"));
    CHECK(text && sp_json_parse(&doc, text, len, NULL, err, sizeof err) == SP_OK);
    const sp_json_val *o = doc ? sp_json_root(doc) : NULL;
    CHECK(o && sp_dmn_native_from_json(&b, sp_json_get(o, "native"), sp_json_get(o, "native_params"), err) == 0);
    CHECK(sp_dmn_native_equal(&a, &b));
    sp_dmn_native_circ *nc = NULL;
#if SP_CURVE_BN254 /* porep-like is BLS12-381's: its forms are read, the circuit is refused */
    CHECKF(sp_dmn_native_check(&b, KINDS, err) == SP_ERR_INVALID_ARG && strstr(err, "bls12-381's"), "%s", err);
    CHECKF(sp_dmn_native_open(&nc, &b, KINDS, err) != SP_OK && !nc && strstr(err, "bls12-381's"), "%s", err);
#else
    sp_porep_params pb;
    sp_porep_overrides ov = {1, 3, 16, SP_POREP_UNSET, SP_POREP_UNSET, 20};
    sp_porep *pc = NULL;
    CHECK(sp_dmn_native_check(&b, KINDS, err) == SP_OK && sp_dmn_native_open(&nc, &b, KINDS, err) == SP_OK);
    CHECK(sp_porep_params_from(&pb, "8MiB", &ov, err) == SP_OK && sp_porep_open(&pc, &pb, err) == SP_OK);
    if (nc && pc) { /* what the CLI's --preset 8MiB --nodes 16 ... means: the same circuit */
        const sp_native_circuit *x = sp_dmn_native_nc(nc), *y = sp_porep_native(pc);
        CHECK(x->n_vars == y->n_vars && x->n_rows == y->n_rows && x->n_public == y->n_public);
        CHECK(!strcmp(sp_dmn_native_preset(nc), pb.preset) && !strcmp(sp_dmn_native_kind(nc), "porep-like"));
    }
    sp_porep_close(pc);
    b.v[2] = 12; /* nodes: not a power of two */
    CHECK(!sp_dmn_native_equal(&a, &b) && sp_dmn_native_check(&b, KINDS, err) == SP_ERR_INVALID_ARG);
    /* window-post-like: its own parameters, resolved as the CLI's --kind window-post-like ... */
    sp_dmn_native p;
    sp_dmn_native_init(&p);
    sp_post_params qa;
    sp_post *qc = NULL;
    sp_dmn_native_circ *pn = NULL;
    CHECK(sp_dmn_native_set(&p, "sectors", "2", err) == 1 && sp_dmn_native_set(&p, "native", "window-post-like", err)
          == 1 && sp_dmn_native_set(&p, "challenges", "2", err) == 1 && sp_dmn_native_set(&p, "nodes", "64", err) == 1);
    CHECKF(sp_dmn_native_open(&pn, &p, KINDS, err) == SP_OK, "%s", err);
    CHECK(sp_post_params_from(&qa, NULL, 2, 2, 64, err) == SP_OK && sp_post_open(&qc, &qa, err) == SP_OK);
    if (pn && qc) {
        const sp_native_circuit *x = sp_dmn_native_nc(pn), *y = sp_post_native(qc);
        CHECK(x->n_vars == y->n_vars && x->n_rows == y->n_rows && x->n_public == y->n_public);
        CHECK(!strcmp(sp_dmn_native_kind(pn), "window-post-like") && !strcmp(sp_dmn_native_preset(pn), qa.preset));
    }
    sp_post_close(qc);
    sp_dmn_native_close(pn);
    CHECK(sp_dmn_native_set(&p, "layers", "2", err) == 1 && sp_dmn_native_check(&p, KINDS, err) == SP_ERR_INVALID_ARG &&
          strstr(err, "window-post-like takes no parameter 'layers'"));
    sp_dmn_native_init(&p);
    CHECK(sp_dmn_native_set(&p, "native", "porep-like", err) == 1 && sp_dmn_native_set(&p, "sectors", "2", err) == 1 &&
          sp_dmn_native_check(&p, KINDS, err) == SP_ERR_INVALID_ARG &&
          strstr(err, "porep-like takes no parameter 'sectors'"));
#endif
    sp_dmn_native_close(nc);
    sp_dmn_native_init(&b);
    b.v[2] = 4;
    CHECK(sp_dmn_native_given(&b) && sp_dmn_native_check(&b, KINDS, err) == SP_ERR_INVALID_ARG &&
          strstr(err, "without"));
    sp_json_free(doc);
    free(text);
    static const char *bad_params[] = {"{\"native\":1}", "{\"native_params\":[]}",
                                       "{\"native_params\":{\"nodes\":-4}}", "{\"native_params\":{\"nodes\":4.0}}",
                                       "{\"native_params\":{\"preset\":2}}", "{\"native_params\":{\"sector\":1}}"};
    for (size_t i = 0; i < sizeof bad_params / sizeof bad_params[0]; i++) {
        CHECK(sp_json_parse(&doc, bad_params[i], strlen(bad_params[i]), NULL, err, sizeof err) == SP_OK);
        o = sp_json_root(doc);
        CHECKF(sp_dmn_native_from_json(&b, sp_json_get(o, "native"), sp_json_get(o, "native_params"), err) == -1,
               "%s accepted", bad_params[i]);
        sp_json_free(doc);
    }
    /* inputs: the limits round-trip, the seed's string form means the same */
    const char *good = "[{\"seed\":18446744073709551615,\"partition\":4294967295},{\"partition\":0,\"seed\":\"7\"}]";
    sp_dmn_native_input *in = NULL;
    size_t n = 0;
    CHECK(sp_json_parse(&doc, good, strlen(good), NULL, err, sizeof err) == SP_OK);
    CHECK(sp_dmn_native_inputs(&in, &n, sp_json_root(doc), err) == 0 && n == 2 && in[0].seed == UINT64_MAX &&
          in[0].partition == UINT32_MAX && in[1].seed == 7 && in[1].partition == 0);
    sp_json_free(doc);
    sp_jw_init(&w, 0);
    sp_dmn_native_inputs_json(&w, in, n);
    CHECK(sp_jw_finish(&text, &len, &w) == SP_OK && text &&
          !strcmp(text, "[{\"seed\":18446744073709551615,\"partition\":4294967295},{\"seed\":7,\"partition\":0}]"));
    free(text);
    free(in);
    static const char *bad_inputs[] = {"[]", "{}", "[1]", "[{\"seed\":1}]", "[{\"seed\":-1,\"partition\":0}]",
                                       "[{\"seed\":1e3,\"partition\":0}]", "[{\"seed\":\" 1\",\"partition\":0}]",
                                       "[{\"seed\":\"\",\"partition\":0}]", "[{\"seed\":\"18446744073709551616\",\"partition\":0}]",
                                       "[{\"seed\":1,\"partition\":4294967296}]", "[{\"seed\":1,\"partition\":\"0\"}]",
                                       "[{\"seed\":1,\"partition\":0,\"x\":0}]", "[{\"seed\":1,\"partition\":0},null]"};
    for (size_t i = 0; i < sizeof bad_inputs / sizeof bad_inputs[0]; i++) {
        CHECK(sp_json_parse(&doc, bad_inputs[i], strlen(bad_inputs[i]), NULL, err, sizeof err) == SP_OK);
        CHECKF(sp_dmn_native_inputs(&in, &n, sp_json_root(doc), err) == -1 && !in && n == 0, "%s accepted",
               bad_inputs[i]);
        sp_json_free(doc);
    }
}

static void test_form(void)
{
    static const char body[] = "preamble\r\n--XyZ\r\nContent-Disposition: form-data; name=\"circuit\"\r\n\r\nabc\r\n"
                               "--XyZ\r\nContent-Disposition: form-data; name=\"witness\"; filename=\"w.wtns\"\r\n"
                               "Content-Type: application/octet-stream\r\n\r\n\r\n--Xy\0Z--\r\n--XyZ--\r\n";
    sp_dmn_form_part *p = NULL;
    size_t n = 0;
    char err[SP_ERR_LEN];
    CHECKF(sp_dmn_form_parse(&p, &n, "multipart/form-data; boundary=\"XyZ\"", (const uint8_t *)body, sizeof body - 1,
                             err) == SP_OK, "%s", err);
    CHECK(n == 2 && !strcmp(p[0].name, "circuit") && p[0].len == 3 && !memcmp(p[0].data, "abc", 3));
    CHECK(n == 2 && !strcmp(p[1].name, "witness") && !strcmp(p[1].filename, "w.wtns") && p[1].len == 10 &&
          !memcmp(p[1].data, "\r\n--Xy\0Z--", 10));
    CHECK(sp_dmn_form_get(p, n, "witness") == &p[1] && sp_dmn_form_get(p, n, "x") == NULL);
    free(p);
    static const char *bad[] = {"--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nno end",
                                "--XyZ\r\nContent-Type: text/plain\r\n\r\nx\r\n--XyZ--", "nothing here"};
    for (int i = 0; i < 3; i++)
        CHECK(sp_dmn_form_parse(&p, &n, "multipart/form-data; boundary=XyZ", (const uint8_t *)bad[i], strlen(bad[i]),
                                err) == SP_ERR_BAD_ENCODING && !p);
    CHECK(sp_dmn_form_parse(&p, &n, "application/json", (const uint8_t *)body, 10, err) == SP_ERR_BAD_ENCODING);
}

/* ---- several clients at once ---- */

typedef struct {
    const sp_dmn_addr *a;
    circ *c;
    int t, ok;
} worker;

static void *worker_fn(void *arg)
{
    worker *wk = arg;
    for (int k = 0; k < 3; k++) {
        size_t idx = (size_t)wk->t * 3 + (size_t)k, len = 0;
        sp_dmn_http_resp r;
        char target[128], id[64];
        char *body = NULL;
        int st = -1;
        snprintf(target, sizeof target, "/v1/%s?circuit=A&request_id=w%d-%d", wk->t < 2 ? "prove" : "jobs", wk->t, k);
        if (wk->t == 0 || wk->t == 3) /* one raw .wtns body */
            st = call(wk->a, "POST", target, "application/octet-stream", wk->c->wtns[idx], wk->c->wtns_len[idx], &r);
        else if (wk->t == 1) { /* JSON with base64 */
            body = json_jobs(&len, "A", &wk->c->wtns[idx], &wk->c->wtns_len[idx], 1);
            st = call(wk->a, "POST", target, "application/json", body, len, &r);
        } else { /* multipart */
            const char *fields[] = {"priority", "3", NULL};
            body = multipart(&len, fields, &wk->c->wtns[idx], &wk->c->wtns_len[idx], 1);
            st = call(wk->a, "POST", target, MP_CT, body, len, &r);
        }
        free(body);
        if (st == 202) { /* submitted: await it */
            job_id(&r, id, sizeof id);
            sp_dmn_http_resp_free(&r);
            snprintf(target, sizeof target, "/v1/jobs/%s?wait_ms=60000", id);
            st = call(wk->a, "GET", target, NULL, NULL, 0, &r);
        }
        sp_json_doc *doc = st == 200 ? parse_resp(&r) : NULL;
        if (doc)
            wk->ok += check_result(wk->c, sp_json_root(doc), (const sp_fr *const *)&wk->c->w[idx], 1);
        else
            fprintf(stderr, "worker %d job %d: HTTP %d %s\n", wk->t, k, st, r.body ? r.body : "");
        sp_json_free(doc);
        sp_dmn_http_resp_free(&r);
    }
    return NULL;
}

static void test_concurrent(const proc *p, circ *a)
{
    pthread_t th[4];
    worker wk[4];
    for (int t = 0; t < 4; t++) {
        wk[t] = (worker){t % 2 ? &p->tcp : &p->ux, a, t, 0};
        pthread_create(&th[t], NULL, worker_fn, &wk[t]);
    }
    int total = 0;
    for (int t = 0; t < 4; t++) {
        pthread_join(th[t], NULL);
        CHECKF(wk[t].ok == 3, "client %d: %d of 3 proofs verified", t, wk[t].ok);
        total += wk[t].ok;
    }
    printf("  concurrent clients: %d of 12 proofs verified (JSON and bellperson)\n", total);
}

/* ---- malformed requests ---- */

/* A chunked body over the limit, on a raw connection: the answer's status. */
static int chunked_too_large(const sp_dmn_addr *a, size_t bytes)
{
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un su = {0};
    su.sun_family = AF_UNIX;
    snprintf(su.sun_path, sizeof su.sun_path, "%s", a->path);
    if (connect(fd, (struct sockaddr *)&su, sizeof su) != 0)
        return -1;
    const char *head = "POST /v1/jobs?circuit=A HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n"
                       "Content-Type: application/octet-stream\r\nConnection: close\r\n\r\n";
    ssize_t w = send(fd, head, strlen(head), MSG_NOSIGNAL);
    char chunk[65536 + 16];
    size_t n = snprintf(chunk, sizeof chunk, "10000\r\n");
    memset(chunk + n, 'x', 65536);
    memcpy(chunk + n + 65536, "\r\n", 2);
    for (size_t sent = 0; w > 0 && sent < bytes; sent += 65536)
        w = send(fd, chunk, n + 65538, MSG_NOSIGNAL);
    if (w > 0)
        w = send(fd, "0\r\n\r\n", 5, MSG_NOSIGNAL);
    char resp[64] = "";
    ssize_t k = recv(fd, resp, sizeof resp - 1, 0);
    close(fd);
    int st = 0;
    return k > 12 && sscanf(resp, "HTTP/1.1 %d", &st) == 1 ? st : -1;
}

static void test_malformed(const proc *p, circ *a, circ *b)
{
    const sp_dmn_addr *x = &p->ux;
    char garbage[4000], path[400];
    for (size_t i = 0; i < sizeof garbage; i++)
        garbage[i] = (char)sp_rng_u64(&rng_);
    /* registration */
    expect(x, "POST", "/v1/circuits", "application/json", "{\"id\": \"Z\", \"zkey\": ", -1, 400, "malformed_json");
    expect(x, "POST", "/v1/circuits", "application/json", "[1]", -1, 400, "malformed_json");
    expect(x, "POST", "/v1/circuits", "text/plain", "hi", -1, 415, "unsupported_media_type");
    expect(x, "POST", "/v1/circuits", "application/json", "{\"id\":\"Z\"}", -1, 400, "bad_request");
    expect(x, "POST", "/v1/circuits", "application/json", "{\"id\":\"b d\",\"zkey\":\"/x\"}", -1, 400, "bad_request");
    char body[600];
    snprintf(body, sizeof body, "{\"id\":\"A\",\"zkey\":\"%s\"}", a->zkey);
    expect(x, "POST", "/v1/circuits", "application/json", body, strlen(body), 409, "circuit_exists");
    snprintf(body, sizeof body, "{\"id\":\"Z\",\"zkey\":\"%s/missing.zkey\"}", dir_);
    expect(x, "POST", "/v1/circuits", "application/json", body, strlen(body), 400, "bad_request");
    snprintf(path, sizeof path, "%s/garbage.zkey", dir_);
    FILE *f = fopen(path, "wb");
    fwrite(garbage, 1, sizeof garbage, f);
    fclose(f);
    snprintf(body, sizeof body, "{\"id\":\"Z\",\"zkey\":\"%s\"}", path);
    expect(x, "POST", "/v1/circuits", "application/json", body, strlen(body), 422, "bad_key");
    /* jobs */
    expect(x, "POST", "/v1/jobs?circuit=nope", "application/octet-stream", a->wtns[0], a->wtns_len[0], 404,
           "unknown_circuit");
    expect(x, "POST", "/v1/prove?circuit=nope", "application/octet-stream", a->wtns[0], a->wtns_len[0], 404,
           "unknown_circuit");
    expect(x, "POST", "/v1/jobs?circuit=A", "application/octet-stream", b->wtns[0], b->wtns_len[0], 400, "bad_witness");
    expect(x, "POST", "/v1/jobs?circuit=A", "application/octet-stream", garbage, sizeof garbage, 400, "bad_witness");
    expect(x, "POST", "/v1/jobs?circuit=A", "application/octet-stream", "", 0, 400, "bad_witness");
    expect(x, "POST", "/v1/jobs", "application/octet-stream", a->wtns[0], a->wtns_len[0], 400, "bad_request");
    expect(x, "POST", "/v1/jobs?circuit=A&priority=abc", "application/octet-stream", a->wtns[0], a->wtns_len[0], 400,
           "bad_request");
    expect(x, "POST", "/v1/jobs", "application/json", "{\"circuit\":\"A\",\"witnesses\":[\"@@@@\"]}", -1, 400,
           "bad_witness");
    expect(x, "POST", "/v1/jobs", "application/json", "{\"circuit\":\"A\",\"witnesses\":", -1, 400, "malformed_json");
    expect(x, "POST", "/v1/jobs", MP_CT, "--BoUnDaRy7\r\nno", -1, 400, "bad_request");
    /* size limit (max_body 2 MiB here): announced, refused before the body travels; then chunked */
    size_t big = (size_t)3 << 20;
    char *huge = calloc(1, big);
    sp_dmn_http_resp r;
    CHECK(call(x, "POST", "/v1/jobs?circuit=A", "application/octet-stream", huge, big, &r) == 413 && !r.body_sent);
    CHECK(strstr(r.body ? r.body : "", "\"body_too_large\"") != NULL);
    sp_dmn_http_resp_free(&r);
    free(huge);
    CHECK(chunked_too_large(x, (size_t)3 << 20) == 413);
    /* routes and arguments */
    expect(x, "GET", "/v1/jobs/nope", NULL, NULL, 0, 404, "unknown_job");
    expect(x, "DELETE", "/v1/jobs/nope", NULL, NULL, 0, 404, "unknown_job");
    expect(x, "GET", "/v1/jobs/nope?wait_ms=-5", NULL, NULL, 0, 400, "bad_request");
    expect(x, "GET", "/v1/nothing", NULL, NULL, 0, 404, "not_found");
    expect(x, "PUT", "/v1/jobs", NULL, NULL, 0, 405, "method_not_allowed");
    expect(x, "DELETE", "/v1/circuits/nope", NULL, NULL, 0, 404, "unknown_circuit");
    /* a witness that breaks a constraint: the job fails (422 from prove, with its result) */
    size_t blen = 0;
    sp_fr *bw = fx_bad_witness(&a->fx, a->w[0]);
    uint8_t *bb = wtns_bytes(bw, a->fx.cs.h.n_wires, &blen);
    expect(x, "POST", "/v1/prove?circuit=A", "application/octet-stream", bb, blen, 422, "unsatisfied");
    free(bw);
    free(bb);
    /* the daemon is still fine */
    expect(x, "GET", "/healthz", NULL, NULL, 0, 200, "");
}

/* ---- cancel, evict ---- */

/* GET /v1/jobs/id?wait_ms=w: the "status" member into out; the HTTP status. */
static int job_status(const sp_dmn_addr *a, const char *id, long wait_ms, char *out, size_t n, sp_json_doc **keep)
{
    char target[160];
    sp_dmn_http_resp r;
    snprintf(target, sizeof target, "/v1/jobs/%s?wait_ms=%ld", id, wait_ms);
    int st = call(a, "GET", target, NULL, NULL, 0, &r);
    sp_json_doc *doc = parse_resp(&r);
    snprintf(out, n, "%s", doc ? jstr(sp_json_root(doc), "status") : "");
    if (keep)
        *keep = doc;
    else
        sp_json_free(doc);
    sp_dmn_http_resp_free(&r);
    return st;
}

/* DELETE /v1/jobs/id: was_running (0/1), or -1 when not cancelled. */
static int cancel_job(const sp_dmn_addr *a, const char *id)
{
    char target[160];
    sp_dmn_http_resp r;
    snprintf(target, sizeof target, "/v1/jobs/%s", id);
    int st = call(a, "DELETE", target, NULL, NULL, 0, &r), res = -1;
    sp_json_doc *doc = st == 200 ? parse_resp(&r) : NULL;
    const sp_json_val *c = doc ? sp_json_get(sp_json_root(doc), "cancelled") : NULL,
                      *w = doc ? sp_json_get(sp_json_root(doc), "was_running") : NULL;
    if (c && c->type == SP_JSON_TRUE && w)
        res = w->type == SP_JSON_TRUE;
    sp_json_free(doc);
    sp_dmn_http_resp_free(&r);
    return res;
}

static void test_cancel_queued_and_evict(const proc *p, circ *a)
{
    const sp_dmn_addr *x = &p->ux;
    char id[64], st[32], code[64];
    sp_dmn_http_resp r;
    expect(x, "POST", "/v1/pause", NULL, NULL, 0, 200, "");
    CHECK(call(x, "POST", "/v1/jobs?circuit=A&request_id=q1", "application/octet-stream", a->wtns[0], a->wtns_len[0],
               &r) == 202);
    job_id(&r, id, sizeof id);
    sp_dmn_http_resp_free(&r);
    sp_json_doc *doc = NULL;
    CHECK(job_status(x, id, 100, st, sizeof st, &doc) == 200 && !strcmp(st, "pending"));
    const sp_json_val *ps = doc ? sp_json_get(sp_json_root(doc), "partition_states") : NULL;
    CHECK(ps && ps->n == 1 && !strcmp(ps->items[0]->text, "queued"));
    sp_json_free(doc);
    CHECK(job_status(x, "q1", 0, st, sizeof st, NULL) == 200 && !strcmp(st, "pending")); /* by request id */
    expect(x, "POST", "/v1/jobs?circuit=A&request_id=q1", "application/octet-stream", a->wtns[1], a->wtns_len[1], 409,
           "duplicate_request_id");
    expect(x, "DELETE", "/v1/circuits/A", NULL, NULL, 0, 409, "in_use");
    CHECK(cancel_job(x, id) == 0); /* cancelled, was queued */
    CHECK(job_status(x, id, 20000, st, sizeof st, NULL) == 200 && !strcmp(st, "cancelled"));
    CHECK(cancel_job(x, id) == -1); /* already finished */
    CHECK(call_err(x, "DELETE", "/v1/circuits/A", NULL, NULL, 0, code, sizeof code) == 200);
    expect(x, "POST", "/v1/jobs?circuit=A", "application/octet-stream", a->wtns[0], a->wtns_len[0], 404,
           "unknown_circuit");
    expect(x, "POST", "/v1/resume", NULL, NULL, 0, 200, "");
    CHECK(register_zkey(x, "A", a->zkey, 1) == 201);
}

static void test_cancel_running(const proc *p, circ *big, circ *a)
{
    const sp_dmn_addr *x = &p->tcp;
    size_t len;
    const char *fields[] = {"circuit", "C", NULL};
    char *body = multipart(&len, fields, big->wtns, big->wtns_len, big->nw), id[64], st[32];
    sp_dmn_http_resp r;
    CHECK(call(x, "POST", "/v1/jobs", MP_CT, body, len, &r) == 202);
    free(body);
    job_id(&r, id, sizeof id);
    sp_dmn_http_resp_free(&r);
    int running = 0;
    for (int i = 0; i < 1000 && !running; i++) { /* at most 20 s */
        sp_json_doc *doc = NULL;
        job_status(x, id, 0, st, sizeof st, &doc);
        const sp_json_val *ps = doc ? sp_json_get(sp_json_root(doc), "partition_states") : NULL;
        for (size_t k = 0; ps && k < ps->n; k++)
            running |= strcmp(ps->items[k]->text, "queued") != 0;
        sp_json_free(doc);
        if (!running)
            usleep(20000);
    }
    CHECK(running);
    CHECK(cancel_job(x, id) == 1); /* cancelled while running */
    CHECK(job_status(x, id, 30000, st, sizeof st, NULL) == 200 && !strcmp(st, "cancelled"));
    /* and the daemon proves on */
    CHECK(call(x, "POST", "/v1/prove?circuit=A", "application/octet-stream", a->wtns[0], a->wtns_len[0], &r) == 200);
    sp_json_doc *doc = parse_resp(&r);
    CHECK(doc && check_result(a, sp_json_root(doc), (const sp_fr *const *)&a->w[0], 1) == 1);
    sp_json_free(doc);
    sp_dmn_http_resp_free(&r);
}

/* ---- status, metrics ---- */

static void test_status_metrics(const proc *p)
{
    sp_dmn_http_resp r;
    CHECK(call(&p->ux, "GET", "/metrics", NULL, NULL, 0, &r) == 200);
    const char *m = r.body ? r.body : "";
    const char *pc = strstr(m, "snarkpipe_proofs_completed_total{circuit=\"A\"} ");
    /* A was evicted and registered again: its counters restarted (one proof since) */
    CHECKF(pc && atoi(pc + strlen("snarkpipe_proofs_completed_total{circuit=\"A\"} ")) == 1, "metrics:\n%.600s", m);
    CHECK(strstr(m, "snarkpipe_stage_duration_seconds_bucket{stage=\"synthesis\",le=\"+Inf\"}") != NULL);
    CHECK(strstr(m, "snarkpipe_queue_depth{queue=\"dispatch\"}") && strstr(m, "snarkpipe_device_busy_ratio{device=\"cpu") &&
          strstr(m, "snarkpipe_device_preemptions_total{device=\"cpu"));
    CHECK(strstr(m, "\nsnarkpipe_finish_preemptions_total ") != NULL);
    CHECK(strstr(m, "snarkpipe_jobs_cancelled_total{circuit=\"C\"} 1") != NULL);
    CHECK(strstr(m, "snarkpipe_http_responses_total{code=\"413\"} 2") != NULL);
    sp_dmn_http_resp_free(&r);
    CHECK(call(&p->tcp, "GET", "/v1/status", NULL, NULL, 0, &r) == 200);
    sp_json_doc *doc = parse_resp(&r);
    const sp_json_val *o = doc ? sp_json_root(doc) : NULL;
    const sp_json_val *cs = o ? sp_json_get(sp_json_get(o, "keys"), "circuits") : NULL;
    const sp_json_val *lanes = o ? sp_json_get(sp_json_get(o, "waterfall"), "lanes") : NULL;
    CHECK(cs && cs->n >= 2 && *jstr(cs->items[0], "tier"));
    CHECK(lanes && lanes->n >= 4 && o && sp_json_get(sp_json_get(o, "memory"), "budget_bytes"));
    CHECK(o && sp_json_get(o, "queues") && sp_json_get(o, "devices") && sp_json_get(o, "jobs"));
    const sp_json_val *dv = o ? sp_json_get(o, "devices") : NULL;
    CHECK(dv && dv->n >= 1 && sp_json_get(dv->items[0], "preemptions"));
    CHECK(o && sp_json_get(sp_json_get(o, "totals"), "finish_preemptions"));
    sp_json_free(doc);
    sp_dmn_http_resp_free(&r);
    CHECK(call(&p->ux, "GET", "/", NULL, NULL, 0, &r) == 200 && strstr(r.body, "/v1/status") &&
          strstr(r.content_type, "text/html"));
    sp_dmn_http_resp_free(&r);
}

/* ---- residency tiers ---- */

static void test_tiers(circ *a, circ *b)
{
    proc p = {0};
    const char *extra[] = {"--hot-budget", "1", "--warm-budget", "1", NULL};
    char t[16];
    sp_dmn_http_resp r;
    if (start(&p, "tiers", extra)) {
        CHECK(0);
        return;
    }
    CHECK(register_zkey(&p.ux, "A", a->zkey, 1) == 201);
    CHECK(register_zkey(&p.ux, "B", b->zkey, 0) == 201);
    tier_of(&p.ux, "A", t, sizeof t);
    CHECKF(!strcmp(t, "hot"), "A is %s", t);
    tier_of(&p.ux, "B", t, sizeof t);
    CHECKF(!strcmp(t, "cold"), "B is %s", t);
    CHECK(call(&p.ux, "POST", "/v1/prove?circuit=B", "application/octet-stream", b->wtns[0], b->wtns_len[0], &r) == 200);
    sp_json_doc *doc = parse_resp(&r);
    CHECK(doc && check_result(b, sp_json_root(doc), (const sp_fr *const *)&b->w[0], 1) == 1);
    sp_json_free(doc);
    sp_dmn_http_resp_free(&r);
    CHECKF(loads_of(&p.ux, "B") == 1, "B was loaded %ld times to prove", loads_of(&p.ux, "B"));
    tier_of(&p.ux, "A", t, sizeof t);
    CHECKF(strcmp(t, "hot") != 0, "A still hot over the budget");
    for (int i = 0; i < 100 && strcmp(t, "cold"); i++) { /* the warm budget demotes it at a tick */
        usleep(50000);
        tier_of(&p.ux, "A", t, sizeof t);
    }
    CHECKF(!strcmp(t, "cold"), "A is %s, not cold", t);
    CHECK(call(&p.ux, "POST", "/v1/prove?circuit=A", "application/octet-stream", a->wtns[1], a->wtns_len[1], &r) == 200);
    doc = parse_resp(&r);
    CHECK(doc && check_result(a, sp_json_root(doc), (const sp_fr *const *)&a->w[1], 1) == 1);
    sp_json_free(doc);
    sp_dmn_http_resp_free(&r);
    CHECKF(loads_of(&p.ux, "A") == 2, "A was loaded %ld times (preload, then again to prove)", loads_of(&p.ux, "A"));
    tier_of(&p.ux, "B", t, sizeof t);
    CHECK(strcmp(t, "hot") != 0);
    CHECK(stop(&p, SIGTERM) == 0);
}

/* ---- auth ---- */

static void test_auth(circ *a)
{
    proc p = {0};
    char tf[400], code[64];
    snprintf(tf, sizeof tf, "%s/token", dir_);
    write_file(tf, "s3cret-token-0123456789abcdef\n");
    chmod(tf, 0600);
    const char *extra[] = {"--token-file", tf, NULL};
    if (start(&p, "auth", extra)) {
        CHECK(0);
        return;
    }
    sp_dmn_http_resp r;
    CHECK(call(&p.tcp, "GET", "/v1/status", NULL, NULL, 0, &r) == 401 && strstr(r.www_authenticate, "Bearer"));
    sp_dmn_http_resp_free(&r);
    token_ = "s3cret-token-0123456789abcdeX";
    CHECK(call_err(&p.tcp, "GET", "/v1/status", NULL, NULL, 0, code, sizeof code) == 401 && !strcmp(code, "unauthorized"));
    CHECK(call_err(&p.ux, "POST", "/v1/prove?circuit=A", "application/octet-stream", a->wtns[0], a->wtns_len[0], code,
                   sizeof code) == 401);
    token_ = "s3cret-token-0123456789abcdef";
    CHECK(call_err(&p.tcp, "GET", "/v1/status", NULL, NULL, 0, code, sizeof code) == 200);
    CHECK(call_err(&p.tcp, "GET", "/metrics", NULL, NULL, 0, code, sizeof code) == 200);
    token_ = NULL;
    CHECK(call_err(&p.tcp, "GET", "/healthz", NULL, NULL, 0, code, sizeof code) == 200); /* open */
    CHECK(call_err(&p.tcp, "GET", "/", NULL, NULL, 0, code, sizeof code) == 200);
    CHECK(stop(&p, SIGINT) == 0);
    /* a listener on a non-loopback address needs a token (or --insecure); nothing is bound */
    proc q = {0};
    snprintf(q.log, sizeof q.log, "%s/open.log", dir_);
    q.pid = fork();
    if (q.pid == 0) {
        int fd = open(q.log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        dup2(fd, 2);
        execl(bin_, bin_, "daemon", "--listen", "0.0.0.0:0", NULL);
        _exit(127);
    }
    int st = 0;
    waitpid(q.pid, &st, 0);
    size_t n = 0;
    uint8_t *log = sp_test_slurp(q.log, &n);
    CHECKF(WIFEXITED(st) && WEXITSTATUS(st) == 64 && log && strstr((char *)log, "refusing to listen"),
           "exit %d: %s", WEXITSTATUS(st), log ? (char *)log : "");
    free(log);
}

int main(int argc, char **argv)
{
    sp_test_begin("test_daemon", &rng_);
    snprintf(bin_, sizeof bin_, "%.500s/../snarkpipe", dirname_of(argv[0]));
    if (access(bin_, X_OK) != 0) {
        fprintf(stderr, "test_daemon: %s not found (make builds it)\n", bin_);
        return 1;
    }
    snprintf(dir_, sizeof dir_, "%s/sp_test_daemon.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(dir_))
        return 1;
    test_base64();
    test_config_values();
    test_config_files();
    test_config_farm();
    test_native_forms();
    test_form();

    circ a, b, big;
    circ_make(&a, "A", 64, 2, 12);
    circ_make(&b, "B", 40, 1, 2);
    circ_make(&big, "C", 4096, 1, 6);
    proc p = {0};
    const char *extra[] = {"--max-body", "2MiB", NULL};
    if (start(&p, "main", extra) == 0) {
        CHECK(register_zkey(&p.ux, "A", a.zkey, 1) == 201);
        CHECK(register_zkey(&p.tcp, "C", big.zkey, 0) == 201);
        test_malformed(&p, &a, &b);
        test_concurrent(&p, &a);
        test_cancel_queued_and_evict(&p, &a);
        test_cancel_running(&p, &big, &a);
        test_status_metrics(&p);
        CHECK(stop(&p, SIGTERM) == 0);
    } else {
        CHECK(0);
    }
    test_tiers(&a, &b);
    test_auth(&a);
    if (sp_test_failures)
        show_log(&p);
    else {
        char cmd[400];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir_);
        if (system(cmd) != 0)
            fprintf(stderr, "could not remove %s\n", dir_);
    }
    circ_free(&a);
    circ_free(&b);
    circ_free(&big);
    return sp_test_done();
}
