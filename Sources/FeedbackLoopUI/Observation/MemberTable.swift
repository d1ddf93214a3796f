/// One comparison made for each state: for the stored members of one type
/// (compared at their offsets, in a loop specialized for their type), or
/// for one computed member (read through its key path).
@usableFromInline
struct MemberGroup {
  /// The members' type, for stored members; `nil` for a computed member,
  /// which is a group of its own.
  @usableFromInline let type: ObjectIdentifier?
  @usableFromInline let compare: MemberComparison
  @usableFromInline var members: UnsafeMutablePointer<ComparedMember>
  @usableFromInline var count: Int
  @usableFromInline var capacity: Int
}

/// The members a store follows, and the ones the state being taken changed.
///
/// Everything the per-state comparison touches is in memory this table
/// allocates itself, not in arrays: a loop over an array held by a class
/// retains the array and each closure it calls (BENCHMARKS.md,
/// the many-members store benchmark), which cost more than the comparisons themselves. The changed
/// members are bits, one per position in the store's `fieldList`, so that
/// they are visited in the order the members were first read with no sort
/// and no allocation per state.
///
/// Only the store's main actor touches it (the store holds it in a `let`
/// and never shares it). Exclusivity of the properties marked
/// `@exclusivity(unchecked)`: one thread only, and every access is
/// instantaneous (a comparison touches the members and the bits through
/// pointers, never these properties), so no two accesses overlap; the
/// dynamic checks were 10% of the many-members store benchmark.
@usableFromInline
final class MemberTable {
  // The pointers are safe: this table allocates `groups` (`groupCapacity`
  // slots, the first `groupCount` initialized), `changed`
  // (`wordCapacity` words, the first `wordCount` initialized) and each
  // group's `members` (`capacity`, the first `count` initialized), frees
  // them only when it grows them (after moving their contents) and in
  // `deinit`, and lends them only for the length of a comparison. Every
  // index is under its count: a comparison visits `count` members, and a
  // member's bit is reserved (`reserveBit(for:)`) before its group is added.
  @usableFromInline @exclusivity(unchecked) var groups: UnsafeMutablePointer<MemberGroup>
  @usableFromInline @exclusivity(unchecked) var groupCount = 0
  private var groupCapacity = 4
  /// The changed members: bit `position % 64` of word `position / 64`.
  @usableFromInline @exclusivity(unchecked) var changed: UnsafeMutablePointer<UInt64>
  @usableFromInline @exclusivity(unchecked) var wordCount = 0
  private var wordCapacity = 1

  @usableFromInline
  init() {
    groups = .allocate(capacity: groupCapacity)
    changed = .allocate(capacity: wordCapacity)
  }

  deinit {
    for index in 0..<groupCount { groups[index].members.deallocate() }
    groups.deinitialize(count: groupCount)
    groups.deallocate()
    changed.deallocate()
  }

  /// Compares the states at two addresses, member by member, and marks the
  /// members that differ.
  @inlinable
  func markChanges(from old: UnsafeRawPointer, to new: UnsafeRawPointer) {
    let changed = changed
    for index in 0..<groupCount {
      let group = groups + index
      group.pointee.compare(
        old, new, UnsafeBufferPointer(start: group.pointee.members, count: group.pointee.count), changed)
    }
  }

  /// Makes room for the bit of the member at `position`. The bits already
  /// set are kept: a member can be first read while the store notifies the
  /// readers of a state (from another member's change callback).
  @usableFromInline
  func reserveBit(for position: Int) {
    let words = position / 64 + 1
    guard words > wordCount else { return }
    if words > wordCapacity {
      let grown = UnsafeMutablePointer<UInt64>.allocate(capacity: words * 2)
      grown.update(from: changed, count: wordCount)
      changed.deallocate()
      changed = grown
      wordCapacity = words * 2
    }
    (changed + wordCount).initialize(repeating: 0, count: words - wordCount)
    wordCount = words
  }

  /// Adds `member` to the group of stored members of `type`; `false` if
  /// there is no such group yet.
  @usableFromInline
  func append(_ member: ComparedMember, toGroupOf type: ObjectIdentifier) -> Bool {
    for index in 0..<groupCount where groups[index].type == type {
      let group = groups + index
      if group.pointee.count == group.pointee.capacity {
        let grown = UnsafeMutablePointer<ComparedMember>.allocate(capacity: group.pointee.capacity * 2)
        grown.initialize(from: group.pointee.members, count: group.pointee.count)
        group.pointee.members.deallocate()
        group.pointee.members = grown
        group.pointee.capacity *= 2
      }
      (group.pointee.members + group.pointee.count).initialize(to: member)
      group.pointee.count += 1
      return true
    }
    return false
  }

  /// Adds a group of one member, compared by `compare`.
  @usableFromInline
  func addGroup(type: ObjectIdentifier?, member: ComparedMember, compare: @escaping MemberComparison) {
    if groupCount == groupCapacity {
      let grown = UnsafeMutablePointer<MemberGroup>.allocate(capacity: groupCapacity * 2)
      grown.moveInitialize(from: groups, count: groupCount)
      groups.deallocate()
      groups = grown
      groupCapacity *= 2
    }
    let members = UnsafeMutablePointer<ComparedMember>.allocate(capacity: 4)
    members.initialize(to: member)
    (groups + groupCount).initialize(
      to: MemberGroup(type: type, compare: compare, members: members, count: 1, capacity: 4))
    groupCount += 1
  }
}
