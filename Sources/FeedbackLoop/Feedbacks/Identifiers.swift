/// Identifies a feedback within its system: its position in the list given
/// to the system, and a readable name.
///
/// The name is the one passed to the feedback's initializer, or its kind and
/// the place it was written (`query@Search.swift:42`).
public struct FeedbackID: Sendable, Hashable, CustomStringConvertible {
  /// The feedback's position in the system's list of feedbacks.
  public let index: Int
  let label: FeedbackLabel

  init(index: Int, label: FeedbackLabel) {
    self.index = index
    self.label = label
  }

  /// The feedback's readable name.
  public var name: String { label.text }

  /// The kind of feedback (`query`, `requests`...). `package`: a durable
  /// system's effect keys name the element of a keyed feedback only.
  package var kind: String { label.kind }

  public var description: String { "#\(index) \(name)" }
}

/// A feedback's name, or what it is made from (its kind and where it was
/// written): the text is built only when someone reads it, so that making a
/// system costs no string work.
struct FeedbackLabel: @unchecked Sendable, Hashable {
  // Sendable: the pointers point into the binary's constant data (static
  // strings), which no one writes and which lives as long as the process.
  let explicit: String?
  // `#fileID` and the kinds' string literals live in the binary's constant
  // data: a pointer and a length each, in 24 bytes, rather than two
  // `StaticString`s (48 bytes with their padding). Every running feedback
  // keeps its label (the idle-systems benchmark in BENCHMARKS.md).
  private let kindStart: UnsafeRawPointer?
  private let fileIDStart: UnsafeRawPointer?
  private let kindLength: UInt16
  private let fileIDLength: UInt16
  let line: UInt32

  init(explicit: String?, kind: StaticString, fileID: StaticString, line: UInt) {
    self.explicit = explicit
    (kindStart, kindLength) = Self.pointer(to: kind)
    (fileIDStart, fileIDLength) = Self.pointer(to: fileID)
    self.line = UInt32(truncatingIfNeeded: line)
  }

  private static func pointer(to string: StaticString) -> (UnsafeRawPointer?, UInt16) {
    // A one-scalar literal has no pointer; no kind or file name is one.
    guard string.hasPointerRepresentation, string.utf8CodeUnitCount <= Int(UInt16.max) else { return (nil, 0) }
    return (UnsafeRawPointer(string.utf8Start), UInt16(string.utf8CodeUnitCount))
  }

  private static func text(_ start: UnsafeRawPointer?, _ length: UInt16) -> String {
    guard let start else { return "?" }
    return String(decoding: UnsafeRawBufferPointer(start: start, count: Int(length)), as: UTF8.self)
  }

  var kind: String { Self.text(kindStart, kindLength) }
  var fileID: String { Self.text(fileIDStart, fileIDLength) }

  var text: String {
    if let explicit { return explicit }
    let path = fileID
    let file = path.split(separator: "/").last.map(String.init) ?? path
    return "\(kind)@\(file):\(line)"
  }

  static func == (lhs: FeedbackLabel, rhs: FeedbackLabel) -> Bool { lhs.text == rhs.text }
  func hash(into hasher: inout Hasher) { hasher.combine(text) }
}

/// Identifies one effect started by a feedback, for monitors and tests.
public struct EffectID: Sendable, Hashable, CustomStringConvertible {
  /// The feedback that started the effect.
  public let feedback: FeedbackID
  /// The effect's number within its feedback, increasing from 1.
  public let number: UInt64
  /// What started it: the query, request or key, as text (when known).
  public let trigger: String?

  public var description: String {
    trigger.map { "\(feedback) effect \(number) for \($0)" } ?? "\(feedback) effect \(number)"
  }

  public static func == (lhs: EffectID, rhs: EffectID) -> Bool {
    lhs.feedback == rhs.feedback && lhs.number == rhs.number
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(feedback)
    hasher.combine(number)
  }
}
