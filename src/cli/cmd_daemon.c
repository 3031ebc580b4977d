/* `snarkpipe daemon`: the proving service (src/daemon), when this build has it. */
#include <stdio.h>
#include "cli/cli.h"
#ifdef SP_WITH_DAEMON
#include "daemon/daemon.h"
#endif

int sp_cli_daemon(int argc, char **argv);

int sp_cli_daemon(int argc, char **argv)
{
#ifdef SP_WITH_DAEMON
    return sp_dmn_main(argc, argv);
#else
    (void)argc;
    (void)argv;
    fprintf(stderr, "snarkpipe daemon: this snarkpipe was built without daemon support (it needs libmicrohttpd "
                    "and libinih, found with pkg-config at build time; Debian: apt-get install libmicrohttpd-dev "
                    "libinih-dev, then rebuild)\n");
    return SP_EXIT_RUNTIME;
#endif
}
