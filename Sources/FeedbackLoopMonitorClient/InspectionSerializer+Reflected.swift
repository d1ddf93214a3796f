import FeedbackLoopDebugging

extension InspectionSerializer {
  /// Any types, as JSON read from their structure (`Mirror`): a struct or a
  /// class is an object of its stored properties, an enum case
  /// `{"case":{…}}` as `Codable` writes it, an array an array, a number a
  /// number; what has no structure to read, its description. For a system
  /// whose State or Event is not `Codable`, so that the page shows its
  /// states field by field and diffs them by structure.
  ///
  /// ```swift
  /// let link = try await MonitorClient.stream(
  ///   port: 7_071, secret: secret, recorder: recorder, serializer: .reflected)
  /// ```
  public static var reflected: InspectionSerializer {
    InspectionSerializer(state: { JSONValue(reflecting: $0) }, event: { JSONValue(reflecting: $0) })
  }
}

extension JSONValue {
  /// How deep a value is read; deeper, its description (a class that holds
  /// itself would never end).
  static let reflectionDepth = 24

  /// `value` read from its structure; see ``InspectionSerializer/reflected``.
  public init(reflecting value: Any) {
    self = Self.reflect(value, depth: 0)
  }

  private static func reflect(_ value: Any, depth: Int) -> JSONValue {
    switch value {
    case let value as JSONValue: return value
    case let value as String: return .string(value)
    case let value as Substring: return .string(String(value))
    case let value as Character: return .string(String(value))
    case let value as Bool: return .bool(value)
    case let value as any BinaryInteger: return .number(Double(value))
    case let value as Double: return .number(value.isFinite ? value : 0)
    case let value as Float: return .number(value.isFinite ? Double(value) : 0)
    default: break
    }
    guard depth < reflectionDepth else { return .string(String(describing: value)) }
    let mirror = Mirror(reflecting: value)
    let children = Array(mirror.children)
    switch mirror.displayStyle {
    case .optional:
      return children.first.map { reflect($0.value, depth: depth + 1) } ?? .null
    case .collection, .set:
      return .array(children.map { reflect($0.value, depth: depth + 1) })
    case .dictionary:
      var object: [String: JSONValue] = [:]
      for pair in children {
        let parts = Array(Mirror(reflecting: pair.value).children)
        guard parts.count == 2 else { continue }
        let key = parts[0].value
        object[(key as? String) ?? String(describing: key)] = reflect(parts[1].value, depth: depth + 1)
      }
      return .object(object)
    case .enum:
      // A case without a payload has no child; with one, one child named after the case.
      guard let payload = children.first else { return .object([String(describing: value): .object([:])]) }
      let name = payload.label ?? String(describing: value)
      let fields = Array(Mirror(reflecting: payload.value).children)
      if Mirror(reflecting: payload.value).displayStyle == .tuple {
        return .object([name: object(fields, depth: depth + 1)])
      }
      return .object([name: .object(["_0": reflect(payload.value, depth: depth + 1)])])
    case .struct, .class, .tuple:
      // A value whose fields are all private storage (`Duration`'s `_low`, a date's) reads best as its description.
      let privateStorage = children.allSatisfy { $0.label?.hasPrefix("_") == true }
      guard !children.isEmpty, !(privateStorage && value is any CustomStringConvertible) else {
        return .string(String(describing: value))
      }
      return object(children, depth: depth)
    default:
      return children.isEmpty ? .string(String(describing: value)) : object(children, depth: depth)
    }
  }

  /// Labelled children as an object; an unlabelled one (`.0`) as `_0`, as `Codable` names it.
  private static func object(_ children: [Mirror.Child], depth: Int) -> JSONValue {
    var object: [String: JSONValue] = [:]
    for (index, child) in children.enumerated() {
      var label = child.label ?? "_\(index)"
      if label.hasPrefix("."), let number = Int(label.dropFirst()) { label = "_\(number)" }
      object[label] = reflect(child.value, depth: depth + 1)
    }
    return .object(object)
  }
}
