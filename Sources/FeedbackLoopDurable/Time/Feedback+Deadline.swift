import FeedbackLoop

extension Feedback {
  /// A timer whose deadline is kept in the state: while `deadline` gives an
  /// instant, an effect waits until it on the system's `Send.wallClock`,
  /// then sends `fire(deadline)`.
  ///
  /// It is a query feedback (G4) over the deadline, so it survives a
  /// restart: a restored state that still holds the deadline starts the wait
  /// again (G1), and the timer fires at its original deadline, or at once if
  /// that has passed while the process was down. A changed deadline restarts
  /// the wait; `nil` cancels it. Clear the deadline in the reducer when the
  /// timer fires or is cancelled, so that a restore does not fire it again.
  ///
  /// ```swift
  /// struct Checkout: Codable, Sendable {
  ///   var paymentDeadline: WallClock.Instant?
  /// }
  /// // .started(at:) sets `paymentDeadline` 15 minutes later; .paymentTimedOut clears it.
  /// let timeout = Feedback<Checkout, CheckoutEvent>.deadline(\.paymentDeadline) { _ in .paymentTimedOut }
  /// ```
  ///
  /// - Parameters:
  ///   - deadline: the instant to wait for, or `nil` for none.
  ///   - name: the name monitors show; by default `query@File.swift:line`.
  ///   - fileID: where the feedback is made, for its default name.
  ///   - line: where the feedback is made, for its default name.
  ///   - fire: the event to send when the deadline comes.
  public static func deadline(
    _ deadline: @escaping @Sendable (State) -> WallClock.Instant?,
    name: String? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    fire: @escaping @Sendable (WallClock.Instant) -> Event
  ) -> Feedback {
    .query(deadline, name: name, fileID: fileID, line: line) { instant in
      .run { send in
        try await send.wallClock.sleep(until: instant)
        send(fire(instant))
      }
    }
  }
}
