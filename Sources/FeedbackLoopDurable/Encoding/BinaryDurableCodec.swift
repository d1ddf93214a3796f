import Foundation

/// A binary ``DurableCodec`` that encodes faster than
/// ``JSONDurableCodec``, for systems whose writer spends its time encoding
/// events. Numbers and `Data` take fewer bytes than in JSON; keys are
/// stored by name, so a small keyed value takes about as many.
///
/// Pass it where the system is restored; a journal written with one codec
/// is read back with the same codec (a restore with the other one fails on
/// the first record with a clear decoding error, and writes nothing):
///
/// ```swift
/// let cart = try await DurableSystem.restore(
///   id: "cart-42", writer: writer, initial: Cart(), reduce: Cart.reduce,
///   codec: BinaryDurableCodec())
/// ```
///
/// ## Why this format
///
/// The writer encodes each event on its own task, before the transaction
/// that stores it, so the encoding adds to every commit. Foundation's JSON
/// encoder builds a tree of boxed values and looks up generic metadata at
/// each level; this codec writes bytes straight into one buffer, one tag
/// byte before each value, in the order `Codable` hands them over.
/// ``JSONDurableCodec`` now writes with the same writer, then turns its
/// bytes into JSONEncoder's text (keys sorted, numbers printed, `Data` in
/// base64) in a second pass: that pass, and JSON's larger numbers and
/// `Data`, are what this codec saves (BENCHMARKS.md, D1-encode). It stays
/// self-describing, as JSON is, because a restore relies on it: it reads
/// an envelope's `version` alone before its `value`, and a migration reads
/// a value with the type of an older version, so a reader must find a key
/// by name and skip what it does not ask for. A schema-driven format
/// (Protocol Buffers and the like) would need a schema per type and a
/// dependency; a key-less positional format could not be read partially.
///
/// ## The format (version 1)
///
/// A document is the byte `0xFB`, the format version (`0x01`), then one
/// value. A value is a tag byte and what the tag says:
///
/// | tag | value |
/// | --- | --- |
/// | `0x00` | nil |
/// | `0x01`, `0x02` | `false`, `true` |
/// | `0x03` | a signed integer, zigzag LEB128 |
/// | `0x04` | an unsigned integer, LEB128 |
/// | `0x05` | a `Double`, 8 bytes, IEEE 754 little endian |
/// | `0x06` | a `Float`, 4 bytes, IEEE 754 little endian |
/// | `0x07` | a string: its UTF-8 length (LEB128), then its UTF-8 bytes |
/// | `0x08` | `Data`: its length (LEB128), then its bytes |
/// | `0x09` | an unkeyed container: its values, then `0x0B` |
/// | `0x0A` | a keyed container: pairs of a key (a `0x07` string) and a value, then `0x0B` |
///
/// A value that encodes nothing is an empty keyed container, as JSON's
/// `{}`. Keys are written in the order the value encodes them, and a
/// `Dictionary` encodes its own in its iteration order: two equal
/// dictionaries built apart may be stored with different bytes (they
/// decode equal), where ``JSONDurableCodec`` sorts keys. Integers are range-checked when decoded (a stored 300 does not
/// decode as an `Int8`). Decoding checks the whole document first: bad or
/// truncated bytes, trailing bytes, nesting deeper than 512 levels and
/// invalid UTF-8 each throw a `DecodingError.dataCorrupted` that says
/// where, never a crash. The encoder ignores `userInfo`, and a type that
/// writes to a container after a later sibling of it was written gets an
/// `EncodingError` (the bytes are written in order, so that
/// container is already closed); the types `Codable` synthesizes never do.
public struct BinaryDurableCodec: DurableCodec {
  /// The format version this codec writes and reads.
  static let formatVersion: UInt8 = 1
  static let magic: UInt8 = 0xFB

  public init() {}

  public func encode(_ value: some Encodable) throws -> Data {
    let writer = BinaryWriter()
    writer.bytes.append(Self.magic)
    writer.bytes.append(Self.formatVersion)
    try writer.encodeRoot(value)
    return Data(writer.bytes)
  }

  public func decode<Value: Decodable>(_ type: Value.Type, from data: Data) throws -> Value {
    let reader = try BinaryReader(document: data)
    return try reader.decode(Value.self, at: reader.rootOffset, codingPath: [])
  }
}
