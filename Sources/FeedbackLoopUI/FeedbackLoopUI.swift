// The Observation store and the Combine and SwiftUI bridges are built here (see the UI issue).
import FeedbackLoop
