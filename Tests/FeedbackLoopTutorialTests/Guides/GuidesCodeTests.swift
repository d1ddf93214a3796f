import FeedbackLoopScenarios
import Testing

/// Each guide to a feedback kind shows code that a file of this folder
/// compiles, in a namespace named after the guide, and tests.
@Suite struct GuidesCodeTests {
  @Test(
    "every guide to a feedback kind shows the code its tests compile, block by block",
    arguments: [
      ("QueryFeedback", "QueryGuide"), ("PredicateFeedback", "PredicateGuide"),
      ("DerivingFeedback", "DerivingGuide"), ("RequestsFeedback", "RequestsGuide"),
      ("EventFeedback", "EventGuide"), ("InputFeedback", "InputGuide"),
      ("ChildSystemsFeedback", "ChildSystemsGuide"),
    ])
  func guideShowsCompiledCode(guide: String, namespace: String) throws {
    let article = try ArticleCode(article: "Sources/FeedbackLoop/Documentation.docc/\(guide).md")
    #expect(!article.blocks.isEmpty)
    let missing = try article.blocksMissing(
      fromAnyOf: ["Tests/FeedbackLoopTutorialTests/Guides/\(namespace).swift"], namespace: namespace)
    #expect(missing.isEmpty, "blocks of \(guide) that no test compiles:\n\(missing.joined(separator: "\n---\n"))")
  }
}
