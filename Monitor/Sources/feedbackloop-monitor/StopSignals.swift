import Dispatch
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Control-C and SIGTERM: the info file is removed before the monitor
/// exits, so that a script never reads the secret of a monitor that is gone.
enum StopSignals {
  /// Removes `path` when the process is told to stop, then exits with the
  /// status a shell reports for that signal (128 + its number). The handlers
  /// last as long as the sources returned are kept.
  static func removeOnStop(_ path: String) -> [any DispatchSourceSignal] {
    [SIGINT, SIGTERM].map { number in
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler {
        try? FileManager.default.removeItem(atPath: path)
        exit(128 + number)
      }
      source.resume()
      return source
    }
  }
}
