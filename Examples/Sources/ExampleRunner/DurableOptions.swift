/// What the durable example runs with, from the command's options.
public struct DurableOptions: Sendable, Equatable {
  /// The folder of the journal and of the download server's table; `nil`:
  /// a folder of its own in the temporary directory (interactive), a new
  /// one removed at the end (scripted).
  public var directory: String?
  /// Where the server drops connections, and when the scripted session
  /// kills its child.
  public var seed: UInt64 = 1
  /// Whether this process is the scripted session's child: it runs the
  /// downloads on the real clock, prints its timeline, and ends when they
  /// are done (or when its parent kills it).
  public var isChild = false
  /// Where to write the journal as a timeline file, instead of running.
  public var timelinePath: String?

  public init(directory: String? = nil, seed: UInt64 = 1, isChild: Bool = false, timelinePath: String? = nil) {
    self.directory = directory
    self.seed = seed
    self.isChild = isChild
    self.timelinePath = timelinePath
  }
}
