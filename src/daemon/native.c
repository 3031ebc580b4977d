/* Native circuits' parameters and job inputs in their daemon forms (native.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "daemon/native.h"

/* The parameters by name: the configuration's, the multipart fields' and
 * the JSON members' spelling, in sp_dmn_native.v's order. */
static const char *const PARAM_NAMES[SP_DMN_NATIVE_N_PARAMS] = {"challenges",  "layers",        "nodes",  "drg_parents",
                                                                 "exp_parents", "label_parents", "sectors"};
#define N_PARAMS SP_DMN_NATIVE_N_PARAMS
#define BIT(p) (1u << (p))

/* One native kind: its name and the parameters it takes (what its circuit
 * layer does with them is the curve's: sp_dmn_native_ops, same index). */
typedef struct {
    const char *name;
    unsigned takes; /* BIT(SP_DMN_P_...) of each parameter it takes */
} kind_desc;

struct sp_dmn_native_circ {
    const kind_desc *k;
    const sp_dmn_native_ops *ops;
    void *circ;
    const sp_native_circuit *nc;
    sp_dmn_native_shape shape;
};

static const kind_desc KINDS[SP_DMN_NATIVE_N_KINDS] = {
    [SP_DMN_NATIVE_POREP] = {"porep-like", BIT(SP_DMN_P_CHALLENGES) | BIT(SP_DMN_P_LAYERS) | BIT(SP_DMN_P_NODES) |
                                               BIT(SP_DMN_P_DRG) | BIT(SP_DMN_P_EXP) | BIT(SP_DMN_P_LABEL)},
    [SP_DMN_NATIVE_POST] = {"window-post-like", BIT(SP_DMN_P_SECTORS) | BIT(SP_DMN_P_CHALLENGES) | BIT(SP_DMN_P_NODES)},
};
#define N_KINDS SP_DMN_NATIVE_N_KINDS

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
        n->v[k] = SP_DMN_NATIVE_UNSET;
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
        any |= n->v[k] != SP_DMN_NATIVE_UNSET;
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

/* The kind of n, its parameters checked against it; NULL with err when
 * they do not belong. */
static const kind_desc *kind_of(const sp_dmn_native *n, char err[SP_ERR_LEN])
{
    const kind_desc *k = n->kind[0] ? find_kind(n->kind) : NULL;
    if (!k) {
        snprintf(err, SP_ERR_LEN, sp_dmn_native_given(n) ? "native circuit parameters without native = "
                 SP_DMN_NATIVE_KINDS : "not a native circuit");
        return NULL;
    }
    for (size_t p = 0; p < N_PARAMS; p++)
        if (n->v[p] != SP_DMN_NATIVE_UNSET && !(k->takes & BIT(p))) {
            snprintf(err, SP_ERR_LEN, "%s takes no parameter '%s'", k->name, PARAM_NAMES[p]);
            return NULL;
        }
    return k;
}

sp_status sp_dmn_native_check(const sp_dmn_native *n, const sp_dmn_native_ops *kinds, char err[SP_ERR_LEN])
{
    const kind_desc *k = kind_of(n, err);
    return k && kinds[k - KINDS].check(n, err) == SP_OK ? SP_OK : SP_ERR_INVALID_ARG;
}

void sp_dmn_native_print(FILE *f, const sp_dmn_native *n)
{
    if (!sp_dmn_native_on(n))
        return;
    fprintf(f, "native = %s\n", n->kind);
    if (n->preset[0])
        fprintf(f, "preset = %s\n", n->preset);
    for (size_t k = 0; k < N_PARAMS; k++)
        if (n->v[k] != SP_DMN_NATIVE_UNSET)
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
        if (n->v[k] != SP_DMN_NATIVE_UNSET) {
            sp_jw_key(w, PARAM_NAMES[k]);
            sp_jw_u64(w, n->v[k]);
        }
    sp_jw_end_object(w);
}

/* ---- open circuits ---- */

sp_status sp_dmn_native_open(sp_dmn_native_circ **out, const sp_dmn_native *n, const sp_dmn_native_ops *kinds,
                             char err[SP_ERR_LEN])
{
    *out = NULL;
    const kind_desc *k = kind_of(n, err);
    if (!k)
        return SP_ERR_INVALID_ARG;
    sp_dmn_native_circ *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(err, SP_ERR_LEN, "out of memory");
        return SP_ERR_NOMEM;
    }
    c->k = k;
    c->ops = &kinds[k - KINDS];
    sp_status st = c->ops->open(&c->circ, &c->nc, &c->shape, n, err);
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
    c->ops->close(c->circ);
    free(c);
}

const sp_native_circuit *sp_dmn_native_nc(const sp_dmn_native_circ *c) { return c->nc; }

sp_dmn_native_shape sp_dmn_native_shape_of(const sp_dmn_native_circ *c) { return c->shape; }

const char *sp_dmn_native_kind(const sp_dmn_native_circ *c) { return c->k->name; }

const char *sp_dmn_native_preset(const sp_dmn_native_circ *c)
{
    uint64_t v[N_PARAMS];
    return c->ops->values(c->circ, v);
}

void sp_dmn_native_describe(sp_json_writer *w, const sp_dmn_native_circ *c)
{
    uint64_t v[N_PARAMS] = {0};
    const char *preset = c->ops->values(c->circ, v);
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
    sp_jw_u64(w, c->shape.n_rows);
}

void sp_dmn_native_ident(char *out, size_t len, const sp_dmn_native_circ *c) { c->ops->ident(out, len, c->circ); }

/* ---- job inputs ---- */

/* One {"seed", "partition"} item; 0 or -1 with err. */
static int one_input(sp_dmn_native_input *in, const sp_json_val *o, size_t i, char err[SP_ERR_LEN])
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

int sp_dmn_native_inputs(sp_dmn_native_input **out, size_t *n, const sp_json_val *arr, char err[SP_ERR_LEN])
{
    *out = NULL;
    *n = 0;
    if (!arr || arr->type != SP_JSON_ARRAY || arr->n == 0) {
        snprintf(err, SP_ERR_LEN, "\"inputs\" must be an array of one or more {\"seed\": S, \"partition\": P}");
        return -1;
    }
    sp_dmn_native_input *in = calloc(arr->n, sizeof *in);
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

void sp_dmn_native_inputs_json(sp_json_writer *w, const sp_dmn_native_input *in, size_t n)
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
