/* Native circuits' parameters and job inputs in their daemon forms (native.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "daemon/native.h"
#include "circuit/post.h"

/* The parameters by name: the configuration's, the multipart fields' and
 * the JSON members' spelling, in sp_dmn_native.v's order. */
enum { P_CHALLENGES, P_LAYERS, P_NODES, P_DRG, P_EXP, P_LABEL, P_SECTORS };
static const char *const PARAM_NAMES[SP_DMN_NATIVE_N_PARAMS] = {"challenges",  "layers",        "nodes",  "drg_parents",
                                                                 "exp_parents", "label_parents", "sectors"};
#define N_PARAMS SP_DMN_NATIVE_N_PARAMS
#define BIT(p) (1u << (p))

/* A kind's parameters once resolved by its circuit layer. */
typedef union {
    sp_porep_params porep;
    sp_post_params post;
} resolved;

/* One native kind: everything the daemon knows of it. */
typedef struct {
    const char *name;
    unsigned takes; /* BIT(P_...) of each parameter it takes */
    sp_status (*resolve)(resolved *r, const sp_dmn_native *n, char err[SP_ERR_LEN]);
    sp_status (*open)(void **circ, const sp_native_circuit **nc, const resolved *r, char err[SP_ERR_LEN]);
    void (*close)(void *circ);
    /* the resolved values of the parameters it takes (v by P_...), the preset */
    const char *(*values)(const void *circ, uint64_t v[N_PARAMS]);
    void (*ident)(char *out, size_t len, const void *circ);
} kind_desc;

struct sp_dmn_native_circ {
    const kind_desc *k;
    void *circ;
    const sp_native_circuit *nc;
};

/* ---- porep-like ---- */

static sp_status porep_resolve(resolved *r, const sp_dmn_native *n, char err[SP_ERR_LEN])
{
    sp_porep_overrides ov;
    sp_porep_overrides_init(&ov);
    ov.challenges = n->v[P_CHALLENGES], ov.layers = n->v[P_LAYERS], ov.nodes = n->v[P_NODES];
    ov.drg_parents = n->v[P_DRG], ov.exp_parents = n->v[P_EXP], ov.label_parents = n->v[P_LABEL];
    return sp_porep_params_from(&r->porep, n->preset[0] ? n->preset : NULL, &ov, err);
}

static sp_status porep_open(void **circ, const sp_native_circuit **nc, const resolved *r, char err[SP_ERR_LEN])
{
    sp_porep *c = NULL;
    sp_status st = sp_porep_open(&c, &r->porep, err);
    *circ = c;
    *nc = c ? sp_porep_native(c) : NULL;
    return st;
}

static void porep_close(void *circ) { sp_porep_close(circ); }

static const char *porep_values(const void *circ, uint64_t v[N_PARAMS])
{
    const sp_porep_params *p = sp_porep_params_of(circ);
    v[P_CHALLENGES] = p->challenges, v[P_LAYERS] = p->layers, v[P_NODES] = p->nodes;
    v[P_DRG] = p->drg_parents, v[P_EXP] = p->exp_parents, v[P_LABEL] = p->label_parents;
    return p->preset;
}

/* Unchanged since farms first digested porep-like circuits: a node with
 * this text in its digest finds the circuits recorded before. */
static void porep_ident(char *t, size_t len, const void *circ)
{
    const sp_porep_params *p = sp_porep_params_of(circ);
    int n = snprintf(t, len, "porep-like nodes=%llu layers=%u challenges=%u drg=%u exp=%u label=%u d=%u levels=%u "
                     "arity=", (unsigned long long)p->nodes, p->layers, p->challenges, p->drg_parents, p->exp_parents,
                     p->label_parents, p->d_depth, p->levels);
    for (uint32_t i = 0; i < p->levels && i < SP_POREP_MAX_LEVELS && n > 0 && (size_t)n < len - 8; i++)
        n += snprintf(t + n, len - (size_t)n, "%u,", p->arity[i]);
}

/* ---- window-post-like ---- */

static sp_status post_resolve(resolved *r, const sp_dmn_native *n, char err[SP_ERR_LEN])
{
    return sp_post_params_from(&r->post, n->preset[0] ? n->preset : NULL, n->v[P_SECTORS], n->v[P_CHALLENGES],
                               n->v[P_NODES], err);
}

static sp_status post_open(void **circ, const sp_native_circuit **nc, const resolved *r, char err[SP_ERR_LEN])
{
    sp_post *c = NULL;
    sp_status st = sp_post_open(&c, &r->post, err);
    *circ = c;
    *nc = c ? sp_post_native(c) : NULL;
    return st;
}

static void post_close(void *circ) { sp_post_close(circ); }

static const char *post_values(const void *circ, uint64_t v[N_PARAMS])
{
    const sp_post_params *p = sp_post_params_of(circ);
    v[P_SECTORS] = p->sectors, v[P_CHALLENGES] = p->challenges, v[P_NODES] = p->nodes;
    return p->preset;
}

static void post_ident(char *t, size_t len, const void *circ)
{
    const sp_post_params *p = sp_post_params_of(circ);
    int n = snprintf(t, len, "window-post-like nodes=%llu sectors=%u challenges=%u sbox_wire=%d levels=%u arity=",
                     (unsigned long long)p->nodes, p->sectors, p->challenges, p->sbox_wire, p->levels);
    for (uint32_t i = 0; i < p->levels && i < SP_POREP_MAX_LEVELS && n > 0 && (size_t)n < len - 8; i++)
        n += snprintf(t + n, len - (size_t)n, "%u,", p->arity[i]);
}

static const kind_desc KINDS[] = {
    {"porep-like", BIT(P_CHALLENGES) | BIT(P_LAYERS) | BIT(P_NODES) | BIT(P_DRG) | BIT(P_EXP) | BIT(P_LABEL),
     porep_resolve, porep_open, porep_close, porep_values, porep_ident},
    {"window-post-like", BIT(P_SECTORS) | BIT(P_CHALLENGES) | BIT(P_NODES), post_resolve, post_open, post_close,
     post_values, post_ident},
};
#define N_KINDS (sizeof KINDS / sizeof KINDS[0])

static const kind_desc *find_kind(const char *name)
{
    for (size_t i = 0; i < N_KINDS; i++)
        if (!strcmp(KINDS[i].name, name))
            return &KINDS[i];
    return NULL;
}

/* ---- as given ---- */

void sp_dmn_native_init(sp_dmn_native *n)
{
    memset(n, 0, sizeof *n);
    for (size_t k = 0; k < N_PARAMS; k++)
        n->v[k] = SP_POREP_UNSET;
}

int sp_dmn_native_on(const sp_dmn_native *n) { return n->kind[0] != 0; }

int sp_dmn_native_equal(const sp_dmn_native *a, const sp_dmn_native *b)
{
    if (strcmp(a->kind, b->kind) || strcmp(a->preset, b->preset))
        return 0;
    return !memcmp(a->v, b->v, sizeof a->v);
}

int sp_dmn_native_given(const sp_dmn_native *n)
{
    int any = n->kind[0] || n->preset[0];
    for (size_t k = 0; k < N_PARAMS; k++)
        any |= n->v[k] != SP_POREP_UNSET;
    return any;
}

/* Digits only, no sign, no spaces: what strtoull would also take ("+1",
 * " 1") is refused, so a value means one thing in every form. */
static int parse_u64(uint64_t *out, const char *s, size_t len)
{
    uint64_t x = 0;
    if (len == 0 || len > 20)
        return -1;
    for (size_t i = 0; i < len; i++) {
        unsigned d = (unsigned char)s[i] - '0';
        if (d > 9 || x > (UINT64_MAX - d) / 10)
            return -1;
        x = x * 10 + d;
    }
    *out = x;
    return 0;
}

static int set_kind(sp_dmn_native *n, const char *v, char err[SP_ERR_LEN])
{
    if (!find_kind(v)) {
        snprintf(err, SP_ERR_LEN, "unknown native circuit '%.40s' (known: " SP_DMN_NATIVE_KINDS ")", v);
        return -1;
    }
    snprintf(n->kind, sizeof n->kind, "%s", v);
    return 0;
}

static int set_preset(sp_dmn_native *n, const char *v, char err[SP_ERR_LEN])
{
    if (!*v || strlen(v) >= sizeof n->preset) {
        snprintf(err, SP_ERR_LEN, "preset: '%.40s' is no preset (2KiB, 8MiB, 512MiB, 32GiB, 64GiB)", v);
        return -1;
    }
    snprintf(n->preset, sizeof n->preset, "%s", v);
    return 0;
}

int sp_dmn_native_set(sp_dmn_native *n, const char *key, const char *value, char err[SP_ERR_LEN])
{
    if (!strcmp(key, "native"))
        return set_kind(n, value, err) ? -1 : 1;
    if (!strcmp(key, "preset"))
        return set_preset(n, value, err) ? -1 : 1;
    for (size_t k = 0; k < N_PARAMS; k++) {
        if (strcmp(key, PARAM_NAMES[k]))
            continue;
        if (parse_u64(&n->v[k], value, strlen(value)) == 0)
            return 1;
        snprintf(err, SP_ERR_LEN, "%s: '%.40s' is not a non-negative integer", key, value);
        return -1;
    }
    return 0;
}

/* One member of "native_params"; 0 or -1 with err. */
static int json_param(sp_dmn_native *n, const sp_json_val *v, char err[SP_ERR_LEN])
{
    if (!strcmp(v->key, "preset")) {
        if (v->type == SP_JSON_STRING)
            return set_preset(n, v->text, err);
        snprintf(err, SP_ERR_LEN, "native_params.preset must be a string");
        return -1;
    }
    for (size_t k = 0; k < N_PARAMS; k++)
        if (!strcmp(v->key, PARAM_NAMES[k])) {
            if (sp_json_u64(&n->v[k], v))
                return 0;
            snprintf(err, SP_ERR_LEN, "native_params.%s must be a non-negative integer", v->key);
            return -1;
        }
    snprintf(err, SP_ERR_LEN, "native_params: unknown member '%.40s' (" SP_DMN_NATIVE_KEYS ")", v->key);
    return -1;
}

int sp_dmn_native_from_json(sp_dmn_native *n, const sp_json_val *kind, const sp_json_val *params, char err[SP_ERR_LEN])
{
    sp_dmn_native_init(n);
    if (kind && kind->type != SP_JSON_STRING) {
        snprintf(err, SP_ERR_LEN, "\"native\" must be a string (" SP_DMN_NATIVE_KINDS ")");
        return -1;
    }
    if (kind && set_kind(n, kind->text, err))
        return -1;
    if (!params)
        return 0;
    if (params->type != SP_JSON_OBJECT) {
        snprintf(err, SP_ERR_LEN, "\"native_params\" must be an object {" SP_DMN_NATIVE_KEYS "}");
        return -1;
    }
    for (size_t i = 0; i < params->n; i++)
        if (json_param(n, params->items[i], err))
            return -1;
    return 0;
}

/* The kind of n and its parameters resolved; NULL with err when they do not resolve. */
static const kind_desc *resolve(resolved *r, const sp_dmn_native *n, char err[SP_ERR_LEN])
{
    const kind_desc *k = n->kind[0] ? find_kind(n->kind) : NULL;
    if (!k) {
        snprintf(err, SP_ERR_LEN, sp_dmn_native_given(n) ? "native circuit parameters without native = "
                 SP_DMN_NATIVE_KINDS : "not a native circuit");
        return NULL;
    }
    for (size_t p = 0; p < N_PARAMS; p++)
        if (n->v[p] != SP_POREP_UNSET && !(k->takes & BIT(p))) {
            snprintf(err, SP_ERR_LEN, "%s takes no parameter '%s'", k->name, PARAM_NAMES[p]);
            return NULL;
        }
    return k->resolve(r, n, err) == SP_OK ? k : NULL;
}

sp_status sp_dmn_native_check(const sp_dmn_native *n, char err[SP_ERR_LEN])
{
    resolved r;
    return resolve(&r, n, err) ? SP_OK : SP_ERR_INVALID_ARG;
}

void sp_dmn_native_print(FILE *f, const sp_dmn_native *n)
{
    if (!sp_dmn_native_on(n))
        return;
    fprintf(f, "native = %s\n", n->kind);
    if (n->preset[0])
        fprintf(f, "preset = %s\n", n->preset);
    for (size_t k = 0; k < N_PARAMS; k++)
        if (n->v[k] != SP_POREP_UNSET)
            fprintf(f, "%s = %llu\n", PARAM_NAMES[k], (unsigned long long)n->v[k]);
}

void sp_dmn_native_json(sp_json_writer *w, const sp_dmn_native *n)
{
    sp_jw_key(w, "native");
    sp_jw_string(w, n->kind);
    sp_jw_key(w, "native_params");
    sp_jw_begin_object(w);
    if (n->preset[0]) {
        sp_jw_key(w, "preset");
        sp_jw_string(w, n->preset);
    }
    for (size_t k = 0; k < N_PARAMS; k++)
        if (n->v[k] != SP_POREP_UNSET) {
            sp_jw_key(w, PARAM_NAMES[k]);
            sp_jw_u64(w, n->v[k]);
        }
    sp_jw_end_object(w);
}

/* ---- open circuits ---- */

sp_status sp_dmn_native_open(sp_dmn_native_circ **out, const sp_dmn_native *n, char err[SP_ERR_LEN])
{
    *out = NULL;
    resolved r;
    const kind_desc *k = resolve(&r, n, err);
    if (!k)
        return SP_ERR_INVALID_ARG;
    sp_dmn_native_circ *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(err, SP_ERR_LEN, "out of memory");
        return SP_ERR_NOMEM;
    }
    c->k = k;
    sp_status st = k->open(&c->circ, &c->nc, &r, err);
    if (st != SP_OK) {
        free(c);
        return st;
    }
    *out = c;
    return SP_OK;
}

void sp_dmn_native_close(sp_dmn_native_circ *c)
{
    if (!c)
        return;
    c->k->close(c->circ);
    free(c);
}

const sp_native_circuit *sp_dmn_native_nc(const sp_dmn_native_circ *c) { return c->nc; }

const char *sp_dmn_native_kind(const sp_dmn_native_circ *c) { return c->k->name; }

const char *sp_dmn_native_preset(const sp_dmn_native_circ *c)
{
    uint64_t v[N_PARAMS];
    return c->k->values(c->circ, v);
}

void sp_dmn_native_describe(sp_json_writer *w, const sp_dmn_native_circ *c)
{
    uint64_t v[N_PARAMS] = {0};
    const char *preset = c->k->values(c->circ, v);
    sp_jw_key(w, "kind");
    sp_jw_string(w, c->k->name);
    sp_jw_key(w, "native_params");
    sp_jw_begin_object(w);
    sp_jw_key(w, "preset");
    sp_jw_string(w, preset);
    for (size_t k = 0; k < N_PARAMS; k++)
        if (c->k->takes & BIT(k)) {
            sp_jw_key(w, PARAM_NAMES[k]);
            sp_jw_u64(w, v[k]);
        }
    sp_jw_end_object(w);
    sp_jw_key(w, "constraints");
    sp_jw_u64(w, c->nc->n_rows);
}

void sp_dmn_native_ident(char *out, size_t len, const sp_dmn_native_circ *c) { c->k->ident(out, len, c->circ); }

/* ---- job inputs ---- */

/* One {"seed", "partition"} item; 0 or -1 with err. */
static int one_input(sp_porep_input *in, const sp_json_val *o, size_t i, char err[SP_ERR_LEN])
{
    const sp_json_val *s = sp_json_get(o, "seed"), *p = sp_json_get(o, "partition");
    uint64_t seed = 0, part = 0;
    if (o->type != SP_JSON_OBJECT || !s || !p || o->n != 2) {
        snprintf(err, SP_ERR_LEN, "inputs[%zu] must be {\"seed\": S, \"partition\": P} and nothing else", i);
        return -1;
    }
    int seed_ok = s->type == SP_JSON_STRING ? parse_u64(&seed, s->text, s->n) == 0 : sp_json_u64(&seed, s);
    if (!seed_ok) {
        snprintf(err, SP_ERR_LEN, "inputs[%zu].seed must be an integer from 0 to 18446744073709551615 (a JSON "
                 "integer, or a string of its digits)", i);
        return -1;
    }
    if (!sp_json_u64(&part, p) || part > UINT32_MAX) {
        snprintf(err, SP_ERR_LEN, "inputs[%zu].partition must be an integer from 0 to 4294967295", i);
        return -1;
    }
    in->seed = seed;
    in->partition = (uint32_t)part;
    return 0;
}

int sp_dmn_native_inputs(sp_porep_input **out, size_t *n, const sp_json_val *arr, char err[SP_ERR_LEN])
{
    *out = NULL;
    *n = 0;
    if (!arr || arr->type != SP_JSON_ARRAY || arr->n == 0) {
        snprintf(err, SP_ERR_LEN, "\"inputs\" must be an array of one or more {\"seed\": S, \"partition\": P}");
        return -1;
    }
    sp_porep_input *in = calloc(arr->n, sizeof *in);
    if (!in) {
        snprintf(err, SP_ERR_LEN, "out of memory");
        return -2;
    }
    for (size_t i = 0; i < arr->n; i++)
        if (one_input(&in[i], arr->items[i], i, err)) {
            free(in);
            return -1;
        }
    *out = in;
    *n = arr->n;
    return 0;
}

void sp_dmn_native_inputs_json(sp_json_writer *w, const sp_porep_input *in, size_t n)
{
    sp_jw_begin_array(w);
    for (size_t i = 0; i < n; i++) {
        sp_jw_begin_object(w);
        sp_jw_key(w, "seed");
        sp_jw_u64(w, in[i].seed);
        sp_jw_key(w, "partition");
        sp_jw_u64(w, in[i].partition);
        sp_jw_end_object(w);
    }
    sp_jw_end_array(w);
}
