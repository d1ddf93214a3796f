#include "CDurableSupport.h"

#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
#include <malloc.h>

int64_t durable_benchmarks_allocated_bytes(void) {
  struct mallinfo2 info = mallinfo2();
  return (int64_t)(info.uordblks + info.hblkhd);
}
#else
int64_t durable_benchmarks_allocated_bytes(void) { return -1; }
#endif
