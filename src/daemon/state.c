/*
 * The state directory (state.h): what must survive a crash, a kill -9
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
#include "daemon/state.h"
#include "daemon/log.h"
#include "util/file.h"

int sp_dmn_state_on(const sp_dmn *d) { return d->cfg.state_dir[0] != 0; }

double sp_dmn_state_now_unix_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

void sp_dmn_state_path(char *out, size_t n, const sp_dmn *d, const char *sub, const char *name)
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
    sp_dmn_state_path(p, sizeof p, d, "daemon.lock", NULL);
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
    sp_dmn_state_path(p, sizeof p, d, "paused", NULL);
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
        sp_dmn_state_path(p, sizeof p, d, subs[i], NULL);
        if (mkdir(p, 0700) != 0 && errno != EEXIST) {
            snprintf(err, SP_ERR_LEN, "state_dir %.200s: %s", p, strerror(errno));
            return SP_ERR_IO;
        }
    }
    if (fsync_dir(d->cfg.state_dir) != 0) {
        snprintf(err, SP_ERR_LEN, "state_dir %.200s: %s", d->cfg.state_dir, strerror(errno));
        return SP_ERR_IO;
    }
    sp_dmn_state_path(d->upload_dir, sizeof d->upload_dir, d, "uploads", NULL);
    return SP_OK;
}

sp_status sp_dmn_state_put(sp_dmn *d, const char *sub, const char *name, const struct iovec *iov, int n,
                           char err[SP_ERR_LEN])
{
    char path[SP_DMN_CONF_PATH + 200];
    sp_dmn_state_path(path, sizeof path, d, sub, name);
    sp_status st = sp_file_write_atomicv(path, iov, n, 0600, "cannot record in the state directory", err);
    if (st != SP_OK)
        SP_DMN_LOGE("%s", err);
    return st;
}

sp_status sp_dmn_state_del(sp_dmn *d, const char *sub, const char *name, char err[SP_ERR_LEN])
{
    char dir[SP_DMN_CONF_PATH + 32], path[SP_DMN_CONF_PATH + 200];
    if (name)
        sp_dmn_state_path(dir, sizeof dir, d, sub, NULL);
    else /* a file directly in state_dir */
        snprintf(dir, sizeof dir, "%s", d->cfg.state_dir);
    sp_dmn_state_path(path, sizeof path, d, sub, name);
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
    sp_dmn_state_path(dir, sizeof dir, d, sub, NULL);
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
    sp_dmn_state_path(path, sizeof path, d, sub, name);
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
        sp_dmn_state_path(path, sizeof path, d, sub, names[i]);
        SP_DMN_LOGI("state: removing the leftover %s/%s", sub, names[i]);
        unlink(path);
    }
    sp_dmn_state_list_free(names, n);
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

/* ---- jobs ---- */

sp_status sp_dmn_state_job_save(sp_dmn *d, const djob *j, const uint8_t *const *w, const size_t *wlen,
                                const sp_dmn_native_input *inputs, char err[SP_ERR_LEN])
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
