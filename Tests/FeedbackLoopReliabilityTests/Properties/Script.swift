import FeedbackLoop
import PropertyBased

/// One step of a random schedule run against a system on a test clock.
enum Step<Event: Sendable>: CustomStringConvertible {
  /// The test sends an event (it is reduced before `send` returns).
  case send(Event)
  /// The test clock moves forward, waking timers in order and running what
  /// they trigger.
  case advance(milliseconds: Int)
  /// The manual executor runs every effect to its next suspension point.
  case settle

  var description: String {
    switch self {
    case .send(let event): "send(\(event))"
    case .advance(let milliseconds): "advance(\(milliseconds) ms)"
    case .settle: "settle"
    }
  }

}

/// A random schedule: events the test sends, interleaved with the clock
/// moving and the effects running.
struct Script<Event: Sendable>: CustomStringConvertible {
  var steps: [Step<Event>]

  /// Shrinks by dropping steps and shortening waits (the library's array
  /// and integer shrinkers).
  static func generator<Shrinks>(
    events: Generator<Event, Shrinks>, length: ClosedRange<Int> = 1...40
  ) -> Generator<Script, some SendableSequenceType> {
    Gen<Step<Event>>.frequency(
      (weight: 5, gen: events.map { .send($0) }),
      (weight: 3, gen: Gen.int(in: 0...400).map { .advance(milliseconds: $0) }),
      (weight: 2, gen: Gen.always(.settle))
    )
    .array(of: length)
    .map { Script(steps: $0) }
  }

  var description: String {
    steps.isEmpty
      ? "    (no steps)" : steps.enumerated().map { "    \($0.offset): \($0.element)" }.joined(separator: "\n")
  }

  /// Runs the steps, then lets every timer fire and every effect end.
  func run<State>(on system: System<State, Event>, _ harness: Harness) {
    harness.settle()
    for step in steps {
      switch step {
      case .send(let event): system.send(event)
      case .advance(let milliseconds): harness.clock.advance(by: .milliseconds(milliseconds))
      case .settle: harness.settle()
      }
    }
    harness.clock.run()
    harness.settle()
  }
}
