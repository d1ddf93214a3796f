import FeedbackLoopMonitorProtocol
import Foundation
import Testing

@testable import MonitorServer

/// The hub under apps that share a name and come and go in every order, and
/// pages that read slowly while that happens: each page is told what the
/// hub's history says, in its order, and commands go to an app still there.
@Suite struct HubAttackTests {
  /// What each sink was given, in order.
  actor Log {
    private(set) var lines: [String: [String]] = [:]
    func append(_ sink: String, _ line: String) { lines[sink, default: []].append(line) }
    func count(_ sink: String) -> Int { lines[sink]?.count ?? 0 }
  }

  /// Holds the first caller of ``pass()`` until ``open()``; tells when it arrived.
  actor Gate {
    private var used = false
    private var isOpen = false
    private var held: CheckedContinuation<Void, Never>?
    private var arrived = false
    private var arrivalWaiter: CheckedContinuation<Void, Never>?

    func pass() async {
      guard !used else { return }
      used = true
      arrived = true
      arrivalWaiter?.resume()
      arrivalWaiter = nil
      guard !isOpen else { return }
      await withCheckedContinuation { held = $0 }
    }

    func arrival() async {
      guard !arrived else { return }
      await withCheckedContinuation { arrivalWaiter = $0 }
    }

    func open() {
      isOpen = true
      held?.resume()
      held = nil
    }
  }

  static func isLive(_ line: String) -> Bool? {
    guard case .success(let message) = decodeMonitorLine(PageMessage.self, line), message.type == .system else {
      return nil
    }
    return message.live
  }

  static func search(_ query: String) -> PageCommand {
    PageCommand(type: .send, system: "search", event: .string(query))
  }

  /// Lets the other tasks run for a while (what a page's slow write gives them).
  static func letOthersRun() async {
    for _ in 0..<2_000 { await Task.yield() }
  }

  static let leavingOrders: [[Int]] = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]]

  @Test(
    "three apps with one name leave in any order: live until the last goes, commands to the newest still there",
    arguments: leavingOrders)
  func threeAppsLeave(order: [Int]) async throws {
    let hub = MonitorHub()
    let log = Log()
    var ids: [MonitorHub.AppID] = []
    for app in 0..<3 {
      ids.append(await hub.addApp(system: "search", diagram: nil) { line in await log.append("app\(app)", line) })
    }
    var present = Set(0..<3)
    for (step, leaving) in order.enumerated() {
      await hub.removeApp(ids[leaving], system: "search")
      // Gone twice, or under another name: nothing more happens.
      await hub.removeApp(ids[leaving], system: "search")
      await hub.removeApp(ids[leaving], system: "other")
      present.remove(leaving)
      let offline = await hub.messages.filter { Self.isLive($0) == false }.count
      guard let newest = present.max() else {
        #expect(offline == 1)
        #expect(await hub.liveSystems.isEmpty)
        #expect(await hub.forward(Self.search("gone")) == "no application search is connected")
        break
      }
      #expect(offline == 0)
      #expect(await hub.liveSystems == ["search"])
      let before = await log.count("app\(newest)")
      #expect(await hub.forward(Self.search("step \(step)")) == nil)
      #expect(await log.count("app\(newest)") == before + 1)
    }
    for app in 0..<3 where app != order.last {
      // An app that left is sent nothing after it left.
      #expect(await log.count("app\(app)") <= 2)
    }
    // Back again after all left: live once more.
    let back = await hub.addApp(system: "search", diagram: nil) { _ in }
    #expect(await hub.liveSystems == ["search"])
    await hub.removeApp(back, system: "search")
    #expect(await hub.messages.filter { Self.isLive($0) == false }.count == 2)
  }

  @Test("while a page reads slowly, an app that reconnects under its name is shown live to every page, in order")
  func reconnectWhileAPageIsSlow() async throws {
    let hub = MonitorHub()
    let log = Log()
    let gate = Gate()
    let old = await hub.addApp(system: "search", diagram: nil) { _ in }
    for page in ["page1", "page2"] {
      await hub.addPage(UUID()) { line in
        await log.append(page, line)
        if Self.isLive(line) == false { await gate.pass() }
      }
    }
    // The old connection is noticed gone while a new one says hello: one of
    // the pages is slow to take the "offline" line.
    let leaving = Task { await hub.removeApp(old, system: "search") }
    await gate.arrival()
    let arriving = Task { _ = await hub.addApp(system: "search", diagram: nil) { _ in } }
    await Self.letOthersRun()
    await gate.open()
    await leaving.value
    await arriving.value
    let history = await hub.messages
    #expect(history.compactMap(Self.isLive) == [true, false, true])
    for page in ["page1", "page2"] {
      #expect(await log.lines[page] == history, "\(page) was told the system's lines out of order")
    }
    #expect(await hub.liveSystems == ["search"])
  }

  @Test("a page that connects while its history is being sent misses no line published meanwhile")
  func pageConnectingDuringAPublish() async throws {
    let hub = MonitorHub()
    let log = Log()
    let gate = Gate()
    _ = await hub.addApp(system: "search", diagram: nil) { _ in }
    let joining = Task {
      await hub.addPage(UUID()) { line in
        await log.append("page", line)
        await gate.pass()
      }
    }
    await gate.arrival()
    let publishing = Task { await hub.publish(PageMessage(type: .rejected, system: "search", reason: "meanwhile")) }
    await Self.letOthersRun()
    await gate.open()
    await joining.value
    await publishing.value
    let history = await hub.messages
    #expect(history.count == 2)
    #expect(await log.lines["page"] == history)
  }
}
