import FeedbackLoop
import FeedbackLoopDebugging
import FeedbackLoopMonitorProtocol
import Foundation

/// Streams a running system's timeline to the monitor, and applies what the
/// monitor's page asks: a jump to a moment or an edited state, an event,
/// playback of the recorded events or states.
///
/// The moments the recorder holds are sent first, then every later activity
/// as it happens; nothing is missed or sent twice between the two (the
/// stream hands the client its history and its first live activity under
/// one lock). The loop never waits for the network: activities wait in a
/// bounded queue, and what does not fit is dropped and counted
/// (``droppedCount``).
///
/// The connection is the platform's own TCP socket, on two threads of the
/// link's: the client brings no network library into the app.
///
/// ```swift
/// let recorder = Recorder<Search.State, Search.Event>(capacity: 1_000, system: "search")
/// let search = System(initial: .initial, reduce: TimeTravel.reducer(Search.reduce),
///                     feedbacks: feedbacks, monitor: recorder.monitor)
/// let link = try await MonitorClient.connect(
///   port: 7_071, secret: secretPrintedByTheMonitor, system: search, recorder: recorder)
/// // … later
/// await link.close()
/// ```
public final class MonitorClient: Sendable {
  let connection: MonitorConnection
  private let outgoing: OutgoingLines
  private let dropped: Locked<UInt64>
  private let rejections: Locked<[String]>

  /// Connects `system`, recorded by `recorder`, to the monitor at `host`:`port`.
  ///
  /// - Parameters:
  ///   - host: the monitor's host; loopback by default.
  ///   - port: the port the monitor printed for applications.
  ///   - secret: the secret the monitor printed at start.
  ///   - system: the running system, whose event type can carry a jump.
  ///   - recorder: its recorder (the moments before now are sent first).
  ///   - diagram: the system's transition diagram in Mermaid, if it has one: a
  ///     `DeclarativeSystem`'s `diagram.mermaid`, or a `Statechart`'s, whose
  ///     composite states the page draws nested.
  ///   - queueCapacity: how many messages may wait for the network.
  ///   - welcomeTimeLimit: how long to wait for the monitor: for the
  ///     connection, then for its answer to the application's hello.
  /// - Throws: ``MonitorConnectionError`` when the monitor refuses the
  ///   connection (a wrong secret, most often), or what answers is not the
  ///   monitor; ``MonitorNetworkError`` when nothing listens at `host`:`port`.
  public static func connect<State: Codable & Sendable, Event: Codable & AnyStateTravelEvent>(
    host: String = "127.0.0.1", port: Int, secret: String, system: FeedbackLoop.System<State, Event>,
    recorder: Recorder<State, Event>, diagram: String? = nil, queueCapacity: Int = 10_000,
    welcomeTimeLimit: Duration = .seconds(10)
  ) async throws -> MonitorClient {
    let machine = TimeMachine(system: system, recorder: recorder)
    return try await open(
      host: host, port: port, secret: secret, recorder: recorder, serializer: .codable, diagram: diagram,
      queueCapacity: queueCapacity, welcomeTimeLimit: welcomeTimeLimit
    ) { line in apply(line, machine: machine, system: system) }
  }

  /// Streams the timeline `recorder` records to the monitor at `host`:`port`,
  /// to be watched only: the page shows every moment, and the commands it
  /// sends (a jump, an event, playback) are refused with a reason shown on
  /// the page. For a system whose State or Event is not `Codable`, or whose
  /// event carries no jump.
  ///
  /// ```swift
  /// let recorder = Recorder<Counter.State, Counter.Event>(system: "counter")
  /// let counter = System(initial: 0, reduce: Counter.reduce, feedbacks: [], monitor: recorder.monitor)
  /// let link = try await MonitorClient.stream(
  ///   port: 7_071, secret: secretPrintedByTheMonitor, recorder: recorder, serializer: .described)
  /// ```
  ///
  /// - Parameters:
  ///   - host: the monitor's host; loopback by default.
  ///   - port: the port the monitor printed for applications.
  ///   - secret: the secret the monitor printed at start.
  ///   - recorder: the system's recorder (the moments before now are sent first).
  ///   - serializer: how states and events become JSON: `.codable` for
  ///     `Codable` types, `.described` for any (their description, a string).
  ///   - diagram: the system's transition diagram in Mermaid, if it has one.
  ///   - queueCapacity: how many messages may wait for the network.
  ///   - welcomeTimeLimit: how long to wait for the monitor: for the
  ///     connection, then for its answer to the application's hello.
  /// - Throws: ``MonitorConnectionError`` when the monitor refuses the
  ///   connection; ``MonitorNetworkError`` when it cannot be reached.
  public static func stream<State: Sendable, Event: Sendable>(
    host: String = "127.0.0.1", port: Int, secret: String, recorder: Recorder<State, Event>,
    serializer: InspectionSerializer<State, Event>, diagram: String? = nil, queueCapacity: Int = 10_000,
    welcomeTimeLimit: Duration = .seconds(10)
  ) async throws -> MonitorClient {
    try await open(
      host: host, port: port, secret: secret, recorder: recorder, serializer: serializer, diagram: diagram,
      queueCapacity: queueCapacity, welcomeTimeLimit: welcomeTimeLimit
    ) { line in
      switch decodeMonitorLine(AppCommand.self, line) {
      case .failure(let error): error.reason
      case .success(let command) where command.type == .welcome || command.type == .rejected: nil
      case .success: "this application streams its timeline only: it takes no commands"
      }
    }
  }

  /// Connects, says hello, and waits for the monitor's answer: on a welcome,
  /// streams the recorder's history then its live activity, and hands each
  /// command to `apply` (which returns why it refused one, if it did).
  private static func open<State: Sendable, Event: Sendable>(
    host: String, port: Int, secret: String, recorder: Recorder<State, Event>,
    serializer: InspectionSerializer<State, Event>, diagram: String?, queueCapacity: Int,
    welcomeTimeLimit: Duration, apply: @escaping @Sendable (String) -> String?
  ) async throws -> MonitorClient {
    let systemID = recorder.stream.system
    let hello = try AppMessage(type: .hello, secret: secret, system: systemID, diagram: diagram).monitorLine()
    let socket = try await connectOnAThreadOfItsOwn(host: host, port: port, timeLimit: welcomeTimeLimit)
    let outgoing = OutgoingLines()
    let (answers, answered) = AsyncStream<MonitorConnectionError?>.makeStream(bufferingPolicy: .bufferingOldest(1))
    let dropped = Locked<UInt64>(0)
    outgoing.append(hello)

    let rejections = Locked<[String]>([])
    let welcomed = Locked(false)
    let connection = MonitorConnection(socket: socket, outgoing: outgoing)
    connection.start(
      received: { line in
        guard welcomed.withLock({ $0 }) else {
          // The first line answers the hello: a welcome, or why the monitor refused it.
          switch decodeMonitorLine(AppCommand.self, line) {
          case .success(let answer) where answer.type == .welcome:
            welcomed.withLock { $0 = true }
            answered.yield(nil)
            return true
          case .success(let answer) where answer.type == .rejected:
            answered.yield(.rejected(reason: answer.reason ?? "no reason given"))
          default:
            answered.yield(.notTheMonitor(port: port, firstLine: String(line.prefix(200))))
          }
          return false
        }
        if let reason = apply(line) {
          rejections.withLock { $0.append(reason) }
          if let answer = try? AppMessage(type: .rejected, reason: reason).monitorLine() {
            outgoing.append(answer)
          }
        }
        return true
      },
      readingEnded: {
        answered.yield(.closedBeforeWelcome(port: port))
        answered.finish()
        // The monitor went away: what waits is written if it can be, and the connection ends.
        outgoing.finish()
      })
    // Something that is not the monitor may never answer (a web server waiting for the rest of a request).
    let timer = Task {
      try await Task.sleep(for: welcomeTimeLimit)
      answered.yield(.noAnswer(port: port, waited: welcomeTimeLimit))
    }
    var refusal: MonitorConnectionError? = .closedBeforeWelcome(port: port)
    for await answer in answers {
      refusal = answer
      break
    }
    timer.cancel()
    if let refusal {
      outgoing.finish()
      connection.abort()
      await connection.waitForEnd()
      throw refusal
    }

    // Welcomed: history first, then live activity, with nothing lost or repeated in between.
    let nextMoment = Locked<UInt64>(0)
    recorder.stream.add(
      catchingUp: {
        for moment in recorder.moments {
          for message in (try? moment.appMessages(system: systemID, serializer: serializer)) ?? [] {
            if let line = try? message.monitorLine() { outgoing.append(line) }
          }
          nextMoment.withLock { $0 = moment.sequence + 1 }
        }
      },
      { inspection in
        let moment: UInt64? =
          switch inspection.activity {
          case .started, .reduced:
            nextMoment.withLock { next in
              defer { next += 1 }; return next
            }
          default: nil
          }
        // A full queue drops the activity before it is serialized: the loop pays least when the network lags.
        guard outgoing.waitingCount < queueCapacity else {
          dropped.withLock { $0 += 1 }
          return
        }
        guard let message = try? InspectionMessage(inspection, serializer: serializer),
          let line = try? AppMessage(type: .activity, moment: moment, message: message).monitorLine()
        else { return }
        if outgoing.append(line, capacity: queueCapacity) == .full {
          dropped.withLock { $0 += 1 }
        }
      })
    return MonitorClient(connection: connection, outgoing: outgoing, dropped: dropped, rejections: rejections)
  }

  /// Connects on a thread made for it: resolving the name and connecting
  /// block, and must not hold one of the concurrency pool's threads.
  private static func connectOnAThreadOfItsOwn(
    host: String, port: Int, timeLimit: Duration
  ) async throws -> TCPSocket {
    try await withCheckedThrowingContinuation { connected in
      Thread.detachNewThread {
        connected.resume(with: Result { try TCPSocket.connect(host: host, port: port, timeLimit: timeLimit) })
      }
    }
  }

  private init(
    connection: MonitorConnection, outgoing: OutgoingLines, dropped: Locked<UInt64>, rejections: Locked<[String]>
  ) {
    self.connection = connection
    self.outgoing = outgoing
    self.dropped = dropped
    self.rejections = rejections
  }

  /// Activities dropped because the network fell behind.
  public var droppedCount: UInt64 { dropped.withLock { $0 } }

  /// Why the commands the client could not apply were rejected, in order.
  public var rejectedCommands: [String] { rejections.withLock { $0 } }

  /// Sends what waits for the network, then closes the connection; the
  /// system runs on. It returns once the monitor has closed its side too,
  /// or after 5 seconds, when the connection is cut off.
  public func close() async {
    outgoing.finish()
    await connection.waitForEnd()
  }

  /// Applies one command; returns why it was rejected, if it was.
  static func apply<State: Codable & Sendable, Event: Codable & AnyStateTravelEvent>(
    _ line: String, machine: TimeMachine<State, Event>, system: FeedbackLoop.System<State, Event>
  ) -> String? {
    let command: AppCommand
    switch decodeMonitorLine(AppCommand.self, line) {
    case .success(let decoded): command = decoded
    case .failure(let error): return error.reason
    }
    switch command.type {
    case .welcome: return nil
    case .rejected: return nil
    case .jump:
      guard let json = command.state else { return "jump without a state" }
      do {
        machine.jump(toState: try json.decode(State.self))
      } catch {
        return "the state does not decode: \(error)"
      }
    case .send:
      guard let json = command.event else { return "send without an event" }
      do {
        system.send(try json.decode(Event.self))
      } catch {
        return "the event does not decode: \(error)"
      }
    case .playEvents:
      guard let from = command.from else { return "playEvents without from" }
      if machine.moment(from) == nil { return "moment \(from) is no longer recorded" }
      // Only the events sent from outside: the app's effects, derived again from the replayed
      // states, answer themselves; sending their recorded answers too would deliver each twice.
      machine.playEvents(from: from)
    case .playStates:
      guard let from = command.from else { return "playStates without from" }
      if machine.playStates(from: from) == 0 { return "moment \(from) is no longer recorded" }
    }
    return nil
  }
}
