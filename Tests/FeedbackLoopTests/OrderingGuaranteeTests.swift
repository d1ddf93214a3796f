import FeedbackLoop
import FeedbackLoopTesting
import Foundation
import Testing

/// G1, G2 and G3: what reaches whom, and in which order.
@Suite(.runsLeftoverJobs) struct OrderingGuaranteeTests {
  enum Event: Sendable, Equatable { case add(Int), echo(Int) }

  static func sum(_ state: Int, _ event: Event) -> Int {
    guard case .add(let amount) = event else { return state }
    return state + amount
  }

  @Test("G1 the initial state reaches every feedback, observer and monitor before any event is reduced")
  func test_G1_initialStateFirst() {
    let log = Log<String>()
    let input = Input<Event>()
    input.send(.add(1))  // waiting before the system exists
    let system = System(
      initial: 0,
      reduceReturning: { (state: Int, event: Event) -> Int in
        log.append("reduce \(event)")
        return Self.sum(state, event)
      },
      feedbacks: [
        .input(input),
        Feedback.predicate({ _ in true }, whenFalse: .keepRunning) { state in
          log.append("feedback A sees \(state)")
          return .none
        },
        Feedback.query({ $0 }) { state in
          log.append("feedback B sees \(state)")
          return .none
        },
      ],
      monitor: SystemMonitor { activity in
        if case .started(let initial) = activity { log.append("monitor started at \(initial)") }
      })
    #expect(
      log.entries == [
        "monitor started at 0", "feedback A sees 0", "feedback B sees 0",
        "reduce add(1)", "feedback A sees 1", "feedback B sees 1",
      ])
    let observed = Log<Int>()
    let observation = system.observe { observed.append($0) }
    system.send(.add(2))
    #expect(observed.entries == [1, 3])
    observation.cancel()
  }

  @Test("G2 events sent from the reducer, a feedback and an observer are queued, reduced after the current one")
  func test_G2_reentrantSendsAreQueued() {
    let systemRef = Ref<System<[String], Event>>()
    let depth = Log<Int>()
    let inside = Ref<Int>()
    inside.value = 0
    let system = System(
      initial: [String](),
      reduceReturning: { (state: [String], event: Event) -> [String] in
        inside.value = inside.value! + 1
        depth.append(inside.value!)
        defer { inside.value = inside.value! - 1 }
        if case .add(1) = event { systemRef.value?.send(.echo(1)) }  // from the reducer
        return state + ["\(event)"]
      },
      feedbacks: [
        Feedback.query({ $0.last }) { last in
          if last == "add(2)" { systemRef.value?.send(.echo(2)) }  // from a feedback
          return .none
        }
      ])
    systemRef.value = system
    let observation = system.observe { state in
      if state.last == "add(3)" { system.send(.echo(3)) }  // from an observer
    }
    system.send(.add(1))
    system.send(.add(2))
    system.send(.add(3))
    #expect(system.state == ["add(1)", "echo(1)", "add(2)", "echo(2)", "add(3)", "echo(3)"])
    #expect(depth.entries.allSatisfy { $0 == 1 })
    observation.cancel()
    // The reducer reaches the system through `systemRef`: a cycle of the
    // test's making, broken so that LeakSanitizer sees none.
    systemRef.value = nil
  }

  @Test("G2 events from many threads are each reduced once, each sender's in its order")
  func test_G2_concurrentSendersKeepTheirOrder() {
    struct Tally: Sendable {
      var lastBySender = [Int](repeating: -1, count: 8)
      var outOfOrder = 0
      var count = 0
    }
    enum Numbered: Sendable { case from(sender: Int, number: Int) }
    let system = System(
      initial: Tally(),
      reduce: { (tally: inout Tally, event: Numbered) in
        guard case .from(let sender, let number) = event else { return }
        if number != tally.lastBySender[sender] + 1 { tally.outOfOrder += 1 }
        tally.lastBySender[sender] = number
        tally.count += 1
      })
    DispatchQueue.concurrentPerform(iterations: 8) { sender in
      for number in 0..<5_000 { system.send(.from(sender: sender, number: number)) }
    }
    #expect(system.state.count == 40_000)
    #expect(system.state.outOfOrder == 0)
    #expect(system.state.lastBySender == [Int](repeating: 4_999, count: 8))
  }

  @Test("G3 every feedback sees every state in order, before the next event and before observers")
  func test_G3_feedbacksSeeEveryStateBeforeObservers() {
    let log = Log<String>()
    let systemRef = Ref<System<Int, Event>>()
    let system = System(
      initial: 0,
      reduceReturning: Self.sum,
      feedbacks: [
        Feedback.predicate({ _ in true }, whenFalse: .keepRunning) { state in
          log.append("A \(state)")
          // Answering synchronously must not let the next event overtake B or the observer.
          if state == 1 { return .send(.add(10)) }
          return .none
        },
        Feedback.predicate({ _ in true }, whenFalse: .keepRunning) { state in
          log.append("B \(state)")
          return .none
        },
      ])
    systemRef.value = system
    let observation = system.observe { log.append("observer \($0)") }
    log.removeAll()
    system.send(.add(1))
    system.send(.add(0))  // an unchanged state is still a state
    #expect(
      log.entries == [
        "A 1", "B 1", "observer 1",
        "A 11", "B 11", "observer 11",
        "A 11", "B 11", "observer 11",
      ])
    observation.cancel()
  }

  @Test("G3 the states sequence starts with the current state and sees every state, duplicates included")
  func test_G3_statesSequence() async {
    let system = System(initial: 0, reduceReturning: Self.sum)
    let states = system.states
    system.send(.add(1))
    system.send(.add(0))
    system.send(.add(2))
    system.stop()
    var received: [Int] = []
    for await state in states { received.append(state) }
    #expect(received == [0, 1, 1, 3])
  }
}
