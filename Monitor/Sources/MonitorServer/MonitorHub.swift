import FeedbackLoopDebugging
import FeedbackLoopMonitorProtocol
import Foundation

/// What the monitor knows: every application's timeline (as the page reads
/// it), the pages that watch, and how to reach each application.
///
/// Pages get, on connecting, every message so far, then each new one, in
/// the order of ``messages`` (one line is given to every page before the
/// next, so a page that reads slowly holds the others back).
///
/// Several applications may serve one system (an app started twice, or
/// reconnecting before its old connection is noticed gone): each connection
/// is tracked on its own, the system is live while any of them is, and a
/// page's command goes to the most recent connection still open.
/// Messages to the page are JSON objects:
///
/// - `{"type":"activity","system":"search","moment":3,"message":{…}}`;
/// - `{"type":"system","system":"search","live":true,"diagram":"…"}` when an
///   application connects (or a file is opened: `live` is false) and
///   `{"type":"system","system":"search","live":false}` when the last
///   application serving that system goes;
/// - `{"type":"rejected","reason":"…"}` for a page's message that was refused.
public actor MonitorHub {
  public typealias PageSink = @Sendable (String) async -> Void
  public typealias AppSink = @Sendable (String) async -> Void

  /// One application's connection, as the hub knows it.
  struct AppID: Hashable, Sendable {
    fileprivate var number: Int
  }

  private var history: [String] = []
  private var pages: [UUID: PageSink] = [:]
  /// Each system's open connections, oldest first.
  private var apps: [String: [(id: AppID, sink: AppSink)]] = [:]
  private var nextApp = 0
  /// Whether lines are being given to the pages now, and who waits to give
  /// theirs, oldest first (see ``takeTurn()``).
  private var delivering = false
  private var waitingToDeliver: [CheckedContinuation<Void, Never>] = []
  /// Lines kept for a page that connects late; older ones go first (G14).
  public let historyLimit: Int
  public private(set) var droppedHistory = 0

  public init(historyLimit: Int = 100_000) {
    self.historyLimit = historyLimit
  }

  /// Every message the pages were sent, in order.
  public var messages: [String] { history }

  /// The systems connected now.
  public var liveSystems: [String] { apps.keys.sorted() }

  func publish(_ message: PageMessage) async {
    guard let line = try? message.monitorLine() else { return }
    await takeTurn()
    defer { endTurn() }
    history.append(line)
    if history.count > historyLimit {
      history.removeFirst(history.count - historyLimit)
      droppedHistory += 1
    }
    for page in pages.values { await page(line) }
  }

  func addPage(_ id: UUID, sink: @escaping PageSink) async {
    await takeTurn()
    defer { endTurn() }
    for line in history { await sink(line) }
    pages[id] = sink
  }

  /// Waits until no other line is being given to the pages. While a page's
  /// sink awaits (a page that reads slowly), the actor takes other calls:
  /// without turns, a line published then could reach a page before the one
  /// being given (an app's "offline" after its reconnection's "live"), and a
  /// page being sent its history would miss it. Turns go in the order asked.
  private func takeTurn() async {
    guard delivering else {
      delivering = true
      return
    }
    await withCheckedContinuation { waitingToDeliver.append($0) }
  }

  private func endTurn() {
    guard !waitingToDeliver.isEmpty else {
      delivering = false
      return
    }
    waitingToDeliver.removeFirst().resume()
  }

  func removePage(_ id: UUID) { pages[id] = nil }

  /// How many applications' connections serve `system` now.
  func connections(serving system: String) -> Int { apps[system]?.count ?? 0 }

  func addApp(system: String, diagram: String?, sink: @escaping AppSink) async -> AppID {
    let id = AppID(number: nextApp)
    nextApp += 1
    apps[system, default: []].append((id, sink))
    await publish(PageMessage(type: .system, system: system, live: true, diagram: diagram))
    return id
  }

  /// Forgets one connection; the system goes offline only with its last one.
  func removeApp(_ id: AppID, system: String) async {
    guard var connections = apps[system], let index = connections.firstIndex(where: { $0.id == id }) else { return }
    connections.remove(at: index)
    guard connections.isEmpty else {
      apps[system] = connections
      return
    }
    apps[system] = nil
    await publish(PageMessage(type: .system, system: system, live: false))
  }

  /// Forwards a page's command to its application; returns why not, if not.
  func forward(_ command: PageCommand) async -> String? {
    guard let app = apps[command.system]?.last?.sink else { return "no application \(command.system) is connected" }
    let appCommand: AppCommand
    switch command.type {
    case .jump:
      guard let state = command.state else { return "jump needs a state" }
      appCommand = AppCommand(type: .jump, state: state)
    case .send:
      guard let event = command.event else { return "send needs an event" }
      appCommand = AppCommand(type: .send, event: event)
    case .playEvents, .playStates:
      guard let from = command.from else { return "\(command.type.rawValue) needs from" }
      appCommand = AppCommand(type: command.type == .playEvents ? .playEvents : .playStates, from: from)
    }
    guard let line = try? appCommand.monitorLine() else { return "the command does not encode" }
    await app(line)
    return nil
  }

  /// Publishes a recorded timeline, read from a file, as a system that is not live.
  public func open<State: Codable & Sendable, Event: Codable & Sendable>(
    _ file: TimelineFile<State, Event>, system: String
  ) async {
    await publish(PageMessage(type: .system, system: system, live: false))
    for moment in file.moments {
      for message in (try? moment.appMessages(system: system, serializer: .codable)) ?? [] {
        await publish(PageMessage(type: .activity, system: system, moment: message.moment, message: message.message))
      }
    }
    for problem in file.problems {
      await publish(PageMessage(type: .rejected, system: system, reason: problem.description))
    }
  }
}

/// A message to the page (see ``MonitorHub``).
struct PageMessage: Sendable, Codable {
  enum Kind: String, Sendable, Codable { case activity, system, rejected }
  var type: Kind
  var system: String?
  var live: Bool?
  var diagram: String?
  var moment: UInt64?
  var message: InspectionMessage?
  var reason: String?
}

/// A command from the page: `{"type":"jump","system":"search","state":{…}}`,
/// `{"type":"send","system":"search","event":{…}}`,
/// `{"type":"playEvents","system":"search","from":3}`, `playStates` alike.
struct PageCommand: Sendable, Codable {
  enum Kind: String, Sendable, Codable { case jump, send, playEvents, playStates }
  var type: Kind
  var system: String
  var state: JSONValue?
  var event: JSONValue?
  var from: UInt64?
}
