import FeedbackLoop

#if canImport(Combine)
  import Combine
#elseif canImport(OpenCombine)
  import OpenCombine
#endif

#if canImport(Combine) || canImport(OpenCombine)
  extension Feedback {
    /// Binds a Combine publisher of events to the system, for the system's
    /// lifetime (G8): CombineFeedback's and Feedbacks' inputs (a subject the
    /// UI sends to, a notification publisher) keep working as they are.
    ///
    /// The publisher is subscribed when the system starts its inputs (in a
    /// task on the environment's effect executor), with unlimited demand; the
    /// subscription is cancelled when the system stops. Its events reach the
    /// reducer in the order it sends them, with one hop; on a main-actor
    /// system, events it sends before the subscription is made are not seen,
    /// as with any Combine subscription. When it completes, the input ends.
    /// (With OpenCombine where Combine does not exist.)
    ///
    /// ```swift
    /// let taps = PassthroughSubject<HUD.Event, Never>()
    /// let store = Store(initial: HUD.State(), reduceReturning: HUD.reduce, feedbacks: [.input(taps)])
    /// taps.send(.tap)
    /// ```
    public static func input<Events: Publisher>(
      _ publisher: Events,
      name: String? = nil,
      fileID: StaticString = #fileID,
      line: UInt = #line
    ) -> Feedback where Events.Output == Event, Events.Failure == Never {
      .input(PublisherEvents(upstream: publisher), name: name, fileID: fileID, line: line)
    }
  }
#endif
