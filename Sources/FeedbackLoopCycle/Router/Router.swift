import DequeModule
import FeedbackLoop

/// Cycle's `IORouter`: a seed frame, the drivers made from it, and the
/// wiring of each driver's events through its event filter into the next
/// frame. Underneath, a Cycle application is a `System` whose state is a
/// ``Reel`` (the current frame, the animation queued behind it, the previous
/// frames) and whose events are ``CycleEvent``s: it starts, stops, is tested
/// with the testing kit and is watched by a monitor like any system.
///
/// The loop is Cycle.swift's cycle: the frame goes through each driver's frame
/// filter; a changed model is rendered; each driver's events go through its
/// event filter with the previous frames into the next frame, or into an
/// animation that ticks at ``frameRate`` on the system's clock while more
/// than one frame is queued (no tick, no timer, otherwise).
///
/// Drivers' ends: when a driver's event sequence ends or throws, the router
/// reduces ``CycleEvent/driverEnded(_:)`` or
/// ``CycleEvent/driverFailed(_:message:)`` (the monitor sees it as any
/// reduction), records it in ``Reel/endedDrivers``, and keeps the other
/// drivers running.
///
/// ```swift
/// let router = Router(seed: 0, memory: 2) { seed in
///   [
///     Wire(Counter.screen, driver: Screen(), model: { "\($0)" }, events: Counter.screenEvents),
///     Wire(Counter.clock, driver: Clock(), model: { _ in true }, events: Counter.clockEvents),
///   ]
/// }
/// let counter = router.start()   // a System<Reel<Int>, CycleEvent>
/// counter.stop()
/// ```
///
/// In a test, give the testing kit the router's parts:
///
/// ```swift
/// let counter = TestSystem(initial: router.initial, reduce: router.reduce, feedbacks: router.feedbacks)
/// ```
public struct Router<Frame: Sendable>: Sendable {
  /// The first frame.
  public let seed: Frame
  /// How many previous frames the event filters see.
  public let memory: Int
  /// How fast queued frames play.
  public let frameRate: FrameRate
  /// The drivers and their filters, in the order they render each frame.
  public let wires: [Wire<Frame>]

  /// A router from `seed`, with the drivers `driversFrom(seed)` wires (the
  /// Cycle.swift's `driversFrom(seed:)`, called once, here).
  ///
  /// - Parameters:
  ///   - seed: the first frame.
  ///   - memory: how many previous frames the event filters see (Cycle.swift's
  ///     *n*); zero or more.
  ///   - frameRate: how fast an animation's queued frames play.
  ///   - driversFrom: the drivers, made from the seed, each with its filters.
  ///     Their names must differ.
  @inlinable
  public init(
    seed: Frame,
    memory: Int = 1,
    frameRate: FrameRate = .sixty,
    drivers driversFrom: (Frame) -> [Wire<Frame>]
  ) {
    guard memory >= 0 else {
      fatalError("FeedbackLoopCycle: a router remembers zero or more previous frames; got memory \(memory)")
    }
    let wires = driversFrom(seed)
    let names = wires.map(\.name)
    guard Set(names).count == names.count else {
      fatalError("FeedbackLoopCycle: two drivers of one router have the same name: \(names)")
    }
    DriverEvent.registerIfDecodable(Reel<Frame>.self)
    self.seed = seed
    self.memory = memory
    self.frameRate = frameRate
    self.wires = wires
  }

  /// The system's initial state: a reel showing the seed.
  @inlinable public var initial: Reel<Frame> { Reel(seed: seed, memory: memory) }

  /// The system's reducer: a driver's event through its event filter, a
  /// tick to the next queued frame, a driver's end recorded.
  @inlinable
  public var reduce: @Sendable (inout Reel<Frame>, CycleEvent) -> Void {
    // The wires themselves, not an array of their closures: an array stores
    // closures at their most general abstraction, and each call would go
    // through a reabstraction thunk.
    let wires = ContiguousArray(wires)
    let positions = Dictionary(uniqueKeysWithValues: wires.enumerated().map { ($1.name, $0) })
    return { reel, event in
      switch event {
      case .tick:
        reel.advance()
      case .driver(let driverEvent):
        guard let wire = driverEvent.wire ?? positions[driverEvent.driver] else {
          fatalError(
            "FeedbackLoopCycle: no driver is called \(driverEvent.driver); the router's drivers are \(positions.keys.sorted())"
          )
        }
        wires[wire].apply(driverEvent.event, &reel)
      case .driverEnded(let name):
        reel.recordEnd(DriverEnd(driver: name))
      case .driverFailed(let name, let message):
        reel.recordEnd(DriverEnd(driver: name, failure: message))
      case .travel(let destination):
        // A jump shows a frame: drivers that render every frame render it.
        let frameNumber = reel._frameNumber
        reel = Self.destination(destination)
        reel._frameNumber = frameNumber &+ 1
      }
    }
  }

  /// The reel a jump sets, checked to be of this router's frame.
  @usableFromInline
  static func destination(_ destination: any Sendable) -> Reel<Frame> {
    guard let reel = destination as? Reel<Frame> else {
      fatalError(
        "FeedbackLoopCycle: a jump to a \(type(of: destination)) reached a router whose state is a \(Reel<Frame>.self)")
    }
    return reel
  }

  /// The system's feedbacks: one render feedback per driver (its frame
  /// filter, and the skip of an unchanged model), one feedback per driver
  /// whose frame filter throws (its errors, sent as the driver's events),
  /// one input per driver (its events), and the animation clock.
  @inlinable
  public var feedbacks: [Feedback<Reel<Frame>, CycleEvent>] {
    let renders = wires.indices.map {
      wires[$0].makeRender($0, wires[$0].framesPerSample(routerRate: frameRate))
    }
    let failureReports = wires.indices.compactMap { wires[$0].makeFailureReport?($0) }
    let inputs = wires.indices.map { wires[$0].makeEvents($0) }
    return renders + failureReports + inputs + [animationClock]
  }

  /// Ticks at the frame rate on the system's clock while more than one
  /// frame is queued; cancelled as soon as one is left.
  @inlinable
  var animationClock: Feedback<Reel<Frame>, CycleEvent> {
    let interval = frameRate.interval
    return Feedback.onBecomingTrue({ $0._storage.isPlaying }, name: "animation clock") { _ in
      .run { send in
        while true {
          try await send.clock.sleep(for: interval)
          send(.tick)
        }
      }
    }
  }

  /// An event of the driver `key` names, its wire found now rather than by
  /// name at each reduction: for events sent often from outside. The key
  /// checks the event's type at compile time.
  ///
  /// ```swift
  /// let plus = router.event(Counter.screen, .key("+"))
  /// app.send(plus)
  /// ```
  @inlinable
  public func event<Event>(_ key: DriverKey<Event>, _ event: Event) -> CycleEvent {
    self.event(event, from: key.name)
  }

  /// An event of the driver named `driver`, untyped: for a tool that knows
  /// the driver by name only (a decoder, a monitor). An application sends
  /// through its ``DriverKey``s (``event(_:_:)``), whose event types the
  /// compiler checks; here a wrong name or type stops the router.
  ///
  /// ```swift
  /// let plus = router.event(Screen.Event.key("+"), from: "screen")
  /// ```
  @inlinable
  public func event(_ event: any Sendable, from driver: String) -> CycleEvent {
    guard let wire = wires.firstIndex(where: { $0.name == driver }) else {
      fatalError(
        "FeedbackLoopCycle: no driver is called \(driver); the router's drivers are \(wires.map(\.name))")
    }
    return .driver(DriverEvent(driver: driver, event: event, wire: wire))
  }

  /// Starts the application: a system whose state is the reel.
  ///
  /// ```swift
  /// let app = router.start(isolation: .mainActor)
  /// ```
  @inlinable
  public func start(
    isolation: SystemIsolation = .sendingThread,
    environment: SystemEnvironment = SystemEnvironment(),
    monitor: SystemMonitor<Reel<Frame>, CycleEvent>? = nil,
    caller: isolated (any Actor)? = #isolation
  ) -> System<Reel<Frame>, CycleEvent> {
    System(
      initial: initial, reduce: reduce, feedbacks: feedbacks, isolation: isolation,
      environment: environment, monitor: monitor, caller: caller)
  }
}
