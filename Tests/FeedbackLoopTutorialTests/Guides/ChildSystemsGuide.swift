import FeedbackLoop
import FeedbackLoopTesting
import Testing

/// The child systems guide's code (ChildSystemsFeedback.md), and the tests
/// that hold its timeline.
enum ChildSystemsGuide {
  /// One kitchen timer: a system of its own, with its own feedback.
  enum Countdown {
    enum Event: Sendable, Equatable {
      case tick
      case snooze
    }

    static func reduce(_ remaining: inout Int, _ event: Event) {
      switch event {
      case .tick: remaining -= 1
      case .snooze: remaining += 5
      }
    }

    static func system(seconds: Int, environment: SystemEnvironment) -> System<Int, Event> {
      System(
        initial: seconds, reduce: reduce,
        feedbacks: [
          Feedback.query({ $0 > 0 ? $0 : nil }, name: "tick") { _ in .after(.seconds(1), send: .tick) }
        ],
        environment: environment)
    }
  }

  /// The kitchen: which timers run is its state; each runs as a child system.
  enum Kitchen {
    struct State: Sendable, Equatable {
      var timers: [String: Int] = [:]
      var rang: [String] = []
    }

    enum Event: Sendable, Equatable {
      case started(String, seconds: Int)
      case cancelled(String)
      case snoozed(String)
      case rang(String)
    }

    static func reduce(_ state: inout State, _ event: Event) {
      switch event {
      case .started(let name, let seconds): state.timers[name] = seconds
      case .cancelled(let name): state.timers[name] = nil
      case .snoozed: break  // Routed to the timer's own system.
      case .rang(let name):
        state.timers[name] = nil
        state.rang.append(name)
      }
    }

    static func feedbacks(
      _ countdowns: ChildSystems<String, Int, Countdown.Event>, environment: SystemEnvironment
    ) -> [Feedback<State, Event>] {
      [
        .childSystems(
          countdowns, for: \.timers, name: "countdowns",
          make: { _, seconds in Countdown.system(seconds: seconds, environment: environment) },
          route: { if case .snoozed(let name) = $0 { (name, .snooze) } else { nil } },
          outcome: { name, remaining in remaining == 0 ? .rang(name) : nil })
      ]
    }
  }
}

@Suite struct ChildSystemsGuideTests {
  @Test("G6 the child systems guide's timeline: a new id starts a child, a kept one goes on, a removed one stops")
  func timeline() {
    let countdowns = ChildSystems<String, Int, ChildSystemsGuide.Countdown.Event>()
    let kitchen = TestSystem { environment, monitor in
      System(
        initial: ChildSystemsGuide.Kitchen.State(), reduce: ChildSystemsGuide.Kitchen.reduce,
        feedbacks: ChildSystemsGuide.Kitchen.feedbacks(countdowns, environment: environment),
        environment: environment, monitor: monitor)
    }

    kitchen.send(.started("tea", seconds: 3)) { $0.timers = ["tea": 3] }
    kitchen.send(.started("eggs", seconds: 5)) { $0.timers = ["tea": 3, "eggs": 5] }
    #expect(countdowns.count == 2)
    kitchen.advance(by: .seconds(1))
    kitchen.send(.snoozed("eggs"))
    #expect(countdowns.state(of: "eggs") == 9)
    kitchen.send(.cancelled("eggs")) { $0.timers = ["tea": 3] }
    #expect(countdowns.ids == ["tea"])
    kitchen.advance(by: .seconds(2))
    kitchen.receive(.rang("tea")) {
      $0.timers = [:]
      $0.rang = ["tea"]
    }
    #expect(countdowns.count == 0)
    kitchen.finish()
  }
}
