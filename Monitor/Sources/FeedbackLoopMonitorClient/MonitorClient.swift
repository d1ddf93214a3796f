import FeedbackLoop
import FeedbackLoopDebugging
import Foundation
import MonitorProtocol
import NIOCore
import NIOExtras
import NIOPosix

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
  private let channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>
  private let outgoing: AsyncStream<String>.Continuation
  private let dropped: Locked<UInt64>
  private let task: Task<Void, Never>
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
  public static func connect<State: Codable & Sendable, Event: Codable & TimeTravelEvent>(
    host: String = "127.0.0.1", port: Int, secret: String, system: FeedbackLoop.System<State, Event>,
    recorder: Recorder<State, Event>, diagram: String? = nil, queueCapacity: Int = 10_000
  ) async throws -> MonitorClient where Event.TravelState == State {
    let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
      .connect(host: host, port: port) { channel in
        channel.eventLoop.makeCompletedFuture {
          try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(LineBasedFrameDecoder()))
          return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
        }
      }
    let (lines, outgoing) = AsyncStream<String>.makeStream(bufferingPolicy: .unbounded)
    let dropped = Locked<UInt64>(0)
    let queued = Locked<Int>(0)
    let systemID = recorder.stream.system
    let serializer = InspectionSerializer<State, Event>.codable
    let hello = AppMessage(type: .hello, secret: secret, system: systemID, diagram: diagram)
    outgoing.yield(try hello.monitorLine())

    // History first, then live activity, with nothing lost or repeated in between.
    let nextMoment = Locked<UInt64>(0)
    recorder.stream.add(
      catchingUp: {
        for moment in recorder.moments {
          for message in (try? moment.appMessages(system: systemID, serializer: serializer)) ?? [] {
            if let line = try? message.monitorLine() { outgoing.yield(line) }
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
        let accepted = queued.withLock { count -> Bool in
          guard count < queueCapacity else { return false }
          count += 1
          return true
        }
        guard accepted else {
          dropped.withLock { $0 += 1 }
          return
        }
        guard let message = try? InspectionMessage(inspection, serializer: serializer),
          let line = try? AppMessage(type: .activity, moment: moment, message: message).monitorLine()
        else { return }
        outgoing.yield(line)
      })

    let machine = TimeMachine(system: system, recorder: recorder)
    let rejections = Locked<[String]>([])
    let task = Task<Void, Never> {
      _ = try? await channel.executeThenClose { inbound, outbound in
        await withTaskGroup(of: Void.self) { group in
          group.addTask {
            for await line in lines {
              queued.withLock { $0 = max(0, $0 - 1) }
              try? await outbound.write(ByteBuffer(string: line + "\n"))
            }
          }
          do {
            for try await buffer in inbound {
              let line = String(buffer: buffer)
              if let reason = apply(line, machine: machine, system: system) {
                rejections.withLock { $0.append(reason) }
                if let answer = try? AppMessage(type: .rejected, reason: reason).monitorLine() {
                  outgoing.yield(answer)
                }
              }
            }
          } catch {}
          outgoing.finish()
          await group.waitForAll()
        }
      }
    }
    return MonitorClient(channel: channel, outgoing: outgoing, dropped: dropped, task: task, rejections: rejections)
  }

  private init(
    channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>, outgoing: AsyncStream<String>.Continuation,
    dropped: Locked<UInt64>, task: Task<Void, Never>, rejections: Locked<[String]>
  ) {
    self.channel = channel
    self.outgoing = outgoing
    self.dropped = dropped
    self.task = task
    self.rejections = rejections
  }

  /// Activities dropped because the network fell behind.
  public var droppedCount: UInt64 { dropped.withLock { $0 } }

  /// Why the commands the client could not apply were rejected, in order.
  public var rejectedCommands: [String] { rejections.withLock { $0 } }

  /// Closes the connection; the system runs on.
  public func close() async {
    outgoing.finish()
    channel.channel.close(promise: nil)
    await task.value
  }

  /// Applies one command; returns why it was rejected, if it was.
  static func apply<State: Codable & Sendable, Event: Codable & TimeTravelEvent>(
    _ line: String, machine: TimeMachine<State, Event>, system: FeedbackLoop.System<State, Event>
  ) -> String? where Event.TravelState == State {
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

/// A lock around a value.
final class Locked<Value: Sendable>: @unchecked Sendable {
  // Sendable: `value` is only touched while `lock` is held.
  private let lock = NSLock()
  private var value: Value

  init(_ value: Value) { self.value = value }

  func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}
