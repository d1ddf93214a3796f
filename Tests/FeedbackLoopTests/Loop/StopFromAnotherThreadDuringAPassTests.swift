import FeedbackLoop
import FeedbackLoopTesting
import Foundation
import Testing

/// A `stop()` made on another thread while the loop is in the pass of a
/// state: the state was reduced before the stop (the stop waits for a
/// running reducer), so every observer sees it, then hears that the system
/// stopped; the feedbacks not yet asked for it are not (no effect starts
/// after the stop). Each test makes the stop at a point it chooses, from a
/// handler that runs it on a thread of its own and waits for it.
///
/// A stop made from inside the pass (a query, an observer) still ends the
/// pass for the observers too (LentStateTests, RedTeamStopTests).
@Suite(.runsLeftoverJobs) struct StopFromAnotherThreadDuringAPassTests {
  /// What the handlers and observers saw, in order, from any thread.
  final class Log: @unchecked Sendable {
    // Sendable: `entries` is read and written only while `lock` is held.
    private let lock = NSLock()
    private var entries: [String] = []

    func append(_ entry: String) { lock.withLock { entries.append(entry) } }
    var all: [String] { lock.withLock { entries } }
  }

  /// Lets a handler reach its own system.
  final class SystemReference<State: Sendable, Event: Sendable>: @unchecked Sendable {
    // Sendable: written once, before any event is sent; the send orders
    // that write before every read in the handlers. Weak: the handler holds
    // this reference, and a strong one would make a cycle.
    weak var system: System<State, Event>?
  }

  /// Runs `body` on a thread of its own and waits for it.
  static func onThreadAndJoin(_ body: @escaping @Sendable () -> Void) {
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
      body()
      done.signal()
    }
    thread.start()
    done.wait()
  }

  @Test(
    "G9 stop() from another thread while a feedback handles a state: no later feedback is asked, every observer sees the state, then onStop"
  )
  func stopDuringTheFeedbacks() {
    let log = Log()
    let reference = SystemReference<Int, Int>()
    let system = System<Int, Int>(
      initial: 0, reduceReturning: { state, event in state + event },
      feedbacks: [
        Feedback.observer({
          { state in
            if state == 2 { Self.onThreadAndJoin { reference.system?.stop() } }
          }
        }),
        Feedback.observer({ { state in log.append("later feedback \(state)") } }),
      ])
    reference.system = system
    let first = system.observe({ state in log.append("first \(state)") }, onStop: { log.append("first stopped") })
    let second = system.observe({ state in log.append("second \(state)") }, onStop: { log.append("second stopped") })
    system.send(1)
    system.send(1)
    system.send(1)  // after the stop: not reduced
    #expect(system.isStopped)
    #expect(system.state == 2)
    #expect(
      log.all == [
        "later feedback 0", "first 0", "second 0",
        "later feedback 1", "first 1", "second 1",
        "first 2", "second 2", "first stopped", "second stopped",
      ])
    first.cancel()
    second.cancel()
  }

  /// A state that holds references is lent to the handlers (another path
  /// through the pass than a state of plain values).
  struct Tally: Sendable {
    var items: [Int] = []
  }

  @Test(
    "G9 stop() from another thread while a feedback handles a state that holds references: no later feedback is asked, every observer sees the state, then onStop"
  )
  func stopDuringTheFeedbacksOfALentState() {
    let log = Log()
    let reference = SystemReference<Tally, Int>()
    let system = System<Tally, Int>(
      initial: Tally(), reduce: { state, event in state.items.append(event) },
      feedbacks: [
        Feedback.observer({ { state in log.append("feedback \(state.items)") } }),
        Feedback.observer({
          { state in
            if state.items == [1, 2] { Self.onThreadAndJoin { reference.system?.stop() } }
          }
        }),
        Feedback.observer({ { state in log.append("later feedback \(state.items)") } }),
      ])
    reference.system = system
    let states = Log()
    let observation = system.observe(
      { state in states.append("\(state.items)") }, onStop: { states.append("stopped") })
    for event in 1...3 { system.send(event) }
    #expect(system.isStopped)
    #expect(system.state.items == [1, 2])
    #expect(states.all == ["[]", "[1]", "[1, 2]", "stopped"])
    #expect(
      log.all == [
        "feedback []", "later feedback []", "feedback [1]", "later feedback [1]", "feedback [1, 2]",
      ])
    observation.cancel()
  }

  @Test(
    "G9 stop() from another thread while the observers are told a state: the later observers see it too, then onStop"
  )
  func stopDuringTheObservers() {
    let log = Log()
    let reference = SystemReference<Int, Int>()
    let system = System<Int, Int>(initial: 0, reduceReturning: { state, event in state + event })
    reference.system = system
    let first = system.observe(
      { state in
        log.append("first \(state)")
        if state == 1 { Self.onThreadAndJoin { reference.system?.stop() } }
      }, onStop: { log.append("first stopped") })
    let second = system.observe({ state in log.append("second \(state)") }, onStop: { log.append("second stopped") })
    system.send(1)
    #expect(system.isStopped)
    #expect(log.all == ["first 0", "second 0", "first 1", "second 1", "first stopped", "second stopped"])
    first.cancel()
    second.cancel()
  }

  @Test(
    "G9 an effect that stops its system from another thread during the pass of the state that started it: the states sequence ends with that state"
  )
  func statesEndWithTheLastStateAfterAnEffectStops() async {
    let executor = ManualTaskExecutor()
    let reference = SystemReference<Int, Int>()
    let system = System<Int, Int>(
      initial: 0, reduceReturning: { state, event in state + event },
      feedbacks: [
        Feedback.query({ $0 == 2 ? true : nil }) { _ in
          .run { _ in reference.system?.stop() }
        },
        // The effect runs on another thread while the loop is still in the
        // pass of the state that started it: what a slow loop lets a real
        // executor do.
        Feedback.observer({
          { state in if state == 2 { Self.onThreadAndJoin { executor.runUntilIdle() } } }
        }),
      ],
      environment: SystemEnvironment(effectExecutor: executor))
    reference.system = system
    let states = system.states
    system.send(1)
    system.send(1)
    var seen: [Int] = []
    for await state in states { seen.append(state) }
    #expect(seen == [0, 1, 2])
    #expect(system.isStopped)
  }
}
