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
        UINT64_MAX;
}

int sp_cli_porep_opt(sp_cli_porep_opts *o, int argc, char **argv, int *i, const char *cmd, const char *usage,
                     int *rc)
{
    static const char *const NAMES[] = {"--challenges", "--layers", "--nodes", "--drg-parents",
                                        "--exp-parents", "--label-parents", "--seed", "--partition"};
    uint64_t *dst[] = {&o->challenges, &o->layers, &o->nodes, &o->drg, &o->exp, &o->label_parents, &o->seed,
                       &o->partition};
    int missing = 0;
    const char *v = sp_cli_opt(argc, argv, i, "--preset", &missing);
    if (v) {
        o->preset = v;
        return 1;
    }
    for (size_t k = 0; k < sizeof NAMES / sizeof NAMES[0] && !missing; k++) {
        if (!(v = sp_cli_opt(argc, argv, i, NAMES[k], &missing)))
            continue;
        if (sp_cli_u64(dst[k], v) || (k == 7 && *dst[k] > UINT32_MAX) || (k < 6 && *dst[k] > 100000000000ull)) {
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
    const char *name = o->preset ? o->preset : "2KiB";
    if (sp_porep_preset(p, name) != SP_OK)
        return sp_cli_usage(cmd, usage, "unknown preset '%s' (2KiB, 8MiB, 512MiB, 32GiB, 64GiB)", name);
    int custom = 0;
    const uint64_t *src[] = {&o->challenges, &o->layers, &o->drg, &o->exp, &o->label_parents};
    uint32_t *d[] = {&p->challenges, &p->layers, &p->drg_parents, &p->exp_parents, &p->label_parents};
    for (int k = 0; k < 5; k++)
        if (*src[k] != UINT64_MAX) {
            if (*src[k] > UINT32_MAX)
                return sp_cli_usage(cmd, usage, "a porep-like parameter is out of range");
            *d[k] = (uint32_t)*src[k], custom = 1;
        }
    if (o->nodes != UINT64_MAX) { /* trees of arity 8, then one of 2 or 4 for the rest */
        unsigned k = 0;
        while (k < 63 && ((uint64_t)1 << k) < o->nodes)
            k++;
        p->nodes = o->nodes, p->d_depth = k, p->levels = 0, custom = 1;
        for (; k >= 3 && p->levels < SP_POREP_MAX_LEVELS; k -= 3)
            p->arity[p->levels++] = 8;
        if (k && p->levels < SP_POREP_MAX_LEVELS)
            p->arity[p->levels++] = (uint8_t)(1u << k);
    }
    if (custom)
        snprintf(p->preset, sizeof p->preset, "%.14s%s", o->preset ? o->preset : "custom", o->preset ? "*" : "");
    char err[SP_ERR_LEN];
    sp_status st = sp_porep_check(p, err);
    if (st != SP_OK)
        return sp_cli_usage(cmd, usage, "%s", err);
    return SP_CLI_NEXT;
}

sp_porep_input sp_cli_porep_input(const sp_cli_porep_opts *o)
{
    sp_porep_input in = {o->seed == UINT64_MAX ? 1 : o->seed, o->partition == UINT64_MAX ? 0 : (uint32_t)o->partition};
    return in;
}
