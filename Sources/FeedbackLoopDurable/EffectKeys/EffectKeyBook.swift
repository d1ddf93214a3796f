import FeedbackLoop
import Logging
import Synchronization

/// Gives each effect of one durable system its ``EffectKey``: it finds the
/// sequence at which the effect's trigger took its value, live and after a
/// restore, the same way.
///
/// Live, the system's monitor reports each effect it starts, with its
/// trigger (the query's value, the keyed request; a predicate's is the whole
/// state): an effect started for a trigger that a running effect of the same
/// feedback already had, or that one cancelled in the same state's pass
/// replaced (a level-triggered restart), keeps that effect's sequence;
/// any other starts at the state's own sequence.
///
/// After a restore, the restored state starts its effects with no history:
/// for each, the book looks back through the states the restore folded (kept
/// until the first event is reduced), asking the feedback alone, in a
/// sandbox system whose effects never run, which triggers it starts for
/// each state; the effect's sequence is the first of the unbroken run of
/// states that start its trigger. The states before a snapshot are not
/// folded: a trigger that already held at the snapshot's state gets the
/// snapshot's sequence, unless the snapshot kept it: a snapshot stores the
/// sequences of the effects running when it was taken
/// (``originsForSnapshot()``).
@usableFromInline
final class EffectKeyBook<State: Sendable, Event: Sendable>: Sendable {
  private struct Trigger: Hashable {
    var feedback: Int
    var text: String?
  }

  private struct Origin {
    var sequence: UInt64
    var running: Int
    /// The feedback's name, for a snapshot's ``EffectOrigin``.
    var feedbackName: String
  }

  /// What the restore folded, which a restored effect's key is looked up
  /// in, until the first event is reduced. A system restored with nothing
  /// stored has none, and so keeps neither its feedbacks nor its clock
  /// here (an idle system's memory).
  private struct Fold {
    /// The states the restore folded, from `foldStart`.
    var states: [State]
    var feedbacks: [Feedback<State, Event>]
    var clock: any Clock<Duration>
    /// For each feedback probed, the triggers it starts in each folded state.
    var probed: [Int: [Set<String?>?]] = [:]
  }

  private struct Book {
    /// The triggers of the running effects, and their sequences.
    var running: [Trigger: Origin] = [:]
    /// Triggers whose last effect was cancelled, with when: a restart in the
    /// same pass keeps the sequence.
    var cancelled: [Trigger: (sequence: UInt64, at: UInt64)] = [:]
    /// The keys of the effects started, by feedback and number, until their
    /// task starts.
    var keys: [EffectNumber: EffectKey] = [:]
    var fold: Fold?
  }

  private struct EffectNumber: Hashable {
    var feedback: Int
    var number: UInt64
  }

  /// The kinds of feedback that run an effect per request at once: their
  /// keys name the request.
  private static var keyedKinds: Set<String> { ["requests", "byID"] }

  private let systemID: String
  private let foldStart: UInt64
  /// The origins the snapshot that the restore started from kept.
  private let snapshotOrigins: [EffectOrigin]
  /// Inline rather than a `Locked` object: one allocation fewer per system.
  private let book: InlineLocked<Book>
  /// Whether ``didReduce()`` has anything to forget (written on the loop's
  /// thread only).
  @usableFromInline let hasPassState = Atomic<Bool>(true)

  /// - Parameters:
  ///   - folded: the states of the restore's fold, the first at `foldStart`
  ///     (the snapshot's sequence, or 0 for the initial state); none when
  ///     nothing was stored.
  init(
    systemID: String, feedbacks: [Feedback<State, Event>], folded: [State], foldStart: UInt64,
    clock: any Clock<Duration>, snapshotOrigins: [EffectOrigin] = []
  ) {
    self.systemID = systemID
    self.foldStart = foldStart
    self.snapshotOrigins = snapshotOrigins
    let fold = folded.isEmpty ? nil : Fold(states: folded, feedbacks: feedbacks, clock: clock)
    book = InlineLocked(Book(fold: fold))
  }

  /// An event was reduced: the restore's states are no longer needed, and
  /// cancellations of earlier passes are final.
  @inlinable
  func didReduce() {
    // One atomic load per event while there is nothing to forget.
    guard hasPassState.load(ordering: .relaxed) else { return }
    forgetPassState()
  }

  @usableFromInline
  func forgetPassState() {
    hasPassState.store(false, ordering: .relaxed)
    book.withLock { book in
      book.fold = nil
      book.cancelled = [:]
    }
  }

  /// Follows the effects' starts and ends, on the loop's thread; `current`
  /// is the sequence of the state the feedbacks see.
  @usableFromInline
  func record(_ activity: SystemActivity<State, Event>, current: UInt64) {
    switch activity {
    case .effectStarted(let id):
      started(id, current: current)
    case .effectCancelled(let id):
      ended(id, current: current, cancelled: true)
    case .effectFinished(let id), .effectFailed(let id, _):
      ended(id, current: current, cancelled: false)
    default:
      break
    }
  }

  /// Starts an effect's task with its key bound (``DurableEffect/key``).
  @usableFromInline
  func startTask(of id: EffectID, _ start: () -> Task<Void, Never>) -> Task<Void, Never> {
    let number = EffectNumber(feedback: id.feedback.index, number: id.number)
    guard let key = book.withLock({ $0.keys.removeValue(forKey: number) }) else { return start() }
    return DurableEffect.$key.withValue(key) { start() }
  }

  private func started(_ id: EffectID, current: UInt64) {
    let trigger = Trigger(feedback: id.feedback.index, text: id.trigger)
    let known = book.withLock { book -> UInt64? in
      if let origin = book.running[trigger] { return origin.sequence }
      if let cancelled = book.cancelled[trigger], cancelled.at == current { return cancelled.sequence }
      return nil
    }
    let sequence = known ?? restoredOrigin(of: trigger, current: current) ?? current
    let key = EffectKey(
      systemID: systemID, sequence: sequence, feedback: id.feedback.name,
      request: Self.keyedKinds.contains(id.feedback.kind) ? id.trigger : nil)
    book.withLock { book in
      book.running[trigger, default: Origin(sequence: sequence, running: 0, feedbackName: id.feedback.name)]
        .running += 1
      book.cancelled[trigger] = nil
      book.keys[EffectNumber(feedback: id.feedback.index, number: id.number)] = key
    }
  }

  private func ended(_ id: EffectID, current: UInt64, cancelled: Bool) {
    let trigger = Trigger(feedback: id.feedback.index, text: id.trigger)
    book.withLock { book in
      book.keys[EffectNumber(feedback: id.feedback.index, number: id.number)] = nil
      guard var origin = book.running[trigger] else { return }
      origin.running -= 1
      if origin.running > 0 {
        book.running[trigger] = origin
        return
      }
      book.running[trigger] = nil
      if cancelled {
        book.cancelled[trigger] = (origin.sequence, current)
        hasPassState.store(true, ordering: .relaxed)
      }
    }
  }

  /// While the system is at its restored state: the first sequence of the
  /// unbroken run of folded states in which the feedback starts `trigger`.
  private func restoredOrigin(of trigger: Trigger, current: UInt64) -> UInt64? {
    let found = book.withLock { book -> (count: Int, name: String)? in
      guard let fold = book.fold, fold.feedbacks.indices.contains(trigger.feedback) else { return nil }
      return (fold.states.count, fold.feedbacks[trigger.feedback].name)
    }
    guard let (count, name) = found, count > 0, current == foldStart + UInt64(count - 1) else { return nil }
    var index = count - 1
    while index > 0, triggers(of: trigger.feedback, at: index - 1).contains(trigger.text) {
      index -= 1
    }
    if index == 0, foldStart > 0 {
      let kept = snapshotOrigins.first {
        $0.feedback == trigger.feedback && $0.feedbackName == name && $0.trigger == trigger.text
      }
      if let kept { return kept.sequence }
    }
    return foldStart + UInt64(index)
  }

  /// The origins of the running effects, for a snapshot of the state being
  /// reduced: called on the loop's thread, before the feedbacks see it.
  @usableFromInline
  func originsForSnapshot() -> [EffectOrigin] {
    book.withLock { book in
      book.running.map { trigger, origin in
        EffectOrigin(
          feedback: trigger.feedback, feedbackName: origin.feedbackName, trigger: trigger.text,
          sequence: origin.sequence)
      }
    }
  }

  /// The triggers the feedback starts in the folded state at `index`.
  private func triggers(of feedback: Int, at index: Int) -> Set<String?> {
    let (cached, probe) = book.withLock {
      book -> (Set<String?>?, (State, Feedback<State, Event>, any Clock<Duration>)?) in
      guard let fold = book.fold else { return (nil, nil) }
      if let cached = fold.probed[feedback]?[index] ?? nil { return (cached, nil) }
      return (nil, (fold.states[index], fold.feedbacks[feedback], fold.clock))
    }
    if let cached { return cached }
    guard let (state, probed, clock) = probe else { return [] }
    let found = Self.probe(probed, at: state, clock: clock)
    book.withLock { book in
      guard let count = book.fold?.states.count else { return }
      if book.fold?.probed[feedback] == nil { book.fold?.probed[feedback] = Array(repeating: nil, count: count) }
      book.fold?.probed[feedback]?[index] = found
    }
    return found
  }

  /// Runs `feedback` alone on `state` in a sandbox system whose reducer does
  /// nothing and whose effects' tasks never run their bodies (they are held,
  /// then let go once the sandbox has stopped, when the core ends them
  /// unrun); returns the triggers of the effects it starts.
  private static func probe(
    _ feedback: Feedback<State, Event>, at state: State, clock: any Clock<Duration>
  ) -> Set<String?> {
    let started = Locked<Set<String?>>([])
    let held = HeldJobs()
    let sandbox = System(
      initial: state, reduce: { (_: inout State, _: Event) in }, feedbacks: [feedback],
      isolation: .sendingThread,
      environment: SystemEnvironment(
        clock: clock, effectExecutor: held,
        logger: Logger(label: "FeedbackLoopDurable.EffectKeys") { _ in
          SwiftLogNoOpLogHandler()
        }),
      monitor: SystemMonitor { activity in
        if case .effectStarted(let id) = activity { started.withLock { _ = $0.insert(id.trigger) } }
      },
      caller: nil)
    sandbox.stop(isolation: nil)
    held.letGo()
    return started.withLock { $0 }
  }
}

/// The executor of a sandbox system: it keeps every job until ``letGo()``,
/// then hands them, and any later one, to the global executor.
private final class HeldJobs: TaskExecutor {
  private struct Jobs {
    var held: [UnownedJob] = []
    var isLetGo = false
  }

  private let jobs = Locked(Jobs())

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let runsNow = jobs.withLock { jobs in
      if jobs.isLetGo { return true }
      jobs.held.append(job)
      return false
    }
    if runsNow { globalConcurrentExecutor.enqueue(ExecutorJob(job)) }
  }

  func letGo() {
    let held = jobs.withLock { jobs in
      jobs.isLetGo = true
      defer { jobs.held = [] }
      return jobs.held
    }
    for job in held { globalConcurrentExecutor.enqueue(ExecutorJob(job)) }
  }
}
