import ArgumentParser

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `feedbackloop-examples`: lists the examples, or runs one.
public struct ExamplesCommand: AsyncParsableCommand {
  /// The command's name, abstract and discussion, as `--help` shows them.
  public static let configuration = CommandConfiguration(
    commandName: "feedbackloop-examples",
    abstract: "The FeedbackLoop examples: small programs, each a feedback loop at work.",
    discussion: """
      With no NAME, lists the examples, one line each. With a NAME, runs that example \
      and prints its timeline: each event, the state it produced, and the effects \
      started, cancelled and finished, with the time.

      When standard input is a terminal, the example is interactive: keys send events \
      (the example lists its keys). Otherwise, or with --scripted, it plays a scripted \
      session that ends by itself in a few seconds, so that it runs in a pipe and in CI.

      With --monitor and --secret, the example's timeline also streams to a running \
      feedbackloop-monitor, to watch on its page.

      Examples: \(Examples.all.map(\.name).joined(separator: ", ")).
      """
  )

  /// The example to run.
  @Argument(
    help: ArgumentHelp(
      "The example to run (\(Examples.all.map(\.name).joined(separator: ", "))). Leave it out to list them.",
      valueName: "name"))
  public var name: String?

  /// Plays the scripted session even in a terminal.
  @Flag(help: "Play the scripted session even when standard input is a terminal.")
  public var scripted = false

  /// The search server's port.
  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "The port the search example's server listens on, on 127.0.0.1.",
      discussion: "0, the default, lets the system pick a free port; the example prints the one it got."))
  public var port = 0

  /// The search server's latency, in milliseconds.
  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "How long the search server waits before each answer, in milliseconds.",
      discussion: "By default 400 in an interactive session, 150 in a scripted one."))
  public var latency: Int?

  /// The running monitor to stream the example to.
  @Option(
    help: ArgumentHelp(
      "Stream the example's timeline to a running feedbackloop-monitor: the port it prints for applications.",
      discussion: "PORT or HOST:PORT (127.0.0.1 by default); give its --secret too.",
      valueName: "port"))
  public var monitor: String?

  /// The monitor's secret.
  @Option(help: ArgumentHelp("The secret the monitor printed when it started.", valueName: "secret"))
  public var secret: String?

  /// The durable example's folder.
  @Option(
    help: ArgumentHelp(
      "The folder where the durable example keeps its SQLite journal and its server's table of served requests.",
      discussion:
        "By default feedbackloop-durable-downloads in the temporary directory (interactive), a new folder removed at the end (scripted).",
      valueName: "path"))
  public var dataDirectory: String?

  /// The durable example's seed.
  @Option(
    help: ArgumentHelp(
      "The seed of the durable example: which connections its server drops, and when the scripted session kills its child.",
      discussion: "1 by default.",
      valueName: "seed"))
  public var seed: UInt64?

  /// Where the durable example writes its journal as a timeline file.
  @Option(
    help: ArgumentHelp(
      "Write the durable example's journal (in --data-directory) as a timeline file, every state folded through its reducer, and stop.",
      discussion: "feedbackloop-monitor FILE.jsonl opens it.",
      valueName: "file.jsonl"))
  public var timeline: String?

  /// Runs the durable example's scripted child, which its parent starts.
  @Flag(help: .hidden)
  public var child = false

  /// A command with the defaults; ArgumentParser fills it in.
  public init() {}

  /// Checks the options before anything runs.
  public mutating func validate() throws {
    guard (0...65_535).contains(port) else { throw ValidationError("--port must be between 0 and 65535.") }
    if let latency, latency < 0 { throw ValidationError("--latency must be 0 or more, not \(latency).") }
    _ = try monitorTarget()
    try refuseDurableOptionsForOtherExamples()
  }

  /// The options only the durable example reads. Another example would run
  /// without them and leave the user believing they took effect.
  func refuseDurableOptionsForOtherExamples() throws {
    guard let name, name != DurableDownloadsDemo.example.name, Examples.named(name) != nil else { return }
    let given = [
      dataDirectory.map { _ in "--data-directory" }, seed.map { _ in "--seed" }, timeline.map { _ in "--timeline" },
    ].compactMap { $0 }
    guard let first = given.first else { return }
    throw ValidationError(
      "\(first) is an option of the durable-downloads example only; \(name) does not read it.")
  }

  /// Where to stream the example, from `--monitor` and `--secret`.
  func monitorTarget() throws -> MonitorTarget? {
    switch (monitor, secret) {
    case (nil, nil): return nil
    case (nil, _): throw ValidationError("--secret goes with --monitor PORT.")
    case (_?, nil): throw ValidationError("--monitor needs the monitor's --secret, printed when it started.")
    case (let address?, let secret?):
      guard let target = MonitorTarget(address: address, secret: secret) else {
        throw ValidationError(
          "--monitor takes PORT or HOST:PORT (the monitor's port for applications), not \(address).")
      }
      return target
    }
  }

  /// Lists the examples or runs one: interactive when standard input is a
  /// terminal (and `--scripted` is not given), scripted otherwise.
  public func run() async throws {
    // A reader that goes away (`… | head`) makes a write fail, which ends the
    // example quietly with the terminal restored, rather than a signal.
    signal(SIGPIPE, SIG_IGN)
    let latency = latency.map { Duration.milliseconds($0) }
    let keyboard =
      scripted || child || timeline != nil || name == nil || Examples.named(name ?? "") == nil ? nil : TerminalKeys()
    let target = try monitorTarget()
    var session =
      keyboard.map {
        ExampleSession(console: .standardOutput, keys: $0.keys, port: port, latency: latency, monitorTarget: target)
      } ?? ExampleSession(console: .standardOutput, port: port, latency: latency, monitorTarget: target)
    session.durable = DurableOptions(directory: dataDirectory, seed: seed ?? 1, isChild: child, timelinePath: timeline)
    defer { keyboard?.restore() }
    do {
      try await Launcher.run(name, in: session, errors: .standardError)
    } catch Launcher.Failure.unknownExample {
      throw ExitCode(64)
    } catch let error as MonitorStreamFailure {
      Console.standardError.line("error: --monitor: \(error)")
      throw ExitCode.failure
    }
    if let status = Self.exitStatus(after: session) { throw ExitCode(status) }
  }

  /// 130 after Control-C (128 + SIGINT, what a shell reports for a program
  /// the signal ended: raw mode turns the key into a byte, not a signal),
  /// `nil` for an ordinary end.
  static func exitStatus(after session: ExampleSession) -> Int32? {
    session.interruption.happened ? 128 + SIGINT : nil
  }
}
