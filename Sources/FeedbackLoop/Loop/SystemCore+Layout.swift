import CFeedbackLoopShims

// MARK: - The parts of the control's allocation

/// The inbox, the state, the feedbacks' watermarks and their runtimes live
/// in `control`'s allocation, after the control word, the lock and the
/// reduction guard, at offsets that depend only on the types and the number
/// of feedbacks. This file owns that layout; the
/// allocation is made in `init` and freed in `deinit` (SystemCore.swift),
/// and the state is destroyed early by `destroyState()` (SystemCore+Stopping.swift).
extension SystemCore {
  /// Where each part of `control`'s allocation starts:
  /// [control: word and lock, guard lines][inbox lines][state][watermarks][runtimes],
  /// the control and the inbox each on cache lines of their own (see
  /// fl_loop_control); a state small enough goes in the guard's line, and
  /// so do the watermarks if they fit after it; the runtimes go in the
  /// word's line if they fit after the lock (the idle-systems benchmark: each part that needs no
  /// line of its own is an allocation, or a line, fewer).
  @usableFromInline enum Layout {
    @inlinable static var line: Int { Int(FL_CACHE_LINE) }

    @inlinable static func roundedUp(_ size: Int, to alignment: Int) -> Int {
      (size + alignment - 1) / alignment * alignment
    }

    @inlinable static var inbox: Int { roundedUp(MemoryLayout<fl_loop_control>.stride, to: line) }

    /// Where the guard's line has room left, after the guard's counters.
    @inlinable static var guardSpare: Int { MemoryLayout<fl_loop_control>.offset(of: \.guardLine)! }

    /// Whether the state fits in the guard's line. Then a reader on another
    /// thread finds the guard's sequence and the state on one line, and the
    /// owner writes one line per reduction, not two (the sender-with-a-reader benchmark: each line a
    /// reader loads costs the owner a miss at its next write).
    @inlinable static var stateInGuardLine: Bool {
      MemoryLayout<State>.size <= MemoryLayout<fl_loop_control>.stride - guardSpare
        && guardSpare % MemoryLayout<State>.alignment == 0
    }

    @inlinable static var afterInbox: Int {
      inbox + roundedUp(MemoryLayout<EventInbox<State, Event>>.stride, to: line)
    }

    @inlinable static var state: Int {
      stateInGuardLine ? guardSpare : roundedUp(afterInbox, to: MemoryLayout<State>.alignment)
    }

    /// Where the guard's line has room left after the state, if the state
    /// is there (the state's end otherwise).
    @inlinable static var afterStateInGuardLine: Int {
      roundedUp(guardSpare + (stateInGuardLine ? MemoryLayout<State>.size : 0), to: MemoryLayout<UInt64>.alignment)
    }

    /// Whether the watermarks of `feedbacks` feedbacks fit in the guard's
    /// line, after the state: the owner writes them (rarely: at a
    /// cancellation) and reads them (per effect event), as it does the
    /// guard; a line of their own cost every idle system 16 bytes (the idle-systems benchmark).
    @inlinable static func watermarksInGuardLine(feedbacks: Int) -> Bool {
      afterStateInGuardLine + MemoryLayout<UInt64>.stride * max(feedbacks, 1)
        <= MemoryLayout<fl_loop_control>.stride
    }

    /// Where the parts that follow the inbox start.
    @inlinable static var tail: Int {
      roundedUp(stateInGuardLine ? afterInbox : state + MemoryLayout<State>.size, to: MemoryLayout<UInt64>.alignment)
    }

    @inlinable static func watermarks(feedbacks: Int) -> Int {
      watermarksInGuardLine(feedbacks: feedbacks) ? afterStateInGuardLine : tail
    }

    /// Where the parts after the watermarks start.
    @inlinable static func afterWatermarks(feedbacks: Int) -> Int {
      watermarksInGuardLine(feedbacks: feedbacks) ? tail : tail + MemoryLayout<UInt64>.stride * max(feedbacks, 1)
    }

    /// Where the word's line has room left, after the word and the lock,
    /// and where that room ends.
    @inlinable static var wordSpare: Int {
      roundedUp(MemoryLayout<fl_loop_control>.offset(of: \.wordLine)!, to: MemoryLayout<UInt64>.alignment)
    }

    @inlinable static var wordLineEnd: Int { MemoryLayout<fl_loop_control>.offset(of: \.reducing)! }

    /// Whether the runtimes of `feedbacks` feedbacks fit in the word's
    /// line, after the lock. They are written when the system is made and
    /// at its teardown only, and read by the owner when an effect ends or a
    /// feedback gets a control value: not per event.
    @inlinable static func runtimesInWordLine(feedbacks: Int) -> Bool {
      wordSpare + MemoryLayout<FeedbackRuntime<State, Event>>.stride * feedbacks <= wordLineEnd
    }

    /// The feedbacks' runtimes, one reference each, in the word's line or
    /// after the watermarks: an array of them was an allocation of its own
    /// (the idle-systems benchmark).
    @inlinable static func runtimes(feedbacks: Int) -> Int {
      runtimesInWordLine(feedbacks: feedbacks) ? wordSpare : afterWatermarks(feedbacks: feedbacks)
    }

    @inlinable static func byteCount(feedbacks: Int) -> Int {
      afterWatermarks(feedbacks: feedbacks)
        + (runtimesInWordLine(feedbacks: feedbacks)
          ? 0 : MemoryLayout<FeedbackRuntime<State, Event>>.stride * feedbacks)
    }

    @inlinable static var alignment: Int {
      max(
        line, MemoryLayout<fl_loop_control>.alignment, MemoryLayout<EventInbox<State, Event>>.alignment,
        MemoryLayout<State>.alignment, MemoryLayout<UInt64>.alignment)
    }
  }

  /// Per feedback: its effects numbered up to this one are cancelled, and
  /// their events dropped (G4). `UInt64.max`: ask the runtime (keyed
  /// feedbacks cancel effects one by one). Plain memory, so that checking an
  /// event costs one comparison and no reference counting.
  @inlinable
  var watermarks: UnsafeMutablePointer<UInt64> {
    (UnsafeMutableRawPointer(control) + Layout.watermarks(feedbacks: feedbackCount)).assumingMemoryBound(
      to: UInt64.self)
  }

  /// The feedbacks' runtimes, in the order of the feedbacks, in `control`'s
  /// allocation; empty once they are released (at the teardown). Owned by
  /// the loop's thread.
  @inlinable
  var runtimes: UnsafeMutableBufferPointer<FeedbackRuntime<State, Event>> {
    UnsafeMutableBufferPointer(
      start: (UnsafeMutableRawPointer(control) + Layout.runtimes(feedbacks: feedbackCount)).assumingMemoryBound(
        to: FeedbackRuntime<State, Event>.self),
      count: runtimesReleased ? 0 : feedbackCount)
  }

  /// Releases the runtimes (the teardown, or `deinit` if there was none).
  @inlinable
  func releaseRuntimes() {
    guard !runtimesReleased else { return }
    _ = runtimes.deinitialize()
    runtimesReleased = true
  }

  /// The shared queue and its buffer policy (EventInbox.swift), guarded by
  /// `lock`: in the control's allocation, on cache lines of its own after
  /// the control's, so that the senders, which write it per event, do not
  /// take from the owner the lines it reads per event (this object's
  /// fields; the many-senders benchmark).
  @inlinable
  var inboxStorage: UnsafeMutablePointer<EventInbox<State, Event>> {
    (UnsafeMutableRawPointer(control) + Layout.inbox).assumingMemoryBound(to: EventInbox<State, Event>.self)
  }

  @inlinable
  var inbox: EventInbox<State, Event> {
    unsafeAddress { UnsafePointer(inboxStorage) }
    unsafeMutableAddress { inboxStorage }
  }

  /// The state, out of line (in `control`'s allocation): the loop's
  /// thread destroys it when the ``System`` is released, while an ``Input``
  /// may still hold this core (see ``systemReleased()``).
  @inlinable
  var stateStorage: UnsafeMutablePointer<State> {
    (UnsafeMutableRawPointer(control) + Layout.state).assumingMemoryBound(to: State.self)
  }

  /// The state, mutated in place through its storage.
  @inlinable
  var state: State {
    unsafeAddress { UnsafePointer(stateStorage) }
    unsafeMutableAddress { stateStorage }
  }
}
