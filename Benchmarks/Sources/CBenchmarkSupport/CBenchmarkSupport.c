#include "CBenchmarkSupport.h"

#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
#include <malloc.h>

int64_t benchmarks_allocated_bytes(void) {
  struct mallinfo2 info = mallinfo2();
  return (int64_t)(info.uordblks + info.hblkhd);
}
#else
int64_t benchmarks_allocated_bytes(void) { return -1; }
#endif

#if defined(__APPLE__)
#include <os/lock.h>

int64_t benchmarks_lock_pairs(int64_t count) {
  static os_unfair_lock lock = OS_UNFAIR_LOCK_INIT;
  static volatile int64_t counter = 0;
  for (int64_t i = 0; i < count; i++) {
    os_unfair_lock_lock(&lock);
    counter += 1;
    os_unfair_lock_unlock(&lock);
  }
  return counter;
}
#else
#include <pthread.h>

int64_t benchmarks_lock_pairs(int64_t count) {
  static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
  static volatile int64_t counter = 0;
  for (int64_t i = 0; i < count; i++) {
    pthread_mutex_lock(&mutex);
    counter += 1;
    pthread_mutex_unlock(&mutex);
  }
  return counter;
}
#endif
