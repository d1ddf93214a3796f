/// What a skipped render is compared with, in the same run: C1cmp, the bare
/// comparison of the model with the one rendered last (the frame's field
/// read and compared), and C1filter, the bare frame filter and comparison
/// (the same frame filter as C1's passive drivers, called through a closure
/// the optimizer cannot see through, as the router calls it). A skipped
/// render in the router, (C1skip-30 − C1skip-0) / 30, is set against them.
public enum CycleSkipBaselines {
  public static let operationCount = 1_000_000

  public static let comparison = Workload(
    id: "C1cmp", summary: "1,000,000 bare comparisons of a frame's model with the last rendered one",
    operations: operationCount, runs: 21, makeTrial: { trial(filter: nil, id: "C1cmp") })

  public static let filterAndComparison = Workload(
    id: "C1filter", summary: "1,000,000 bare frame filters (a closure) and comparisons",
    operations: operationCount, runs: 21,
    makeTrial: { trial(filter: labelFilter(), id: "C1filter") })

  /// The passive drivers' frame filter, made where the optimizer cannot see
  /// it (so it stays an indirect call) and at its natural abstraction (so
  /// that no reabstraction thunk is measured: `opaque` would add one).
  @inline(never)
  @_optimize(none)
  static func labelFilter() -> @Sendable (CycleRouter.Frame) -> String { { $0.label } }

  /// Frames read in turn from a small array, so that each comparison reads
  /// a frame the optimizer cannot know, without measuring the memory.
  static let frameCount = 1_024

  static func trial(filter: (@Sendable (CycleRouter.Frame) -> String)?, id: String) -> Trial {
    let frames = (0..<frameCount).map { CycleRouter.Frame(shown: 0, hidden: $0, label: "steady") }
    let last = opaque("steady")
    let n = operationCount
    let skipped = Slot<Int>()
    return Trial(
      run: {
        skipped.value = filter.map { skips(frames, n, last, $0) } ?? comparisons(frames, n, last)
      },
      finish: { check(skipped.value == n, "\(id) skipped \(String(describing: skipped.value)) of \(n)") })
  }

  @inline(never)
  static func comparisons(_ frames: [CycleRouter.Frame], _ n: Int, _ last: String) -> Int {
    var skipped = 0
    for index in 0..<n where frames[index & (frameCount - 1)].label == last { skipped &+= 1 }
    return skipped
  }

  @inline(never)
  static func skips(
    _ frames: [CycleRouter.Frame], _ n: Int, _ last: String, _ filter: (CycleRouter.Frame) -> String
  ) -> Int {
    var skipped = 0
    for index in 0..<n where filter(frames[index & (frameCount - 1)]) == last { skipped &+= 1 }
    return skipped
  }
}
