// What the benchmarks need from C: the allocator's own count of the bytes it
// has handed out, and a plain lock to time the floor of a locked hand-off.
#ifndef C_BENCHMARK_SUPPORT_H
#define C_BENCHMARK_SUPPORT_H

#include <stdint.h>

/// Bytes allocated and not freed: glibc's mallinfo2 uordblks + hblkhd, or -1
/// where the C library has no mallinfo2.
int64_t benchmarks_allocated_bytes(void);

/// Locks and unlocks one mutex `count` times (a pthread mutex, as
/// FeedbackLoop's lock on Linux; os_unfair_lock on Apple platforms), adding
/// `count` to a counter inside, so that nothing is optimized away. Returns
/// the counter.
int64_t benchmarks_lock_pairs(int64_t count);

#endif
