extension DurableDownloads {
  /// The only place the downloads change. An answer for a chunk the file is
  /// no longer at (a stale or repeated one) changes nothing.
  public static func reduce(_ state: inout State, _ event: Event) {
    switch event {
    case .added(let name, let chunks):
      guard !state.files.contains(where: { $0.name == name }) else { return }
      state.files.append(File(name: name, chunks: chunks))
    case .received(let name, let chunk):
      guard let index = state.files.firstIndex(where: { $0.name == name }),
        state.files[index].isDownloading, state.files[index].received == chunk
      else { return }
      state.files[index].received += 1
      state.files[index].attempt = 1
    case .failed(let name, let chunk, let retryAt):
      guard let index = state.files.firstIndex(where: { $0.name == name }),
        state.files[index].isDownloading, state.files[index].received == chunk
      else { return }
      state.files[index].failures += 1
      state.files[index].attempt += 1
      state.files[index].retryAt = retryAt
    case .retryDue(let now):
      for index in state.files.indices where state.files[index].retryAt.map({ $0 <= now }) == true {
        state.files[index].retryAt = nil
      }
    }
  }
}
