/*
 * The reloadable settings the daemon's threads read (state.h), each
 * under cfg_mu, and who a request's bearer token names: below every part
 * that reads them, so none of them calls into the daemon's life
 * (server.c) for a setting.
 */
#include <stdio.h>
#include <string.h>
#include "daemon/state.h"
#include "util/sha256.h"

size_t sp_dmn_max_body(sp_dmn *d)
{
    pthread_mutex_lock(&d->cfg_mu);
    size_t v = d->cfg.max_body;
    pthread_mutex_unlock(&d->cfg_mu);
    return v;
}

long sp_dmn_max_wait(sp_dmn *d)
{
    pthread_mutex_lock(&d->cfg_mu);
    long v = d->cfg.max_wait_ms;
    pthread_mutex_unlock(&d->cfg_mu);
    return v;
}

void sp_dmn_token(sp_dmn *d, char *out, size_t out_len)
{
    pthread_mutex_lock(&d->cfg_mu);
    snprintf(out, out_len, "%s", d->token);
    pthread_mutex_unlock(&d->cfg_mu);
}

int sp_dmn_auth_on(sp_dmn *d)
{
    pthread_mutex_lock(&d->cfg_mu);
    int on = d->token[0] || d->cfg.n_clients;
    pthread_mutex_unlock(&d->cfg_mu);
    return on;
}

/* 1 when a (NUL-terminated) equals tok; the time does not depend on
 * where they differ. */
static int same_token(const char *a, const char *tok)
{
    size_t la = strlen(a), lt = strlen(tok);
    unsigned char diff = (unsigned char)(la != lt);
    for (size_t i = 0; i < lt; i++)
        diff |= (unsigned char)(tok[i] ^ (i < la ? a[i] : 0));
    return diff == 0;
}

int sp_dmn_auth(sp_dmn *d, const char *bearer, char client[SP_DMN_CLIENT_LEN], int *max_queued)
{
    const char *hit = NULL;
    client[0] = 0;
    pthread_mutex_lock(&d->cfg_mu);
    *max_queued = *d->cfg.queue ? d->cfg.max_queued_per_client : 0; /* a farm's setting */
    int on = d->token[0] || d->cfg.n_clients;
    if (on && bearer && d->token[0] && same_token(bearer, d->token))
        hit = d->token;
    for (size_t i = 0; on && bearer && i < d->cfg.n_clients; i++)
        if (d->client_tokens[i][0] && same_token(bearer, d->client_tokens[i])) {
            hit = d->client_tokens[i];
            *max_queued = d->cfg.clients[i].max_queued;
        }
    uint8_t dg[32];
    if (hit) {
        sp_sha256_ctx h;
        sp_sha256_init(&h);
        sp_sha256_update(&h, "snarkpipe farm client\n", 22);
        sp_sha256_update(&h, hit, strlen(hit));
        sp_sha256_final(dg, &h);
    }
    pthread_mutex_unlock(&d->cfg_mu);
    if (hit) {
        snprintf(client, SP_DMN_CLIENT_LEN, "token:");
        for (int i = 0; i < 16; i++)
            snprintf(client + 6 + 2 * i, 3, "%02x", dg[i]);
    }
    return !on || hit;
}

void sp_dmn_deadlines(sp_dmn *d, long *header_ms, long *body_ms)
{
    pthread_mutex_lock(&d->cfg_mu);
    *header_ms = d->cfg.header_timeout_ms;
    *body_ms = d->cfg.body_timeout_ms;
    pthread_mutex_unlock(&d->cfg_mu);
}

void sp_dmn_key_policy(sp_dmn *d, key_policy *p)
{
    pthread_mutex_lock(&d->cfg_mu);
    p->hot_budget = d->cfg.hot_budget ? d->cfg.hot_budget : d->engine_budget / 4;
    p->warm_budget = d->cfg.warm_budget;
    p->min_idle_ms = d->cfg.key_min_idle_ms;
    p->idle_demote_ms = d->cfg.key_idle_demote_ms;
    p->skip_subgroup_check = d->cfg.skip_subgroup_check;
    p->load_threads = d->cfg.load_threads;
    snprintf(p->cache_dir, sizeof p->cache_dir, "%s", d->cfg.key_cache_dir);
    p->cache_max = d->cfg.key_cache_max;
    pthread_mutex_unlock(&d->cfg_mu);
}

int sp_dmn_farm_on(const sp_dmn *d) { return d->farm != NULL; }
