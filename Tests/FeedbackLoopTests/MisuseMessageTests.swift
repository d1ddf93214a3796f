import FeedbackLoop
import Testing

/// A misuse of the core stops the program saying what went wrong, in an
/// optimized build too (`fatalError`: a precondition's message is dropped
/// there). Run them with `swift test -c release` to check that.
@Suite("Misuse messages")
struct MisuseMessageTests {
  struct Numbers: Sendable {
    var values: TrackedArray<Int> = [1, 2]
  }

  @Test("a query feedback at a negative TrackedArray position stops the program with a clear message")
  func negativeTrackedArrayPositionStops() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Feedback<Numbers, Int>.query(\.values, at: -1) { _ in .none }
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("a TrackedArray's positions start at 0, not -1"), "stderr: \(message)")
  }

  struct Outer: Sendable {
    var apps: TrackedDictionary<Int, ComposedPathTests.State> = [:]
  }

  enum OuterEvent: Sendable {
    case app(Int, ComposedPathTests.Event)
  }

  static let toApp = ChildEventPath<OuterEvent, Int, ComposedPathTests.Event>(
    embed: OuterEvent.app, extract: { if case .app(let id, let event) = $0 { (id, event) } else { nil } })

  @Test("a feature by id lifted by id again stops the program with a clear message")
  func featureByIDLiftedByIDAgainStops() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = ComposedPathTests.feature(gate: Gate()).lifted(children: \Outer.apps, event: MisuseMessageTests.toApp).feature
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("features by id inside children by id are not supported"), "stderr: \(message)")
  }
}
