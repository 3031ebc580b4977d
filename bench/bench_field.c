/* Stand-alone field benchmark; the table itself lives in field.c. */
#include "field.h"

int main(int argc, char **argv) { return sp_bench_field(argc, argv); }
