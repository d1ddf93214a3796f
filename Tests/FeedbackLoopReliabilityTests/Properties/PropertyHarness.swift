import PropertyBased
import Testing

// The properties run on x-sheep/swift-property-based: its generators, its
// run loop, its shrinker, and its seed reports. It is a dependency of this
// test target only, so an app that depends on FeedbackLoop does not resolve
// it (SwiftPM resolves a dependency's test-only packages only when that
// package is the root).

extension SeededRandomNumberGenerator {
  /// A value in `range`, for the generators written by hand below.
  mutating func int(in range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }

  /// True with probability `percent` / 100.
  mutating func chance(_ percent: Int) -> Bool { int(in: 0...99) < percent }
}

/// A generator of values that need no shrinking of their own (a behaviour
/// drawn once per case), written as a plain function of the generator.
func unshrunk<Value>(
  _ generate: @escaping @Sendable (inout any SeededRandomNumberGenerator) -> Value
) -> Generator<Value, Shrink.None<Value>> {
  Generator(run: { rng in generate(&rng) })
}

/// Checks properties over many random inputs.
enum Property {
  /// Checks `property` on `cases` random inputs and records a test issue
  /// for the first that fails, shrunk to a smaller input that still fails.
  /// The library prints the failing input and a `.fixedSeed(...)` trait that
  /// replays it when added to the test. Returns the number of inputs checked
  /// (shrinking runs included).
  ///
  /// `property` returns `nil` when it holds and a description of what went
  /// wrong otherwise.
  @discardableResult
  static func check<Input, Shrinks>(
    _ name: String,
    cases: Int = Scale.propertyCases,
    input: Generator<Input, Shrinks>,
    sourceLocation: SourceLocation = #_sourceLocation,
    property: (Input) -> String?
  ) async -> Int {
    var casesRun = 0
    await propertyCheck(
      count: cases, input: input,
      perform: { value in
        casesRun += 1
        if let message = property(value) {
          Issue.record("property \"\(name)\" failed: \(message)", sourceLocation: sourceLocation)
        }
      }, sourceLocation: sourceLocation)
    return casesRun
  }
}
