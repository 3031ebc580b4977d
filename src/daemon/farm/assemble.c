/*
 * Assembling a farm job (farm.h): once every partition holds a proof, the
 * node that stored the last one (or any node holding the key, for a job
 * whose assembler died) verifies them all again, against the public
 * inputs recorded when the job was submitted, in one transaction that
 * completes the job with its result or queues the bad partitions again.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "daemon/farm/farm.h"
#include "daemon/log.h"

/* out[at..at + n_public) from their 32-byte encodings at b. */
static int publics_of(const sp_dmn_ops *ops, sp_fr *out, size_t at, const uint8_t *b, size_t len, uint32_t n_public)
{
    if (!b || len != (size_t)n_public * 32)
        return -1;
    for (uint32_t i = 0; i < n_public; i++)
        if (ops->fr_from_bytes(out, at + i, b + 32 * i) != SP_OK)
            return -1;
    return 0;
}

/* The completed job's result: the same JSON a single daemon answers, each
 * proof with the node that made it. */
static char *result_text(const sp_dmn_ops *ops, const sp_dmn_q_asm_job *job, const sp_dmn_q_part *parts,
                         const sp_g16_proof *proofs, const sp_fr *pub, uint32_t n_public, size_t *len)
{
    const char **nodes = malloc(job->n_parts * sizeof *nodes);
    char (*names)[64] = malloc(job->n_parts * sizeof *names);
    double t[SP_DMN_STAGE_N] = {job->queue_wait_ms, 0, 0, 0, job->total_ms};
    for (size_t k = 0; nodes && names && k < job->n_parts; k++) {
        snprintf(names[k], sizeof names[k], "%.*s", (int)strcspn(parts[k].proved_by, "/"), parts[k].proved_by);
        nodes[k] = names[k];
        t[SP_DMN_STAGE_SYNTH] += parts[k].synth_ms;
        t[SP_DMN_STAGE_GPU] += parts[k].gpu_ms;
        t[SP_DMN_STAGE_FINISH] += parts[k].finish_ms;
    }
    sp_json_writer w;
    sp_jw_init(&w, 0);
    sp_jw_begin_object(&w);
    char id[32];
    snprintf(id, sizeof id, "f%lld", (long long)job->id);
    sp_jw_key(&w, "job_id");
    sp_jw_string(&w, id);
    if (*job->request_id) {
        sp_jw_key(&w, "request_id");
        sp_jw_string(&w, job->request_id);
    }
    sp_jw_key(&w, "circuit");
    sp_jw_string(&w, job->circuit);
    sp_jw_key(&w, "status");
    sp_jw_string(&w, "completed");
    sp_jw_key(&w, "partitions");
    sp_jw_u64(&w, job->n_parts);
    sp_jw_key(&w, "verified");
    sp_jw_bool(&w, 1);
    if (nodes && names)
        sp_dmn_jobs_proofs_json(ops, &w, proofs, pub, job->n_parts, n_public, nodes);
    else
        w.failed = 1;
    sp_dmn_jobs_timings_json(&w, t, 1);
    sp_jw_end_object(&w);
    free(nodes);
    free(names);
    char *out = NULL;
    return sp_jw_finish(&out, len, &w) == SP_OK ? out : NULL;
}

/* Verifies every partition's proof against the public inputs recorded at
 * submission (a native job: those its prover stored) and says which are
 * bad; all good: the result. Runs inside the assembly transaction. */
static void assemble_cb(void *ctx, const sp_dmn_q_asm_job *job, const sp_dmn_q_part *parts, sp_dmn_q_verdict *v)
{
    sp_dmn_farm *f = ctx;
    pthread_mutex_lock(&f->mu);
    const fcirc *c = sp_dmn_farm_by_digest_locked(f, job->digest, 1);
    pthread_mutex_unlock(&f->mu); /* entries stay until stop, and the pvk is read-only once set */
    if (!c)
        return; /* not ours to judge: a node holding the key assembles it */
    const sp_dmn_ops *ops = f->d->ops;
    size_t n = job->n_parts, np = c->n_public;
    sp_g16_proof *pr = calloc(n, ops->synth->proof_size);
    sp_fr *pub = calloc(n * (np ? np : 1), ops->synth->fr_bytes);
    uint8_t *bad = calloc(n, 1);
    v->bad = calloc(n, sizeof *v->bad);
    char err[SP_ERR_LEN];
    if (!pr || !pub || !bad || !v->bad) {
        free(pr), free(pub), free(bad), free(v->bad);
        v->bad = NULL;
        return;
    }
    size_t n_ok = 0;
    for (size_t k = 0; k < n; k++) {
        const sp_dmn_q_part *p = &parts[k];
        const uint8_t *want = p->expect_pub ? p->expect_pub : p->publics;
        size_t want_len = p->expect_pub ? p->expect_pub_len : p->publics_len;
        bad[k] = !p->proof || ops->bp_decode(pr, k, p->proof, err) != SP_OK ||
                 publics_of(ops, pub, k * np, want, want_len, c->n_public) ||
                 (p->expect_pub && (p->publics_len != want_len || memcmp(p->publics, want, want_len)));
        n_ok += !bad[k];
    }
    int valid = 0;
    if (n_ok == n && ops->verify_batch(&valid, c->pvk, pr, n, pub, (uint32_t)np, err) == SP_OK && valid) {
        v->result = result_text(ops, job, parts, pr, pub, c->n_public, &v->result_len);
        v->ok = v->result != NULL;
    } else {
        for (size_t k = 0; k < n; k++) { /* find the bad ones */
            valid = 0;
            if (!bad[k] && (ops->verify(&valid, c->pvk, pr, k, pub, (uint32_t)np, err) != SP_OK || !valid))
                bad[k] = 1;
            if (bad[k])
                v->bad[v->n_bad++] = (uint32_t)k;
        }
        if (v->n_bad)
            SP_DMN_LOGW("farm: job f%lld: %zu stored proof(s) did not verify at assembly (partition %u first); queued "
                        "again", (long long)job->id, v->n_bad, v->bad[0]);
    }
    free(pr);
    free(pub);
    free(bad);
}

void sp_dmn_farm_assemble(sp_dmn_farm *f, int64_t id, char err[SP_ERR_LEN])
{
    int outcome = 0;
    if (sp_dmn_q_assemble(f->q, id, assemble_cb, f, &outcome, err) != SP_OK) {
        sp_dmn_farm_count(f, &f->db_errors, 1);
        SP_DMN_LOGW("farm: assembling f%lld: %s", (long long)id, err);
        return;
    }
    if (outcome == 1) {
        sp_dmn_farm_count(f, &f->assembled, 1);
        SP_DMN_LOGD("farm: job f%lld completed", (long long)id);
    } else if (outcome == 2) {
        sp_dmn_farm_count(f, &f->rejected, 1);
    }
}

