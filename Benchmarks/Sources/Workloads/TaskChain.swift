/// Not one of the workloads, but the floor under W2a on the machine
/// that runs it: a chain of tasks, each started by the one before, as the
/// loop starts one effect task per round trip. Nothing of FeedbackLoop runs.
public enum TaskChain {
  public static let taskCount = 100_000

  public static let workload = Workload(
    id: "task-chain", summary: "100,000 tasks, each started by the one before (the floor under W2a)",
    operations: taskCount, runs: 9,
    makeTrial: { trial(tasks: taskCount) })

  public static func trial(tasks count: Int) -> Trial {
    Trial(
      run: {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
          hop(count, done)
        }
      },
      finish: {})
  }

  private static func hop(_ remaining: Int, _ done: CheckedContinuation<Void, Never>) {
    Task {
      if remaining == 0 {
        done.resume()
      } else {
        hop(remaining - 1, done)
      }
    }
  }
}
