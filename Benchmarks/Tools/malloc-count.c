// Counts the calls to malloc, calloc, realloc and posix_memalign of a
// process and prints `MALLOCS <count>` to standard error when it exits: a
// workload run once with `timings --once ID` that allocates per event shows a
// count of at least its number of events; one that does not shows the
// process's and the system's set-up only (W0's count is the floor).
//
//   cc -O2 -shared -fPIC -o /tmp/malloc-count.so Benchmarks/Tools/malloc-count.c -ldl
//   LD_PRELOAD=/tmp/malloc-count.so Benchmarks/.build/release/timings --once C1skip-30
//
// Written here rather than taken from package-benchmark because that suite
// needs a release build of its own (minutes on a loaded machine); this one
// reads the same timings binary the figures come from.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static atomic_long count;
static void *(*real_malloc)(size_t);
static void *(*real_calloc)(size_t, size_t);
static void *(*real_realloc)(void *, size_t);
static int (*real_memalign)(void **, size_t, size_t);
static void (*real_free)(void *);
// dlsym allocates with calloc while calloc is being looked up: that one call
// is served from here, and never freed.
static char bootstrap[65536];
static size_t used;

void *malloc(size_t n) {
  if (!real_malloc) real_malloc = dlsym(RTLD_NEXT, "malloc");
  atomic_fetch_add(&count, 1);
  return real_malloc(n);
}

void *calloc(size_t a, size_t b) {
  if (!real_calloc) {
    static int resolving;
    if (resolving) {
      void *p = bootstrap + used;
      used += (a * b + 15) & ~(size_t)15;
      return p;
    }
    resolving = 1;
    real_calloc = dlsym(RTLD_NEXT, "calloc");
    resolving = 0;
  }
  atomic_fetch_add(&count, 1);
  return real_calloc(a, b);
}

void *realloc(void *p, size_t n) {
  if (!real_realloc) real_realloc = dlsym(RTLD_NEXT, "realloc");
  atomic_fetch_add(&count, 1);
  return real_realloc(p, n);
}

int posix_memalign(void **p, size_t alignment, size_t n) {
  if (!real_memalign) real_memalign = dlsym(RTLD_NEXT, "posix_memalign");
  atomic_fetch_add(&count, 1);
  return real_memalign(p, alignment, n);
}

void free(void *p) {
  if ((char *)p >= bootstrap && (char *)p < bootstrap + sizeof bootstrap) return;
  if (!real_free) real_free = dlsym(RTLD_NEXT, "free");
  real_free(p);
}

__attribute__((destructor)) static void report(void) {
  char line[64];
  int length = snprintf(line, sizeof line, "MALLOCS %ld\n", atomic_load(&count));
  write(2, line, length);
}
