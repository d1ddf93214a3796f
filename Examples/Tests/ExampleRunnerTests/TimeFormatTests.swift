import Testing

@testable import ExampleRunner

@Suite("The timeline's times")
struct TimeFormatTests {
  @Test func secondsWithMillisecondsRightAligned() {
    #expect(TimeFormat.stamp(.zero) == "   0.000s")
    #expect(TimeFormat.stamp(.milliseconds(1_500)) == "   1.500s")
    #expect(TimeFormat.stamp(.seconds(3_600)) == "3600.000s")
    #expect(TimeFormat.stamp(.microseconds(2_999)) == "   0.002s")
  }
}
