#include "CFeedbackLoopShims.h"
#include <stdatomic.h>

static _Thread_local const void *current_drainer = NULL;

const void *fl_current_drainer(void) { return current_drainer; }
void fl_set_current_drainer(const void *drainer) { current_drainer = drainer; }

struct fl_atomic_pointer {
  _Atomic(const void *) value;
};

fl_atomic_pointer *fl_atomic_pointer_create(void) {
  fl_atomic_pointer *cell = malloc(sizeof(fl_atomic_pointer));
  atomic_init(&cell->value, NULL);
  return cell;
}
void fl_atomic_pointer_destroy(fl_atomic_pointer *cell) { free(cell); }
const void *fl_atomic_pointer_load(fl_atomic_pointer *cell) {
  return atomic_load_explicit(&cell->value, memory_order_acquire);
}
bool fl_atomic_pointer_store_if_null(fl_atomic_pointer *cell, const void *value) {
  const void *expected = NULL;
  return atomic_compare_exchange_strong_explicit(&cell->value, &expected, value, memory_order_acq_rel,
                                                 memory_order_acquire);
}

static _Atomic int64_t live_tasks = 0;
int64_t fl_live_tasks_increment(void) { return atomic_fetch_add_explicit(&live_tasks, 1, memory_order_relaxed) + 1; }
int64_t fl_live_tasks_decrement(void) { return atomic_fetch_sub_explicit(&live_tasks, 1, memory_order_relaxed) - 1; }
int64_t fl_live_tasks_load(void) { return atomic_load_explicit(&live_tasks, memory_order_relaxed); }
