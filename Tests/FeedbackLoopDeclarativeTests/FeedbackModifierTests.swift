import FeedbackLoop
import FeedbackLoopDeclarative
import FeedbackLoopTesting
import Testing

/// A counter that counts up to a limit through a feedback, to watch what
/// modifiers do to feedbacks.
enum Counter {
  enum Action: Equatable, Sendable { case increment, reset }

  static let transitions = Transitions<Int, Action> {
    From(AnyState.self) { count in
      On(Action.increment, transitionTo: .any) { count() + 1 }
      On(Action.reset, transitionTo: 0)
    }
  }

  static func countingTo(_ limit: Int) -> DeclaredFeedback<Int, Action> {
    Feedback.on(.case("below \(limit)") { $0 < limit ? $0 : nil }) { _ in .send(.increment) }
  }
}

final class Flag: @unchecked Sendable {
  // Sendable: guarded by `lock`.
  private let lock = NSLockish()
  private var stored = false
  var value: Bool {
    get { lock.withLock { stored } }
    set { lock.withLock { stored = newValue } }
  }
}

@Suite(.runsLeftoverJobs) struct FeedbackModifierTests {
  @Test func disableStopsAFeedbackWhileTheConditionHolds() {
    let paused = Flag()
    paused.value = true
    let system = System<Int, Counter.Action> {
      InitialState { 0 }
      Feedbacks { Counter.countingTo(3).disable { paused.value } }
      Counter.transitions
    }
    #expect(system.state == 0)
    paused.value = false
    system.send(.reset)  // a new state: the feedback runs again
    #expect(system.state == 3)
  }

  @Test func disableOnAGroupDisablesEveryFeedbackInIt() {
    let system = System<Int, Counter.Action> {
      InitialState { 0 }
      Feedbacks {
        Counter.countingTo(3)
        Counter.countingTo(5)
      }
      .disable { true }
      Counter.transitions
    }
    #expect(system.state == 0)
  }

  @Test func onStateReceivedSeesEveryStateTheFeedbackReceives() {
    let received = Recorder<Int>()
    let group = Recorder<Int>()
    _ = System<Int, Counter.Action> {
      InitialState { 0 }
      Feedbacks {
        Counter.countingTo(2).onStateReceived { received.append($0) }
      }
      .onStateReceived { group.append($0) }
      Counter.transitions
    }
    #expect(received.all == [0, 1, 2])
    #expect(group.all == [0, 1, 2])
  }

  @Test func onEventEmittedSeesEveryEventTheFeedbackEmits() {
    let emitted = Recorder<Counter.Action>()
    let group = Recorder<Counter.Action>()
    let system = System<Int, Counter.Action> {
      InitialState { 0 }
      Feedbacks {
        Counter.countingTo(2).onEventEmitted { emitted.append($0) }
      }
      .onEventEmitted { group.append($0) }
      Counter.transitions
    }
    system.send(.reset)  // sent from outside: not emitted by the feedback
    #expect(emitted.all == [.increment, .increment, .increment, .increment])
    #expect(group.all == emitted.all)
  }

  @Test func executeOnRunsAFeedbacksOperationsOnThatExecutor() {
    let systemExecutor = ManualTaskExecutor()
    let decoding = ManualTaskExecutor()
    let ran = Flag()
    let system = System<Int, Counter.Action>(
      environment: SystemEnvironment(clock: TestClock(), effectExecutor: systemExecutor)
    ) {
      InitialState { 0 }
      Feedbacks {
        Feedback.on(.case("zero") { $0 == 0 ? $0 : nil }) { (_: Int, send: Send<Counter.Action>) in
          await Task.yield()
          ran.value = true
          send(.increment)
        }
        .effectExecutor(decoding)
      }
      Counter.transitions
    }
    systemExecutor.runUntilIdle()  // the task starts on the system's executor, then moves
    #expect(!ran.value)
    decoding.runUntilIdle()
    systemExecutor.runUntilIdle()
    decoding.runUntilIdle()
    #expect(ran.value)
    #expect(system.state == 1)
  }

  @Test func executeOnAGroupAppliesToItsOperations() {
    let systemExecutor = ManualTaskExecutor()
    let decoding = ManualTaskExecutor()
    let system = System<Int, Counter.Action>(
      environment: SystemEnvironment(clock: TestClock(), effectExecutor: systemExecutor)
    ) {
      InitialState { 0 }
      Feedbacks {
        Feedback.on(.case("zero") { $0 == 0 ? $0 : nil }) { (_: Int, send: Send<Counter.Action>) in
          send(.increment)
        }
      }
      .effectExecutor(decoding)
      Counter.transitions
    }
    systemExecutor.runUntilIdle()  // the task starts, and moves to `decoding`
    #expect(system.state == 0)
    decoding.runUntilIdle()  // the operation runs there
    #expect(system.state == 1)
  }

  @Test func executeOnASystemRunsItsEffectsOnThatExecutor() {
    let executor = ManualTaskExecutor()
    let declaration = DeclarativeSystem<Int, Counter.Action> {
      InitialState { 0 }
      Feedbacks {
        Feedback.on(.case("zero") { $0 == 0 ? $0 : nil }) { _ in .task { .increment } }
      }
      Counter.transitions
    }
    .effectExecutor(executor)
    let system = declaration.start()  // the default environment names no executor
    #expect(system.state == 0)
    executor.runUntilIdle()
    #expect(system.state == 1)
  }

  // MARK: Strategies

  enum Loading: Equatable, Sendable { case page(Int) }
  enum Loaded: Equatable, Sendable { case open(Int), loaded(Int) }

  @Test func cancelPreviousCancelsTheRunningEffect() {
    let clock = TestClock(executor: ManualTaskExecutor())
    let test = TestSystem(clock: clock) { environment, monitor in
      System<[Int], Loaded>(environment: environment, monitor: monitor) {
        InitialState { [] }
        Feedbacks {
          Feedback.on(.case("last open") { $0.last.map { $0 > 0 ? $0 : nil } ?? nil }, strategy: .cancelPrevious) {
            page in
            .run { send in
              try await send.clock.sleep(for: .seconds(1))
              send(.loaded(-page))
            }
          }
        }
        Transitions {
          From(AnyState.self) { pages in
            On(AnyEvent.self, transitionTo: .any) { event in
              switch event {
              case .open(let page), .loaded(let page): pages() + [page]
              }
            }
          }
        }
      }
    }
    test.send(.open(1)) { $0 = [1] }
    test.advance(by: .milliseconds(500))
    test.send(.open(2)) { $0 = [1, 2] }  // cancels page 1's load
    test.advance(by: .seconds(1))
    test.receive(.loaded(-2)) { $0 = [1, 2, -2] }
    test.finish()
  }

  @Test func queueQueuesEffects() {
    let clock = TestClock(executor: ManualTaskExecutor())
    let test = TestSystem(clock: clock) { environment, monitor in
      System<[Int], Loaded>(environment: environment, monitor: monitor) {
        InitialState { [] }
        Feedbacks {
          Feedback.on(
            .case("last open") { $0.last.map { $0 > 0 ? $0 : nil } ?? nil }, strategy: .queue
          ) { page in
            .run { send in
              try await send.clock.sleep(for: .seconds(1))
              send(.loaded(-page))
            }
          }
        }
        Transitions {
          From(AnyState.self) { pages in
            On(AnyEvent.self, transitionTo: .any) { event in
              switch event {
              case .open(let page), .loaded(let page): pages() + [page]
              }
            }
          }
        }
      }
    }
    test.send(.open(1)) { $0 = [1] }
    test.advance(by: .milliseconds(500))
    test.send(.open(2)) { $0 = [1, 2] }  // waits for page 1's load
    test.advance(by: .milliseconds(500))
    test.receive(.loaded(-1)) { $0 = [1, 2, -1] }
    test.advance(by: .seconds(1))
    test.receive(.loaded(-2)) { $0 = [1, 2, -1, -2] }
    test.finish()
  }

  @Test func coreFeedbacksMayBeListedAmongDeclaredOnes() {
    let buttons = Input<Counter.Action>()
    let system = System<Int, Counter.Action> {
      InitialState { 0 }
      Feedbacks {
        Feedback.input(buttons)
        Counter.countingTo(2)
      }
      Counter.transitions
    }
    #expect(system.state == 2)
    buttons.send(.reset)
    #expect(system.state == 2)  // reset to 0, then counted to 2 again
    buttons.send(.increment)
    #expect(system.state == 3)
  }
}
