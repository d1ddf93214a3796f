/*
 * The ownership protocol of a system's loop (its decisions in
 * Sources/FeedbackLoop/Loop/OwnershipStateMachine.swift, carried out by
 * Loop/SystemCore.swift and its extensions, with the atomic operations of
 * Sources/CFeedbackLoopShims/shims.c), for every interleaving of two senders
 * (either may become the owner), a reader of the state on another thread, and
 * a stop() from another thread. Scripts/model-check runs it with spin.
 *
 * Memory is sequentially consistent here. The code gets that for the control
 * word (acq_rel read-modify-writes), the lock, and the reduction guard that
 * stop() uses (the owner's compiler barrier with the stopper's membarrier, or
 * a full fence on both sides: an asymmetric Dekker protocol).
 *
 * What is checked:
 *   - no torn read: a read returns a state that no reducer is halfway
 *     through (the reducer writes s1 then s2; every read asserts s1 == s2),
 *     the optimistic read of a bitwise-copyable state included (a seqlock
 *     on the guard's sequence, `seq`: the model's memory is sequentially
 *     consistent, which the code gets from the writer's release fence
 *     after the odd store and the reader's acquire fence before its second
 *     load of the sequence, as in Boehm's "Can seqlocks get along with
 *     programming language memory models?", 2012);
 *   - no reduction after stop() returns (assert in the reducer);
 *   - no lost or duplicated event: at the end every event was reduced once
 *     or reported discarded once, never both, never neither;
 *   - nothing left owned or queued at the end;
 *   - no deadlock: spin's check of invalid end states;
 *   - no starvation: the LTL property `done` (every process ends), under
 *     weak fairness; a waiting reader, sender or stopper that could wait
 *     forever is a counterexample.
 *
 * THIRD_SENDER runs three senders, a stop() and no reader (see below).
 *
 * WITHOUT_FALLBACK removes the reader's fallback to the reduction guard (it
 * then waits for a publication however long it takes): the publication
 * alone must then be live, and Scripts/model-check checks both forms.
 *
 * Mutants (Scripts/model-check compiles each with -D and expects a failure):
 *   MUTANT_READ_WITHOUT_OWNER_CHECK  the reader copies the state even while
 *                                    the loop is owned (torn read);
 *   MUTANT_LET_GO_BLINDLY            the owner lets the loop go with a plain
 *                                    store, ignoring queued work (lost event);
 *   MUTANT_NO_PUBLISH_ON_RELEASE     the owner lets go without answering a
 *                                    waiting reader (starvation; checked
 *                                    WITHOUT_FALLBACK, which would hide it);
 *   MUTANT_FALLBACK_WITHOUT_GUARD    a reader that stops waiting copies the
 *                                    state without the guard (torn read);
 *   MUTANT_STOP_WITHOUT_GUARD        stop() sets `stopped` without waiting
 *                                    for the reduction running (a reduction
 *                                    after stop() returns);
 *   MUTANT_STOP_FORGETS_BATCH        the stopping owner discards the inbox
 *                                    but not the batch it took from it
 *                                    (a lost event; checked THIRD_SENDER);
 *   MUTANT_BATCH_WITHOUT_LOCK        the owner takes the inbox's items one
 *                                    by one without the lock while senders
 *                                    append (a lost event; THIRD_SENDER);
 *   MUTANT_OPTIMISTIC_WITHOUT_CHECK  the optimistic reader keeps its copy
 *                                    without loading the sequence again
 *                                    (torn read).
 *
 * The owner takes the inbox whole (SystemCore.moveAllLocked: the two
 * buffers are swapped under the lock) into `batch`, its own queue
 * (`pendingLocal`), and takes from it before it looks at the inbox again. A
 * sender that finds QUEUED set under the lock only reads the word (one load,
 * no read-modify-write: SystemCore.enqueueLockedReading).
 */

#define OWNED   1
#define QUEUED  2
#define STOPPED 4
#define READER  8

/* THIRD_SENDER puts a third sender where the reader was: with two senders,
 * one of which owns the loop, the owner's batch never holds more than one
 * event, and a race between the batch and a later sender cannot happen. */
#ifdef THIRD_SENDER
#define EVENTS 3
#else
#define EVENTS 2
#endif
#define PROCESSES 4

byte word = 0;            /* the control word */
byte lk = 0;              /* the system's lock: 0, or the holder's _pid + 1 */
chan inbox = [EVENTS] of { byte };
chan batch = [EVENTS] of { byte };   /* the owner's queue: only the owner */

byte s1 = 0;              /* the state: a reducer writes s1, then s2 */
byte s2 = 0;
byte slot1 = 0;           /* the copy the owner publishes to waiting readers */
byte slot2 = 0;
byte generation = 0;      /* publications so far */
byte waiting = 0;         /* readers that wait for a publication */

byte seq = 0;             /* the reduction guard's sequence: odd while the
                           * owner reduces (or is about to), even between */
byte guardReaders = 0;

bit stopReturned = 0;
byte reduced[EVENTS + 1];
byte discarded[EVENTS + 1];
byte finished = 0;        /* processes that ended */

inline lock() { atomic { lk == 0 -> lk = _pid + 1 } }
inline unlock() { assert(lk == _pid + 1); lk = 0 }

/* The owner copies the state for the readers that asked (READER set while
 * the loop is owned), under the lock, and clears the request. */
inline publish() {
  lock();
  if
  :: (word & READER) != 0 ->
     if
     :: waiting > 0 -> slot1 = s1; slot2 = s2
     :: else -> skip
     fi;
     generation++;
     word = word & ~READER
  :: else -> skip
  fi;
  unlock()
}

/* Clears OWNED; answers a reader that asked first (SystemCore.release). */
inline releaseLoop() {
  do
  :: atomic {
       if
       :: (word & READER) == 0 -> word = word & ~OWNED; ok = 1
       :: else -> ok = 0
       fi
     };
     if
     :: ok -> break
     :: else ->
#ifdef MUTANT_NO_PUBLISH_ON_RELEASE
        atomic { word = word & ~(OWNED | READER) }; break
#else
        publish()
#endif
     fi
  od
}

/* Takes the loop unless another thread owns it (SystemCore.acquire): waits
 * while a reader copies the state of the idle loop. */
inline acquireLoop() {
  do
  :: atomic {
       if
       :: (word & OWNED) != 0 -> ok = 0; done = 1
       :: (word & (OWNED | READER)) == 0 -> word = word | OWNED; ok = 1; done = 1
       :: else -> done = 0   /* READER without OWNED: a read in progress */
       fi
     };
     if
     :: done -> break
     :: else -> (word & READER) == 0
     fi
  od
}

/* Reduces `e` in place, or puts it back if the system stopped. */
inline process(e) {
  seq++;
  do
  :: guardReaders != 0 -> seq++; guardReaders == 0; seq++
  :: else -> break
  od;
  if
  :: (word & STOPPED) != 0 -> seq++; back = e
  :: else ->
     assert(!stopReturned);
     s1 = s1 + 1;
     s2 = s2 + 1;
     reduced[e]++;
     seq++;
     /* the one load the owner adds per reduction */
     if
     :: (word & READER) != 0 -> publish()
     :: else -> skip
     fi
  fi
}

inline finishStopping() {
#ifndef MUTANT_STOP_FORGETS_BATCH
  do
  :: nempty(batch) -> batch?item; discarded[item]++
  :: empty(batch) -> break
  od;
#endif
  lock();
  word = word | STOPPED;
  do
  :: nempty(inbox) -> inbox?item; discarded[item]++
  :: empty(inbox) -> break
  od;
  word = word & ~QUEUED;
  unlock();
  if
  :: back != 0 -> discarded[back]++; back = 0
  :: else -> skip
  fi;
  releaseLoop()
}

/* The owner's loop (SystemCore.drain and takeFromOtherThreads). */
inline drain() {
  do
  :: cur = word;
     if
     :: cur == OWNED && nempty(batch) -> batch?item; process(item)
     :: cur == OWNED && empty(batch) ->
#ifdef MUTANT_LET_GO_BLINDLY
        word = 0; break
#else
        atomic {
          if
          :: word == OWNED -> word = 0; ok = 1
          :: else -> ok = 0
          fi
        };
        if
        :: ok -> break
        :: else -> skip
        fi
#endif
     :: cur != OWNED && (cur & STOPPED) != 0 -> finishStopping(); break
     :: cur != OWNED && (cur & STOPPED) == 0 ->
        if
        :: (cur & READER) != 0 -> publish()
        :: else -> skip
        fi;
        if
        :: nempty(batch) -> batch?item; process(item)
        :: empty(batch) && (cur & QUEUED) != 0 ->
#ifdef MUTANT_BATCH_WITHOUT_LOCK
           do
           :: nempty(inbox) -> inbox?item; batch!item
           :: empty(inbox) -> break
           od;
           word = word & ~QUEUED;
#else
           /* The whole inbox at once, under the lock. */
           lock();
           do
           :: nempty(inbox) -> inbox?item; batch!item
           :: empty(inbox) -> break
           od;
           word = word & ~QUEUED;
           unlock();
#endif
           if
           :: nempty(batch) -> batch?item; process(item)
           :: empty(batch) -> skip
           fi
        :: empty(batch) && (cur & QUEUED) == 0 -> skip
        fi
     fi
  od
}

/* SystemCore.submit and submitToBusySystem, for a system of its own isolation. */
proctype Sender(byte e) {
  byte cur, item, back = 0;
  bit ok, done, owning = 0;
  atomic {
    if
    :: word == 0 -> word = OWNED; owning = 1; item = e
    :: else -> skip
    fi
  };
  if
  :: !owning ->
     lock();
     if
     :: (word & STOPPED) != 0 -> unlock(); discarded[e]++
     :: else ->
        inbox!e;
        /* QUEUED set already: it stays set while the lock is held, and
         * only a load; else set it, reading the word before. */
        cur = word;
        if
        :: (cur & QUEUED) == 0 -> atomic { cur = word; word = word | QUEUED }
        :: else -> skip
        fi;
        if
        :: (cur & OWNED) != 0 -> unlock()
        :: else ->
           acquireLoop();
           if
           :: ok ->
              inbox?item;
              if
              :: empty(inbox) -> word = word & ~QUEUED
              :: nempty(inbox) -> skip
              fi;
              owning = 1
           :: else -> skip
           fi;
           unlock()
        fi
     fi
  :: else -> skip
  fi;
  if
  :: owning -> process(item); drain()
  :: else -> skip
  fi;
  finished++
}

/* SystemCore.readFromOtherThread. */
proctype Reader() {
  byte before, g, r1, r2, q;
  /* A bitwise-copyable state is first read optimistically, without the
   * lock (SystemCore.readOptimistically): the sequence, the state, the
   * sequence again. One attempt here; the code makes a few, each like this
   * one. Either choice: a state with references goes straight on. */
  if
  :: true ->
     q = seq;
     if
     :: (q % 2) == 0 ->
        r1 = s1;
        r2 = s2;
#ifdef MUTANT_OPTIMISTIC_WITHOUT_CHECK
        goto whole
#else
        if
        :: seq == q -> goto whole
        :: else -> skip
        fi
#endif
     :: else -> skip
     fi
  :: true -> skip
  fi;
  lock();
  atomic { before = word; word = word | READER };   /* fetch_or */
#ifdef MUTANT_READ_WITHOUT_OWNER_CHECK
  r1 = s1; r2 = s2;
  word = word & ~READER | (before & READER);
  unlock();
#else
  if
  :: (before & OWNED) == 0 ->
     /* The loop is idle, and stays so: acquiring waits for READER. */
     r1 = s1;
     r2 = s2;
     word = word & ~READER;
     unlock()
  :: else ->
     /* The owner answers at its next step: after the reducer running. */
     g = generation;
     waiting++;
     unlock();
     if
     :: generation != g ->
        lock();
        r1 = slot1;
        r2 = slot2;
        waiting--;
        unlock()
#ifndef WITHOUT_FALLBACK
     :: true ->
        /* It stops waiting (the owner is slow, or waits for this thread)
         * and copies the state between two reductions: the guard. */
        lock();
        waiting--;
        unlock();
#ifndef MUTANT_FALLBACK_WITHOUT_GUARD
        guardReaders++;
        (seq % 2) == 0;
#endif
        r1 = s1;
        r2 = s2;
#ifndef MUTANT_FALLBACK_WITHOUT_GUARD
        guardReaders--
#endif
#endif
     fi
  fi;
#endif
whole:
  assert(r1 == r2);
  finished++
}

/* SystemCore.stop from another thread. */
proctype Stopper() {
  byte before, cur, item, back = 0;
  bit ok, done;
#ifndef MUTANT_STOP_WITHOUT_GUARD
  /* fl_word_set_between_reductions: the other side of the guard. It keeps
   * its flag up while it waits; only the owner steps back, so the two never
   * step back in turn forever (they did, when both did). */
  guardReaders++;
  (seq % 2) == 0;
#endif
  lock();
  atomic { before = word; word = word | STOPPED };   /* fetch_or */
  unlock();
#ifndef MUTANT_STOP_WITHOUT_GUARD
  guardReaders--;
#endif
  if
  :: (before & STOPPED) == 0 ->
     acquireLoop();
     if
     :: ok -> finishStopping()
     :: else -> skip
     fi
  :: else -> skip
  fi;
  stopReturned = 1;
  finished++
}

init {
  atomic {
    run Sender(1);
    run Sender(2);
#ifdef THIRD_SENDER
    run Sender(3);
#else
    run Reader();
#endif
    run Stopper()
  }
  finished == PROCESSES;
  /* Every event reduced once, or reported discarded once. */
  byte e = 1;
  do
  :: e <= EVENTS ->
     assert(reduced[e] + discarded[e] == 1);
     e++
  :: else -> break
  od;
  assert((word & (OWNED | QUEUED | READER)) == 0);
  assert(empty(inbox));
  assert(empty(batch));
  assert(s1 == s2)
}

ltl done { <> (finished == PROCESSES) }
