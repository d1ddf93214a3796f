/// What the by-id runtime (`ByIDLeafRuntime.recent`) assumes of the
/// standard library's native `Dictionary`: it keeps its values in one
/// buffer, one slot per bucket, at the value's stride; its buckets are a
/// power of two, filled to at most three quarters (its `capacity`). Then the
/// address of a value written in place, divided by the stride and masked
/// to the bucket count, numbers the buckets without collision.
///
/// The standard library does not promise this layout. A toolchain that
/// changes it breaks no guarantee (a table entry is only a guess, checked
/// against the child's id before use) but makes every guess miss, and the
/// by-id path slower: so DictionaryLayoutTests fails loudly, and debug
/// builds check the layout at the first use.
@usableFromInline
enum DictionaryLayout {
  /// The buckets of a native dictionary of `capacity`: a power of two,
  /// filled to three quarters.
  @inlinable
  static func buckets(forCapacity capacity: Int) -> Int {
    let atLeast = Swift.max(2, capacity + capacity / 3 + 1)
    return 1 << (Int.bitWidth - (atLeast - 1).leadingZeroBitCount)
  }

  /// The entry, among `count` (a power of two), of the value at `address`,
  /// in a buffer of values of `stride` bytes.
  @inlinable
  static func slot(of address: UInt, stride: Int, among count: Int) -> Int {
    Int(truncatingIfNeeded: (address / UInt(Swift.max(stride, 1))) & UInt(count - 1))
  }

  /// Whether the layout holds for this toolchain, checked once (the first
  /// use in a debug build; DictionaryLayoutTests in every test run).
  @usableFromInline
  static let holds: Bool = violation(values: { $0 }) == nil

  @usableFromInline
  static var message: String {
    "FeedbackLoop: this toolchain's Dictionary no longer keeps one value per bucket in one buffer: "
      + (violation(values: { $0 }) ?? "") + ". The by-id feedbacks stay correct, but slower: "
      + "see DictionaryLayout.swift."
  }

  /// What breaks the layout, for dictionaries of 1 to 600 entries of the
  /// values `values` makes, or `nil` if nothing does.
  static func violation<Value>(values: (Int) -> Value) -> String? {
    var dictionary: [Int: Value] = [:]
    for count in 1...600 {
      dictionary[count &* 7919] = values(count)
      guard [1, 2, 3, 5, 6, 7, 12, 13, 24, 25, 48, 49, 96, 97, 192, 193, 384, 385, 600].contains(count) else {
        continue
      }
      let stride = MemoryLayout<Value>.stride
      let buckets = buckets(forCapacity: dictionary.capacity)
      var addresses: [UInt] = []
      for index in dictionary.indices {
        // Written in place, as `TrackedDictionary` writes a child.
        addresses.append(_withUnprotectedUnsafeMutablePointer(to: &dictionary.values[index]) { UInt(bitPattern: $0) })
      }
      guard let lowest = addresses.min(), let highest = addresses.max() else { return "no values at \(count)" }
      if stride > 0, (highest - lowest) % UInt(stride) != 0 {
        return "values of \(count) entries are not at a multiple of their stride (\(stride)) apart"
      }
      if stride > 0, (highest - lowest) / UInt(stride) >= UInt(buckets) {
        return "values of \(count) entries (capacity \(dictionary.capacity)) span more than \(buckets) buckets"
      }
      let slots = Set(addresses.map { slot(of: $0, stride: stride, among: buckets) })
      if stride > 0, slots.count != addresses.count {
        return "values of \(count) entries share table entries (\(slots.count) for \(addresses.count))"
      }
    }
    return nil
  }
}
