/* Checks of a command's arguments that cost milliseconds (precheck.h). */
#include "cli/precheck.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli/cli.h"
#include "groth16/zkey.h"
#include "r1cs/binfile.h"
#include "util/curves.h"
#include "util/file.h"
#include "field/field.h"

static const char *kind_name(sp_cli_file_kind k)
{
    switch (k) {
    case SP_FILE_R1CS: return "a circuit (.r1cs)";
    case SP_FILE_WTNS: return "a witness (.wtns)";
    case SP_FILE_ZKEY: return "a proving key (.zkey)";
    case SP_FILE_PARAMS: return "a bellperson .params key";
    case SP_FILE_BP_VK: return "a bellperson .vk";
    case SP_FILE_BP_PROOF: return "a 192-byte bellperson proof";
    case SP_FILE_JSON: return "JSON";
    case SP_FILE_PTAU: return "a powers-of-tau file (.ptau)";
    case SP_FILE_UNKNOWN: break;
    }
    return "a file of unknown type";
}

/* The likely cause of file k having kind got where want belongs, beyond
 * "it is not": another argument's place, or how to make the right file. */
static void hint(char *out, size_t n, const sp_cli_arg_file *f, int cnt, int k, sp_cli_file_kind got,
                 const sp_cli_file_kind *kinds, const char *order)
{
    for (int j = 0; j < cnt; j++)
        if (j != k && f[j].want == got && kinds[j] == f[k].want) {
            snprintf(out, n, ": %s and %s look swapped (%s)", f[k].path, f[j].path, order);
            return;
        }
    for (int j = 0; j < cnt; j++)
        if (j != k && f[j].want == got) {
            snprintf(out, n, ": it belongs where %s is (%s)", f[j].role, order);
            return;
        }
    if (f[k].want == SP_FILE_WTNS && got == SP_FILE_JSON)
        snprintf(out, n, ": circuit inputs (input.json) are not a witness; compute the witness from them first "
                         "(`snarkpipe wtns calculate circuit.wasm input.json witness.wtns`, or snarkjs' command of "
                         "that name), or prove from the inputs in one step (`snarkpipe fullprove input.json "
                         "circuit.wasm circuit.zkey proof.json public.json`)");
    else if (f[k].want == SP_FILE_ZKEY && got == SP_FILE_R1CS)
        snprintf(out, n, ": make a key from the circuit first (`snarkpipe setup circuit.r1cs circuit.zkey`)");
    else if (f[k].want == SP_FILE_ZKEY && got == SP_FILE_PTAU)
        snprintf(out, n, ": a key is made from it and the circuit by a setup (snarkpipe setup circuit.r1cs pot.ptau "
                         "circuit.zkey)");
    else if (f[k].want == SP_FILE_ZKEY && got == SP_FILE_PARAMS)
        snprintf(out, n, ": give a bellperson key as --params FILE with --r1cs circuit.r1cs");
    else
        snprintf(out, n, " (%s)", order);
}

int sp_cli_check_files(const char *cmd, const char *order, const sp_cli_arg_file *f, int n)
{
    sp_cli_file_kind kinds[8];
    char err[SP_ERR_LEN] = "", why[2 * SP_ERR_LEN + 1024];
    if (n > 8)
        n = 8;
    for (int k = 0; k < n; k++) {
        sp_status st = sp_cli_detect(&kinds[k], NULL, f[k].path, err);
        if (st == SP_ERR_IO)
            return sp_cli_fail(cmd, st, err);
    }
    for (int k = 0; k < n; k++) {
        if (kinds[k] == f[k].want || kinds[k] == SP_FILE_UNKNOWN)
            continue; /* unknown: the file's reader says what is wrong with it */
        char h[1024];
        hint(h, sizeof h, f, n, k, kinds[k], kinds, order);
        snprintf(why, sizeof why, "%s is %s, not %s%s", f[k].path, kind_name(kinds[k]), kind_name(f[k].want), h);
        fprintf(stderr, "snarkpipe %s: %s\n", cmd, why);
        return SP_EXIT_RUNTIME;
    }
    return SP_EXIT_OK;
}

int sp_cli_key_header(sp_cli_key_head *h, const char *cmd, const char *path, unsigned flags)
{
    char err[SP_ERR_LEN] = "";
    sp_g16_vk vk;
    sp_zkey_info info;
    sp_status st = sp_zkey_read_vk(&vk, &info, path, flags, err);
    if (st != SP_OK)
        return sp_cli_fail_file(cmd, path, st, err);
    sp_g16_vk_free(&vk);
    h->n_vars = info.n_vars;
    h->n_public = info.n_public;
    h->domain_size = info.domain_size;
    return SP_EXIT_OK;
}

/* Section 1 of a .wtns: the prime's curve and the value count; section 2's size. */
static sp_status wtns_head(sp_curve_id *curve, uint32_t *n, uint64_t *values, const sp_binfile *bf,
                           char err[SP_ERR_LEN])
{
    const sp_bin_section *hs, *vs;
    sp_status st = sp_binfile_section(&hs, bf, 1, "header", 1, err);
    if (st == SP_OK)
        st = sp_binfile_section(&vs, bf, 2, "values", 1, err);
    if (st != SP_OK)
        return st;
    sp_bin_cursor c = sp_bin_cursor_of(bf, hs);
    uint32_t n8;
    const uint8_t *prime;
    if (!sp_bin_u32(&c, &n8) || !sp_bin_bytes(&c, &prime, n8) || !sp_bin_u32(&c, n)) {
        snprintf(err, SP_ERR_LEN, "wtns section 1: %" PRIu64 " bytes, too short for a header", hs->size);
        return SP_ERR_FORMAT;
    }
    *curve = sp_curve_from_scalar_prime(prime, n8);
    *values = vs->size;
    return SP_OK;
}

int sp_cli_check_witness(const char *cmd, const char *path, const char *key_path, uint32_t n_vars)
{
    char err[SP_ERR_LEN] = "";
    sp_binfile bf;
    sp_curve_id curve = SP_CURVE_ID_NONE;
    uint32_t n = 0;
    uint64_t values = 0;
    sp_status st = sp_binfile_open(&bf, path, "wtns", 2, 2, err);
    if (st == SP_OK)
        st = wtns_head(&curve, &n, &values, &bf, err);
    sp_binfile_close(&bf);
    if (st != SP_OK)
        return sp_cli_fail_file(cmd, path, st, err);
    if (values != (uint64_t)n * SP_FR_BYTES) {
        fprintf(stderr, "snarkpipe %s: %s: wtns section 2: %" PRIu64 " bytes, expected %" PRIu32
                        " values x %d (format error)\n", cmd, path, values, n, SP_FR_BYTES);
        return SP_EXIT_RUNTIME;
    }
    if (curve != SP_CURVE_ID_THIS && curve != SP_CURVE_ID_NONE) { /* NONE: the reader names the prime */
        char msg[SP_ERR_LEN];
        sp_curve_mismatch_msg(msg, sizeof msg, "wtns", curve, SP_CURVE_ID_THIS);
        fprintf(stderr,
                "snarkpipe %s: %s: %s; the key %s is for %s: compute the witness with the circuit compiled for "
                "the key's curve (circom --prime %s), or prove with that curve's key\n",
                cmd, path, msg, key_path, sp_curve_label(SP_CURVE_ID_THIS),
                SP_CURVE_ID_THIS == SP_CURVE_ID_BN254 ? "bn128" : "bls12381");
        return SP_EXIT_RUNTIME;
    }
    if (n != n_vars) {
        fprintf(stderr,
                "snarkpipe %s: %s: expected %" PRIu32 " values (nVars of the key %s), file holds %" PRIu32
                ": the witness is of another circuit than the key\n",
                cmd, path, n_vars, key_path, n);
        return SP_EXIT_RUNTIME;
    }
    return SP_EXIT_OK;
}

/* The directory part of path ("." when it has none). */
static void dir_of(char *out, size_t n, const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(out, n, ".");
    else if (slash == path)
        snprintf(out, n, "/");
    else
        snprintf(out, n, "%.*s", (int)(slash - path), path);
}

int sp_cli_check_output(const char *cmd, const char *path, const char *const *inputs, int n)
{
    char dir[PATH_MAX];
    struct stat st, in;
    dir_of(dir, sizeof dir, path);
    int bad = stat(dir, &st) != 0 ? errno : S_ISDIR(st.st_mode) ? 0 : ENOTDIR;
    if (bad == ENOENT || bad == ENOTDIR) {
        fprintf(stderr, "snarkpipe %s: cannot write %s: the directory %s does not exist (create it first: mkdir -p "
                        "%s)\n", cmd, path, dir, dir);
        return SP_EXIT_RUNTIME;
    }
    if (bad) {
        fprintf(stderr, "snarkpipe %s: cannot write %s: the directory %s: %s\n", cmd, path, dir, strerror(bad));
        return SP_EXIT_RUNTIME;
    }
    if (access(dir, W_OK | X_OK) != 0) {
        fprintf(stderr, "snarkpipe %s: cannot write %s: the directory %s is not writable (%s)\n", cmd, path, dir,
                strerror(errno));
        return SP_EXIT_RUNTIME;
    }
    if (stat(path, &st) != 0)
        return SP_EXIT_OK;
    if (S_ISDIR(st.st_mode)) {
        fprintf(stderr, "snarkpipe %s: cannot write %s: it is a directory (give a file name)\n", cmd, path);
        return SP_EXIT_RUNTIME;
    }
    for (int k = 0; k < n; k++)
        if (inputs[k] && stat(inputs[k], &in) == 0 && in.st_dev == st.st_dev && in.st_ino == st.st_ino) {
            fprintf(stderr, "snarkpipe %s: %s is an input and an output: writing it would destroy it "
                            "(check the order of the arguments)\n", cmd, path);
            return SP_EXIT_RUNTIME;
        }
    if (access(path, W_OK) != 0) {
        fprintf(stderr, "snarkpipe %s: cannot write %s: %s\n", cmd, path, strerror(errno));
        return SP_EXIT_RUNTIME;
    }
    return SP_EXIT_OK;
}

/* The first byte of path that is not blank, or 0 (also when it is not a
 * regular file: opened without blocking, a FIFO is left to its reader). */
static int first_byte(const char *path)
{
    char err[SP_ERR_LEN];
    FILE *f = sp_file_fopen_regular(path, "rb", "input", err);
    int ch = 0;
    while (f && (ch = fgetc(f)) != EOF && (ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n')) {
    }
    if (f)
        fclose(f);
    return ch == EOF ? 0 : ch;
}

int sp_cli_check_json_order(const char *cmd, const char *order, const char *public_path, const char *proof_path)
{
    if (first_byte(public_path) != '{' || first_byte(proof_path) != '[')
        return SP_EXIT_OK;
    fprintf(stderr, "snarkpipe %s: %s holds an object and %s an array: public signals and proof look swapped (%s)\n",
            cmd, public_path, proof_path, order);
    return SP_EXIT_RUNTIME;
}
