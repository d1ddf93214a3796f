import Foundation

/// Turns a document that ``BinaryWriter`` wrote `forJSON` into the bytes
/// Foundation's `JSONEncoder` writes for the same value with `.sortedKeys`
/// and its default strategies, in one pass over the bytes.
///
/// JSONEncoder's rules, as swift-foundation's `JSONWriter` has them on
/// Linux (and ``JSONCodecTests`` checks against the encoder itself):
/// - an object's members sorted by the UTF-8 bytes of their keys (not by
///   `String`'s `<`, nor with the case-insensitive, numeric comparison of
///   Apple's own Foundation): `"B"` before `"a"`, `"a10"` before `"a9"`,
///   `""` first;
/// - in strings, `"`, `\` and `/` escaped with a backslash, `\b`, `\f`,
///   `\n`, `\r`, `\t`, the other bytes below 0x20 as `\u00XX` with
///   lowercase hex digits, everything else (U+2028 too) as it is;
/// - an integer in decimal; a `Double` or `Float` as its `description`
///   less a final `.0` (`1`, `0.1`, `1e-05`, `1e+16`);
/// - `Data` as its base64 string (escaped as any string: `/` as `\/`);
/// - containers nested 512 deep refused.
///
/// What it cannot write exactly as JSONEncoder would, it refuses
/// (``Unexpressible``), and the codec asks JSONEncoder: a key written twice
/// in one container (JSONEncoder keeps one, the last value under the first
/// key's spelling, and merges nested containers), keys equal as `String`s
/// but not in bytes (`"é"` precomposed and not), nesting as deep as
/// JSONEncoder refuses (so that it throws its own error).
struct JSONTranscoder {
  /// The tag of a number's JSON text (`BinaryWriter.writeJSONNumber`), one
  /// the binary format does not have, so that no stored document has it.
  static let numberTag: UInt8 = 0xF0

  /// JSONEncoder's writer throws for a container nested this deep.
  static let maximumDepth = 512

  /// A document the transcoder cannot write exactly as JSONEncoder would.
  struct Unexpressible: Error {}

  /// An object's member: its key in the document, its text in the output.
  private struct Member {
    var keyStart: Int
    var keyCount: Int
    var start: Int
    var end: Int
  }

  private let input: UnsafeBufferPointer<UInt8>
  private var output: [UInt8] = []
  /// The members of the objects being written, innermost last.
  private var members: [Member] = []
  /// An object's text while its members are put in order.
  private var scratch: [UInt8] = []

  private init(input: UnsafeBufferPointer<UInt8>) {
    self.input = input
    output.reserveCapacity(input.count + input.count / 2 + 16)
  }

  /// The JSON text of `document`, or nil if it cannot be written exactly as
  /// JSONEncoder would.
  static func json(from document: [UInt8]) -> Data? {
    document.withUnsafeBufferPointer { input in
      var transcoder = JSONTranscoder(input: input)
      do {
        let end = try transcoder.value(at: 0, depth: 0)
        guard end == input.count else { fatalError("JSONTranscoder: \(input.count - end) bytes after the value") }
      } catch {
        return nil
      }
      return Data(transcoder.output)
    }
  }

  // MARK: Values

  /// Writes the value at `start`; the offset after it.
  private mutating func value(at start: Int, depth: Int) throws(Unexpressible) -> Int {
    var offset = start + 1
    switch input[start] {
    case BinaryTag.null.rawValue: append("null")
    case BinaryTag.falseValue.rawValue: append("false")
    case BinaryTag.trueValue.rawValue: append("true")
    case BinaryTag.signed.rawValue:
      let zigzag = varint(&offset)
      let value = Int64(bitPattern: (zigzag >> 1) ^ (0 &- (zigzag & 1)))
      if value < 0 { output.append(UInt8(ascii: "-")) }
      writeDecimal(value.magnitude)
    case BinaryTag.unsigned.rawValue: writeDecimal(varint(&offset))
    case BinaryTag.double.rawValue:
      writeNumber(Double(bitPattern: littleEndian(at: offset, as: UInt64.self)).description)
      offset += 8
    case BinaryTag.float.rawValue:
      writeNumber(Float(bitPattern: littleEndian(at: offset, as: UInt32.self)).description)
      offset += 4
    case BinaryTag.string.rawValue:
      let count = Int(varint(&offset))
      _ = writeString(at: offset, count: count)
      offset += count
    case BinaryTag.bytes.rawValue:
      let count = Int(varint(&offset))
      writeBase64(at: offset, count: count)
      offset += count
    case Self.numberTag:
      let count = Int(varint(&offset))
      output.append(contentsOf: UnsafeBufferPointer(rebasing: input[offset..<offset + count]))
      offset += count
    case BinaryTag.unkeyed.rawValue:
      guard depth + 1 < Self.maximumDepth else { throw Unexpressible() }
      output.append(UInt8(ascii: "["))
      var first = true
      while input[offset] != BinaryTag.end.rawValue {
        if !first { output.append(UInt8(ascii: ",")) }
        first = false
        offset = try value(at: offset, depth: depth + 1)
      }
      offset += 1
      output.append(UInt8(ascii: "]"))
    case BinaryTag.keyed.rawValue:
      guard depth + 1 < Self.maximumDepth else { throw Unexpressible() }
      offset = try object(at: offset, depth: depth + 1)
    case let tag:
      fatalError("JSONTranscoder: BinaryWriter wrote an unknown tag 0x\(String(tag, radix: 16))")
    }
    return offset
  }

  /// Writes the members of the object whose first key is at `start`,
  /// each as it comes, then puts them in their keys' order if they were
  /// not in it (the types `Codable` synthesizes write their keys in the
  /// order they are declared in); the offset after the object.
  private mutating func object(at start: Int, depth: Int) throws(Unexpressible) -> Int {
    output.append(UInt8(ascii: "{"))
    let contentStart = output.count
    let first = members.count
    var offset = start
    var inOrder = true
    var nonASCII = false
    while input[offset] != BinaryTag.end.rawValue {
      guard input[offset] == BinaryTag.string.rawValue else { fatalError("JSONTranscoder: a key that is not a string") }
      offset += 1
      let keyCount = Int(varint(&offset))
      let keyStart = offset
      offset += keyCount
      if members.count > first {
        switch compareKeys(members[members.count - 1], keyStart, keyCount) {
        case 0: throw Unexpressible()
        case 1: inOrder = false
        default: break
        }
        output.append(UInt8(ascii: ","))
      }
      let memberStart = output.count
      if writeString(at: keyStart, count: keyCount) { nonASCII = true }
      output.append(UInt8(ascii: ":"))
      offset = try value(at: offset, depth: depth)
      members.append(Member(keyStart: keyStart, keyCount: keyCount, start: memberStart, end: output.count))
    }
    defer { members.removeSubrange(first...) }
    if nonASCII { try checkDistinctAsStrings(from: first) }
    if !inOrder { try sortMembers(from: first, contentStart: contentStart) }
    output.append(UInt8(ascii: "}"))
    return offset + 1
  }

  /// Writes the members from `first` on again, in their keys' order.
  private mutating func sortMembers(from first: Int, contentStart: Int) throws(Unexpressible) {
    let input = self.input
    members[first...].sort { left, right in
      Self.compare(input, left.keyStart, left.keyCount, right.keyStart, right.keyCount) < 0
    }
    for index in (first + 1)..<members.count {
      let member = members[index]
      if compareKeys(members[index - 1], member.keyStart, member.keyCount) == 0 { throw Unexpressible() }
    }
    scratch.removeAll(keepingCapacity: true)
    scratch.append(contentsOf: output[contentStart...])
    output.removeSubrange(contentStart...)
    for index in first..<members.count {
      if index > first { output.append(UInt8(ascii: ",")) }
      let member = members[index]
      output.append(contentsOf: scratch[(member.start - contentStart)..<(member.end - contentStart)])
    }
  }

  /// JSONEncoder keeps an object's members in a `[String: Value]`, where
  /// keys that are canonically equivalent (`"é"` and `"e\u{301}"`, `";"`
  /// and `"\u{37E}"`) are one key: refused, for JSONEncoder to merge them.
  private func checkDistinctAsStrings(from first: Int) throws(Unexpressible) {
    var keys: Set<String> = []
    for member in members[first...] {
      let key = String(
        decoding: UnsafeBufferPointer(rebasing: input[member.keyStart..<member.keyStart + member.keyCount]),
        as: UTF8.self)
      guard keys.insert(key).inserted else { throw Unexpressible() }
    }
  }

  private func compareKeys(_ member: Member, _ keyStart: Int, _ keyCount: Int) -> Int {
    Self.compare(input, member.keyStart, member.keyCount, keyStart, keyCount)
  }

  /// -1, 0 or 1 as the UTF-8 bytes of one key precede, equal or follow the
  /// other's (`String.UTF8View.lexicographicallyPrecedes`, JSONEncoder's
  /// order).
  private static func compare(
    _ input: UnsafeBufferPointer<UInt8>, _ leftStart: Int, _ leftCount: Int, _ rightStart: Int, _ rightCount: Int
  ) -> Int {
    let common = min(leftCount, rightCount)
    if common > 0 {
      let order = memcmp(input.baseAddress! + leftStart, input.baseAddress! + rightStart, common)
      if order != 0 { return order < 0 ? -1 : 1 }
    }
    return leftCount == rightCount ? 0 : (leftCount < rightCount ? -1 : 1)
  }

  // MARK: Text

  private mutating func append(_ text: StaticString) {
    output.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
  }

  /// `text` as JSONEncoder writes a floating-point number: its
  /// `description` less a final `.0`.
  private mutating func writeNumber(_ text: String) {
    var text = text
    text.withUTF8 { utf8 in
      var count = utf8.count
      if count >= 2, utf8[count - 2] == UInt8(ascii: "."), utf8[count - 1] == UInt8(ascii: "0") { count -= 2 }
      output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[..<count]))
    }
  }

  private mutating func writeDecimal(_ value: UInt64) {
    let start = output.count
    var rest = value
    repeat {
      output.append(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10))
      rest /= 10
    } while rest > 0
    output[start...].reverse()
  }

  /// Writes the string of `count` UTF-8 bytes at `start`, quoted and
  /// escaped; true if it has a byte outside ASCII.
  private mutating func writeString(at start: Int, count: Int) -> Bool {
    output.append(UInt8(ascii: "\""))
    var nonASCII = false
    var plain = start
    let end = start + count
    var offset = start
    while offset < end {
      let byte = input[offset]
      if byte >= 0x80 { nonASCII = true }
      if byte >= 0x20, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\"), byte != UInt8(ascii: "/") {
        offset += 1
        continue
      }
      if plain < offset { output.append(contentsOf: UnsafeBufferPointer(rebasing: input[plain..<offset])) }
      writeEscape(byte)
      offset += 1
      plain = offset
    }
    if plain < end { output.append(contentsOf: UnsafeBufferPointer(rebasing: input[plain..<end])) }
    output.append(UInt8(ascii: "\""))
    return nonASCII
  }

  private mutating func writeEscape(_ byte: UInt8) {
    output.append(UInt8(ascii: "\\"))
    switch byte {
    case 0x08: output.append(UInt8(ascii: "b"))
    case 0x0C: output.append(UInt8(ascii: "f"))
    case 0x0A: output.append(UInt8(ascii: "n"))
    case 0x0D: output.append(UInt8(ascii: "r"))
    case 0x09: output.append(UInt8(ascii: "t"))
    case 0x00..<0x20:
      append("u00")
      output.append(Self.hexDigit(byte >> 4))
      output.append(Self.hexDigit(byte & 0x0F))
    default: output.append(byte)  // `"`, `\`, `/`
    }
  }

  private static func hexDigit(_ value: UInt8) -> UInt8 {
    value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
  }

  /// `Data.base64EncodedString()` (the standard alphabet, `=` padding, no
  /// line breaks), quoted, its `/` escaped.
  private mutating func writeBase64(at start: Int, count: Int) {
    output.append(UInt8(ascii: "\""))
    var offset = start
    let end = start + count
    while offset + 3 <= end {
      let group = UInt32(input[offset]) << 16 | UInt32(input[offset + 1]) << 8 | UInt32(input[offset + 2])
      writeSextets(group, count: 4)
      offset += 3
    }
    switch end - offset {
    case 1:
      writeSextets(UInt32(input[offset]) << 16, count: 2)
      append("==")
    case 2:
      writeSextets(UInt32(input[offset]) << 16 | UInt32(input[offset + 1]) << 8, count: 3)
      output.append(UInt8(ascii: "="))
    default: break
    }
    output.append(UInt8(ascii: "\""))
  }

  /// The first `count` base64 digits of a 24-bit group.
  private mutating func writeSextets(_ group: UInt32, count: Int) {
    for index in 0..<count {
      let sextet = UInt8(truncatingIfNeeded: group >> (18 - 6 * index)) & 0x3F
      switch sextet {
      case 0..<26: output.append(UInt8(ascii: "A") + sextet)
      case 26..<52: output.append(UInt8(ascii: "a") + sextet - 26)
      case 52..<62: output.append(UInt8(ascii: "0") + sextet - 52)
      case 62: output.append(UInt8(ascii: "+"))
      default: append("\\/")
      }
    }
  }

  // MARK: Reading

  private func varint(_ offset: inout Int) -> UInt64 {
    var value: UInt64 = 0
    var shift: UInt64 = 0
    while true {
      let byte = input[offset]
      offset += 1
      value |= UInt64(byte & 0x7F) << shift
      if byte < 0x80 { return value }
      shift += 7
    }
  }

  private func littleEndian<Value: FixedWidthInteger>(at offset: Int, as type: Value.Type) -> Value {
    Value(littleEndian: UnsafeRawPointer(input.baseAddress! + offset).loadUnaligned(as: Value.self))
  }
}
