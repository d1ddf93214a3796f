import FeedbackLoop
import FeedbackLoopDurable
import Foundation
import Testing

// Red-team tests of JSONDurableCodec.encode: hostile values, each compared
// with JSONEncoder (.sortedKeys, default strategies), byte for byte, error
// for error, and counting how often the value's encode(to:) ran.

// MARK: Support

/// How many times a value's `encode(to:)` ran.
private final class HCalls: @unchecked Sendable {
  var count = 0
}

/// `Wrapped` handed over as a single value, counting its encodings.
private struct HCounted<Wrapped: Encodable>: Encodable {
  var wrapped: Wrapped
  var calls: HCalls

  func encode(to encoder: any Encoder) throws {
    calls.count += 1
    var container = encoder.singleValueContainer()
    try container.encode(wrapped)
  }
}

/// Keys spelled at run time.
private struct HKey: CodingKey, ExpressibleByStringLiteral {
  var stringValue: String
  var intValue: Int?
  init(_ string: String) { stringValue = string }
  init(stringLiteral value: String) { stringValue = value }
  init(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) {
    stringValue = "\(intValue)"
    self.intValue = intValue
  }
}

/// The outcome of one encoding, comparable across the two encoders.
private enum Outcome: Equatable, CustomStringConvertible {
  case bytes(Data)
  case error(String)

  var description: String {
    switch self {
    case .bytes(let data):
      let text = String(decoding: data.prefix(400), as: UTF8.self)
      return data.count > 400 ? "\(text)… (\(data.count) bytes)" : text
    case .error(let text): return "error: \(text)"
    }
  }
}

private func path(_ keys: [any CodingKey]) -> String {
  keys.map { "\($0.stringValue)#\($0.intValue.map(String.init) ?? "-")" }.joined(separator: "/")
}

private func describe(_ error: any Error) -> String {
  switch error {
  case EncodingError.invalidValue(let value, let context):
    return
      "invalidValue(\(type(of: value)), path: \(path(context.codingPath)), \(context.debugDescription), underlying: \(context.underlyingError.map { String(describing: $0) } ?? "nil"))"
  default: return String(reflecting: error)
  }
}

private func outcome(_ body: () throws -> Data) -> Outcome {
  do { return .bytes(try body()) } catch { return .error(describe(error)) }
}

private func reference<Value: Encodable>(_ value: Value) -> Outcome {
  outcome {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    return try encoder.encode(value)
  }
}

private func codec<Value: Encodable>(_ value: Value) -> Outcome {
  outcome { try JSONDurableCodec().encode(value) }
}

/// Expects the codec's outcome to be JSONEncoder's, the value encoded once
/// (or up to twice when `fallback`), alone and in a DurableEnvelope.
private func expectSame<Value: Encodable>(
  _ value: Value, fallback: Bool = false, envelope: Bool = true, _ note: String = "",
  sourceLocation: SourceLocation = #_sourceLocation
) {
  // Both through HCounted, so that a top-level error names the same type.
  let expected = reference(HCounted(wrapped: value, calls: HCalls()))
  let calls = HCalls()
  let actual = codec(HCounted(wrapped: value, calls: calls))
  #expect(
    actual == expected, "\(note) \(Value.self):\n codec     \(actual)\n reference \(expected)",
    sourceLocation: sourceLocation)
  if fallback {
    #expect(calls.count <= 2, "\(note) \(Value.self) encoded \(calls.count) times", sourceLocation: sourceLocation)
  } else {
    #expect(calls.count == 1, "\(note) \(Value.self) encoded \(calls.count) times", sourceLocation: sourceLocation)
  }
  if envelope {
    let wrapped = StoredLikeEnvelope(version: 3, value: value)
    let expectedWrapped = reference(wrapped)
    let actualWrapped = codec(wrapped)
    #expect(
      actualWrapped == expectedWrapped,
      "\(note) envelope of \(Value.self):\n codec     \(actualWrapped)\n reference \(expectedWrapped)",
      sourceLocation: sourceLocation)
  }
}

/// DurableEnvelope needs Codable; this is its shape for Encodable-only values.
private struct StoredLikeEnvelope<Value: Encodable>: Encodable {
  var version: Int
  var value: Value
}

private struct Boom: Error, Equatable {
  var place: String
}

// MARK: Hostile types

/// Throws its own error before writing anything.
private struct Thrower: Encodable {
  func encode(to encoder: any Encoder) throws { throw Boom(place: "thrower") }
}

/// Writes a key, then throws.
private struct HalfThrower: Encodable {
  var calls: HCalls
  func encode(to encoder: any Encoder) throws {
    calls.count += 1
    var container = encoder.container(keyedBy: HKey.self)
    try container.encode(1, forKey: "written")
    try container.encode("also", forKey: "b")
    throw Boom(place: "half")
  }
}

/// Throws only on its second call.
private struct ThrowsOnSecondCall: Encodable {
  var calls: HCalls
  func encode(to encoder: any Encoder) throws {
    calls.count += 1
    if calls.count == 2 { throw Boom(place: "second") }
    var container = encoder.container(keyedBy: HKey.self)
    try container.encode(calls.count, forKey: "call")
  }
}

/// Writes to a container after a later sibling (the documented fallback),
/// then throws its own error on the first call only (`throwOn` 1) or the
/// second only (`throwOn` 2).
private struct StaleThenThrows: Encodable {
  var calls: HCalls
  var throwOn: Int
  func encode(to encoder: any Encoder) throws {
    calls.count += 1
    var container = encoder.container(keyedBy: HKey.self)
    var nested = container.nestedContainer(keyedBy: HKey.self, forKey: "n")
    try container.encode(1, forKey: "a")
    try nested.encode(2, forKey: "late")
    if calls.count == throwOn { throw Boom(place: "call \(calls.count)") }
  }
}

/// `try?` around a member that throws: JSONEncoder leaves the member out.
private struct LossyKeyed: Encodable {
  var inner: any Encodable & Sendable
  var last: Bool
  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: HKey.self)
    try container.encode(1, forKey: "a")
    try? container.encode(inner, forKey: "b")
    if !last { try container.encode(2, forKey: "c") }
  }
}

/// `try?` around an element that throws: JSONEncoder leaves the element out.
private struct LossyUnkeyed: Encodable {
  var inner: any Encodable & Sendable
  func encode(to encoder: any Encoder) throws {
    var container = encoder.unkeyedContainer()
    try container.encode(1)
    try? container.encode(inner)
    try container.encode(container.count)
  }
}

/// A single value that throws, caught, then another single value.
private struct LossySingle: Encodable {
  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try? container.encode(Thrower())
    try container.encode(5)
  }
}

/// Its coding path as a string (and its userInfo's size).
private struct PathProbe: Encodable, Sendable {
  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode("\(path(encoder.codingPath)) [\(encoder.userInfo.count)]")
  }
}

/// Asks for `unkeyedContainer()` twice, as a class and its superclass
/// sharing one encoder would: the second container's count and its
/// elements' coding paths.
private struct TwoUnkeyed: Encodable {
  func encode(to encoder: any Encoder) throws {
    var first = encoder.unkeyedContainer()
    try first.encode("x")
    try first.encode("y")
    var second = encoder.unkeyedContainer()
    try second.encode(second.count)
    try second.encode(PathProbe())
  }
}

/// A copy of an unkeyed container (it is a struct in both encoders).
private struct CopiedUnkeyed: Encodable {
  func encode(to encoder: any Encoder) throws {
    var container = encoder.unkeyedContainer()
    var copy = container
    try container.encode("x")
    try copy.encode("y")
    try container.encode(container.count)
    try container.encode(PathProbe())
  }
}

/// The coding path of a nested container read after a later sibling was
/// written (reading only, no write to it).
private struct StalePath: Encodable {
  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: HKey.self)
    var outer = container.nestedContainer(keyedBy: HKey.self, forKey: "outer")
    var nested = outer.nestedContainer(keyedBy: HKey.self, forKey: "nested")
    try nested.encode(1, forKey: "x")
    try outer.encode(2, forKey: "sibling")
    let stale = path(nested.codingPath)
    try outer.encode(stale, forKey: "path")
  }
}

/// The coding path of a value's encoder, read by its parent afterwards.
private final class EncoderBox: @unchecked Sendable {
  var encoder: (any Encoder)?
}

private struct KeepsEncoder: Encodable, @unchecked Sendable {
  var box: EncoderBox
  func encode(to encoder: any Encoder) throws {
    box.encoder = encoder
    var container = encoder.singleValueContainer()
    try container.encode(0)
  }
}

private struct ReadsKeptEncoder: Encodable {
  func encode(to encoder: any Encoder) throws {
    let box = EncoderBox()
    var container = encoder.container(keyedBy: HKey.self)
    var list = container.nestedUnkeyedContainer(forKey: "list")
    try list.encode(KeepsEncoder(box: box))
    try list.encode(1)
    try container.encode(path(box.encoder!.codingPath), forKey: "path")
  }
}

/// A super encoder kept alive past the encoding (JSONEncoder writes a
/// super encoder's value into its container when it is released).
private final class Leak: @unchecked Sendable {
  var encoders: [any Encoder] = []
}

private struct LeakedSuper: Encodable {
  var leak: Leak
  var unkeyed: Bool
  func encode(to encoder: any Encoder) throws {
    if unkeyed {
      var container = encoder.unkeyedContainer()
      try container.encode("a")
      let sup = container.superEncoder()
      var single = sup.singleValueContainer()
      try single.encode("s")
      leak.encoders.append(sup)
      try container.encode(container.count)
    } else {
      var container = encoder.container(keyedBy: HKey.self)
      try container.encode("a", forKey: "a")
      let sup = container.superEncoder(forKey: "s")
      var single = sup.singleValueContainer()
      try single.encode("s")
      leak.encoders.append(sup)
    }
  }
}

/// Super encoders everywhere, each writing its coding path.
private struct Supers: Encodable {
  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: HKey.self)
    try PathProbe().encode(to: container.superEncoder())
    try PathProbe().encode(to: container.superEncoder(forKey: "named"))
    var list = container.nestedUnkeyedContainer(forKey: "list")
    try list.encodeNil()
    try PathProbe().encode(to: list.superEncoder())
    var inList = list.nestedContainer(keyedBy: HKey.self)
    try inList.encodeNil(forKey: "nil")
    try PathProbe().encode(to: inList.superEncoder())
    try list.encodeNil()
    _ = list.superEncoder()  // encodes nothing: {}
    var deeper = list.nestedUnkeyedContainer()
    try deeper.encode(PathProbe())
    try deeper.encode([PathProbe()])
    try deeper.encode(["k": PathProbe()])
    _ = container.superEncoder(forKey: "empty")  // encodes nothing: {}
  }
}

/// A value in a nested unkeyed container writing its coding path, or
/// throwing an EncodingError with it (as a type that validates itself does).
private struct InNestedUnkeyed: Encodable {
  var throwing: Bool
  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: HKey.self)
    var list = container.nestedUnkeyedContainer(forKey: "list")
    if throwing { try list.encode(SelfValidating()) } else { try list.encode(PathProbe()) }
  }
}

private struct SelfValidating: Encodable {
  func encode(to encoder: any Encoder) throws {
    throw EncodingError.invalidValue(
      0, EncodingError.Context(codingPath: encoder.codingPath, debugDescription: "out of range"))
  }
}

/// Two keyed containers of different key types on one encoder.
private struct TwoKeyed: Encodable {
  enum A: String, CodingKey { case z, m }
  enum B: String, CodingKey { case a, y }
  func encode(to encoder: any Encoder) throws {
    var first = encoder.container(keyedBy: A.self)
    try first.encode(1, forKey: .z)
    var second = encoder.container(keyedBy: B.self)
    try second.encode(2, forKey: .a)
    try first.encode(3, forKey: .m)
    try second.encode(PathProbe(), forKey: .y)
  }
}

/// A nested container asked for twice for one key.
private struct NestedTwice: Encodable {
  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: HKey.self)
    var first = container.nestedContainer(keyedBy: HKey.self, forKey: "n")
    try first.encode(1, forKey: "a")
    var second = container.nestedContainer(keyedBy: HKey.self, forKey: "n")
    try second.encode(2, forKey: "b")
  }
}

/// Mixed unkeyed content.
private struct MixedUnkeyed: Encodable {
  func encode(to encoder: any Encoder) throws {
    var container = encoder.unkeyedContainer()
    try container.encodeNil()
    var keyed = container.nestedContainer(keyedBy: HKey.self)
    try keyed.encodeNil(forKey: "z")
    try keyed.encode(true, forKey: "")
    try container.encodeNil()
    _ = container.nestedUnkeyedContainer()
    _ = container.nestedContainer(keyedBy: HKey.self)
    try container.encode(Silent())
    try container.encode(Int128.min)
    try container.encode(UInt128.max)
  }
}

private struct Silent: Encodable, Sendable {
  func encode(to encoder: any Encoder) throws {}
}

private struct SilentNested: Encodable {
  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: HKey.self)
    try container.encode(Silent(), forKey: "s")
    try container.encode([Silent(), Silent()], forKey: "l")
    try container.encode(Optional<Silent>.none, forKey: "n")
  }
}

/// A class hierarchy, three ways of encoding the superclass.
private class Base: Encodable {
  enum Keys: String, CodingKey { case base }
  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Keys.self)
    try container.encode("base", forKey: .base)
  }
}

private final class Derived: Base, @unchecked Sendable {
  enum DerivedKeys: String, CodingKey { case derived, parent }
  let mode: Int
  init(mode: Int) { self.mode = mode }
  override func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: DerivedKeys.self)
    try container.encode("derived", forKey: .derived)
    switch mode {
    case 0: try super.encode(to: container.superEncoder())
    case 1: try super.encode(to: container.superEncoder(forKey: .parent))
    default: try super.encode(to: encoder)
    }
  }
}

/// An unkeyed class hierarchy sharing one encoder.
private class UnkeyedBase: Encodable {
  func encode(to encoder: any Encoder) throws {
    var container = encoder.unkeyedContainer()
    try container.encode("base")
    try container.encode(PathProbe())
  }
}

private final class UnkeyedDerived: UnkeyedBase, @unchecked Sendable {
  override func encode(to encoder: any Encoder) throws {
    try super.encode(to: encoder)
    var container = encoder.unkeyedContainer()
    try container.encode("derived")
    try container.encode(PathProbe())
  }
}

/// Containers nested `depth` deep (the innermost one empty).
private struct Nest: Encodable {
  var depth: Int
  var keyed: Bool
  func encode(to encoder: any Encoder) throws {
    if keyed {
      var container = encoder.container(keyedBy: HKey.self)
      if depth > 1 { try container.encode(Nest(depth: depth - 1, keyed: !keyed), forKey: "k") }
    } else {
      var container = encoder.unkeyedContainer()
      if depth > 1 { try container.encode(Nest(depth: depth - 1, keyed: !keyed)) }
    }
  }
}

/// The same, through nestedContainer calls.
private struct NestInPlace: Encodable {
  var depth: Int
  func encode(to encoder: any Encoder) throws {
    var container = encoder.unkeyedContainer()
    for _ in 1..<depth { container = container.nestedUnkeyedContainer() }
    try container.encode(1)
  }
}

/// Writes `pairs` to one keyed container in this order.
private struct HPairs: Encodable {
  var pairs: [(String, Int)]
  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: HKey.self)
    for (key, value) in pairs { try container.encode(value, forKey: HKey(key)) }
  }
}

/// A JSON-like tree.
private indirect enum Tree: Encodable, Sendable {
  case null, bool(Bool), int(Int), double(Double), string(String)
  case list([Tree]), object([(String, Tree)])

  func encode(to encoder: any Encoder) throws {
    switch self {
    case .null:
      var single = encoder.singleValueContainer()
      try single.encodeNil()
    case .bool(let value):
      var single = encoder.singleValueContainer()
      try single.encode(value)
    case .int(let value):
      var single = encoder.singleValueContainer()
      try single.encode(value)
    case .double(let value):
      var single = encoder.singleValueContainer()
      try single.encode(value)
    case .string(let value):
      var single = encoder.singleValueContainer()
      try single.encode(value)
    case .list(let values):
      var container = encoder.unkeyedContainer()
      for value in values { try container.encode(value) }
    case .object(let members):
      var container = encoder.container(keyedBy: HKey.self)
      for (key, value) in members { try container.encode(value, forKey: HKey(key)) }
    }
  }

  static let keyPool = [
    "", "a", "b", "B", "a10", "a9", "é", "\u{0}", "\"", "\\", "/", "\u{1F600}", "\u{FFFE}", "\u{2028}", "k\u{7F}",
    "ß", "日本", "\u{10FFFF}", "\t", "x y", "aa", "a",
  ]

  static func random(_ rng: inout SeededGenerator, depth: Int) -> Tree {
    let pick = rng.next() % (depth > 5 ? 5 : 7)
    switch pick {
    case 0: return .null
    case 1: return .bool(rng.next() & 1 == 0)
    case 2: return .int(Int(bitPattern: UInt(rng.next())) >> Int(rng.next() % 64))
    case 3:
      let bits = rng.next()
      let value = Double(bitPattern: bits)
      return .double(value.isFinite ? value : Double(Int64(bitPattern: bits)) / 1e7)
    case 4:
      let length = Int(rng.next() % 6)
      var text = ""
      for _ in 0..<length { text += keyPool[Int(rng.next() % UInt64(keyPool.count))] }
      return .string(text)
    case 5:
      return .list((0..<Int(rng.next() % 5)).map { _ in random(&rng, depth: depth + 1) })
    default:
      var members: [(String, Tree)] = []
      var used: Set<String> = []
      for _ in 0..<Int(rng.next() % 6) {
        let key = keyPool[Int(rng.next() % UInt64(keyPool.count))] + (rng.next() % 3 == 0 ? "z" : "")
        // Distinct keys only: a key twice is the documented fallback.
        guard used.insert(key).inserted else { continue }
        members.append((key, random(&rng, depth: depth + 1)))
      }
      return .object(members)
    }
  }
}

private enum Suit: String, Codable, CodingKeyRepresentable, Sendable {
  case spades, hearts, a10, a9
  case clubs = "Clubs"
}

// MARK: Tests

@Suite("Hostile JSONDurableCodec", .timeLimit(.minutes(2)))
struct HostileJSONCodecTests {
  @Test("numbers: integer limits, float and double edges, 10k random doubles and floats by bit pattern")
  func numbers() {
    expectSame([Int.min, Int.max, 0, -1])
    expectSame([Int8.min, Int8.max])
    expectSame([Int16.min, Int16.max])
    expectSame([Int32.min, Int32.max])
    expectSame([Int64.min, Int64.max])
    expectSame([UInt8.max, 0])
    expectSame([UInt16.max])
    expectSame([UInt32.max])
    expectSame([UInt64.max, UInt64.max - 1, 1 << 63])
    expectSame([UInt.max])
    expectSame([Int128.min, Int128.max, 0, -1])
    expectSame([UInt128.max, 0])
    expectSame(Int128.min)
    expectSame(UInt128.max)
    let doubles: [Double] = [
      -0.0, 0, .ulpOfOne, .leastNonzeroMagnitude, -.leastNonzeroMagnitude, .leastNormalMagnitude,
      .leastNormalMagnitude.nextDown, .greatestFiniteMagnitude, -.greatestFiniteMagnitude, 1e21, 1e21.nextDown,
      1e21.nextUp, 1e-7, 1e-7.nextDown, 1e-7.nextUp, 1e-6, 1e-5, 1e-4, 1e15, 1e16, 1e16.nextDown, 1e17, 0.1, 0.2,
      0.30000000000000004, 123_456_789.012, 9_007_199_254_740_993, 2.5e-308, 1.0 / 3, -1e-320, 4.9e-324, 100, 1e22,
      1e23, 5e-324,
    ]
    expectSame(doubles)
    for value in doubles { expectSame(value, envelope: false) }
    let floats: [Float] = [
      -0.0, .ulpOfOne, .leastNonzeroMagnitude, .leastNormalMagnitude, .greatestFiniteMagnitude, 1e-7, 1e21, 16_777_217,
      0.1, 1e-45, 3.4e38, 1e16, 1e-5,
    ]
    expectSame(floats)
    for value in floats { expectSame(value, envelope: false) }
    expectSame([Float16(0.1), Float16.greatestFiniteMagnitude, -Float16.leastNonzeroMagnitude])
    var rng = SeededGenerator(seed: 20_261_130)
    var randomDoubles: [Double] = []
    var randomFloats: [Float] = []
    while randomDoubles.count < 10_000 {
      let double = Double(bitPattern: rng.next())
      if double.isFinite { randomDoubles.append(double) }
      let float = Float(bitPattern: UInt32(truncatingIfNeeded: rng.next()))
      if float.isFinite { randomFloats.append(float) }
    }
    expectSame(randomDoubles, envelope: false)
    expectSame(randomFloats, envelope: false)
    // Integers at every power of ten and two, as doubles too.
    var powers: [Double] = []
    for exponent in -323...308 { powers.append(Double("1e\(exponent)") ?? 0) }
    for exponent in -1074...1023 { powers.append(Double(sign: .plus, exponent: exponent, significand: 1)) }
    expectSame(powers, envelope: false)
  }

  @Test("strings: every scalar below U+3000, noncharacters, U+2028/9, BOM, NUL, a 2 MB string, as values and keys")
  func strings() {
    var scalars = ""
    for value in 0..<0x3000 { if let scalar = Unicode.Scalar(value) { scalars.unicodeScalars.append(scalar) } }
    expectSame(scalars)
    let specials = [
      "\u{FFFE}", "\u{FFFF}", "\u{2028}", "\u{2029}", "\u{FEFF}", "\u{0}", "\u{7F}", "\u{10FFFF}",
      "\u{1F468}\u{200D}\u{1F469}",
      "e\u{301}\u{301}", "\u{E000}", "\u{D7FF}", "\u{F8FF}", "a\u{0}b", "\\u0000", "</script>", "\"\"",
    ]
    expectSame(specials)
    var pairs: [(String, Int)] = []
    for (index, key) in specials.enumerated() { pairs.append((key, index)) }
    expectSame(HPairs(pairs: pairs))
    expectSame(HPairs(pairs: pairs.reversed()))
    var byKey: [String: String] = [:]
    for key in specials { byKey[key] = key }
    expectSame(byKey)
    expectSame(String(repeating: "a/\"\\\u{1}é😀", count: 300_000), envelope: false)
    expectSame([String(repeating: "k", count: 100_000): 1])
  }

  @Test("keys equal in NFC order but not in bytes: Å (U+212B) against Æ, a+◌́ against b")
  func nonNFCKeyOrder() {
    // Distinct as Strings, so not the documented "equal as Strings" fallback.
    expectSame(HPairs(pairs: [("\u{212B}", 1), ("\u{C6}", 2)]))
    expectSame(HPairs(pairs: [("\u{C6}", 2), ("\u{212B}", 1)]))
    expectSame(HPairs(pairs: [("a\u{301}", 1), ("b", 2)]))
    expectSame(["\u{212B}": 1, "\u{C6}": 2])
    expectSame(["a\u{301}": 1, "b": 2, "\u{E1}x": 3])
  }

  @Test("random JSON-like trees (fixed seed), keys out of order, escapes, numbers")
  func randomTrees() {
    var rng = SeededGenerator(seed: 7)
    for index in 0..<400 { expectSame(Tree.random(&rng, depth: 0), envelope: index % 10 == 0, "tree \(index)") }
  }

  @Test("Foundation types: Decimal (negative, huge, NaN), relative URL, distant dates, empty and big Data")
  func foundationTypes() {
    let decimals: [Decimal] = [
      Decimal(-1.5), Decimal(string: "-0") ?? 1, Decimal(string: "123456789012345678901234567890123456789") ?? 2,
      Decimal.greatestFiniteMagnitude, Decimal.leastNonzeroMagnitude, -Decimal.greatestFiniteMagnitude,
      Decimal(string: "1e-120") ?? 0, Decimal(string: "0.000001") ?? 0, Decimal(string: "-0.5") ?? 0,
    ]
    expectSame(decimals)
    expectSame(Decimal.nan, "Decimal NaN")
    expectSame([Decimal.nan], "Decimal NaN in an array")
    expectSame(Optional(Decimal.nan), "Decimal NaN optional")
    let base = URL(string: "https://example.org/a/b/")!
    let urls: [URL] = [
      URL(string: "../c?q=1#f", relativeTo: base)!, URL(string: "d e", relativeTo: base) ?? base,
      URL(fileURLWithPath: "/tmp/a b/ü"), URL(string: "mailto:x@y")!, URL(string: "urn:x")!,
      URL(fileURLWithPath: "rel/path", relativeTo: URL(fileURLWithPath: "/root/")),
    ]
    expectSame(urls)
    expectSame(urls[0])
    expectSame([Optional(urls[0]), nil])
    expectSame([Date.distantPast, .distantFuture, Date(timeIntervalSinceReferenceDate: -0.0)])
    expectSame(Date(timeIntervalSinceReferenceDate: .leastNonzeroMagnitude))
    expectSame(Data())
    expectSame([Data(), Data([0]), Data([0, 0]), Data([0xFF, 0xFF, 0xFF])])
    var rng = SeededGenerator(seed: 3)
    expectSame(Data((0..<1_000_001).map { _ in UInt8(truncatingIfNeeded: rng.next()) }), envelope: false)
    expectSame(["d": Data([0xFB, 0xFF])])
    expectSame([UInt8](repeating: 255, count: 10))
  }

  @Test("large arrays and dictionaries: 100k ints, Int/String/enum/Int8 keys")
  func largeAndKeyed() {
    expectSame(Array(-50_000..<50_000), envelope: false)
    var rng = SeededGenerator(seed: 11)
    var byInt: [Int: Int] = [:]
    var byString: [String: [Int]] = [:]
    for _ in 0..<2_000 {
      let value = Int(bitPattern: UInt(rng.next()))
      byInt[value] = value
      byString["\(value)"] = [value]
    }
    expectSame(byInt)
    expectSame(byString)
    expectSame([Suit.spades: 1, .hearts: 2, .clubs: 3, .a10: 4, .a9: 5])
    expectSame([Int8.min: "min", 0: "zero", Int8.max: "max"])
    expectSame([UInt64.max: 1])
    expectSame(["": [String: Int]()])
  }

  @Test("optionals of optionals, silent values nested and at the top, mixed unkeyed content")
  func shapes() {
    expectSame([Int??.some(nil), .some(.some(1)), .none])
    expectSame(Int??.some(nil))
    expectSame(Int???.some(.some(nil)))
    expectSame(SilentNested())
    expectSame(Silent(), fallback: true)
    expectSame(MixedUnkeyed())
    expectSame([[[[[[Int]]]]]]())
    expectSame(TwoKeyed())
    expectSame(NestedTwice(), fallback: true)
  }

  @Test("coding paths and userInfo as values see: super encoders, nested containers")
  func codingPaths() {
    expectSame(PathProbe())
    expectSame([PathProbe()])
    expectSame(["k": [PathProbe()]])
    expectSame(["k": [Optional(PathProbe()), nil]])
  }

  @Test(
    "finding: coding paths inside nested containers: JSONEncoder's leave out the nested container's keys",
    .disabled("finding: JSONEncoder's paths below a nested container lack its key; the writer's have them")
  )
  func nestedContainerPaths() {
    expectSame(Supers())
    expectSame(InNestedUnkeyed(throwing: false))
    expectSame(InNestedUnkeyed(throwing: true))
  }

  @Test("class hierarchies: super.encode through superEncoder(), superEncoder(forKey:) and the same encoder")
  func classes() {
    expectSame(Derived(mode: 0))
    expectSame(Derived(mode: 1))
    expectSame(Derived(mode: 2))
  }

  @Test(
    "finding: an unkeyed class hierarchy sharing one encoder: the second unkeyedContainer() starts its count at 0",
    .disabled("finding: BinaryUnkeyedEncoder.count is per struct value; JSONEncoder's is the shared array's")
  )
  func unkeyedHierarchy() {
    expectSame(UnkeyedDerived())
    expectSame(TwoUnkeyed())
    expectSame(CopiedUnkeyed())
  }

  @Test(
    "finding: a nested container's codingPath read after a later sibling was written",
    .disabled("finding: codingPath(through:) of a closed frame walks the whole stack")
  )
  func stalePaths() {
    expectSame(StalePath())
    expectSame(ReadsKeptEncoder())
  }

  @Test("try? around a member or element that throws: left out, as JSONEncoder leaves it out")
  func lossyMembers() {
    expectSame(LossyKeyed(inner: Thrower(), last: false))
    expectSame(LossyKeyed(inner: Thrower(), last: true))
    expectSame(LossyKeyed(inner: HalfThrower(calls: HCalls()), last: false))
    expectSame(LossyUnkeyed(inner: Thrower()))
  }

  @Test("try? around a single value that throws, then another: JSONEncoder's bytes")
  func lossySingle() {
    expectSame(LossySingle(), fallback: true)
  }

  @Test(
    "finding: a super encoder kept alive past the encoding",
    .disabled("finding: JSONEncoder writes a super encoder's value only when it is released")
  )
  func leakedSuperEncoders() {
    for unkeyed in [false, true] {
      let leakA = Leak()
      let leakB = Leak()
      let expected = reference(LeakedSuper(leak: leakA, unkeyed: unkeyed))
      let actual = codec(LeakedSuper(leak: leakB, unkeyed: unkeyed))
      #expect(actual == expected, "unkeyed \(unkeyed):\n codec     \(actual)\n reference \(expected)")
      withExtendedLifetime((leakA, leakB)) {}
    }
  }

  @Test("nesting 505...515 deep, keyed, unkeyed, alternating, in place: JSONEncoder's bytes or its error")
  func nesting() {
    for depth in 505...515 {
      expectSame(Nest(depth: depth, keyed: false), fallback: depth >= 511, envelope: false, "unkeyed \(depth)")
      expectSame(Nest(depth: depth, keyed: true), fallback: depth >= 511, envelope: false, "keyed \(depth)")
      expectSame(NestInPlace(depth: depth), fallback: depth >= 511, envelope: false, "in place \(depth)")
      expectSame(
        StoredLikeEnvelope(version: 1, value: Nest(depth: depth, keyed: true)), fallback: depth >= 510,
        envelope: false, "enveloped \(depth)")
    }
  }

  @Test("a value's own error: thrown as it is, after half its fields, encoded once")
  func ownErrors() {
    let calls = HCalls()
    let referenceCalls = HCalls()
    let expected = reference(HalfThrower(calls: referenceCalls))
    let actual = codec(HalfThrower(calls: calls))
    #expect(actual == expected)
    #expect(calls.count == 1)
    let nested = codec(["a": [HalfThrower(calls: calls)]])
    #expect(nested == reference(["a": [HalfThrower(calls: referenceCalls)]]))
    #expect(calls.count == 2)
    // Throws only on a second call: the codec must not make one.
    let once = HCalls()
    let referenceOnce = HCalls()
    #expect(codec(ThrowsOnSecondCall(calls: once)) == reference(ThrowsOnSecondCall(calls: referenceOnce)))
    #expect(once.count == 1)
    let envelopeOnce = HCalls()
    let envelopeReference = HCalls()
    #expect(
      codec(StoredLikeEnvelope(version: 1, value: ThrowsOnSecondCall(calls: envelopeOnce)))
        == reference(StoredLikeEnvelope(version: 1, value: ThrowsOnSecondCall(calls: envelopeReference))))
    #expect(envelopeOnce.count == 1)
  }

  @Test(
    "finding: a fallback value that throws on one call only: the codec's outcome is the second call's",
    .disabled("finding: the fallback re-runs encode(to:), its outcome replaces the first's")
  )
  func fallbackRerunChangesOutcome() {
    for throwOn in [1, 2] {
      let expected = reference(StaleThenThrows(calls: HCalls(), throwOn: throwOn))
      let calls = HCalls()
      let actual = codec(StaleThenThrows(calls: calls, throwOn: throwOn))
      #expect(actual == expected, "throwOn \(throwOn):\n codec     \(actual)\n reference \(expected)")
    }
  }

  @Test("8 threads, 40 rounds each, hostile values: JSONEncoder's bytes every time")
  func manyThreads() {
    var rng = SeededGenerator(seed: 99)
    let trees = (0..<64).map { _ in Tree.random(&rng, depth: 0) }
    let values: [any Encodable & Sendable] =
      trees.map { $0 as any Encodable & Sendable } + [
        Derived(mode: 1), Derived(mode: 0), Derived(mode: 2), MixedUnkeyed(), SilentNested(),
        Nest(depth: 511, keyed: true),
        Nest(depth: 300, keyed: false), LossySingle(), NestedTwice(), TwoKeyed(), Silent(),
        ["\u{212B}z": 1, "b": 2], [Double.nan], PathProbe(),
      ]
    let expected = values.map { value in reference(value) }
    let mismatches = Locked<[String]>([])
    DispatchQueue.concurrentPerform(iterations: 8) { thread in
      for round in 0..<40 {
        for offset in 0..<values.count {
          let index = (offset + thread * 7 + round) % values.count
          let actual = codec(values[index])
          if actual != expected[index] { mismatches.withLock { $0.append("\(thread)/\(round)/\(index)") } }
        }
      }
    }
    #expect(mismatches.withLock { $0 } == [])
  }
}

extension Supers: Sendable {}
extension MixedUnkeyed: Sendable {}
extension SilentNested: Sendable {}
extension Nest: Sendable {}
extension LossySingle: Sendable {}
extension NestedTwice: Sendable {}
extension TwoKeyed: Sendable {}
extension Thrower: Sendable {}
extension HalfThrower: Sendable {}
