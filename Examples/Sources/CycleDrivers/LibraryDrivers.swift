// The drivers every Cycle app needs (the clock, the Observation screen, a
// driver over any AsyncSequence) ship in the library's
// FeedbackLoopCycleDrivers product; the examples' terminal screen joins
// them here, so that `import CycleDrivers` brings all of them.
@_exported import FeedbackLoopCycleDrivers
