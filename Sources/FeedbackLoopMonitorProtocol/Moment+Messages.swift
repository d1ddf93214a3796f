import FeedbackLoop
import FeedbackLoopDebugging

extension Moment {
  /// The inspection messages of a recorded moment: its `started` or
  /// `reduced` message, then its effects, discarded events and stop; how a
  /// timeline recorded before the monitor connected (or read from a file)
  /// reaches the page.
  ///
  /// ```swift
  /// for moment in recorder.moments {
  ///   for message in try moment.appMessages(system: "search", serializer: .codable) {
  ///     send(try message.monitorLine())
  ///   }
  /// }
  /// ```
  public func appMessages(system: String, serializer: InspectionSerializer<State, Event>) throws -> [AppMessage] {
    let time = self.time.map { Double($0.components.seconds) + Double($0.components.attoseconds) / 1e18 }
    var messages: [AppMessage] = []
    func append(_ message: InspectionMessage, moment: UInt64? = nil) {
      messages.append(AppMessage(type: .activity, moment: moment, message: message))
    }
    if let event {
      append(
        InspectionMessage(
          system: system, sequence: 0, time: time, kind: .reduced, event: try serializer.event(event), source: source,
          state: try serializer.state(state)), moment: sequence)
    } else {
      append(
        InspectionMessage(system: system, sequence: 0, time: time, kind: .started, state: try serializer.state(state)),
        moment: sequence)
    }
    for change in effects {
      let kind: InspectionMessage.Kind =
        switch change.kind {
        case .queued: .effectQueued
        case .started: .effectStarted
        case .cancelled: .effectCancelled
        case .finished: .effectFinished
        case .failed: .effectFailed
        }
      append(InspectionMessage(system: system, sequence: 0, kind: kind, effect: change.effect, error: change.error))
    }
    for discarded in self.discarded {
      append(
        InspectionMessage(
          system: system, sequence: 0, kind: .eventDiscarded, event: try serializer.event(discarded.event),
          reason: discarded.reason))
    }
    if stopped { append(InspectionMessage(system: system, sequence: 0, kind: .stopped)) }
    return messages
  }
}
