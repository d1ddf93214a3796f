import FeedbackLoop

/// One activity of one system, as the inspection stream hands it to its
/// consumers: the activity, the system it came from (and that system's
/// parent, once systems have children), its number and its time.
///
/// The recorder, the monitor's client and any other tool consume the same
/// stream; ``InspectionMessage`` is its documented JSON form.
public struct Inspection<State: Sendable, Event: Sendable>: Sendable {
  /// The id of the system that did it.
  public var system: String
  /// The id of the system that owns it, if any.
  public var parent: String?
  /// The activity's number in its system, from 0, without gaps.
  public var sequence: UInt64
  /// The time on the stream's clock since the stream started, if it has one.
  public var time: Duration?
  /// What happened.
  public var activity: SystemActivity<State, Event>
  /// The error's description, for an `.effectFailed` from the stream: made
  /// once, before the stream took its lock (the error's `description` is the
  /// app's code, and may send to a system or read a recorder). Use it rather
  /// than describing the error again in a consumer.
  ///
  /// ```swift
  /// stream.add { inspection in
  ///   if let error = inspection.errorDescription { log.append("failed: \(error)") }
  /// }
  /// ```
  public var errorDescription: String?

  @inlinable public init(
    system: String, parent: String? = nil, sequence: UInt64, time: Duration? = nil,
    activity: SystemActivity<State, Event>, errorDescription: String? = nil
  ) {
    self.system = system
    self.parent = parent
    self.sequence = sequence
    self.time = time
    self.activity = activity
    self.errorDescription = errorDescription
  }
}
