import FeedbackLoopDeclarative

/// W8: a statechart three levels deep (app > session > media > playing)
/// with two parallel regions (the media and the HUD), its reducer folded
/// over the events, against the same behaviour written as a flat enum
/// reducer (W8flat), in the same run.
///
/// The events cycle through a toggle of the media (a transition in one
/// region), a tap on the HUD (in the other) and a count (a targetless
/// transition of the parallel state, found by walking up from both
/// regions' atomic states).
public enum Statechart3Deep {
  public static let eventCount = 1_000_000

  public enum Event: Sendable, Equatable { case toggle, tap, count }

  public static let chart = try! Statechart<Int, Event>("w8", initial: "app") {
    ChartState("app", initial: "session") {
      ParallelState("session") {
        Transition(on: .count, action: { count, _ in count += 1 })
        ChartState("media", initial: "playing") {
          ChartState("playing") { Transition(on: .toggle, to: "paused") }
          ChartState("paused") { Transition(on: .toggle, to: "playing") }
        }
        ChartState("hud", initial: "shown") {
          ChartState("shown") { Transition(on: .tap, to: "hidden") }
          ChartState("hidden") { Transition(on: .tap, to: "shown") }
        }
      }
    }
  }

  /// The flat version: one enum per region, and the count.
  public struct FlatState: Sendable, Equatable {
    public enum Media: Sendable { case playing, paused }
    public enum HUD: Sendable { case shown, hidden }
    public var media = Media.playing
    public var hud = HUD.shown
    public var count = 0
  }

  public static func flatReduce(_ state: inout FlatState, _ event: Event) {
    switch event {
    case .toggle: state.media = state.media == .playing ? .paused : .playing
    case .tap: state.hud = state.hud == .shown ? .hidden : .shown
    case .count: state.count += 1
    }
  }

  static func events(count: Int) -> [Event] {
    (0..<count).map { [Event.toggle, .tap, .count][$0 % 3] }
  }

  public static let workload = Workload(
    id: "W8", summary: "statechart reducer, 3 levels, 2 parallel regions", operations: eventCount, runs: 11,
    makeTrial: {
      let events = Statechart3Deep.events(count: eventCount)
      let chart = opaque(Statechart3Deep.chart)
      let result = Slot<Int>()
      return Trial(
        run: {
          var state = chart.initialState(context: 0)
          for event in events { chart.reduce(&state, .event(event)) }
          result.value = state.context
        },
        finish: { check(result.value == eventCount / 3, "W8 counted \(String(describing: result.value))") })
    })

  public static let flatWorkload = Workload(
    id: "W8flat", summary: "the same behaviour as a flat enum reducer", operations: eventCount, runs: 11,
    makeTrial: {
      let events = Statechart3Deep.events(count: eventCount)
      let reduce = opaque(Statechart3Deep.flatReduce)
      let result = Slot<Int>()
      return Trial(
        run: {
          var state = FlatState()
          for event in events { reduce(&state, event) }
          result.value = state.count
        },
        finish: { check(result.value == eventCount / 3, "W8flat counted \(String(describing: result.value))") })
    })
}
