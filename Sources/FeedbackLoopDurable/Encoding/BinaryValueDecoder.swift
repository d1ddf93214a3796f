import Foundation

/// The `Decoder` a value of a ``BinaryDurableCodec`` document decodes
/// itself from: the value at an offset of a ``BinaryReader``.
struct BinaryValueDecoder: Decoder {
  let reader: BinaryReader
  let offset: Int
  let codingPath: [any CodingKey]

  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    KeyedDecodingContainer(
      BinaryKeyedDecoder<Key>(
        reader: reader, codingPath: codingPath, entries: try reader.entries(at: offset, codingPath: codingPath)))
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    BinaryUnkeyedDecoder(
      reader: reader, codingPath: codingPath, next: offset + 1,
      count: try reader.elementCount(at: offset, codingPath: codingPath))
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    BinarySingleValueDecoder(reader: reader, offset: offset, codingPath: codingPath)
  }
}

struct BinaryKeyedDecoder<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let reader: BinaryReader
  let codingPath: [any CodingKey]
  /// The first entry of a key wins.
  let entries: [(key: String, offset: Int)]

  var allKeys: [Key] { entries.compactMap { Key(stringValue: $0.key) } }

  func contains(_ key: Key) -> Bool { entries.contains { $0.key == key.stringValue } }

  private func offset(_ key: Key) throws -> Int {
    let name = key.stringValue
    guard let entry = entries.first(where: { $0.key == name }) else {
      throw DecodingError.keyNotFound(
        key, DecodingError.Context(codingPath: codingPath, debugDescription: "no value for the key \"\(name)\""))
    }
    return entry.offset
  }

  func decodeNil(forKey key: Key) throws -> Bool { reader.tag(at: try offset(key)) == .null }
  func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
    try reader.bool(at: try offset(key), codingPath + [key])
  }
  func decode(_ type: String.Type, forKey key: Key) throws -> String {
    try reader.string(at: try offset(key), codingPath + [key])
  }
  func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
    try reader.double(at: try offset(key), codingPath + [key])
  }
  func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
    try reader.float(at: try offset(key), codingPath + [key])
  }
  func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try integer(type, key) }
  func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(type, key) }
  func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(type, key) }
  func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(type, key) }
  func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try integer(type, key) }
  func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(type, key) }
  func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(type, key) }
  func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(type, key) }
  func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(type, key) }
  func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(type, key) }

  private func integer<Value: FixedWidthInteger>(_ type: Value.Type, _ key: Key) throws -> Value {
    try reader.integer(type, at: try offset(key), codingPath + [key])
  }

  func decode<Value: Decodable>(_ type: Value.Type, forKey key: Key) throws -> Value {
    try reader.decode(type, at: try offset(key), codingPath: codingPath + [key])
  }

  func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type, forKey key: Key
  ) throws -> KeyedDecodingContainer<NestedKey> {
    try BinaryValueDecoder(reader: reader, offset: try offset(key), codingPath: codingPath + [key])
      .container(keyedBy: type)
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    try BinaryValueDecoder(reader: reader, offset: try offset(key), codingPath: codingPath + [key])
      .unkeyedContainer()
  }

  func superDecoder() throws -> any Decoder {
    guard let entry = entries.first(where: { $0.key == BinarySuperKey().stringValue }) else {
      throw DecodingError.keyNotFound(
        BinarySuperKey(), DecodingError.Context(codingPath: codingPath, debugDescription: "no value for \"super\""))
    }
    return BinaryValueDecoder(reader: reader, offset: entry.offset, codingPath: codingPath + [BinarySuperKey()])
  }

  func superDecoder(forKey key: Key) throws -> any Decoder {
    BinaryValueDecoder(reader: reader, offset: try offset(key), codingPath: codingPath + [key])
  }
}

struct BinaryUnkeyedDecoder: UnkeyedDecodingContainer {
  let reader: BinaryReader
  let codingPath: [any CodingKey]
  /// Where the element at `currentIndex` starts.
  var next: Int
  let elementCount: Int
  private(set) var currentIndex = 0

  init(reader: BinaryReader, codingPath: [any CodingKey], next: Int, count: Int) {
    self.reader = reader
    self.codingPath = codingPath
    self.next = next
    elementCount = count
  }

  var count: Int? { elementCount }
  var isAtEnd: Bool { currentIndex >= elementCount }

  private var elementPath: [any CodingKey] { codingPath + [BinaryIndexKey(currentIndex)] }

  /// The offset of the current element, checked to exist.
  private func current(_ type: Any.Type) throws -> Int {
    guard !isAtEnd else {
      throw DecodingError.valueNotFound(
        type,
        DecodingError.Context(
          codingPath: elementPath, debugDescription: "the unkeyed container has only \(elementCount) elements"))
    }
    return next
  }

  /// Reads the current element with `read`, then moves to the next one.
  private mutating func take<Value>(
    _ type: Value.Type, _ read: (BinaryReader, Int) throws -> Value
  ) throws -> Value {
    let offset = try current(type)
    let value = try read(reader, offset)
    next = try reader.offset(after: offset)
    currentIndex += 1
    return value
  }

  mutating func decodeNil() throws -> Bool {
    guard !isAtEnd, reader.tag(at: next) == .null else { return false }
    next += 1
    currentIndex += 1
    return true
  }

  mutating func decode(_ type: Bool.Type) throws -> Bool {
    let path = elementPath
    return try take(type) { reader, offset in try reader.bool(at: offset, path) }
  }
  mutating func decode(_ type: String.Type) throws -> String {
    let path = elementPath
    return try take(type) { reader, offset in try reader.string(at: offset, path) }
  }
  mutating func decode(_ type: Double.Type) throws -> Double {
    let path = elementPath
    return try take(type) { reader, offset in try reader.double(at: offset, path) }
  }
  mutating func decode(_ type: Float.Type) throws -> Float {
    let path = elementPath
    return try take(type) { reader, offset in try reader.float(at: offset, path) }
  }
  mutating func decode(_ type: Int.Type) throws -> Int { try integer(type) }
  mutating func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
  mutating func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
  mutating func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
  mutating func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
  mutating func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
  mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
  mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
  mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
  mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

  private mutating func integer<Value: FixedWidthInteger>(_ type: Value.Type) throws -> Value {
    let path = elementPath
    return try take(type) { reader, offset in try reader.integer(type, at: offset, path) }
  }

  mutating func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
    let path = elementPath
    return try take(type) { reader, offset in try reader.decode(type, at: offset, codingPath: path) }
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type
  ) throws -> KeyedDecodingContainer<NestedKey> {
    let path = elementPath
    return try take(KeyedDecodingContainer<NestedKey>.self) {
      reader, offset in
      try BinaryValueDecoder(reader: reader, offset: offset, codingPath: path).container(keyedBy: type)
    }
  }

  mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
    let path = elementPath
    return try take((any UnkeyedDecodingContainer).self) {
      reader, offset in
      try BinaryValueDecoder(reader: reader, offset: offset, codingPath: path).unkeyedContainer()
    }
  }

  mutating func superDecoder() throws -> any Decoder {
    let path = elementPath
    return try take((any Decoder).self) { reader, offset in
      BinaryValueDecoder(reader: reader, offset: offset, codingPath: path)
    }
  }
}

struct BinarySingleValueDecoder: SingleValueDecodingContainer {
  let reader: BinaryReader
  let offset: Int
  let codingPath: [any CodingKey]

  func decodeNil() -> Bool { reader.tag(at: offset) == .null }
  func decode(_ type: Bool.Type) throws -> Bool { try reader.bool(at: offset, codingPath) }
  func decode(_ type: String.Type) throws -> String { try reader.string(at: offset, codingPath) }
  func decode(_ type: Double.Type) throws -> Double { try reader.double(at: offset, codingPath) }
  func decode(_ type: Float.Type) throws -> Float { try reader.float(at: offset, codingPath) }
  func decode(_ type: Int.Type) throws -> Int { try reader.integer(type, at: offset, codingPath) }
  func decode(_ type: Int8.Type) throws -> Int8 { try reader.integer(type, at: offset, codingPath) }
  func decode(_ type: Int16.Type) throws -> Int16 { try reader.integer(type, at: offset, codingPath) }
  func decode(_ type: Int32.Type) throws -> Int32 { try reader.integer(type, at: offset, codingPath) }
  func decode(_ type: Int64.Type) throws -> Int64 { try reader.integer(type, at: offset, codingPath) }
  func decode(_ type: UInt.Type) throws -> UInt { try reader.integer(type, at: offset, codingPath) }
  func decode(_ type: UInt8.Type) throws -> UInt8 { try reader.integer(type, at: offset, codingPath) }
  func decode(_ type: UInt16.Type) throws -> UInt16 { try reader.integer(type, at: offset, codingPath) }
  func decode(_ type: UInt32.Type) throws -> UInt32 { try reader.integer(type, at: offset, codingPath) }
  func decode(_ type: UInt64.Type) throws -> UInt64 { try reader.integer(type, at: offset, codingPath) }
  func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
    try reader.decode(type, at: offset, codingPath: codingPath)
  }
}
