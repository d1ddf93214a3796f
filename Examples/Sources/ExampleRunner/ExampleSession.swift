/// What an example runs with: where it writes, whether a person is at the
/// keyboard, and the options of the command.
public struct ExampleSession: Sendable {
  /// Where the timeline and the narration go.
  public var console: Console
  /// The keys of an interactive session; `nil` plays the scripted session.
  var keys: AsyncStream<Key>?
  /// The port the search server listens on; 0 lets the system pick one.
  public var port: Int
  /// How long the search server waits before each answer, if the command set it.
  public var latency: Duration?
  /// Whether the person pressed Control-C, which ends the command with
  /// status 130, as a shell reports an interrupted program.
  let interruption = Interruption()
  /// The running monitor the example streams to, if the command was given one.
  public var monitorTarget: MonitorTarget?
  /// The links to it, closed when the example ends.
  let monitorLinks = MonitorLinks()
  /// The durable example's options: where it keeps its journal, its seed,
  /// and whether this process is the scripted session's child.
  public var durable = DurableOptions()

  /// A scripted session: what tests and pipes run.
  public init(console: Console, port: Int = 0, latency: Duration? = nil, monitorTarget: MonitorTarget? = nil) {
    self.console = console
    self.keys = nil
    self.port = port
    self.latency = latency
    self.monitorTarget = monitorTarget
  }

  /// An interactive session, reading `keys`.
  init(console: Console, keys: AsyncStream<Key>, port: Int, latency: Duration?, monitorTarget: MonitorTarget? = nil) {
    self.console = console
    self.keys = keys
    self.port = port
    self.latency = latency
    self.monitorTarget = monitorTarget
  }

  /// Whether a person drives the session with keys.
  public var isInteractive: Bool { keys != nil }
}
