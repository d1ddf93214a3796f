/// The counter most workloads drive: State is an `Int`, Event a small enum.
public enum CounterEvent: Sendable, Equatable {
  case increment
  case decrement
}

public enum Counter {
  /// The reducer, as a closure value: the fold of W0 and every system call
  /// this same closure.
  public static let reduce: @Sendable (Int, CounterEvent) -> Int = { state, event in
    switch event {
    case .increment: state + 1
    case .decrement: state - 1
    }
  }

  /// `count` events: three increments, then a decrement, repeated, so that
  /// nothing about them is known at compile time but their final count.
  public static func events(count: Int) -> [CounterEvent] {
    (0..<count).map { index in index % 4 == 3 ? .decrement : .increment }
  }

  /// The state the events of ``events(count:)`` lead to from 0.
  public static func finalState(count: Int) -> Int {
    let decrements = count / 4
    return count - 2 * decrements
  }
}
