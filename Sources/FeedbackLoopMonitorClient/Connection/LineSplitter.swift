/// Cuts the bytes a connection reads into lines: the monitor's protocol is
/// one JSON object a line. A read may end inside a line, or hold several;
/// the part of a line not yet ended waits for the next read.
///
/// A line ends at LF, and a CR before the LF is not part of it, as the
/// monitor's own framing reads lines.
struct LineSplitter {
  private var pending: [UInt8] = []

  /// The lines that `bytes` ends, in order.
  mutating func lines(endedBy bytes: UnsafeRawBufferPointer) -> [String] {
    var lines: [String] = []
    var start = 0
    for index in bytes.indices where bytes[index] == 0x0A {
      pending.append(contentsOf: bytes[start..<index])
      if pending.last == 0x0D { pending.removeLast() }
      lines.append(String(decoding: pending, as: UTF8.self))
      pending.removeAll(keepingCapacity: true)
      start = index + 1
    }
    pending.append(contentsOf: bytes[start...])
    return lines
  }

  /// How many bytes wait for their line's end.
  var pendingCount: Int { pending.count }
}
