import FeedbackLoop
import FeedbackLoopScenarios
import FeedbackLoopTesting
import Foundation
import Testing

/// G8, G9 and G10: inputs, lifetime, isolation.
@Suite(.runsLeftoverJobs) struct LifetimeAndIsolationGuaranteeTests {
  enum Event: Sendable, Equatable { case add(Int) }

  static func sum(_ state: Int, _ event: Event) -> Int {
    guard case .add(let amount) = event else { return state }
    return state + amount
  }

  @Test("G8 an async sequence input is bound for the system's lifetime")
  func test_G8_sequenceInput() {
    let harness = Harness()
    let (events, continuation) = AsyncStream<Event>.makeStream()
    let terminated = Log<String>()
    continuation.onTermination = { _ in terminated.append("input ended") }
    let system = System(
      initial: 0, reduceReturning: Self.sum, feedbacks: [.input(events)], environment: harness.environment)
    continuation.yield(.add(1))
    continuation.yield(.add(2))
    harness.settle()
    #expect(system.state == 3)
    #expect(system.runningTaskCount == 1)
    system.stop()
    harness.settle()
    #expect(terminated.entries == ["input ended"])
    continuation.yield(.add(4))
    harness.settle()
    #expect(system.state == 3)
    #expect(system.runningTaskCount == 0)
  }

  @Test("G8 an Input handle sends from imperative code; events sent before binding are kept")
  func test_G8_inputHandle() {
    let buttons = Input<Event>()
    buttons.send(.add(10))
    let system = System(initial: 0, reduceReturning: Self.sum, feedbacks: [.input(buttons)])
    buttons.send(.add(1))
    #expect(system.state == 11)
    system.stop()
    buttons.send(.add(1))
    #expect(system.state == 11)
  }

  @Test("G9 stopping cancels every effect and input; nothing runs afterwards; sends are dropped and reported")
  func test_G9_stop() {
    let harness = Harness()
    let activity = ActivityLog<Int, Event>()
    let (events, _) = AsyncStream<Event>.makeStream()
    let system = System(
      initial: 0, reduceReturning: Self.sum,
      feedbacks: [
        .input(events),
        Feedback.query({ $0 }) { _ in .after(.seconds(1), send: .add(1)) },
      ],
      environment: harness.environment, monitor: activity.monitor)
    harness.settle()
    #expect(system.runningTaskCount == 2)
    system.stop()
    #expect(system.isStopped)
    harness.clock.advance(by: .seconds(10))
    #expect(system.state == 0)
    #expect(system.runningTaskCount == 0)
    system.send(.add(5))
    #expect(system.state == 0)
    #expect(activity.discarded.map(\.1) == [.systemStopped])
    #expect(activity.log.entries.contains { if case .stopped = $0 { true } else { false } })
    #expect(activity.cancelled.count == 1)
  }

  @Test("G9 a released system is deallocated with effects in flight, and its tasks end")
  func test_G9_releaseDeallocates() {
    let harness = Harness()
    weak var weakSystem: System<Int, Event>?
    let owner = Ref<Int>()  // something the feedback captures, as a view model would capture itself
    do {
      let system = System(
        initial: 0, reduceReturning: Self.sum,
        feedbacks: [
          Feedback.query({ $0 }) { _ in
            .run { send in
              _ = owner
              try await send.clock.sleep(for: .seconds(100))
              send(.add(1))
            }
          }
        ],
        environment: harness.environment)
      weakSystem = system
      harness.settle()
      #expect(system.runningTaskCount == 1)
      #expect(harness.clock.sleeperCount == 1)
    }
    #expect(weakSystem == nil)
    harness.settle()
    #expect(harness.clock.sleeperCount == 0)
    #expect(harness.executor.pendingJobs == 0)
  }

  @Test("G9 run() keeps the system until the calling task is cancelled")
  func test_G9_runUntilCancelled() async {
    let system = System(initial: 0, reduceReturning: Self.sum)
    let task = Task { await system.run() }
    system.send(.add(1))
    task.cancel()
    await task.value
    #expect(system.isStopped)
    #expect(system.state == 1)
  }

  @Test("G10 a system of its own isolation reduces on the sending thread, before send returns")
  func test_G10_ownIsolation() {
    let threads = Log<String>()
    let system = System(
      initial: 0,
      reduceReturning: { (state: Int, event: Event) -> Int in
        threads.append("reduced on \(pthread_self())")
        return Self.sum(state, event)
      })
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
      let sender = pthread_self()
      system.send(.add(1))
      threads.append("sent from \(sender), returned with \(system.state)")
      done.signal()
    }
    thread.start()
    done.wait()
    let sender = threads.entries.last!.split(separator: " ")[2].dropLast()
    #expect(threads.entries == ["reduced on \(sender)", "sent from \(sender), returned with 1"])
  }

  @Test("G10 a main-actor system reduces on the main actor; a send there has reduced before it returns")
  @MainActor
  func test_G10_mainActorIsolation() async {
    // The main actor need not run on the main thread (it does not under
    // `swift test` on Linux), so the reducer proves its isolation itself:
    // `assertIsolated` stops the test process if it runs elsewhere.
    let onMain = Log<Bool>()
    let system = System(
      initial: 0,
      reduceReturning: { (state: Int, event: Event) -> Int in
        MainActor.assertIsolated("the reducer of a main-actor system runs on the main actor")
        onMain.append(true)
        return Self.sum(state, event)
      },
      isolation: .mainActor)
    system.send(.add(1))
    #expect(system.state == 1)  // no hop between the send and its state

    // From another thread, the event hops to the main actor once.
    let states = system.states
    await Task.detached { system.send(.add(2)) }.value
    for await state in states where state == 3 { break }
    #expect(system.state == 3)
    #expect(onMain.entries == [true, true])
  }
}
