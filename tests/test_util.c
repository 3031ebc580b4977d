/*
 * The small util/ helpers without a test of their own: the byte-count
 * syntax (src/util/bytes.h), with its edges: every unit, the 2^k form,
 * the largest values that fit and the smallest that do not, and junk;
 * the atomic file replacement (src/util/file.h): new and existing files,
 * modes, links, what it refuses, and nothing left behind.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "test.h"
#include "util/bytes.h"
#include "util/file.h"

static void test_bytes_good(void)
{
    static const struct {
        const char *s;
        size_t v;
    } good[] = {
        {"0", 0}, {"123", 123}, {"1000000", 1000000}, {"007", 7},
        {"64K", (size_t)64 << 10}, {"64k", (size_t)64 << 10}, {"64KiB", (size_t)64 << 10}, {"64kib", (size_t)64 << 10},
        {"256m", (size_t)256 << 20}, {"512MiB", (size_t)512 << 20}, {"2G", (size_t)2 << 30},
        {"2GiB", (size_t)2 << 30}, {"1T", (size_t)1 << 40}, {"3TiB", (size_t)3 << 40}, {"0G", 0},
        {"2^0", 1}, {"2^30", (size_t)1 << 30}, {"2^63", (size_t)1 << 63},
        {"18446744073709551615", SIZE_MAX},           /* the largest plain value */
        {"16777215T", (size_t)16777215 << 40},        /* the largest in T */
        {"17179869183G", (size_t)17179869183 << 30},  /* and in G */
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        size_t v = 1;
        CHECKF(sp_bytes_parse(&v, good[i].s) == SP_OK && v == good[i].v, "sp_bytes_parse(\"%s\")", good[i].s);
    }
}

static void test_bytes_bad(void)
{
    static const char *const bad[] = {
        "", "x", "K", "-1", "+1", " 1", "1 ", "1 K", "1.5G", "0x10", "12Q", "10XB",
        "1KB", "3GB", "1MB", "1TB", "1b", "1Ki", "1KiBB", "1KK", "1P", "2^", "2^64", "2^x", "2^-1", "2^3K",
        "18446744073709551616",  /* SIZE_MAX + 1 */
        "99999999999999999999", "16777216T", "17179869184G", "99999999999T",
        "1e9", "auto",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        size_t v = 7;
        CHECKF(sp_bytes_parse(&v, bad[i]) == SP_ERR_INVALID_ARG && v == 7, "sp_bytes_parse(\"%s\") accepted", bad[i]);
    }
}

/* 1 when path holds exactly text. */
static int holds(const char *path, const char *text)
{
    char buf[64] = "";
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    return n == strlen(text) && !memcmp(buf, text, n);
}

/* Entries of dir other than . and .. */
static int entries(const char *dir)
{
    int n = 0;
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d));)
        n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    if (d)
        closedir(d);
    return n;
}

static void test_write_atomic(void)
{
    char dir[] = "/tmp/sp_test_util.XXXXXX", a[64], link[64], sub[64], err[SP_ERR_LEN];
    if (!mkdtemp(dir)) {
        CHECK(!"mkdtemp");
        return;
    }
    snprintf(a, sizeof a, "%s/a.txt", dir);
    snprintf(link, sizeof link, "%s/link.txt", dir);
    snprintf(sub, sizeof sub, "%s/sub", dir);
    mode_t old = umask(022);
    CHECK(sp_file_write_atomic(a, "one", 3, "t", err) == SP_OK && holds(a, "one"));
    struct stat st;
    CHECK(stat(a, &st) == 0 && (st.st_mode & 0777) == 0644); /* 0666 less the umask */
    CHECK(chmod(a, 0600) == 0);
    CHECK(sp_file_write_atomic(a, "second", 6, "t", err) == SP_OK && holds(a, "second"));
    CHECK(stat(a, &st) == 0 && (st.st_mode & 0777) == 0600); /* the replaced file's mode */
    CHECK(sp_file_write_atomic(a, "", 0, "t", err) == SP_OK && holds(a, ""));
    /* through a link: the target changes, the link stays */
    CHECK(symlink("a.txt", link) == 0);
    CHECK(sp_file_write_atomic(link, "via", 3, "t", err) == SP_OK && holds(a, "via"));
    CHECK(lstat(link, &st) == 0 && S_ISLNK(st.st_mode));
    /* refused: a directory (untouched), a missing folder; messages name the path */
    CHECK(mkdir(sub, 0700) == 0);
    CHECK(sp_file_write_atomic(sub, "x", 1, "t", err) == SP_ERR_IO && strstr(err, "not a regular file") &&
          strstr(err, "sub"));
    CHECK(stat(sub, &st) == 0 && S_ISDIR(st.st_mode));
    char missing[80];
    snprintf(missing, sizeof missing, "%s/none/b.txt", dir);
    CHECK(sp_file_write_atomic(missing, "x", 1, "t", err) == SP_ERR_IO && strstr(err, "none/b.txt"));
    /* a dangling link is an error, not a new file beside it */
    CHECK(unlink(a) == 0);
    CHECK(sp_file_write_atomic(link, "x", 1, "t", err) == SP_ERR_IO && access(a, F_OK) != 0);
    umask(old);
    CHECKF(entries(dir) == 2, "%d entries: a temporary file was left behind", entries(dir)); /* link, sub */
    unlink(link);
    rmdir(sub);
    rmdir(dir);
}

int main(void)
{
    _Static_assert(sizeof(size_t) == 8, "the known answers assume a 64-bit size_t");
    sp_test_begin("test_util", NULL);
    test_bytes_good();
    test_bytes_bad();
    test_write_atomic();
    return sp_test_done();
}
