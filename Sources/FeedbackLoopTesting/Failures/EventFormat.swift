import CustomDump

/// Events as messages show them: their custom dump, on one line.
enum EventFormat {
  static func describe(_ event: some Any) -> String {
    let dump = String(customDumping: event)
    guard dump.contains("\n") else { return dump }
    var result = ""
    for line in dump.split(separator: "\n") {
      let piece = line.trimmingPrefix(while: \.isWhitespace)
      let glued = result.last.map { "([".contains($0) } ?? true || piece.first.map { ")]".contains($0) } ?? false
      result += glued ? String(piece) : " " + piece
    }
    return result
  }
}
