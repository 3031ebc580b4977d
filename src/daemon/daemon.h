/*
 * The proving daemon: a long-lived HTTP/JSON service in front of one
 * engine (engine/engine.h). Not part of the library: it is linked into
 * the `snarkpipe` tool when libmicrohttpd and libinih are present
 * (Makefile). README.md ("The daemon") lists the endpoints; config.h the
 * options; internal.h how the parts fit.
 */
#ifndef SP_DAEMON_DAEMON_H
#define SP_DAEMON_DAEMON_H

/*
 * `snarkpipe daemon [--config FILE] [--listen ADDR]... [OPTIONS]`;
 * argv[0] is "daemon". Runs until SIGTERM or SIGINT (drain or cancel, as
 * configured), reloading on SIGHUP.
 * Returns the exit status: 0 after a clean shutdown or --help /
 * --print-config / --check-config, 2 when it cannot start (a socket, a
 * token file, the engine), 64 for a bad option, file or listener
 * policy (a non-loopback TCP address without a token).
 */
int sp_daemon_main(int argc, char **argv);

#endif
