import FeedbackLoop

/// One driver wired into a router: its name, its frame filter (frame ->
/// model) and its event filter (event + previous frames -> next frame).
///
/// The frame filter runs on every frame; when the model it makes equals the
/// one the driver rendered last, the render is skipped (Cycle.swift's second
/// frame filter). A skipped render is the frame filter's call on the frame,
/// read where the state stores it, and one comparison with the model
/// rendered last, kept per system: no allocation, no copy of the frame, no
/// closure of the library's between the loop and the frame filter (the
/// render is a core `Feedback.observer(_:)`). The event filter runs
/// in the router's reducer, with the frames it may read (``Frames``).
///
/// ```swift
/// Wire(App.screen, driver: screen,   // App.screen: a DriverKey<Screen.Event>
///   model: { frame in Screen.Model(text: "\(frame.count)") },
///   events: { event, frames in
///     switch event {
///     case .key("+"): .frame(frames.current.incremented())
///     case .key: .unchanged
///     }
///   })
/// ```
public struct Wire<Frame: Sendable>: Sendable {
  /// The driver's name: what its events and its end are reported under.
  public let name: String
  // Built by inlinable initializers, so that the render feedbacks and the
  // filters run specialized in the application's module.
  /// Makes the render feedback; `framesPerSample` > 1 renders one frame in
  /// that many while an animation plays (``takingFrames(at:)``).
  @usableFromInline let makeRender:
    @Sendable (_ wire: Int, _ framesPerSample: UInt) -> Feedback<Reel<Frame>, CycleEvent>
  /// The rate the driver takes an animation's frames at; `nil`: the router's.
  @usableFromInline var frameRate: FrameRate? = nil
  @usableFromInline let makeEvents: @Sendable (_ wire: Int) -> Feedback<Reel<Frame>, CycleEvent>
  /// The feedback that sends a throwing frame filter's errors, if it throws.
  @usableFromInline let makeFailureReport: (@Sendable (_ wire: Int) -> Feedback<Reel<Frame>, CycleEvent>)?
  /// The event filter, applied to the reel in place: the reducer calls it
  /// with no result to copy back.
  @usableFromInline let apply: @Sendable (any Sendable, inout Reel<Frame>) -> Void

  /// Wires `driver`, whose renders are skipped when its model is unchanged.
  ///
  /// - Parameters:
  ///   - name: the driver's name, unique in its router.
  ///   - driver: the driver.
  ///   - frameFilter: the application's frame -> the driver's model.
  ///   - eventFilter: the driver's event and the frames -> the next frame,
  ///     or a change to the animation playing.
  @inlinable
  public init<D: Driver>(
    _ name: String,
    driver: D,
    model frameFilter: @escaping @Sendable (Frame) -> D.Model,
    events eventFilter: @escaping @Sendable (D.Event, Frames<Frame>) -> FrameUpdate<Frame>
  ) where D.Model: Equatable {
    self.name = name
    DriverEvent.registerIfDecodable(D.Event.self)
    makeRender = { _, framesPerSample in
      Feedback.observer(
        name: "render \(name)",
        {
          let shown = ShownModel<D.Model>()
          return { reel in
            if shown.isBetweenSamples(reel, framesPerSample: framesPerSample) { return }
            let model = frameFilter(reel._frame)
            if let last = shown.model, last == model { return }
            shown.model = model
            driver.render(model)
          }
        })
    }
    makeFailureReport = nil
    makeEvents = { wire in
      .input(DriverEventSequence(base: driver.events, name: name, wire: wire), name: "events of \(name)")
    }
    apply = { event, reel in
      let update = eventFilter(Self.cast(event, to: D.Event.self, driver: name), Frames(reel: reel))
      reel.apply(update)
    }
  }

  /// Wires `driver` with filters that may throw: an error of either filter
  /// becomes an event of the driver, through `catch` (G12).
  ///
  /// Renders are skipped as in the other initializer: a model equal to the
  /// one the driver rendered last is not rendered again, whatever failed in
  /// between. A failure renders nothing, so the driver still shows the
  /// model it rendered last; when the filter makes that model again, there
  /// is nothing to render.
  ///
  /// A frame filter's error is mapped once, then sent to the router like
  /// any event of the driver, and the render is skipped until the filter
  /// makes a model again; a filter that keeps failing reports its error
  /// once, until it makes a model, and again when it next fails. An event
  /// filter's error is mapped at once, in the same reduction, and the mapped
  /// event goes through the event filter in its place; if that throws too,
  /// the frame is left unchanged.
  ///
  /// The frame filter runs twice per frame here: once in the render (an
  /// observer of each state, with the model rendered last), and once in the
  /// query feedback that reports its errors, since an observer cannot send.
  /// Keep it a pure function of the frame.
  ///
  /// ```swift
  /// Wire("network", driver: network,
  ///   model: { frame in try Network.Model(request: frame.request()) },
  ///   events: { event, frames in try App.reduce(event, frames) },
  ///   catch: { error in .failed("\(error)") })
  /// ```
  @inlinable
  public init<D: Driver>(
    _ name: String,
    driver: D,
    model frameFilter: @escaping @Sendable (Frame) throws -> D.Model,
    events eventFilter: @escaping @Sendable (D.Event, Frames<Frame>) throws -> FrameUpdate<Frame>,
    catch mapError: @escaping @Sendable (any Error) -> D.Event
  ) where D.Model: Equatable {
    self.name = name
    DriverEvent.registerIfDecodable(D.Event.self)
    makeRender = { _, framesPerSample in
      Feedback.observer(
        name: "render \(name)",
        {
          let shown = ShownModel<D.Model>()
          return { reel in
            if shown.isBetweenSamples(reel, framesPerSample: framesPerSample) { return }
            // A failure leaves `shown` as it is: the model the driver shows.
            guard let model = try? frameFilter(reel._frame) else { return }
            if let last = shown.model, last == model { return }
            shown.model = model
            driver.render(model)
          }
        })
    }
    makeFailureReport = { wire in
      Feedback.query(
        { reel -> FailedRender? in
          do {
            _ = try frameFilter(reel._frame)
            return nil
          } catch {
            return FailedRender(event: mapError(error))
          }
        },
        name: "frame filter errors of \(name)"
      ) { failure in
        .send(.driver(DriverEvent(driver: name, event: failure.event, wire: wire)))
      }
    }
    makeEvents = { wire in
      .input(DriverEventSequence(base: driver.events, name: name, wire: wire), name: "events of \(name)")
    }
    apply = { event, reel in
      let event = Self.cast(event, to: D.Event.self, driver: name)
      let update: FrameUpdate<Frame>
      do {
        update = try eventFilter(event, Frames(reel: reel))
      } catch {
        update = (try? eventFilter(mapError(error), Frames(reel: reel))) ?? .unchanged
      }
      reel.apply(update)
    }
  }

  /// Wires `driver` under `key`, whose event type is the driver's: the
  /// application then sends the driver's events through the key, checked
  /// at compile time (``DriverKey``). Renders are skipped when the model is
  /// unchanged, as for a driver wired by name.
  ///
  /// ```swift
  /// static let screen = DriverKey<Screen.Event>("screen")
  /// Wire(screen, driver: Screen(), model: { "\($0)" }, events: screenEvents)
  /// ```
  @inlinable
  public init<D: Driver>(
    _ key: DriverKey<D.Event>,
    driver: D,
    model frameFilter: @escaping @Sendable (Frame) -> D.Model,
    events eventFilter: @escaping @Sendable (D.Event, Frames<Frame>) -> FrameUpdate<Frame>
  ) where D.Model: Equatable {
    self.init(key.name, driver: driver, model: frameFilter, events: eventFilter)
  }

  /// Wires `driver` under `key` with filters that may throw: an error of
  /// either filter becomes an event of the driver, through `catch`, as for
  /// a driver wired by name.
  ///
  /// ```swift
  /// Wire(App.network, driver: network,
  ///   model: { frame in try Network.Model(request: frame.request()) },
  ///   events: { event, frames in try App.reduce(event, frames) },
  ///   catch: { error in .failed("\(error)") })
  /// ```
  @inlinable
  public init<D: Driver>(
    _ key: DriverKey<D.Event>,
    driver: D,
    model frameFilter: @escaping @Sendable (Frame) throws -> D.Model,
    events eventFilter: @escaping @Sendable (D.Event, Frames<Frame>) throws -> FrameUpdate<Frame>,
    catch mapError: @escaping @Sendable (any Error) -> D.Event
  ) where D.Model: Equatable {
    self.init(key.name, driver: driver, model: frameFilter, events: eventFilter, catch: mapError)
  }

  /// Wires `driver` under `key` with a frame filter that reads the frames
  /// shown before the current one as well (Cycle.swift's scan: a model made
  /// from the last few frames, such as a trail or a velocity). Renders are
  /// skipped when the model is unchanged.
  ///
  /// The frames are the reel's: the current one and the last `memory`
  /// (the router's) before it.
  ///
  /// ```swift
  /// Wire(App.pointer, driver: trail,
  ///   modelOfFrames: { frames in frames.previous.map(\.position) + [frames.current.position] },
  ///   events: App.pointerEvents)
  /// ```
  @inlinable
  public init<D: Driver>(
    _ key: DriverKey<D.Event>,
    driver: D,
    modelOfFrames frameFilter: @escaping @Sendable (Frames<Frame>) -> D.Model,
    events eventFilter: @escaping @Sendable (D.Event, Frames<Frame>) -> FrameUpdate<Frame>
  ) where D.Model: Equatable {
    let name = key.name
    self.name = name
    DriverEvent.registerIfDecodable(D.Event.self)
    makeRender = { _, framesPerSample in
      Feedback.observer(
        name: "render \(name)",
        {
          let shown = ShownModel<D.Model>()
          return { reel in
            if shown.isBetweenSamples(reel, framesPerSample: framesPerSample) { return }
            let model = frameFilter(Frames(reel: reel))
            if let last = shown.model, last == model { return }
            shown.model = model
            driver.render(model)
          }
        })
    }
    makeFailureReport = nil
    makeEvents = Self.events(of: driver, name: name)
    apply = Self.applying(eventFilter, driver: D.self, name: name)
  }

  /// Wires `driver` under `key` without the equality filter: the driver
  /// renders each frame the reel shows, even one equal to the last (a sound
  /// driver that plays two "ding"s in a row), and its model need not be
  /// `Equatable`. A reduction that shows no frame (an event filter's
  /// ``FrameUpdate/unchanged``, a driver's end) renders nothing; each tick
  /// of an animation, each ``FrameUpdate/frame(_:)`` and each jump does.
  ///
  /// ```swift
  /// Wire(App.speaker, driver: speaker,
  ///   modelOfEveryFrame: { frames in frames.current.sound },
  ///   events: App.speakerEvents)
  /// ```
  @inlinable
  public init<D: Driver>(
    _ key: DriverKey<D.Event>,
    driver: D,
    modelOfEveryFrame frameFilter: @escaping @Sendable (Frames<Frame>) -> D.Model,
    events eventFilter: @escaping @Sendable (D.Event, Frames<Frame>) -> FrameUpdate<Frame>
  ) {
    let name = key.name
    self.name = name
    DriverEvent.registerIfDecodable(D.Event.self)
    makeRender = { _, framesPerSample in
      Feedback.observer(
        name: "render \(name)",
        {
          let rendered = ShownModel<UInt>()
          return { reel in
            if rendered.isBetweenSamples(reel, framesPerSample: framesPerSample) { return }
            if let last = rendered.model, last == reel._frameNumber { return }
            rendered.model = reel._frameNumber
            driver.render(frameFilter(Frames(reel: reel)))
          }
        })
    }
    makeFailureReport = nil
    makeEvents = Self.events(of: driver, name: name)
    apply = Self.applying(eventFilter, driver: D.self, name: name)
  }

  /// The feedback that sends the driver's events to the router.
  @inlinable
  static func events<D: Driver>(of driver: D, name: String)
    -> @Sendable (_ wire: Int) -> Feedback<
      Reel<Frame>, CycleEvent
    >
  {
    { wire in
      .input(DriverEventSequence(base: driver.events, name: name, wire: wire), name: "events of \(name)")
    }
  }

  /// The event filter, applied to the reel in place.
  @inlinable
  static func applying<D: Driver>(
    _ eventFilter: @escaping @Sendable (D.Event, Frames<Frame>) -> FrameUpdate<Frame>, driver: D.Type, name: String
  ) -> @Sendable (any Sendable, inout Reel<Frame>) -> Void {
    { event, reel in
      let update = eventFilter(Self.cast(event, to: D.Event.self, driver: name), Frames(reel: reel))
      reel.apply(update)
    }
  }

  /// This wire with its driver taking an animation's frames at `rate`, a
  /// rate of its own, rather than at the router's: while an animation
  /// plays, the driver renders one frame in as many as the router's rate
  /// holds `rate` (rounded up, so never faster than `rate`), and always the
  /// frame the animation ends on. Outside an animation it renders every
  /// frame as before. A rate at or above the router's changes nothing.
  ///
  /// ```swift
  /// // The router animates at 60 fps; the LED panel takes 20 of them a second.
  /// Wire(App.panel, driver: panel, model: \.level, events: App.panelEvents)
  ///   .takingFrames(at: FrameRate(framesPerSecond: 20))
  /// ```
  public func takingFrames(at rate: FrameRate) -> Wire {
    var wire = self
    wire.frameRate = rate
    return wire
  }

  /// How many of the router's frames the driver takes one of while an
  /// animation plays.
  @inlinable
  func framesPerSample(routerRate: FrameRate) -> UInt {
    guard let frameRate, frameRate.framesPerSecond < routerRate.framesPerSecond else { return 1 }
    let (quotient, remainder) = routerRate.framesPerSecond.quotientAndRemainder(dividingBy: frameRate.framesPerSecond)
    return UInt(quotient + (remainder == 0 ? 0 : 1))
  }

  /// The driver's event out of the router's box. An event of exactly the
  /// driver's type (always, for the events its own sequence reports) is
  /// read in place, with no copy of the box and no dynamic cast; any other
  /// (a subclass, an existential event type) takes `as?`.
  @inlinable
  static func cast<Event>(_ event: any Sendable, to type: Event.Type, driver: String) -> Event {
    if Swift.type(of: event) == Event.self { return reinterpret(event, as: Event.self) }
    guard let event = event as? Event else {
      fatalError(
        "FeedbackLoopCycle: the driver \(driver) reports events of type \(Event.self); it was sent \(Swift.type(of: event))"
      )
    }
    return event
  }
}

/// `value`, whose dynamic type the caller checked is `Target`, as a
/// `Target`. Called with the existential opened: the value is borrowed
/// where the box holds it.
@usableFromInline
func reinterpret<Value, Target>(_ value: Value, as target: Target.Type) -> Target {
  precondition(Value.self == Target.self, "FeedbackLoopCycle: \(Value.self) read as \(Target.self)")
  // Safe: `Value` and `Target` are one type (checked above, and the check
  // traps in optimized builds too), so the memory holds a `Target`; the
  // pointer does not outlive the closure, which copies the value out.
  return withUnsafePointer(to: value) { $0.withMemoryRebound(to: Target.self, capacity: 1) { $0.pointee } }
}

/// The event a frame filter's error was mapped to, as the feedback that
/// reports it compares it: two failures are equal, so that a filter that
/// keeps failing reports its error once, not on every frame.
@usableFromInline
struct FailedRender: Equatable, Sendable {
  @usableFromInline let event: any Sendable
  @inlinable init(event: any Sendable) { self.event = event }
  @inlinable static func == (lhs: FailedRender, rhs: FailedRender) -> Bool { true }
}

/// The model a driver rendered last, in one system: what a skipped render
/// compares with. Only the loop's thread touches it, one call at a time, so
/// its access is not checked dynamically.
@usableFromInline
final class ShownModel<Model> {
  @exclusivity(unchecked) @usableFromInline var model: Model?
  /// The number of the frame the driver took last (``Reel/_frameNumber``).
  @exclusivity(unchecked) @usableFromInline var sampledFrame: UInt = 0

  @inlinable init() {}

  /// Whether the driver, taking one frame in `framesPerSample` while an
  /// animation plays, leaves this one out. The frame an animation ends on
  /// and every frame outside an animation are taken.
  @inlinable
  func isBetweenSamples<Frame>(_ reel: Reel<Frame>, framesPerSample: UInt) -> Bool {
    guard framesPerSample > 1 else { return false }
    if reel._storage.isPlaying, reel._frameNumber &- sampledFrame < framesPerSample { return true }
    sampledFrame = reel._frameNumber
    return false
  }
}
