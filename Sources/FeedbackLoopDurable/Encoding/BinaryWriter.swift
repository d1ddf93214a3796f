import Foundation

/// Writes one ``BinaryDurableCodec`` document, in the order `Codable`
/// hands the values over.
///
/// The bytes are written as they come, so each open container is a frame
/// on a stack: writing to a container closes the frames above it (their
/// end markers are written), and a value's frames are closed when its
/// `encode(to:)` returns. A write to a frame already closed cannot be put
/// in its place; it is recorded as ``failure`` and thrown at the end
/// (the `Encoder` calls that open containers cannot throw).
///
/// ``JSONDurableCodec`` uses it too, with `forJSON`: the document is then
/// only a step on the way to JSON text (``JSONTranscoder``), never stored,
/// and the writer writes the few types JSONEncoder treats in its own way as
/// JSONEncoder does, and records as a ``failure`` what the transcoder could
/// not write as JSONEncoder would (the codec then asks JSONEncoder).
final class BinaryWriter {
  enum Kind {
    /// A place for exactly one value (the root, a key's or an element's
    /// value, a `superEncoder`'s).
    case slot
    case keyed
    case unkeyed
  }

  struct Frame {
    var id: Int
    var kind: Kind
    /// The key the frame's value sits under, for coding paths.
    var key: (any CodingKey)?
    /// Where the frame's bytes start (a slot's: after its key).
    var start: Int
    /// A slot's container, returned again when the type asks twice.
    var container: Int?
  }

  // One encoding uses a writer, on one thread, and its containers call it
  // one at a time: Swift's dynamic exclusivity checks on these fields (a
  // runtime call per access, about 6% of an event's encoding, BENCHMARKS.md)
  // guard nothing here.
  @exclusivity(unchecked) var bytes: [UInt8] = []
  @exclusivity(unchecked) private var frames: [Frame] = []
  @exclusivity(unchecked) private var nextID = 0
  @exclusivity(unchecked) private(set) var failure: EncodingError?
  /// True when the root value encoded nothing at all, which JSONEncoder
  /// refuses (a nested one is `{}` in both).
  @exclusivity(unchecked) private(set) var rootEncodedNothing = false

  /// Whether the document is for ``JSONTranscoder`` rather than stored.
  let forJSON: Bool

  init(forJSON: Bool = false) {
    self.forJSON = forJSON
    bytes.reserveCapacity(64)
    frames.reserveCapacity(8)
  }

  func encodeRoot(_ value: some Encodable) throws {
    let slot = pushSlot(key: nil)
    try encodeValue(value, in: slot)
    if let failure { throw failure }
  }

  // MARK: Frames

  private func pushSlot(key: (any CodingKey)?) -> Int {
    nextID += 1
    frames.append(Frame(id: nextID, kind: .slot, key: key, start: bytes.count))
    return nextID
  }

  /// Closes the frames above `id`; false (and a failure) when `id` is
  /// closed already.
  func activate(_ id: Int) -> Bool {
    if frames.last?.id == id { return true }
    guard let index = frames.lastIndex(where: { $0.id == id }) else {
      fail("a container was written to after a later value was encoded beside it")
      return false
    }
    close(above: index)
    return true
  }

  private func close(above index: Int) {
    while frames.count > index + 1 {
      let frame = frames.removeLast()
      switch frame.kind {
      case .keyed, .unkeyed: bytes.append(BinaryTag.end.rawValue)
      case .slot:
        if bytes.count == frame.start {
          if frames.isEmpty { rootEncodedNothing = true }
          bytes.append(BinaryTag.keyed.rawValue)
          bytes.append(BinaryTag.end.rawValue)
        }
      }
    }
  }

  /// Closes `slot` and what is above it.
  private func closeSlot(_ slot: Int) {
    guard let index = frames.lastIndex(where: { $0.id == slot }) else { return }
    close(above: index - 1)
  }

  /// How far the writer is: its bytes and its open frames.
  struct Mark {
    let bytes: Int
    let frames: Int
  }

  var mark: Mark { Mark(bytes: bytes.count, frames: frames.count) }

  /// Forgets a container's member or element whose value threw, written
  /// since `mark` while container `id` was the innermost frame: a caller
  /// that catches the error (`try? container.encode(value, forKey: key)`,
  /// a common way to skip what cannot be encoded) then finds nothing
  /// stored for it, as JSONEncoder stores nothing, rather than its key and
  /// the value's first half. Only if the container is still open where it
  /// was; a value that wrote to an outer container meanwhile (and closed
  /// this one) is left as it is, its error recorded or thrown.
  func rollBack(to mark: Mark, in id: Int) {
    guard frames.count >= mark.frames, mark.frames > 0, frames[mark.frames - 1].id == id,
      bytes.count >= mark.bytes
    else { return }
    frames.removeSubrange(mark.frames...)
    bytes.removeSubrange(mark.bytes...)
  }

  /// The failure recorded, to throw from a container's write.
  var recordedFailure: EncodingError {
    failure ?? .invalidValue((), EncodingError.Context(codingPath: [], debugDescription: "the encoding failed"))
  }

  func fail(_ message: String) {
    guard failure == nil else { return }
    failure = .invalidValue(
      message, EncodingError.Context(codingPath: codingPath(through: frames.last?.id ?? 0), debugDescription: message))
  }

  func codingPath(through id: Int) -> [any CodingKey] {
    var path: [any CodingKey] = []
    for frame in frames {
      if let key = frame.key { path.append(key) }
      if frame.id == id { break }
    }
    return path
  }

  /// Opens a container in `slot`, or returns the one it opened before.
  func openContainer(_ kind: Kind, in slot: Int) -> Int {
    if let index = frames.lastIndex(where: { $0.id == slot }), let existing = frames[index].container,
      frames[(index + 1)...].contains(where: { $0.id == existing && $0.kind == kind })
    {
      return activate(existing) ? existing : 0
    }
    guard activate(slot), let index = frames.lastIndex(where: { $0.id == slot }) else { return 0 }
    guard frames[index].container == nil else {
      fail("a second value was encoded where one was already")
      return 0
    }
    guard bytes.count == frames[index].start else {
      fail("a container was asked for where a value was already encoded")
      return 0
    }
    bytes.append(kind == .keyed ? BinaryTag.keyed.rawValue : BinaryTag.unkeyed.rawValue)
    nextID += 1
    frames[index].container = nextID
    frames.append(Frame(id: nextID, kind: kind, key: nil, start: bytes.count))
    return nextID
  }

  /// Opens a container nested in the active container, after its key.
  func openNested(_ kind: Kind, key: any CodingKey) -> Int {
    bytes.append(kind == .keyed ? BinaryTag.keyed.rawValue : BinaryTag.unkeyed.rawValue)
    nextID += 1
    frames.append(Frame(id: nextID, kind: kind, key: key, start: bytes.count))
    return nextID
  }

  /// A slot for a `superEncoder`, left open until its parent writes again.
  func openSuperSlot(key: any CodingKey) -> Int { pushSlot(key: key) }

  /// Before a single value is written in `slot`: false if it holds one.
  func claimSingle(_ slot: Int) -> Bool {
    guard activate(slot), let frame = frames.last else { return false }
    guard bytes.count == frame.start, frame.container == nil else {
      fail("a second value was encoded where one was already")
      return false
    }
    return true
  }

  // MARK: Values

  func encodeValue<Value: Encodable>(_ value: Value, key: (any CodingKey)?) throws {
    if try encodeKnown(value) { return }
    let slot = pushSlot(key: key)
    try encodeValue(value, in: slot)
  }

  private func encodeValue<Value: Encodable>(_ value: Value, in slot: Int) throws {
    if try !encodeKnown(value) {
      try value.encode(to: BinaryValueEncoder(writer: self, slot: slot))
    }
    closeSlot(slot)
    if let failure { throw failure }
  }

  /// The types written as one tagged value rather than through their own
  /// `encode(to:)`; true if `value` was one of them.
  @inline(__always)
  private func encodeKnown<Value: Encodable>(_ value: Value) throws -> Bool {
    // Metatype comparisons are pointer comparisons, unlike `as?` casts.
    if Value.self == String.self {
      write(value as! String)
    } else if Value.self == Int.self {
      writeSigned(Int64(value as! Int))
    } else if Value.self == UInt64.self {
      writeUnsigned(value as! UInt64)
    } else if Value.self == Bool.self {
      write(value as! Bool)
    } else if Value.self == Double.self {
      try write(value as! Double)
    } else if Value.self == Data.self {
      write(value as! Data)
    } else if forJSON {
      return encodeKnownToJSON(value)
    } else {
      return false
    }
    return true
  }

  /// The types JSONEncoder writes in its own way rather than through their
  /// `encode(to:)`: a URL as its `absoluteString`, a `Decimal` as a number.
  /// (JSONEncoder's casts also match an optional of them; an optional's
  /// `encode(to:)` comes back here with the unwrapped value, to the same
  /// text.)
  private func encodeKnownToJSON<Value: Encodable>(_ value: Value) -> Bool {
    if Value.self == URL.self {
      write((value as! URL).absoluteString)
    } else if Value.self == Decimal.self {
      writeJSONNumber((value as! Decimal).description)
    } else {
      return false
    }
    return true
  }

  func writeNil() { bytes.append(BinaryTag.null.rawValue) }

  func write(_ value: Bool) {
    bytes.append(value ? BinaryTag.trueValue.rawValue : BinaryTag.falseValue.rawValue)
  }

  func writeSigned(_ value: Int64) {
    bytes.append(BinaryTag.signed.rawValue)
    writeVarint(UInt64(bitPattern: (value &<< 1) ^ (value >> 63)))
  }

  func writeUnsigned(_ value: UInt64) {
    bytes.append(BinaryTag.unsigned.rawValue)
    writeVarint(value)
  }

  func write(_ value: Double) throws {
    if forJSON, !value.isFinite { throw nonFinite(value) }
    bytes.append(BinaryTag.double.rawValue)
    withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
  }

  func write(_ value: Float) throws {
    if forJSON, !value.isFinite { throw nonFinite(value) }
    bytes.append(BinaryTag.float.rawValue)
    withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
  }

  func write(_ value: String) {
    bytes.append(BinaryTag.string.rawValue)
    var text = value
    text.withUTF8 { utf8 in
      writeVarint(UInt64(utf8.count))
      bytes.append(contentsOf: utf8)
    }
  }

  func write(_ value: Data) {
    bytes.append(BinaryTag.bytes.rawValue)
    writeVarint(UInt64(value.count))
    bytes.append(contentsOf: value)
  }

  func writeKey(_ key: some CodingKey) { write(key.stringValue) }

  /// Before a 128-bit integer: the binary format has no tag for one, so it
  /// refuses it as the standard library's default for an `Encoder` that
  /// does not implement these calls does (before writing anything); JSON
  /// writes it as JSONEncoder does, a number.
  func refuseWideUnlessJSON<Wide: FixedWidthInteger>(
    _ value: Wide, codingPath: @autoclosure () -> [any CodingKey]
  ) throws {
    guard forJSON else {
      throw EncodingError.invalidValue(
        value,
        EncodingError.Context(
          codingPath: codingPath(), debugDescription: "Encoder has not implemented support for \(Wide.self)"))
    }
  }

  /// A number's JSON text, as JSONEncoder writes it.
  func writeJSONNumber(_ text: String) {
    bytes.append(JSONTranscoder.numberTag)
    var text = text
    text.withUTF8 { utf8 in
      writeVarint(UInt64(utf8.count))
      bytes.append(contentsOf: utf8)
    }
  }

  /// JSON has no NaN nor infinity and JSONEncoder throws for one; the
  /// codec asks JSONEncoder, for its error exactly (or for what the type
  /// writes instead, if it catches this one).
  private func nonFinite(_ value: some BinaryFloatingPoint) -> EncodingError {
    fail("Unable to encode \(type(of: value)).\(value) directly in JSON.")
    return recordedFailure
  }

  private func writeVarint(_ value: UInt64) {
    var rest = value
    while rest >= 0x80 {
      bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
      rest >>= 7
    }
    bytes.append(UInt8(rest))
  }
}
