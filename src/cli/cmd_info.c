/*
 * `snarkpipe info`: what a file is and its sizes (cmds.h). The type comes
 * from the content (magic, JSON members, bellperson layout), not the
 * name. Every reader validates as it would for proving; --check also
 * decodes and checks every point of a .zkey (the default reads only the
 * header and the verifying-key points). Witness values are never
 * printed, only their count.
 */
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/cmds.h"
#include "groth16/json_io.h"
#include "groth16/params.h"
#include "groth16/ptau.h"
#include "groth16/zkey.h"
#include "synth/synth.h"
#include "util/curves.h"

static const char USAGE[] =
    "usage: snarkpipe info [--json] [--check] [<file>]\n"
    "Prints what the file is (.r1cs, .wtns, .zkey, .ptau, bellperson .params/.vk/proof, proof.json,\n"
    "public.json, verification_key.json), its curve and its sizes; --json prints one JSON\n"
    "object; --check also validates every point of a .zkey, and of a .ptau the points a setup\n"
    "reads. Without a file: the version and the curves of this snarkpipe.\n";

/* ---- one record, printed as "key: value" lines or one JSON object ---- */

static void rec_begin(const char *path, const char *type, const char *desc)
{
    if (sp_cli_g.json) {
        printf("{\"file\":");
        sp_cli_json_str(stdout, path);
        printf(",\"type\":\"%s\"", type);
    } else {
        printf("%s: %s\n", path, desc);
    }
}

static void rec_u64(const char *key, uint64_t v)
{
    if (sp_cli_g.json)
        printf(",\"%s\":%llu", key, (unsigned long long)v);
    else
        printf("  %-20s %llu\n", key, (unsigned long long)v);
}

static void rec_str(const char *key, const char *v)
{
    if (sp_cli_g.json) {
        printf(",\"%s\":", key);
        sp_cli_json_str(stdout, v);
    } else {
        printf("  %-20s %s\n", key, v);
    }
}

/* The curve of a file that says which it is for (all but public.json):
 * this build's, whose readers refuse the other curve's files. */
static void rec_curve(void)
{
    rec_str("curve", sp_cli_g.json ? sp_curve_name(SP_CURVE_ID_THIS) : sp_curve_label(SP_CURVE_ID_THIS));
}

static void rec_end(void)
{
    if (sp_cli_g.json)
        printf("}\n");
}

/* ---- per type ---- */

static int info_r1cs(const char *path)
{
    char err[SP_ERR_LEN] = "";
    sp_r1cs cs;
    sp_status st = sp_r1cs_read(&cs, path, err);
    if (st != SP_OK)
        return sp_cli_fail_file("info", path, st, err);
    unsigned log_n = 0;
    int have_log = sp_synth_domain_log(&log_n, &cs.h, err) == SP_OK;
    rec_begin(path, "r1cs", "circom R1CS circuit");
    rec_curve();
    rec_u64("constraints", cs.h.n_constraints);
    rec_u64("wires", cs.h.n_wires);
    rec_u64("outputs", cs.h.n_outputs);
    rec_u64("public_inputs", cs.h.n_pub_inputs);
    rec_u64("private_inputs", cs.h.n_prv_inputs);
    rec_u64("labels", cs.h.n_labels);
    rec_u64("nnz_a", cs.a.nnz);
    rec_u64("nnz_b", cs.b.nnz);
    rec_u64("nnz_c", cs.c.nnz);
    if (have_log)
        rec_u64("log_domain", log_n);
    rec_end();
    sp_r1cs_free(&cs);
    return SP_EXIT_OK;
}

static int info_wtns(const char *path)
{
    char err[SP_ERR_LEN] = "";
    sp_fr *w;
    size_t n;
    sp_status st = sp_wtns_read(&w, &n, path, err);
    if (st != SP_OK)
        return sp_cli_fail_file("info", path, st, err);
    free(w);
    rec_begin(path, "wtns", "circom witness");
    rec_curve();
    rec_u64("values", n);
    rec_end();
    return SP_EXIT_OK;
}

static int info_zkey(const char *path, int check)
{
    char err[SP_ERR_LEN] = "";
    sp_zkey_info zi;
    sp_g16_vk vk;
    sp_g16_pk pk;
    sp_status st = sp_zkey_read_vk(&vk, &zi, path, 0, err);
    if (st == SP_OK)
        sp_g16_vk_free(&vk);
    if (st == SP_OK && check && (st = sp_zkey_read(&pk, &zi, path, 0, sp_cli_threads(), err)) == SP_OK)
        sp_g16_pk_free(&pk);
    if (st != SP_OK)
        return sp_cli_fail_file("info", path, st, err);
    char order[SP_ZKEY_MAX_SECTIONS_LISTED * 4 + 1] = "", hash[129];
    for (uint32_t i = 0; i < zi.n_sections && i < SP_ZKEY_MAX_SECTIONS_LISTED; i++)
        snprintf(order + strlen(order), sizeof order - strlen(order), "%s%u", i ? "," : "", zi.section_order[i]);
    for (int i = 0; i < 64; i++)
        snprintf(hash + 2 * i, 3, "%02x", zi.cs_hash[i]);
    rec_begin(path, "zkey", "snarkjs Groth16 proving key");
    rec_curve();
    rec_u64("version", zi.version);
    rec_str("sections", order);
    rec_u64("wires", zi.n_vars);
    rec_u64("public", zi.n_public);
    rec_u64("domain_size", zi.domain_size);
    rec_u64("qap_coefficients", zi.n_coefs);
    rec_u64("contributions", zi.n_contributions);
    rec_str("cs_hash", hash);
    rec_str("checked", check ? "every point" : "header and verifying key");
    rec_end();
    return SP_EXIT_OK;
}

/* Every point of a .ptau's sections (--check): what any setup may read. */
static sp_status check_ptau_points(const sp_ptau *p, char *err)
{
    static const uint32_t ids[] = {2, 3, 4, 5, 6, 12, 13, 14, 15};
    sp_status st = SP_OK;
    for (size_t k = 0; k < sizeof ids / sizeof ids[0] && st == SP_OK; k++) {
        uint64_t n = p->sec[ids[k]] ? sp_ptau_section_points(p, ids[k]) : 0;
        void *buf = n ? malloc(n * (sp_ptau_section_is_g2(ids[k]) ? sizeof(sp_g2_affine) : sizeof(sp_g1_affine)))
                      : NULL;
        if (n && !buf) {
            snprintf(err, SP_ERR_LEN, "out of memory for %llu points", (unsigned long long)n);
            st = SP_ERR_NOMEM;
        } else if (n) {
            st = sp_ptau_read_points(buf, p, ids[k], 0, n, 1, sp_cli_threads(), err);
        }
        free(buf);
    }
    return st;
}

static int info_ptau(const char *path, int check)
{
    char err[SP_ERR_LEN] = "";
    sp_ptau p;
    sp_status st = sp_ptau_open(&p, path, err);
    if (st == SP_OK && check)
        st = check_ptau_points(&p, err);
    if (st != SP_OK) {
        sp_ptau_close(&p);
        return sp_cli_fail_file("info", path, st, err);
    }
    rec_begin(path, "ptau", "snarkjs powers of tau");
    rec_curve();
    rec_u64("power", p.power);
    rec_u64("ceremony_power", p.ceremony_power);
    rec_u64("max_constraints", ((uint64_t)1 << p.power) - 1); /* less the public signals */
    rec_u64("contributions", p.n_contributions);
    rec_str("prepared_phase2", p.prepared ? "yes" : "no (`snarkpipe setup` takes it as it is)");
    rec_str("checked", check ? "every point" : "structure and sizes");
    rec_end();
    sp_ptau_close(&p);
    return SP_EXIT_OK;
}

/* .params and .vk: the verifying-key part is decoded and checked; the
 * vectors of a .params are counted (placing them needs the circuit). */
static int info_bp(const char *path, const sp_cli_bp_layout *lay)
{
    char err[SP_ERR_LEN] = "";
    uint8_t *head;
    sp_g16_vk vk;
    sp_status st = sp_cli_read_prefix(&head, path, (size_t)lay->vk_bytes, err);
    if (st == SP_OK) {
        st = sp_bp_vk_parse(&vk, head, (size_t)lay->vk_bytes, 0, err);
        free(head);
    }
    if (st != SP_OK)
        return sp_cli_fail_file("info", path, st, err);
    sp_g16_vk_free(&vk);
    if (lay->is_vk_only) {
        rec_begin(path, "bellperson_vk", "bellperson Groth16 verifying key (.vk)");
        rec_curve();
        rec_u64("public", lay->ic - 1);
    } else {
        rec_begin(path, "bellperson_params", "bellperson Groth16 parameters (.params)");
        rec_curve();
        rec_u64("public", lay->ic - 1);
        rec_u64("wires", (uint64_t)lay->ic + lay->l);
        rec_u64("domain_size", (uint64_t)lay->h + 1);
        rec_u64("h", lay->h);
        rec_u64("l", lay->l);
        rec_u64("a", lay->a);
        rec_u64("b_g1", lay->b_g1);
        rec_u64("b_g2", lay->b_g2);
    }
    rec_end();
    return SP_EXIT_OK;
}

static int info_bp_proof(const char *path)
{
    char err[SP_ERR_LEN] = "";
    uint8_t *bin;
    sp_g16_proof proof;
    sp_status st = sp_cli_read_prefix(&bin, path, SP_BP_PROOF_BYTES, err);
    if (st == SP_OK) {
        st = sp_bp_proof_decode(&proof, bin, 0, err);
        free(bin);
    }
    if (st != SP_OK)
        return sp_cli_fail_file("info", path, st, err);
    rec_begin(path, "bellperson_proof", "bellperson Groth16 proof (192 bytes, points valid)");
    rec_curve();
    rec_end();
    return SP_EXIT_OK;
}

/* proof.json, public.json or verification_key.json, told apart by their members. */
static int info_json(const char *path)
{
    char err[SP_ERR_LEN] = "", *text;
    size_t len;
    sp_status st = sp_g16_read_text(&text, &len, path, (size_t)1 << 28, err);
    if (st != SP_OK)
        return sp_cli_fail_file("info", path, st, err);
    size_t j = strspn(text, " \t\r\n");
    if (text[j] == '[') {
        sp_fr *pub;
        size_t n;
        if ((st = sp_g16_public_json_decode(&pub, &n, text, len, err)) == SP_OK) {
            free(pub);
            rec_begin(path, "public_json", "snarkjs public signals");
            rec_u64("public", n);
        }
    } else if (strstr(text, "\"pi_a\"")) {
        sp_g16_proof proof;
        if ((st = sp_g16_proof_json_decode(&proof, text, len, 0, err)) == SP_OK) {
            rec_begin(path, "proof_json", "snarkjs Groth16 proof (points valid)");
            rec_curve();
        }
    } else {
        sp_g16_vk vk;
        if ((st = sp_g16_vk_json_decode(&vk, text, len, 0, err)) == SP_OK) {
            rec_begin(path, "vkey_json", "snarkjs Groth16 verifying key");
            rec_curve();
            rec_u64("public", vk.n_public);
            sp_g16_vk_free(&vk);
        }
    }
    free(text);
    if (st != SP_OK)
        return sp_cli_fail_file("info", path, st, err);
    rec_end();
    return SP_EXIT_OK;
}

/* `info` without a file: the version and the curves this binary proves on. */
static int info_build(void)
{
    if (sp_cli_g.json)
        printf("{\"version\":\"%s\",\"curves\":[", SP_VERSION_STRING);
    else
        printf("snarkpipe %s\n  %-20s ", SP_VERSION_STRING, "curves");
    for (int k = 0; k < sp_cli_g.n_curves; k++) {
        sp_curve_id c = (sp_curve_id)sp_cli_g.curves[k];
        if (sp_cli_g.json)
            printf("%s\"%s\"", k ? "," : "", sp_curve_name(c));
        else
            printf("%s%s", k ? ", " : "", sp_curve_label(c));
    }
    printf(sp_cli_g.json ? "]}\n" : "\n");
    return SP_EXIT_OK;
}

int sp_cli_info(int argc, char **argv)
{
    const char *path = NULL;
    int check = 0;
    for (int i = 1; i < argc; i++) {
        int h = sp_cli_arg("info", USAGE, argc, argv, &i);
        if (h == SP_CLI_NEXT)
            continue;
        if (h != SP_CLI_OWN)
            return h;
        if (!strcmp(argv[i], "--check"))
            check = 1;
        else if (argv[i][0] == '-' && argv[i][1])
            return sp_cli_usage("info", USAGE, "unknown option %s", argv[i]);
        else if (path)
            return sp_cli_usage("info", USAGE, "one file at a time");
        else
            path = argv[i];
    }
    if (!path)
        return info_build();
    char err[SP_ERR_LEN] = "";
    sp_cli_file_kind kind;
    sp_cli_bp_layout lay;
    sp_status st = sp_cli_detect(&kind, &lay, path, err);
    if (st != SP_OK)
        return sp_cli_fail("info", st, err);
    switch (kind) {
    case SP_FILE_R1CS: return info_r1cs(path);
    case SP_FILE_WTNS: return info_wtns(path);
    case SP_FILE_ZKEY: return info_zkey(path, check);
    case SP_FILE_PARAMS:
    case SP_FILE_BP_VK: return info_bp(path, &lay);
    case SP_FILE_BP_PROOF: return info_bp_proof(path);
    case SP_FILE_JSON: return info_json(path);
    case SP_FILE_PTAU: return info_ptau(path, check);
    case SP_FILE_UNKNOWN: break;
    }
    return sp_cli_fail("info", SP_ERR_FORMAT, "unknown file type");
}
