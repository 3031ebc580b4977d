/*
 * What the seed-corpus writers (make_seeds.c for BLS12-381 builds,
 * make_seeds_bn254.c for BN254 builds) share: the corpus root, its
 * set-up from the command line and a writer of one seed file. Included
 * by those two programs only.
 */
#ifndef SP_FUZZ_SEEDS_H
#define SP_FUZZ_SEEDS_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *root; /* the corpus folder, from the command line */

static void die(const char *what, const char *err)
{
    fprintf(stderr, "make_seeds: %s: %s\n", what, err);
    exit(1);
}

/* Writes data to root/target/name, making root/target when missing;
 * exits on any failure (a corpus must not be left half written). */
static void put(const char *target, const char *name, const void *data, size_t len)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", root, target);
    if (mkdir(path, 0777) != 0 && errno != EEXIST)
        die(path, strerror(errno));
    snprintf(path, sizeof path, "%s/%s/%s", root, target, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, len, f) != len || fclose(f) != 0)
        die(path, "cannot write");
}

/* main's first step: takes the corpus folder from argv[1] and makes it.
 * Returns 0, or 2 after a usage line (main returns it). */
static int seeds_start(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: make_seeds <corpus dir>   (run from the repository root)\n");
        return 2;
    }
    root = argv[1];
    if (mkdir(root, 0777) != 0 && errno != EEXIST)
        die(root, strerror(errno));
    return 0;
}

#endif
