/// Matches values of type `Root` and extracts a `Value` from those it
/// matches: a state type among the Feedbacks library's protocol states, an enum case and
/// its associated values, one particular value, or anything.
///
/// ``From`` matches states and ``On`` matches events with patterns; the
/// Feedbacks library's forms (`From(LoadingState.self)`, `On(AnyEvent.self, ...)`) build
/// one for you. Every pattern has a ``name``, which the diagrams show.
///
/// ```swift
/// enum Phase: Sendable {
///   case loading(page: Int)
///   case loaded([String])
///   var loading: Int? { if case .loading(let page) = self { page } else { nil } }
/// }
///
/// // Match the case `loading` and extract its page:
/// From(.case("loading", \Phase.loading)) { page in ... }
///
/// // Name it once, use it everywhere:
/// extension Pattern where Root == Phase, Value == Int {
///   static let loading = Pattern.case("loading", \.loading)
/// }
/// From(.loading) { page in ... }
/// ```
///
/// Swift cannot name a case from a key path or a closure, hence the name in
/// `case(_:_:)`. A key path to an optional property is the shape
/// swift-case-paths gives enums, so `\.loading` works with `@CasePathable`
/// enums too, without this library depending on it.
public struct Pattern<Root: Sendable, Value: Sendable>: Sendable {
  /// What the diagrams call the matched states or events.
  public let name: String
  /// Whether the pattern matches everything (``AnyState``, ``AnyEvent``):
  /// wildcard transitions apply after exact ones.
  public let isWildcard: Bool
  @usableFromInline let extractor: @Sendable (Root) -> Value?

  /// A pattern named `name` that matches the values for which `extract`
  /// returns a value.
  ///
  /// ```swift
  /// let loading = Pattern<Phase, Int>("loading") { phase in
  ///   if case .loading(let page) = phase { page } else { nil }
  /// }
  /// ```
  @inlinable
  public init(_ name: String, extract: @escaping @Sendable (Root) -> Value?) {
    self.init(name: name, isWildcard: false, extract: extract)
  }

  @inlinable
  init(name: String, isWildcard: Bool, extract: @escaping @Sendable (Root) -> Value?) {
    self.name = name
    self.isWildcard = isWildcard
    self.extractor = extract
  }

  /// The value extracted from `root`, or `nil` if the pattern does not match it.
  ///
  /// ```swift
  /// Pattern.case("loading", \Phase.loading).extract(from: .loading(page: 2))  // 2
  /// ```
  @inlinable
  public func extract(from root: Root) -> Value? { extractor(root) }

  /// Whether the pattern matches `root`.
  ///
  /// ```swift
  /// Pattern<any StateProtocol, LoadingState>.type(LoadingState.self).matches(LoadingState())  // true
  /// ```
  @inlinable
  public func matches(_ root: Root) -> Bool { extractor(root) != nil }

  /// Matches values whose dynamic type is `type` (the Feedbacks library's type matching),
  /// and extracts them as that type. Named after the type.
  ///
  /// ```swift
  /// Pattern<any StateProtocol, VolumeState>.type(VolumeState.self)
  /// ```
  @inlinable
  public static func type(_ type: Value.Type) -> Pattern {
    Pattern(name: String(describing: type), isWildcard: false, extract: { $0 as? Value })
  }

  /// Matches one enum case, whose associated values `extract` returns.
  ///
  /// ```swift
  /// On(.case("dataLoaded", \Action.dataLoaded), transitionTo: .case("loaded")) { data in
  ///   .loaded(data)
  /// }
  /// ```
  @inlinable
  public static func `case`(_ name: String, _ extract: @escaping @Sendable (Root) -> Value?) -> Pattern {
    Pattern(name: name, isWildcard: false, extract: extract)
  }
}

extension Pattern where Value == Root {
  /// The wildcard: matches every value and extracts it whole.
  ///
  /// ```swift
  /// From(.any) { state in On(Action.reset, transitionTo: .idle) }
  /// ```
  @inlinable
  public static var any: Pattern { anyNamed(String(describing: Root.self)) }

  @inlinable
  static func anyNamed(_ name: String) -> Pattern {
    Pattern(name: name, isWildcard: true, extract: { $0 })
  }

  /// Matches the enum values whose case is named `name`, found by
  /// reflection. Made to name the target of a transition whose target is
  /// computed: debug builds check that the computed state is of that case.
  /// Matching states with it costs a `Mirror` per match; prefer
  /// ``case(_:_:)`` for ``From``.
  ///
  /// ```swift
  /// On(Action.retry, transitionTo: .case("loading")) { .loading(page: 1) }
  /// ```
  @inlinable
  public static func `case`(_ name: String) -> Pattern {
    Pattern(name: name, isWildcard: false, extract: { stateName(of: $0) == name ? $0 : nil })
  }
}

extension Pattern where Value == Root, Root: Equatable {
  /// Matches values equal to `value`: a case without associated values, a
  /// particular state. Named after the value.
  ///
  /// ```swift
  /// From(.value(Phase.idle)) { _ in On(Action.start, transitionTo: .loading(page: 1)) }
  /// ```
  @inlinable
  public static func value(_ value: Root) -> Pattern {
    Pattern(name: stateName(of: value), isWildcard: false, extract: { $0 == value ? $0 : nil })
  }
}

/// How the diagrams name a value: its case for an enum (its label when it
/// has associated values, its description when not); its description for a
/// value that is neither a struct, a class nor a tuple (a `String`, an `Int`,
/// a `Bool`: `From("StateM")` is drawn as `StateM`, not as `String`); its
/// dynamic type's name otherwise (the Feedbacks library's protocol states are
/// named after their types).
@usableFromInline
func stateName(of value: Any) -> String {
  let mirror = Mirror(reflecting: value)
  switch mirror.displayStyle {
  case .enum?:
    if let label = mirror.children.first?.label { return label }
    return String(describing: value)
  case nil:
    return String(describing: value)
  default:
    return String(describing: type(of: value))
  }
}
