import FeedbackLoopTesting
import Testing

/// The testing kit's enums that are closed for good (CONTRIBUTING.md,
/// "Public enums"): switched over without a `default`, so that a new case
/// fails this file's build.
@Suite("Closed enums of the testing kit")
struct ClosedEnumsTests {
  @Test("Exhaustivity is closed: on or off")
  func exhaustivityIsClosed() {
    func name(_ exhaustivity: Exhaustivity) -> String {
      switch exhaustivity {
      case .on: "on"
      case .off: "off"
      }
    }
    #expect([Exhaustivity.on, .off].map(name) == ["on", "off"])
  }
}
