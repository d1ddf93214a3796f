// The Feedbacks-style DSL is built here (see the declarative issue).
import FeedbackLoop
