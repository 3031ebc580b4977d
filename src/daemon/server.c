/*
 * The daemon's life (daemon.h): configuration, listeners, engine, the
 * signal loop on the main thread, and an orderly shutdown.
 *
 * Shutdown. The first SIGTERM/SIGINT stops new jobs (503) and then, by
 * server.shutdown, either lets the jobs in flight finish (drain, at most
 * server.drain_timeout, then cancel) or cancels them at once; a second
 * signal cancels. When no job is left: waits end, the listeners stop
 * (their connection threads are joined), keys are unregistered, the
 * engine is destroyed, sockets and temporary uploads are removed.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <netdb.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>
#include "daemon/daemon.h"
#include "daemon/api.h"
#include "daemon/log.h"
#include "daemon/farm/queue.h"
#include "util/curves.h"
#include "util/file.h"
#include "util/rng.h"

enum { EXIT_OK_ = 0, EXIT_RUNTIME_ = 2, EXIT_USAGE_ = 64 };

/* The daemon's token file through the one reader (wire.h), with its
 * warnings: a file others can read, a short token. */
static sp_status load_token(char *out, size_t out_len, const char *path, char err[SP_ERR_LEN])
{
    int shared = 0;
    sp_status st = sp_dmn_read_token(out, out_len, &shared, path, err);
    if (st == SP_OK && shared)
        SP_DMN_LOGW("token file %s can be read by other users (chmod 600 it)", path);
    if (st == SP_OK && strlen(out) < 16)
        SP_DMN_LOGW("token in %s is short (%zu characters); 32 random characters or more are advised", path,
                    strlen(out));
    return st;
}

/* Each [client.NAME]'s token, in c->clients' order (*out: free() it).
 * A token given twice (two clients, or a client and server.token_file)
 * is refused: whose limit would it be? */
static sp_status load_clients(char (**out)[4096], const sp_dmn_conf *c, const char *node_tok, char err[SP_ERR_LEN])
{
    *out = NULL;
    if (!c->n_clients)
        return SP_OK;
    char(*t)[4096] = calloc(c->n_clients, sizeof *t);
    if (!t) {
        snprintf(err, SP_ERR_LEN, "out of memory");
        return SP_ERR_NOMEM;
    }
    for (size_t i = 0; i < c->n_clients; i++) {
        char e[SP_ERR_LEN];
        sp_status st = load_token(t[i], sizeof t[i], c->clients[i].token_file, e);
        int dup = st == SP_OK && !strcmp(t[i], node_tok);
        for (size_t k = 0; st == SP_OK && k < i; k++)
            dup |= !strcmp(t[i], t[k]);
        if (st != SP_OK || dup) {
            if (dup)
                snprintf(err, SP_ERR_LEN, "[client.%s]: its token is also another client's or server.token_file's",
                         c->clients[i].name);
            else
                snprintf(err, SP_ERR_LEN, "[client.%s]: %.180s", c->clients[i].name, e);
            memset(t, 0, c->n_clients * sizeof *t);
            free(t);
            return st != SP_OK ? st : SP_ERR_INVALID_ARG;
        }
    }
    *out = t;
    return SP_OK;
}

/* ---- listeners ---- */

/* A unix socket path left by a daemon that died: unlink it; one that
 * someone serves, or a file that is not a socket: refuse. */
static sp_status clear_unix_path(const char *path, char err[SP_ERR_LEN])
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return SP_OK;
    if (!S_ISSOCK(st.st_mode)) {
        snprintf(err, SP_ERR_LEN, "unix:%.200s exists and is not a socket", path);
        return SP_ERR_IO;
    }
    struct sockaddr_un su = {0};
    su.sun_family = AF_UNIX;
    memcpy(su.sun_path, path, strlen(path) + 1);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    int live = fd >= 0 && connect(fd, (struct sockaddr *)&su, sizeof su) == 0;
    if (fd >= 0)
        close(fd);
    if (live) {
        snprintf(err, SP_ERR_LEN, "unix:%.200s: another process serves there", path);
        return SP_ERR_IO;
    }
    SP_DMN_LOGI("removing the stale socket %s", path);
    unlink(path);
    return SP_OK;
}

static sp_status bind_unix(dlistener *l, int mode, char err[SP_ERR_LEN])
{
    sp_status st = clear_unix_path(l->addr.path, err);
    if (st != SP_OK)
        return st;
    struct sockaddr_un su = {0};
    su.sun_family = AF_UNIX;
    memcpy(su.sun_path, l->addr.path, strlen(l->addr.path) + 1);
    l->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (l->fd < 0 || bind(l->fd, (struct sockaddr *)&su, sizeof su) != 0 || chmod(l->addr.path, (mode_t)mode) != 0 ||
        listen(l->fd, 128) != 0) {
        snprintf(err, SP_ERR_LEN, "unix:%.200s: %s", l->addr.path, strerror(errno));
        return SP_ERR_IO;
    }
    return SP_OK;
}

static sp_status bind_tcp(dlistener *l, char err[SP_ERR_LEN])
{
    struct addrinfo hints = {0}, *res = NULL;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
    int g = getaddrinfo(l->addr.host, l->addr.port, &hints, &res);
    if (g != 0 || !res) {
        snprintf(err, SP_ERR_LEN, "%.200s: %s", l->addr.host, g ? gai_strerror(g) : "no address");
        return SP_ERR_IO;
    }
    int one = 1, ok = 0;
    l->fd = socket(res->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (l->fd >= 0) {
        setsockopt(l->fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        if (res->ai_family == AF_INET6)
            setsockopt(l->fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof one);
        ok = bind(l->fd, res->ai_addr, res->ai_addrlen) == 0 && listen(l->fd, 128) == 0;
    }
    freeaddrinfo(res);
    struct sockaddr_storage ss;
    socklen_t sl = sizeof ss;
    if (!ok || getsockname(l->fd, (struct sockaddr *)&ss, &sl) != 0) {
        snprintf(err, SP_ERR_LEN, "%.200s:%s: %s", l->addr.host, l->addr.port, strerror(errno));
        return SP_ERR_IO;
    }
    unsigned port = ntohs(ss.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&ss)->sin6_port
                                                   : ((struct sockaddr_in *)&ss)->sin_port);
    snprintf(l->addr.port, sizeof l->addr.port, "%u", port);
    return SP_OK;
}

/* Checks every listener against the token policy, then binds them. */
static int open_listeners(sp_dmn *d, char err[SP_ERR_LEN])
{
    for (int i = 0; i < d->cfg.n_listen; i++) {
        dlistener *l = &d->ls[i];
        l->fd = -1;
        if (sp_dmn_addr_parse(&l->addr, d->cfg.listen[i], err) != SP_OK)
            return EXIT_USAGE_;
        if (!l->addr.is_unix && !d->token[0] && !d->cfg.n_clients && !d->cfg.insecure && !sp_dmn_addr_is_loopback(&l->addr)) {
            snprintf(err, SP_ERR_LEN, "refusing to listen on %.100s (not a loopback address) without a token: set "
                     "server.token_file, or --insecure if that is really meant", d->cfg.listen[i]);
            return EXIT_USAGE_;
        }
    }
    for (int i = 0; i < d->cfg.n_listen; i++) {
        dlistener *l = &d->ls[i];
        sp_status st = l->addr.is_unix ? bind_unix(l, d->cfg.unix_mode, err) : bind_tcp(l, err);
        d->n_ls = i + 1;
        if (st != SP_OK)
            return EXIT_RUNTIME_;
        sp_dmn_addr_format(l->text, sizeof l->text, &l->addr);
    }
    return EXIT_OK_;
}

static void close_listeners(sp_dmn *d)
{
    for (int i = 0; i < d->n_ls; i++) {
        dlistener *l = &d->ls[i];
        if (l->fd >= 0)
            close(l->fd);
        if (l->fd >= 0 && l->addr.is_unix)
            unlink(l->addr.path);
        l->fd = -1;
    }
}

static void write_ready_file(sp_dmn *d)
{
    if (!*d->cfg.ready_file)
        return;
    char tmp[SP_DMN_CONF_PATH + 8];
    snprintf(tmp, sizeof tmp, "%s.tmp", d->cfg.ready_file);
    FILE *f = fopen(tmp, "w");
    for (int i = 0; f && i < d->n_ls; i++)
        fprintf(f, "%s\n", d->ls[i].text);
    if (!f || fclose(f) != 0 || rename(tmp, d->cfg.ready_file) != 0)
        SP_DMN_LOGE("cannot write the ready file %s: %s", d->cfg.ready_file, strerror(errno));
}

/* ---- uploads ---- */

static sp_status make_upload_dir(sp_dmn *d, char err[SP_ERR_LEN])
{
    if (sp_dmn_state_on(d))
        return sp_dmn_state_init(d, err);
    SP_DMN_LOGW("no server.state_dir: accepted jobs and registered circuits do not survive a restart");
    const char *tmp = getenv("TMPDIR");
    snprintf(d->upload_dir, sizeof d->upload_dir, "%.400s/snarkpipe-uploads.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(d->upload_dir)) {
        snprintf(err, SP_ERR_LEN, "temporary upload directory: %s", strerror(errno));
        return SP_ERR_IO;
    }
    d->upload_dir_temp = 1;
    return SP_OK;
}

static void remove_upload_dir(sp_dmn *d)
{
    if (!d->upload_dir_temp)
        return;
    DIR *dir = opendir(d->upload_dir);
    struct dirent *e;
    while (dir && (e = readdir(dir))) {
        char p[SP_DMN_CONF_PATH + 300];
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
            snprintf(p, sizeof p, "%s/%s", d->upload_dir, e->d_name);
            unlink(p);
        }
    }
    if (dir)
        closedir(dir);
    rmdir(d->upload_dir);
}

/* ---- start ---- */

static sp_status start_engine(sp_dmn *d, char err[SP_ERR_LEN])
{
    char path[64];
    sp_status st = sp_dmn_trk_open(d, path, sizeof path, err);
    if (st != SP_OK)
        return st;
    sp_engine_config ec = d->cfg.eng;
    ec.timeline_path = path;
    /* Request bodies are memory too: their cap comes out of the budget. */
    size_t total = ec.budget_bytes ? ec.budget_bytes : sp_engine_default_budget();
    d->body_cap = d->cfg.body_memory ? d->cfg.body_memory : total / 8;
    if (d->body_cap >= total) {
        snprintf(err, SP_ERR_LEN, "server.body_memory (%zu bytes) must be below engine.budget (%zu): request bodies "
                 "are counted in the budget", d->body_cap, total);
        return SP_ERR_INVALID_ARG;
    }
    ec.budget_bytes = total - d->body_cap;
    if ((st = sp_engine_create(&d->eng, d->ops->synth, &ec, err)) != SP_OK)
        return st;
    if ((st = sp_dmn_trk_start(d, err)) != SP_OK)
        return st;
    sp_engine_status es;
    if (sp_engine_status_get(d->eng, &es) != SP_OK) {
        snprintf(err, SP_ERR_LEN, "out of memory");
        return SP_ERR_NOMEM;
    }
    d->engine_budget = es.budget_total;
    pthread_mutex_lock(&d->trk.mu);
    d->trk.n_dev = (int)es.n_devices;
    pthread_mutex_unlock(&d->trk.mu);
    SP_DMN_LOGI("engine: curve %s, backends %s, %d synthesis workers, %zu device(s), budget %zu bytes",
                sp_curve_name(d->ops->curve), d->cfg.backends, es.synth_workers, es.n_devices, es.budget_total);
    sp_engine_status_free(&es);
    return SP_OK;
}

/* Brings the registry in line with the [circuit.*] sections: registers
 * those missing (at start; on SIGHUP also those that failed before and
 * may be fixed now) and replaces those whose section changed (once no job
 * uses them). Every section that does not end up registered is logged as
 * an error that says why. */
static void sync_config_circuits(sp_dmn *d)
{
    char err[SP_ERR_LEN];
    for (size_t i = 0; i < d->cfg.n_circuits; i++) {
        const sp_dmn_conf_circuit *c = &d->cfg.circuits[i];
        reg_spec s = {c->id, c->zkey, c->params, c->r1cs, c->preload, SP_DMN_SRC_CONFIG, 0, &c->native, c->wasm};
        int state = sp_dmn_reg_config_state(d, c);
        size_t freed;
        if (state == 1)
            continue;
        if (state == 3) {
            SP_DMN_LOGE("circuit %s (from the configuration): the id belongs to a circuit registered through the API; "
                        "section ignored", c->id);
            continue;
        }
        if (state == 2) {
            if (sp_dmn_reg_evict(d, c->id, &freed, err) != 200) {
                SP_DMN_LOGE("circuit %s (from the configuration): its section changed but %s; the new section applies "
                            "at a later SIGHUP", c->id, err);
                continue;
            }
            SP_DMN_LOGI("circuit %s (from the configuration): its section changed; registering it again", c->id);
        }
        if (sp_dmn_reg_add(d, &s, err) != 201)
            SP_DMN_LOGE("circuit %s (from the configuration): %s (a SIGHUP tries again)", c->id, err);
    }
}

static void init_state(sp_dmn *d)
{
    pthread_mutex_init(&d->cfg_mu, NULL);
    pthread_mutex_init(&d->submit_mu, NULL);
    pthread_mutex_init(&d->conn_mu, NULL);
    pthread_mutex_init(&d->reg.mu, NULL);
    pthread_cond_init(&d->reg.cv, NULL);
    pthread_mutex_init(&d->jobs.mu, NULL);
    pthread_cond_init(&d->jobs.cv, NULL);
    pthread_mutex_init(&d->trk.mu, NULL);
    pthread_cond_init(&d->trk.cv, NULL);
    d->trk.fd = d->trk.wfd = -1;
    d->state_lock_fd = -1;
    d->t_start = sp_dmn_wire_now_ms();
    uint8_t r[3] = {0};
    if (sp_os_random(r, sizeof r) != SP_OK) { /* the tag only keeps ids of two runs apart */
        uint32_t t = (uint32_t)time(NULL) ^ (uint32_t)getpid();
        memcpy(r, &t, 3);
    }
    snprintf(d->jobs.tag, sizeof d->jobs.tag, "%02x%02x%02x", r[0], r[1], r[2]);
}

/* ---- the loop ---- */

static void reload(sp_dmn *d)
{
    sp_dmn_conf fresh;
    char err[SP_ERR_LEN], tok[sizeof d->token] = "";
    int action;
    SP_DMN_LOGI("SIGHUP: reloading %s", *d->cfg.config_path ? d->cfg.config_path : "(no file; flags only)");
    if (sp_dmn_conf_from_args(&fresh, d->ops, &action, d->argc, d->argv, err) != SP_OK) {
        SP_DMN_LOGE("reload failed, keeping the running configuration: %s", err);
        sp_dmn_conf_free(&fresh);
        return;
    }
    char(*ctok)[4096] = NULL;
    if ((*fresh.token_file && load_token(tok, sizeof tok, fresh.token_file, err) != SP_OK) ||
        load_clients(&ctok, &fresh, tok, err) != SP_OK) {
        SP_DMN_LOGE("reload failed, keeping the running configuration: %s", err);
        sp_dmn_conf_free(&fresh);
        return;
    }
    int exposed = 0;
    for (int i = 0; i < d->n_ls; i++)
        exposed |= !d->ls[i].addr.is_unix && !sp_dmn_addr_is_loopback(&d->ls[i].addr) && !d->cfg.insecure;
    if (exposed && !tok[0] && !fresh.n_clients) {
        SP_DMN_LOGE("reload refused: a non-loopback listener needs a token, and the new configuration has none");
        sp_dmn_conf_free(&fresh);
        free(ctok);
        return;
    }
    size_t first_new = 0;
    pthread_mutex_lock(&d->cfg_mu);
    int changed = sp_dmn_conf_reload(&d->cfg, &fresh, &first_new); /* circuits: fresh's sections, cfg_mu held */
    snprintf(d->token, sizeof d->token, "%s", tok);
    char(*old_ctok)[4096] = d->client_tokens;
    size_t n_old = d->cfg.n_clients;
    if (changed >= 0) {
        d->client_tokens = ctok;
        ctok = old_ctok;
    }
    pthread_mutex_unlock(&d->cfg_mu);
    if (ctok)
        memset(ctok, 0, (changed >= 0 ? n_old : fresh.n_clients) * sizeof *ctok);
    free(ctok);
    sp_dmn_conf_free(&fresh);
    sp_dmn_log_set_level((sp_dmn_log_level)d->cfg.log_level);
    sync_config_circuits(d);
    SP_DMN_LOGI("reload done: %d change(s); token %s", changed, tok[0] ? "set" : "off");
}

static void begin_shutdown(sp_dmn *d, int cancel)
{
    int first = !atomic_exchange(&d->draining, 1);
    if (first)
        SP_DMN_LOGI("shutting down: %s %zu job(s) in flight", cancel ? "cancelling" : "draining", sp_dmn_jobs_live(d));
    /* Cancel before dispatch resumes: a job held by a pause must not start
     * (and, small, finish) in between. */
    if (cancel)
        sp_dmn_jobs_cancel_all(d);
    if (first)
        sp_engine_pause(d->eng, 0); /* queued work must be able to finish (or be dropped) */
    sp_dmn_farm_drain(d, cancel);
}

static void run_loop(sp_dmn *d)
{
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGHUP);
    int signals = 0, cancelled = 0;
    double deadline = 0, last_trim = 0;
    unsigned long long seen_requests = 0;
    for (;;) {
        struct timespec tick = {0, 250 * 1000000L};
        int sig = sigtimedwait(&set, NULL, &tick);
        if (sig == SIGHUP) {
            reload(d);
        } else if (sig == SIGTERM || sig == SIGINT) {
            signals++;
            cancelled = signals > 1 || d->cfg.shutdown == SP_DMN_SHUTDOWN_CANCEL;
            if (signals > 1)
                SP_DMN_LOGI("second signal: cancelling what is left");
            begin_shutdown(d, cancelled);
            if (signals == 1 && d->cfg.drain_timeout_ms > 0)
                deadline = sp_dmn_wire_now_ms() + (double)d->cfg.drain_timeout_ms;
        }
        if (atomic_load(&d->draining)) {
            if (!cancelled && deadline > 0 && sp_dmn_wire_now_ms() > deadline) {
                SP_DMN_LOGW("drain timeout: cancelling %zu job(s) and %zu farm partition(s)", sp_dmn_jobs_live(d),
                            sp_dmn_farm_live(d));
                begin_shutdown(d, cancelled = 1);
            }
            if (sp_dmn_jobs_live(d) == 0 && sp_dmn_farm_live(d) == 0)
                return;
        }
        sp_dmn_http_tick(d);
        sp_dmn_reg_tick(d);
        sp_dmn_jobs_tick(d);
        /* Idle after some work: give freed heap pages back to the system
         * (at most every 10 s), so the resident size falls between bursts. */
        unsigned long long req = atomic_load(&d->requests);
        if (req != seen_requests && sp_dmn_jobs_live(d) == 0 && sp_dmn_wire_now_ms() - last_trim > 10000) {
            malloc_trim(0);
            last_trim = sp_dmn_wire_now_ms();
            seen_requests = req;
        }
    }
}

static void shutdown_all(sp_dmn *d)
{
    atomic_store(&d->draining, 1);
    pthread_mutex_lock(&d->jobs.mu);
    atomic_store(&d->stopping, 1); /* awaits return now */
    pthread_cond_broadcast(&d->jobs.cv);
    pthread_mutex_unlock(&d->jobs.mu);
    sp_dmn_farm_nudge(d);
    sp_dmn_http_quiesce(d, 5000);
    sp_dmn_http_stop(d);
    sp_dmn_farm_stop(d); /* what it still holds goes back to the queue; the node leaves */
    for (int i = 0; d->eng && sp_dmn_jobs_live(d) && i < 600; i++) { /* a submit that raced the drain */
        sp_dmn_jobs_cancel_all(d);
        usleep(50 * 1000);
    }
    sp_dmn_reg_free_all(d);
    sp_engine_destroy(d->eng);
    d->eng = NULL;
    sp_dmn_trk_stop(d);
    sp_dmn_jobs_free_all(d);
    close_listeners(d);
    remove_upload_dir(d);
    if (*d->cfg.ready_file)
        unlink(d->cfg.ready_file);
}

/* Configuration, token and listener policy; returns an exit status or -1 to go on. */
static int configure(sp_dmn *d, int argc, char **argv)
{
    char err[SP_ERR_LEN];
    int action;
    if (sp_dmn_conf_from_args(&d->cfg, d->ops, &action, argc, argv, err) != SP_OK) {
        fprintf(stderr, "snarkpipe daemon: %s\n", err);
        return EXIT_USAGE_;
    }
    if (action == 1)
        sp_dmn_conf_help(stdout, d->ops);
    else if (action == 2)
        sp_dmn_conf_print(stdout, &d->cfg);
    else if (action == 3)
        printf("configuration ok\n");
    if (action)
        return EXIT_OK_;
    sp_dmn_log_set_level((sp_dmn_log_level)d->cfg.log_level);
    if (*d->cfg.queue && !sp_dmn_q_available()) {
        SP_DMN_LOGE("farm.queue is set, but this snarkpipe was built without the farm: libpq (Debian: libpq-dev) was "
                    "not found at build time; install it and rebuild, or run without --queue (one host)");
        return EXIT_USAGE_;
    }
    if ((*d->cfg.token_file && load_token(d->token, sizeof d->token, d->cfg.token_file, err) != SP_OK) ||
        load_clients(&d->client_tokens, &d->cfg, d->token, err) != SP_OK) {
        SP_DMN_LOGE("%s", err);
        return EXIT_RUNTIME_;
    }
    return -1;
}

int sp_dmn_main(int argc, char **argv, const sp_dmn_ops *ops)
{
    sp_dmn *d = calloc(1, sizeof *d);
    char err[SP_ERR_LEN] = "";
    if (!d) {
        fprintf(stderr, "snarkpipe daemon: out of memory\n");
        return EXIT_RUNTIME_;
    }
    d->ops = ops;
    init_state(d);
    /* Connection threads come and go, and glibc gives new threads new
     * arenas (up to 8 per core) that keep what was freed in them: cap the
     * arenas unless the operator chose (MALLOC_ARENA_MAX), which keeps
     * the soak's peak RSS well lower. */
    if (!getenv("MALLOC_ARENA_MAX"))
        mallopt(M_ARENA_MAX, 4);
    d->argc = argc;
    d->argv = argv;
    int rc = configure(d, argc, argv);
    if (rc < 0) {
        /* Signals are taken by the main loop only: block them before any thread starts. */
        sigset_t set;
        sigemptyset(&set);
        sigaddset(&set, SIGTERM);
        sigaddset(&set, SIGINT);
        sigaddset(&set, SIGHUP);
        pthread_sigmask(SIG_BLOCK, &set, NULL);
        signal(SIGPIPE, SIG_IGN);
        /* the state directory's lock first: a second daemon on it touches nothing, not even a socket */
        rc = sp_dmn_state_on(d) && sp_dmn_state_lock(d, err) != SP_OK ? EXIT_RUNTIME_ : open_listeners(d, err);
        if (rc == EXIT_OK_ && (make_upload_dir(d, err) != SP_OK || start_engine(d, err) != SP_OK))
            rc = EXIT_RUNTIME_;
        if (rc == EXIT_OK_ && sp_dmn_state_paused(d)) { /* before the restored jobs: none of them starts */
            sp_engine_pause(d->eng, 1);
            atomic_store(&d->paused, 1);
            SP_DMN_LOGI("dispatch paused (as it was when the daemon stopped; POST /v1/resume resumes it)");
        }
        if (rc == EXIT_OK_) {
            sync_config_circuits(d);
            sp_dmn_restore_circuits(d);
            sp_dmn_restore_jobs(d); /* accepted jobs of before a crash: queued again before anyone can ask */
            if (*d->cfg.queue && sp_dmn_farm_start(d, err) != SP_OK)
                rc = EXIT_RUNTIME_;
            if (rc == EXIT_OK_ && sp_dmn_http_start(d, sp_dmn_routes, sp_dmn_n_routes, err) != SP_OK)
                rc = EXIT_RUNTIME_;
        }
        if (rc == EXIT_OK_) {
            for (int i = 0; i < d->n_ls; i++)
                SP_DMN_LOGI("listening on %s%s", d->ls[i].text, d->token[0] ? " (bearer token required)" : "");
            write_ready_file(d);
            run_loop(d);
            SP_DMN_LOGI("stopping");
        } else {
            SP_DMN_LOGE("cannot start: %s", err);
        }
        shutdown_all(d);
        if (rc == EXIT_OK_)
            SP_DMN_LOGI("stopped");
    }
    if (d->state_lock_fd >= 0)
        close(d->state_lock_fd);
    if (d->client_tokens)
        memset(d->client_tokens, 0, d->cfg.n_clients * sizeof *d->client_tokens);
    free(d->client_tokens);
    sp_dmn_conf_free(&d->cfg);
    free(d);
    return rc;
}
