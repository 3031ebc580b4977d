/* Stand-alone field benchmark: the table of `snarkpipe bench field`
 * (src/cli/cmd_bench_field.c, whose object this program links). */
#include "cli/cli.h"

int main(int argc, char **argv) { return sp_cli_bench_field(argc, argv); }
