// What the durable benchmarks need from C: the allocator's own count of the
// bytes it has handed out.
#ifndef C_DURABLE_SUPPORT_H
#define C_DURABLE_SUPPORT_H

#include <stdint.h>

/// Bytes allocated and not freed: glibc's mallinfo2 uordblks + hblkhd, or -1
/// where the C library has no mallinfo2.
int64_t durable_benchmarks_allocated_bytes(void);

#endif
