import FeedbackLoop
import FeedbackLoopDeclarative
import FeedbackLoopTesting
import Testing

/// Which transition runs when several match: exact state and event first,
/// then `AnyEvent`, then `AnyState`, then both wildcards; the first declared
/// within a rank.
@Suite(.runsLeftoverJobs) struct MatchingRuleTests {
  struct Idle: StateProtocol, Equatable {}
  struct Busy: StateProtocol, Equatable { let by: String }
  struct Start: EventProtocol {}
  struct Stop: EventProtocol {}
  struct Ping: EventProtocol {}

  static func busy(_ by: String) -> any StateProtocol { Busy(by: by) }

  @Test func anExactTransitionBeatsAWildcardEventInTheSameState() {
    let transitions = Transitions {
      From(Idle.self) {
        On(AnyEvent.self, transitionTo: Busy(by: "any event"))
        On(Start.self, transitionTo: Busy(by: "start"))
      }
    }
    #expect(transitions.reduce(Idle(), Start()) as? Busy == Busy(by: "start"))
    #expect(transitions.reduce(Idle(), Ping()) as? Busy == Busy(by: "any event"))
  }

  @Test func anExactStateWithAnyEventBeatsAnyStateWithTheExactEvent() {
    let transitions = Transitions {
      From(AnyState.self) { _ in
        On(Start.self, transitionTo: Busy(by: "any state"))
      }
      From(Idle.self) {
        On(AnyEvent.self, transitionTo: Busy(by: "idle, any event"))
      }
    }
    #expect(transitions.reduce(Idle(), Start()) as? Busy == Busy(by: "idle, any event"))
    #expect(transitions.reduce(Busy(by: "x"), Start()) as? Busy == Busy(by: "any state"))
  }

  @Test func anyStateWithAnExactEventBeatsBothWildcards() {
    let transitions = Transitions {
      From(AnyState.self) {
        On(AnyEvent.self, transitionTo: Idle())
      }
      From(AnyState.self) { _ in
        On(Stop.self, transitionTo: Busy(by: "stop"))
      }
    }
    #expect(transitions.reduce(Idle(), Stop()) as? Busy == Busy(by: "stop"))
    #expect(transitions.reduce(Busy(by: "x"), Ping()) is Idle)
  }

  @Test func ofTwoBlocksForTheSameStateTheFirstListedWins() {
    let first = From(Idle.self) { On(Start.self, transitionTo: Busy(by: "first")) }
    let second = From(Idle.self) {
      On(Start.self, transitionTo: Busy(by: "second"))
      On(Stop.self, transitionTo: Busy(by: "second, stop"))
    }
    #expect(
      Transitions {
        first; second
      }.reduce(Idle(), Start()) as? Busy == Busy(by: "first"))
    #expect(
      Transitions {
        second; first
      }.reduce(Idle(), Start()) as? Busy == Busy(by: "second"))
    // The second block still handles what the first does not.
    #expect(
      Transitions {
        first; second
      }.reduce(Idle(), Stop()) as? Busy == Busy(by: "second, stop"))
  }

  @Test func nestedTransitionsTakeThePlaceWhereTheyAreListed() {
    let inner = Transitions { From(Idle.self) { On(Start.self, transitionTo: Busy(by: "inner")) } }
    let outer = Transitions {
      inner
      From(Idle.self) { On(Start.self, transitionTo: Busy(by: "outer")) }
    }
    #expect(outer.reduce(Idle(), Start()) as? Busy == Busy(by: "inner"))
  }

  @Test func theWildcardStateBlockReadsTheState() {
    let transitions = Transitions {
      From(AnyState.self) { state in
        On(Ping.self, transitionTo: Busy(by: "\(type(of: state()))"))
      }
    }
    #expect(transitions.reduce(Idle(), Ping()) as? Busy == Busy(by: "Idle"))
  }

  @Test func aStateWithoutATransitionForTheEventIsKept() {
    let transitions = Transitions { From(Idle.self) { On(Start.self, transitionTo: Busy(by: "start")) } }
    #expect(transitions.nextState(from: Busy(by: "x"), on: Start()) == nil)
    #expect(transitions.reduce(Busy(by: "x"), Start()) as? Busy == Busy(by: "x"))
  }

  // MARK: Enums

  enum Light: Equatable, Sendable {
    case off
    case on(brightness: Int)
    case broken(reason: String)

    var on: Int? { if case .on(let brightness) = self { brightness } else { nil } }
  }

  enum Switch: Equatable, Sendable {
    case toggle
    case dim(by: Int)
    case smash

    var dim: Int? { if case .dim(let amount) = self { amount } else { nil } }
  }

  static let lightTransitions = Transitions<Light, Switch> {
    From(Light.off) {
      On(Switch.toggle, transitionTo: Light.on(brightness: 100))
    }
    From(.case("on", \Light.on)) { brightness in
      On(Switch.toggle, transitionTo: Light.off)
      On(.case("dim", \Switch.dim), transitionTo: .case("on")) { amount in
        .on(brightness: max(0, brightness() - amount))
      }
    }
    From(AnyState.self) { light in
      On(Switch.smash, transitionTo: .case("broken")) { .broken(reason: "smashed while \(light())") }
    }
  }

  @Test func casesWithAndWithoutAssociatedValuesMatch() {
    let transitions = Self.lightTransitions
    #expect(transitions.reduce(.off, .toggle) == .on(brightness: 100))
    #expect(transitions.reduce(.on(brightness: 100), .dim(by: 30)) == .on(brightness: 70))
    #expect(transitions.reduce(.on(brightness: 20), .dim(by: 30)) == .on(brightness: 0))
    #expect(transitions.reduce(.on(brightness: 20), .toggle) == .off)
    #expect(transitions.reduce(.off, .smash) == .broken(reason: "smashed while off"))
    #expect(transitions.nextState(from: .off, on: .dim(by: 1)) == nil)
  }

  @Test func patternsNameTheirStatesAndExtractTheirValues() {
    let on = Pattern.case("on", \Light.on)
    #expect(on.name == "on")
    #expect(on.extract(from: .on(brightness: 3)) == 3)
    #expect(!on.matches(.off))
    #expect(Pattern<Light, Light>.value(.off).name == "off")
    #expect(Pattern<Light, Light>.case("broken").matches(.broken(reason: "x")))
    #expect(Pattern<Light, Light>.any.isWildcard)
    #expect(Pattern<any StateProtocol, Idle>.type(Idle.self).name == "Idle")
  }

  @Test func blocksDefinedApartCompose() {
    let switching = From<Light, Switch>(Light.off) { On(Switch.toggle, transitionTo: Light.on(brightness: 1)) }
    let smashing = Transitions<Light, Switch> {
      From(AnyState.self) { On(Switch.smash, transitionTo: Light.broken(reason: "smashed")) }
    }
    let composed = Transitions<Light, Switch> {
      switching
      smashing
    }
    #expect(composed.blocks.map(\.stateName) == ["off", "AnyState"])
    #expect(composed.reduce(.off, .toggle) == .on(brightness: 1))
    #expect(composed.reduce(.on(brightness: 1), .smash) == .broken(reason: "smashed"))
  }
}
