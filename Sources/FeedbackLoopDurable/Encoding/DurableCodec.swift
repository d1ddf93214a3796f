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

/// The default ``DurableCodec``: JSON, keys sorted so that the same value
/// always gives the same bytes, on every platform: on Linux exactly the
/// bytes of Foundation's `JSONEncoder` with `.sortedKeys` and its default
/// strategies, written faster (BENCHMARKS.md, D1-encode). Decoding is
/// `JSONDecoder`'s.
///
/// ```swift
/// let cart = try await DurableSystem.restore(
///   id: "cart-42", writer: writer, initial: Cart(), reduce: Cart.reduce,
///   codec: JSONDurableCodec())
/// ```
///
/// ## Why it does not call JSONEncoder
///
/// The writer encodes each event before the transaction that stores it, so
/// the encoding adds to every commit, and JSONEncoder's was most of the
/// writer's cost for a small event (about 7.8 µs, in boxed values, generic
/// metadata look-ups and reference counting: BENCHMARKS.md, D1-encode).
/// This codec writes the value with ``BinaryDurableCodec``'s writer (bytes
/// straight into one buffer), then turns that document into JSON text in
/// one pass over its bytes, by JSONEncoder's rules: members sorted by the
/// UTF-8 bytes of their keys (`"B"` before `"a"`, `"a10"` before `"a9"`),
/// `/` written `\/`, a `Double` as `1` rather than `1.0`, `Data` in
/// base64, a `Date` as its seconds since 2001, a `URL` as its
/// `absoluteString`, a `Decimal` as a number. On Linux the journals it
/// writes are the ones it wrote before, byte for byte. Apple's Foundation
/// sorts keys with a locale's numeric comparison instead, so on Apple
/// platforms the bytes can differ from JSONEncoder's there (an object
/// whose keys differ in case or in digits lists them in another order);
/// they decode to the same values, and tools that read JSON journals read
/// them as before.
///
/// A value this path cannot write exactly as JSONEncoder would is encoded
/// by JSONEncoder itself, so its `encode(to:)` runs twice: a type that
/// writes to a container after a later sibling of it was written (the
/// types `Codable` synthesizes never do), one that writes a key twice in a
/// container (JSONEncoder keeps the last value), keys that are equal as
/// `String`s but not in bytes, NaN or an infinity (JSONEncoder's
/// `EncodingError.invalidValue`, with its coding path, is thrown), a
/// top-level value that encodes nothing, nesting 512 deep. An error that a
/// value's own `encode(to:)` throws is thrown as it is, the value encoded
/// once, and a member or element whose value threw, which the caller
/// caught (`try? container.encode(value, forKey: key)`), is left out, as
/// JSONEncoder leaves it out. Only `userInfo` is not passed on: it is
/// empty, as this codec's JSONEncoder's was.
///
/// What a type sees while it encodes itself differs from JSONEncoder in
/// corners no synthesized `Codable` reaches (HostileJSONCodecTests keeps
/// each as a disabled test): the `codingPath` below a nested container
/// includes that container's key (JSONEncoder's leaves it out), so an
/// error a type builds from `encoder.codingPath` there has the longer
/// path; an unkeyed container asked for twice, or copied, counts its own
/// elements (`count`); a container's `codingPath` read after it was closed
/// is its parent's; a super encoder kept past its parent's next write
/// writes at once rather than when released; and in the fallback above, the
/// second run's outcome is the one returned.
public struct JSONDurableCodec: DurableCodec {
  public init() {}

  public func encode(_ value: some Encodable) throws -> Data {
    // A writer per call: calls come from several threads at once.
    let writer = BinaryWriter(forJSON: true)
    do {
      try writer.encodeRoot(value)
    } catch {
      // Thrown by the value itself, not for the writer's sake: as JSONEncoder would.
      guard writer.failure != nil else { throw error }
      return try Self.foundationEncoder.encode(value)
    }
    guard !writer.rootEncodedNothing, let json = JSONTranscoder.json(from: writer.bytes) else {
      return try Self.foundationEncoder.encode(value)
    }
    return json
  }

  /// JSONEncoder, for the values the fast path cannot write exactly as it
  /// does; one for every call, from every thread: `JSONEncoder` is
  /// `Sendable`, reads its options under a lock of its own and encodes each
  /// value into state of its own.
  private static let foundationEncoder: JSONEncoder = {
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
