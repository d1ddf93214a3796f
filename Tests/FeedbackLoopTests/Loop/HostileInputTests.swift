import Dispatch
import FeedbackLoopScenarios
import FeedbackLoopTesting
import Foundation
import Testing

@testable import FeedbackLoop

/// An ``Input`` keeps its target as an atomic address (a retain of the
/// bound ``InputTarget``) and its pending events and replaced targets under
/// an inline lock. These attack that: sends before any binding racing the
/// first one, rebindings and releases while threads send, the input's last
/// release on a sending thread, sends and bindings from inside the loops of
/// the systems involved. Run them under `--sanitize=thread` too.
@Suite("Hostile Input inline", .runsLeftoverJobs, .timeLimit(.minutes(1)))
struct HostileInputInlineTests {
  static let sanitized = ProcessInfo.processInfo.environment["FEEDBACKLOOP_SANITIZER"] != nil
  /// For the systems that take an input bound elsewhere before: the notice
  /// each logs goes to a recorder, so that a passing run stays quiet.
  static let quiet = SystemEnvironment(logger: LogRecorder().logger)
  static func pick(_ plain: Int, sanitized small: Int) -> Int { sanitized ? small : plain }

  /// Runs `body(index)` on `count` threads that start together (each waits
  /// until all are ready), and returns once all of them ended. Only these
  /// threads wait: the calling task suspends, and no thread of Dispatch's,
  /// on which Swift's tasks run, is blocked meanwhile.
  static func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) async {
    let go = DispatchSemaphore(value: 0)
    let counts = Locked((ready: 0, finished: 0))
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      for index in 0..<count {
        let thread = Thread {
          // The last one ready lets every thread go, itself included.
          if counts.withLock({ counts in
            counts.ready += 1
            return counts.ready == count
          }) {
            for _ in 0..<count { go.signal() }
          }
          go.wait()
          body(index)
          if counts.withLock({ counts in
            counts.finished += 1
            return counts.finished == count
          }) {
            continuation.resume()
          }
        }
        thread.stackSize = 1 << 20
        thread.start()
      }
    }
  }

  static func reduce(_ state: Int, _ event: Int) -> Int { event }

  /// Each sender's events, `sender * 1_000_000 + n`, as `reduced` holds
  /// them, in the order they were reduced.
  static func bySender(_ reduced: [Int], senders: Int) -> [[Int]] {
    (0..<senders).map { sender in reduced.filter { $0 / 1_000_000 == sender } }
  }

  @Test("G8 G2 sends before any binding race the first binding: each event reduced once, each sender's in order")
  func unboundSendsRaceTheFirstBinding() async {
    for _ in 0..<Self.pick(40, sanitized: 8) {
      let input = Input<Int>()
      let activity = ActivityLog<Int, Int>()
      let system = Ref<System<Int, Int>>()
      let perSender = Self.pick(300, sanitized: 60)
      await Self.onThreads(5) { index in
        if index == 4 {
          system.value = System(
            initial: -1, reduceReturning: Self.reduce, feedbacks: [.input(input)], monitor: activity.monitor)
        } else {
          for value in 0..<perSender { input.send(index * 1_000_000 + value) }
        }
      }
      let reduced = activity.reducedEvents
      #expect(activity.discarded.isEmpty)
      #expect(reduced.count == 4 * perSender, "an event was lost or reduced twice")
      for (sender, events) in Self.bySender(reduced, senders: 4).enumerated() {
        #expect(events == (0..<perSender).map { sender * 1_000_000 + $0 }, "sender \(sender) out of order or lossy")
      }
      system.value?.stop()
    }
  }

  @Test(
    "G8 G2 G14 eight bindings while four threads send, from before the first: every event reduced or reported by exactly one system, in order across systems"
  )
  func manyRebindingsExactAccounting() async {
    for _ in 0..<Self.pick(15, sanitized: 4) {
      let input = Input<Int>()
      let bindings = 8
      let logs = (0..<bindings).map { _ in ActivityLog<Int, Int>() }
      let systems = Log<System<Int, Int>>()
      let perSender = Self.pick(400, sanitized: 80)
      await Self.onThreads(5) { index in
        if index == 4 {
          var previous: System<Int, Int>?
          for next in 0..<bindings {
            let system = System(
              initial: -1, reduceReturning: Self.reduce, feedbacks: [.input(input)], environment: Self.quiet,
              monitor: logs[next].monitor)
            systems.append(system)
            // Stopped, kept: what it is sent after is reported, not lost.
            previous?.stop()
            previous = system
          }
        } else {
          for value in 0..<perSender { input.send(index * 1_000_000 + value) }
        }
      }
      let reduced = logs.flatMap(\.reducedEvents)
      let discarded = logs.flatMap { $0.discarded.map(\.0) }
      #expect(reduced.count + discarded.count == 4 * perSender, "an event was lost")
      #expect(Set(reduced + discarded).count == 4 * perSender, "an event was reduced or reported twice")
      #expect(logs.allSatisfy { $0.discarded.allSatisfy { $0.1 == .systemStopped } })
      #expect(logs[bindings - 1].discarded.isEmpty, "the last system is never stopped during the run")
      // A sender sees each binding after the one before: its events reach
      // the systems in binding order.
      for sender in 0..<4 {
        // Within a stopped system, a refused send may be reported before
        // the teardown reports what was queued: its reports are sorted.
        let inBindingOrder = logs.flatMap { log in
          log.reducedEvents.filter { $0 / 1_000_000 == sender }
            + log.discarded.map(\.0).filter { $0 / 1_000_000 == sender }.sorted()
        }
        #expect(
          inBindingOrder == (0..<perSender).map { sender * 1_000_000 + $0 },
          "sender \(sender)'s events crossed the bindings out of order")
        for log in logs {
          let mine = log.reducedEvents.filter { $0 / 1_000_000 == sender }
          #expect(mine == mine.sorted())
        }
      }
      for system in systems.entries { system.stop() }
    }
  }

  @Test(
    "G8 G9 rebound twelve times while four threads send, each earlier system released: nothing reduced twice or out of order"
  )
  func rebindAndReleaseWhileSending() async {
    for _ in 0..<Self.pick(15, sanitized: 4) {
      let input = Input<Int>()
      let bindings = 12
      let logs = (0..<bindings).map { _ in ActivityLog<Int, Int>() }
      let last = Ref<System<Int, Int>>()
      let perSender = Self.pick(400, sanitized: 80)
      await Self.onThreads(5) { index in
        if index == 4 {
          var current: System<Int, Int>?
          for next in 0..<bindings {
            let system = System(
              initial: -1, reduceReturning: Self.reduce, feedbacks: [.input(input)], environment: Self.quiet,
              monitor: logs[next].monitor)
            current = system  // the earlier one is released here, senders still sending to it maybe
          }
          last.value = current
        } else {
          for value in 0..<perSender { input.send(index * 1_000_000 + value) }
        }
      }
      let reduced = logs.flatMap(\.reducedEvents)
      #expect(Set(reduced).count == reduced.count, "an event was reduced twice")
      #expect(logs.allSatisfy { $0.discarded.allSatisfy { $0.1 == .systemStopped } })
      for sender in 0..<4 {
        let inBindingOrder = logs.flatMap { $0.reducedEvents.filter { $0 / 1_000_000 == sender } }
        #expect(
          inBindingOrder == inBindingOrder.sorted(), "sender \(sender)'s events crossed the bindings out of order")
      }
      // After the threads: the last binding takes everything.
      for sender in 0..<4 { input.send(sender * 1_000_000 + perSender) }
      #expect(Array(logs[bindings - 1].reducedEvents.suffix(4)) == (0..<4).map { $0 * 1_000_000 + perSender })
      #expect(last.value?.state == 3 * 1_000_000 + perSender)
      last.value?.stop()
    }
  }

  @Test(
    "G9 an Input whose systems are released while threads send through it, released last on one of those threads: the replaced binding's core is freed"
  )
  func inputReleasedOnASendingThread() async {
    for _ in 0..<Self.pick(30, sanitized: 6) {
      weak var firstCore: SystemCore<Int, Int>?
      weak var weakInput: Input<Int>?
      let logs = [ActivityLog<Int, Int>(), ActivityLog<Int, Int>()]
      let first = Ref<System<Int, Int>>()
      let second = Ref<System<Int, Int>>()
      let secondCoreSeen = Ref<Bool>()
      do {
        // Each thread holds its own reference and drops it when done; the
        // systems' input runtimes hold it until their teardown: the input's
        // deinit runs on whichever thread lets it go last.
        let holders = (0..<5).map { _ in Ref<Input<Int>>() }
        var input: Input<Int>? = Input<Int>()
        for holder in holders { holder.value = input }
        weakInput = input
        first.value = System(
          initial: -1, reduceReturning: Self.reduce, feedbacks: [.input(input!)], environment: Self.quiet,
          monitor: logs[0].monitor)
        firstCore = first.value?.core
        input = nil
        await Self.onThreads(5) { index in
          if index == 4 {
            if let mine = holders[index].value {
              second.value = System(
                initial: -1, reduceReturning: Self.reduce, feedbacks: [.input(mine)], environment: Self.quiet,
                monitor: logs[1].monitor)
            }
            secondCoreSeen.value = second.value != nil
            first.value = nil
            second.value = nil
          } else if let mine = holders[index].value {
            for value in 0..<200 { mine.send(index * 1_000_000 + value) }
          }
          holders[index].value = nil
        }
      }
      #expect(secondCoreSeen.value == true)
      #expect(weakInput == nil, "the last holder released the input")
      #expect(firstCore == nil, "a core the released input kept (its replaced target) was not freed")
      let reduced = logs.flatMap(\.reducedEvents)
      #expect(Set(reduced).count == reduced.count, "an event was reduced twice")
      for sender in 0..<4 {
        let inBindingOrder = logs.flatMap { $0.reducedEvents.filter { $0 / 1_000_000 == sender } }
        #expect(
          inBindingOrder == inBindingOrder.sorted(), "sender \(sender)'s events crossed the bindings out of order")
      }
    }
  }

  @Test(
    "G8 G14 sends before any binding race the first binding of a bounded system: each event reduced or reported dropped, once",
    arguments: [EventBufferPolicy.dropNewest(limit: 8), .dropOldest(limit: 8)])
  func unboundSendsRaceABoundedFirstBinding(policy: EventBufferPolicy) async {
    for _ in 0..<Self.pick(30, sanitized: 6) {
      let input = Input<Int>()
      let activity = ActivityLog<Int, Int>()
      let system = Ref<System<Int, Int>>()
      let perSender = Self.pick(300, sanitized: 60)
      let harness = Harness(eventBuffer: policy)
      await Self.onThreads(5) { index in
        if index == 4 {
          system.value = System(
            initial: -1, reduceReturning: Self.reduce, feedbacks: [.input(input)],
            environment: harness.environment, monitor: activity.monitor)
        } else {
          for value in 0..<perSender { input.send(index * 1_000_000 + value) }
        }
      }
      let reduced = activity.reducedEvents
      let dropped = activity.discarded.map(\.0)
      #expect(activity.discarded.allSatisfy { $0.1 == .bufferFull })
      #expect(reduced.count + dropped.count == 4 * perSender, "an event was lost")
      #expect(Set(reduced + dropped).count == 4 * perSender, "an event was reduced or reported twice")
      for events in Self.bySender(reduced, senders: 4) { #expect(events == events.sorted()) }
      system.value?.stop()
    }
  }

  /// The first binding flushes the kept events into the system while it
  /// holds the input's lock; a bounded buffer refuses some, and the monitor
  /// that hears of them sends through the same input. Those reports come
  /// after the lock (they once came under it: "Fatal error: Recursive call
  /// to lock Mutex" here, a hang on the earlier pthread lock), and the
  /// monitor's sends reach the system.
  @Test(
    "G8 G14 a monitor that sends through the Input when the first binding drops kept events (bufferFull): no re-entry of the input's lock"
  )
  func monitorSendsThroughTheInputDuringTheFirstBinding() {
    let input = Input<Int>()
    let activity = ActivityLog<Int, Int>()
    for value in 1...5 { input.send(value) }
    let harness = Harness(eventBuffer: .dropNewest(limit: 2))
    let monitor = SystemMonitor<Int, Int>.combining([
      activity.monitor,
      SystemMonitor { entry in
        if case .eventDiscarded(let event, .bufferFull) = entry, event < 100 { input.send(100 + event) }
      },
    ])
    let system = System(
      initial: 0, reduceReturning: Self.reduce, feedbacks: [.input(input)], environment: harness.environment,
      monitor: monitor)
    #expect(activity.reducedEvents.prefix(2) == [1, 2])
    // Each refusal is reported in order, after the lock; the monitor's
    // send in answer to it finds the buffer still full (the loop has not
    // drained yet), and is refused in its turn.
    #expect(activity.discarded.map(\.0) == [3, 103, 4, 104, 5, 105])
    input.send(6)
    #expect(activity.reducedEvents.last == 6)
    system.stop()
  }

  @Test("G9 an Input alive keeps the cores of its bindings; released, it frees them, replaced or current")
  func inputKeepsAndFreesItsCores() {
    weak var firstCore: SystemCore<Int, Int>?
    weak var secondCore: SystemCore<Int, Int>?
    var input: Input<Int>? = Input<Int>()
    do {
      let first = System(initial: 0, reduceReturning: Self.reduce, feedbacks: [.input(input!)])
      let second = System(
        initial: 0, reduceReturning: Self.reduce, feedbacks: [.input(input!)], environment: Self.quiet)
      firstCore = first.core
      secondCore = second.core
      input?.send(7)
      #expect(second.state == 7)
      #expect(first.state == 0)
    }
    #expect(firstCore != nil && secondCore != nil, "documented: each binding keeps its core until the input goes")
    input?.send(8)  // dropped: the system was released
    input = nil
    #expect(firstCore == nil)
    #expect(secondCore == nil)
  }

  @Test("G8 G2 an Input sent to from its own system's reducer, observer and effect: each event reduced once, in order")
  func sendsFromInsideTheBoundSystem() {
    let harness = Harness()
    let input = Input<Int>()
    let activity = ActivityLog<[Int], Int>()
    let system = System(
      initial: [Int](),
      reduceReturning: { (state: [Int], event: Int) -> [Int] in
        if event < 3 { input.send(event + 1) }
        return state + [event]
      },
      feedbacks: [
        .input(input),
        .observer { { state in if state.last == 3 { input.send(10) } } },
        Feedback.query({ $0.last == 10 ? 10 : nil }) { _ in
          .run { _ in input.send(20) }
        },
      ],
      environment: harness.environment, monitor: activity.monitor)
    input.send(0)
    #expect(system.state == [0, 1, 2, 3, 10])
    harness.settle()
    #expect(system.state == [0, 1, 2, 3, 10, 20])
    #expect(activity.reducedEvents == [0, 1, 2, 3, 10, 20])
    system.stop()
    input.send(30)
    #expect(activity.discarded.map(\.0) == [30])
  }

  @Test("G8 G10 a main-actor system sent to through its Input from its reducer and from an effect's thread")
  @MainActor
  func sendsFromInsideAMainActorSystem() {
    let harness = Harness()
    let input = Input<Int>()
    let system = System(
      initial: [Int](),
      reduceReturning: { (state: [Int], event: Int) -> [Int] in
        if event < 3 { input.send(event + 1) }
        return state + [event]
      },
      feedbacks: [
        .input(input),
        Feedback.query({ $0.last == 3 ? 3 : nil }) { _ in .run { _ in input.send(20) } },
      ],
      isolation: .mainActor, environment: harness.environment)
    input.send(0)
    #expect(system.state == [0, 1, 2, 3], "sent on the main actor: reduced before the send returns")
    harness.settle()
    system.processQueuedEvents()
    #expect(system.state == [0, 1, 2, 3, 20])
    system.stop()
  }

  @Test("G8 a first binding made from another system's observer takes the events kept before it, first")
  func firstBindingFromAnotherSystemsObserver() {
    let input = Input<Int>()
    let bound = ActivityLog<Int, Int>()
    let made = Ref<System<Int, Int>>()
    input.send(1)
    input.send(2)
    let host = System(
      initial: 0, reduceReturning: { $0 + $1 },
      feedbacks: [
        .observer {
          { state in
            guard state == 5, made.value == nil else { return }
            input.send(3)  // still unbound: kept, behind 1 and 2
            made.value = System(
              initial: 0, reduceReturning: Self.reduce, feedbacks: [.input(input)], monitor: bound.monitor)
            input.send(4)  // bound now: behind the kept ones
          }
        }
      ])
    host.send(5)
    input.send(5)
    #expect(bound.reducedEvents == [1, 2, 3, 4, 5])
    #expect(made.value?.state == 5)
    #expect(host.state == 5)
    made.value?.stop()
    host.stop()
  }

  @Test(
    "G8 an Input rebound from inside its own system's reducer: the send right after the binding goes to the new system")
  func rebindingFromInsideTheBoundReducer() {
    let input = Input<Int>()
    let earlier = ActivityLog<Int, Int>()
    let later = ActivityLog<Int, Int>()
    let made = Ref<System<Int, Int>>()
    let first = System(
      initial: 0,
      reduceReturning: { (_: Int, event: Int) -> Int in
        if event == 50 {
          input.send(49)  // still bound here: queued behind 50
          made.value = System(
            initial: 0, reduceReturning: Self.reduce, feedbacks: [.input(input)], environment: Self.quiet,
            monitor: later.monitor)
          input.send(51)  // the later binding wins
        }
        return event
      },
      feedbacks: [.input(input)], monitor: earlier.monitor)
    input.send(1)
    input.send(50)
    input.send(52)
    #expect(earlier.reducedEvents == [1, 50, 49])
    #expect(later.reducedEvents == [51, 52])
    #expect(first.state == 49)
    #expect(made.value?.state == 52)
    made.value?.stop()
    first.stop()
  }

  @Test(
    "G8 G2 four threads send while another thread binds the input from inside a third system's observer, twice"
  )
  func bindingFromACallbackWhileThreadsSend() async {
    for _ in 0..<Self.pick(20, sanitized: 5) {
      let input = Input<Int>()
      let logs = [ActivityLog<Int, Int>(), ActivityLog<Int, Int>()]
      let made = Log<System<Int, Int>>()
      let host = System(
        initial: 0, reduceReturning: { $0 + $1 },
        feedbacks: [
          .observer {
            { state in
              guard state == 1 || state == 2 else { return }
              made.append(
                System(
                  initial: -1, reduceReturning: Self.reduce, feedbacks: [.input(input)],
                  environment: Self.quiet, monitor: logs[state - 1].monitor))
            }
          }
        ])
      let perSender = Self.pick(300, sanitized: 60)
      await Self.onThreads(5) { index in
        if index == 4 {
          host.send(1)
          host.send(1)
        } else {
          for value in 0..<perSender { input.send(index * 1_000_000 + value) }
        }
      }
      let reduced = logs.flatMap(\.reducedEvents)
      #expect(reduced.count == 4 * perSender, "an event was lost (no system is stopped here)")
      #expect(Set(reduced).count == 4 * perSender, "an event was reduced twice")
      for sender in 0..<4 {
        let inBindingOrder = logs.flatMap { $0.reducedEvents.filter { $0 / 1_000_000 == sender } }
        #expect(inBindingOrder == (0..<perSender).map { sender * 1_000_000 + $0 })
      }
      for system in made.entries { system.stop() }
      host.stop()
    }
  }
}
