import FeedbackLoopDurable

extension DurableDownloads {
  /// One file: how many chunks it has, how many arrived, and when it retries.
  public struct File: Codable, Sendable, Equatable {
    public var name: String
    public var chunks: Int
    /// The chunks received, in order: the next one to fetch is `received`.
    public var received = 0
    /// The connections the server dropped for this file, in all.
    public var failures = 0
    /// The attempt the next request of the current chunk is (1 for a
    /// chunk never dropped).
    public var attempt = 1
    /// When the dropped chunk is asked for again; `nil` while downloading.
    public var retryAt: WallClock.Instant?

    public init(name: String, chunks: Int) {
      self.name = name
      self.chunks = chunks
    }

    public var isDone: Bool { received >= chunks }
    public var isDownloading: Bool { !isDone && retryAt == nil }
  }

  /// The files, in the order they were added.
  public struct State: Codable, Sendable, Equatable {
    public var files: [File] = []

    public init(files: [File] = []) { self.files = files }

    /// The chunk each downloading file asks for: the fetch feedback's requests.
    public var chunkRequests: Set<ChunkRequest> {
      Set(
        files.filter(\.isDownloading).map {
          ChunkRequest(file: $0.name, chunk: $0.received, attempt: $0.attempt)
        })
    }

    /// The earliest retry deadline: the retry timer's.
    public var nextRetry: WallClock.Instant? { files.compactMap(\.retryAt).min() }

    /// Whether there are files and every one of them arrived.
    public var isFinished: Bool { !files.isEmpty && files.allSatisfy(\.isDone) }
  }
}
