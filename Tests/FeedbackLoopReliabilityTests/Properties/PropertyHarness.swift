import Foundation
import Testing

// A small seeded property harness: random inputs from a SplitMix64 stream,
// a greedy shrinker, fixed seeds, and a printed seed that replays a failure.
// Written here rather than taken from a package so that the root
// Package.swift names no test-only dependency (every app would resolve it).

/// SplitMix64 (Steele, Lea and Flood): a tiny, fast generator whose whole
/// state is one `UInt64`, so a seed replays a case exactly, on any platform
/// and toolchain (bounded values are drawn by the harness itself, not by the
/// standard library, whose algorithm may change).
struct SplitMix64: RandomNumberGenerator, Sendable {
  private(set) var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A value in `range`, by the harness's own rule (modulo; the bias is
  /// irrelevant for test inputs).
  mutating func int(in range: ClosedRange<Int>) -> Int {
    let width = UInt64(range.upperBound - range.lowerBound) + 1
    return range.lowerBound + Int(next() % width)
  }

  /// True with probability `percent` / 100.
  mutating func chance(_ percent: Int) -> Bool { int(in: 0...99) < percent }

  mutating func element<Element>(of elements: [Element]) -> Element {
    elements[int(in: 0...(elements.count - 1))]
  }
}

/// A generator of random values.
struct Gen<Value> {
  let generate: (inout SplitMix64) -> Value

  init(_ generate: @escaping (inout SplitMix64) -> Value) { self.generate = generate }

  func map<Other>(_ transform: @escaping (Value) -> Other) -> Gen<Other> {
    Gen<Other> { rng in transform(generate(&rng)) }
  }

  static func constant(_ value: Value) -> Gen<Value> { Gen { _ in value } }

  /// Picks one of `choices`, each as often as its weight says.
  static func frequency(_ choices: [(weight: Int, gen: Gen<Value>)]) -> Gen<Value> {
    let total = choices.map(\.weight).reduce(0, +)
    return Gen { rng in
      var pick = rng.int(in: 0...(total - 1))
      for choice in choices {
        if pick < choice.weight { return choice.gen.generate(&rng) }
        pick -= choice.weight
      }
      return choices[choices.count - 1].gen.generate(&rng)
    }
  }

  /// An array of `count` values.
  func array(count: ClosedRange<Int>) -> Gen<[Value]> {
    Gen<[Value]> { rng in
      let length = rng.int(in: count)
      return (0..<length).map { _ in generate(&rng) }
    }
  }
}

extension Gen where Value == Int {
  static func int(in range: ClosedRange<Int>) -> Gen<Int> { Gen { rng in rng.int(in: range) } }
}

/// Smaller candidates for failing inputs, most aggressive first.
enum Shrink {
  /// Arrays with chunks removed (halves, quarters, ... single elements),
  /// then with one element replaced by a smaller one.
  static func array<Element>(_ array: [Element], element: (Element) -> [Element] = { _ in [] }) -> [[Element]] {
    var candidates: [[Element]] = []
    if !array.isEmpty { candidates.append([]) }
    var chunk = array.count / 2
    while chunk >= 1 {
      var start = 0
      while start + chunk <= array.count {
        var smaller = array
        smaller.removeSubrange(start..<(start + chunk))
        candidates.append(smaller)
        start += chunk
      }
      chunk /= 2
    }
    for index in array.indices {
      for replacement in element(array[index]) {
        var simpler = array
        simpler[index] = replacement
        candidates.append(simpler)
      }
    }
    return candidates
  }

  /// Smaller integers, toward `target`.
  static func int(_ value: Int, toward target: Int = 0) -> [Int] {
    var candidates: [Int] = []
    var distance = value - target
    while distance != 0 {
      candidates.append(value - distance)
      distance /= 2
    }
    return candidates
  }
}

/// A property that failed: the case's seed, the input as generated and as
/// shrunk, and what the property said about the shrunk one.
struct PropertyFailure<Input> {
  let seed: UInt64
  let original: Input
  let shrunk: Input
  let shrinks: Int
  let message: String
}

/// Checks properties over many random inputs.
enum Property {
  /// The fixed seeds every run checks. Each yields `Scale.propertyCases`
  /// cases, whose own seeds come from a SplitMix64 stream of this one.
  static let seeds: [UInt64] = [0x5EED_0001, 0xFEED_BAC4, 0x0000_0000_C0FF_EE00, 0x1234_5678_9ABC_DEF0]

  /// Set `FEEDBACKLOOP_PROPERTY_SEED` to a case seed (decimal or `0x` hex)
  /// to run that one case only: a failure prints it.
  static var replaySeed: UInt64? {
    guard let text = ProcessInfo.processInfo.environment["FEEDBACKLOOP_PROPERTY_SEED"] else { return nil }
    if text.hasPrefix("0x") { return UInt64(text.dropFirst(2), radix: 16) }
    return UInt64(text)
  }

  /// The seeds of the cases to run.
  static func caseSeeds(cases: Int) -> [UInt64] {
    if let replaySeed { return [replaySeed] }
    return seeds.flatMap { seed in
      var stream = SplitMix64(seed: seed)
      return (0..<cases).map { _ in stream.next() }
    }
  }

  /// Runs `property` on an input generated from each case seed; returns the
  /// first failure, shrunk, or `nil` when every case holds.
  ///
  /// `property` returns `nil` when it holds and a description of what went
  /// wrong otherwise. The shrinker tries `shrink`'s candidates greedily,
  /// keeping any that still fails, until none does or `budget` runs are spent.
  static func firstFailure<Input>(
    cases: Int = Scale.propertyCases,
    generator: Gen<Input>,
    shrink: (Input) -> [Input],
    budget: Int = 2_000,
    property: (Input) -> String?
  ) -> (failure: PropertyFailure<Input>?, casesRun: Int) {
    var casesRun = 0
    for seed in caseSeeds(cases: cases) {
      var rng = SplitMix64(seed: seed)
      let input = generator.generate(&rng)
      casesRun += 1
      guard let message = property(input) else { continue }
      var smallest = (input: input, message: message)
      var shrinks = 0
      var runs = 0
      var improved = true
      while improved && runs < budget {
        improved = false
        for candidate in shrink(smallest.input) {
          runs += 1
          if let candidateMessage = property(candidate) {
            smallest = (candidate, candidateMessage)
            shrinks += 1
            improved = true
            break
          }
          if runs >= budget { break }
        }
      }
      let failure = PropertyFailure(
        seed: seed, original: input, shrunk: smallest.input, shrinks: shrinks, message: smallest.message)
      return (failure, casesRun)
    }
    return (nil, casesRun)
  }

  /// Checks `property` and records a test issue for a failure, with the
  /// seed that replays it and the shrunk counterexample. Returns the number
  /// of cases run.
  @discardableResult
  static func check<Input>(
    _ name: String,
    cases: Int = Scale.propertyCases,
    generator: Gen<Input>,
    shrink: (Input) -> [Input],
    describe: (Input) -> String,
    sourceLocation: SourceLocation = #_sourceLocation,
    property: (Input) -> String?
  ) -> Int {
    let (failure, casesRun) = firstFailure(cases: cases, generator: generator, shrink: shrink, property: property)
    if let failure {
      Issue.record(
        Comment(rawValue: report(name, failure, describe: describe)), sourceLocation: sourceLocation)
    }
    return casesRun
  }

  /// The text printed for a failure.
  static func report<Input>(_ name: String, _ failure: PropertyFailure<Input>, describe: (Input) -> String) -> String {
    let seed = "0x" + String(failure.seed, radix: 16)
    return """
      property "\(name)" failed
        seed: \(seed) (replay: FEEDBACKLOOP_PROPERTY_SEED=\(seed) swift test --filter FeedbackLoopReliabilityTests)
        shrunk counterexample (\(failure.shrinks) shrinks):
      \(describe(failure.shrunk))
        failure: \(failure.message)
        original input:
      \(describe(failure.original))
      """
  }
}
