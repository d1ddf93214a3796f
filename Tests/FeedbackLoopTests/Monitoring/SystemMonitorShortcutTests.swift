import Testing

@testable import FeedbackLoop

/// The monitor's `.reduced` shortcut (the recorder's): the core calls it
/// instead of building the activity, and a monitor that combines it still
/// sees `.reduced` in its `receive`.
@Suite struct SystemMonitorShortcutTests {
  enum Event: Sendable, Equatable { case add(Int), echo(Int) }

  static func reduce(_ state: Int, _ event: Event) -> Int {
    switch event {
    case .add(let amount): state + amount
    case .echo: state
    }
  }

  /// A monitor that logs what reaches `receive` and what reaches the shortcut.
  static func shortcutMonitor(_ log: Log<String>) -> SystemMonitor<Int, Event> {
    SystemMonitor(
      { activity in
        switch activity {
        case .started(let initial): log.append("started \(initial)")
        case .reduced(let event, let from, let to, let source): log.append("receive \(event) \(from)->\(to) \(source)")
        case .stopped: log.append("stopped")
        default: break  // the effect's start and end
        }
      },
      reduced: { event, from, to, origin, source in
        let source = source()
        // The origin says what the source says.
        if origin.isExternal != (source == .external) { log.append("the origin contradicts \(source)") }
        log.append("shortcut \(event) \(from)->\(to) \(source)\(origin.isCountedSend ? " counted" : "")")
      })
  }

  @Test(
    "G2 a counted send is reduced in order with the other sends, external, and the only one the shortcut reports counted"
  )
  func countedSendIsReportedApart() {
    let log = Log<String>()
    let input = Input<Event>()
    let system = System(
      initial: 0, reduceReturning: Self.reduce,
      feedbacks: [
        .input(input),
        // An Input that sends from inside the loop, while a counted send's state is handed out.
        Feedback.query({ $0 == 2 ? 2 : nil }) { _ in
          input.send(.add(10))
          return .none
        },
      ],
      monitor: Self.shortcutMonitor(log))
    input.send(.add(1))
    system.sendCounted(.add(1))
    system.send(.add(100))
    system.sendCounted(.add(1000))
    system.stop()
    #expect(
      log.entries == [
        "started 0",
        "shortcut add(1) 0->1 external",
        "shortcut add(1) 1->2 external counted",
        "shortcut add(10) 2->12 external",
        "shortcut add(100) 12->112 external",
        "shortcut add(1000) 112->1112 external counted",
        "stopped",
      ])
  }

  @Test("G10 a monitor with a shortcut gets each reduction there, in order, with both states and its source")
  func shortcutGetsReductions() {
    let log = Log<String>()
    let input = Input<Event>()
    let system = System(
      initial: 0, reduceReturning: Self.reduce,
      feedbacks: [
        .input(input),
        // An event sent by a feedback: its source is the feedback, not outside.
        Feedback.query({ $0 == 1 ? 1 : nil }) { _ in .send(.echo(1)) },
      ],
      monitor: Self.shortcutMonitor(log))
    input.send(.add(1))
    system.send(.add(2))
    system.stop()
    #expect(log.entries.count == 5)
    #expect(log.entries.first == "started 0")
    #expect(log.entries[1] == "shortcut add(1) 0->1 external")
    #expect(log.entries[2].hasPrefix("shortcut echo(1) 1->1 ") && !log.entries[2].hasSuffix("external"))
    #expect(log.entries[3] == "shortcut add(2) 1->3 external")
    #expect(log.entries.last == "stopped")
    #expect(!log.entries.contains { $0.hasPrefix("receive") })
  }

  @Test("G10 combined, a monitor with a shortcut gets every reduction in its receive")
  func combinedShortcutGetsTheActivity() {
    let log = Log<String>()
    let system = System(
      initial: 0, reduceReturning: Self.reduce, monitor: .combining([Self.shortcutMonitor(log)]))
    system.send(.add(2))
    system.stop()
    #expect(log.entries == ["started 0", "receive add(2) 0->2 external", "stopped"])
  }

  @Test("a monitor of one closure gets reductions in it")
  func plainMonitorGetsTheActivity() {
    let log = Log<String>()
    let monitor = SystemMonitor<Int, Event> { activity in
      if case .reduced(let event, let from, let to, _) = activity { log.append("\(event) \(from)->\(to)") }
    }
    #expect(monitor.reduced == nil)
    let system = System(initial: 0, reduceReturning: Self.reduce, monitor: monitor)
    system.send(.add(2))
    system.send(.add(3))
    system.stop()
    #expect(log.entries == ["add(2) 0->2", "add(3) 2->5"])
  }
}
