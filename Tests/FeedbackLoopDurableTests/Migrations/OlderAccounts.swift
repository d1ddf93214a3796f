import FeedbackLoopDurable
import Foundation

/// The account as older versions of the tests' app stored it; `Account` is
/// version 3.
///
/// Version 1 called the balance `total`, named deposits `credit`, and had
/// one payout event with a flag that version 2 split in two cases. Version 2
/// labelled the deposit's amount, which version 3 no longer does. The state
/// is the same in versions 2 and 3.
enum OlderAccounts {
  enum V1 {
    struct State: Codable, Equatable {
      var total: Int
      var deposits: [Int]
    }

    enum Event: Codable, Equatable {
      case credit(Int)
      case payout(Int, done: Bool)
    }
  }

  enum V2 {
    enum Event: Codable, Equatable {
      case deposit(amount: Int)
      case requestPayout(Int)
      case paidOut(Int)
    }
  }

  /// Thrown by a migration that refuses a record.
  struct NegativeDeposit: Error, CustomStringConvertible {
    var amount: Int
    var description: String { "a deposit of \(amount) cannot be migrated" }
  }

  static let currentVersion = 3

  /// Every step from version 1 to 3.
  static let migrations = DurableMigrations<Account.State, Account.Event>()
    .state(from: 1, as: V1.State.self) { old in
      Account.State(balance: old.total, deposits: old.deposits)
    }
    .stateUnchanged(from: 2)
    .event(from: 1, as: V1.Event.self) { old -> V2.Event in
      switch old {
      case .credit(let amount):
        guard amount >= 0 else { throw NegativeDeposit(amount: amount) }
        return .deposit(amount: amount)
      case .payout(let amount, done: false): return .requestPayout(amount)
      case .payout(let amount, done: true): return .paidOut(amount)
      }
    }
    .event(from: 2, as: V2.Event.self) { old -> Account.Event in
      switch old {
      case .deposit(let amount): .deposit(amount)
      case .requestPayout(let amount): .requestPayout(amount)
      case .paidOut(let amount): .paidOut(amount)
      }
    }

  /// The bytes a version of the app stored for `value`.
  static func stored(_ value: some Encodable, version: Int) throws -> Data {
    try JSONDurableCodec().encode(Envelope(version: version, value: value))
  }

  private struct Envelope<Value: Encodable>: Encodable {
    var version: Int
    var value: Value
  }
}
