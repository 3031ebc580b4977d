/* snarkjs proof.json / public.json / verification_key.json (see json_io.h). */
#include "groth16/json_io.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "pairing/pairing.h"
#include "util/curves.h"
#include "util/file.h"
#include "util/json.h"

/* ---- writing ---- */

static void w_fp(sp_json_writer *w, const sp_fp *a)
{
    char b[SP_FP_DEC_MAX];
    sp_fp_to_dec(b, sizeof b, a);
    sp_jw_string(w, b);
}

static void w_strs(sp_json_writer *w, const char *a, const char *b)
{
    sp_jw_begin_array(w);
    sp_jw_string(w, a);
    sp_jw_string(w, b);
    sp_jw_end_array(w);
}

static void w_fp2(sp_json_writer *w, const sp_fp2 *a)
{
    sp_jw_begin_array(w);
    w_fp(w, &a->c0);
    w_fp(w, &a->c1);
    sp_jw_end_array(w);
}

static void w_g1(sp_json_writer *w, const sp_g1_affine *p)
{
    sp_jw_begin_array(w);
    if (sp_g1_affine_is_inf(p)) {
        sp_jw_string(w, "0");
        sp_jw_string(w, "1");
        sp_jw_string(w, "0");
    } else {
        w_fp(w, &p->x);
        w_fp(w, &p->y);
        sp_jw_string(w, "1");
    }
    sp_jw_end_array(w);
}

static void w_g2(sp_json_writer *w, const sp_g2_affine *p)
{
    sp_jw_begin_array(w);
    if (sp_g2_affine_is_inf(p)) {
        w_strs(w, "0", "0");
        w_strs(w, "1", "0");
        w_strs(w, "0", "0");
    } else {
        w_fp2(w, &p->x);
        w_fp2(w, &p->y);
        w_strs(w, "1", "0");
    }
    sp_jw_end_array(w);
}

static void w_fp6(sp_json_writer *w, const sp_fp6 *a)
{
    sp_jw_begin_array(w);
    w_fp2(w, &a->c0);
    w_fp2(w, &a->c1);
    w_fp2(w, &a->c2);
    sp_jw_end_array(w);
}

sp_status sp_g16_proof_json_encode(char **out, size_t *len, const sp_g16_proof *proof)
{
    sp_json_writer w;
    sp_jw_init(&w, 1);
    sp_jw_begin_object(&w);
    sp_jw_key(&w, "pi_a");
    w_g1(&w, &proof->a);
    sp_jw_key(&w, "pi_b");
    w_g2(&w, &proof->b);
    sp_jw_key(&w, "pi_c");
    w_g1(&w, &proof->c);
    sp_jw_key(&w, "protocol");
    sp_jw_string(&w, "groth16");
    sp_jw_key(&w, "curve");
    sp_jw_string(&w, sp_curve_snarkjs_name(SP_CURVE_ID_THIS));
    sp_jw_end_object(&w);
    return sp_jw_finish(out, len, &w);
}

sp_status sp_g16_public_json_encode(char **out, size_t *len, const sp_fr *pub, size_t n)
{
    sp_json_writer w;
    sp_jw_init(&w, 1);
    sp_jw_begin_array(&w);
    for (size_t i = 0; i < n; i++) {
        char b[SP_FR_DEC_MAX];
        sp_fr_to_dec(b, sizeof b, &pub[i]);
        sp_jw_string(&w, b);
    }
    sp_jw_end_array(&w);
    return sp_jw_finish(out, len, &w);
}

sp_status sp_g16_vk_json_encode(char **out, size_t *len, const sp_g16_vk *vk)
{
    sp_json_writer w;
    sp_fp12 ab;
    sp_pairing(&ab, &vk->alpha1, &vk->beta2);
    sp_jw_init(&w, 1);
    sp_jw_begin_object(&w);
    sp_jw_key(&w, "protocol");
    sp_jw_string(&w, "groth16");
    sp_jw_key(&w, "curve");
    sp_jw_string(&w, sp_curve_snarkjs_name(SP_CURVE_ID_THIS));
    sp_jw_key(&w, "nPublic");
    sp_jw_u64(&w, vk->n_public);
    sp_jw_key(&w, "vk_alpha_1");
    w_g1(&w, &vk->alpha1);
    sp_jw_key(&w, "vk_beta_2");
    w_g2(&w, &vk->beta2);
    sp_jw_key(&w, "vk_gamma_2");
    w_g2(&w, &vk->gamma2);
    sp_jw_key(&w, "vk_delta_2");
    w_g2(&w, &vk->delta2);
    sp_jw_key(&w, "vk_alphabeta_12");
    sp_jw_begin_array(&w);
    w_fp6(&w, &ab.c0);
    w_fp6(&w, &ab.c1);
    sp_jw_end_array(&w);
    sp_jw_key(&w, "IC");
    sp_jw_begin_array(&w);
    for (size_t i = 0; i <= vk->n_public; i++)
        w_g1(&w, &vk->ic[i]);
    sp_jw_end_array(&w);
    sp_jw_end_object(&w);
    return sp_jw_finish(out, len, &w);
}

/* ---- reading ---- */

/* What is being read, for messages: "proof", "public inputs", ... */
typedef struct {
    const char *what;
    unsigned flags;
    char *err;
} rd;

static sp_status missing(const rd *r, const char *name)
{
    sp_bin_errf(r->err, "%s: %s missing", r->what, name);
    return SP_ERR_BAD_ENCODING;
}

static sp_status wrong(const rd *r, const char *name, const sp_json_val *v, const char *expected)
{
    sp_bin_errf(r->err, "%s: %s (byte %zu): expected %s, found %s", r->what, name, v->offset, expected,
                sp_json_type_name(v->type));
    return SP_ERR_BAD_ENCODING;
}

/* The text of a number written as a string or a bare non-negative integer. */
static const char *num_text(const sp_json_val *v)
{
    if (v->type == SP_JSON_STRING)
        return v->text;
    if (v->type == SP_JSON_NUMBER && strspn(v->text, "0123456789") == v->n)
        return v->text;
    return NULL;
}

static sp_status rd_num(sp_fp *fp, sp_fr *fr, const sp_json_val *v, const rd *r, const char *name)
{
    if (!v)
        return missing(r, name);
    const char *t = num_text(v);
    if (!t)
        return wrong(r, name, v, "a number string");
    sp_status st = fp ? sp_fp_from_str(fp, t) : sp_fr_from_str(fr, t);
    if (st == SP_ERR_NOT_CANONICAL)
        sp_bin_errf(r->err, "%s: %s (byte %zu): value >= %s", r->what, name, v->offset, fp ? "p" : "r");
    else if (st != SP_OK)
        sp_bin_errf(r->err, "%s: %s (byte %zu): not a decimal or 0x-hex number", r->what, name, v->offset);
    return st;
}

static sp_status rd_array(const sp_json_val *v, size_t n, const rd *r, const char *name)
{
    char expected[40];
    if (!v)
        return missing(r, name);
    snprintf(expected, sizeof expected, "an array of %zu", n);
    if (v->type != SP_JSON_ARRAY || v->n != n) {
        if (v->type == SP_JSON_ARRAY)
            sp_bin_errf(r->err, "%s: %s (byte %zu): expected %s, found %zu items", r->what, name, v->offset,
                        expected, v->n);
        else
            wrong(r, name, v, expected);
        return SP_ERR_BAD_ENCODING;
    }
    return SP_OK;
}

/* Reads Fp elements (n of them) from array v into out. */
static sp_status rd_fps(sp_fp *out, size_t n, const sp_json_val *v, const rd *r, const char *name)
{
    char sub[64];
    sp_status st = rd_array(v, n, r, name);
    for (size_t i = 0; i < n && st == SP_OK; i++) {
        snprintf(sub, sizeof sub, "%s[%zu]", name, i);
        st = rd_num(&out[i], NULL, sp_json_at(v, i), r, sub);
    }
    return st;
}

static sp_status rd_point_check(int on_curve, int in_group, const rd *r, const char *name, const sp_json_val *v)
{
    if (!on_curve) {
        sp_bin_errf(r->err, "%s: %s (byte %zu): not on the curve", r->what, name, v->offset);
        return SP_ERR_NOT_ON_CURVE;
    }
    if (!in_group) {
        sp_bin_errf(r->err, "%s: %s (byte %zu): not in the prime-order subgroup", r->what, name, v->offset);
        return SP_ERR_NOT_IN_SUBGROUP;
    }
    return SP_OK;
}

static sp_status bad_z(const rd *r, const char *name, const sp_json_val *v)
{
    sp_bin_errf(r->err, "%s: %s (byte %zu): z must be 1 (affine) or 0 with x = 0, y = 1 (infinity)", r->what,
                name, v->offset);
    return SP_ERR_BAD_ENCODING;
}

/* [x, y, z] with z = 1, or ["0", "1", "0"] for infinity. */
static sp_status rd_g1(sp_g1_affine *p, const sp_json_val *v, const rd *r, const char *name)
{
    sp_fp c[3];
    sp_status st = rd_fps(c, 3, v, r, name);
    if (st != SP_OK)
        return st;
    if (sp_fp_is_zero(&c[2])) {
        if (!sp_fp_is_zero(&c[0]) || !sp_fp_is_one(&c[1]))
            return bad_z(r, name, v);
        sp_g1_affine_set_inf(p);
        return SP_OK;
    }
    if (!sp_fp_is_one(&c[2]))
        return bad_z(r, name, v);
    p->x = c[0];
    p->y = c[1];
    int on = sp_g1_affine_is_on_curve(p) && !sp_g1_affine_is_inf(p);
    int grp = on && ((r->flags & SP_G16_SKIP_SUBGROUP_CHECK) || sp_g1_in_subgroup(p));
    return rd_point_check(on, grp, r, name, v);
}

/* [[x0, x1], [y0, y1], [z0, z1]] with z = 1 (or the infinity triple). */
static sp_status rd_g2(sp_g2_affine *p, const sp_json_val *v, const rd *r, const char *name)
{
    sp_fp2 c[3];
    char sub[64];
    sp_status st = rd_array(v, 3, r, name);
    for (size_t i = 0; i < 3 && st == SP_OK; i++) {
        sp_fp t[2];
        snprintf(sub, sizeof sub, "%s[%zu]", name, i);
        st = rd_fps(t, 2, sp_json_at(v, i), r, sub);
        c[i].c0 = t[0];
        c[i].c1 = t[1];
    }
    if (st != SP_OK)
        return st;
    if (sp_fp2_is_zero(&c[2])) {
        if (!sp_fp2_is_zero(&c[0]) || !sp_fp2_is_one(&c[1]))
            return bad_z(r, name, v);
        sp_g2_affine_set_inf(p);
        return SP_OK;
    }
    if (!sp_fp2_is_one(&c[2]))
        return bad_z(r, name, v);
    p->x = c[0];
    p->y = c[1];
    int on = sp_g2_affine_is_on_curve(p) && !sp_g2_affine_is_inf(p);
    int grp = on && ((r->flags & SP_G16_SKIP_SUBGROUP_CHECK) || sp_g2_in_subgroup(p));
    return rd_point_check(on, grp, r, name, v);
}

/* "curve" matched ignoring case and punctuation (util/curves.h): this
 * build's curve, or a message naming both. required: absence is an error. */
static sp_status rd_curve(const sp_json_val *root, int required, const rd *r)
{
    const sp_json_val *v = sp_json_get(root, "curve");
    if (!v)
        return required ? missing(r, "curve") : SP_OK;
    if (v->type != SP_JSON_STRING)
        return wrong(r, "curve", v, "a string");
    sp_curve_id c = sp_curve_from_name(v->text, v->n);
    if (c == SP_CURVE_ID_THIS)
        return SP_OK;
    if (c != SP_CURVE_ID_NONE) {
        sp_curve_mismatch_msg(r->err, SP_ERR_LEN, r->what, c, SP_CURVE_ID_THIS);
    } else {
        sp_bin_errf(r->err, "%s: unknown curve \"%.20s\" (this is the %s prover)", r->what, v->text,
                    sp_curve_label(SP_CURVE_ID_THIS));
    }
    return SP_ERR_UNSUPPORTED;
}

static sp_status rd_protocol(const sp_json_val *root, int required, const rd *r)
{
    const sp_json_val *v = sp_json_get(root, "protocol");
    if (!v)
        return required ? missing(r, "protocol") : SP_OK;
    if (v->type != SP_JSON_STRING)
        return wrong(r, "protocol", v, "a string");
    if (strcmp(v->text, "groth16") != 0) {
        sp_bin_errf(r->err, "%s: protocol \"%.20s\" is not groth16", r->what, v->text);
        return SP_ERR_UNSUPPORTED;
    }
    return SP_OK;
}

/* Parses text as a JSON object or array (kind). */
static sp_status rd_doc(sp_json_doc **doc, const char *text, size_t len, sp_json_type kind, const rd *r)
{
    char jerr[200];
    sp_status st = sp_json_parse(doc, text, len, NULL, jerr, sizeof jerr);
    if (st != SP_OK) {
        sp_bin_errf(r->err, "%s: %s", r->what, jerr);
        return st;
    }
    const sp_json_val *root = sp_json_root(*doc);
    if (root->type != kind) {
        sp_bin_errf(r->err, "%s: the file holds %s %s, expected %s", r->what,
                    root->type == SP_JSON_ARRAY || root->type == SP_JSON_OBJECT ? "an" : "a",
                    sp_json_type_name(root->type), kind == SP_JSON_OBJECT ? "an object" : "an array");
        sp_json_free(*doc);
        *doc = NULL;
        return SP_ERR_BAD_ENCODING;
    }
    return SP_OK;
}

sp_status sp_g16_proof_json_decode(sp_g16_proof *proof, const char *text, size_t len, unsigned flags,
                                   char err[SP_ERR_LEN])
{
    rd r = {"proof", flags, err};
    sp_json_doc *doc;
    memset(proof, 0, sizeof *proof);
    sp_status st = rd_doc(&doc, text, len, SP_JSON_OBJECT, &r);
    if (st != SP_OK)
        return st;
    const sp_json_val *root = sp_json_root(doc);
    if ((st = rd_protocol(root, 0, &r)) == SP_OK && (st = rd_curve(root, 0, &r)) == SP_OK &&
        (st = rd_g1(&proof->a, sp_json_get(root, "pi_a"), &r, "pi_a")) == SP_OK &&
        (st = rd_g2(&proof->b, sp_json_get(root, "pi_b"), &r, "pi_b")) == SP_OK)
        st = rd_g1(&proof->c, sp_json_get(root, "pi_c"), &r, "pi_c");
    if (st != SP_OK)
        memset(proof, 0, sizeof *proof);
    sp_json_free(doc);
    return st;
}

sp_status sp_g16_public_json_decode(sp_fr **pub, size_t *n, const char *text, size_t len, char err[SP_ERR_LEN])
{
    rd r = {"public inputs", 0, err};
    sp_json_doc *doc;
    *pub = NULL;
    *n = 0;
    sp_status st = rd_doc(&doc, text, len, SP_JSON_ARRAY, &r);
    if (st != SP_OK)
        return st;
    const sp_json_val *root = sp_json_root(doc);
    size_t count = root->n;
    sp_fr *v = malloc((count ? count : 1) * sizeof *v);
    if (!v) {
        sp_bin_errf(err, "public inputs: out of memory");
        st = SP_ERR_NOMEM;
    }
    for (size_t i = 0; v && i < count && st == SP_OK; i++) {
        char name[32];
        snprintf(name, sizeof name, "[%zu]", i);
        st = rd_num(NULL, &v[i], sp_json_at(root, i), &r, name);
    }
    sp_json_free(doc);
    if (st != SP_OK) {
        free(v);
        return st;
    }
    *pub = v;
    *n = count;
    return SP_OK;
}

static sp_status rd_vk_body(sp_g16_vk *vk, const sp_json_val *root, const rd *r)
{
    uint64_t np;
    const sp_json_val *v = sp_json_get(root, "nPublic");
    sp_status st;
    if ((st = rd_protocol(root, 1, r)) != SP_OK || (st = rd_curve(root, 1, r)) != SP_OK)
        return st;
    if (!v)
        return missing(r, "nPublic");
    if (!sp_json_u64(&np, v) || np >= UINT32_MAX)
        return wrong(r, "nPublic", v, "a count below 2^32 - 1");
    const sp_json_val *ic = sp_json_get(root, "IC");
    if ((st = rd_array(ic, (size_t)np + 1, r, "IC")) != SP_OK)
        return st;
    if (sp_g16_vk_alloc(vk, (uint32_t)np) != SP_OK) {
        sp_bin_errf(r->err, "%s: out of memory", r->what);
        return SP_ERR_NOMEM;
    }
    if ((st = rd_g1(&vk->alpha1, sp_json_get(root, "vk_alpha_1"), r, "vk_alpha_1")) != SP_OK ||
        (st = rd_g2(&vk->beta2, sp_json_get(root, "vk_beta_2"), r, "vk_beta_2")) != SP_OK ||
        (st = rd_g2(&vk->gamma2, sp_json_get(root, "vk_gamma_2"), r, "vk_gamma_2")) != SP_OK ||
        (st = rd_g2(&vk->delta2, sp_json_get(root, "vk_delta_2"), r, "vk_delta_2")) != SP_OK)
        return st;
    for (size_t i = 0; i <= np && st == SP_OK; i++) {
        char name[32];
        snprintf(name, sizeof name, "IC[%zu]", i);
        st = rd_g1(&vk->ic[i], sp_json_at(ic, i), r, name);
    }
    return st;
}

sp_status sp_g16_vk_json_decode(sp_g16_vk *vk, const char *text, size_t len, unsigned flags, char err[SP_ERR_LEN])
{
    rd r = {"verification key", flags, err};
    sp_json_doc *doc;
    memset(vk, 0, sizeof *vk);
    sp_status st = rd_doc(&doc, text, len, SP_JSON_OBJECT, &r);
    if (st != SP_OK)
        return st;
    st = rd_vk_body(vk, sp_json_root(doc), &r);
    if (st != SP_OK)
        sp_g16_vk_free(vk);
    sp_json_free(doc);
    return st;
}

/* ---- files ---- */

sp_status sp_g16_read_text(char **text, size_t *len, const char *path, size_t max, char err[SP_ERR_LEN])
{
    *text = NULL;
    *len = 0;
    FILE *f = sp_file_fopen_regular(path, "rb", "json", err);
    if (!f)
        return SP_ERR_IO;
    size_t cap = 4096, n = 0;
    char *b = malloc(cap + 1);
    sp_status st = b ? SP_OK : SP_ERR_NOMEM;
    while (st == SP_OK) {
        if (n == cap) {
            char *nb = cap > max ? NULL : realloc(b, 2 * cap + 1);
            if (!nb) {
                st = cap > max ? SP_ERR_FORMAT : SP_ERR_NOMEM;
                break;
            }
            b = nb;
            cap *= 2;
        }
        size_t got = fread(b + n, 1, cap - n, f);
        n += got;
        if (got == 0) {
            if (ferror(f))
                st = SP_ERR_IO;
            break;
        }
    }
    fclose(f);
    if (st == SP_OK && n > max)
        st = SP_ERR_FORMAT;
    if (st != SP_OK) {
        free(b);
        sp_bin_errf(err, "%s: %s", path, st == SP_ERR_FORMAT ? "file too large" : st == SP_ERR_IO ? "read error" : "out of memory");
        return st;
    }
    b[n] = 0;
    *text = b;
    *len = n;
    return SP_OK;
}

sp_status sp_g16_write_text(const char *path, const char *text, size_t len, char err[SP_ERR_LEN])
{
    FILE *f = fopen(path, "wb");
    if (!f) {
        sp_bin_errf(err, "%s: %s", path, strerror(errno));
        return SP_ERR_IO;
    }
    int ok = fwrite(text, 1, len, f) == len;
    ok &= fclose(f) == 0;
    if (!ok) {
        sp_bin_errf(err, "%s: write failed: %s", path, strerror(errno));
        return SP_ERR_IO;
    }
    return SP_OK;
}

#define JSON_FILE_MAX ((size_t)1 << 28)

/* Writes text (and frees it) after an encoder returned st. */
static sp_status write_encoded(sp_status st, const char *path, char *text, size_t len, char *err)
{
    if (st != SP_OK) {
        sp_bin_errf(err, "%s: out of memory", path);
        return st;
    }
    st = sp_g16_write_text(path, text, len, err);
    free(text);
    return st;
}

/* Prefixes err with the path. */
static sp_status with_path(sp_status st, const char *path, char *err)
{
    if (st != SP_OK && err) {
        char msg[SP_ERR_LEN];
        snprintf(msg, sizeof msg, "%s", err);
        sp_bin_errf(err, "%s: %s", path, msg);
    }
    return st;
}

sp_status sp_g16_proof_json_write(const char *path, const sp_g16_proof *proof, char err[SP_ERR_LEN])
{
    char *t;
    size_t n;
    sp_status st = sp_g16_proof_json_encode(&t, &n, proof);
    return write_encoded(st, path, t, n, err);
}

sp_status sp_g16_public_json_write(const char *path, const sp_fr *pub, size_t count, char err[SP_ERR_LEN])
{
    char *t;
    size_t n;
    sp_status st = sp_g16_public_json_encode(&t, &n, pub, count);
    return write_encoded(st, path, t, n, err);
}

sp_status sp_g16_vk_json_write(const char *path, const sp_g16_vk *vk, char err[SP_ERR_LEN])
{
    char *t;
    size_t n;
    sp_status st = sp_g16_vk_json_encode(&t, &n, vk);
    return write_encoded(st, path, t, n, err);
}

sp_status sp_g16_proof_json_read(sp_g16_proof *proof, const char *path, unsigned flags, char err[SP_ERR_LEN])
{
    char *t;
    size_t n;
    memset(proof, 0, sizeof *proof);
    sp_status st = sp_g16_read_text(&t, &n, path, JSON_FILE_MAX, err);
    if (st != SP_OK)
        return st;
    st = with_path(sp_g16_proof_json_decode(proof, t, n, flags, err), path, err);
    free(t);
    return st;
}

sp_status sp_g16_public_json_read(sp_fr **pub, size_t *count, const char *path, char err[SP_ERR_LEN])
{
    char *t;
    size_t n;
    *pub = NULL;
    *count = 0;
    sp_status st = sp_g16_read_text(&t, &n, path, JSON_FILE_MAX, err);
    if (st != SP_OK)
        return st;
    st = with_path(sp_g16_public_json_decode(pub, count, t, n, err), path, err);
    free(t);
    return st;
}

sp_status sp_g16_vk_json_read(sp_g16_vk *vk, const char *path, unsigned flags, char err[SP_ERR_LEN])
{
    char *t;
    size_t n;
    memset(vk, 0, sizeof *vk);
    sp_status st = sp_g16_read_text(&t, &n, path, JSON_FILE_MAX, err);
    if (st != SP_OK)
        return st;
    st = with_path(sp_g16_vk_json_decode(vk, t, n, flags, err), path, err);
    free(t);
    return st;
}
