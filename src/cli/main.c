/*
 * snarkpipe: the command-line tool of this build's curve (dispatch.c's
 * main picks the curve's instance). One table of subcommands drives both
 * dispatch and `help`.
 */
#include <stdio.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/cmds.h"
#include "cli/cmd_cache.h"
#include "cli/cmd_engine.h"
#include "cli/cmd_wtns.h"
#include "field/field.h"
#include "synth/gen.h"
#include "util/curves.h"
#include "snarkpipe.h"

/* "bls12-381, bn254 (bn128)": the binary's curves (sp_cli_g.curves). */
static void print_curves(void)
{
    for (int k = 0; k < sp_cli_g.n_curves; k++)
        printf("%s%s", k ? ", " : "", sp_curve_label((sp_curve_id)sp_cli_g.curves[k]));
}

static int cmd_help(int argc, char **argv);
/* cmd_daemon.c, cmd_client.c */
int sp_cli_daemon(int argc, char **argv);
int sp_cli_client(int argc, char **argv);

static int cmd_version(int argc, char **argv)
{
    if (argc != 1) {
        fprintf(stderr, "snarkpipe: version takes no arguments\n");
        return SP_EXIT_USAGE;
    }
    printf("snarkpipe %s (field arithmetic: %s)\ncurves: ", SP_VERSION_STRING,
           sp_field_asm_active() ? "x86-64 adx/bmi2" : "portable C");
    print_curves();
    printf("\n");
    return SP_EXIT_OK;
}

static int cmd_bench(int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], "field") == 0)
        return sp_cli_bench_field(argc - 1, argv + 1) ? SP_EXIT_RUNTIME : SP_EXIT_OK;
    if (argc >= 2 && (!strcmp(argv[1], "msm") || !strcmp(argv[1], "ntt") || !strcmp(argv[1], "prove")))
        return sp_cli_bench_groth16(argc - 1, argv + 1);
    if (argc >= 2 && strcmp(argv[1], "pipeline") == 0)
        return sp_cli_bench_pipeline(argc - 1, argv + 1);
    if (argc >= 2 && strcmp(argv[1], "witness") == 0)
        return sp_cli_bench_witness(argc - 1, argv + 1);
    fprintf(stderr, "snarkpipe: bench needs a layer: field, msm, ntt, prove, pipeline or witness\n");
    return SP_EXIT_USAGE;
}

static const struct {
    const char *name, *args, *help;
    int (*fn)(int argc, char **argv);
} commands_[] = {
    {"version", "", "print the version, the field arithmetic in use and the curves (also --version)",
     cmd_version},
    {"help", "", "print this text (also --help, -h)", cmd_help},
    {"selftest", "[VECTORS]",
     "check the arithmetic: generator encodings, pairing bilinearity on random\n"
     "      scalars, and every known answer in VECTORS (a file such as\n"
     "      tests/vectors/noble_bls12381.txt)",
     sp_cli_selftest},
    {"bench", "field [FILTER...]", "time the field operations (rows whose name contains a FILTER)",
     cmd_bench},
    {"bench", "msm|ntt|prove ...",
     "time MSMs (--group g1|g2 --log-size K), NTTs (--log-size K) or whole proofs\n"
     "      (<zkey> <wtns>); --json: one object per measurement", cmd_bench},
    {"bench", "pipeline [-c JOBS] [-j IN_FLIGHT] [-p PARTITIONS] [--sweep] ...",
     "the proving engine under load: s/proof, proofs/min, latency, GPU efficiency,\n"
     "      peak RSS, isolation vs load (--help: all options); --circuit porep-like:\n"
     "      the native circuit's jobs", cmd_bench},
    {"bench", "witness [--preset NAME] [--threads-list N,...] [--record FILE]",
     "the native porep-like synthesis (witness and a, b, c) per thread count, cold\n"
     "      and warm; --record: record once, write and read back the matrices", cmd_bench},
    {"waterfall", "<timeline-file> [--svg out.svg]",
     "stage statistics, GPU efficiency, idle gaps and an SVG waterfall of an\n"
     "      engine TIMELINE", sp_cli_waterfall},
    {"prove", "[options] <circuit.zkey> <witness.wtns> <proof.json> <public.json>",
     "one Groth16 proof, as snarkjs groth16 prove writes it (--help: all options)", sp_cli_prove},
    {"wtns", "calculate [options] <circuit.wasm> <input.json> <witness.wtns>",
     "the witness of a circom circuit from its .wasm, run natively (snarkjs' .wtns, byte for byte);\n"
     "      also wtns check <circuit.r1cs> <witness.wtns> (every constraint holds: exit 0, else 1)\n"
     "      and wtns export json <witness.wtns> <witness.json>, as snarkjs", sp_cli_wtns},
    {"fullprove", "[options] <input.json> <circuit.wasm> <circuit.zkey> <proof.json> <public.json>",
     "witness and proof in one step, as snarkjs groth16 fullprove (also: groth16 fullprove)", sp_cli_fullprove},
    {"cache", "list|clear|dir [--key-cache-dir DIR]",
     "the key cache: proving keys checked once, kept for fast loads (--help)", sp_cli_cache},
    {"verify", "<verification_key.json|key.zkey|key.vk|key.params> <public.json> <proof.json|proof.bin>",
     "check a proof; exit 0 when valid, 1 when not", sp_cli_verify},
    {"setup", "<circuit.r1cs> <pot.ptau> <circuit_0000.zkey> | [--bellperson] [--backend NAME] <circuit.r1cs> <out>",
     "with a .ptau: the ceremony setup `snarkjs groth16 setup` makes (the same file);\n"
     "      else a development setup from fresh randomness (NOT a ceremony: for tests only);\n"
     "      --backend cpu|cuda|cuda:N|auto: where the key's points are made (--help: all options)", sp_cli_setup},
    {"ptau-prepare", "[--backend NAME] <pot.ptau> <pot_prepared.ptau>",
     "add the Lagrange sections to a .ptau, as `snarkjs powersoftau prepare phase2` (the same file)",
     sp_cli_ptau_prepare},
    {"export-vkey", "<key.zkey|key.params|key.vk|vkey.json> <vkey.json|out.vk>",
     "write the verifying key of a proving key", sp_cli_export_vkey},
    {"export-solidity", "<verification_key.json|key.zkey> <Verifier.sol>",
     "write an Ethereum verifier contract for a BN254 key (snarkjs' interface)", sp_cli_export_solidity},
    {"calldata", "<public.json> <proof.json>",
     "print verifyProof's arguments for a BN254 proof, as snarkjs soliditycalldata does", sp_cli_calldata},
    {"info", "[--json] [--check] <file>",
     "what a file is (.r1cs .wtns .zkey .params .vk proof/public/key JSON) and its sizes", sp_cli_info},
    {"gen-circuit", "--constraints N ...",
     "write a satisfiable benchmark circuit and its witness (.r1cs, .wtns);\n"
     "      `snarkpipe gen-circuit` alone prints its options",
     sp_cmd_gen_circuit},
    {"daemon", "[--config FILE] [--listen ADDR]... [OPTIONS]",
     "the proving service: HTTP/JSON API, live status page at /, /metrics\n"
     "      (--help: every option; snarkpipe.conf.example)", sp_cli_daemon},
    {"client", "[--addr ADDR] prove|submit|await|cancel|status|metrics|...",
     "talk to a running daemon (--help: every command)", sp_cli_client},
};

static int cmd_help(int argc, char **argv)
{
    printf("usage: snarkpipe [--curve NAME] [--threads N] [--quiet] [--json] COMMAND [ARGS]\n\n"
           "snarkpipe %s: Groth16 proving engine for ", SP_VERSION_STRING);
    print_curves();
    printf(".\nThe curve: --curve NAME (bls12-381, bn254 = bn128), else the first input file\n"
           "that says (.zkey/.r1cs/.wtns prime, JSON \"curve\", daemon --config [engine] curve;\n"
           "bellperson files are bls12-381), else bls12-381. This is the %s prover.\n\ncommands:\n",
           sp_curve_label(SP_CURVE_ID_THIS));
    for (size_t i = 0; i < sizeof commands_ / sizeof commands_[0]; i++) {
        printf("  %s%s%s\n      %s\n", commands_[i].name, *commands_[i].args ? " " : "",
               commands_[i].args, commands_[i].help);
    }
    printf("\nsnarkjs' forms run the commands that take its argument orders: groth16 prove|verify|fullprove|\n"
           "setup (g16p, g16v, g16f, g16s); zkey export verificationkey (zkev) = export-vkey, zkey export\n"
           "solidityverifier (zkesv) = export-solidity, zkey export soliditycalldata (zkesc, generatecall)\n"
           "= calldata; r1cs info (ri) = info; wc, wchk, wej = wtns calculate, check, export json.\n");
    printf("\nexit codes:\n"
           "  0  success\n"
           "  1  a check failed: the proof does not verify, selftest found a wrong answer\n"
           "  2  error: unreadable or malformed input (the message says what and where), I/O, memory\n"
           "  64 usage error: unknown command or bad arguments\n");
    return SP_EXIT_OK;
}

/* "unknown command" with the nearest command or global option. */
static int unknown_command(const char *name)
{
    enum { N = sizeof commands_ / sizeof commands_[0] };
    static const char *const globals[] = {"--curve", "--threads", "--quiet", "--json", "--help", "--version"};
    const char *names[N], *near;
    for (int i = 0; i < N; i++)
        names[i] = commands_[i].name;
    if (name[0] == '-')
        near = sp_cli_suggest(name, globals, (int)(sizeof globals / sizeof globals[0]));
    else
        near = sp_cli_suggest(name, names, N);
    if (near)
        fprintf(stderr, "snarkpipe: unknown %s '%s' (did you mean %s?)\n", name[0] == '-' ? "option" : "command",
                name, near);
    else
        fprintf(stderr, "snarkpipe: unknown %s '%s' (snarkpipe help: the commands)\n",
                name[0] == '-' ? "option" : "command", name);
    return SP_EXIT_USAGE;
}

int sp_cli_main(int argc, char **argv, const int *curves, int n_curves)
{
    sp_cli_g.curves = curves;
    sp_cli_g.n_curves = n_curves;
    int rc = sp_cli_parse_globals(&argc, &argv);
    if (rc != SP_EXIT_OK)
        return rc;
    if (argc < 2) {
        fprintf(stderr, "usage: snarkpipe [--curve NAME] [--threads N] [--quiet] [--json] COMMAND [ARGS]\n"
                        "(snarkpipe help: the commands)\n");
        return SP_EXIT_USAGE;
    }
    const char *name = argv[1];
    if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0)
        name = "help";
    for (size_t i = 0; i < sizeof commands_ / sizeof commands_[0]; i++)
        if (strcmp(name, commands_[i].name) == 0) {
            sp_cli_progress_setup(name);
            return commands_[i].fn(argc - 1, argv + 1);
        }
    return unknown_command(name);
}
