/// A reel is written as its initializer reads, `Reel(queue:previous:memory:endedDrivers:isSuspended:)`:
/// the queue (the current frame first), the previous frames, the memory, the
/// ended drivers and, when true, whether its animation is suspended, so that a timeline file, a fixture or the monitor's page shows
/// and edits what a test writes.
///
/// ```swift
/// let reel = Reel(queue: [1, 2], previous: [0], memory: 1)
/// let json = try JSONEncoder().encode(reel)  // {"queue":[1,2],"previous":[0],"memory":1,"endedDrivers":[]}
/// ```
extension Reel: Codable where Frame: Codable {
  private enum CodingKeys: String, CodingKey {
    case queue, previous, memory, endedDrivers, isSuspended
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(Array(queue), forKey: .queue)
    try container.encode(Array(previous), forKey: .previous)
    try container.encode(memory, forKey: .memory)
    try container.encode(endedDrivers, forKey: .endedDrivers)
    // Written only when true, so that the files of reels that never
    // suspended read as before.
    if isSuspended { try container.encode(true, forKey: .isSuspended) }
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let queue = try container.decode([Frame].self, forKey: .queue)
    let memory = try container.decodeIfPresent(Int.self, forKey: .memory) ?? 1
    // A file or an edited state is input: refused with a decoding error, not stopped as a misuse.
    guard !queue.isEmpty else {
      throw DecodingError.dataCorruptedError(
        forKey: .queue, in: container, debugDescription: "a reel's queue holds at least the current frame")
    }
    guard memory >= 0 else {
      throw DecodingError.dataCorruptedError(
        forKey: .memory, in: container, debugDescription: "a reel keeps zero or more previous frames; got \(memory)")
    }
    let isSuspended = try container.decodeIfPresent(Bool.self, forKey: .isSuspended) ?? false
    guard !isSuspended || queue.count > 1 else {
      throw DecodingError.dataCorruptedError(
        forKey: .isSuspended, in: container,
        debugDescription: "a reel with no frame queued behind the current one has no animation to suspend")
    }
    self.init(
      queue: queue, previous: try container.decodeIfPresent([Frame].self, forKey: .previous) ?? [], memory: memory,
      endedDrivers: try container.decodeIfPresent([DriverEnd].self, forKey: .endedDrivers) ?? [],
      isSuspended: isSuspended)
  }
}

/// A reel dumps as its initializer reads (swift-custom-dump, `dump`, a test
/// failure's diff): `Reel(queue: [...], previous: [...], memory: 1, endedDrivers: [])`,
/// not its storage.
extension Reel: CustomReflectable {
  public var customMirror: Mirror {
    // `isSuspended` only when true: the initializer's default is left out,
    // as a test leaves it out.
    let children: KeyValuePairs<String, Any> =
      isSuspended
      ? [
        "queue": Array(queue), "previous": Array(previous), "memory": memory, "endedDrivers": endedDrivers,
        "isSuspended": true,
      ]
      : ["queue": Array(queue), "previous": Array(previous), "memory": memory, "endedDrivers": endedDrivers]
    return Mirror(self, children: children, displayStyle: .struct)
  }
}
