import FeedbackLoopDebugging

/// A reducer of texts that Swift's raw string literals and one-line string
/// literals must take care with: `\#` (an escape in `#"…"#`), `"#` (its
/// end), longer runs of `#`, control characters. The generated fixture test
/// of its session (`Generated/RecordedHostileTextTests.swift`) proves that
/// the writer's literals compile and hold these texts unchanged: the state
/// says whether every text reduced was one of ``samples``, so a literal that
/// turned `\#t` into a tab fails its test.
enum HostileText {
  struct State: Sendable, Equatable, Codable {
    var texts: [String] = []
    var allKnown = true
  }

  static let samples = [
    "\\#", "\\#t", "\\#(", "\\#q", "\"#", "\"##", "\\##(x)", "#\"#", "\\\"#\\##", "tab\tcarriage\r\nline",
    "nul\u{0}bell\u{7}", "\u{2028}separator",
    // Ends that close a literal: triple quotes, `#"`, `"#`, a lone backslash; more #s than any delimiter.
    "ends with \"\"\"", "ends with #\"", "ends with \"#", "ends with \\", "\"" + String(repeating: "#", count: 40),
    // An escape written out, emoji (a family is one Character of several scalars), next line, a BOM, a keyword.
    "\\u{1F600} \\(x)", "😀 👩‍👩‍👧 🇫🇷", "\u{85}next\u{FEFF}", "default",
  ]

  static func reduce(_ state: inout State, _ text: String) {
    state.texts.append(text)
    state.allKnown = state.allKnown && samples.contains(text)
  }

  /// Moment 0 and one moment per sample, as a recorder would record them.
  static func session() -> [Moment<State, String>] {
    var state = State()
    var moments = [Moment<State, String>(sequence: 0, state: state)]
    for (index, text) in samples.enumerated() {
      reduce(&state, text)
      moments.append(Moment(sequence: UInt64(index + 1), event: text, state: state))
    }
    return moments
  }
}
