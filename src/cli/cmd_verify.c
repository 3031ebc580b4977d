/*
 * `snarkpipe verify`: checks one proof (cmds.h). snarkjs' argument order.
 *
 * Exit 0 and "OK" when the proof verifies; 1 and "INVALID" when it does
 * not, including when a proof point or a public input is not a valid
 * group or field element (as snarkjs answers for those); 2 when a file
 * cannot be read or is not what it should be (syntax, missing members,
 * another curve, a malformed verifying key, a wrong number of inputs).
 */
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/cmds.h"
#include "cli/precheck.h"
#include "groth16/json_io.h"
#include "groth16/params.h"
#include "groth16/verify.h"

static const char USAGE[] =
    "usage: snarkpipe verify [--json] [--quiet] <verification_key.json|key.zkey|key.vk|key.params>\n"
    "                        <public.json> <proof.json|proof.bin>\n"
    "Checks a Groth16 proof. The key is snarkjs JSON, a .zkey or bellperson .params (only their\n"
    "verifying-key part is read, every point checked, as export-vkey does) or a bellperson .vk;\n"
    "the proof is snarkjs JSON or the 192-byte bellperson encoding. Prints OK (exit 0) or INVALID\n"
    "(exit 1); unreadable or malformed files exit 2.\n";

/* Contents that decode structurally but are not valid elements: the
 * proof is then simply not a valid proof. */
static int is_content_error(sp_status st)
{
    return st == SP_ERR_NOT_ON_CURVE || st == SP_ERR_NOT_IN_SUBGROUP || st == SP_ERR_NOT_CANONICAL ||
           st == SP_ERR_NO_SQRT;
}

static int report(int valid, const char *why) { return sp_cli_verdict("verify", valid, NULL, why); }

/* Returns SP_EXIT_OK, SP_EXIT_CHECK (after reporting INVALID) or an error. */
static int read_proof(sp_g16_proof *proof, const char *path)
{
    char err[SP_ERR_LEN] = "";
    sp_cli_file_kind kind;
    sp_status st = sp_cli_detect(&kind, NULL, path, err);
    if (st == SP_OK && kind == SP_FILE_JSON) {
        st = sp_g16_proof_json_read(proof, path, 0, err);
        if (is_content_error(st))
            return report(0, err);
    } else if (st == SP_OK && kind == SP_FILE_BP_PROOF) {
        uint8_t *bin;
        if ((st = sp_cli_read_prefix(&bin, path, SP_BP_PROOF_BYTES, err)) != SP_OK)
            return sp_cli_fail_file("verify", path, st, err);
        st = sp_bp_proof_decode(proof, bin, 0, err);
        free(bin);
        if (st != SP_OK) { /* 192 bytes that are not three valid points */
            char msg[SP_ERR_LEN + 64];
            snprintf(msg, sizeof msg, "%s: %s", path, err);
            return report(0, msg);
        }
    } else if (st == SP_OK) {
        snprintf(err, sizeof err, "not a proof (expected proof.json or a 192-byte bellperson proof)");
        st = SP_ERR_FORMAT;
    }
    return st == SP_OK ? SP_EXIT_OK : sp_cli_fail_file("verify", path, st, err);
}

static int check(const sp_g16_vk *vk, const sp_g16_proof *proof, const char *pub_path)
{
    char err[SP_ERR_LEN] = "";
    sp_fr *pub = NULL;
    size_t n_pub = 0;
    sp_status st = sp_g16_public_json_read(&pub, &n_pub, pub_path, err);
    if (is_content_error(st))
        return report(0, err);
    if (st != SP_OK)
        return sp_cli_fail_file("verify", pub_path, st, err);
    if (n_pub != vk->n_public) {
        free(pub);
        snprintf(err, sizeof err, "%zu public signals, the verifying key expects %u", n_pub, vk->n_public);
        return sp_cli_fail_file("verify", pub_path, SP_ERR_FORMAT, err);
    }
    sp_g16_pvk pvk;
    int valid = 0;
    if ((st = sp_g16_pvk_init(&pvk, vk, err)) == SP_OK) {
        st = sp_g16_verify(&valid, &pvk, proof, pub, n_pub, err);
        sp_g16_pvk_free(&pvk);
    }
    free(pub);
    if (st != SP_OK)
        return sp_cli_fail("verify", st, err);
    return report(valid, NULL);
}

int sp_cli_verify(int argc, char **argv)
{
    char *pos[3];
    int rc = sp_cli_files("verify", USAGE, argc, argv, pos, 3);
    if (rc != SP_CLI_NEXT)
        return rc;
    sp_g16_vk vk;
    sp_g16_proof proof;
    memset(&vk, 0, sizeof vk);
    rc = sp_cli_check_json_order("verify", "the order is verify <verification_key.json> <public.json> <proof.json>",
                                 pos[1], pos[2]);
    if (rc != SP_EXIT_OK)
        return rc;
    rc = sp_cli_read_vk(&vk, NULL, "verify", pos[0]);
    if (rc == SP_EXIT_OK)
        rc = read_proof(&proof, pos[2]);
    if (rc == SP_EXIT_OK)
        rc = check(&vk, &proof, pos[1]);
    sp_g16_vk_free(&vk);
    return rc;
}
