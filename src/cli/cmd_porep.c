/* The porep-like options shared by the CLI's commands (cmd_porep.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/cmd_porep.h"
#include "cli/cmds.h"

void sp_cli_porep_init(sp_cli_porep_opts *o)
{
    o->preset = NULL;
    o->challenges = o->layers = o->nodes = o->drg = o->exp = o->label_parents = o->seed = o->partition =
        o->sectors = UINT64_MAX;
}

int sp_cli_porep_opt(sp_cli_porep_opts *o, int argc, char **argv, int *i, const char *cmd, const char *usage,
                     int *rc)
{
    static const char *const NAMES[] = {"--challenges", "--layers", "--nodes", "--drg-parents",
                                        "--exp-parents", "--label-parents", "--seed", "--partition",
                                        "--sectors"};
    uint64_t *dst[] = {&o->challenges, &o->layers, &o->nodes, &o->drg, &o->exp, &o->label_parents, &o->seed,
                       &o->partition, &o->sectors};
    int missing = 0;
    const char *v = sp_cli_opt(argc, argv, i, "--preset", &missing);
    if (v) {
        o->preset = v;
        return 1;
    }
    for (size_t k = 0; k < sizeof NAMES / sizeof NAMES[0] && !missing; k++) {
        if (!(v = sp_cli_opt(argc, argv, i, NAMES[k], &missing)))
            continue;
        int count = k < 6 || k == 8; /* a shape count, not the seed or the partition */
        if (sp_cli_u64(dst[k], v) || (k == 7 && *dst[k] > UINT32_MAX) || (count && *dst[k] > 100000000000ull)) {
            *rc = sp_cli_usage(cmd, usage, "bad %s value '%s'", NAMES[k], v);
            return -1;
        }
        return 1;
    }
    if (missing) {
        *rc = sp_cli_usage(cmd, usage, "%s needs a value", argv[*i]);
        return -1;
    }
    return 0;
}

int sp_cli_porep_params(sp_porep_params *p, const sp_cli_porep_opts *o, const char *cmd, const char *usage)
{
    if (o->sectors != UINT64_MAX)
        return sp_cli_usage(cmd, usage, "--sectors is window-post-like's option, not porep-like's");
    sp_porep_overrides ov = {o->challenges, o->layers, o->nodes, o->drg, o->exp, o->label_parents};
    char err[SP_ERR_LEN];
    sp_status st = sp_porep_params_from(p, o->preset, &ov, err);
    if (st == SP_ERR_UNSUPPORTED) /* not a usage error: porep-like is BLS12-381's */
        return sp_cli_fail(cmd, st, err);
    if (st != SP_OK)
        return sp_cli_usage(cmd, usage, "%s", err);
    return SP_CLI_NEXT;
}

sp_porep_input sp_cli_porep_input(const sp_cli_porep_opts *o)
{
    sp_porep_input in = {o->seed == UINT64_MAX ? 1 : o->seed, o->partition == UINT64_MAX ? 0 : (uint32_t)o->partition};
    return in;
}

int sp_cli_post_params(sp_post_params *p, const sp_cli_porep_opts *o, const char *cmd, const char *usage)
{
    if (o->layers != UINT64_MAX || o->drg != UINT64_MAX || o->exp != UINT64_MAX || o->label_parents != UINT64_MAX)
        return sp_cli_usage(cmd, usage, "--layers and the parents options are porep-like's, not window-post-like's");
    char err[SP_ERR_LEN];
    sp_status st = sp_post_params_from(p, o->preset, o->sectors, o->challenges, o->nodes, err);
    if (st == SP_ERR_UNSUPPORTED)
        return sp_cli_fail(cmd, st, err);
    if (st != SP_OK)
        return sp_cli_usage(cmd, usage, "%s", err);
    return SP_CLI_NEXT;
}
