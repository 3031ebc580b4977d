/*
 * `snarkpipe daemon`: the proving service (src/daemon). The daemon is
 * linked only into snarkpipe-daemon (Makefile), whose objects define
 * sp_dmn_main; in snarkpipe, dispatch.c runs that executable before this is
 * reached, so here a missing definition means a build without the daemon.
 * The daemon is compiled once for both curves; this instance hands it its
 * curve's table (daemon/ops.h).
 */
#include <stdio.h>
#include "cli/cli.h"
#include "daemon/daemon.h"
#include "daemon/ops.h"

int sp_cli_daemon(int argc, char **argv);

/* Weak: NULL where the daemon is not linked. */
#pragma weak sp_dmn_main

int sp_cli_daemon(int argc, char **argv)
{
    if (sp_dmn_main)
        return sp_dmn_main(argc, argv, &sp_dmn_curve_ops);
    fprintf(stderr, "snarkpipe daemon: this snarkpipe was built without daemon support (it needs libmicrohttpd "
                    "and libinih, found with pkg-config at build time; Debian: apt-get install libmicrohttpd-dev "
                    "libinih-dev, then rebuild)\n");
    return SP_EXIT_RUNTIME;
}
