/// One assertion of a test that did not hold: what differs, where, and the
/// timeline of the system up to that point.
///
/// A ``TestFailureReporter`` receives each failure. The automatic reporter
/// records it as a Swift Testing issue or an XCTest failure, with the
/// timeline after the message; a reporter of your own can collect failures
/// to check them:
///
/// ```swift
/// let failures = FailureLog()  // a locked array of your own
/// let hud = TestSystem(
///   initial: HUD.State(), reduce: HUD.reduce, feedbacks: HUD.feedbacks,
///   reporter: TestFailureReporter { failure in failures.append(failure) }
/// )
/// hud.send(.tap)
/// #expect(failures.all.map(\.kind) == [.stateMismatch])
/// ```
public struct TestFailure: Sendable, CustomStringConvertible {
  /// What kind of assertion failed.
  ///
  /// It grows: a later version may add a case. End a `switch` over it with
  /// `default:` or `@unknown default:`, so that a new case does not break your
  /// build.
  public enum Kind: Sendable, Hashable, CustomStringConvertible {
    /// An event changed the state otherwise than the test said.
    case stateMismatch
    /// `receive` expected an event, and the next event received was another one.
    case unexpectedEvent
    /// `receive` expected an event, and none was received.
    case noEventReceived
    /// Events that effects produced were not asserted with `receive`
    /// before the test sent another event or finished.
    case eventsNotReceived
    /// The test finished with effects still running.
    case effectsInFlight
    /// An effect threw an error that its `catch` did not map to an event,
    /// and the test did not assert it.
    case unmappedError
    /// A sent event never reached the reducer (the system had stopped).
    case eventNotReduced
    /// A transition of a reducer did not give the expected state.
    case transition
    /// The system's effects never came to rest: they kept running without
    /// waiting for the clock or anything outside. The system is stopped.
    case runaway
    /// The kit was used in a way it cannot check (e.g. sending after
    /// `finish()`).
    case misuse
    /// A child system the test stubbed was never started by its parent
    /// (see ``ChildSystemStubs``), or a child the test did not stub was.
    case childSystem

    public var description: String {
      switch self {
      case .stateMismatch: "state mismatch"
      case .unexpectedEvent: "unexpected event"
      case .noEventReceived: "no event received"
      case .eventsNotReceived: "events not received"
      case .effectsInFlight: "effects in flight"
      case .unmappedError: "unmapped error"
      case .eventNotReduced: "event not reduced"
      case .transition: "transition"
      case .runaway: "runaway"
      case .misuse: "misuse"
      case .childSystem: "child system"
      }
    }
  }

  /// What kind of assertion failed.
  public let kind: Kind
  /// What differs, with a diff of expected (`−`) and actual (`+`) values
  /// where there is one.
  public let message: String
  /// The system's timeline up to the failure, rendered, when a system was
  /// under test (``Timeline``).
  public let timeline: String?
  /// The assertion's call site.
  public let location: CallSite

  /// A failure; the kit makes these, a custom reporter receives them.
  public init(kind: Kind, message: String, timeline: String? = nil, location: CallSite) {
    self.kind = kind
    self.message = message
    self.timeline = timeline
    self.location = location
  }

  /// The message, then the timeline, as the automatic reporter records it.
  public var description: String {
    guard let timeline else { return message }
    return message + "\n\n" + timeline
  }
}
