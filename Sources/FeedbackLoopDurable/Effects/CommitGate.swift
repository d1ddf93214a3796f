import FeedbackLoop
import Synchronization

/// The executor of a durable system's effects: it holds every job enqueued
/// while the system's latest state is not yet committed, until it is (G16).
///
/// Why an executor: the core starts every effect and input as a task on the
/// environment's `effectExecutor`, right after the feedbacks see the state
/// that asks for it, on the loop's thread; the state's sequence is then the
/// latest reduced one, which the durable system's monitor recorded before
/// the feedbacks ran (the core reports a reduction before it fans the state
/// out). So a job enqueued while the latest reduced sequence is above the
/// committed one may belong to an effect of a state a crash could lose:
/// it waits. Holding the feedbacks' view of the state at the committed
/// sequence instead would delay every feedback, and the loop, for the disk,
/// and would need the core to keep two states; gating the executor needs
/// nothing of the core beyond its public environment, and leaves the loop
/// free.
///
/// The gate is conservative: a job of an effect started earlier (resuming
/// after an `await`) enqueued while a newer state is uncommitted waits for
/// that commit too. An effect given an executor of its own
/// (`Effect.executorPreference(_:)`) does not go through the gate: the
/// durable system's documentation says so.
///
/// After the system stops or fails, ``openForGood()`` lets every job run:
/// the core ends, without running its body, a task that first runs after
/// its system stopped, so a held effect never acts, and no task is left
/// waiting forever.
///
/// Its lock is a `Mutex` stored in the gate itself rather than a `Locked`
/// cell: one allocation less per durable system (an idle system's memory).
@usableFromInline
final class CommitGate: TaskExecutor {
  private struct HeldJob {
    var sequence: UInt64
    var job: UnownedJob
  }

  private struct Gate {
    var committed: UInt64
    var held: [HeldJob] = []
    var isOpenForGood = false
  }

  private let underlying: any TaskExecutor
  /// The latest reduced sequence, written by the loop's monitor before the
  /// feedbacks see the state, read by `enqueue` on any thread.
  @usableFromInline let reduced: Atomic<UInt64>
  private let gate: InlineLocked<Gate>

  init(underlying: any TaskExecutor, committed: UInt64) {
    self.underlying = underlying
    reduced = Atomic(committed)
    gate = InlineLocked(Gate(committed: committed))
  }

  /// The sequence of the latest reduced state: the one the feedbacks see
  /// while the loop fans it out (effect keys read it there).
  @usableFromInline var latestReduced: UInt64 { reduced.load(ordering: .acquiring) }

  /// Called by the loop's monitor for each reduced event.
  @inlinable
  func reduced(through sequence: UInt64) {
    reduced.store(sequence, ordering: .releasing)
  }

  @usableFromInline
  func enqueue(_ job: consuming ExecutorJob) {
    let sequence = reduced.load(ordering: .acquiring)
    let job = UnownedJob(job)
    let runsNow = gate.withLock { gate in
      if gate.isOpenForGood || sequence <= gate.committed { return true }
      gate.held.append(HeldJob(sequence: sequence, job: job))
      return false
    }
    if runsNow { underlying.enqueue(ExecutorJob(job)) }
  }

  /// Lets run, in the order they came, the jobs held for states up to
  /// `sequence`, now committed.
  func committed(through sequence: UInt64) {
    let released = gate.withLock { gate -> [UnownedJob] in
      gate.committed = max(gate.committed, sequence)
      guard !gate.held.isEmpty else { return [] }
      var released: [UnownedJob] = []
      gate.held.removeAll { held in
        guard held.sequence <= sequence else { return false }
        released.append(held.job)
        return true
      }
      return released
    }
    for job in released { underlying.enqueue(ExecutorJob(job)) }
  }

  /// Lets every job run, now and later: called once the system has stopped.
  func openForGood() {
    let released = gate.withLock { gate -> [UnownedJob] in
      gate.isOpenForGood = true
      defer { gate.held = [] }
      return gate.held.map(\.job)
    }
    for job in released { underlying.enqueue(ExecutorJob(job)) }
  }
}
