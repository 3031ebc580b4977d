/*
 * Large zeroed buffers on transparent huge pages (2 MiB) where the system
 * has them for the asking (THP "madvise", as Debian ships it, or
 * "always"). A proof touches its key and scratch arrays once each, and a
 * witness generator its module and output once, so with 4 KiB pages every
 * 4 KiB is a page fault (in a virtual machine each can cost more than
 * clearing its page); on huge pages it is one fault per 2 MiB, and fewer
 * TLB misses after.
 */
#ifndef SP_UTIL_HUGEMEM_H
#define SP_UTIL_HUGEMEM_H

#include <stddef.h>

/* Below this many bytes a buffer comes from malloc's heap: it would fill
 * less than a quarter of a huge page, and there glibc reuses freed blocks
 * without new faults. */
#define SP_HUGE_MIN ((size_t)512 << 10)

/*
 * A zeroed buffer of `bytes` (0 is allowed), 64-byte aligned; from
 * SP_HUGE_MIN up its own mapping, 2 MiB aligned and advised for huge pages
 * (each 2 MiB of it that it fills at least a quarter of; the rest in small
 * pages).
 * Returns NULL when out of memory. Free it with sp_huge_free only.
 */
void *sp_huge_alloc(size_t bytes);

/* Frees a buffer of sp_huge_alloc; NULL is allowed. */
void sp_huge_free(void *p);

#endif
