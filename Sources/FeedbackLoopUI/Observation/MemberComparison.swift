/// The stored members of one type that a store follows, by offset in the
/// state: the store compares them all with one call per state, in a loop
/// specialized for their type, rather than with one call per member.
@usableFromInline
final class StoredMembers {
  /// Each member's offset in the state and its position in the store's
  /// list of fields.
  @usableFromInline var entries: [(offset: Int, position: Int)] = []

  @usableFromInline
  init() {}
}

/// Appends to `changed` the positions of the members that differ between
/// the states at two addresses: one comparison closure per type of stored
/// member, and one per computed member.
@usableFromInline
typealias MemberComparison<State> = (UnsafePointer<State>, UnsafePointer<State>, inout [Int]) -> Void

extension Store {
  /// Adds the member at `keyPath`, at `position` in `fieldList`, to the
  /// comparisons made for each state.
  @inlinable
  func compareOnEachState<Value: Equatable>(_ keyPath: KeyPath<State, Value>, position: Int) {
    guard let offset = MemoryLayout<State>.offset(of: keyPath) else {
      // A computed member: read through its key path.
      comparisons.append { old, new, changed in
        if old.pointee[keyPath: keyPath] != new.pointee[keyPath: keyPath] { changed.append(position) }
      }
      return
    }
    let type = ObjectIdentifier(Value.self)
    if let members = storedMembers[type] {
      members.entries.append((offset, position))
      return
    }
    let members = StoredMembers()
    members.entries.append((offset, position))
    storedMembers[type] = members
    // Compared in place, at their offsets, as `MemoryLayout.offset(of:)`
    // documents, rather than projected through their key paths.
    comparisons.append { old, new, changed in
      let oldBase = UnsafeRawPointer(old)
      let newBase = UnsafeRawPointer(new)
      members.entries.withUnsafeBufferPointer { entries in
        for (offset, position) in entries {
          let oldMember = oldBase.advanced(by: offset).assumingMemoryBound(to: Value.self)
          let newMember = newBase.advanced(by: offset).assumingMemoryBound(to: Value.self)
          if oldMember.pointee != newMember.pointee { changed.append(position) }
        }
      }
    }
  }
}
