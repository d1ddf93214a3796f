import Foundation

/// The `Encoder` a value of a ``BinaryDurableCodec`` document encodes
/// itself to: a slot of a ``BinaryWriter``, which holds the bytes.
struct BinaryValueEncoder: Encoder {
  let writer: BinaryWriter
  let slot: Int

  var codingPath: [any CodingKey] { writer.codingPath(through: slot) }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    KeyedEncodingContainer(BinaryKeyedEncoder<Key>(writer: writer, id: writer.openContainer(.keyed, in: slot)))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    BinaryUnkeyedEncoder(writer: writer, id: writer.openContainer(.unkeyed, in: slot))
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    BinarySingleValueEncoder(writer: writer, slot: slot)
  }
}

struct BinaryKeyedEncoder<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let writer: BinaryWriter
  let id: Int

  var codingPath: [any CodingKey] { writer.codingPath(through: id) }

  /// Writes `key` if the container is open.
  private func begin(_ key: Key) -> Bool {
    guard writer.activate(id) else { return false }
    writer.writeKey(key)
    return true
  }

  mutating func encodeNil(forKey key: Key) throws { if begin(key) { writer.writeNil() } }
  mutating func encode(_ value: Bool, forKey key: Key) throws { if begin(key) { writer.write(value) } }
  mutating func encode(_ value: String, forKey key: Key) throws { if begin(key) { writer.write(value) } }
  mutating func encode(_ value: Double, forKey key: Key) throws { if begin(key) { try writer.write(value) } }
  mutating func encode(_ value: Float, forKey key: Key) throws { if begin(key) { try writer.write(value) } }
  mutating func encode(_ value: Int, forKey key: Key) throws { if begin(key) { writer.writeSigned(Int64(value)) } }
  mutating func encode(_ value: Int8, forKey key: Key) throws { if begin(key) { writer.writeSigned(Int64(value)) } }
  mutating func encode(_ value: Int16, forKey key: Key) throws { if begin(key) { writer.writeSigned(Int64(value)) } }
  mutating func encode(_ value: Int32, forKey key: Key) throws { if begin(key) { writer.writeSigned(Int64(value)) } }
  mutating func encode(_ value: Int64, forKey key: Key) throws { if begin(key) { writer.writeSigned(value) } }
  mutating func encode(_ value: UInt, forKey key: Key) throws { if begin(key) { writer.writeUnsigned(UInt64(value)) } }
  mutating func encode(_ value: UInt8, forKey key: Key) throws { if begin(key) { writer.writeUnsigned(UInt64(value)) } }
  mutating func encode(_ value: UInt16, forKey key: Key) throws {
    if begin(key) { writer.writeUnsigned(UInt64(value)) }
  }
  mutating func encode(_ value: UInt32, forKey key: Key) throws {
    if begin(key) { writer.writeUnsigned(UInt64(value)) }
  }
  mutating func encode(_ value: UInt64, forKey key: Key) throws { if begin(key) { writer.writeUnsigned(value) } }
  mutating func encode(_ value: Int128, forKey key: Key) throws {
    try writer.refuseWideUnlessJSON(value, codingPath: codingPath + [key])
    if begin(key) { writer.writeJSONNumber(value.description) }
  }
  mutating func encode(_ value: UInt128, forKey key: Key) throws {
    try writer.refuseWideUnlessJSON(value, codingPath: codingPath + [key])
    if begin(key) { writer.writeJSONNumber(value.description) }
  }

  mutating func encode<Value: Encodable>(_ value: Value, forKey key: Key) throws {
    guard writer.activate(id) else { throw writer.recordedFailure }
    let mark = writer.mark
    writer.writeKey(key)
    do {
      try writer.encodeValue(value, key: key)
    } catch {
      writer.rollBack(to: mark, in: id)
      throw error
    }
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    let nested = begin(key) ? writer.openNested(.keyed, key: key) : 0
    return KeyedEncodingContainer(BinaryKeyedEncoder<NestedKey>(writer: writer, id: nested))
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    BinaryUnkeyedEncoder(writer: writer, id: begin(key) ? writer.openNested(.unkeyed, key: key) : 0)
  }

  mutating func superEncoder() -> any Encoder {
    guard writer.activate(id) else { return BinaryValueEncoder(writer: writer, slot: 0) }
    writer.write(BinarySuperKey().stringValue)
    return BinaryValueEncoder(writer: writer, slot: writer.openSuperSlot(key: BinarySuperKey()))
  }

  mutating func superEncoder(forKey key: Key) -> any Encoder {
    BinaryValueEncoder(writer: writer, slot: begin(key) ? writer.openSuperSlot(key: key) : 0)
  }
}

struct BinaryUnkeyedEncoder: UnkeyedEncodingContainer {
  let writer: BinaryWriter
  let id: Int
  private(set) var count = 0

  init(writer: BinaryWriter, id: Int) {
    self.writer = writer
    self.id = id
  }

  var codingPath: [any CodingKey] { writer.codingPath(through: id) }

  /// Counts the element if the container is open.
  private mutating func begin() -> Bool {
    guard writer.activate(id) else { return false }
    count += 1
    return true
  }

  mutating func encodeNil() throws { if begin() { writer.writeNil() } }
  mutating func encode(_ value: Bool) throws { if begin() { writer.write(value) } }
  mutating func encode(_ value: String) throws { if begin() { writer.write(value) } }
  mutating func encode(_ value: Double) throws { if begin() { try writer.write(value) } }
  mutating func encode(_ value: Float) throws { if begin() { try writer.write(value) } }
  mutating func encode(_ value: Int) throws { if begin() { writer.writeSigned(Int64(value)) } }
  mutating func encode(_ value: Int8) throws { if begin() { writer.writeSigned(Int64(value)) } }
  mutating func encode(_ value: Int16) throws { if begin() { writer.writeSigned(Int64(value)) } }
  mutating func encode(_ value: Int32) throws { if begin() { writer.writeSigned(Int64(value)) } }
  mutating func encode(_ value: Int64) throws { if begin() { writer.writeSigned(value) } }
  mutating func encode(_ value: UInt) throws { if begin() { writer.writeUnsigned(UInt64(value)) } }
  mutating func encode(_ value: UInt8) throws { if begin() { writer.writeUnsigned(UInt64(value)) } }
  mutating func encode(_ value: UInt16) throws { if begin() { writer.writeUnsigned(UInt64(value)) } }
  mutating func encode(_ value: UInt32) throws { if begin() { writer.writeUnsigned(UInt64(value)) } }
  mutating func encode(_ value: UInt64) throws { if begin() { writer.writeUnsigned(value) } }
  mutating func encode(_ value: Int128) throws {
    try writer.refuseWideUnlessJSON(value, codingPath: codingPath)
    if begin() { writer.writeJSONNumber(value.description) }
  }
  mutating func encode(_ value: UInt128) throws {
    try writer.refuseWideUnlessJSON(value, codingPath: codingPath)
    if begin() { writer.writeJSONNumber(value.description) }
  }

  mutating func encode<Value: Encodable>(_ value: Value) throws {
    guard writer.activate(id) else { throw writer.recordedFailure }
    let mark = writer.mark
    do {
      try writer.encodeValue(value, key: BinaryIndexKey(count))
      count += 1
    } catch {
      writer.rollBack(to: mark, in: id)
      throw error
    }
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type
  ) -> KeyedEncodingContainer<NestedKey> {
    let nested = begin() ? writer.openNested(.keyed, key: BinaryIndexKey(count - 1)) : 0
    return KeyedEncodingContainer(BinaryKeyedEncoder<NestedKey>(writer: writer, id: nested))
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    BinaryUnkeyedEncoder(writer: writer, id: begin() ? writer.openNested(.unkeyed, key: BinaryIndexKey(count - 1)) : 0)
  }

  mutating func superEncoder() -> any Encoder {
    BinaryValueEncoder(
      writer: writer, slot: begin() ? writer.openSuperSlot(key: BinaryIndexKey(count - 1)) : 0)
  }
}

struct BinarySingleValueEncoder: SingleValueEncodingContainer {
  let writer: BinaryWriter
  let slot: Int

  var codingPath: [any CodingKey] { writer.codingPath(through: slot) }

  mutating func encodeNil() throws { if writer.claimSingle(slot) { writer.writeNil() } }
  mutating func encode(_ value: Bool) throws { if writer.claimSingle(slot) { writer.write(value) } }
  mutating func encode(_ value: String) throws { if writer.claimSingle(slot) { writer.write(value) } }
  mutating func encode(_ value: Double) throws { if writer.claimSingle(slot) { try writer.write(value) } }
  mutating func encode(_ value: Float) throws { if writer.claimSingle(slot) { try writer.write(value) } }
  mutating func encode(_ value: Int) throws { if writer.claimSingle(slot) { writer.writeSigned(Int64(value)) } }
  mutating func encode(_ value: Int8) throws { if writer.claimSingle(slot) { writer.writeSigned(Int64(value)) } }
  mutating func encode(_ value: Int16) throws { if writer.claimSingle(slot) { writer.writeSigned(Int64(value)) } }
  mutating func encode(_ value: Int32) throws { if writer.claimSingle(slot) { writer.writeSigned(Int64(value)) } }
  mutating func encode(_ value: Int64) throws { if writer.claimSingle(slot) { writer.writeSigned(value) } }
  mutating func encode(_ value: UInt) throws { if writer.claimSingle(slot) { writer.writeUnsigned(UInt64(value)) } }
  mutating func encode(_ value: UInt8) throws { if writer.claimSingle(slot) { writer.writeUnsigned(UInt64(value)) } }
  mutating func encode(_ value: UInt16) throws {
    if writer.claimSingle(slot) { writer.writeUnsigned(UInt64(value)) }
  }
  mutating func encode(_ value: UInt32) throws {
    if writer.claimSingle(slot) { writer.writeUnsigned(UInt64(value)) }
  }
  mutating func encode(_ value: UInt64) throws { if writer.claimSingle(slot) { writer.writeUnsigned(value) } }
  mutating func encode(_ value: Int128) throws {
    try writer.refuseWideUnlessJSON(value, codingPath: codingPath)
    if writer.claimSingle(slot) { writer.writeJSONNumber(value.description) }
  }
  mutating func encode(_ value: UInt128) throws {
    try writer.refuseWideUnlessJSON(value, codingPath: codingPath)
    if writer.claimSingle(slot) { writer.writeJSONNumber(value.description) }
  }

  mutating func encode<Value: Encodable>(_ value: Value) throws {
    guard writer.claimSingle(slot) else { throw writer.recordedFailure }
    try writer.encodeValue(value, key: nil)
  }
}
