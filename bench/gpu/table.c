/* The rows every timing part adds, the table printed at the end, and the
 * median they report (gpu_bench.h). */
#include <stdio.h>
#include <stdlib.h>
#include "gpu_bench.h"

#define BENCH_MAX_ROWS 160

typedef struct {
    char what[72], size[16], unit[16], note[96];
    double value;
} table_row;

static table_row rows_[BENCH_MAX_ROWS];
static int nrows_;

void bench_table_row(const char *what, const char *size, double value, const char *unit, const char *note)
{
    if (nrows_ == BENCH_MAX_ROWS)
        return;
    table_row *r = &rows_[nrows_++];
    snprintf(r->what, sizeof r->what, "%s", what);
    snprintf(r->size, sizeof r->size, "%s", size);
    snprintf(r->unit, sizeof r->unit, "%s", unit);
    snprintf(r->note, sizeof r->note, "%s", note ? note : "");
    r->value = value;
}

void bench_table_print(void)
{
    printf("\n| what | size | value | unit | note |\n|---|---|---|---|---|\n");
    for (int i = 0; i < nrows_; i++) {
        const table_row *r = &rows_[i];
        printf("| %s | %s | %.4g | %s | %s |\n", r->what, r->size, r->value, r->unit, r->note);
    }
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double bench_median(double *v, int n)
{
    qsort(v, n, sizeof *v, cmp_double);
    return v[n / 2];
}
