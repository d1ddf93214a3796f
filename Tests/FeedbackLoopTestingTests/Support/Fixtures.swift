import FeedbackLoop
import FeedbackLoopTesting

/// Small systems for the kit's own tests.
enum Fixtures {
  /// The HUD under test, its failures collected in `log`.
  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  static func hud(
    reporting log: FailureLog,
    exhaustivity: Exhaustivity = .on,
    line: UInt = #line
  ) -> TestSystem<HUD.State, HUD.Event> {
    TestSystem(
      initial: HUD.State(), reduce: HUD.reduce, feedbacks: HUD.feedbacks,
      exhaustivity: exhaustivity, reporter: log.reporter, line: line)
  }

  /// An error no `catch` maps.
  struct Unmapped: Error, Equatable {}

  /// A system whose one effect, started by `.go`, throws an unmapped error
  /// after a second.
  enum Failing {
    enum Event: Equatable, Sendable { case go }

    static let feedbacks: [Feedback<Int, Event>] = [
      Feedback.query({ $0 > 0 ? $0 : nil }, name: "fails") { _ in
        .run { send in
          try await send.clock.sleep(for: .seconds(1))
          throw Unmapped()
        }
      }
    ]

    static func reduce(_ count: Int, _ event: Event) -> Int { count + 1 }
  }

  /// A system whose effect ticks every second, forever.
  enum Ticker {
    enum Event: Equatable, Sendable { case tick }

    static let feedbacks: [Feedback<Int, Event>] = [
      Feedback.query({ _ in true }, name: "ticker") { _ in
        .run { send in
          while true {
            try await send.clock.sleep(for: .seconds(1))
            send(.tick)
          }
        }
      }
    ]

    static func reduce(_ count: Int, _ event: Event) -> Int { count + 1 }
  }
}
