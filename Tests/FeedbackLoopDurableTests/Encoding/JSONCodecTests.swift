import FeedbackLoop
import FeedbackLoopDurable
import FeedbackLoopTesting
import Foundation
import Testing

/// How many times a value's `encode(to:)` ran: once on the codec's own
/// path, twice when it asked JSONEncoder.
private final class Calls {
  var count = 0
}

/// `Wrapped`, counting its encodings; it hands the value over as a single
/// value, so both encoders treat it as they treat `Wrapped` (a `Date`, a
/// `URL`, `Data` in their own ways).
private struct Counted<Wrapped: Encodable>: Encodable {
  var wrapped: Wrapped
  var calls: Calls

  func encode(to encoder: any Encoder) throws {
    calls.count += 1
    var container = encoder.singleValueContainer()
    try container.encode(wrapped)
  }
}

/// Keys spelled at run time.
private struct AnyKey: CodingKey {
  var stringValue: String
  var intValue: Int? { nil }
  init(_ string: String) { stringValue = string }
  init(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) { nil }
}

/// Writes `pairs` to one keyed container, in this order, a key twice if
/// it comes twice.
private struct Pairs: Encodable {
  var pairs: [(key: String, value: Int)]

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: AnyKey.self)
    for pair in pairs { try container.encode(pair.value, forKey: AnyKey(pair.key)) }
  }
}

private enum Color: String, Codable, CodingKeyRepresentable { case red, green, blue }

/// Most kinds of value, in a struct whose keys are declared out of order.
private struct Everything: Codable, Equatable {
  indirect enum Shape: Codable, Equatable {
    case circle(radius: Double)
    case polygon([Int8], name: String?)
    case labelled(Int, String)
    case nested(Shape?)
    case empty
  }

  struct Nothing: Codable, Equatable {}

  var zebra = "grüße, 日本, 🙂 / \"quoted\" \\ \t\n\u{0}\u{1F}\u{7F}\u{2028}"
  var emptyText = ""
  var flags = [true, false]
  var smallest = Int.min
  var largest = UInt64.max
  var narrow: Int8 = -128
  var unsigned: UInt16 = 65_535
  var int32: Int32 = -7
  var double = -0.125
  var whole = 3.0
  var tiny = 1e-300
  var float: Float = 3.5
  var floatThird: Float = 1.0 / 3.0
  var bytes = Data([0, 1, 0xFF, 0xFB, 0xEF, 0xBF])
  var date = Date(timeIntervalSince1970: 1_700_000_000.5)
  var url = URL(string: "https://example.com/a/b?c=d&e=%20#f")!
  var decimal = Decimal(string: "-12.340")!
  var optional: Int? = nil
  var present: String? = "here"
  var nested: [[Int]] = [[], [1, 2], [3]]
  var byName: [String: Int] = ["b": 1, "a": 2, "B": 3, "a10": 4, "a9": 5, "": 6, "é": 7]
  var byNumber: [Int: String] = [3: "three", -1: "minus one", 10: "ten", 2: "two"]
  var byColor: [Color: Int] = [.red: 1, .green: 2, .blue: 3]
  var byDouble: [Double: Int] = [0.5: 1]
  var shapes: [Shape] = [
    .circle(radius: 2), .polygon([1, -2], name: nil), .polygon([], name: "none"), .labelled(1, "x"),
    .nested(.nested(.empty)), .nested(nil), .empty,
  ]
  var nothing = Nothing()
  var optionals: [Int?] = [1, nil, 3]
  var set: Set<String> = ["x", "y", "z"]
  var range = 1...5
  var duration = Duration.seconds(90) + .nanoseconds(7)
  var instant = WallClock.Instant(nanosecondsSinceUnixEpoch: 1_700_000_000_123_456_789)
  var uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
  var wide = Int128.min
  var wideUnsigned = UInt128.max
  var alpha = 1
}

/// A subclass's pattern: the keyed container asked for twice, a
/// `superEncoder(forKey:)` and a `superEncoder()`.
private struct Inherited: Encodable {
  enum Keys: String, CodingKey { case own, base }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Keys.self)
    try container.encode(3, forKey: .own)
    var again = encoder.container(keyedBy: Keys.self)
    var single = again.superEncoder(forKey: .base).singleValueContainer()
    try single.encode("base")
    var parent = again.superEncoder().container(keyedBy: Keys.self)
    try parent.encode(1, forKey: .own)
  }
}

private class Animal: Encodable {
  var name = "rex"
  enum Keys: String, CodingKey { case name }
  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Keys.self)
    try container.encode(name, forKey: .name)
  }
}

private final class Dog: Animal {
  var barks = 3
  enum DogKeys: String, CodingKey { case barks }
  override func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: DogKeys.self)
    try container.encode(barks, forKey: .barks)
    try super.encode(to: container.superEncoder())
  }
}

/// An unkeyed container's `superEncoder()` between two elements.
private struct UnkeyedSuper: Encodable {
  func encode(to encoder: any Encoder) throws {
    var container = encoder.unkeyedContainer()
    try container.encode(1)
    var single = container.superEncoder().singleValueContainer()
    try single.encode("middle")
    try container.encode(3)
  }
}

/// Writes to a nested container after a later sibling was written, which
/// the binary writer cannot put in its place.
private struct Interleaved: Encodable {
  enum Keys: String, CodingKey { case first, second }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Keys.self)
    var first = container.nestedUnkeyedContainer(forKey: .first)
    var second = container.nestedUnkeyedContainer(forKey: .second)
    try second.encode(1)
    try first.encode(2)
  }
}

/// Asks for a nested container under a key twice, which JSONEncoder merges.
private struct ReopenedNested: Encodable {
  enum Keys: String, CodingKey { case a, x, y }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Keys.self)
    var first = container.nestedContainer(keyedBy: Keys.self, forKey: .a)
    try first.encode(1, forKey: .y)
    var second = container.nestedContainer(keyedBy: Keys.self, forKey: .a)
    try second.encode(2, forKey: .x)
  }
}

/// Encodes nothing at all.
private struct Silent: Encodable {
  func encode(to encoder: any Encoder) throws {}
}

/// Asks for a single value container and writes nothing to it.
private struct SilentSingle: Encodable {
  func encode(to encoder: any Encoder) throws { _ = encoder.singleValueContainer() }
}

/// Containers `depth` deep, keyed and unkeyed in turn, an `[Int]` or a
/// `[Bool]` innermost (JSONEncoder writes an array of integers its own
/// way, one of `Bool`s as any other).
private struct Deep: Encodable {
  var depth: Int
  var integers: Bool

  func encode(to encoder: any Encoder) throws {
    if depth == 0 {
      var single = encoder.singleValueContainer()
      if integers { try single.encode([1, 2]) } else { try single.encode([true]) }
    } else if depth.isMultiple(of: 2) {
      var container = encoder.container(keyedBy: AnyKey.self)
      try container.encode(Deep(depth: depth - 1, integers: integers), forKey: AnyKey("d"))
    } else {
      var container = encoder.unkeyedContainer()
      try container.encode(Deep(depth: depth - 1, integers: integers))
    }
  }
}

private struct Refusal: Error, Equatable {}

/// Writes a little, then throws an error of its own.
private struct Refusing: Encodable {
  enum Keys: String, CodingKey { case before, after }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Keys.self)
    try container.encode(1, forKey: .before)
    throw Refusal()
  }
}

/// A non-finite number, in a keyed container, under an unkeyed one.
private struct NonFinite: Encodable {
  enum Keys: String, CodingKey { case list, value }
  var value: Double

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Keys.self)
    var list = container.nestedUnkeyedContainer(forKey: .list)
    try list.encode(1.5)
    try list.encode(value)
  }
}

/// Catches the error a NaN throws and writes a string instead.
private struct CatchesNaN: Encodable {
  enum Keys: String, CodingKey { case value }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Keys.self)
    do {
      try container.encode(Double.nan, forKey: .value)
    } catch {
      try container.encode("not a number", forKey: .value)
    }
  }
}

/// Encodes `nil` by hand, and an absent optional with `encodeIfPresent`.
private struct Nulls: Encodable {
  enum Keys: String, CodingKey { case explicit, absent, present }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Keys.self)
    try container.encodeNil(forKey: .explicit)
    try container.encodeIfPresent(Int?.none, forKey: .absent)
    try container.encodeIfPresent(Int?.some(2), forKey: .present)
  }
}

@Suite(
  "JSONDurableCodec: JSONEncoder's bytes, its errors, from many threads", .runsLeftoverJobs, .timeLimit(.minutes(1)))
struct JSONCodecTests {
  let codec = JSONDurableCodec()

  /// The reference: what the codec wrote before, one encoder per test.
  private static func reference() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    return encoder
  }

  /// Expects the codec to write JSONEncoder's bytes for `value`, running
  /// its `encode(to:)` once (`twice` when it is one the codec hands to
  /// JSONEncoder).
  private func expectSameBytes<Value: Encodable>(
    _ value: Value, twice: Bool = false, _ note: String = "", sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let expected = try Self.reference().encode(value)
    let calls = Calls()
    let actual = try codec.encode(Counted(wrapped: value, calls: calls))
    #expect(
      actual == expected,
      "\(note) \(Value.self): wrote \(Self.text(actual)), JSONEncoder \(Self.text(expected))",
      sourceLocation: sourceLocation)
    #expect(
      calls.count == (twice ? 2 : 1), "\(note) \(Value.self) encoded \(calls.count) times",
      sourceLocation: sourceLocation)
  }

  /// The same, alone and in a ``DurableEnvelope``.
  private func expectSameBytesInEnvelope<Value: Codable>(
    _ value: Value, twice: Bool = false, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    try expectSameBytes(value, twice: twice, sourceLocation: sourceLocation)
    try expectSameBytes(DurableEnvelope(version: 7, value: value), twice: twice, sourceLocation: sourceLocation)
  }

  private static func text(_ data: Data) -> String {
    let text = String(decoding: data.prefix(300), as: UTF8.self)
    return data.count > 300 ? text + "… (\(data.count) bytes)" : text
  }

  /// Both throw, an `EncodingError.invalidValue` with the same coding path
  /// and description.
  private func expectSameError<Value: Encodable>(
    _ value: Value, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let expected: EncodingError
    do {
      _ = try Self.reference().encode(value)
      Issue.record("JSONEncoder encoded \(Value.self)", sourceLocation: sourceLocation)
      return
    } catch {
      expected = error as! EncodingError
    }
    do {
      _ = try codec.encode(value)
      Issue.record("encoded \(Value.self)", sourceLocation: sourceLocation)
    } catch let EncodingError.invalidValue(_, context) {
      guard case .invalidValue(_, let expectedContext) = expected else {
        Issue.record("JSONEncoder threw \(expected)", sourceLocation: sourceLocation)
        return
      }
      #expect(
        context.codingPath.map(\.stringValue) == expectedContext.codingPath.map(\.stringValue),
        sourceLocation: sourceLocation)
      #expect(context.debugDescription == expectedContext.debugDescription, sourceLocation: sourceLocation)
    } catch {
      Issue.record("threw \(error)", sourceLocation: sourceLocation)
    }
  }

  // MARK: Values

  @Test("top-level fragments of every primitive type")
  func fragments() throws {
    try expectSameBytesInEnvelope(0)
    try expectSameBytesInEnvelope(-42)
    try expectSameBytesInEnvelope(Int64.min)
    try expectSameBytesInEnvelope(Int64.max)
    try expectSameBytesInEnvelope(UInt64.max)
    try expectSameBytesInEnvelope(Int8.min)
    try expectSameBytesInEnvelope(UInt8.max)
    try expectSameBytesInEnvelope(Int16.min)
    try expectSameBytesInEnvelope(UInt32.max)
    try expectSameBytesInEnvelope(Int32.min)
    try expectSameBytesInEnvelope(UInt(7))
    try expectSameBytesInEnvelope(true)
    try expectSameBytesInEnvelope(false)
    try expectSameBytesInEnvelope("tea")
    try expectSameBytesInEnvelope("")
    try expectSameBytesInEnvelope(Int?.none)
    try expectSameBytesInEnvelope(Int??.some(nil))
    try expectSameBytesInEnvelope(Int128.min)
    try expectSameBytesInEnvelope(Int128.max)
    try expectSameBytesInEnvelope(UInt128.max)
    try expectSameBytesInEnvelope([Int128(-1), 5])
    try expectSameBytesInEnvelope(Color.blue)
  }

  @Test("strings: every ASCII byte, U+2028, non-ASCII, escapes in keys too")
  func strings() throws {
    let ascii = String(decoding: (0..<0x80).map { UInt8($0) }, as: UTF8.self)
    try expectSameBytesInEnvelope(ascii)
    try expectSameBytesInEnvelope("a/b\\c\"d\u{2028}\u{2029}é😀\u{FEFF}\u{FFFF}e\u{301}")
    try expectSameBytesInEnvelope(["/": ascii, ascii: "\u{8}", "\u{1F}\u{7F}": "\r\n"])
    try expectSameBytesInEnvelope(String(repeating: "long/", count: 1_000))
  }

  @Test("numbers: doubles and floats as JSONEncoder prints them, integers at their limits")
  func numbers() throws {
    let doubles: [Double] = [
      0, -0.0, 1, -1, 0.1, 0.5, 1.5, 100, 1e-5, 1e-4, 1e15, 1e16, 1e17, 123_456_789_012_345_680, .leastNonzeroMagnitude,
      .leastNormalMagnitude, .greatestFiniteMagnitude, -.greatestFiniteMagnitude, 1.5e300, 2.5e-300, .pi, 1.0 / 3.0,
      4_294_967_296, 9_007_199_254_740_992, 9_007_199_254_740_994,
    ]
    let floats: [Float] = [
      0, -0.0, 1, 0.1, 1e-5, 3.4e38, 16_777_216, .leastNonzeroMagnitude, .greatestFiniteMagnitude, .pi, 1.0 / 3.0,
    ]
    var generator = SeededGenerator(seed: 0x0D0B1E)
    var randomDoubles: [Double] = []
    var randomFloats: [Float] = []
    while randomDoubles.count < 2_000 {
      let double = Double(bitPattern: generator.next())
      if double.isFinite { randomDoubles.append(double) }
      let float = Float(bitPattern: UInt32(truncatingIfNeeded: generator.next()))
      if float.isFinite { randomFloats.append(float) }
    }
    for double in doubles + randomDoubles.prefix(200) { try expectSameBytesInEnvelope(double) }
    for float in floats + randomFloats.prefix(200) { try expectSameBytesInEnvelope(float) }
    // Arrays of numbers take JSONEncoder's path for arrays; a struct's keys its other one.
    try expectSameBytesInEnvelope(doubles + randomDoubles)
    try expectSameBytesInEnvelope(floats + randomFloats)
    try expectSameBytesInEnvelope(randomDoubles.map { Everything.Shape.circle(radius: $0) })
    let integers: [Int64] =
      [0, 1, -1, 9, 10, 99, 100, -128, 127, .min, .max, .min + 1]
      + (0..<200).map { _ in
        Int64(bitPattern: generator.next()) >> Int64.random(in: 0..<64, using: &generator)
      }
    try expectSameBytesInEnvelope(integers)
    try expectSameBytesInEnvelope(integers.map { Everything.Shape.labelled(Int($0), "") })
    try expectSameBytesInEnvelope(
      (0..<200).map { _ in generator.next() >> UInt64.random(in: 0..<64, using: &generator) })
  }

  @Test("Data in base64, Date as seconds, URL as its absoluteString, Decimal as a number")
  func foundationTypes() throws {
    var generator = SeededGenerator(seed: 0xDA7A)
    for count in 0..<40 {
      try expectSameBytesInEnvelope(Data((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }))
    }
    try expectSameBytesInEnvelope(Data([0xFB, 0xFF, 0xBF, 0xFC]))
    try expectSameBytesInEnvelope([Data(), Data([0]), Data([0, 0]), Data([0xFF])])
    for date in [
      Date(timeIntervalSinceReferenceDate: 0), Date(timeIntervalSince1970: 0), .distantPast, .distantFuture,
      Date(timeIntervalSinceReferenceDate: 12.5), Date(timeIntervalSinceReferenceDate: -1e-7),
    ] {
      try expectSameBytesInEnvelope(date)
    }
    let urls = [
      URL(string: "https://example.com/a/b?c=d#e")!, URL(string: "mailto:someone@example.com")!,
      URL(string: "b/c", relativeTo: URL(string: "https://example.com/a/")!)!, URL(fileURLWithPath: "/tmp/a b/ü"),
      URL(string: "https://例え.jp/%E3%81%82")!, URL(string: "relative/path")!,
    ]
    for url in urls { try expectSameBytesInEnvelope(url) }
    try expectSameBytesInEnvelope(urls)
    for text in ["0", "-1.5", "12.340", "123456789012345678901234567890", "1e-10", "-0.0001", "3.14159"] {
      try expectSameBytesInEnvelope(Decimal(string: text)!)
    }
    try expectSameBytesInEnvelope(Decimal.nan)
    try expectSameBytesInEnvelope(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!)
    try expectSameBytesInEnvelope(Date?.some(.distantFuture))
    try expectSameBytesInEnvelope(URL?.some(urls[0]))
    try expectSameBytesInEnvelope(Data?.some(Data([0xFF, 0xFF])))
    try expectSameBytesInEnvelope(Decimal?.some(Decimal(1)))
  }

  @Test("keys sorted by their UTF-8 bytes: case, digits, a10 and a9, non-ASCII, the empty key")
  func keyOrder() throws {
    let keys = [
      "a10", "a9", "B", "a", "", "é", "z", "Z", "_", "1", "éx", "\u{FFFF}", "😀", "ab", "aB", "Ab", "a b", "~", "\u{7F}",
      "\u{80}", "\u{1}", "A", "0",
    ]
    var byName: [String: Int] = [:]
    for (index, key) in keys.enumerated() { byName[key] = index }
    try expectSameBytesInEnvelope(byName)
    for (index, key) in keys.enumerated() {
      // Each order of writing: reversed, rotated.
      let rotated = Array(keys[index...] + keys[..<index])
      try expectSameBytes(Pairs(pairs: rotated.enumerated().map { (key: $0.element, value: $0.offset) }))
      try expectSameBytes(Pairs(pairs: rotated.reversed().enumerated().map { (key: $0.element, value: $0.offset) }))
      try expectSameBytes(Pairs(pairs: [(key: key, value: 1)]))
    }
    try expectSameBytesInEnvelope([Int: String]())
    try expectSameBytesInEnvelope([String: Int]())
    try expectSameBytesInEnvelope([-3: "a", 20: "b", 3: "c", -20: "d", 0: "e"])
    try expectSameBytesInEnvelope([Color.red: [Color.blue: 1], .green: [:]])
    try expectSameBytesInEnvelope([1.5: "a", -2: "b"])
    try expectSameBytesInEnvelope(["outer": ["z": [1], "a": []], "inner": ["b": [2, 3]]])
  }

  @Test("optionals, nulls, empty values, nested enums, ranges, durations, sets")
  func shapes() throws {
    try expectSameBytesInEnvelope(Everything())
    try expectSameBytes(Nulls())
    try expectSameBytesInEnvelope(Everything.Nothing())
    try expectSameBytesInEnvelope([Everything.Nothing()])
    try expectSameBytes([Silent()])
    try expectSameBytes(["silent": Silent()])
    try expectSameBytes([SilentSingle()])
    try expectSameBytesInEnvelope(Everything.Shape.nested(.nested(.polygon([1], name: "/"))))
    try expectSameBytesInEnvelope([[[[Int]]]]([[[[]]], [[[1]]]]))
    try expectSameBytesInEnvelope(Set(["a", "b", "c", "d"]))
    try expectSameBytesInEnvelope(0..<10)
    try expectSameBytesInEnvelope(Duration.seconds(-3) + .milliseconds(5))
    try expectSameBytes(Inherited())
    try expectSameBytes(Dog())
    try expectSameBytes(UnkeyedSuper())
  }

  @Test("the durable tests' own event and state types")
  func durableTestTypes() throws {
    try expectSameBytesInEnvelope(Account.State(balance: 5, deposits: [1, 4], pendingPayout: 3, paidOut: []))
    try expectSameBytesInEnvelope(Account.State())
    for event in [Account.Event.deposit(4), .requestPayout(-1), .paidOut(Int.max)] {
      try expectSameBytesInEnvelope(event)
    }
    try expectSameBytesInEnvelope(
      DownloadsScreen.State(fetching: "a/b.pdf", fetched: ["x"], remindAt: .seconds(30), reminders: 2))
    for event in [DownloadsScreen.Event.open("a.pdf", now: .milliseconds(1_500)), .fetched("é"), .remind] {
      try expectSameBytesInEnvelope(event)
    }
    let instant = WallClock.Instant(nanosecondsSinceUnixEpoch: 1_700_000_000_000_000_001)
    try expectSameBytesInEnvelope(
      Reminder.State(deadline: instant, fired: [instant, .init(nanosecondsSinceUnixEpoch: -5)]))
    for event in [Reminder.Event.set(instant), .cancel, .fired(instant)] { try expectSameBytesInEnvelope(event) }
    try expectSameBytesInEnvelope(Downloads.State(queued: ["b", "a"], done: ["c"], ticks: 3))
    for event in [Downloads.Event.enqueue("f"), .downloaded("f"), .tick] { try expectSameBytesInEnvelope(event) }
    try expectSameBytesInEnvelope(OlderAccounts.V1.State(total: 3, deposits: [1, 2]))
    for event in [OlderAccounts.V1.Event.credit(2), .payout(3, done: true)] { try expectSameBytesInEnvelope(event) }
    for event in [OlderAccounts.V2.Event.deposit(amount: 2), .requestPayout(1), .paidOut(1)] {
      try expectSameBytesInEnvelope(event)
    }
    try expectSameBytesInEnvelope(MakingDurable.Account(balance: 3, pendingPayout: nil))
    for event in [MakingDurable.AccountEvent.deposited(1), .payoutRequested(2), .paidOut(2)] {
      try expectSameBytesInEnvelope(event)
    }
    try expectSameBytesInEnvelope(MakingDurable.Checkout(paymentDeadline: instant, timedOut: true))
    for event in [MakingDurable.CheckoutEvent.started(at: instant), .paid, .paymentTimedOut] {
      try expectSameBytesInEnvelope(event)
    }
    for sample in HostileConcurrentTakeTests.samples(60, seed: 3) { try expectSameBytesInEnvelope(sample) }
  }

  @Test("nesting: 511 containers deep is written, 512 is refused as JSONEncoder refuses it")
  func nesting() throws {
    for integers in [true, false] {
      try expectSameBytes(Deep(depth: 509, integers: integers))
      try expectSameBytes(Deep(depth: 510, integers: integers))
    }
    expectSameError(Deep(depth: 511, integers: false))
    expectSameError(Deep(depth: 511, integers: true))
    expectSameError(Deep(depth: 600, integers: true))
  }

  // MARK: What the codec hands to JSONEncoder

  @Test("a key written twice, or keys equal as Strings only: JSONEncoder's bytes, the value encoded twice")
  func duplicateKeys() throws {
    try expectSameBytes(Pairs(pairs: [("a", 1), ("a", 2)]), twice: true)
    try expectSameBytes(Pairs(pairs: [("b", 1), ("a", 2), ("b", 3)]), twice: true)
    try expectSameBytes(Pairs(pairs: [("\u{E9}", 1), ("e\u{301}", 2)]), twice: true)
    try expectSameBytes(Pairs(pairs: [("e\u{301}", 1), ("f", 2), ("\u{E9}", 3)]), twice: true)
    try expectSameBytes(Pairs(pairs: [(";", 1), ("\u{37E}", 2)]), twice: true)
    try expectSameBytes(Pairs(pairs: [("\u{212A}", 1), ("K", 2)]), twice: true)
    try expectSameBytes(ReopenedNested(), twice: true)
    // Distinct non-ASCII keys stay on the codec's path.
    try expectSameBytes(Pairs(pairs: [("é", 1), ("e", 2), ("ü", 3)]))
  }

  @Test("a write after a later sibling, a root that encodes nothing: JSONEncoder's answer")
  func handedToJSONEncoder() throws {
    try expectSameBytes(Interleaved(), twice: true)
    expectSameError(Silent())
    expectSameError(SilentSingle())
    try expectSameBytes(CatchesNaN(), twice: true)
  }

  // MARK: Errors

  @Test("NaN and infinities throw JSONEncoder's EncodingError, with its coding path")
  func nonFiniteNumbers() {
    for value in [Double.nan, .infinity, -.infinity, .signalingNaN] {
      expectSameError(value)
      expectSameError([1, value])
      expectSameError(NonFinite(value: value))
      expectSameError(DurableEnvelope(version: 1, value: Everything.Shape.circle(radius: value)))
      expectSameError(["key": value])
    }
    for value in [Float.nan, .infinity, -.infinity] {
      expectSameError(value)
      expectSameError([value])
      expectSameError(["a": ["b": value]])
    }
    expectSameError(Date(timeIntervalSinceReferenceDate: .nan))
  }

  @Test("an error the value throws is thrown as it is, the value encoded once")
  func valuesOwnError() {
    let calls = Calls()
    #expect(throws: Refusal()) { try codec.encode(Counted(wrapped: Refusing(), calls: calls)) }
    #expect(calls.count == 1)
    #expect(throws: Refusal()) { try codec.encode(["refusing": [Refusing()]]) }
  }

  @Test("the binary codec still refuses a 128-bit integer, as before")
  func binaryRefusesWideIntegers() {
    #expect(throws: EncodingError.self) { try BinaryDurableCodec().encode(Int128(1)) }
    #expect(throws: EncodingError.self) { try BinaryDurableCodec().encode([UInt128(1)]) }
    #expect(throws: EncodingError.self) {
      try BinaryDurableCodec().encode(DurableEnvelope(version: 1, value: Int128(1)))
    }
  }

  // MARK: Reading back, threads

  @Test("what it writes, JSONDecoder reads back")
  func roundTrip() throws {
    let value = Everything()
    var decodable = value
    decodable.decimal = 12  // JSONDecoder reads -12.34 back as -12.340000000000002
    let bytes = try codec.encode(DurableEnvelope(version: 2, value: decodable))
    let decoded = try codec.decode(DurableEnvelope<Everything>.self, from: bytes)
    #expect(decoded.version == 2)
    #expect(decoded.value == decodable)
  }

  @Test("8 threads encoding at once write JSONEncoder's bytes")
  func manyThreads() {
    let threads = 8
    let values = (0..<threads).map { HostileConcurrentTakeTests.samples(300, seed: $0) }
    let expected = values.map { samples in
      samples.map { try! Self.reference().encode(DurableEnvelope(version: 1, value: $0)) }
    }
    let mismatches = Locked<[String]>([])
    let finished = DispatchSemaphore(value: 0)
    for thread in 0..<threads {
      Thread {
        let codec = JSONDurableCodec()
        for round in 0..<3 {
          for (index, sample) in values[thread].enumerated() {
            let bytes = try? codec.encode(DurableEnvelope(version: 1, value: sample))
            if bytes != expected[thread][index] { mismatches.withLock { $0.append("\(thread)/\(round)/\(index)") } }
          }
        }
        finished.signal()
      }.start()
    }
    for _ in 0..<threads { finished.wait() }
    #expect(mismatches.withLock { $0 } == [])
  }
}
