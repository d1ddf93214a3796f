extension Router {
  /// The frames the application shows for `events`, reduced in order from
  /// `reel` (the router's initial reel when `nil`): the first frame, then
  /// each frame shown, each time it is shown. Cycle.swift's test, events in
  /// and frames out, with no system, no driver running and no clock: a tick
  /// of an animation is an event like any.
  ///
  /// ```swift
  /// let frames = router.frames(after: [.driver(App.keys, .animateTo(2)), .tick, .tick])
  /// #expect(frames == [0, 1, 2])
  /// ```
  public func frames(after events: [CycleEvent], from reel: Reel<Frame>? = nil) -> [Frame] {
    let reduce = self.reduce
    var reel = reel ?? initial
    var frames = [reel.frame]
    for event in events {
      let shown = reel._frameNumber
      reduce(&reel, event)
      if reel._frameNumber != shown { frames.append(reel.frame) }
    }
    return frames
  }
}
