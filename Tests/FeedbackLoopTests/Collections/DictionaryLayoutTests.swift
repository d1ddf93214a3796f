import Testing

@testable import FeedbackLoop

/// The by-id feedbacks find the child an event wrote by where the write was
/// in the dictionary's buffer (DictionaryLayout.swift). The standard library
/// does not promise that layout: these tests fail loudly on a toolchain that
/// changes it, before the by-id path silently gets slower.
@Suite("Dictionary layout")
struct DictionaryLayoutTests {
  struct ThreeWords: Equatable {
    var a = 0
    var b = 1.0
    var c: String? = nil
  }

  @Test("a native Dictionary keeps one value per bucket, in one buffer, the buckets numbered by address")
  func layoutHolds() {
    #expect(DictionaryLayout.violation(values: { $0 }) == nil)
    #expect(DictionaryLayout.violation(values: { ThreeWords(a: $0) }) == nil)
    #expect(DictionaryLayout.violation(values: { "child \($0)" }) == nil)
    #expect(DictionaryLayout.violation(values: { UInt8(truncatingIfNeeded: $0) }) == nil)
    #expect(DictionaryLayout.holds)
  }

  @Test(
    "the bucket count assumed from a capacity is a power of two at least the dictionary's (filled to three quarters)")
  func bucketsFromCapacity() {
    for minimum in [1, 2, 3, 6, 7, 12, 13, 100, 1000, 10000] {
      let capacity = [Int: Int](minimumCapacity: minimum).capacity
      let buckets = DictionaryLayout.buckets(forCapacity: capacity)
      #expect(buckets.nonzeroBitCount == 1, "\(buckets) buckets for a capacity of \(capacity)")
      #expect(buckets >= capacity * 4 / 3, "fewer than the dictionary's buckets for a capacity of \(capacity)")
    }
  }

  @Test("a layout that spreads values over more slots than buckets, or strides them apart, is detected")
  func slotsCollideWhenTheTableIsTooSmall() {
    // Two values a table's width apart share an entry: what the check
    // looks for when a toolchain's buckets outnumber the assumed ones.
    let stride = MemoryLayout<Int>.stride
    let first = DictionaryLayout.slot(of: 4096, stride: stride, among: 8)
    let second = DictionaryLayout.slot(of: 4096 + UInt(8 * stride), stride: stride, among: 8)
    #expect(first == second)
    #expect(DictionaryLayout.slot(of: 4096 + UInt(stride), stride: stride, among: 8) != first)
  }
}
