/// One recorded transition as a test fixture: given this state, when this
/// event is reduced, then the state is that one.
///
/// ```swift
/// let fixtures = Fixture.from(recorder.moments, selecting: [3, 4])
/// let data = try JSONEncoder().encode(fixtures)  // beside the generated test
/// ```
public struct Fixture<State: Sendable, Event: Sendable>: Sendable {
  /// The moment it was taken from.
  public var sequence: UInt64
  /// The state before the event (the previous moment's state).
  public var given: State
  /// The event reduced.
  public var when: Event
  /// The state the event produced.
  public var then: State

  public init(sequence: UInt64, given: State, when: Event, then: State) {
    self.sequence = sequence
    self.given = given
    self.when = when
    self.then = then
  }

  /// The fixtures of the moments numbered in `selection` (all of them when
  /// `nil`) whose previous moment is recorded too: a moment without its
  /// predecessor has no "given".
  public static func from(
    _ moments: [Moment<State, Event>], selecting selection: Set<UInt64>? = nil
  ) -> [Fixture] {
    zip(moments, moments.dropFirst()).compactMap { previous, moment in
      guard let event = moment.event, moment.directlyFollows(previous),
        selection?.contains(moment.sequence) ?? true
      else { return nil }
      return Fixture(sequence: moment.sequence, given: previous.state, when: event, then: moment.state)
    }
  }
}

extension Fixture: Equatable where State: Equatable, Event: Equatable {}
extension Fixture: Codable where State: Codable, Event: Codable {}
