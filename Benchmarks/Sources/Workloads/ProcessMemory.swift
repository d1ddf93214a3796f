import CBenchmarkSupport

#if canImport(Glibc)
  import Glibc
#endif

/// What the process holds in memory, read from the kernel and the allocator.
/// Linux only: elsewhere every reading is `nil`.
public enum ProcessMemory {
  /// Resident bytes now (`/proc/self/statm`, second field, in pages).
  public static func residentBytes() -> Int? {
    #if os(Linux)
      guard let text = read("/proc/self/statm") else { return nil }
      let fields = text.split(separator: " ")
      guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
      return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    #else
      return nil
    #endif
  }

  /// Resident bytes now, split as `/proc/self/status` does: anonymous
  /// memory (the heap: what the process allocated) and file-backed pages
  /// (code and read-only data of the executable and its libraries, read in
  /// the first time they run).
  public static func residentSplit() -> (anonymous: Int, fileBacked: Int)? {
    #if os(Linux)
      guard let text = read("/proc/self/status") else { return nil }
      var anonymous: Int?
      var fileBacked: Int?
      for line in text.split(separator: "\n") {
        let kilobytes = line.split(separator: " ").dropFirst().first.flatMap { Int($0) }.map { $0 * 1024 }
        if line.hasPrefix("RssAnon:") { anonymous = kilobytes }
        if line.hasPrefix("RssFile:") { fileBacked = kilobytes }
      }
      guard let anonymous, let fileBacked else { return nil }
      return (anonymous, fileBacked)
    #else
      return nil
    #endif
  }

  /// The peak of resident bytes since the process started
  /// (`VmHWM` in `/proc/self/status`).
  public static func peakResidentBytes() -> Int? {
    #if os(Linux)
      guard let text = read("/proc/self/status") else { return nil }
      for line in text.split(separator: "\n") where line.hasPrefix("VmHWM:") {
        let kilobytes = line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
        return kilobytes.map { $0 * 1024 }
      }
      return nil
    #else
      return nil
    #endif
  }

  /// Bytes the allocator has handed out and not yet taken back
  /// (glibc's `mallinfo2`: `uordblks + hblkhd`).
  public static func allocatedBytes() -> Int? {
    let bytes = benchmarks_allocated_bytes()
    return bytes < 0 ? nil : Int(bytes)
  }

  #if os(Linux)
    private static func read(_ path: String) -> String? {
      let descriptor = open(path, O_RDONLY)
      guard descriptor >= 0 else { return nil }
      defer { close(descriptor) }
      var bytes: [UInt8] = []
      var buffer = [UInt8](repeating: 0, count: 4096)
      while true {
        let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
        if count <= 0 { break }
        bytes.append(contentsOf: buffer[0..<count])
      }
      return String(decoding: bytes, as: UTF8.self)
    }
  #endif
}
