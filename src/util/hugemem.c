/* Large buffers on huge pages: see hugemem.h. */
#include "util/hugemem.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define HUGE_PAGE ((size_t)2 << 20)
#define SMALL_PAGE ((size_t)4096)

/* Before every buffer: how to free it. A mapped buffer's header has a 4 KiB
 * page of its own just below the 2 MiB boundary where the data starts. */
typedef struct {
    void *base;   /* the mapping, or aligned_alloc's block */
    size_t len;   /* the mapping's length; 0 for an aligned_alloc'ed block */
    uint64_t pad[6];
} head;
_Static_assert(sizeof(head) == 64, "the data after a header stays 64-byte aligned");

static size_t round_up(size_t n, size_t to) { return (n + to - 1) / to * to; }

void *sp_huge_alloc(size_t bytes)
{
    if (bytes < SP_HUGE_MIN) {
        size_t n = round_up(sizeof(head) + bytes, 64);
        head *h = aligned_alloc(64, n);
        if (!h)
            return NULL;
        memset(h, 0, n);
        h->base = h;
        h->len = 0;
        return h + 1;
    }
    if (bytes > SIZE_MAX - 2 * HUGE_PAGE - SMALL_PAGE)
        return NULL;
    /* The data starts 2 MiB aligned. Its last partial 2 MiB (or its only
     * one) gets a huge page of its own when the buffer fills at least a
     * quarter of it (clearing the rest then costs about what a fault per
     * 4 KiB of that quarter would, and less in a virtual machine), else it
     * stays in small pages. */
    size_t tail = bytes % HUGE_PAGE;
    size_t data = round_up(bytes, tail >= HUGE_PAGE / 4 ? HUGE_PAGE : SMALL_PAGE), want = data + HUGE_PAGE + SMALL_PAGE;
    uint8_t *raw = mmap(NULL, want, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED)
        return NULL;
    /* keep [d - 4 KiB, d + data) with d 2 MiB aligned; give back the rest */
    uint8_t *d = (uint8_t *)round_up((uintptr_t)raw + SMALL_PAGE, HUGE_PAGE), *keep = d - SMALL_PAGE;
    if (keep > raw)
        munmap(raw, (size_t)(keep - raw));
    uint8_t *end = raw + want;
    if (end > d + data)
        munmap(d + data, (size_t)(end - (d + data)));
    madvise(d, data, MADV_HUGEPAGE); /* advice: without THP it is 4 KiB pages, as before */
    head *h = (head *)d - 1;
    h->base = keep;
    h->len = SMALL_PAGE + data;
    return d;
}

void sp_huge_free(void *p)
{
    if (!p)
        return;
    head *h = (head *)p - 1;
    if (h->len)
        munmap(h->base, h->len);
    else
        free(h->base);
}
