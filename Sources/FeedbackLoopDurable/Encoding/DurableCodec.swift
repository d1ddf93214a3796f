import Foundation

/// How a durable system turns its events and states into the bytes a
/// ``Journal`` stores, and back.
///
/// ``JSONDurableCodec`` is the default. Another format (a binary one, or JSON
/// with other date and key strategies) conforms to this protocol:
///
/// ```swift
/// struct PropertyListCodec: DurableCodec {
///   func encode(_ value: some Encodable) throws -> Data {
///     try PropertyListEncoder().encode(value)
///   }
///   func decode<Value: Decodable>(_ type: Value.Type, from data: Data) throws -> Value {
///     try PropertyListDecoder().decode(type, from: data)
///   }
/// }
/// ```
///
/// What the codec encodes is a ``DurableEnvelope``: the value and the schema
/// version the system was given, so that a later version of the app can tell
/// what it reads.
///
/// The writer calls `encode` from several threads at once: a large batch of
/// one system's events is encoded in runs on several threads, and several
/// systems' batches at the same time. A codec must be safe to call that way
/// (the ones above make their encoder per call, or share one that is).
public protocol DurableCodec: Sendable {
  /// The bytes of `value`.
  func encode(_ value: some Encodable) throws -> Data
  /// The value of type `type` that `data` holds.
  func decode<Value: Decodable>(_ type: Value.Type, from data: Data) throws -> Value
}

/// The default ``DurableCodec``: Foundation's JSON, keys sorted so that the
/// same value always gives the same bytes.
///
/// ```swift
/// let cart = try await DurableSystem.restore(
///   id: "cart-42", writer: writer, initial: Cart(), reduce: Cart.reduce,
///   codec: JSONDurableCodec())
/// ```
public struct JSONDurableCodec: DurableCodec {
  public init() {}

  public func encode(_ value: some Encodable) throws -> Data {
    try Self.encoder.encode(value)
  }

  /// One encoder for every call, from every thread (the writer encodes a
  /// large batch on several): `JSONEncoder` is `Sendable`, reads its options
  /// under a lock of its own and encodes each value into state of its own.
  /// Made once rather than per event, which cost each event its allocation
  /// and its options' set-up.
  private static let encoder: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    return encoder
  }()

  public func decode<Value: Decodable>(_ type: Value.Type, from data: Data) throws -> Value {
    try JSONDecoder().decode(type, from: data)
  }
}

/// What a durable system stores for each event and snapshot: the value and
/// the schema version of the code that wrote it.
///
/// A restore reads the version before the value: an older version is
/// brought to the current one by the system's ``DurableMigrations``, and a
/// version that none of them reaches, or a newer one
/// (``DurableSystemError/unsupportedSchemaVersion(systemID:sequence:found:supported:)``),
/// stops the restore rather than be misread.
///
/// ```swift
/// // {"value":{"added":{"item":"tea"}},"version":1}
/// let bytes = try JSONDurableCodec().encode(DurableEnvelope(version: 1, value: event))
/// ```
public struct DurableEnvelope<Value: Codable>: Codable {
  /// The schema version of the code that wrote the value.
  public var version: Int
  public var value: Value

  public init(version: Int, value: Value) {
    self.version = version
    self.value = value
  }
}

/// Only the version of a stored envelope, read before its value.
struct DurableEnvelopeVersion: Decodable {
  var version: Int
}

/// Only the value of a stored envelope, for types that are only
/// `Decodable` (the types a migration reads).
struct StoredValue<Value: Decodable>: Decodable {
  var value: Value
}

/// An envelope for a type that is only `Encodable` (the types a migration
/// writes); the same keys as ``DurableEnvelope``.
struct StoredEnvelope<Value: Encodable>: Encodable {
  var version: Int
  var value: Value
}
