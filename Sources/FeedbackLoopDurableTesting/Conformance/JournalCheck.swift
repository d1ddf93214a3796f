import FeedbackLoopDurable

/// One rule of the `Journal` contract, checked against a backend.
///
/// A backend's test target runs every check of ``JournalConformance/checks``,
/// one test per check, each on journals of its own:
///
/// ```swift
/// import FeedbackLoopDurableTesting
/// import Testing
///
/// @Test(arguments: JournalConformance.checks)
/// func conformance(_ check: JournalCheck) async throws {
///   try await check.run { try MyJournal(path: temporaryFile()) }
/// }
/// ```
///
/// A check that finds the rule broken throws a ``JournalConformanceFailure``
/// that names the check, the rule and what the journal did instead.
public struct JournalCheck: Sendable, CustomStringConvertible {
  /// A short name, unique in ``JournalConformance/checks``
  /// ("conditional append", "snapshots", ...).
  public let name: String
  /// The rule the check holds, as the `Journal` documentation states it.
  public let rule: String
  private let body: @Sendable (JournalCheckContext) async throws -> Void

  init(
    name: String, rule: String,
    body: @escaping @Sendable (JournalCheckContext) async throws -> Void
  ) {
    self.name = name
    self.rule = rule
    self.body = body
  }

  /// Runs the check on journals that `makeJournal` returns.
  ///
  /// - Parameter makeJournal: a new, empty journal at each call (a check may
  ///   ask for more than one).
  /// - Throws: a ``JournalConformanceFailure`` when the journal breaks the
  ///   rule; an error of the journal's own when one of its calls throws.
  public func run(_ makeJournal: @escaping @Sendable () async throws -> any Journal) async throws {
    try await body(JournalCheckContext(check: self, makeJournal: makeJournal))
  }

  public var description: String { name }
}

/// What a check's body uses: new journals, and assertions that fail with
/// the check's rule.
struct JournalCheckContext: Sendable {
  let check: JournalCheck
  let makeJournal: @Sendable () async throws -> any Journal

  func newJournal() async throws -> any Journal {
    try await makeJournal()
  }

  func fail(_ detail: String) -> JournalConformanceFailure {
    JournalConformanceFailure(check: check.name, rule: check.rule, detail: detail)
  }

  func require(_ condition: Bool, _ detail: @autoclosure () -> String) throws {
    if !condition { throw fail(detail()) }
  }

  func requireEqual<Value: Equatable>(
    _ actual: Value, _ expected: Value, _ what: @autoclosure () -> String
  ) throws {
    if actual != expected {
      throw fail("\(what()): expected \(expected), got \(actual)")
    }
  }
}
