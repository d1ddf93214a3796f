extension Store {
  /// Reads a member of the state through the store, so that only a change
  /// of that member notifies the reader.
  ///
  /// A view that shows `store.count` re-renders when `count` changes, not
  /// when another member of the state does. (A view that reads
  /// `store.state.count` depends on the whole ``state``.) Each member read
  /// this way costs one comparison per new state.
  ///
  /// ```swift
  /// Text("\(store.count)")        // re-renders when count changes
  /// ProgressView().opacity(store.isLoading ? 1 : 0)
  /// ```
  @inlinable
  public subscript<Value: Equatable>(dynamicMember keyPath: KeyPath<State, Value>) -> Value {
    if derive != nil { followFromNow() }
    let field = field(keyPath)
    field.isRead = true
    field.access()
    return slots.current.pointee[keyPath: keyPath]
  }

  /// Reads a member of the state that is not `Equatable` through the store:
  /// the store cannot tell when it changes, so the read depends on the whole
  /// ``state``.
  ///
  /// ```swift
  /// let error = store.lastError  // any Error?: re-renders with every new state
  /// ```
  public subscript<Value>(dynamicMember keyPath: KeyPath<State, Value>) -> Value {
    state[keyPath: keyPath]
  }

  @inlinable
  func field<Value: Equatable>(_ keyPath: KeyPath<State, Value>) -> ObservedField {
    // A key path literal of a non-generic type is one object, made once,
    // so a view's reads are found by identity, without hashing the key path
    // (a few fields at most: a view reads a handful of members).
    for field in fieldList.prefix(8) where field.keyPath === keyPath { return field }
    if let field = fields[keyPath] { return field }
    let field = ObservedField(keyPath)
    fields[keyPath] = field
    fieldList.append(field)
    compareOnEachState(keyPath, position: fieldList.count - 1)
    return field
  }
}
