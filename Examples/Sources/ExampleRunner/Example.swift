/// One runnable example: the name the command knows it by, the line that
/// lists it, and how it runs.
public struct Example: Sendable {
  /// The name to run it by: `feedbackloop-examples NAME`.
  public let name: String
  /// One line: what it shows.
  public let summary: String
  /// Plays the session: interactive when the session has keys, scripted otherwise.
  let run: @Sendable (ExampleSession) async throws -> Void

  /// Runs the example in `session`.
  public func run(in session: ExampleSession) async throws {
    do {
      try await run(session)
    } catch {
      await session.monitorLinks.closeAll()
      throw error
    }
    await session.monitorLinks.closeAll()
  }

  /// Prints the example's name, how time goes in this session, and the
  /// timeline's legend.
  func printHeader(_ session: ExampleSession, time: String) {
    session.console.lines(
      ["\(name): \(summary)", time, ""] + TimelinePrinter<Int, Int>.legend + [""])
  }

  /// What an interactive session on the real clock says about time.
  static let interactiveTime =
    "Interactive session on the real ContinuousClock: press the keys below, and watch the loop answer."
}
