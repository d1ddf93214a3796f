/// The Feedbacks README's speaker volume regulator: two feedbacks step the volume,
/// one step per state, towards a target that lives outside the system.
///
/// The Feedbacks README opens with it. The target is a dependency, not part
/// of the state: "something variable that can be set and stored
/// independently from the System", read only by the side effects. Each new
/// state runs both feedbacks; one increases the volume while it is below the
/// target, the other decreases it while it is above, so the loop settles on
/// the target and stays there. A person who turns the volume up or down
/// sends the same events, and the loop brings it back.
///
/// ```swift
/// let volume = System(
///   initial: Volume.State(value: 10),
///   reduceReturning: Volume.reduce,
///   feedbacks: Volume.feedbacks(target: 15)
/// )
/// volume.state  // Volume.State(value: 15): the loop has run to rest
/// ```
public enum Volume {}
