import Foundation

/// Reads one ``BinaryDurableCodec`` document: checks all of it when made,
/// then reads values at offsets, bounds-checked, throwing a
/// `DecodingError` that says where and what was found.
final class BinaryReader {
  /// Deeper containers are refused, so that hostile bytes cannot exhaust
  /// the stack.
  static let maximumDepth = 512

  let bytes: [UInt8]
  let rootOffset = 2

  init(document data: Data) throws {
    bytes = [UInt8](data)
    guard bytes.count >= 2, bytes[0] == BinaryDurableCodec.magic else {
      throw Self.corrupted(
        [], "not a BinaryDurableCodec document: it does not start with 0xFB (\(bytes.count) bytes)")
    }
    guard bytes[1] == BinaryDurableCodec.formatVersion else {
      throw Self.corrupted(
        [], "format version \(bytes[1]); this BinaryDurableCodec reads version \(BinaryDurableCodec.formatVersion)")
    }
    var offset = rootOffset
    try skip(&offset, depth: 0)
    guard offset == bytes.count else {
      throw Self.corrupted([], "\(bytes.count - offset) bytes after the value, from byte \(offset)")
    }
  }

  static func corrupted(_ path: [any CodingKey], _ message: String) -> DecodingError {
    .dataCorrupted(DecodingError.Context(codingPath: path, debugDescription: message))
  }

  // MARK: The document's structure

  private func byte(_ offset: inout Int) throws -> UInt8 {
    guard offset < bytes.count else { throw Self.corrupted([], "truncated: the document ends at byte \(offset)") }
    defer { offset += 1 }
    return bytes[offset]
  }

  private func varint(_ offset: inout Int) throws -> UInt64 {
    var value: UInt64 = 0
    var shift: UInt64 = 0
    while true {
      let next = try byte(&offset)
      guard shift < 64, shift < 63 || next <= 1 else {
        throw Self.corrupted([], "an integer longer than 64 bits at byte \(offset - 1)")
      }
      value |= UInt64(next & 0x7F) << shift
      if next & 0x80 == 0 { return value }
      shift += 7
    }
  }

  /// Skips `count` bytes of a value's payload.
  private func advance(_ offset: inout Int, by count: UInt64) throws {
    guard count <= UInt64(bytes.count - offset) else {
      throw Self.corrupted([], "truncated: \(count) bytes announced at byte \(offset), \(bytes.count - offset) left")
    }
    offset += Int(count)
  }

  /// Moves `offset` past the value that starts there, checking it.
  func skip(_ offset: inout Int, depth: Int) throws {
    let start = offset
    let raw = try byte(&offset)
    guard let tag = BinaryTag(rawValue: raw) else {
      throw Self.corrupted([], "an unknown tag 0x\(String(raw, radix: 16)) at byte \(start)")
    }
    switch tag {
    case .null, .falseValue, .trueValue: break
    case .signed, .unsigned: _ = try varint(&offset)
    case .double: try advance(&offset, by: 8)
    case .float: try advance(&offset, by: 4)
    case .string, .bytes: try advance(&offset, by: try varint(&offset))
    case .unkeyed, .keyed:
      guard depth < Self.maximumDepth else {
        throw Self.corrupted([], "containers nested deeper than \(Self.maximumDepth) levels at byte \(start)")
      }
      while true {
        guard offset < bytes.count else {
          throw Self.corrupted([], "truncated: the container that starts at byte \(start) has no end")
        }
        if bytes[offset] == BinaryTag.end.rawValue {
          offset += 1
          break
        }
        if tag == .keyed {
          guard bytes[offset] == BinaryTag.string.rawValue else {
            throw Self.corrupted([], "a key that is not a string at byte \(offset)")
          }
          try skip(&offset, depth: depth + 1)
        }
        try skip(&offset, depth: depth + 1)
      }
    case .end: throw Self.corrupted([], "an end marker outside a container at byte \(start)")
    }
  }

  /// The offset after the value at `offset`.
  func offset(after offset: Int) throws -> Int {
    var next = offset
    try skip(&next, depth: 0)
    return next
  }

  func tag(at offset: Int) -> BinaryTag? {
    offset < bytes.count ? BinaryTag(rawValue: bytes[offset]) : nil
  }

  /// The keys and value offsets of the keyed container at `offset`.
  func entries(at offset: Int, codingPath: [any CodingKey]) throws -> [(key: String, offset: Int)] {
    try expect(.keyed, at: offset, as: [String: Any].self, codingPath)
    var entries: [(key: String, offset: Int)] = []
    var next = offset + 1
    while tag(at: next) != .end {
      let key = try string(at: next, codingPath)
      next = try self.offset(after: next)
      entries.append((key, next))
      next = try self.offset(after: next)
    }
    return entries
  }

  /// The number of elements of the unkeyed container at `offset`.
  func elementCount(at offset: Int, codingPath: [any CodingKey]) throws -> Int {
    try expect(.unkeyed, at: offset, as: [Any].self, codingPath)
    var count = 0
    var next = offset + 1
    while tag(at: next) != .end {
      next = try self.offset(after: next)
      count += 1
    }
    return count
  }

  // MARK: Values

  private func expect(
    _ expected: BinaryTag, at offset: Int, as type: Any.Type, _ codingPath: @autoclosure () -> [any CodingKey]
  ) throws {
    let found = tag(at: offset)
    guard found == expected else { throw mismatch(type, found: found, at: offset, codingPath()) }
  }

  private func mismatch(
    _ type: Any.Type, found: BinaryTag?, at offset: Int, _ codingPath: [any CodingKey]
  ) -> DecodingError {
    let context = DecodingError.Context(
      codingPath: codingPath, debugDescription: "expected \(type), found \(Self.name(of: found)) at byte \(offset)")
    return found == .null ? .valueNotFound(type, context) : .typeMismatch(type, context)
  }

  private static func name(of tag: BinaryTag?) -> String {
    switch tag {
    case .null: "nil"
    case .falseValue, .trueValue: "a Bool"
    case .signed: "a signed integer"
    case .unsigned: "an unsigned integer"
    case .double: "a Double"
    case .float: "a Float"
    case .string: "a string"
    case .bytes: "Data"
    case .unkeyed: "an unkeyed container"
    case .keyed: "a keyed container"
    case .end, nil: "the end of a container"
    }
  }

  func bool(at offset: Int, _ codingPath: @autoclosure () -> [any CodingKey]) throws -> Bool {
    switch tag(at: offset) {
    case .trueValue: return true
    case .falseValue: return false
    case let found: throw mismatch(Bool.self, found: found, at: offset, codingPath())
    }
  }

  func integer<Value: FixedWidthInteger>(
    _ type: Value.Type, at offset: Int, _ codingPath: @autoclosure () -> [any CodingKey]
  ) throws -> Value {
    var next = offset + 1
    let value: Value?
    switch tag(at: offset) {
    case .signed:
      let zigzag = try varint(&next)
      value = Value(exactly: Int64(bitPattern: (zigzag >> 1) ^ (0 &- (zigzag & 1))))
    case .unsigned: value = Value(exactly: try varint(&next))
    case let found: throw mismatch(type, found: found, at: offset, codingPath())
    }
    guard let value else {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: codingPath(), debugDescription: "the integer at byte \(offset) does not fit in \(type)"))
    }
    return value
  }

  private func fixedWidth<Bits: FixedWidthInteger>(_ type: Bits.Type, at offset: Int) -> Bits {
    var bits: Bits = 0
    for index in 0..<(Bits.bitWidth / 8) { bits |= Bits(bytes[offset + index]) << (8 * index) }
    return bits
  }

  func double(at offset: Int, _ codingPath: @autoclosure () -> [any CodingKey]) throws -> Double {
    switch tag(at: offset) {
    case .double: return Double(bitPattern: fixedWidth(UInt64.self, at: offset + 1))
    case .float: return Double(Float(bitPattern: fixedWidth(UInt32.self, at: offset + 1)))
    case let found: throw mismatch(Double.self, found: found, at: offset, codingPath())
    }
  }

  func float(at offset: Int, _ codingPath: @autoclosure () -> [any CodingKey]) throws -> Float {
    switch tag(at: offset) {
    case .float: return Float(bitPattern: fixedWidth(UInt32.self, at: offset + 1))
    case .double: return Float(Double(bitPattern: fixedWidth(UInt64.self, at: offset + 1)))
    case let found: throw mismatch(Float.self, found: found, at: offset, codingPath())
    }
  }

  private func payload(
    _ expected: BinaryTag, as type: Any.Type, at offset: Int, _ codingPath: @autoclosure () -> [any CodingKey]
  ) throws -> Range<Int> {
    try expect(expected, at: offset, as: type, codingPath())
    var next = offset + 1
    let count = Int(try varint(&next))
    return next..<(next + count)
  }

  func string(at offset: Int, _ codingPath: @autoclosure () -> [any CodingKey]) throws -> String {
    let range = try payload(.string, as: String.self, at: offset, codingPath())
    guard let text = String(validating: bytes[range], as: UTF8.self) else {
      throw Self.corrupted(codingPath(), "a string that is not valid UTF-8 at byte \(offset)")
    }
    return text
  }

  func data(at offset: Int, _ codingPath: @autoclosure () -> [any CodingKey]) throws -> Data {
    Data(bytes[try payload(.bytes, as: Data.self, at: offset, codingPath())])
  }

  func decode<Value: Decodable>(_ type: Value.Type, at offset: Int, codingPath: [any CodingKey]) throws -> Value {
    // Metatype comparisons are pointer comparisons, unlike `as?` casts.
    if Value.self == String.self { return try string(at: offset, codingPath) as! Value }
    if Value.self == Int.self { return try integer(Int.self, at: offset, codingPath) as! Value }
    if Value.self == UInt64.self { return try integer(UInt64.self, at: offset, codingPath) as! Value }
    if Value.self == Bool.self { return try bool(at: offset, codingPath) as! Value }
    if Value.self == Double.self { return try double(at: offset, codingPath) as! Value }
    if Value.self == Data.self, tag(at: offset) == .bytes { return try data(at: offset, codingPath) as! Value }
    return try Value(from: BinaryValueDecoder(reader: self, offset: offset, codingPath: codingPath))
  }
}
