import Testing

extension Reliability {
  /// The property harness itself: a property test is only as good as its
  /// generator, its replay and its shrinker.
  @Suite("Property harness")
  struct PropertyHarnessTests {
    @Test("SplitMix64 gives the reference sequence, so a printed seed replays on any machine")
    func splitMixReferenceValues() {
      // The first outputs for seed 1234567 from the reference C implementation.
      var rng = SplitMix64(seed: 1_234_567)
      #expect(rng.next() == 6_457_827_717_110_365_317)
      #expect(rng.next() == 3_203_168_211_198_807_973)
      #expect(rng.next() == 9_817_491_932_198_370_423)
    }

    @Test("the same case seed generates the same input")
    func sameSeedSameInput() {
      let generator = Gen<Int>.int(in: -1_000...1_000).array(count: 0...50)
      for seed in Property.caseSeeds(cases: 5) {
        var first = SplitMix64(seed: seed)
        var second = SplitMix64(seed: seed)
        #expect(generator.generate(&first) == generator.generate(&second))
      }
    }

    @Test("a failing property is shrunk to a minimal counterexample, and its seed is reported")
    func shrinksToMinimalCounterexample() {
      // False for any array holding two values of at least 10: the minimal
      // counterexample is [10, 10].
      let generator = Gen<Int>.int(in: 0...100).array(count: 0...40)
      let (failure, _) = Property.firstFailure(
        cases: 50, generator: generator,
        shrink: { Shrink.array($0) { Shrink.int($0) } },
        property: { values in values.filter { $0 >= 10 }.count >= 2 ? "two values >= 10: \(values)" : nil })
      guard let found = failure else {
        Issue.record("the property holds for no input")
        return
      }
      #expect(found.shrunk == [10, 10])
      do {
        var replay = SplitMix64(seed: found.seed)
        #expect(generator.generate(&replay) == found.original)
        let text = Property.report("example", found) { "    \($0)" }
        #expect(text.contains("FEEDBACKLOOP_PROPERTY_SEED=0x\(String(found.seed, radix: 16))"))
        #expect(text.contains("[10, 10]"))
      }
    }

    @Test("a property that holds runs every case of every fixed seed")
    func holdingPropertyRunsEveryCase() {
      let (failure, casesRun) = Property.firstFailure(
        cases: 7, generator: Gen<Int>.int(in: 0...9).array(count: 0...9), shrink: { _ in [] },
        property: { $0.allSatisfy { (0...9).contains($0) } ? nil : "out of range" })
      #expect(failure == nil)
      #expect(casesRun == (Property.replaySeed == nil ? 7 * Property.seeds.count : 1))
    }
  }
}
