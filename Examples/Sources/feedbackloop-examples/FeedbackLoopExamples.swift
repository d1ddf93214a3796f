import ArgumentParser
import ExampleRunner

/// The executable's entry point: the command lives in ExampleRunner, where
/// tests reach it.
@main
extension ExamplesCommand {}
