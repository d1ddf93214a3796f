import FeedbackLoop

/// One driver wired into a router: its name, its frame filter (frame ->
/// model) and its event filter (event + previous frames -> next frame).
///
/// The frame filter runs on every frame; when the model it makes equals the
/// one the driver rendered last, the render is skipped (Cycle.swift's second
/// frame filter): that costs one comparison of models, no allocation. The
/// event filter runs in the router's reducer, with the frames it may read
/// (``Frames``).
///
/// ```swift
/// Wire("screen", driver: screen,
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
  @usableFromInline let makeRender: @Sendable (_ wire: Int) -> Feedback<Reel<Frame>, CycleEvent>
  @usableFromInline let makeEvents: @Sendable (_ wire: Int) -> Feedback<Reel<Frame>, CycleEvent>
  @usableFromInline let filter: @Sendable (any Sendable, Frames<Frame>) -> FrameUpdate<Frame>

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
    makeRender = { _ in
      Feedback(lensing: { reel in frameFilter(reel.frame) }, name: "render \(name)") { model in
        driver.render(model)
        return .none
      }
    }
    makeEvents = { wire in
      .input(DriverEventSequence(base: driver.events, name: name, wire: wire), name: "events of \(name)")
    }
    filter = { event, frames in eventFilter(Self.cast(event, to: D.Event.self, driver: name), frames) }
  }

  /// Wires `driver` with filters that may throw: an error of either filter
  /// becomes an event of the driver, through `catch` (G12).
  ///
  /// A frame filter's error is mapped once, then sent to the router like
  /// any event of the driver, and the render is skipped until the filter
  /// makes a model again. An event filter's error is mapped at once, in
  /// the same reduction, and the mapped event goes through the event filter
  /// in its place; if that throws too, the frame is left unchanged.
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
    makeRender = { wire in
      Feedback(
        lensing: { reel -> RenderQuery<D.Model> in
          do {
            return .model(try frameFilter(reel.frame))
          } catch {
            return .failed(FailedRender(event: mapError(error)))
          }
        },
        name: "render \(name)"
      ) { query in
        switch query {
        case .model(let model):
          driver.render(model)
          return .none
        case .failed(let failure):
          return .send(.driver(DriverEvent(driver: name, event: failure.event, wire: wire)))
        }
      }
    }
    makeEvents = { wire in
      .input(DriverEventSequence(base: driver.events, name: name, wire: wire), name: "events of \(name)")
    }
    filter = { event, frames in
      let event = Self.cast(event, to: D.Event.self, driver: name)
      do {
        return try eventFilter(event, frames)
      } catch {
        return (try? eventFilter(mapError(error), frames)) ?? .unchanged
      }
    }
  }

  @inlinable
  static func cast<Event>(_ event: any Sendable, to type: Event.Type, driver: String) -> Event {
    guard let event = event as? Event else {
      preconditionFailure(
        "FeedbackLoopCycle: the driver \(driver) reports events of type \(Event.self); it was sent \(Swift.type(of: event))"
      )
    }
    return event
  }
}

/// A frame filter's result, as the render feedback compares it: a model, or
/// a failure. Two failures are equal, so that a filter that keeps failing
/// reports its error once, not on every frame.
@usableFromInline
enum RenderQuery<Model: Equatable & Sendable>: Equatable, Sendable {
  case model(Model)
  case failed(FailedRender)
}

/// The event a frame filter's error was mapped to.
@usableFromInline
struct FailedRender: Equatable, Sendable {
  @usableFromInline let event: any Sendable
  @inlinable init(event: any Sendable) { self.event = event }
  @inlinable static func == (lhs: FailedRender, rhs: FailedRender) -> Bool { true }
}
