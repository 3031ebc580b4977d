/*
 * The /v1 routes of circuits (api.h): register by path (JSON) or by
 * upload (multipart), list, evict. A registration names a key (zkey, or
 * params with its r1cs), optionally an r1cs and a circom circuit's .wasm,
 * or a native circuit's kind and parameters (daemon/native.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "daemon/form.h"
#include "daemon/api.h"
#include "daemon/log.h"
#include "util/rng.h"

void sp_dmn_api_circuits_list(sp_dmn *d, dreq *r)
{
    sp_json_writer w;
    sp_jw_init(&w, 0);
    sp_jw_begin_object(&w);
    sp_dmn_reg_json(d, &w);
    sp_jw_end_object(&w);
    sp_dmn_http_send_json(r, 200, &w);
}

/* Writes an uploaded part to a file of its own in upload_dir (the id,
 * a random tag, the extension: two uploads never share a name, even under
 * one id); the path into out. Returns 0 or 500. */
static int save_upload(sp_dmn *d, char *out, size_t out_len, const char *id, const char *ext,
                       const sp_dmn_form_part *p, char err[SP_ERR_LEN])
{
    uint8_t tag[6];
    if (sp_os_random(tag, sizeof tag) != SP_OK) {
        snprintf(err, SP_ERR_LEN, "cannot store the upload of '%s': no randomness", id);
        return 500;
    }
    snprintf(out, out_len, "%s/%s.%02x%02x%02x%02x%02x%02x.%s", d->upload_dir, id, tag[0], tag[1], tag[2], tag[3],
             tag[4], tag[5], ext);
    int fd = open(out, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
    size_t off = 0;
    while (fd >= 0 && off < p->len) {
        ssize_t k = write(fd, p->data + off, p->len - off);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        off += (size_t)k;
    }
    int ok = fd >= 0 && off == p->len && fsync(fd) == 0;
    if (fd >= 0)
        ok &= close(fd) == 0;
    if (!ok) {
        if (fd >= 0)
            unlink(out);
        snprintf(err, SP_ERR_LEN, "cannot store the upload of '%s': %s", id, strerror(errno));
        return 500;
    }
    return 0;
}

/* A registration's native parameters, checked before any file is looked
 * at: 0, or 422 with *bad_params set (err says why). */
static int native_check(const sp_dmn_ops *ops, const sp_dmn_native *n, int *bad_params, char err[SP_ERR_LEN])
{
    if (!sp_dmn_native_given(n) || sp_dmn_native_check(n, ops->native, err) == SP_OK)
        return 0;
    *bad_params = 1;
    return 422;
}

/* The native fields of an upload (native, preset, nodes, ...: text, as in
 * the configuration); 0 or 400. */
static int native_fields(sp_dmn_native *n, const sp_dmn_form_part *parts, size_t np, char err[SP_ERR_LEN])
{
    sp_dmn_native_init(n);
    for (size_t i = 0; i < np; i++) {
        char v[64];
        snprintf(v, sizeof v, "%.*s", (int)(parts[i].len < 63 ? parts[i].len : 63), (const char *)parts[i].data);
        int k = sp_dmn_native_set(n, parts[i].name, v, err);
        if (k > 0 && (parts[i].len >= sizeof v || strlen(v) != parts[i].len)) {
            snprintf(err, SP_ERR_LEN, "field %s: the value is too long or holds a NUL byte", parts[i].name);
            k = -1;
        }
        if (k < 0)
            return 400;
    }
    return 0;
}

/* multipart: id, preload, zkey or params (+ r1cs, + wasm) files. The id is
 * reserved before a byte is written: a second upload under the same id is
 * refused (409) and cannot touch the first one's files. */
static int add_upload(sp_dmn *d, dreq *r, char *id_out, int *bad_params, char err[SP_ERR_LEN])
{
    size_t len, np;
    const uint8_t *b = sp_dmn_req_body(r, &len);
    sp_dmn_form_part *parts = NULL;
    if (sp_dmn_form_parse(&parts, &np, sp_dmn_req_header(r, "Content-Type"), b, len, err) != SP_OK)
        return 400;
    const sp_dmn_form_part *pid = sp_dmn_form_get(parts, np, "id"), *pz = sp_dmn_form_get(parts, np, "zkey"),
                       *pp = sp_dmn_form_get(parts, np, "params"), *pc = sp_dmn_form_get(parts, np, "r1cs"),
                       *pl = sp_dmn_form_get(parts, np, "preload"), *pw = sp_dmn_form_get(parts, np, "wasm");
    char id[64] = "", pre[8] = "yes", zk[SP_DMN_CONF_PATH + 80] = "", cs[SP_DMN_CONF_PATH + 80] = "",
         wa[SP_DMN_CONF_PATH + 80] = "";
    int code = 0, preload = 1;
    if (pid && pid->len < sizeof id)
        snprintf(id, sizeof id, "%.*s", (int)pid->len, (const char *)pid->data);
    if (pl && pl->len < sizeof pre)
        snprintf(pre, sizeof pre, "%.*s", (int)pl->len, (const char *)pl->data);
    sp_dmn_native nat;
    reg_spec s = {id, NULL, NULL, NULL, 1, SP_DMN_SRC_UPLOAD, 0, &nat, NULL};
    dcircuit *c = NULL;
    if (sp_dmn_conf_parse_bool(&preload, pre) || !(pz || pp) || (pz && pp) || (pp && !pc) ||
        strlen(id) != (pid ? pid->len : 0)) {
        snprintf(err, SP_ERR_LEN, "an upload needs an id of [A-Za-z0-9._:-], one zkey or params file (params with "
                 "an r1cs file) and preload yes or no");
        code = 400;
    }
    if (!code && !(code = native_fields(&nat, parts, np, err)))
        code = native_check(d->ops, &nat, bad_params, err);
    if (!code)
        code = sp_dmn_reg_reserve(d, id, SP_DMN_SRC_UPLOAD, &c, err);
    if (!code && (code = save_upload(d, zk, sizeof zk, id, pz ? "zkey" : "params", pz ? pz : pp, err)) == 0) {
        if (pc && (code = save_upload(d, cs, sizeof cs, id, "r1cs", pc, err)) != 0)
            unlink(zk);
        if (!code && pw && (code = save_upload(d, wa, sizeof wa, id, "wasm", pw, err)) != 0) {
            unlink(zk);
            if (pc)
                unlink(cs);
        }
    }
    if (code && c)
        sp_dmn_reg_abandon(d, c);
    if (!code) {
        s.zkey = pz ? zk : NULL;
        s.params = pp ? zk : NULL;
        s.r1cs = pc ? cs : NULL;
        s.wasm = pw ? wa : NULL;
        s.preload = preload;
        code = sp_dmn_reg_add_reserved(d, c, &s, err);
        if (code != 201) { /* the files are this request's alone */
            unlink(zk);
            if (pc)
                unlink(cs);
            if (pw)
                unlink(wa);
        }
    }
    snprintf(id_out, 64, "%s", id);
    free(parts);
    return code;
}

/* JSON: {"id", "zkey" | "params", "r1cs"?, "wasm"?, "preload"?, "native"?,
 * "native_params"?}: files the daemon reads in place, under keys.key_dirs
 * (keypath.c). */
static int add_by_path(sp_dmn *d, dreq *r, char *id_out, int *bad_params, char err[SP_ERR_LEN])
{
    sp_json_doc *doc = sp_dmn_req_json(r);
    if (!doc)
        return 0; /* answered */
    const sp_json_val *o = sp_json_root(doc), *pl = sp_json_get(o, "preload");
    int code = 0;
    if (pl && pl->type != SP_JSON_TRUE && pl->type != SP_JSON_FALSE) {
        snprintf(err, SP_ERR_LEN, "preload must be true or false");
        code = 400;
    }
    sp_dmn_native nat;
    reg_spec s = {sp_dmn_json_str(o, "id"), sp_dmn_json_str(o, "zkey"), sp_dmn_json_str(o, "params"), sp_dmn_json_str(o, "r1cs"),
                  !pl || pl->type == SP_JSON_TRUE, SP_DMN_SRC_API, 0, &nat, sp_dmn_json_str(o, "wasm")};
    snprintf(id_out, 64, "%s", s.id ? s.id : "");
    size_t il = s.id ? strlen(s.id) : 0;
    if (!code && (il == 0 || il > 63 || strspn(s.id, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._:-")
                  != il)) { /* the id first: a bad request is told so before any file is looked at */
        snprintf(err, SP_ERR_LEN, "id must be 1 to 63 characters of [A-Za-z0-9._:-]");
        code = 400;
    }
    if (!code && sp_dmn_native_from_json(&nat, sp_json_get(o, "native"), sp_json_get(o, "native_params"), err))
        code = 400;
    if (!code)
        code = native_check(d->ops, &nat, bad_params, err);
    static char none[1];
    char real[4][SP_DMN_CONF_PATH];
    const char **paths[4] = {&s.zkey, &s.params, &s.r1cs, &s.wasm};
    for (int i = 0; i < 4 && !code; i++) {
        if (*paths[i] && **paths[i] && !(code = sp_dmn_reg_check_path(d, *paths[i], real[i], sizeof real[i], err)))
            *paths[i] = real[i];
        else if (*paths[i] && !**paths[i])
            *paths[i] = none;
    }
    if (!code)
        code = sp_dmn_reg_add(d, &s, err);
    sp_json_free(doc);
    return code;
}

void sp_dmn_api_circuits_add(sp_dmn *d, dreq *r)
{
    char err[SP_ERR_LEN] = "", id[64] = "";
    int code, bad_params = 0;
    if (sp_dmn_req_is_type(r, "multipart/form-data")) {
        code = add_upload(d, r, id, &bad_params, err);
    } else if (sp_dmn_req_is_type(r, "application/json")) {
        if (!(code = add_by_path(d, r, id, &bad_params, err))) {
            SP_DMN_LOGI("circuit registration refused (400 malformed_json)");
            return;
        }
    } else {
        SP_DMN_LOGI("circuit registration refused (415 unsupported_media_type)");
        sp_dmn_http_error(r, 415, "unsupported_media_type", "register with application/json (paths) or "
                          "multipart/form-data (upload)");
        return;
    }
    if (code != 201) {
        const char *what = code == 409 ? "circuit_exists" : bad_params ? "bad_params" : code == 422 ? "bad_key"
                         : code == 400 ? "bad_request" : code == 403 ? "forbidden_path" : code == 500
                         ? "state_write_failed" : code == 507 ? "too_many_circuits" : "unavailable";
        SP_DMN_LOGI("circuit %.63s: registration refused (%d %s): %s", id[0] ? id : "(no id)", code, what, err);
        sp_dmn_http_error(r, code, what, "%s", err);
        return;
    }
    sp_json_writer w;
    sp_jw_init(&w, 0);
    if (sp_dmn_reg_describe(d, id, &w)) { /* evicted in between */
        sp_jw_free(&w);
        sp_dmn_http_error(r, 409, "circuit_gone", "circuit '%s' was evicted meanwhile", id);
        return;
    }
    sp_dmn_http_send_json(r, 201, &w);
}

void sp_dmn_api_circuits_delete(sp_dmn *d, dreq *r)
{
    char err[SP_ERR_LEN];
    size_t freed = 0;
    const char *id = sp_dmn_req_last_segment(r);
    int code = sp_dmn_reg_evict(d, id, &freed, err);
    if (code != 200) {
        sp_dmn_http_error(r, code, code == 404 ? "unknown_circuit" : code == 500 ? "state_write_failed" : "in_use", "%s",
                          err);
        return;
    }
    sp_json_writer w;
    sp_jw_init(&w, 0);
    sp_jw_begin_object(&w);
    sp_jw_key(&w, "id");
    sp_jw_string(&w, id);
    sp_jw_key(&w, "evicted");
    sp_jw_bool(&w, 1);
    sp_jw_key(&w, "freed_bytes");
    sp_jw_u64(&w, freed);
    sp_jw_end_object(&w);
    sp_dmn_http_send_json(r, 200, &w);
}
