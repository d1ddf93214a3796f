// Small C helpers the Swift core needs on every platform it supports, from
// the C library alone: a plain lock, a thread-local marker of the thread that
// is draining a system, a system's atomic control word, an atomic pointer
// cell and an atomic counter.
//
// The lock here is not the library's `Locked` (Sources/FeedbackLoop/Locking),
// which every other target uses: it lives in one allocation with what it
// guards (a system's control word, reduction guard and counters; an input's
// pointer cell), and the functions below take it together with atomic
// operations on those fields (`fl_word_set_between_reductions`), on the
// per-event path. Synchronization's `Mutex` is a non-copyable Swift value that
// C cannot reach: using it would split each control into two allocations, one
// more pointer to follow per event, and the layout Models/ownership.pml
// checks would no longer be the one that runs.
#ifndef C_FEEDBACK_LOOP_SHIMS_H
#define C_FEEDBACK_LOOP_SHIMS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#if defined(__APPLE__)
#include <os/lock.h>
#include <pthread.h>
typedef os_unfair_lock fl_lock_t;
static inline void fl_lock_init(fl_lock_t *_Nonnull lock) { *lock = OS_UNFAIR_LOCK_INIT; }
static inline void fl_lock_destroy(fl_lock_t *_Nonnull lock) { (void)lock; }
static inline void fl_lock_lock(fl_lock_t *_Nonnull lock) { os_unfair_lock_lock(lock); }
static inline void fl_lock_unlock(fl_lock_t *_Nonnull lock) { os_unfair_lock_unlock(lock); }
#else
#include <pthread.h>
typedef pthread_mutex_t fl_lock_t;
static inline void fl_lock_init(fl_lock_t *_Nonnull lock) { pthread_mutex_init(lock, NULL); }
static inline void fl_lock_destroy(fl_lock_t *_Nonnull lock) { pthread_mutex_destroy(lock); }
static inline void fl_lock_lock(fl_lock_t *_Nonnull lock) { pthread_mutex_lock(lock); }
static inline void fl_lock_unlock(fl_lock_t *_Nonnull lock) { pthread_mutex_unlock(lock); }
#endif

/// The system whose drain loop runs on the calling thread, or NULL. Inline:
/// every send tests it.
extern _Thread_local const void *_Nullable fl_tls_current_drainer;
static inline const void *_Nullable fl_current_drainer(void) { return fl_tls_current_drainer; }
static inline void fl_set_current_drainer(const void *_Nullable drainer) { fl_tls_current_drainer = drainer; }

/// What the feedbacks of the system being made on the calling thread share
/// (`SharedHandlers`), or NULL: kept here rather than in the system, which
/// needs it only while it is made.
void *_Nullable fl_build_context(void);
void fl_set_build_context(void *_Nullable context);

/// A system's control word: who owns its loop and what waits for the owner
/// (see SystemCore.swift). A plain `uint64_t` in memory, only ever accessed
/// through these atomic operations.
static inline uint64_t fl_word_load(uint64_t *_Nonnull word) {
  return atomic_load_explicit((_Atomic uint64_t *)word, memory_order_acquire);
}
/// Replaces `expected` with `desired`; returns whether it did.
static inline bool fl_word_exchange_if(uint64_t *_Nonnull word, uint64_t expected, uint64_t desired) {
  return atomic_compare_exchange_strong_explicit((_Atomic uint64_t *)word, &expected, desired, memory_order_acq_rel,
                                                 memory_order_acquire);
}
/// Sets `bits`; returns the word before.
static inline uint64_t fl_word_set(uint64_t *_Nonnull word, uint64_t bits) {
  return atomic_fetch_or_explicit((_Atomic uint64_t *)word, bits, memory_order_acq_rel);
}
/// Clears `bits`; returns the word before.
static inline uint64_t fl_word_clear(uint64_t *_Nonnull word, uint64_t bits) {
  return atomic_fetch_and_explicit((_Atomic uint64_t *)word, ~bits, memory_order_acq_rel);
}

/// The size of a cache line on the target, and the alignment of a
/// `fl_loop_control`'s allocation: the control's two parts each have lines
/// of their own. Apple silicon's lines are 128 bytes (`hw.cachelinesize`):
/// padding to 64 there would put the word and the guard on one line. So
/// are POWER's, and s390x's 256; 64 everywhere else (x86, and the ARM
/// cores Linux runs on).
#if defined(__APPLE__) && defined(__aarch64__)
#define FL_CACHE_LINE 128
#elif defined(__powerpc64__)
#define FL_CACHE_LINE 128
#elif defined(__s390x__)
#define FL_CACHE_LINE 256
#else
#define FL_CACHE_LINE 64
#endif

/// A system's lock, control word and reduction guard, in one allocation
/// aligned to `FL_CACHE_LINE`. `reducing` and `readers` are only accessed
/// through the functions below.
///
/// Two parts on cache lines of their own, so that what the owner writes
/// per event never shares a line with what the senders write per event
/// (W9: eight threads sending to one system): the word and the lock, which
/// the senders on other threads use per event (the word is written only
/// when the loop changes hands or the inbox goes from empty to not empty);
/// and the reduction guard, which the owner writes twice per reduction. The
/// word and the lock share their line: each on a line of its own was no
/// faster in W9 within its noise (about 7% at most, in three interleaved
/// pairs) and cost every idle system 64 bytes (W4). The guard on the word's
/// line made W9 clearly slower. A state small enough lives in the guard
/// line's spare bytes (`guardLine`, `Layout` in SystemCore.swift): a reader on
/// another thread then loads one line, not two, and the owner writes one.
typedef struct fl_loop_control {
  /// First, so that its address is the control's.
  uint64_t word;
  fl_lock_t lock;
  char wordLine[(sizeof(uint64_t) + sizeof(fl_lock_t) + FL_CACHE_LINE - 1) / FL_CACHE_LINE * FL_CACHE_LINE -
                sizeof(uint64_t) - sizeof(fl_lock_t)];
  /// The reduction guard's sequence: odd while the owner reduces (or is
  /// about to), even between reductions, and never back to an even value
  /// after a reduction changed the state (see `fl_sequence_read_begin`).
  uint64_t reducing;
  uint64_t readers;
  /// How many copies of the state the owner has published to readers on
  /// other threads (see SystemCore+Reads.swift).
  uint64_t publications;
  /// One more than the number of publications when a reader last gave up
  /// waiting for the owner, or 0.
  uint64_t stalled;
  /// The thread that entered the guard last (`fl_thread_identity`), written
  /// before the sequence turns odd: a read from the thread that is running
  /// the reducer (through another system the reducer sent to) would wait
  /// for itself, and stops the program with a message instead.
  const void *_Nullable reducer;
  char guardLine[FL_CACHE_LINE - 4 * sizeof(uint64_t) - sizeof(void *)];
} fl_loop_control;

// Each part starts a line of the target's size, whatever it is.
_Static_assert(offsetof(fl_loop_control, reducing) % FL_CACHE_LINE == 0,
               "the reduction guard must start a cache line of its own");
_Static_assert(sizeof(fl_loop_control) % FL_CACHE_LINE == 0, "the control must end on a cache line boundary");

/// The number of publications so far (acquire: a reader that sees it change
/// sees the copy published before).
static inline uint64_t fl_publications_load(fl_loop_control *_Nonnull control) {
  return atomic_load_explicit((_Atomic uint64_t *)&control->publications, memory_order_acquire);
}
static inline void fl_publications_increment(fl_loop_control *_Nonnull control) {
  atomic_fetch_add_explicit((_Atomic uint64_t *)&control->publications, 1, memory_order_release);
}
static inline uint64_t fl_stalled_load(fl_loop_control *_Nonnull control) {
  return atomic_load_explicit((_Atomic uint64_t *)&control->stalled, memory_order_relaxed);
}
static inline void fl_stalled_store(fl_loop_control *_Nonnull control, uint64_t value) {
  atomic_store_explicit((_Atomic uint64_t *)&control->stalled, value, memory_order_relaxed);
}
/// Tells the processor that the caller spins (x86 `pause`, ARM `yield`).
static inline void fl_spin_pause(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
  __asm__ __volatile__("yield");
#endif
}
/// Gives the processor to another thread.
void fl_yield(void);
/// Spins for about `nanoseconds` with `fl_spin_pause`, reading the monotonic
/// clock between pauses: a pause's length differs by processor (about 23 ns
/// on the AMD EPYC of BENCHMARKS.md, 40 on recent Intel, a few on others)
/// and, in a virtual machine, from one process to the next.
void fl_spin_for(uint64_t nanoseconds);

void fl_loop_control_init(fl_loop_control *_Nonnull control);
void fl_loop_control_destroy(fl_loop_control *_Nonnull control);

/// The reduction guard: the owner of a loop mutates the state in place
/// between `fl_reduce_begin` and `fl_reduce_end`; a reader on another thread
/// copies it between `fl_read_begin` and `fl_read_end`. The two never
/// overlap. Where the kernel offers it (Linux `membarrier`), the owner's
/// side costs no atomic operation and no fence: the rare reader pays for
/// both with one system call (an asymmetric Dekker protocol). Elsewhere
/// (Apple platforms, or a kernel without it), the same protocol with a full
/// fence on both sides (forced on Linux by FEEDBACKLOOP_REDUCTION_GUARD=fence
/// in the environment). Under ThreadSanitizer, which cannot see either, a
/// spin lock of its own (not the system's lock, which a reducer may take).
void fl_reduce_begin(fl_loop_control *_Nonnull control);
void fl_reduce_end(fl_loop_control *_Nonnull control);
void fl_read_begin(fl_loop_control *_Nonnull control);
void fl_read_end(fl_loop_control *_Nonnull control);

/// An optimistic read of the state (a seqlock's reader side): the owner
/// never waits for it. `fl_sequence_read_begin` returns the guard's
/// sequence (acquire); when it is even, the caller copies the state's bytes
/// and calls `fl_sequence_read_validate` with it, which says whether no
/// reduction began since (an acquire fence, then the sequence again): only
/// then is the copy a state that existed between two reductions. For
/// bitwise-copyable states only: a racy copy of a reference could be
/// released by the reducer before the reader retains it. Not under
/// ThreadSanitizer (`fl_optimistic_reads_available`).
static inline uint64_t fl_sequence_read_begin(fl_loop_control *_Nonnull control) {
  return atomic_load_explicit((_Atomic uint64_t *)&control->reducing, memory_order_acquire);
}
static inline bool fl_sequence_read_validate(fl_loop_control *_Nonnull control, uint64_t before) {
  // The copy's loads before the second load of the sequence: an acquire
  // fence for the processor, a signal fence for the compiler, which must
  // not move the caller's plain loads past it.
  atomic_thread_fence(memory_order_acquire);
  atomic_signal_fence(memory_order_seq_cst);
  return atomic_load_explicit((_Atomic uint64_t *)&control->reducing, memory_order_relaxed) == before;
}
/// Whether this build's reduction guard keeps the sequence that optimistic
/// reads and pacing need: not under ThreadSanitizer, whose guard is a lock
/// word and which would (rightly) report the optimistic reader's racy copy.
/// A constant in shims.c, read with one load (a Swift global would check
/// its lazy initialization at every read).
extern const bool fl_optimistic_reads_available;
/// A number unique to the calling thread while it lives (the address of a
/// thread-local byte).
extern _Thread_local char fl_tls_thread_marker;
static inline const void *_Nonnull fl_thread_identity(void) { return &fl_tls_thread_marker; }
/// Whether the calling thread entered this system's reduction guard last:
/// the system's latest reduction was this thread's own send, not another
/// thread's work that a poll would slow down.
static inline bool fl_reduced_last_on_this_thread(fl_loop_control *_Nonnull control) {
  return atomic_load_explicit((_Atomic(const void *) *)&control->reducer, memory_order_relaxed) == fl_thread_identity();
}
/// Whether the calling thread is inside this system's reducer: the
/// sequence is odd and the thread that made it so is this one. The
/// sequence's acquire orders the identity stored before it.
static inline bool fl_reducing_on_this_thread(fl_loop_control *_Nonnull control) {
  uint64_t sequence = atomic_load_explicit((_Atomic uint64_t *)&control->reducing, memory_order_acquire);
  return (sequence & 1) != 0 &&
         atomic_load_explicit((_Atomic(const void *) *)&control->reducer, memory_order_relaxed) == fl_thread_identity();
}
/// What the calling thread's last reads of states from other threads saw,
/// one entry per system it read lately (`FL_READ_MEMORY` of them, the
/// oldest replaced first): which system, its guard's sequence then, and
/// how many reads in a row found that sequence unchanged. Several, so that
/// a thread that reads a busy system between reads of others (an idle
/// one, say) is paced as one that polls it alone: with a single entry,
/// each read of another system made the next read of the busy one a first
/// read, which never pauses.
#define FL_READ_MEMORY 4
typedef struct fl_last_read {
  const void *_Nullable control[FL_READ_MEMORY];
  uint64_t sequence[FL_READ_MEMORY];
  uint64_t unchanged[FL_READ_MEMORY];
  /// The entry the next system not in the table replaces.
  uint32_t next;
} fl_last_read;
extern _Thread_local fl_last_read fl_tls_last_read;
/// Remembers this read; returns whether the thread polls a busy system:
/// it read the same system before (and no more than `FL_READ_MEMORY` - 1
/// other systems since), and that system reduced at least once in the
/// thread's last `FL_POLLING_WINDOW` reads of it. Wide: an owner whose
/// cache lines an unpaced reader keeps taking can go hundreds of that
/// reader's reads without a reduction, and a window of 16 let such a
/// reader run unpaced (W10reads). A poller of a system that just went idle
/// pauses at most that many times more.
#define FL_POLLING_WINDOW 256
static inline bool fl_remember_read(const void *_Nonnull control, uint64_t sequence) {
  fl_last_read *last = &fl_tls_last_read;
  uint32_t entry = 0;
  while (entry < FL_READ_MEMORY && last->control[entry] != control) entry += 1;
  if (entry == FL_READ_MEMORY) {
    entry = last->next;
    last->next = (entry + 1) % FL_READ_MEMORY;
    last->control[entry] = control;
    last->sequence[entry] = sequence;
    last->unchanged[entry] = FL_POLLING_WINDOW;
    return false;
  }
  if (last->sequence[entry] != sequence) {
    last->sequence[entry] = sequence;
    last->unchanged[entry] = 0;
    return true;
  }
  if (last->unchanged[entry] >= FL_POLLING_WINDOW) return false;
  last->unchanged[entry] += 1;
  return true;
}
/// Whether a read of `control` by the calling thread, which saw `sequence`,
/// should pause after its copy: the thread polls the system while it
/// reduces (`fl_remember_read`, which this always updates), and is neither
/// running a system's loop (a feedback or an observer that reads a peer at
/// each of its own events: a pause would slow its own loop as much) nor
/// the thread that made the system's last reduction (a UI reading the
/// system it sends to: nobody else is reducing).
static inline bool fl_read_should_pause(fl_loop_control *_Nonnull control, uint64_t sequence) {
  return fl_remember_read(control, sequence) && fl_current_drainer() == NULL && !fl_reduced_last_on_this_thread(control);
}
/// Which form of the reduction guard this process runs: decided once, before
/// any Swift code runs.
enum { FL_GUARD_MEMBARRIER = 1, FL_GUARD_FENCE = 2, FL_GUARD_LOCK = 3 };
int fl_reduction_guard_form(void);

/// Sets `bits` in the control word, under the lock and from the reader's
/// side of the reduction guard: waits for a reduction running on another
/// thread to end, and an owner that enters the guard afterwards sees the
/// bits (`stop()` uses it: no reduction runs after it returns). Returns the
/// word before.
uint64_t fl_word_set_between_reductions(fl_loop_control *_Nonnull control, uint64_t bits);

/// The number of effect and input tasks alive in the process.
int64_t fl_live_tasks_increment(void);
int64_t fl_live_tasks_decrement(void);
int64_t fl_live_tasks_load(void);

/// A number never returned before in the process (from 1): the identity of a
/// tracked collection's storage.
uint64_t fl_next_storage_identity(void);

#endif
