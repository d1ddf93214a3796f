/// A rule of the `Journal` contract that a backend
/// broke, found by a ``JournalCheck``.
///
/// ```swift
/// do {
///   try await check.run { MyJournal() }
/// } catch let failure as JournalConformanceFailure {
///   print(failure)  // names the check, the rule, and what the journal did
/// }
/// ```
public struct JournalConformanceFailure: Error, Sendable, Equatable, CustomStringConvertible {
  /// The check's ``JournalCheck/name``.
  public var check: String
  /// The rule broken.
  public var rule: String
  /// What the journal did instead.
  public var detail: String

  public init(check: String, rule: String, detail: String) {
    self.check = check
    self.rule = rule
    self.detail = detail
  }

  public var description: String {
    "The journal breaks the rule \"\(rule)\" (conformance check \"\(check)\"): \(detail)"
  }
}
