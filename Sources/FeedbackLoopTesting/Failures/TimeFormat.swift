/// Short, readable durations for messages and timelines: `0s`, `3s`,
/// `2.5s`, `0.001s`.
enum TimeFormat {
  static func short(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    if attoseconds == 0 { return "\(seconds)s" }
    let attosecondsPerMicrosecond: Int64 = 1_000_000_000_000
    if attoseconds % attosecondsPerMicrosecond == 0 {
      var fraction = String(attoseconds / attosecondsPerMicrosecond)
      fraction = String(repeating: "0", count: 6 - fraction.count) + fraction
      while fraction.hasSuffix("0") { fraction.removeLast() }
      return "\(seconds).\(fraction)s"
    }
    return "\(duration)"
  }
}
