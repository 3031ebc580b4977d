/*
 * `snarkpipe wtns check` and `snarkpipe wtns export json` (cmd_wtns.h):
 * snarkjs' commands of those names, with its argument orders.
 *
 * check: exit 0 and "OK" when the witness satisfies every constraint of
 * the circuit; 1 and "INVALID" when it does not (the first constraint that
 * fails named, as snarkjs names it, or the witness's length when it is not
 * the circuit's); 2 when a file cannot be read or is not what it should be.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/cmd_wtns.h"
#include "cli/cmds.h"
#include "groth16/json_io.h"
#include "r1cs/r1cs.h"
#include "synth/synth.h"

static const char CHECK_USAGE[] =
    "usage: snarkpipe wtns check [--json] [--quiet] <circuit.r1cs> <witness.wtns>\n"
    "  Checks that the witness satisfies every constraint of the circuit (snarkjs wtns check):\n"
    "  OK (exit 0), or INVALID (exit 1) naming the first constraint that fails; unreadable or\n"
    "  malformed files exit 2.\n";

static const char EXPORT_USAGE[] =
    "usage: snarkpipe wtns export json <witness.wtns> <witness.json>\n"
    "  The witness's values as a JSON array of decimal strings, the file snarkjs wtns export json\n"
    "  writes.\n";

static int report(int valid, size_t n_constraints, const char *why)
{
    char extra[48];
    snprintf(extra, sizeof extra, "\"constraints\":%zu", n_constraints);
    return sp_cli_verdict("wtns check", valid, extra, why);
}

static int check(const char *r1cs_path, const char *wtns_path)
{
    char err[SP_ERR_LEN];
    sp_r1cs cs;
    sp_fr *w = NULL;
    size_t n = 0, bad = 0;
    sp_status st = sp_r1cs_read(&cs, r1cs_path, err);
    if (st != SP_OK)
        return sp_cli_fail_file("wtns check", r1cs_path, st, err);
    if ((st = sp_wtns_read(&w, &n, wtns_path, err)) != SP_OK) {
        sp_r1cs_free(&cs);
        return sp_cli_fail_file("wtns check", wtns_path, st, err);
    }
    int rc;
    if (sp_wtns_check_circuit(n, &cs.h, err) != SP_OK) {
        rc = report(0, cs.h.n_constraints, err);
    } else {
        st = sp_synth_check(&cs, w, n, sp_cli_threads(), &bad, err);
        if (st == SP_ERR_UNSATISFIED) {
            char why[SP_ERR_LEN];
            snprintf(why, sizeof why, "constraint %zu of %u is not satisfied (A*B != C)", bad, cs.h.n_constraints);
            rc = report(0, cs.h.n_constraints, why);
        } else {
            rc = st == SP_OK ? report(1, cs.h.n_constraints, NULL) : sp_cli_fail("wtns check", st, err);
        }
    }
    free(w);
    sp_r1cs_free(&cs);
    return rc;
}

/* wtns check <circuit.r1cs> <witness.wtns>; argv[0] is "check". */
int sp_cli_wtns_check(int argc, char **argv)
{
    char *pos[2];
    int h = sp_cli_files("wtns check", CHECK_USAGE, argc, argv, pos, 2);
    return h == SP_CLI_NEXT ? check(pos[0], pos[1]) : h;
}

/* wtns export json <witness.wtns> <witness.json>; argv[0] is "export". */
int sp_cli_wtns_export(int argc, char **argv)
{
    char err[SP_ERR_LEN], *pos[2];
    if (argc < 2 || strcmp(argv[1], "json"))
        return sp_cli_usage("wtns export", EXPORT_USAGE, "wtns export takes json (snarkjs' wtns export json)");
    int h = sp_cli_files("wtns export json", EXPORT_USAGE, argc - 1, argv + 1, pos, 2);
    if (h != SP_CLI_NEXT)
        return h;
    sp_fr *w;
    size_t n;
    sp_status st = sp_wtns_read(&w, &n, pos[0], err);
    if (st != SP_OK)
        return sp_cli_fail_file("wtns export json", pos[0], st, err);
    st = sp_g16_public_json_write(pos[1], w, n, err); /* the layout of public.json: snarkjs writes both alike */
    free(w);
    return st == SP_OK ? SP_EXIT_OK : sp_cli_fail("wtns export json", st, err);
}
