import FeedbackLoop
import FeedbackLoopDurable
import FeedbackLoopTesting
import Foundation
import Testing

/// A value that uses every kind of value the format has.
private struct Everything: Codable, Equatable {
  enum Shape: Codable, Equatable {
    case circle(radius: Double)
    case polygon([Int8], name: String?)
    case empty
  }

  struct Nothing: Codable, Equatable {}

  var text = "grüße, 日本, 🙂"
  var emptyText = ""
  var long = String(repeating: "x", count: 300)
  var flags = [true, false]
  var smallest = Int.min
  var largest = UInt64.max
  var narrow: Int8 = -128
  var unsigned: UInt16 = 65_535
  var int32: Int32 = -7
  var double = -0.125
  var infinity = Double.infinity
  var float: Float = 3.5
  var bytes = Data([0, 1, 0xFF, 0x0B, 0x0A])
  var date = Date(timeIntervalSince1970: 1_700_000_000.5)
  var optional: Int? = nil
  var present: String? = "here"
  var nested: [[Int]] = [[], [1, 2], [3]]
  var byName: [String: Int] = ["a": 1, "b": 2]
  var byNumber: [Int: String] = [3: "three", -1: "minus one"]
  var shapes: [Shape] = [.circle(radius: 2), .polygon([1, -2], name: nil), .polygon([], name: "none"), .empty]
  var nothing = Nothing()
  var optionals: [Int?] = [1, nil, 3]
}

/// Reads only some of `Everything`'s keys, as a restore reads an
/// envelope's version alone.
private struct FewKeys: Decodable, Equatable {
  var text: String
  var narrow: Int8
  var missing: Int?
}

/// Another type for the same keys.
private struct TextAsNumber: Codable {
  var text: Int
}

private struct Wide: Codable { var number: Int }
private struct Narrow: Decodable { var number: UInt8 }

/// Writes to a nested container after a later sibling was written.
private struct Interleaved: Encodable {
  enum Keys: String, CodingKey { case first, second, value }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Keys.self)
    var first = container.nestedUnkeyedContainer(forKey: .first)
    var second = container.nestedUnkeyedContainer(forKey: .second)
    try second.encode(1)
    try first.encode(2)
  }
}

/// A subclass's pattern: the keyed container asked for twice, and a
/// `superEncoder`.
private struct Inherited: Codable, Equatable {
  enum Keys: String, CodingKey { case own, base }
  var own: Int
  var base: String

  init(own: Int, base: String) {
    self.own = own
    self.base = base
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Keys.self)
    try container.encode(own, forKey: .own)
    var again = encoder.container(keyedBy: Keys.self)
    var single = again.superEncoder(forKey: .base).singleValueContainer()
    try single.encode(base)
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: Keys.self)
    own = try container.decode(Int.self, forKey: .own)
    base = try container.superDecoder(forKey: .base).singleValueContainer().decode(String.self)
  }
}

@Suite("BinaryDurableCodec: round trips, its stated format, hostile bytes", .runsLeftoverJobs, .timeLimit(.minutes(1)))
struct BinaryCodecTests {
  let codec = BinaryDurableCodec()

  @Test("every kind of value decodes to what was encoded")
  func roundTrip() throws {
    let value = Everything()
    let bytes = try codec.encode(value)
    #expect(try codec.decode(Everything.self, from: bytes) == value)
    #expect(try codec.encode(value) == bytes, "the same value gives the same bytes")
    var finite = value
    finite.infinity = 1  // JSON has no infinity
    #expect(try codec.encode(finite).count < (try JSONDurableCodec().encode(finite)).count)
  }

  @Test("top-level values of every primitive type round trip")
  func primitives() throws {
    #expect(try codec.decode(Int.self, from: codec.encode(-42)) == -42)
    #expect(try codec.decode(String.self, from: codec.encode("tea")) == "tea")
    #expect(try codec.decode(Bool.self, from: codec.encode(true)) == true)
    #expect(try codec.decode(Double.self, from: codec.encode(0.1)) == 0.1)
    #expect(try codec.decode(UInt64.self, from: codec.encode(UInt64.max)) == UInt64.max)
    #expect(try codec.decode(Int?.self, from: codec.encode(Int?.none)) == nil)
    #expect(try codec.decode([UInt8].self, from: codec.encode([UInt8](0...255))) == [UInt8](0...255))
  }

  @Test("an envelope's bytes are the stated format")
  func statedFormat() throws {
    let bytes = try codec.encode(DurableEnvelope(version: 1, value: 7))
    let expected: [UInt8] =
      [0xFB, 0x01, 0x0A]
      + [0x07, 7] + Array("version".utf8) + [0x03, 2]
      + [0x07, 5] + Array("value".utf8) + [0x03, 14]
      + [0x0B]
    #expect([UInt8](bytes) == expected)
  }

  @Test("a reader of some keys ignores the others; a missing key is nil or a keyNotFound")
  func partialReads() throws {
    let bytes = try codec.encode(Everything())
    #expect(try codec.decode(FewKeys.self, from: bytes) == FewKeys(text: "grüße, 日本, 🙂", narrow: -128))
    #expect(throws: DecodingError.self) { try codec.decode(DurableEnvelope<Int>.self, from: bytes) }
    do {
      _ = try codec.decode(DurableEnvelope<Int>.self, from: bytes)
    } catch DecodingError.keyNotFound(let key, _) {
      #expect(key.stringValue == "version")
    }
  }

  @Test("a value of another type is a typeMismatch at its coding path")
  func typeMismatch() throws {
    let bytes = try codec.encode(DurableEnvelope(version: 1, value: Everything()))
    do {
      _ = try codec.decode(DurableEnvelope<TextAsNumber>.self, from: bytes)
      Issue.record("decoded a string as an Int")
    } catch DecodingError.typeMismatch(_, let context) {
      #expect(context.codingPath.map(\.stringValue) == ["value", "text"])
    }
  }

  @Test("an integer that does not fit its type is an error, not a truncation")
  func integerRange() throws {
    let bytes = try codec.encode(Wide(number: 300))
    #expect(throws: DecodingError.self) { try codec.decode(Narrow.self, from: bytes) }
  }

  @Test("the keyed container asked for twice and a superEncoder round trip")
  func inheritancePattern() throws {
    let value = Inherited(own: 3, base: "base")
    #expect(try codec.decode(Inherited.self, from: codec.encode(value)) == value)
  }

  @Test("a write to a container after a later sibling is an EncodingError")
  func interleavedWrites() {
    #expect(throws: EncodingError.self) { try codec.encode(Interleaved()) }
  }

  @Test("every truncation of a document is a DecodingError")
  func truncations() throws {
    let bytes = [UInt8](try codec.encode(DurableEnvelope(version: 2, value: Everything())))
    for length in 0..<bytes.count {
      #expect(throws: DecodingError.self) {
        try codec.decode(DurableEnvelope<Everything>.self, from: Data(bytes[..<length]))
      }
    }
  }

  @Test("garbage bytes and corrupted documents give errors, never a crash")
  func garbage() throws {
    var generator = SeededGenerator(seed: 0x5EED)
    let valid = [UInt8](try codec.encode(DurableEnvelope(version: 2, value: Everything())))
    for round in 0..<2_000 {
      var bytes: [UInt8]
      if round % 2 == 0 {
        // Random bytes after the header, so that the parser is reached.
        bytes =
          [0xFB, 0x01]
          + (0..<Int.random(in: 0...40, using: &generator)).map { _ in
            UInt8.random(in: 0...0x0C, using: &generator)
          }
      } else {
        bytes = valid
        for _ in 0...Int.random(in: 0...3, using: &generator) {
          bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
        }
      }
      // Either it decodes (a flipped byte inside a string, say) or it throws.
      _ = try? codec.decode(DurableEnvelope<Everything>.self, from: Data(bytes))
      _ = try? codec.decode(Everything.self, from: Data(bytes))
    }
  }

  @Test("hostile headers, lengths, nesting, UTF-8 and trailing bytes each say what is wrong")
  func hostileDocuments() {
    let cases: [(bytes: [UInt8], says: String)] = [
      ([], "not a BinaryDurableCodec document"),
      (Array(#"{"version":1}"#.utf8), "not a BinaryDurableCodec document"),
      ([0xFB, 0x02, 0x00], "format version 2"),
      ([0xFB, 0x01, 0x07, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F, 0x41], "truncated"),
      ([0xFB, 0x01, 0x03] + [UInt8](repeating: 0xFF, count: 11), "longer than 64 bits"),
      ([0xFB, 0x01] + [UInt8](repeating: 0x09, count: 100_000), "nested deeper than 512"),
      ([0xFB, 0x01, 0x0A, 0x03, 0x00, 0x00, 0x0B], "a key that is not a string"),
      ([0xFB, 0x01, 0x0C], "unknown tag 0xc"),
      ([0xFB, 0x01, 0x0B], "end marker outside a container"),
      ([0xFB, 0x01, 0x00, 0x00], "1 bytes after the value"),
    ]
    for (bytes, says) in cases {
      do {
        _ = try codec.decode(Int?.self, from: Data(bytes))
        Issue.record("decoded \(bytes.prefix(12))")
      } catch DecodingError.dataCorrupted(let context) {
        #expect(context.debugDescription.contains(says), "\(context.debugDescription)")
      } catch {
        Issue.record("\(error)")
      }
    }
    do {
      _ = try codec.decode(String.self, from: Data([0xFB, 0x01, 0x07, 0x02, 0xC3, 0x28]))
      Issue.record("decoded invalid UTF-8")
    } catch DecodingError.dataCorrupted(let context) {
      #expect(context.debugDescription.contains("not valid UTF-8"))
    } catch {
      Issue.record("\(error)")
    }
  }

  @Test("a durable system stores its events and snapshots with it and restores from them")
  func durableSystem() async throws {
    let harness = DurableHarness()
    let account = try await harness.restore(snapshots: .every(2), codec: codec)
    for amount in [4, 5, 6] { try await account.sendDurably(.deposit(amount)) }
    let state = account.state
    account.stop()
    let stored = try #require(try await harness.journal.base.load("account"))
    #expect(stored.snapshot?.sequence == 2)
    #expect(stored.events.map { $0.payload.first } == [0xFB])
    let restored = try await harness.restore(snapshots: .every(2), codec: codec)
    #expect(restored.state == state)
    restored.stop()
  }

  @Test("a journal written in JSON does not restore with the binary codec, and nothing is written")
  func otherCodecsJournal() async throws {
    let harness = DurableHarness()
    let account = try await harness.restore()
    try await account.sendDurably(.deposit(4))
    account.stop()
    let before = try await harness.journal.base.load("account")
    await #expect(throws: DurableSystemError.self) { _ = try await harness.restore(codec: codec) }
    #expect(try await harness.journal.base.load("account") == before)
  }
}
