/// Every example, in the order the command lists them.
public enum Examples {
  /// The examples.
  public static let all: [Example] = [
    CounterDemo.example,
    SearchDemo.example,
    PlayerDemo.example,
    VolumeDemo.example,
    SignInDemo.example,
    PlayerChartDemo.example,
    CycleCounterDemo.example,
    AnimatedIntegerDemo.example,
    AppDemo.example,
    DurableDownloadsDemo.example,
  ]

  /// The example called `name`, if there is one.
  public static func named(_ name: String) -> Example? {
    all.first { $0.name == name.lowercased() }
  }

  /// One line per example, its name then what it shows.
  public static var list: [String] {
    let width = all.map(\.name.count).max() ?? 0
    return all.map { "  \($0.name.padding(width))  \($0.summary)" }
  }
}
