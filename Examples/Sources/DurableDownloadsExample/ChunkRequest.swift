/// A request for one chunk of a file: what the fetch feedback starts an
/// effect for, and, as text, the last part of that effect's idempotency key.
public struct ChunkRequest: Hashable, Sendable, CustomStringConvertible {
  public var file: String
  /// The chunk's index, from 0.
  public var chunk: Int
  /// 1 for the first request of this chunk, then one more per dropped connection.
  public var attempt: Int

  public init(file: String, chunk: Int, attempt: Int) {
    self.file = file
    self.chunk = chunk
    self.attempt = attempt
  }

  /// `atlas.iso chunk 2 attempt 1`: the same in every process, so that the
  /// effect's key is too.
  public var description: String { "\(file) chunk \(chunk) attempt \(attempt)" }
}
