/// Where in a test an assertion was written: the place a failure points at.
///
/// Every method of the kit that can fail takes the call site as defaulted
/// arguments (`#fileID`, `#filePath`, `#line`, `#column`), so that Xcode,
/// `swift test` and Swift Testing show the failure on the line that made it.
/// Helpers of your own forward them:
///
/// ```swift
/// func assertHidden(_ hud: TestSystem<HUD.State, HUD.Event>, line: UInt = #line) {
///   hud.receive(.hide, line: line) { $0.isVisible = false }
/// }
/// ```
public struct CallSite: Sendable, CustomStringConvertible {
  /// The file, as `Module/File.swift`.
  public let fileID: StaticString
  /// The file's full path.
  public let filePath: StaticString
  /// The line, from 1.
  public let line: UInt
  /// The column, from 1.
  public let column: UInt

  /// A call site; the defaults name the caller's own line.
  public init(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    self.fileID = fileID
    self.filePath = filePath
    self.line = line
    self.column = column
  }

  public var description: String { "\(fileID):\(line):\(column)" }
}
