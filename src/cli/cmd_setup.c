/* `snarkpipe setup` and `snarkpipe export-vkey` (cmds.h). */
#include <stdlib.h>
#include <string.h>
#include "circuit/rec.h"
#include "cli/cli.h"
#include "cli/cmds.h"
#include "cli/precheck.h"
#include "groth16/backend.h"
#include "groth16/json_io.h"
#include "groth16/params.h"
#include "groth16/ptau_prepare.h"
#include "groth16/ptau_setup.h"
#include "groth16/setup.h"
#include "groth16/zkey.h"

static const char SETUP_USAGE[] =
    "usage: snarkpipe setup [--vkey-json FILE] <circuit.r1cs> <pot.ptau> <circuit_0000.zkey>\n"
    "       snarkpipe setup [--bellperson] [--vk FILE] [--vkey-json FILE] <circuit.r1cs|.sprec> <out>\n"
    "With a .ptau: the Groth16 setup from a powers-of-tau ceremony, the key `snarkjs groth16 setup`\n"
    "writes (byte for byte): the start of phase 2, for `snarkjs zkey contribute` / `zkey beacon`.\n"
    "The .ptau must be of a power at least the circuit's domain; prepared for phase 2 or not (the\n"
    "setup then computes the Lagrange points `snarkjs powersoftau prepare phase2` would add).\n"
    "Without: a circuit-specific setup from fresh random toxic waste, for development and tests:\n"
    "NOT a ceremony. <out> is a snarkjs .zkey, or with --bellperson a bellperson .params.\n"
    "  --vk FILE          also write the bellperson .vk verifying key\n"
    "  --vkey-json FILE   also write the snarkjs verification_key.json\n"
    "  --backend NAME     where the key's points are computed: cpu, cuda, cuda:N, or auto\n"
    "                     (default: cuda:0 when this build has CUDA and a GPU is there, else cpu);\n"
    "                     with a .ptau: the sums of Lagrange points (and their inverse DFT for an\n"
    "                     unprepared .ptau), the same file either way; the rest runs on the CPU\n"
    "  --threads N, --quiet, --json (summary on stdout)\n";

static const char EXPORT_USAGE[] =
    "usage: snarkpipe export-vkey <key.zkey|key.params|key.vk|verification_key.json> <out>\n"
    "Writes the verifying key of a proving key (or of another verifying-key file): a bellperson\n"
    ".vk when <out> ends in \".vk\" (not from verification_key.json, which lacks two of its\n"
    "points), else snarkjs' verification_key.json.\n";

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && !strcmp(s + n - m, suffix);
}

/* Writes vk to path in the format its name asks for. */
/* A native circuit's recorded matrices (gen-circuit --record), as an r1cs. */
static sp_status read_recorded(sp_r1cs *cs, const char *path, char err[SP_ERR_LEN])
{
    sp_cs_rec *rec = NULL;
    sp_status st = sp_cs_rec_load(&rec, path, err);
    if (st == SP_OK)
        st = sp_cs_rec_to_r1cs(cs, rec, err);
    sp_cs_rec_free(rec);
    return st;
}

static int write_vk(const char *cmd, const char *path, const sp_g16_vk *vk, int bellperson_format)
{
    char err[SP_ERR_LEN] = "";
    sp_status st = bellperson_format ? sp_bp_vk_write(path, vk, err) : sp_g16_vk_json_write(path, vk, err);
    return st == SP_OK ? SP_EXIT_OK : sp_cli_fail_file(cmd, path, st, err);
}

typedef struct {
    int bellperson;
    const char *r1cs, *out, *vk, *vkey_json;
    const char *ptau; /* the ceremony form: setup r1cs ptau out */
    const char *backend; /* sp_backend_open name */
} setup_args;

/* The ceremony form's checks: a .ptau in the middle, no bellperson output. */
static int ptau_args(setup_args *a, const char *ptau)
{
    char err[SP_ERR_LEN] = "";
    sp_cli_file_kind kind;
    sp_status st = sp_cli_detect(&kind, NULL, ptau, err);
    if (st != SP_OK)
        return sp_cli_fail_file("setup", ptau, st, err);
    if (kind != SP_FILE_PTAU)
        return sp_cli_usage("setup", SETUP_USAGE, "with 3 files the second is the powers of tau: %s is not a "
                            "snarkjs .ptau", ptau);
    if (a->bellperson || a->vk)
        return sp_cli_usage("setup", SETUP_USAGE, "--bellperson and --vk are for the development setup; a "
                            "ceremony setup writes a snarkjs .zkey");
    a->ptau = ptau;
    return 0;
}

static int setup_parse(setup_args *a, int argc, char **argv)
{
    int npos = 0;
    const char *pos[3];
    for (int i = 1; i < argc; i++) {
        int missing = 0, h = sp_cli_arg("setup", SETUP_USAGE, argc, argv, &i);
        const char *v;
        if (h != SP_CLI_OWN) {
            if (h != SP_CLI_NEXT)
                return h == SP_EXIT_OK ? -1 : h; /* -1: --help answered */
        } else if (!strcmp(argv[i], "--bellperson")) {
            a->bellperson = 1;
        } else if ((v = sp_cli_opt(argc, argv, &i, "--vk", &missing))) {
            a->vk = v;
        } else if ((v = sp_cli_opt(argc, argv, &i, "--vkey-json", &missing))) {
            a->vkey_json = v;
        } else if ((v = sp_cli_opt(argc, argv, &i, "--backend", &missing))) {
            a->backend = v;
        } else if (missing) {
            return sp_cli_usage("setup", SETUP_USAGE, "%s needs a value", argv[i]);
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return sp_cli_unknown_opt("setup", SETUP_USAGE, argv[i]);
        } else if (npos == 3) {
            return sp_cli_usage("setup", SETUP_USAGE, "too many arguments");
        } else {
            pos[npos++] = argv[i];
        }
    }
    if (npos < 2)
        return sp_cli_usage("setup", SETUP_USAGE, "expected 2 or 3 file arguments, got %d", npos);
    a->r1cs = pos[0];
    a->out = pos[npos - 1];
    if (npos == 3)
        return ptau_args(a, pos[1]);
    char err[SP_ERR_LEN];
    sp_cli_file_kind out_kind;
    if (sp_cli_detect(&out_kind, NULL, a->out, err) == SP_OK && out_kind == SP_FILE_PTAU)
        return sp_cli_usage("setup", SETUP_USAGE, "%s is a .ptau, not an output: the setup from it is `snarkpipe "
                            "setup %s %s circuit_0000.zkey`", a->out, a->r1cs, a->out);
    if ((a->bellperson || a->vk) && sp_bp_curve_check(err) != SP_OK)
        return sp_cli_fail("setup", SP_ERR_UNSUPPORTED, err);
    return 0;
}

static int setup_write(const setup_args *a, const sp_g16_pk *pk)
{
    char err[SP_ERR_LEN] = "";
    sp_status st = a->bellperson ? sp_bp_params_write(a->out, pk, err) : sp_zkey_write(a->out, pk, err);
    if (st != SP_OK)
        return sp_cli_fail_file("setup", a->out, st, err);
    int rc = SP_EXIT_OK;
    if (a->vk)
        rc = write_vk("setup", a->vk, &pk->vk, 1);
    if (rc == SP_EXIT_OK && a->vkey_json)
        rc = write_vk("setup", a->vkey_json, &pk->vk, 0);
    return rc;
}

/* The setup's phase times (sp_g16_setup_be reports them as stages). */
typedef struct {
    double scalars, g1, g2; /* seconds */
} setup_times;

static void setup_stage(void *ctx, const char *stage, double ms)
{
    setup_times *t = ctx;
    if (!strcmp(stage, "setup_scalars"))
        t->scalars = ms / 1e3;
    else if (!strcmp(stage, "setup_g1"))
        t->g1 = ms / 1e3;
    else if (!strcmp(stage, "setup_g2"))
        t->g2 = ms / 1e3;
}

/* Opens the backend and makes the key on it. */
static int setup_run(sp_g16_pk *pk, const setup_args *a, const sp_r1cs *cs, setup_times *tm, char *be_name)
{
    char err[SP_ERR_LEN] = "";
    sp_backend *be;
    sp_status st = sp_backend_open(&be, a->backend ? a->backend : "auto", sp_cli_threads(), err);
    if (st != SP_OK)
        return sp_cli_fail("setup", st, err);
    snprintf(be_name, 32, "%s", be->name);
    be->stage_hook = setup_stage;
    be->stage_ctx = tm;
    st = sp_g16_setup_be(pk, cs, a->bellperson ? SP_G16_H_BELLPERSON : SP_G16_H_SNARKJS, be, sp_cli_threads(), err);
    sp_backend_close(be);
    return st == SP_OK ? SP_EXIT_OK : sp_cli_fail("setup", st, err);
}

/* `setup circuit.r1cs pot.ptau out.zkey`: the ceremony setup. */
static int setup_ptau(const setup_args *a)
{
    char err[SP_ERR_LEN] = "", be_name[32] = "";
    double t0 = sp_cli_now();
    sp_r1cs cs;
    sp_ptau pt;
    sp_g16_pk pk;
    sp_status st = sp_r1cs_read(&cs, a->r1cs, err);
    if (st != SP_OK)
        return sp_cli_fail_file("setup", a->r1cs, st, err);
    if ((st = sp_ptau_open(&pt, a->ptau, err)) != SP_OK) {
        sp_r1cs_free(&cs);
        return sp_cli_fail_file("setup", a->ptau, st, err);
    }
    sp_backend *be = NULL;
    if ((st = sp_backend_open(&be, a->backend ? a->backend : "auto", sp_cli_threads(), err)) == SP_OK) {
        snprintf(be_name, sizeof be_name, "%s", be->name);
        st = sp_g16_setup_ptau_be(&pk, &cs, &pt, be, sp_cli_threads(), err);
        sp_backend_close(be);
    }
    sp_r1cs_free(&cs);
    sp_ptau_close(&pt);
    if (st != SP_OK)
        return sp_cli_fail("setup", st, err);
    double t_setup = sp_cli_now() - t0;
    st = sp_zkey_write_setup(a->out, &pk, err);
    int rc = st == SP_OK ? SP_EXIT_OK : sp_cli_fail_file("setup", a->out, st, err);
    if (rc == SP_EXIT_OK && a->vkey_json)
        rc = write_vk("setup", a->vkey_json, &pk.vk, 0);
    char hash[129];
    for (int i = 0; i < 64; i++)
        snprintf(hash + 2 * i, 3, "%02x", pk.mpc[i]);
    if (rc == SP_EXIT_OK && sp_cli_g.json)
        printf("{\"op\":\"setup\",\"format\":\"zkey\",\"from\":\"ptau\",\"n_vars\":%u,\"n_public\":%u,"
               "\"log_size\":%u,\"threads\":%d,\"backend\":\"%s\",\"cs_hash\":\"%s\",\"seconds\":{\"setup\":%.6f,"
               "\"total\":%.6f}}\n",
               pk.n_vars, pk.vk.n_public, pk.log2_domain, sp_cli_threads(), be_name, hash, t_setup,
               sp_cli_now() - t0);
    else if (rc == SP_EXIT_OK && !sp_cli_g.quiet)
        printf("setup: %u wires, %u public, domain 2^%u, from %s, backend %s: %s written in %.2f s\n"
               "  circuit hash %s\n",
               pk.n_vars, pk.vk.n_public, pk.log2_domain, a->ptau, be_name, a->out, sp_cli_now() - t0, hash);
    sp_g16_pk_free(&pk);
    return rc;
}

int sp_cli_setup(int argc, char **argv)
{
    setup_args a;
    memset(&a, 0, sizeof a);
    int rc = setup_parse(&a, argc, argv);
    if (rc)
        return rc < 0 ? SP_EXIT_OK : rc;
    const char *ins[] = {a.r1cs, a.ptau}; /* the output checked before the setup's work */
    if ((rc = sp_cli_check_output("setup", a.out, ins, 2)) != SP_EXIT_OK)
        return rc;
    if (a.ptau)
        return setup_ptau(&a);
    fprintf(stderr, "snarkpipe setup: WARNING: this is a development setup, NOT a trusted ceremony. Whoever ran "
                    "it could have kept the toxic waste and forge proofs. Use it for tests only.\n");
    char err[SP_ERR_LEN] = "", be_name[32] = "";
    sp_r1cs cs;
    double t0 = sp_cli_now(), t_start = t0;
    sp_status st = ends_with(a.r1cs, ".sprec") ? read_recorded(&cs, a.r1cs, err) : sp_r1cs_read(&cs, a.r1cs, err);
    if (st != SP_OK)
        return sp_cli_fail_file("setup", a.r1cs, st, err);
    double t_read = sp_cli_now() - t0;
    sp_cli_progress("read circuit", t0);
    sp_g16_pk pk;
    setup_times tm = {0, 0, 0};
    t0 = sp_cli_now();
    rc = setup_run(&pk, &a, &cs, &tm, be_name);
    sp_r1cs_free(&cs);
    if (rc != SP_EXIT_OK)
        return rc;
    double t_setup = sp_cli_now() - t0;
    sp_cli_progress("setup", t0);
    t0 = sp_cli_now();
    rc = setup_write(&a, &pk);
    double t_write = sp_cli_now() - t0;
    sp_cli_progress("write key", t0);
    if (rc == SP_EXIT_OK && sp_cli_g.json)
        printf("{\"op\":\"setup\",\"format\":\"%s\",\"n_vars\":%u,\"n_public\":%u,\"log_size\":%u,\"threads\":%d,"
               "\"backend\":\"%s\",\"seconds\":{\"read_circuit\":%.6f,\"setup\":%.6f,\"scalars\":%.6f,"
               "\"g1\":%.6f,\"g2\":%.6f,\"write\":%.6f,\"total\":%.6f}}\n",
               a.bellperson ? "bellperson" : "zkey", pk.n_vars, pk.vk.n_public, pk.log2_domain, sp_cli_threads(),
               be_name, t_read, t_setup, tm.scalars, tm.g1, tm.g2, t_write, sp_cli_now() - t_start);
    else if (rc == SP_EXIT_OK && !sp_cli_g.quiet)
        printf("setup: %u wires, %u public, domain 2^%u, backend %s: %s written in %.2f s\n", pk.n_vars,
               pk.vk.n_public, pk.log2_domain, be_name, a.out, sp_cli_now() - t_start);
    sp_g16_pk_free(&pk);
    return rc;
}

int sp_cli_export_vkey(int argc, char **argv)
{
    char *pos[2];
    int rc = sp_cli_files("export-vkey", EXPORT_USAGE, argc, argv, pos, 2);
    if (rc != SP_CLI_NEXT)
        return rc;
    sp_g16_vk vk;
    sp_cli_file_kind from;
    int to_bp = ends_with(pos[1], ".vk");
    memset(&vk, 0, sizeof vk);
    rc = sp_cli_read_vk(&vk, &from, "export-vkey", pos[0]);
    if (rc == SP_EXIT_OK && to_bp && from == SP_FILE_JSON)
        rc = sp_cli_fail_file("export-vkey", pos[0], SP_ERR_FORMAT,
                              "snarkjs' verification_key.json has no beta_g1 and delta_g1, which a bellperson .vk "
                              "holds: export the .vk from the proving key");
    else if (rc == SP_EXIT_OK)
        rc = write_vk("export-vkey", pos[1], &vk, to_bp);
    if (rc == SP_EXIT_OK && !sp_cli_g.quiet && !sp_cli_g.json)
        printf("verifying key (%u public signals) written to %s\n", vk.n_public, pos[1]);
    sp_g16_vk_free(&vk);
    return rc;
}

static const char PREPARE_USAGE[] =
    "usage: snarkpipe ptau-prepare [--backend NAME] <pot.ptau> <pot_prepared.ptau>\n"
    "Adds the Lagrange sections a Groth16 setup reads to a powers-of-tau file: the file\n"
    "`snarkjs powersoftau prepare phase2` writes, byte for byte (snarkjs' `groth16 setup` needs\n"
    "it; `snarkpipe setup` takes either).\n"
    "  --backend NAME     where the inverse DFTs over points run: cpu, cuda, cuda:N, or auto\n"
    "                     (default); the same file either way\n"
    "  --threads N, --quiet, --json (summary on stdout)\n";

int sp_cli_ptau_prepare(int argc, char **argv)
{
    const char *pos[2], *backend = "auto";
    int npos = 0;
    for (int i = 1; i < argc; i++) {
        int missing = 0, h = sp_cli_arg("ptau-prepare", PREPARE_USAGE, argc, argv, &i);
        const char *v;
        if (h != SP_CLI_OWN) {
            if (h != SP_CLI_NEXT)
                return h;
        } else if ((v = sp_cli_opt(argc, argv, &i, "--backend", &missing))) {
            backend = v;
        } else if (missing) {
            return sp_cli_usage("ptau-prepare", PREPARE_USAGE, "%s needs a value", argv[i]);
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return sp_cli_unknown_opt("ptau-prepare", PREPARE_USAGE, argv[i]);
        } else if (npos == 2) {
            return sp_cli_usage("ptau-prepare", PREPARE_USAGE, "too many arguments");
        } else {
            pos[npos++] = argv[i];
        }
    }
    if (npos < 2)
        return sp_cli_usage("ptau-prepare", PREPARE_USAGE, "expected 2 file arguments, got %d", npos);
    int rc = sp_cli_check_output("ptau-prepare", pos[1], pos, 1);
    if (rc != SP_EXIT_OK)
        return rc;
    char err[SP_ERR_LEN] = "";
    double t0 = sp_cli_now();
    sp_ptau p;
    sp_backend *be = NULL;
    sp_status st = sp_ptau_open(&p, pos[0], err);
    if (st != SP_OK)
        return sp_cli_fail_file("ptau-prepare", pos[0], st, err);
    if ((st = sp_backend_open(&be, backend, sp_cli_threads(), err)) == SP_OK) {
        st = sp_ptau_prepare_write(pos[1], &p, be, sp_cli_threads(), err);
        if (st == SP_OK && sp_cli_g.json)
            printf("{\"op\":\"ptau-prepare\",\"power\":%u,\"backend\":\"%s\",\"threads\":%d,\"seconds\":%.6f}\n",
                   p.power, be->name, sp_cli_threads(), sp_cli_now() - t0);
        else if (st == SP_OK && !sp_cli_g.quiet)
            printf("ptau-prepare: power %u, backend %s: %s written in %.2f s\n", p.power, be->name, pos[1],
                   sp_cli_now() - t0);
        sp_backend_close(be);
    }
    sp_ptau_close(&p);
    return st == SP_OK ? SP_EXIT_OK : sp_cli_fail("ptau-prepare", st, err);
}
