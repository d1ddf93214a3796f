/// A small, fast generator of pseudo-random numbers whose sequence depends
/// on its seed only: the catalogue is the same on every machine and every run.
struct SplitMix64 {
  private var state: UInt64

  init(seed: UInt64) {
    state = seed
  }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A number in `0..<upperBound`.
  mutating func next(below upperBound: Int) -> Int {
    Int(next() % UInt64(upperBound))
  }

  /// One of `elements`.
  mutating func pick<Element>(_ elements: [Element]) -> Element {
    elements[next(below: elements.count)]
  }
}
