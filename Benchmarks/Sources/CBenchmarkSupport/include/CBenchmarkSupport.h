// The allocator's own count of the bytes it has handed out, where the C
// library says (glibc's mallinfo2); -1 elsewhere.
#ifndef C_MALLOC_INFO_H
#define C_MALLOC_INFO_H

#include <stdint.h>

/// Bytes allocated and not freed: mallinfo2's uordblks + hblkhd, or -1.
int64_t benchmarks_allocated_bytes(void);

#endif
