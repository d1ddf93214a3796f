import CFeedbackLoopShims
import Testing

@testable import FeedbackLoop

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

/// Where a system's control, inbox and state lie: each part that another
/// thread writes starts a cache line of the target's size, so that the
/// owner and the senders never write one line (the many-senders benchmark).
@Suite("Cache line layout")
struct CacheLineLayoutTests {
  /// The line the target's processors have, as the shims should choose it.
  static var targetLine: Int {
    #if (os(macOS) || os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)) && arch(arm64)
      128
    #elseif arch(powerpc64) || arch(powerpc64le)
      128
    #elseif arch(s390x)
      256
    #else
      64
    #endif
  }

  @Test("the cache line is the target's: 128 bytes on Apple silicon, 64 on x86")
  func cacheLineIsTheTargets() {
    #expect(Int(FL_CACHE_LINE) == Self.targetLine)
    #expect(SystemCore<Int, Int>.Layout.line == Self.targetLine)
  }

  @Test("the cache line is at least the one the processor reports")
  func cacheLineCoversTheProcessorsLine() throws {
    let reported = try #require(Self.reportedLine, "the system does not report its cache line")
    #expect(Int(FL_CACHE_LINE) >= reported, "padding to \(FL_CACHE_LINE) bytes on \(reported)-byte lines")
  }

  @Test("the control's parts, the inbox and a large state start on cache line boundaries")
  func partsStartOnLineBoundaries() {
    typealias Core = SystemCore<LargeState, Int>
    let line = Int(FL_CACHE_LINE)
    #expect(MemoryLayout<fl_loop_control>.offset(of: \.word) == 0)
    #expect(MemoryLayout<fl_loop_control>.offset(of: \.reducing) == line, "the guard starts the second line")
    #expect(MemoryLayout<fl_loop_control>.stride == 2 * line)
    #expect(Core.Layout.alignment % line == 0)
    #expect(Core.Layout.inbox % line == 0)
    #expect(Core.Layout.afterInbox % line == 0)
    #expect(!Core.Layout.stateInGuardLine)
    #expect(Core.Layout.state == Core.Layout.afterInbox)
    // The spare bytes of the guard's line are the line's, not the next one's.
    #expect(Core.Layout.guardSpare < MemoryLayout<fl_loop_control>.stride)
    #expect(
      MemoryLayout<fl_loop_control>.stride - Core.Layout.guardSpare
        == line - 4 * MemoryLayout<UInt64>.size - MemoryLayout<UnsafeRawPointer>.size)
  }

  /// Larger than any guard line's spare bytes.
  struct LargeState {
    var numbers: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)
    var more: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)
    var evenMore: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)
    var last: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)
  }

  /// The data cache's line size as the system reports it, if it does.
  static var reportedLine: Int? {
    #if canImport(Darwin)
      var size = 0
      var length = MemoryLayout<Int>.size
      guard sysctlbyname("hw.cachelinesize", &size, &length, nil, 0) == 0, size > 0 else { return nil }
      return size
    #elseif canImport(Glibc)
      let size = sysconf(Int32(_SC_LEVEL1_DCACHE_LINESIZE))
      return size > 0 ? size : nil
    #else
      return nil
    #endif
  }
}
