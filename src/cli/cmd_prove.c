/* `snarkpipe prove`: one Groth16 proof from a key and a witness (cmds.h). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/cmd_cache.h"
#include "cli/cmd_porep.h"
#include "cli/cmd_wtns.h"
#include "cli/cmds.h"
#include "cli/precheck.h"
#include "groth16/backend.h"
#include "groth16/json_io.h"
#include "groth16/params.h"
#include "groth16/verify.h"
#include "groth16/zkey.h"
#include "synth/prover.h"

static const char USAGE[] =
    "usage: snarkpipe prove [options] <circuit.zkey> <witness.wtns> <proof.json> <public.json>\n"
    "       snarkpipe prove [options] --params <key.params> --r1cs <circuit.r1cs> <witness.wtns>\n"
    "                       [<proof.json> <public.json>] [--proof-bin <proof.bin>]\n"
    "       snarkpipe prove [options] --circuit porep-like [porep-like options] <circuit.zkey>\n"
    "                       <proof.json> <public.json>\n"
    "options:\n"
    "  --circuit porep-like the witness made natively from the porep-like circuit (its options\n"
    "                       below; gen-circuit describes them) instead of a .wtns file; with\n"
    "                       --check every constraint is checked as the witness is made\n"
    "  --r1cs FILE          synthesize from the circuit instead of the key's QAP matrices\n"
    "  --check              check every constraint first (needs --r1cs); a witness that\n"
    "                       fails one is refused with its index (exit 2)\n"
    "  --verify             verify the proof before writing it\n"
    "  --params FILE        a bellperson .params key instead of a .zkey (needs --r1cs)\n"
    "  --proof-bin FILE     also write the 192-byte bellperson proof encoding\n"
    "  --no-split           plain MSMs (no special case for 0 and 1 witness values)\n"
    "  --skip-subgroup-check  trusted key: check its points on the curve only\n"
    SP_CLI_KC_USAGE
    "  --backend NAME       where the H step and the MSMs run: cpu, cuda, cuda:N, or auto\n"
    "                       (default: cuda:0 when this build has CUDA and a GPU is there, else cpu)\n"
    "  --g2 cpu|gpu         the G2 MSM on the CPU, or on the backend (default gpu)\n"
    "  --insecure-fixed-rs R,S  INSECURE, tests only: fixed blinding scalars r and s\n"
    "                       (such a proof reveals the witness)\n"
    "  --threads N, --quiet, --json (summary with timings on stdout)\n"
    "porep-like options:\n" SP_CLI_POREP_USAGE
    "snarkpipe fullprove [options] <input.json> <circuit.wasm> <circuit.zkey> <proof.json> <public.json>:\n"
    "  the witness from circom's .wasm (as wtns calculate), then the proof; with prove's options and\n" SP_CLI_WASM_USAGE;

typedef struct {
    const char *zkey, *params, *r1cs, *wtns, *proof_json, *public_json, *proof_bin;
    const char *backend; /* sp_backend_open name */
    const char *wasm, *input; /* fullprove: the witness from circom's .wasm */
    sp_cli_wasm_opts wo;
    int native;          /* --circuit porep-like */
    sp_cli_porep_opts po;
    sp_cli_kc_opts kc;
    int check, verify, no_split, skip_subgroup, fixed_rs, g2_cpu;
    sp_fr r, s;
} prove_args;

/* "R,S" in decimal or 0x-hex. */
static int parse_rs(prove_args *a, const char *v)
{
    const char *comma = strchr(v, ',');
    char rbuf[100];
    if (!comma || (size_t)(comma - v) >= sizeof rbuf)
        return -1;
    memcpy(rbuf, v, (size_t)(comma - v));
    rbuf[comma - v] = 0;
    return sp_fr_from_str(&a->r, rbuf) != SP_OK || sp_fr_from_str(&a->s, comma + 1) != SP_OK ? -1 : 0;
}

/* Positional arguments in order; returns 0 or an exit code. */
static int take_positional(prove_args *a, char **pos, int npos)
{
    int i = 0;
    if (a->wasm) {
        if (npos != 5)
            return sp_cli_usage("fullprove", USAGE, "expected <input.json> <circuit.wasm> <circuit.zkey> "
                                                    "<proof.json> <public.json>, got %d argument(s)", npos);
        a->input = pos[0], a->wasm = pos[1], a->zkey = pos[2], a->proof_json = pos[3], a->public_json = pos[4];
        return 0;
    }
    if (a->native) {
        if (npos != 3 || a->params)
            return sp_cli_usage("prove", USAGE, "with --circuit: <circuit.zkey> <proof.json> <public.json>");
        a->zkey = pos[0], a->proof_json = pos[1], a->public_json = pos[2];
        return 0;
    }
    if (!a->params) {
        if (npos != 4)
            return sp_cli_usage("prove", USAGE, "expected 4 file arguments, got %d", npos);
        a->zkey = pos[i++];
    } else if (!a->r1cs) {
        return sp_cli_usage("prove", USAGE, "--params needs --r1cs (the circuit places the key's points)");
    } else if (!(npos == 3 || (npos == 1 && a->proof_bin))) {
        return sp_cli_usage("prove", USAGE, "with --params: <witness.wtns> <proof.json> <public.json>, or "
                                            "<witness.wtns> --proof-bin FILE");
    }
    a->wtns = pos[i++];
    if (i < npos) {
        a->proof_json = pos[i++];
        a->public_json = pos[i++];
    }
    if (a->check && !a->r1cs)
        return sp_cli_usage("prove", USAGE, "--check needs --r1cs (the C matrix is only in the circuit)");
    char err[SP_ERR_LEN];
    if ((a->params || a->proof_bin) && sp_bp_curve_check(err) != SP_OK)
        return sp_cli_fail("prove", SP_ERR_UNSUPPORTED, err);
    return 0;
}

static int parse_args(prove_args *a, int argc, char **argv)
{
    char *pos[8];
    int npos = 0;
    for (int i = 1; i < argc; i++) {
        int missing = 0, rc = 0, h = sp_cli_arg("prove", USAGE, argc, argv, &i);
        const char *v;
        if (h != SP_CLI_OWN) {
            if (h != SP_CLI_NEXT)
                return h == SP_EXIT_OK ? -1 : h; /* -1: --help answered */
        } else if (!strcmp(argv[i], "--check")) {
            a->check = 1;
        } else if (!strcmp(argv[i], "--verify")) {
            a->verify = 1;
        } else if (!strcmp(argv[i], "--no-split")) {
            a->no_split = 1;
        } else if (!strcmp(argv[i], "--skip-subgroup-check")) {
            a->skip_subgroup = 1;
        } else if (a->wasm && (h = sp_cli_wasm_opt(&a->wo, "fullprove", argc, argv, &i)) != 0) {
            if (h < 0)
                return SP_EXIT_USAGE;
        } else if ((h = sp_cli_kc_opt(&a->kc, "prove", argc, argv, &i)) != 0) {
            if (h < 0)
                return SP_EXIT_USAGE;
        } else if ((h = sp_cli_porep_opt(&a->po, argc, argv, &i, "prove", USAGE, &rc)) != 0) {
            if (h < 0)
                return rc;
        } else if ((v = sp_cli_opt(argc, argv, &i, "--circuit", &missing))) {
            if (strcmp(v, "porep-like"))
                return sp_cli_usage("prove", USAGE, "--circuit takes porep-like, got %s", v);
            a->native = 1;
        } else if ((v = sp_cli_opt(argc, argv, &i, "--r1cs", &missing))) {
            a->r1cs = v;
        } else if ((v = sp_cli_opt(argc, argv, &i, "--params", &missing))) {
            a->params = v;
        } else if ((v = sp_cli_opt(argc, argv, &i, "--proof-bin", &missing))) {
            a->proof_bin = v;
        } else if ((v = sp_cli_opt(argc, argv, &i, "--backend", &missing))) {
            a->backend = v;
        } else if ((v = sp_cli_opt(argc, argv, &i, "--g2", &missing))) {
            if (strcmp(v, "cpu") && strcmp(v, "gpu"))
                return sp_cli_usage("prove", USAGE, "--g2 takes cpu or gpu, got %s", v);
            a->g2_cpu = !strcmp(v, "cpu");
        } else if ((v = sp_cli_opt(argc, argv, &i, "--insecure-fixed-rs", &missing))) {
            if (parse_rs(a, v))
                return sp_cli_usage("prove", USAGE, "--insecure-fixed-rs needs R,S (two numbers below r), got %s", v);
            a->fixed_rs = 1;
        } else if (missing) {
            return sp_cli_usage("prove", USAGE, "%s needs a value", argv[i]);
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return sp_cli_unknown_opt("prove", USAGE, argv[i]);
        } else if (npos == 8) {
            return sp_cli_usage("prove", USAGE, "too many arguments");
        } else {
            pos[npos++] = argv[i];
        }
    }
    return take_positional(a, pos, npos);
}

/* Everything one run holds, freed by state_free. */
typedef struct {
    sp_r1cs cs;
    int have_cs;
    sp_g16_pk pk;
    sp_fr *w, *pub;
    size_t w_len;
    sp_g16_proof proof;
    sp_porep *porep;  /* --circuit porep-like: the circuit, opened before the key */
    sp_kc_report kc;  /* what the key cache did */
    char backend[32]; /* the backend that proved */
    double t_cs, t_key, t_wtns, t_prove, t_verify, t_write;
} prove_state;

static void state_free(prove_state *s)
{
    if (s->have_cs)
        sp_r1cs_free(&s->cs);
    sp_g16_pk_free(&s->pk);
    if (s->porep)
        sp_porep_close(s->porep);
    free(s->w);
    free(s->pub);
}

/* Opens the porep-like circuit the options name and checks its shape
 * against the key's header (before the key is loaded). */
static int native_open(prove_state *s, const prove_args *a, const sp_cli_key_head *h)
{
    char err[SP_ERR_LEN] = "";
    sp_porep_params p;
    int rc = sp_cli_porep_params(&p, &a->po, "prove", USAGE);
    if (rc != SP_CLI_NEXT)
        return rc;
    /* the public inputs first: a formula, where the wires need the circuit counted */
    uint64_t n_public = sp_porep_public_count(&p);
    sp_status st = n_public == h->n_public ? sp_porep_open(&s->porep, &p, err) : SP_OK;
    if (st != SP_OK)
        return sp_cli_fail("prove", st, err);
    const sp_native_circuit *nc = s->porep ? sp_porep_native(s->porep) : NULL;
    if (!nc || nc->n_vars != h->n_vars) {
        char has[80];
        snprintf(has, sizeof has, "%llu %s", (unsigned long long)(nc ? nc->n_vars : n_public),
                 nc ? "wires" : "public inputs");
        snprintf(err, sizeof err,
                 "the porep-like circuit of these options (preset %s: %s) is not the key's (%u wires, %u public "
                 "inputs): give the preset and options the key was made with",
                 p.preset[0] ? p.preset : "custom", has, h->n_vars, h->n_public);
        return sp_cli_fail_file("prove", a->zkey, SP_ERR_INVALID_ARG, err);
    }
    return SP_EXIT_OK;
}

/* The checks that cost milliseconds, made before the key is loaded
 * (precheck.h): the files' kinds, the key's header, the witness's header
 * against it (or the native circuit's shape), the outputs. */
static int precheck(prove_state *s, const prove_args *a)
{
    static const char ORDER[] = "the order is prove <circuit.zkey> <witness.wtns> <proof.json> <public.json>";
    sp_cli_arg_file f[4];
    int n = 0, rc;
    if (a->zkey)
        f[n++] = (sp_cli_arg_file){a->zkey, SP_FILE_ZKEY, "<circuit.zkey>"};
    if (a->params)
        f[n++] = (sp_cli_arg_file){a->params, SP_FILE_PARAMS, "--params <key.params>"};
    if (a->r1cs)
        f[n++] = (sp_cli_arg_file){a->r1cs, SP_FILE_R1CS, "--r1cs <circuit.r1cs>"};
    if (a->wtns)
        f[n++] = (sp_cli_arg_file){a->wtns, SP_FILE_WTNS, "<witness.wtns>"};
    if ((rc = sp_cli_check_files("prove", ORDER, f, n)) != SP_EXIT_OK)
        return rc;
    const char *ins[] = {a->zkey, a->params, a->r1cs, a->wtns}, *outs[] = {a->proof_json, a->public_json, a->proof_bin};
    for (int k = 0; k < 3; k++)
        if (outs[k] && (rc = sp_cli_check_output("prove", outs[k], ins, 4)) != SP_EXIT_OK)
            return rc;
    if (!a->zkey)
        return SP_EXIT_OK;
    sp_cli_key_head h;
    if ((rc = sp_cli_key_header(&h, "prove", a->zkey, a->skip_subgroup ? SP_G16_SKIP_SUBGROUP_CHECK : 0)) != SP_EXIT_OK)
        return rc;
    if (a->native)
        return native_open(s, a, &h);
    if (a->wasm) /* fullprove: the witness is made later, and checked against the key then */
        return SP_EXIT_OK;
    return sp_cli_check_witness("prove", a->wtns, a->zkey, h.n_vars);
}

/* The witness of the porep-like circuit, made natively (every constraint
 * checked with --check). */
static int native_witness(prove_state *s, const prove_args *a, int nt)
{
    char err[SP_ERR_LEN] = "";
    sp_status st;
    const sp_native_circuit *nc = sp_porep_native(s->porep);
    double t0 = sp_cli_now();
    sp_porep_input in = sp_cli_porep_input(&a->po);
    if (!(s->w = malloc(sizeof(sp_fr) * nc->n_vars))) {
        snprintf(err, sizeof err, "out of memory for the witness");
        st = SP_ERR_NOMEM;
    } else {
        s->w_len = nc->n_vars;
        st = sp_porep_witness(nc, &in, s->w, NULL, NULL, NULL, 0, nt, a->check, NULL, err);
    }
    if (st != SP_OK)
        return sp_cli_fail("prove", st, err);
    s->t_wtns = sp_cli_now() - t0;
    sp_cli_progress("witness", t0);
    return SP_EXIT_OK;
}

/* The circuit (when given) and the key. */
static int load_key(prove_state *s, const prove_args *a, int nt, unsigned flags, char err[SP_ERR_LEN])
{
    sp_status st;
    double t0 = sp_cli_now();
    if (a->r1cs) {
        if ((st = sp_r1cs_read(&s->cs, a->r1cs, err)) != SP_OK)
            return sp_cli_fail_file("prove", a->r1cs, st, err);
        s->have_cs = 1;
        sp_cli_progress("read circuit", t0);
    }
    s->t_cs = sp_cli_now() - t0;
    t0 = sp_cli_now();
    if (a->params) {
        sp_g16_density d;
        if ((st = sp_g16_density_from_r1cs(&d, &s->cs)) != SP_OK)
            return sp_cli_fail("prove", st, "circuit density");
        st = sp_cli_kc_read(&s->pk, &s->kc, &a->kc, "prove", SP_KC_PARAMS, a->params, &d, flags, nt, err);
        sp_g16_density_free(&d);
    } else {
        st = sp_cli_kc_read(&s->pk, &s->kc, &a->kc, "prove", SP_KC_ZKEY, a->zkey, NULL, flags, nt, err);
    }
    if (st != SP_OK)
        return sp_cli_fail_file("prove", a->params ? a->params : a->zkey, st, err);
    s->t_key = sp_cli_now() - t0;
    sp_cli_progress("read key", t0);
    return SP_EXIT_OK;
}

/* fullprove: the witness made from circom's .wasm on a thread of its own
 * while the key is read (each mostly one core's work). */
typedef struct {
    prove_state *s;
    const prove_args *a;
    int rc;
    double seconds;
} wasm_job;

static void *wasm_job_run(void *p)
{
    wasm_job *j = p;
    double t0 = sp_cli_now();
    j->rc = sp_cli_wasm_witness(&j->s->w, &j->s->w_len, "fullprove", j->a->wasm, j->a->input, &j->a->wo);
    j->seconds = sp_cli_now() - t0;
    return NULL;
}

static int load_inputs(prove_state *s, const prove_args *a, int nt)
{
    char err[SP_ERR_LEN] = "";
    unsigned flags = a->skip_subgroup ? SP_G16_SKIP_SUBGROUP_CHECK : 0;
    sp_status st;
    wasm_job job = {s, a, SP_EXIT_OK, 0};
    pthread_t th;
    int threaded = a->wasm && pthread_create(&th, NULL, wasm_job_run, &job) == 0;
    int rc = load_key(s, a, nt, flags, err);
    if (threaded)
        pthread_join(th, NULL);
    if (rc != SP_EXIT_OK)
        return rc;
    double t0 = sp_cli_now();
    if (a->native)
        return native_witness(s, a, nt);
    if (a->wasm) {
        if (!threaded)
            wasm_job_run(&job);
        if (job.rc != SP_EXIT_OK)
            return job.rc;
    } else if ((st = sp_wtns_read(&s->w, &s->w_len, a->wtns, err)) != SP_OK) {
        return sp_cli_fail_file("prove", a->wtns, st, err);
    }
    if (s->w_len != s->pk.n_vars) {
        snprintf(err, sizeof err, "expected %u values (nVars of the key), %s %zu", s->pk.n_vars,
                 a->wasm ? "the circuit's witness has" : "file holds", s->w_len);
        return sp_cli_fail_file(a->wasm ? "fullprove" : "prove", a->wasm ? a->wasm : a->wtns, SP_ERR_FORMAT, err);
    }
    s->t_wtns = a->wasm ? job.seconds : sp_cli_now() - t0;
    return SP_EXIT_OK;
}


/* Opens the backend, makes the key resident on it and proves. */
static int prove_on_backend(prove_state *s, const prove_args *a, int nt)
{
    char err[SP_ERR_LEN] = "";
    sp_backend *be;
    const char *name = a->backend ? a->backend : "auto";
    sp_status st = sp_backend_open(&be, name, nt, err);
    if (st != SP_OK)
        return sp_cli_fail("prove", st, err);
    snprintf(s->backend, sizeof s->backend, "%s", be->name);
    sp_g16_prove_opts o = sp_g16_prove_opts_default();
    o.threads = nt;
    o.split_msm = !a->no_split;
    o.backend = be;
    o.g2_on_backend = !a->g2_cpu;
    if (a->fixed_rs) {
        o.insecure_fixed_r = &a->r;
        o.insecure_fixed_s = &a->s;
    }
    double t0 = sp_cli_now();
    if ((st = be->key_attach(be, &s->pk, err)) == SP_OK) {
        st = sp_synth_prove(&s->proof, s->pub, &s->pk, s->have_cs ? &s->cs : NULL, s->w, s->w_len,
                            a->check && !a->native, &o, err);
        be->key_detach(be, &s->pk);
    }
    s->t_prove = sp_cli_now() - t0;
    sp_backend_close(be);
    sp_cli_progress("prove", t0);
    if (st != SP_OK)
        return st == SP_ERR_UNSATISFIED ? sp_cli_fail_file("prove", a->wtns, st, err) : sp_cli_fail("prove", st, err);
    return SP_EXIT_OK;
}

static int self_verify(prove_state *s)
{
    char err[SP_ERR_LEN] = "";
    sp_g16_pvk pvk;
    int valid = 0;
    double t0 = sp_cli_now();
    sp_status st = sp_g16_pvk_init(&pvk, &s->pk.vk, err);
    if (st != SP_OK)
        return sp_cli_fail("prove", st, err);
    st = sp_g16_verify(&valid, &pvk, &s->proof, s->pub, s->pk.vk.n_public, err);
    sp_g16_pvk_free(&pvk);
    if (st != SP_OK)
        return sp_cli_fail("prove", st, err);
    if (!valid)
        return sp_cli_fail("prove", SP_ERR_UNSATISFIED,
                           "--verify: the proof does not verify against the key's own verifying key; nothing written");
    s->t_verify = sp_cli_now() - t0;
    sp_cli_progress("verify", t0);
    return SP_EXIT_OK;
}

static int write_outputs(prove_state *s, const prove_args *a)
{
    char err[SP_ERR_LEN] = "";
    sp_status st;
    double t0 = sp_cli_now();
    if (a->proof_json && (st = sp_g16_proof_json_write(a->proof_json, &s->proof, err)) != SP_OK)
        return sp_cli_fail_file("prove", a->proof_json, st, err);
    if (a->public_json && (st = sp_g16_public_json_write(a->public_json, s->pub, s->pk.vk.n_public, err)) != SP_OK)
        return sp_cli_fail_file("prove", a->public_json, st, err);
    if (a->proof_bin) {
        uint8_t bin[SP_BP_PROOF_BYTES];
        sp_bp_proof_encode(bin, &s->proof);
        if ((st = sp_g16_write_text(a->proof_bin, (const char *)bin, sizeof bin, err)) != SP_OK)
            return sp_cli_fail_file("prove", a->proof_bin, st, err);
    }
    s->t_write = sp_cli_now() - t0;
    return SP_EXIT_OK;
}

/* How the key was had, for the summary: "cached" (from the key cache),
 * "checked" (read and checked; "checked, cached" when its entry was just
 * written). */
static const char *key_how(const prove_state *s)
{
    if (s->kc.outcome == SP_KC_HIT)
        return "cached";
    return s->kc.stored ? "checked, cached" : "checked";
}

static void print_summary(const prove_state *s, const prove_args *a, int nt, double total)
{
    if (sp_cli_g.json) {
        printf("{\"op\":\"prove\",\"key\":\"%s\",\"key_cache\":{\"state\":\"%s\",\"stored\":%s,"
               "\"identity\":%s,\"stamped\":%s,\"entry\":",
               a->params ? "bellperson" : "zkey", s->kc.outcome ? sp_kc_outcome_str(s->kc.outcome) : "off",
               s->kc.stored ? "true" : "false", s->kc.identity ? "true" : "false", s->kc.stamped ? "true" : "false");
        sp_cli_json_str(stdout, s->kc.entry);
        printf(",\"seconds\":{\"hash\":%.6f,\"entry\":%.6f,\"check\":%.6f,\"store\":%.6f}},", s->kc.t_hash,
               s->kc.t_entry, s->kc.t_check, s->kc.t_store);
        printf("\"n_vars\":%u,\"n_public\":%u,\"log_size\":%u,\"threads\":%d,"
               "\"backend\":\"%s\",\"verified\":%s,\"seconds\":{\"read_circuit\":%.6f,\"read_key\":%.6f,\"read_witness\":%.6f,"
               "\"prove\":%.6f,\"verify\":%.6f,\"write\":%.6f,\"total\":%.6f}}\n",
               s->pk.n_vars, s->pk.vk.n_public, s->pk.log2_domain, nt, s->backend,
               a->verify ? "true" : "false", s->t_cs, s->t_key, s->t_wtns, s->t_prove, s->t_verify, s->t_write,
               total);
    } else if (!sp_cli_g.quiet) {
        printf("proved: %u wires, %u public, domain 2^%u, %d thread(s), backend %s, key %s: prove %.3f s, total %.3f s%s\n",
               s->pk.n_vars, s->pk.vk.n_public, s->pk.log2_domain, nt, s->backend, key_how(s), s->t_prove, total,
               a->verify ? " (verified)" : "");
    }
}

/* prove, or fullprove when wasm_witness (its witness from circom's .wasm) */
static int prove_main(int argc, char **argv, int wasm_witness)
{
    prove_args a;
    memset(&a, 0, sizeof a);
    sp_cli_porep_init(&a.po);
    if (wasm_witness)
        a.wasm = "";
    int rc = parse_args(&a, argc, argv);
    if (rc)
        return rc < 0 ? SP_EXIT_OK : rc;
    if (a.fixed_rs)
        fprintf(stderr, "snarkpipe prove: WARNING: --insecure-fixed-rs: r and s are fixed, so this proof reveals "
                        "the witness. For byte-exact tests only; never publish such a proof.\n");
    int nt = sp_cli_threads();
    double t_start = sp_cli_now();
    prove_state s;
    memset(&s, 0, sizeof s);
    rc = precheck(&s, &a);
    if (rc == SP_EXIT_OK)
        rc = load_inputs(&s, &a, nt);
    if (rc == SP_EXIT_OK && !(s.pub = malloc(sizeof(sp_fr) * (s.pk.vk.n_public + 1u))))
        rc = sp_cli_fail("prove", SP_ERR_NOMEM, "public signals");
    if (rc == SP_EXIT_OK)
        rc = prove_on_backend(&s, &a, nt);
    if (rc == SP_EXIT_OK && a.verify)
        rc = self_verify(&s);
    if (rc == SP_EXIT_OK)
        rc = write_outputs(&s, &a);
    if (rc == SP_EXIT_OK)
        print_summary(&s, &a, nt, sp_cli_now() - t_start);
    state_free(&s);
    return rc;
}

int sp_cli_prove(int argc, char **argv)
{
    return prove_main(argc, argv, 0);
}

int sp_cli_fullprove(int argc, char **argv)
{
    return prove_main(argc, argv, 1);
}
