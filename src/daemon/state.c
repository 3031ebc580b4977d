/*
 * The state directory (internal.h): what must survive a crash, a kill -9
 * or a power loss, one file per thing so that every change costs one
 * small write whatever the number of things:
 *
 *   state_dir/circuits/<id>.json   a circuit registered through the API
 *                                  or uploaded: {id, zkey|params, r1cs?,
 *                                  wasm?, preload, source, native?,
 *                                  native_params?} (daemon/native.h)
 *   state_dir/uploads/<id>.<tag>.<ext>   the uploaded files
 *   state_dir/jobs/<job id>.job    an accepted job's inputs: one line of
 *                                  JSON {id, circuit, priority, request_id,
 *                                  submitted_ms, lengths: [...]}, then the
 *                                  .wtns files back to back (a circuit
 *                                  with its .wasm: input_json true, and
 *                                  the input.json texts); a native
 *                                  circuit's job: the line holds inputs:
 *                                  [{seed, partition}, ...] instead of
 *                                  lengths, and nothing follows it
 *   state_dir/jobs/<job id>.result a finished job: one line of JSON
 *                                  {id, status, done_ms, payload (the
 *                                  SHA-256 of its circuit and inputs,
 *                                  hex)}, then its result
 *   state_dir/paused               there while dispatch is paused
 *   state_dir/daemon.lock          flock'ed by the daemon using the
 *                                  directory; holds its pid
 *
 * Every file is written by sp_file_write_atomicv (util/file.h): whole to
 * a temporary file beside it (mode 0600: jobs hold witnesses), fsync'ed,
 * renamed over <name>, and the directory fsync'ed: after a crash a file
 * is there complete or not at all, and once a write returned SP_OK it
 * survives a power loss. A job file is durable before the client hears 202; the
 * result replaces it when the job ends (a job without a result runs again
 * after a restart, under the same id). A failed write is an error to the
 * caller, who undoes the change it was recording.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>
#include "daemon/internal.h"
#include "daemon/log.h"
#include "util/file.h"

int sp_dmn_state_on(const sp_dmn *d) { return d->cfg.state_dir[0] != 0; }

double sp_dmn_state_now_unix_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void sub_path(char *out, size_t n, const sp_dmn *d, const char *sub, const char *name)
{
    snprintf(out, n, "%.400s/%.20s%s%.100s", d->cfg.state_dir, sub, name ? "/" : "", name ? name : "");
}

static int fsync_dir(const char *dir)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    int rc = fsync(fd);
    close(fd);
    return rc;
}

sp_status sp_dmn_state_lock(sp_dmn *d, char err[SP_ERR_LEN])
{
    char p[SP_DMN_CONF_PATH + 32], pid[32] = "";
    if (mkdir(d->cfg.state_dir, 0700) != 0 && errno != EEXIST) {
        snprintf(err, SP_ERR_LEN, "state_dir %.200s: %s", d->cfg.state_dir, strerror(errno));
        return SP_ERR_IO;
    }
    sub_path(p, sizeof p, d, "daemon.lock", NULL);
    int fd = open(p, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0) {
        snprintf(err, SP_ERR_LEN, "state_dir lock %.200s: %s", p, strerror(errno));
        return SP_ERR_IO;
    }
    /* flock: released by the kernel when the process ends, however it ends */
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        int e = errno;
        ssize_t k = pread(fd, pid, sizeof pid - 1, 0);
        pid[k > 0 ? strcspn(pid, "\n") : 0] = 0;
        close(fd);
        if (e == EWOULDBLOCK)
            snprintf(err, SP_ERR_LEN, "state_dir %.150s is in use by another daemon (pid %.20s); one state "
                     "directory serves one daemon", d->cfg.state_dir, pid[0] ? pid : "unknown");
        else
            snprintf(err, SP_ERR_LEN, "state_dir lock %.200s: %s", p, strerror(e));
        return SP_ERR_IO;
    }
    int n = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
    if (ftruncate(fd, 0) != 0 || pwrite(fd, pid, (size_t)n, 0) != n)
        SP_DMN_LOGW("state_dir lock %s: cannot record this pid: %s", p, strerror(errno));
    d->state_lock_fd = fd;
    return SP_OK;
}

sp_status sp_dmn_state_set_paused(sp_dmn *d, int paused, char err[SP_ERR_LEN])
{
    if (!sp_dmn_state_on(d))
        return SP_OK;
    struct iovec v = {(void *)"paused\n", 7};
    return paused ? sp_dmn_state_put(d, "paused", NULL, &v, 1, err) : sp_dmn_state_del(d, "paused", NULL, err);
}

int sp_dmn_state_paused(sp_dmn *d)
{
    char p[SP_DMN_CONF_PATH + 32];
    struct stat st;
    sub_path(p, sizeof p, d, "paused", NULL);
    return sp_dmn_state_on(d) && lstat(p, &st) == 0;
}

sp_status sp_dmn_state_init(sp_dmn *d, char err[SP_ERR_LEN])
{
    static const char *subs[] = {"circuits", "jobs", "uploads"};
    char p[SP_DMN_CONF_PATH + 32];
    if (mkdir(d->cfg.state_dir, 0700) != 0 && errno != EEXIST) {
        snprintf(err, SP_ERR_LEN, "state_dir %.200s: %s", d->cfg.state_dir, strerror(errno));
        return SP_ERR_IO;
    }
    for (int i = 0; i < 3; i++) {
        sub_path(p, sizeof p, d, subs[i], NULL);
        if (mkdir(p, 0700) != 0 && errno != EEXIST) {
            snprintf(err, SP_ERR_LEN, "state_dir %.200s: %s", p, strerror(errno));
            return SP_ERR_IO;
        }
    }
    if (fsync_dir(d->cfg.state_dir) != 0) {
        snprintf(err, SP_ERR_LEN, "state_dir %.200s: %s", d->cfg.state_dir, strerror(errno));
        return SP_ERR_IO;
    }
    sub_path(d->upload_dir, sizeof d->upload_dir, d, "uploads", NULL);
    return SP_OK;
}

sp_status sp_dmn_state_put(sp_dmn *d, const char *sub, const char *name, const struct iovec *iov, int n,
                           char err[SP_ERR_LEN])
{
    char path[SP_DMN_CONF_PATH + 200];
    sub_path(path, sizeof path, d, sub, name);
    sp_status st = sp_file_write_atomicv(path, iov, n, 0600, "cannot record in the state directory", err);
    if (st != SP_OK)
        SP_DMN_LOGE("%s", err);
    return st;
}

sp_status sp_dmn_state_del(sp_dmn *d, const char *sub, const char *name, char err[SP_ERR_LEN])
{
    char dir[SP_DMN_CONF_PATH + 32], path[SP_DMN_CONF_PATH + 200];
    if (name)
        sub_path(dir, sizeof dir, d, sub, NULL);
    else /* a file directly in state_dir */
        snprintf(dir, sizeof dir, "%s", d->cfg.state_dir);
    sub_path(path, sizeof path, d, sub, name);
    if ((unlink(path) != 0 && errno != ENOENT) || fsync_dir(dir) != 0) {
        snprintf(err, SP_ERR_LEN, "cannot remove %s/%s from the state directory: %s", sub, name, strerror(errno));
        SP_DMN_LOGE("%s", err);
        return SP_ERR_IO;
    }
    return SP_OK;
}

static int cmp_names(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

size_t sp_dmn_state_list(sp_dmn *d, const char *sub, const char *suffix, char ***names)
{
    char dir[SP_DMN_CONF_PATH + 32];
    sub_path(dir, sizeof dir, d, sub, NULL);
    *names = NULL;
    DIR *dh = opendir(dir);
    size_t n = 0, cap = 0, sl = strlen(suffix);
    struct dirent *e;
    while (dh && (e = readdir(dh))) {
        size_t l = strlen(e->d_name);
        if (e->d_name[0] == '.' || l <= sl || strcmp(e->d_name + l - sl, suffix))
            continue;
        if (n == cap) {
            char **nn = realloc(*names, (cap = cap ? 2 * cap : 64) * sizeof *nn);
            if (!nn)
                break;
            *names = nn;
        }
        if (((*names)[n] = strdup(e->d_name)))
            n++;
    }
    if (dh)
        closedir(dh);
    if (n)
        qsort(*names, n, sizeof **names, cmp_names);
    return n;
}

void sp_dmn_state_list_free(char **names, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

uint8_t *sp_dmn_state_read(sp_dmn *d, const char *sub, const char *name, size_t *len, char err[SP_ERR_LEN])
{
    char path[SP_DMN_CONF_PATH + 200];
    sub_path(path, sizeof path, d, sub, name);
    int fd;
    uint64_t size;
    *len = 0;
    if (sp_file_open_regular(&fd, &size, path, "state", err) != SP_OK)
        return NULL;
    uint8_t *b = malloc(size + 1);
    size_t got = 0;
    while (b && got < size) {
        ssize_t k = read(fd, b + got, size - got);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        got += (size_t)k;
    }
    close(fd);
    if (!b || got != size) {
        snprintf(err, SP_ERR_LEN, "%.200s: %s", path, b ? "short read" : "out of memory");
        free(b);
        return NULL;
    }
    b[size] = 0;
    *len = size;
    return b;
}

/* Removes every file of sub ending in suffix that keep() does not want. */
void sp_dmn_state_sweep(sp_dmn *d, const char *sub, const char *suffix, int (*keep)(sp_dmn *, const char *))
{
    char **names;
    size_t n = sp_dmn_state_list(d, sub, suffix, &names);
    char path[SP_DMN_CONF_PATH + 200];
    for (size_t i = 0; i < n; i++) {
        if (keep && keep(d, names[i]))
            continue;
        sub_path(path, sizeof path, d, sub, names[i]);
        SP_DMN_LOGI("state: removing the leftover %s/%s", sub, names[i]);
        unlink(path);
    }
    sp_dmn_state_list_free(names, n);
}

/* keep() of the sweeps of temporary files a crash left behind:
 * sp_file_write_atomicv's, and "<name>.tmp", which the daemon wrote itself
 * before it used util/file.h. */
static int not_leftover(sp_dmn *d, const char *name)
{
    size_t l = strlen(name);
    return !sp_file_is_atomic_tmp(name) && !(l > 4 && !strcmp(name + l - 4, ".tmp"));
}

/* ---- circuits ---- */

static const char *source_name(sp_dmn_circ_source s)
{
    return s == SP_DMN_SRC_CONFIG ? "config" : s == SP_DMN_SRC_UPLOAD ? "upload" : "api";
}

sp_status sp_dmn_state_circuit_save(sp_dmn *d, const dcircuit *c, char err[SP_ERR_LEN])
{
    if (!sp_dmn_state_on(d) || c->source == SP_DMN_SRC_CONFIG)
        return SP_OK;
    sp_json_writer w;
    sp_jw_init(&w, 0);
    sp_jw_begin_object(&w);
    sp_jw_key(&w, "id");
    sp_jw_string(&w, c->id);
    sp_jw_key(&w, *c->zkey ? "zkey" : "params");
    sp_jw_string(&w, *c->zkey ? c->zkey : c->params);
    if (*c->r1cs) {
        sp_jw_key(&w, "r1cs");
        sp_jw_string(&w, c->r1cs);
    }
    if (*c->wasm) {
        sp_jw_key(&w, "wasm");
        sp_jw_string(&w, c->wasm);
    }
    sp_jw_key(&w, "preload");
    sp_jw_bool(&w, c->preload);
    sp_jw_key(&w, "source");
    sp_jw_string(&w, source_name(c->source));
    if (sp_dmn_native_on(&c->native))
        sp_dmn_native_json(&w, &c->native);
    sp_jw_end_object(&w);
    char *text = NULL, name[80];
    size_t len = 0;
    if (sp_jw_finish(&text, &len, &w) != SP_OK) {
        snprintf(err, SP_ERR_LEN, "out of memory");
        return SP_ERR_NOMEM;
    }
    snprintf(name, sizeof name, "%s.json", c->id);
    struct iovec v = {text, len};
    sp_status st = sp_dmn_state_put(d, "circuits", name, &v, 1, err);
    free(text);
    return st;
}

sp_status sp_dmn_state_circuit_drop(sp_dmn *d, const dcircuit *c, char err[SP_ERR_LEN])
{
    if (!sp_dmn_state_on(d) || c->source == SP_DMN_SRC_CONFIG)
        return SP_OK;
    char name[80];
    snprintf(name, sizeof name, "%s.json", c->id);
    return sp_dmn_state_del(d, "circuits", name, err);
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

void sp_dmn_state_restore_circuits(sp_dmn *d)
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

sp_status sp_dmn_state_job_save(sp_dmn *d, const djob *j, const uint8_t *const *w, const size_t *wlen,
                                const sp_porep_input *inputs, char err[SP_ERR_LEN])
{
    if (!sp_dmn_state_on(d))
        return SP_OK;
    sp_json_writer jw;
    sp_jw_init(&jw, 0);
    sp_jw_begin_object(&jw);
    sp_jw_key(&jw, "id");
    sp_jw_string(&jw, j->id);
    sp_jw_key(&jw, "circuit");
    sp_jw_string(&jw, j->circuit_id);
    sp_jw_key(&jw, "priority");
    char num[32];
    snprintf(num, sizeof num, "%d", j->priority);
    sp_jw_number(&jw, num);
    sp_jw_key(&jw, "request_id");
    sp_jw_string(&jw, j->request_id);
    sp_jw_key(&jw, "submitted_ms");
    sp_jw_double(&jw, j->t_submit_unix);
    if (inputs) {
        sp_jw_key(&jw, "inputs");
        sp_dmn_native_inputs_json(&jw, inputs, j->n_parts);
    } else {
        if (j->json_in) {
            sp_jw_key(&jw, "input_json");
            sp_jw_bool(&jw, 1);
        }
        sp_jw_key(&jw, "lengths");
        sp_jw_begin_array(&jw);
        for (size_t k = 0; k < j->n_parts; k++)
            sp_jw_u64(&jw, wlen[k]);
        sp_jw_end_array(&jw);
    }
    sp_jw_end_object(&jw);
    char *head = NULL, name[64];
    size_t hl = 0;
    struct iovec *v = calloc(j->n_parts + 2, sizeof *v);
    if (!v || sp_jw_finish(&head, &hl, &jw) != SP_OK) {
        free(v);
        snprintf(err, SP_ERR_LEN, "out of memory");
        return SP_ERR_NOMEM;
    }
    v[0] = (struct iovec){head, hl};
    v[1] = (struct iovec){"\n", 1};
    for (size_t k = 0; w && k < j->n_parts; k++)
        v[k + 2] = (struct iovec){(void *)w[k], wlen[k]};
    snprintf(name, sizeof name, "%s.job", j->id);
    sp_status st = sp_dmn_state_put(d, "jobs", name, v, w ? (int)j->n_parts + 2 : 2, err);
    free(head);
    free(v);
    return st;
}

sp_status sp_dmn_state_job_result(sp_dmn *d, const djob *j, double done_unix_ms, char err[SP_ERR_LEN])
{
    if (!sp_dmn_state_on(d))
        return SP_OK;
    char head[300], name[64], hex[65] = "";
    for (int i = 0; j->has_payload && i < 32; i++)
        snprintf(hex + 2 * i, 3, "%02x", j->payload[i]);
    int hl = snprintf(head, sizeof head, "{\"id\":\"%s\",\"status\":%d,\"done_ms\":%.0f,\"payload\":\"%s\"}\n", j->id,
                      (int)j->status, done_unix_ms, hex);
    struct iovec v[2] = {{head, (size_t)hl}, {j->result, j->result_len}};
    snprintf(name, sizeof name, "%s.result", j->id);
    return sp_dmn_state_put(d, "jobs", name, v, 2, err);
}

void sp_dmn_state_job_forget(sp_dmn *d, const char *id, const char *ext)
{
    if (!sp_dmn_state_on(d))
        return;
    char path[SP_DMN_CONF_PATH + 100];
    snprintf(path, sizeof path, "%s/jobs/%s%s", d->cfg.state_dir, id, ext);
    /* no fsync: a result that comes back after a crash expires again, and a
     * job file next to its result is dropped at the restart */
    if (unlink(path) != 0 && errno != ENOENT)
        SP_DMN_LOGE("cannot remove %s: %s", path, strerror(errno));
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
    sp_porep_input *inputs = NULL;
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
        sub_path(path, sizeof path, d, "jobs", names[i]);
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

void sp_dmn_state_restore_jobs(sp_dmn *d)
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
