import FeedbackLoopDurable
import Foundation

/// JSON, except for the records `refuses` picks, whose encoding throws
/// ``Refused``.
struct RefusingCodec: DurableCodec {
  struct Refused: Error {}
  let refuses: @Sendable (any Encodable) -> Bool

  func encode(_ value: some Encodable) throws -> Data {
    if refuses(value) { throw Refused() }
    return try JSONDurableCodec().encode(value)
  }

  func decode<Value: Decodable>(_ type: Value.Type, from data: Data) throws -> Value {
    try JSONDurableCodec().decode(type, from: data)
  }
}
