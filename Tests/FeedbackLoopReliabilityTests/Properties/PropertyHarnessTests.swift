import PropertyBased
import Testing

extension Reliability {
  /// The way the properties are checked: a property test is only as good as
  /// its ability to fail, and to say on what.
  @Suite("Property harness")
  struct PropertyHarnessTests {
    @Test("a failing property is reported with an input shrunk to a minimal counterexample")
    func failingPropertyIsReportedShrunk() async {
      // False for any array holding two values of at least 10: the minimal
      // counterexample is [10, 10].
      let input = Gen.int(in: 0...100).array(of: 0...40)
      let reports = Locked<[String]>([])
      await withKnownIssue {
        await Property.check("two values >= 10", cases: 200, input: input) { values in
          values.filter { $0 >= 10 }.count >= 2 ? "two values >= 10: \(values)" : nil
        }
      } matching: { issue in
        reports.withLock { $0.append(String(describing: issue)) }
        return true
      }
      #expect(reports.current.contains { $0.contains("[10, 10]") })
      #expect(reports.current.contains { $0.contains("fixedSeed") })
    }

    @Test("a property that holds runs every case")
    func holdingPropertyRunsEveryCase() async {
      let casesRun = await Property.check("in range", cases: 7, input: Gen.int(in: 0...9).array(of: 0...9)) {
        $0.allSatisfy { (0...9).contains($0) } ? nil : "out of range"
      }
      #expect(casesRun == 7)
    }
  }
}
