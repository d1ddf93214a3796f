import FeedbackLoop
import Testing

extension Reliability {
  /// What these tests found wrong in the core, each kept as a regression
  /// test now that it is fixed (or, for the monitor's threads, documented).
  @Suite("Regressions")
  struct KnownIssueTests {
    /// A reference whose uniqueness the reducer can check: a stand-in for
    /// the storage of any copy-on-write value in a state (an array, a
    /// dictionary, a string).
    final class Storage: Sendable {}

    struct State: Sendable {
      var storage = Storage()
      var count = 0
    }

    @Test(
      "Hot path: a queued event is reduced in place, the state's storage not shared while the reducer runs"
    )
    func queuedEventsAreReducedInPlace() {
      let shared = Counter()
      let system = System(
        initial: State(),
        reduce: { (state: inout State, _: Int) in
          // A copy-on-write value mutated here is copied whole if its
          // storage is shared.
          if !isKnownUniquelyReferenced(&state.storage) { shared.add() }
          state.count += 1
        },
        // Answers each state at once: every event after the first is
        // reduced from the loop's queue.
        feedbacks: [Feedback.query({ $0.count < 100 ? $0.count : nil }) { _ in .send(1) }])
      #expect(system.state.count == 100)
      // Fixed: SystemCore.drain used to keep the previous step (which holds a
      // copy of the state) alive while it reduced the next event.
      #expect(shared.value == 0, "the storage was shared for \(shared.value) of 100 reductions")
    }

    @Test(
      "Monitor: an event refused while the loop is busy is reported on the sending thread, as documented"
    )
    func monitorCallsDoNotOverlap() async {
      let inside = Locked(0)
      let overlaps = Counter()
      let entered = Gate()
      let release = Gate()
      let monitor = SystemMonitor<Int, Int> { activity in
        if inside.withLock({ depth -> Int in
          depth += 1
          return depth
        }) > 1 {
          overlaps.add()
        }
        if case .reduced(1, _, _, _) = activity {  // hold the loop inside the monitor
          entered.open()
          release.waitBlocking()
        }
        inside.withLock { $0 -= 1 }
      }
      let system = System(
        initial: 0, reduceReturning: { (state: Int, event: Int) in state + event },
        environment: SystemEnvironment(eventBuffer: .dropNewest(limit: 0)), monitor: monitor)
      let holder = Task.detached { await onThreads(1) { _ in system.send(1) } }
      await entered.wait()
      // The loop is busy and the buffer holds nothing: this event is dropped,
      // and reported, at once, on this thread.
      await onThreads(1) { _ in system.send(2) }
      release.open()
      await holder.value
      // SystemMonitor's documentation says so: an event refused at the door
      // (a full buffer, a stopped system) never reaches the loop, so it is
      // reported on the thread that sent it, while the loop may be inside
      // the monitor too.
      #expect(overlaps.value == 1, "the refusal is reported while the loop is inside the monitor")
      #expect(system.state == 1)
    }

    @Test("Monitor: a keyed effect that does nothing (.none) is reported finished with its request as trigger")
    func keyedNoneEffectKeepsItsTrigger() {
      let activity = ActivityRecorder<Set<Int>, Int>()
      let system = System(
        initial: [7], reduceReturning: { (state: Set<Int>, _: Int) in state },
        feedbacks: [.requests({ $0 }) { _ in .none }], monitor: activity.monitor)
      let started = activity.started.map(\.trigger)
      let finished = activity.all.compactMap { activity -> EffectID? in
        if case .effectFinished(let id) = activity { return id }
        return nil
      }
      #expect(started == ["7"])
      #expect(finished.count == 1)
      // Fixed: KeyedEffects.start cleared the key before reporting.
      #expect(finished.map(\.trigger) == ["7"])
      system.stop()
    }
  }
}
