/// What the command does, apart from parsing its arguments: list the
/// examples, or run one in the session its terminal allows.
public enum Launcher {
  /// The lines that list the examples.
  public static var listing: [String] {
    ["The FeedbackLoop examples: small programs, each a feedback loop at work.", ""]
      + Examples.list
      + [
        "",
        "Run one:  swift run --package-path Examples feedbackloop-examples NAME",
        "In a terminal it is interactive (keys send events); in a pipe or CI it plays a scripted session.",
      ]
  }

  /// Why the command exits with an error.
  public enum Failure: Error, Equatable {
    /// No example has this name.
    case unknownExample(String)
  }

  /// The lines that say an example is unknown, and list the known ones.
  public static func unknown(_ name: String) -> [String] {
    ["error: there is no example called \"\(name)\". The examples are:"] + Examples.list
  }

  /// Lists the examples when `name` is `nil`; otherwise runs the example
  /// called `name` in `session`.
  ///
  /// - Throws: ``Failure/unknownExample(_:)`` after writing the known
  ///   examples to `errors`; whatever the example throws.
  public static func run(_ name: String?, in session: ExampleSession, errors: Console) async throws {
    guard let name else {
      session.console.lines(listing)
      return
    }
    guard let example = Examples.named(name) else {
      errors.lines(unknown(name))
      throw Failure.unknownExample(name)
    }
    try await example.run(in: session)
  }
}
