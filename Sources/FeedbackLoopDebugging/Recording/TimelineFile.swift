import Foundation

/// Reads a JSON Lines timeline, reporting every line it cannot read rather
/// than stopping at the first.
///
/// A truncated or malformed line is reported with its line number and the
/// rest is still read; a line whose State (or Event) no longer decodes says
/// which moment and which field (a `time` out of range, negative, huge or
/// not a number, too); a gap the writer left (moments dropped) is reported
/// too.
///
/// ```swift
/// let file = try TimelineFile<Search.State, Search.Event>(contentsOf: url)
/// for problem in file.problems { print(problem) }  // "line 7: moment 6: state.page.items[2].title: …"
/// let report = Replay.check(file.moments, reduceReturning: Search.reduce)
/// ```
public struct TimelineFile<State: Sendable & Codable, Event: Sendable & Codable>: Sendable {
  /// The moments that were read, in file order.
  public var moments: [Moment<State, Event>]
  /// What could not be read, in line order.
  public var problems: [TimelineProblem]

  /// Reads the file at `url`.
  public init(contentsOf url: URL) throws {
    self.init(data: try Data(contentsOf: url))
  }

  /// Reads JSON Lines from `data`.
  public init(data: Data) {
    moments = []
    problems = []
    let decoder = JSONDecoder()
    var lineNumber = 0
    for line in data.split(separator: 0x0A, omittingEmptySubsequences: false) {
      lineNumber += 1
      if line.allSatisfy({ $0 == 0x20 || $0 == 0x0D || $0 == 0x09 }) { continue }
      let lineData = Data(line)
      if let gap = try? decoder.decode(Gap.self, from: lineData) {
        problems.append(
          TimelineProblem(line: lineNumber, sequence: gap.beforeSequence, kind: .gap(dropped: gap.dropped)))
        continue
      }
      do {
        moments.append(try decoder.decode(Moment<State, Event>.self, from: lineData))
      } catch {
        let sequence = (try? decoder.decode(Header.self, from: lineData))?.sequence
        problems.append(TimelineProblem(line: lineNumber, sequence: sequence, error: error))
      }
    }
  }

  private struct Gap: Decodable {
    var dropped: UInt64
    var beforeSequence: UInt64?
  }

  private struct Header: Decodable {
    var sequence: UInt64
  }
}

/// A line of a timeline file that could not be read, or a gap in it.
public struct TimelineProblem: Sendable, Hashable, CustomStringConvertible {
  /// What went wrong.
  ///
  /// It grows: a later version may add a case. End a `switch` over it with
  /// `default:` or `@unknown default:`, so that a new case does not break your
  /// build.
  public enum Kind: Sendable, Hashable {
    /// The line is not JSON (truncated, cut, garbled).
    case malformed(String)
    /// The line is JSON, but a field does not decode: `field` is its path
    /// (`state.page.items[2].title`).
    case undecodable(field: String, reason: String)
    /// The writer dropped this many moments here (its buffer was full).
    case gap(dropped: UInt64)
  }

  /// The line's number, from 1.
  public var line: Int
  /// The moment's sequence number, when the line says it.
  public var sequence: UInt64?
  public var kind: Kind

  public init(line: Int, sequence: UInt64?, kind: Kind) {
    self.line = line
    self.sequence = sequence
    self.kind = kind
  }

  init(line: Int, sequence: UInt64?, error: any Error) {
    guard let error = error as? DecodingError else {
      self.init(line: line, sequence: sequence, kind: .malformed(String(describing: error)))
      return
    }
    switch error {
    case .dataCorrupted(let context) where context.codingPath.isEmpty:
      self.init(line: line, sequence: sequence, kind: .malformed(context.debugDescription))
    case .dataCorrupted(let context):
      self.init(line: line, sequence: sequence, kind: Self.undecodable(context.codingPath, context.debugDescription))
    case .keyNotFound(let key, let context):
      self.init(
        line: line, sequence: sequence,
        kind: Self.undecodable(context.codingPath + [key], "missing: \(context.debugDescription)"))
    case .typeMismatch(_, let context), .valueNotFound(_, let context):
      self.init(line: line, sequence: sequence, kind: Self.undecodable(context.codingPath, context.debugDescription))
    @unknown default:
      self.init(line: line, sequence: sequence, kind: .malformed(String(describing: error)))
    }
  }

  private static func undecodable(_ path: [any CodingKey], _ reason: String) -> Kind {
    .undecodable(field: fieldPath(path), reason: reason)
  }

  /// `state.items[2].title` for the coding path of that field.
  static func fieldPath(_ path: [any CodingKey]) -> String {
    var text = ""
    for key in path {
      if let index = key.intValue {
        text += "[\(index)]"
      } else {
        text += text.isEmpty ? key.stringValue : "." + key.stringValue
      }
    }
    return text.isEmpty ? "(the line)" : text
  }

  public var description: String {
    let moment = sequence.map { "moment \($0): " } ?? ""
    switch kind {
    case .malformed(let reason): return "line \(line): \(moment)malformed: \(reason)"
    case .undecodable(let field, let reason): return "line \(line): \(moment)\(field) does not decode: \(reason)"
    case .gap(let dropped): return "line \(line): \(moment)\(dropped) moment(s) dropped by the writer"
    }
  }
}
