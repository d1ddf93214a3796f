/// Why a stored snapshot or event did not decode: what was decoded, as
/// which type and schema version, and the field where decoding stopped.
///
/// It is the `underlying` error of
/// ``DurableSystemError/decodingFailed(systemID:sequence:underlying:)``.
///
/// ```swift
/// do {
///   _ = try await DurableSystem.restore(id: "cart-42", writer: writer, initial: Cart(), reduce: Cart.reduce)
/// } catch DurableSystemError.decodingFailed(let id, let sequence, let underlying) {
///   let failure = underlying as? DurableDecodingFailure
///   print(id, sequence, failure?.field ?? "")  // cart-42 17 items[2].price
/// }
/// ```
public struct DurableDecodingFailure: Error, CustomStringConvertible {
  /// A snapshot or an event.
  public var record: DurableRecordKind
  /// The type the record was decoded as (the current type, or a type a
  /// migration reads).
  public var typeName: String
  /// The schema version the record was decoded at.
  public var version: Int
  /// The field where decoding stopped, as a path into the value
  /// (`items[2].price`), or `nil` when the error names none: the value
  /// itself, or a codec whose errors are not `DecodingError`s.
  public var field: String?
  /// What the codec threw.
  public var underlying: any Error

  public init(record: DurableRecordKind, typeName: String, version: Int, underlying: any Error) {
    self.record = record
    self.typeName = typeName
    self.version = version
    self.underlying = underlying
    field = Self.field(of: underlying)
  }

  public var description: String {
    let place = field.map { "at field \"\($0)\"" } ?? "at the value itself"
    return
      "it did not decode as \(typeName) (schema version \(version)) \(place): \(Self.shortened(Self.reason(of: underlying)))"
  }

  /// A codec's message may quote the payload, which may be megabytes.
  private static func shortened(_ text: String) -> String {
    let limit = 400
    return text.count <= limit ? text : text.prefix(limit) + "… (\(text.count - limit) more characters)"
  }

  /// The path of a `DecodingError`, without the envelope's `value` key that
  /// every stored value sits under.
  private static func field(of error: any Error) -> String? {
    guard let error = error as? DecodingError else { return nil }
    var path: [any CodingKey]
    switch error {
    case .keyNotFound(let key, let context): path = context.codingPath + [key]
    case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
      path = context.codingPath
    @unknown default: return nil
    }
    if path.first?.stringValue == "value" { path.removeFirst() }
    guard !path.isEmpty else { return nil }
    var text = ""
    for key in path {
      if let index = key.intValue, key.stringValue.hasPrefix("Index ") || key.stringValue == "\(index)" {
        text += "[\(index)]"
      } else {
        text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
      }
    }
    return text
  }

  private static func reason(of error: any Error) -> String {
    guard let error = error as? DecodingError else { return "\(error)" }
    switch error {
    case .keyNotFound(let key, _): return "no value for the key \"\(key.stringValue)\""
    case .typeMismatch(let type, let context):
      return "expected \(type): \(context.debugDescription)"
    case .valueNotFound(let type, let context):
      return "expected \(type), found null: \(context.debugDescription)"
    case .dataCorrupted(let context):
      let cause = context.underlyingError.map { " (\($0))" } ?? ""
      return context.debugDescription + cause
    @unknown default: return "\(error)"
    }
  }
}
