/// A member of the state that a store compares on each new state: where it
/// is (its offset in the state, for a stored member) and which field it is
/// (its position in the store's `fieldList`).
@usableFromInline
struct ComparedMember {
  @usableFromInline let offset: Int
  @usableFromInline let position: Int

  @inlinable
  init(offset: Int, position: Int) {
    self.offset = offset
    self.position = position
  }
}

/// Compares the members of one group between the states at two addresses,
/// and marks those that differ in the bit set (bit `position`).
///
/// A comparison of stored members captures nothing: the members come as an
/// argument, so calling it retains no context.
@usableFromInline
typealias MemberComparison = (
  _ old: UnsafeRawPointer, _ new: UnsafeRawPointer, _ members: UnsafeBufferPointer<ComparedMember>,
  _ changed: UnsafeMutablePointer<UInt64>
) -> Void

extension UnsafeMutablePointer<UInt64> {
  /// Marks the member at `position` as changed.
  @inlinable
  func markChanged(_ position: Int) {
    // In bounds: the store reserves the bit of `position`
    // (`MemberTable.reserveBit(for:)`) before it adds the member's comparison.
    self[position &>> 6] |= 1 &<< UInt64(position & 63)
  }
}

extension Store {
  /// Adds the member at `keyPath`, at `position` in `fieldList`, to the
  /// comparisons made for each state.
  @inlinable
  func compareOnEachState<Value: Equatable>(_ keyPath: KeyPath<State, Value>, position: Int) {
    members.reserveBit(for: position)
    guard let offset = MemoryLayout<State>.offset(of: keyPath) else {
      // A computed member: read through its key path.
      members.addGroup(type: nil, member: ComparedMember(offset: 0, position: position)) {
        old, new, members, changed in
        let oldValue = old.assumingMemoryBound(to: State.self).pointee[keyPath: keyPath]
        let newValue = new.assumingMemoryBound(to: State.self).pointee[keyPath: keyPath]
        if oldValue != newValue { changed.markChanged(members[0].position) }
      }
      return
    }
    let member = ComparedMember(offset: offset, position: position)
    if members.append(member, toGroupOf: ObjectIdentifier(Value.self)) { return }
    // Compared in place, at their offsets, as `MemoryLayout.offset(of:)`
    // documents, rather than projected through their key paths.
    members.addGroup(type: ObjectIdentifier(Value.self), member: member) { old, new, members, changed in
      for member in members {
        let oldMember = (old + member.offset).assumingMemoryBound(to: Value.self)
        let newMember = (new + member.offset).assumingMemoryBound(to: Value.self)
        if oldMember.pointee != newMember.pointee { changed.markChanged(member.position) }
      }
    }
  }
}
