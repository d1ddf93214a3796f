import Foundation
import MonitorServer

/// What `--info-file` holds, for a script: the page's address with the
/// secret, the secret, the host and both ports.
///
/// ```json
/// {"appPort":7071,"host":"127.0.0.1","page":"http://127.0.0.1:7070/?secret=3f1c…","pagePort":7070,"secret":"3f1c…"}
/// ```
struct MonitorInfo: Codable {
  var page: String
  var secret: String
  var host: String
  var pagePort: Int
  var appPort: Int

  init(host: String, ports: MonitorServer.Ports, secret: String) {
    let address = host.contains(":") ? "[\(host)]" : host
    self.page = "http://\(address):\(ports.page)/?secret=\(secret)"
    self.secret = secret
    self.host = host
    self.pagePort = ports.page
    self.appPort = ports.app
  }

  /// Writes the file whole or not at all (a reader never sees half of it),
  /// readable by its owner only: it holds the secret.
  func write(to path: String) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let data = try encoder.encode(self) + Data("\n".utf8)
    let partial = path + ".partial"
    guard FileManager.default.createFile(atPath: partial, contents: data, attributes: [.posixPermissions: 0o600])
    else { throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: partial]) }
    if rename(partial, path) != 0 {
      let reason = String(cString: strerror(errno))
      try? FileManager.default.removeItem(atPath: partial)
      throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: reason])
    }
  }
}
