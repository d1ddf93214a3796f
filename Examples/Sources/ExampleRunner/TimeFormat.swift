/// How the timeline shows a time: seconds with milliseconds, right-aligned,
/// `   3.000s`.
enum TimeFormat {
  static func stamp(_ duration: Duration) -> String {
    let milliseconds = duration.components.seconds * 1_000 + duration.components.attoseconds / 1_000_000_000_000_000
    let sign = milliseconds < 0 ? "-" : ""
    let magnitude = abs(milliseconds)
    let fraction = String(magnitude % 1_000)
    let text = "\(sign)\(magnitude / 1_000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)s"
    return String(repeating: " ", count: max(0, 9 - text.count)) + text
  }

  /// The blank that lines up under a stamp.
  static let blank = String(repeating: " ", count: 9)
}
