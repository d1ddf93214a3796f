// Small C helpers the Swift core needs on every platform it supports, from
// the C library alone: a plain lock, a thread-local marker of the thread that
// is draining a system, an atomic pointer cell and an atomic counter. Synchronization's Mutex and Atomic would serve on Linux, but
// need macOS 15 / iOS 18 on Apple platforms, below this package's minimum.
#ifndef C_FEEDBACK_LOOP_SHIMS_H
#define C_FEEDBACK_LOOP_SHIMS_H

#include <stdbool.h>
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

/// The system whose drain loop runs on the calling thread, or NULL.
const void *_Nullable fl_current_drainer(void);
void fl_set_current_drainer(const void *_Nullable drainer);

/// A pointer cell written once and read from any thread.
typedef struct fl_atomic_pointer fl_atomic_pointer;
fl_atomic_pointer *_Nonnull fl_atomic_pointer_create(void);
void fl_atomic_pointer_destroy(fl_atomic_pointer *_Nonnull cell);
const void *_Nullable fl_atomic_pointer_load(fl_atomic_pointer *_Nonnull cell);
/// Stores `value` if the cell holds NULL; returns whether it did.
bool fl_atomic_pointer_store_if_null(fl_atomic_pointer *_Nonnull cell, const void *_Nonnull value);

/// The number of effect and input tasks alive in the process.
int64_t fl_live_tasks_increment(void);
int64_t fl_live_tasks_decrement(void);
int64_t fl_live_tasks_load(void);

#endif
