/// The tag byte before each value of ``BinaryDurableCodec``'s format.
enum BinaryTag: UInt8 {
  case null = 0x00
  case falseValue = 0x01
  case trueValue = 0x02
  case signed = 0x03
  case unsigned = 0x04
  case double = 0x05
  case float = 0x06
  case string = 0x07
  case bytes = 0x08
  case unkeyed = 0x09
  case keyed = 0x0A
  case end = 0x0B
}

/// The key of an unkeyed container's element, for coding paths.
struct BinaryIndexKey: CodingKey {
  var intValue: Int?
  var stringValue: String { "Index \(intValue ?? 0)" }

  init(_ index: Int) { intValue = index }
  init?(intValue: Int) { self.intValue = intValue }
  init?(stringValue: String) { nil }
}

/// The key `superEncoder()` and `superDecoder()` use.
struct BinarySuperKey: CodingKey {
  var stringValue: String { "super" }
  var intValue: Int? { nil }

  init() {}
  init?(intValue: Int) { nil }
  init?(stringValue: String) { nil }
}
