import Logging

/// Children by id kept behind a computed or observed property, and the
/// warning their lift logs.
///
/// A key path reaches such a property through its getter and writes it back
/// through its setter (it never uses a `_modify` accessor, nor a `didSet`'s
/// in-place write): an event for one child gets a copy of the dictionary
/// while the parent still holds the original, so changing the child copies
/// the whole dictionary, O(n) in the number of children, on every event.
/// That cannot be made O(1) from outside the property, and the lift cannot
/// refuse it either (an observed property is a fair place for a small
/// dictionary), so each such lift says so once, where it is built, in the
/// library's default logger.
@usableFromInline
enum ChildrenBehindAccessors {
  /// The key paths already warned about, by description: a feature built
  /// again for each system (many systems of one kind) warns once.
  static let warned = Locked<Set<String>>([])

  /// Where the warning goes: the library's default logger, unless a test
  /// process that builds such lifts on purpose keeps the warnings it
  /// expects (a passing test run prints nothing it expects).
  package static let logger = Locked<Logger>(SystemEnvironment.defaultLogger)

  /// Logs, once per key path, that the children at `path` are copied on
  /// every event, if `path` has no byte offset (`offset` is `nil`).
  @usableFromInline
  static func warnIfCopiedPerEvent<Root, Children>(_ path: KeyPath<Root, Children>, offset: Int?) {
    guard offset == nil else { return }
    let description = "\(path)"
    guard warned.withLock({ $0.insert(description).inserted }) else { return }
    logger.withLock { $0 }.warning(
      """
      children by id at \(description) are reached through a computed or observed property: \
      a key path writes such a property back through its setter, so every event for one child \
      copies the whole dictionary (O(n) in the number of children). Keep the children in a \
      stored property of a struct, without didSet or willSet, for O(1) events \
      (see "Composing features").
      """)
  }
}
