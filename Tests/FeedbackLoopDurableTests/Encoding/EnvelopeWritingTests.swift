import FeedbackLoopDurable
import Foundation
import Testing

/// `JSONDurableCodec` writes an envelope's bytes around its value, encoded
/// alone: these check that what it stores is, byte for byte, what
/// Foundation's encoder writes for the whole envelope with sorted keys, so
/// that journals written before and after read the same.
@Suite("JSON envelopes")
struct EnvelopeWritingTests {
  struct Profile: Codable, Equatable {
    var name: String
    var nickname: String?
    var scores: [String: Int]
    var joined: Date
    var avatar: Data
    var home: URL
  }

  enum Tick: Codable, Equatable {
    case started
    case moved(by: Double, label: String)
  }

  /// Encodes nothing at all: `JSONEncoder` refuses it alone, and writes
  /// `{}` for it inside the envelope.
  struct Silent: Codable, Equatable {
    init() {}
    init(from decoder: any Decoder) throws {}
    func encode(to encoder: any Encoder) throws {}
  }

  func expectSameBytes<Value: Codable>(
    _ value: Value, version: Int = 1, sourceLocation: SourceLocation = #_sourceLocation
  )
    throws
  {
    let envelope = DurableEnvelope(version: version, value: value)
    let reference = JSONEncoder()
    reference.outputFormatting = .sortedKeys
    let expected = try reference.encode(envelope)
    let written = try JSONDurableCodec().encode(envelope)
    #expect(
      String(decoding: written, as: UTF8.self) == String(decoding: expected, as: UTF8.self),
      sourceLocation: sourceLocation)
  }

  @Test("events, states and scalars: the same bytes as the whole envelope encoded")
  func sameBytes() throws {
    try expectSameBytes(Tick.started)
    try expectSameBytes(Tick.moved(by: 0.1, label: "a/b \"quoted\" é \u{1} 🚀"))
    try expectSameBytes(
      Profile(
        name: "Zoë", nickname: nil, scores: ["b": 2, "a": 1, "c": -3],
        joined: Date(timeIntervalSince1970: 1234.5), avatar: Data([0, 1, 254, 255]),
        home: try #require(URL(string: "https://example.com/a?b=c"))))
    try expectSameBytes(Int.min)
    try expectSameBytes(1e300)
    try expectSameBytes("plain")
    try expectSameBytes(Int?.none)
    try expectSameBytes([Tick.started, .moved(by: -2, label: "")])
    try expectSameBytes(Tick.started, version: 0)
    try expectSameBytes(Tick.started, version: -3)
    try expectSameBytes(Tick.started, version: Int.max)
  }

  @Test("a value that encodes nothing is stored as the encoder stores it inside the envelope, and read back")
  func valueThatEncodesNothing() throws {
    try expectSameBytes(Silent())
    let codec = JSONDurableCodec()
    let data = try codec.encode(DurableEnvelope(version: 2, value: Silent()))
    #expect(try codec.decode(DurableEnvelope<Silent>.self, from: data).version == 2)
  }

  @Test("a value that does not encode throws, as the encoder's whole envelope does")
  func valueThatFails() {
    #expect(throws: EncodingError.self) {
      try JSONDurableCodec().encode(DurableEnvelope(version: 1, value: Double.nan))
    }
  }
}
