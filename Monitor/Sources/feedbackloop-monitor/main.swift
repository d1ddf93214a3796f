import FeedbackLoopDebugging
import Foundation
import MonitorProtocol
import MonitorServer

// feedbackloop-monitor [--host ADDRESS] [--port N] [--app-port N] [FILE.jsonl]
//
// Serves the page on loopback (unless --host says otherwise), waits for
// applications, and opens FILE.jsonl, a timeline a recorder wrote, when given.
var arguments = Array(CommandLine.arguments.dropFirst())
var host = "127.0.0.1"
var pagePort = 7_070
var appPort = 7_071
var file: String?
while let argument = arguments.first {
  arguments.removeFirst()
  switch argument {
  case "--host": host = arguments.isEmpty ? host : arguments.removeFirst()
  case "--port": pagePort = Int(arguments.isEmpty ? "" : arguments.removeFirst()) ?? pagePort
  case "--app-port": appPort = Int(arguments.isEmpty ? "" : arguments.removeFirst()) ?? appPort
  case "-h", "--help":
    print("usage: feedbackloop-monitor [--host ADDRESS] [--port N] [--app-port N] [FILE.jsonl]")
    exit(0)
  default: file = argument
  }
}

let server = MonitorServer(host: host)
let ports = try await server.start(pagePort: pagePort, appPort: appPort)
if let file {
  let timeline = try TimelineFile<JSONValue, JSONValue>(contentsOf: URL(fileURLWithPath: file))
  await server.hub.open(timeline, system: URL(fileURLWithPath: file).lastPathComponent)
  print("opened \(file): \(timeline.moments.count) moments, \(timeline.problems.count) problems")
  for problem in timeline.problems { print("  \(problem)") }
}
if host != "127.0.0.1" && host != "localhost" && host != "::1" {
  print("warning: listening on \(host): anyone who can reach it and knows the secret can change your app's state")
}
print("page:         http://\(host):\(ports.page)/?secret=\(server.secret)")
print("applications: MonitorClient.connect(host: \"\(host)\", port: \(ports.app), secret: \"\(server.secret)\", …)")
while true { try await Task.sleep(for: .seconds(3_600)) }
