import FeedbackLoop
import FeedbackLoopUI

#if canImport(SwiftUI)
  import SwiftUI
#endif

#if canImport(SwiftUI)
  /// The same screen in SwiftUI, on Apple platforms.
  struct LookupView: View {
    @State var store = Screen.makeStore(service: Lookup.Service { word in "\(word): a word." })

    var body: some View {
      VStack {
        TextField("Word", text: store.binding(\.lookup.word) { .lookup(.wordChanged($0)) })
        Text(store.lookup.definition ?? "…")
        List(store.history.words, id: \.self) { word in
          Button(word) { store.send(.history(.selected(word))) }
        }
      }
    }
  }
#endif
