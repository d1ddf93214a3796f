import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Control-C and SIGTERM: the info file is removed before the monitor
/// exits, so that a script never reads the secret of a monitor that is gone.
///
/// Plain signal handlers, installed before the file is written: a dispatch
/// signal source is armed later, asynchronously, and a signal that came
/// before (the signal ignored meanwhile) was lost, leaving the monitor running.
enum StopSignals {
  /// The path as a C string: a signal handler may only call what is safe in
  /// one (`unlink`, `_exit`), and captures nothing.
  // nonisolated(unsafe): written once, before the handlers are installed; only read after, by them.
  nonisolated(unsafe) private static var path: UnsafeMutablePointer<CChar>?

  /// Removes `path` when the process is told to stop, then exits with the
  /// status a shell reports for that signal (128 + its number).
  static func removeOnStop(_ path: String) {
    Self.path = strdup(path)
    for number in [SIGINT, SIGTERM] {
      signal(number) { number in
        if let path = StopSignals.path { unlink(path) }
        _exit(128 + number)
      }
    }
  }
}
