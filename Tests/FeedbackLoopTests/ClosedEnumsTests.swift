import FeedbackLoop
import Testing

/// The core's enums that are closed for good (CONTRIBUTING.md, "Public
/// enums"): each is switched over here without a `default`, so that adding
/// a case fails this file's build, a reminder that a new case is a breaking
/// change for every user who switches over it.
@Suite("Closed enums of the core")
struct ClosedEnumsTests {
  @Test("WhenPredicateIsFalse is closed: keep running or cancel")
  func whenPredicateIsFalseIsClosed() {
    func name(_ choice: WhenPredicateIsFalse) -> String {
      switch choice {
      case .keepRunning: "keepRunning"
      case .cancelRunning: "cancelRunning"
      }
    }
    #expect([WhenPredicateIsFalse.keepRunning, .cancelRunning].map(name) == ["keepRunning", "cancelRunning"])
  }

  @Test("StateBuffering is closed: AsyncStream's three policies")
  func stateBufferingIsClosed() {
    func name(_ policy: StateBuffering) -> String {
      switch policy {
      case .all: "all"
      case .newest(let count): "newest \(count)"
      case .oldest(let count): "oldest \(count)"
      }
    }
    #expect([StateBuffering.all, .newest(1), .oldest(2)].map(name) == ["all", "newest 1", "oldest 2"])
  }

  @Test("DiscardReason grows: its reasons are values, compared and matched, and a switch over them ends with default")
  func discardReasonIsOpen() {
    func name(_ reason: DiscardReason) -> String {
      switch reason {
      case .bufferFull: "bufferFull"
      case .systemStopped: "systemStopped"
      default: reason.missingChild.map { "noSuchChild \($0)" } ?? "other"
      }
    }
    #expect(
      [DiscardReason.bufferFull, .systemStopped, .noSuchChild("no child 9")].map(name)
        == ["bufferFull", "systemStopped", "noSuchChild no child 9"])
    #expect(DiscardReason.noSuchChild("a") == .noSuchChild("a"))
    #expect(DiscardReason.noSuchChild("a") != .noSuchChild("b"))
    #expect(DiscardReason.bufferFull.missingChild == nil)
    #expect(DiscardReason.bufferFull.cancelledEffect == nil)
    #expect("\(DiscardReason.noSuchChild("x"))" == "noSuchChild: x")
  }
}
