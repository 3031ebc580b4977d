/* `snarkpipe waterfall <timeline> [--svg out.svg]` (cmd_engine.h, engine/waterfall.h). */
#include <errno.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/cmd_engine.h"
#include "cli/cmds.h"
#include "engine/waterfall.h"

static const char USAGE[] =
    "usage: snarkpipe waterfall <timeline-file|-> [--svg out.svg]\n"
    "Reads the TIMELINE lines an engine wrote (other lines are skipped, so a daemon log works) and\n"
    "prints per-stage statistics (count, mean, p50, p95, max), GPU efficiency (device lock held over\n"
    "wall time, per GPU), idle gaps (< 50 ms, 50-500 ms, > 500 ms), synthesis lead time, the times\n"
    "all GPU workers were idle, and cross-job transitions.\n"
    "  --svg FILE   also write the waterfall: a lane per synthesis slot, GPU worker and finish\n"
    "               worker, a bar per stage colored by job, with a time axis\n";

int sp_cli_waterfall(int argc, char **argv)
{
    const char *in = NULL, *svg = NULL;
    for (int i = 1; i < argc; i++) {
        int missing = 0, h = sp_cli_arg("waterfall", USAGE, argc, argv, &i);
        const char *v;
        if (h != SP_CLI_OWN) {
            if (h != SP_CLI_NEXT)
                return h;
        } else if ((v = sp_cli_opt(argc, argv, &i, "--svg", &missing))) {
            svg = v;
        } else if (missing) {
            fprintf(stderr, "snarkpipe waterfall: --svg needs a file\n%s", USAGE);
            return SP_EXIT_USAGE;
        } else if ((argv[i][0] == '-' && argv[i][1]) || in) {
            fprintf(stderr, "snarkpipe waterfall: unexpected argument %s\n%s", argv[i], USAGE);
            return SP_EXIT_USAGE;
        } else {
            in = argv[i];
        }
    }
    if (!in) {
        fprintf(stderr, "snarkpipe waterfall: which timeline file?\n%s", USAGE);
        return SP_EXIT_USAGE;
    }
    char err[SP_ERR_LEN] = "";
    sp_waterfall wf;
    sp_status st = sp_waterfall_read(&wf, in, err);
    if (st != SP_OK)
        return sp_cli_fail_file("waterfall", in, st, err);
    sp_waterfall_print(stdout, &wf);
    int rc = SP_EXIT_OK;
    if (svg) {
        FILE *f = fopen(svg, "w");
        int ok = f && sp_waterfall_svg(&wf, f) == SP_OK;
        if (f && fclose(f) != 0)
            ok = 0;
        if (!ok) {
            fprintf(stderr, "snarkpipe waterfall: cannot write %s: %s\n", svg, strerror(errno));
            rc = SP_EXIT_RUNTIME;
        } else {
            printf("\nwaterfall written to %s\n", svg);
        }
    }
    sp_waterfall_free(&wf);
    return rc;
}
