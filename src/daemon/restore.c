/*
 * What the state directory holds, restored at start (services.h): the
 * circuits registered through the API or uploaded, then the accepted jobs
 * (run again under their ids) and the finished ones' results. state.c
 * writes and reads the files; this file gives what they hold to the
 * registry and the job table, above both.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "daemon/services.h"
#include "daemon/log.h"
#include "util/file.h"

/* ---- circuits ---- */

/* keep() of the sweeps of temporary files a crash left behind:
 * sp_file_write_atomicv's, and "<name>.tmp", which the daemon wrote itself
 * before it used util/file.h. */
static int not_leftover(sp_dmn *d, const char *name)
{
    size_t l = strlen(name);
    return !sp_file_is_atomic_tmp(name) && !(l > 4 && !strcmp(name + l - 4, ".tmp"));
}

static const char *jstr(const sp_json_val *o, const char *k)
{
    const sp_json_val *v = sp_json_get(o, k);
    return v && v->type == SP_JSON_STRING ? v->text : NULL;
}

/* Registers the circuit object o (from a state file); persist: also
 * write its own file (migration from the old single file). */
static void restore_circuit(sp_dmn *d, const sp_json_val *o, const char *from, int persist)
{
    char err[SP_ERR_LEN];
    const sp_json_val *pl = sp_json_get(o, "preload");
    const char *src = jstr(o, "source");
    sp_dmn_native nat;
    reg_spec s = {jstr(o, "id"), jstr(o, "zkey"), jstr(o, "params"), jstr(o, "r1cs"), !pl || pl->type == SP_JSON_TRUE,
                  src && !strcmp(src, "upload") ? SP_DMN_SRC_UPLOAD : SP_DMN_SRC_API, !persist, &nat, jstr(o, "wasm")};
    int code = o->type != SP_JSON_OBJECT ? 400
             : sp_dmn_native_from_json(&nat, sp_json_get(o, "native"), sp_json_get(o, "native_params"), err) ? 422
             : sp_dmn_reg_add(d, &s, err);
    if (code != 201)
        SP_DMN_LOGE("%s: circuit %s not restored: %s", from, s.id ? s.id : "(no id)",
                    o->type == SP_JSON_OBJECT ? err : "not an object");
}

/* The single circuits.json of earlier versions: its circuits get files of their own. */
static void migrate_circuits_json(sp_dmn *d)
{
    char err[SP_ERR_LEN];
    size_t len;
    uint8_t *text = sp_dmn_state_read(d, "circuits.json", NULL, &len, err);
    if (!text)
        return;
    sp_json_doc *doc = NULL;
    const sp_json_val *arr = NULL;
    if (sp_json_parse(&doc, (const char *)text, len, NULL, err, sizeof err) == SP_OK &&
        (arr = sp_json_get(sp_json_root(doc), "circuits")) && arr->type == SP_JSON_ARRAY) {
        for (size_t i = 0; i < arr->n; i++)
            restore_circuit(d, arr->items[i], "circuits.json", 1);
        if (sp_dmn_state_del(d, "circuits.json", NULL, err) == SP_OK)
            SP_DMN_LOGI("state: circuits.json moved to one file per circuit");
    } else {
        SP_DMN_LOGE("state: circuits.json unreadable (%s); left in place", err);
    }
    sp_json_free(doc);
    free(text);
}

/* An upload file is kept while a circuit file names it. */
static int upload_in_use(sp_dmn *d, const char *name)
{
    char path[SP_DMN_CONF_PATH + 300];
    snprintf(path, sizeof path, "%s/%s", d->upload_dir, name);
    pthread_mutex_lock(&d->reg.mu);
    int used = 0;
    for (const dcircuit *c = d->reg.head; c && !used; c = c->next)
        used = c->source == SP_DMN_SRC_UPLOAD && (!strcmp(c->zkey, path) || !strcmp(c->params, path) ||
                                                  !strcmp(c->r1cs, path) || !strcmp(c->wasm, path));
    pthread_mutex_unlock(&d->reg.mu);
    return used;
}

void sp_dmn_restore_circuits(sp_dmn *d)
{
    if (!sp_dmn_state_on(d))
        return;
    char **names, err[SP_ERR_LEN];
    size_t n = sp_dmn_state_list(d, "circuits", ".json", &names);
    double t0 = sp_dmn_wire_now_ms();
    for (size_t i = 0; i < n; i++) {
        size_t len;
        uint8_t *text = sp_dmn_state_read(d, "circuits", names[i], &len, err);
        sp_json_doc *doc = NULL;
        if (text && sp_json_parse(&doc, (const char *)text, len, NULL, err, sizeof err) == SP_OK)
            restore_circuit(d, sp_json_root(doc), names[i], 0);
        else
            SP_DMN_LOGE("state: circuits/%s unreadable: %s", names[i], err);
        sp_json_free(doc);
        free(text);
    }
    if (n)
        SP_DMN_LOGI("state: %zu circuit file(s) read in %.0f ms", n, sp_dmn_wire_now_ms() - t0);
    sp_dmn_state_list_free(names, n);
    migrate_circuits_json(d);
    sp_dmn_state_sweep(d, "circuits", "", not_leftover); /* a write a crash cut short */
    sp_dmn_state_sweep(d, "uploads", "", upload_in_use); /* uploads a crash left unrecorded */
}

/* ---- jobs ---- */

/* Job ids are ours ("j<n>.<tag>"); a file name that is not one is not read. */
static int valid_job_id(const char *id, size_t n)
{
    return n > 0 && n < 40 && strspn(id, "abcdefghijklmnopqrstuvwxyz0123456789.") >= n;
}

/* The first line of a job or result file, parsed; *body the bytes after it. */
static sp_json_doc *read_head(const uint8_t *text, size_t len, const uint8_t **body, char err[SP_ERR_LEN])
{
    const uint8_t *nl = memchr(text, '\n', len);
    sp_json_doc *doc = NULL;
    if (!nl) {
        snprintf(err, SP_ERR_LEN, "no header line");
        return NULL;
    }
    if (sp_json_parse(&doc, (const char *)text, (size_t)(nl - text), NULL, err, SP_ERR_LEN) != SP_OK)
        return NULL;
    if (sp_json_root(doc)->type != SP_JSON_OBJECT) {
        snprintf(err, SP_ERR_LEN, "header is not an object");
        sp_json_free(doc);
        return NULL;
    }
    *body = nl + 1;
    return doc;
}

static double jnum(const sp_json_val *o, const char *k)
{
    const sp_json_val *v = sp_json_get(o, k);
    return v && v->type == SP_JSON_NUMBER ? strtod(v->text, NULL) : 0;
}

/* A finished job's result file: adopted while its result_ttl runs, else removed. */
static void restore_result(sp_dmn *d, const char *name, double now_unix)
{
    char err[SP_ERR_LEN], id[64];
    size_t len, nl = strlen(name) - strlen(".result");
    snprintf(id, sizeof id, "%.*s", (int)nl, name);
    uint8_t *text = valid_job_id(id, nl) ? sp_dmn_state_read(d, "jobs", name, &len, err) : NULL;
    const uint8_t *body = NULL;
    sp_json_doc *doc = text ? read_head(text, len, &body, err) : NULL;
    const sp_json_val *h = doc ? sp_json_root(doc) : NULL;
    double done = h ? jnum(h, "done_ms") : 0;
    const sp_json_val *ph = h ? sp_json_get(h, "payload") : NULL;
    uint8_t payload[32];
    int has_payload = ph && ph->type == SP_JSON_STRING && ph->n == 64;
    for (int i = 0; has_payload && i < 32; i++) {
        unsigned v;
        has_payload = sscanf(ph->text + 2 * i, "%2x", &v) == 1;
        payload[i] = (uint8_t)v;
    }
    if (h && now_unix - done < (double)d->cfg.result_ttl_ms) {
        size_t blen = len - (size_t)(body - text);
        sp_dmn_jobs_adopt_result(d, id, (sp_status)(int)jnum(h, "status"), (const char *)body, blen, now_unix - done,
                                 has_payload ? payload : NULL);
    } else {
        if (!h)
            SP_DMN_LOGE("state: jobs/%s unreadable (%s); removed", name, text ? err : "cannot read it");
        sp_dmn_state_job_forget(d, id, ".result");
    }
    sp_json_free(doc);
    free(text);
}

/* A witness job's .wtns files: their lengths in the header, their bytes
 * after it (all of them: a byte more or less is a damaged file). */
static int witness_files(const sp_json_val *h, const uint8_t *body, size_t body_len, const uint8_t ***w, size_t **wl,
                         size_t *n)
{
    const sp_json_val *ls = sp_json_get(h, "lengths");
    size_t total = 0;
    *n = ls && ls->type == SP_JSON_ARRAY ? ls->n : 0;
    *w = calloc(*n + 1, sizeof **w);
    *wl = calloc(*n + 1, sizeof **wl);
    for (size_t k = 0; *w && *wl && k < *n; k++) {
        const sp_json_val *x = ls->items[k];
        (*wl)[k] = x->type == SP_JSON_NUMBER ? (size_t)strtoull(x->text, NULL, 10) : 0;
        if ((*wl)[k] > body_len) /* keeps the sum from wrapping; the total check below refuses it */
            (*wl)[k] = body_len + 1;
        (*w)[k] = body + total;
        total += (*wl)[k];
    }
    return *n && *w && *wl && total == body_len ? 0 : -1;
}

/* An accepted job without a result: submitted again under its id. */
static void restore_job(sp_dmn *d, const char *name)
{
    char err[SP_ERR_LEN] = "", id[64];
    size_t len = 0, nl = strlen(name) - strlen(".job");
    snprintf(id, sizeof id, "%.*s", (int)nl, name);
    if (!valid_job_id(id, nl)) {
        SP_DMN_LOGE("state: jobs/%s is not a job file of this daemon; left alone", name);
        return;
    }
    if (sp_dmn_jobs_get_quiet(d, id)) { /* its result is there: it finished before the crash */
        sp_dmn_state_job_forget(d, id, ".job");
        return;
    }
    uint8_t *text = sp_dmn_state_read(d, "jobs", name, &len, err);
    const uint8_t *body = NULL;
    sp_json_doc *doc = text ? read_head(text, len, &body, err) : NULL;
    const sp_json_val *h = doc ? sp_json_root(doc) : NULL, *ins = h ? sp_json_get(h, "inputs") : NULL;
    const char *circ = h ? jstr(h, "circuit") : NULL, *rid = h ? jstr(h, "request_id") : NULL;
    const uint8_t **w = NULL;
    size_t *wl = NULL, n = 0, body_len = h ? len - (size_t)(body - text) : 0;
    sp_dmn_native_input *inputs = NULL;
    char why[SP_ERR_LEN] = "";
    if (h && ins) { /* a native circuit's job: everything is in the header */
        if (sp_dmn_native_inputs(&inputs, &n, ins, why) == 0 && body_len)
            snprintf(why, sizeof why, "bytes after the header");
        if (why[0])
            snprintf(err, SP_ERR_LEN, "the job file is malformed: %.200s", why);
    } else if (h && witness_files(h, body, body_len, &w, &wl, &n)) {
        snprintf(err, SP_ERR_LEN, "the job file is incomplete or malformed");
    }
    if (h && !circ)
        snprintf(err, SP_ERR_LEN, "the job file names no circuit");
    const sp_json_val *ij = h ? sp_json_get(h, "input_json") : NULL;
    restore_spec rs = {id, circ ? circ : "", rid ? rid : "", h ? (int)jnum(h, "priority") : 0,
                       h ? jnum(h, "submitted_ms") : 0, w, wl, n, inputs, ij && ij->type == SP_JSON_TRUE};
    sp_dmn_jobs_restore(d, &rs, err[0] || !h ? (err[0] ? err : "unreadable") : NULL);
    free(inputs);
    free(w);
    free(wl);
    sp_json_free(doc);
    free(text);
}

typedef struct {
    struct timespec t;
    char *name;
} named_time;

static int cmp_time(const void *a, const void *b)
{
    const named_time *x = a, *y = b;
    if (x->t.tv_sec != y->t.tv_sec)
        return x->t.tv_sec < y->t.tv_sec ? -1 : 1;
    if (x->t.tv_nsec != y->t.tv_nsec)
        return x->t.tv_nsec < y->t.tv_nsec ? -1 : 1;
    return strcmp(x->name, y->name);
}

static void sort_by_mtime(sp_dmn *d, char **names, size_t n)
{
    named_time *v = calloc(n ? n : 1, sizeof *v);
    char path[SP_DMN_CONF_PATH + 200];
    for (size_t i = 0; v && i < n; i++) {
        struct stat st;
        sp_dmn_state_path(path, sizeof path, d, "jobs", names[i]);
        if (stat(path, &st) == 0)
            v[i].t = st.st_mtim;
        v[i].name = names[i];
    }
    if (v) {
        qsort(v, n, sizeof *v, cmp_time);
        for (size_t i = 0; i < n; i++)
            names[i] = v[i].name;
    }
    free(v);
}

void sp_dmn_restore_jobs(sp_dmn *d)
{
    if (!sp_dmn_state_on(d))
        return;
    sp_dmn_state_sweep(d, "jobs", "", not_leftover);
    char **names;
    double now = sp_dmn_state_now_unix_ms(), t0 = sp_dmn_wire_now_ms();
    size_t n = sp_dmn_state_list(d, "jobs", ".result", &names);
    for (size_t i = 0; i < n; i++)
        restore_result(d, names[i], now);
    sp_dmn_state_list_free(names, n);
    size_t m = sp_dmn_state_list(d, "jobs", ".job", &names);
    sort_by_mtime(d, names, m); /* the queue order of before: written as they were accepted */
    for (size_t i = 0; i < m; i++)
        restore_job(d, names[i]);
    sp_dmn_state_list_free(names, m);
    if (n || m)
        SP_DMN_LOGI("state: %zu finished and %zu accepted job(s) restored in %.0f ms", n, m, sp_dmn_wire_now_ms() - t0);
}
