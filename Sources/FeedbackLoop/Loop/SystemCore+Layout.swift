import CFeedbackLoopShims

// MARK: - The parts of the control's allocation

/// The inbox, the state and the feedbacks' watermarks live in `control`'s
/// allocation, after the control word, the lock and the reduction guard, at
/// offsets that depend only on the types. This file owns that layout; the
/// allocation is made in `init` and freed in `deinit` (SystemCore.swift),
/// and the state is destroyed early by `destroyState()` (SystemCore+Stopping.swift).
extension SystemCore {
  /// Where each part of `control`'s allocation starts:
  /// [control: word and lock, guard lines][inbox lines][state][watermarks],
  /// the control and the inbox each on cache lines of their own (see
  /// fl_loop_control); a state small enough goes in the guard's line.
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
    /// owner writes one line per reduction, not two (W10: each line a
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

    @inlinable static var watermarks: Int {
      roundedUp(stateInGuardLine ? afterInbox : state + MemoryLayout<State>.size, to: MemoryLayout<UInt64>.alignment)
    }

    @inlinable static func byteCount(feedbacks: Int) -> Int {
      watermarks + MemoryLayout<UInt64>.stride * max(feedbacks, 1)
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
    (UnsafeMutableRawPointer(control) + Layout.watermarks).assumingMemoryBound(to: UInt64.self)
  }

  /// The shared queue and its buffer policy (EventInbox.swift), guarded by
  /// `lock`: in the control's allocation, on cache lines of its own after
  /// the control's, so that the senders, which write it per event, do not
  /// take from the owner the lines it reads per event (this object's
  /// fields; W9).
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
