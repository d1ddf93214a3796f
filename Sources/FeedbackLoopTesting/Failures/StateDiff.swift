import CustomDump

/// The readable difference of two values for a failure message:
/// CustomDump's diff, expected lines marked `−` and actual lines `+`.
enum StateDiff {
  static func describe<Value>(expected: Value, actual: Value) -> String {
    guard let difference = diff(expected, actual, format: .proportional) else {
      return """
        The values differ, but dump identically:

        \(String(customDumping: actual).indented(by: 2))
        """
    }
    return """
      \(difference.indented(by: 2))

      (Expected: −, Actual: +)
      """
  }
}

extension String {
  func indented(by spaces: Int) -> String {
    let indent = String(repeating: " ", count: spaces)
    return split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : indent + $0 }
      .joined(separator: "\n")
  }
}
