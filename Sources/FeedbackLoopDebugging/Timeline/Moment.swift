import FeedbackLoop

/// One moment of a system's life: the start, or one event reduced, with the
/// state it produced and what the effects did until the next moment.
///
/// A timeline is an array of moments in sequence order. Moment 0 is the
/// start (no event; ``state`` is the initial state); each later moment is
/// one reduction. Effect activity reported after a reduction (the feedbacks
/// react to the new state, effects end while it is current) belongs to that
/// reduction's moment, so ``effects`` answers "what did the system do while
/// it was in this state?".
///
/// In memory a moment needs nothing of `State` and `Event`; it is `Codable`
/// when they are, to be written to a file.
///
/// ```swift
/// let recorder = Recorder<Search.State, Search.Event>(capacity: 500)
/// let system = System(initial: .init(), reduce: Search.reduce, monitor: recorder.monitor)
/// system.send(.queryChanged("swift"))
/// recorder.moments.last?.event  // .queryChanged("swift")
/// ```
public struct Moment<State: Sendable, Event: Sendable>: Sendable {
  /// The moment's number: 0 for the start, then one per reduction, with no gap
  /// unless the recorder dropped moments (and said so).
  public var sequence: UInt64
  /// The time on the recorder's clock (the system's clock when the recorder
  /// is given it) since the recorder started, or `nil` when no clock was given.
  public var time: Duration?
  /// The event reduced, or `nil` for the start.
  public var event: Event?
  /// Who sent ``event``; `nil` for the start.
  public var source: MomentSource?
  /// The state the moment produced (the initial state for the start).
  public var state: State
  /// What effects did from this moment until the next one, in order.
  public var effects: [EffectChange]
  /// Events refused or dropped while this moment was current (G4, G14).
  public var discarded: [DiscardedEvent<Event>]
  /// `true` for the moment whose system stopped.
  public var stopped: Bool

  @inlinable public init(
    sequence: UInt64, time: Duration? = nil, event: Event? = nil, source: MomentSource? = nil, state: State,
    effects: [EffectChange] = [], discarded: [DiscardedEvent<Event>] = [], stopped: Bool = false
  ) {
    self.sequence = sequence
    self.time = time
    self.event = event
    self.source = source
    self.state = state
    self.effects = effects
    self.discarded = discarded
    self.stopped = stopped
  }

  /// Whether this moment is the system's start.
  public var isStart: Bool { event == nil }

  /// Whether this moment is the one numbered right after `previous`.
  ///
  /// Sequence numbers do not wrap: a recorder would need 2^64 reductions to
  /// reach `UInt64.max`, so no moment follows a moment numbered so (a file
  /// that says otherwise has a gap there).
  func directlyFollows(_ previous: Moment) -> Bool {
    previous.sequence < .max && sequence == previous.sequence + 1
  }
}

extension Moment: Equatable where State: Equatable, Event: Equatable {}

extension Moment: Codable where State: Codable, Event: Codable {
  enum CodingKeys: String, CodingKey {
    case sequence, time, event, source, state, effects, discarded, stopped
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    sequence = try container.decode(UInt64.self, forKey: .sequence)
    time = try container.decodeIfPresent(TimelineDuration.self, forKey: .time)?.duration
    event = try container.decodeIfPresent(Event.self, forKey: .event)
    source = try container.decodeIfPresent(MomentSource.self, forKey: .source)
    state = try container.decode(State.self, forKey: .state)
    effects = try container.decodeIfPresent([EffectChange].self, forKey: .effects) ?? []
    discarded = try container.decodeIfPresent([DiscardedEvent<Event>].self, forKey: .discarded) ?? []
    stopped = try container.decodeIfPresent(Bool.self, forKey: .stopped) ?? false
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(sequence, forKey: .sequence)
    try container.encodeIfPresent(time.map(TimelineDuration.init), forKey: .time)
    try container.encodeIfPresent(event, forKey: .event)
    try container.encodeIfPresent(source, forKey: .source)
    try container.encode(state, forKey: .state)
    if !effects.isEmpty { try container.encode(effects, forKey: .effects) }
    if !discarded.isEmpty { try container.encode(discarded, forKey: .discarded) }
    if stopped { try container.encode(stopped, forKey: .stopped) }
  }
}

/// A duration as seconds in JSON (`1.25`): readable, and any tool can parse it.
///
/// Read back, a time must be a number of seconds from 0 to below 2^63
/// (what a `Duration`'s whole seconds hold, so that every time a recorder
/// stamps, a test clock's centuries on too, reads back): a line with a
/// negative, infinite or larger time is reported by the reader as
/// undecodable at `time`, never converted with a trap.
struct TimelineDuration: Codable {
  var duration: Duration

  init(_ duration: Duration) { self.duration = duration }

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let seconds = try container.decode(Double.self)
    guard seconds.isFinite, seconds >= 0, seconds < 0x1p63 else {
      throw DecodingError.dataCorruptedError(
        in: container, debugDescription: "a time must be a number of seconds from 0 to below 2^63, not \(seconds)")
    }
    // Whole seconds and nanoseconds apart: nanoseconds alone (an Int64) would end at about 292 years.
    let whole = seconds.rounded(.down)
    duration = .seconds(Int64(whole)) + .nanoseconds(Int64(((seconds - whole) * 1e9).rounded()))
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    let (seconds, attoseconds) = duration.components
    try container.encode(Double(seconds) + Double(attoseconds) / 1e18)
  }
}
