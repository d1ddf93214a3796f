#include "CFeedbackLoopShims.h"
#include <stdatomic.h>
#include <sched.h>
#include <string.h>
#include <time.h>

_Thread_local const void *fl_tls_current_drainer = NULL;
_Thread_local fl_last_read fl_tls_last_read = {{NULL}, {0}, {0}, 0};
_Thread_local char fl_tls_thread_marker = 0;

/// Records the thread entering the guard (see `reducer`).
static inline void record_reducer(fl_loop_control *control) {
  atomic_store_explicit((_Atomic(const void *) *)&control->reducer, fl_thread_identity(), memory_order_relaxed);
}

static _Thread_local void *fl_tls_build_context = NULL;
void *fl_build_context(void) { return fl_tls_build_context; }
void fl_set_build_context(void *context) { fl_tls_build_context = context; }


void fl_loop_control_init(fl_loop_control *control) {
  fl_lock_init(&control->lock);
  control->word = 0;
  control->reducing = 0;
  control->readers = 0;
  control->publications = 0;
  control->stalled = 0;
  control->reducer = NULL;
}

void fl_yield(void) { sched_yield(); }

static uint64_t monotonic_nanoseconds(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}

void fl_spin_for(uint64_t nanoseconds) {
  // On the clock, not a number of pauses timed once: in a virtual machine a
  // `pause` costs 15 to 40 ns in one process and 200 or more in another
  // (the hypervisor may trap pause loops), so a count measured at the first
  // call made a 400 ns pause 230 ns in one process of six, and the readers
  // of that process took the owner's lines twice as often (the reader
  // benchmarks W10 and W10alt, BENCHMARKS.md, "W10 and W10alt: the pause on
  // the clock"). Reading the clock (a vDSO call, 30 to 70 ns there) between
  // pauses keeps the length whatever a pause costs; the reader waits for
  // nothing meanwhile.
  uint64_t start = monotonic_nanoseconds();
  do {
    fl_spin_pause();
  } while (monotonic_nanoseconds() - start < nanoseconds);
}
void fl_loop_control_destroy(fl_loop_control *control) { fl_lock_destroy(&control->lock); }

#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define FL_THREAD_SANITIZER 1
#endif
#endif
#if defined(__SANITIZE_THREAD__)
#define FL_THREAD_SANITIZER 1
#endif

#if FL_THREAD_SANITIZER
// ThreadSanitizer does not model fences or membarrier: the reduction guard
// is a spin lock on `reducing`, with acquire and release, which it sees. Not
// the system's lock: a reducer may take that one (`runningTaskCount`,
// `observe`), and did deadlock when the guard was the same lock.
#include <sched.h>
#define GUARD(control) ((_Atomic uint64_t *)&(control)->reducing)
static inline void guard_lock(fl_loop_control *control) {
  while (atomic_exchange_explicit(GUARD(control), 1, memory_order_acquire) != 0) sched_yield();
}
static inline void guard_unlock(fl_loop_control *control) {
  atomic_store_explicit(GUARD(control), 0, memory_order_release);
}
void fl_reduce_begin(fl_loop_control *control) {
  guard_lock(control);
  record_reducer(control);
}
void fl_reduce_end(fl_loop_control *control) {
  // Readers take this same lock: cleared, so that a reader holding it is
  // never taken for a reducer on the reading thread.
  atomic_store_explicit((_Atomic(const void *) *)&control->reducer, NULL, memory_order_relaxed);
  guard_unlock(control);
}
void fl_read_begin(fl_loop_control *control) { guard_lock(control); }
void fl_read_end(fl_loop_control *control) { guard_unlock(control); }
int fl_reduction_guard_form(void) { return FL_GUARD_LOCK; }
const bool fl_optimistic_reads_available = false;
#else

#if defined(__linux__)
#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif
#include <sched.h>

// Whether the owner's side may be a compiler barrier only: decided once,
// before any Swift code runs, so that both sides always agree.
static bool asymmetric = false;

__attribute__((constructor)) static void fl_register_membarrier(void) {
  // FEEDBACKLOOP_REDUCTION_GUARD=fence forces the form with a full fence on
  // both sides (Apple platforms' form, and a kernel without membarrier), so
  // that Linux CI runs it too.
  const char *forced = getenv("FEEDBACKLOOP_REDUCTION_GUARD");
  if (forced != NULL && strcmp(forced, "fence") == 0) return;
#if defined(__linux__) && defined(__NR_membarrier)
  long commands = syscall(__NR_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
  if (commands > 0 && (commands & MEMBARRIER_CMD_PRIVATE_EXPEDITED) &&
      syscall(__NR_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0) {
    asymmetric = true;
  }
#endif
}

/// The owner's half of the Dekker protocol's store-load barrier.
static inline void light_barrier(void) {
  if (asymmetric) {
    atomic_signal_fence(memory_order_seq_cst);
  } else {
    atomic_thread_fence(memory_order_seq_cst);
  }
}

/// The reader's half: makes every thread of the process pass a full barrier.
static inline void heavy_barrier(void) {
#if defined(__linux__) && defined(__NR_membarrier)
  if (asymmetric) {
    // Cannot fail once the process is registered (membarrier(2): EPERM
    // only for an unregistered process), which the constructor checked.
    syscall(__NR_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0);
    return;
  }
#endif
  atomic_thread_fence(memory_order_seq_cst);
}

#define REDUCING(control) ((_Atomic uint64_t *)&(control)->reducing)
#define READERS(control) ((_Atomic uint64_t *)&(control)->readers)

// `reducing` is a sequence that only the owner writes (one owner at a time,
// handed over through the control word's acquire and release), so it moves
// it with a load and a store, never a read-modify-write: odd from before
// the reducer's first write, even after its last. An optimistic reader
// (fl_sequence_read_validate) that saw the same even value before and after
// its copy copied a state no reducer touched in between.
static inline uint64_t sequence(fl_loop_control *control) {
  return atomic_load_explicit(REDUCING(control), memory_order_relaxed);
}

/// Makes the sequence odd, and orders that store before the reducer's
/// writes (a seqlock writer's release fence: a compiler barrier on x86,
/// where the light barrier is one too).
static inline void enter_reduction(fl_loop_control *control, uint64_t even) {
  record_reducer(control);
  // Release: a reader that sees the odd value sees this thread's identity.
  atomic_store_explicit(REDUCING(control), even + 1, memory_order_release);
  atomic_thread_fence(memory_order_release);
  light_barrier();
}

void fl_reduce_begin(fl_loop_control *control) {
  uint64_t even = sequence(control);
  enter_reduction(control, even);
  while (atomic_load_explicit(READERS(control), memory_order_acquire) != 0) {
    // A reader is copying the state: let it finish. Stepping back to an
    // even value is safe: nothing was written yet.
    atomic_store_explicit(REDUCING(control), even + 2, memory_order_release);
    even += 2;
    while (atomic_load_explicit(READERS(control), memory_order_acquire) != 0) sched_yield();
    enter_reduction(control, even);
  }
}

void fl_reduce_end(fl_loop_control *control) {
  atomic_store_explicit(REDUCING(control), sequence(control) + 1, memory_order_release);
}

const bool fl_optimistic_reads_available = true;

void fl_read_begin(fl_loop_control *control) {
  atomic_fetch_add_explicit(READERS(control), 1, memory_order_seq_cst);
  heavy_barrier();
  // The owner is reducing: wait with the flag up. Only the owner steps back
  // (fl_reduce_begin); when both did, they could step back in turn forever
  // (Models/ownership.pml found that livelock).
  while ((atomic_load_explicit(REDUCING(control), memory_order_acquire) & 1) != 0) sched_yield();
}

void fl_read_end(fl_loop_control *control) {
  atomic_fetch_sub_explicit(READERS(control), 1, memory_order_release);
}

int fl_reduction_guard_form(void) { return asymmetric ? FL_GUARD_MEMBARRIER : FL_GUARD_FENCE; }
#endif

uint64_t fl_word_set_between_reductions(fl_loop_control *control, uint64_t bits) {
  fl_read_begin(control);
  fl_lock_lock(&control->lock);
  uint64_t before = fl_word_set(&control->word, bits);
  fl_lock_unlock(&control->lock);
  fl_read_end(control);
  return before;
}

static _Atomic int64_t live_tasks = 0;
int64_t fl_live_tasks_increment(void) { return atomic_fetch_add_explicit(&live_tasks, 1, memory_order_relaxed) + 1; }
int64_t fl_live_tasks_decrement(void) { return atomic_fetch_sub_explicit(&live_tasks, 1, memory_order_relaxed) - 1; }
int64_t fl_live_tasks_load(void) { return atomic_load_explicit(&live_tasks, memory_order_relaxed); }

static _Atomic uint64_t last_storage_identity = 0;
uint64_t fl_next_storage_identity(void) {
  return atomic_fetch_add_explicit(&last_storage_identity, 1, memory_order_relaxed) + 1;
}
