import FeedbackLoop
import FeedbackLoopTesting
import Testing

/// The event feedback guide's code (EventFeedback.md), and the tests that
/// hold its timeline.
enum EventGuide {
  enum Checkout {
    struct State: Sendable, Equatable {
      var cart: [String] = []
      var orders = 0
    }

    enum Event: Sendable, Equatable {
      case added(String)
      case paid
    }

    static func reduce(_ state: inout State, _ event: Event) {
      switch event {
      case .added(let item): state.cart.append(item)
      case .paid:
        state.cart = []
        state.orders += 1
      }
    }

    /// Reports every purchase; purchases are reported side by side.
    static func feedbacks(
      track: @escaping @Sendable (String) async throws -> Void
    ) -> [Feedback<State, Event>] {
      [
        Feedback.onEvent(strategy: .merge, name: "analytics") { event, state in
          guard case .paid = event else { return .none }
          return .run { _ in try await track("order \(state.orders)") }
        }
      ]
    }
  }
}

@Suite struct EventGuideTests {
  @Test("G7 the event guide's timeline: each paid event starts a report, merged, other events start nothing")
  func timeline() {
    let clock = TestClock(executor: ManualTaskExecutor())
    let tracked = Calls()
    let checkout = TestSystem(
      initial: EventGuide.Checkout.State(), reduce: EventGuide.Checkout.reduce,
      feedbacks: EventGuide.Checkout.feedbacks { name in
        try await clock.sleep(for: .milliseconds(100))
        tracked.record(name)
      },
      clock: clock)

    checkout.send(.added("tea")) { $0.cart = ["tea"] }
    checkout.send(.paid) {
      $0.cart = []
      $0.orders = 1
    }
    checkout.send(.added("cake")) { $0.cart = ["cake"] }
    checkout.send(.paid) {
      $0.cart = []
      $0.orders = 2
    }
    checkout.advance(by: .milliseconds(100))
    checkout.finish()
    #expect(tracked.values.sorted() == ["order 1", "order 2"])
  }
}
