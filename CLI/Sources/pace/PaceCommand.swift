//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import ArgumentParser
import Pace

/// `pace`: paces lines and commands with the operators of the Pace library.
@main
struct PaceCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "pace",
    abstract: "Limits and orders work that happens too often: debounce, throttle, distinct, filter, skip, take.",
    discussion: """
      Stages are plain words, a new stage starting at each operator name:

      \(PacingOperator.allCases.map { "  " + $0.synopsis }.joined(separator: "\n"))

      Try an operator on a marble diagram, where each character is one frame:
      '-' is a frame with no event, a letter is a value, '[ab]' are events in
      the same frame, '|' finishes and '^' fails.

        $ pace marble 'abcd----e---f-g----|' debounce 3
        ------d----e-----g-|

      Usage errors print one line on standard error and exit with status 2.
      """,
    subcommands: [MarbleCommand.self, DemoCommand.self]
  )

  /// The first words that `swift-argument-parser` reads: subcommands and
  /// requests for help. Any other first word starts the stream mode.
  static let parserWords: Set<String> = [
    "marble", "demo", "help", "-h", "--help", "--version", "--generate-completion-script",
    "--experimental-dump-help",
  ]

  /// Parses, runs, and turns every usage error into one line and exit status 2.
  static func main() async {
    let arguments = Array(CommandLine.arguments.dropFirst())
    if let first = arguments.first, !parserWords.contains(first) {
      await StreamCommand.run(arguments)
    }
    // A diagram may start with anything, dashes too ('---a-b|'): the words
    // after `marble` are the diagram and the stages, read by the marble
    // command itself, unless they ask for help.
    if arguments.first == "marble", arguments.count > 1, !["-h", "--help", "help"].contains(arguments[1]) {
      do {
        let words = Array(arguments.dropFirst())
        print(try MarbleCommand.output(for: words.first == "--" ? Array(words.dropFirst()) : words))
        terminateProcess(status: 0)
      } catch {
        failWithUsage(error.message)
      }
    }
    do {
      var command = try parseAsRoot()
      if var command = command as? any AsyncParsableCommand {
        try await command.run()
      } else {
        try command.run()
      }
    } catch let error as UsageError {
      failWithUsage(error.message)
    } catch {
      let code = exitCode(for: error)
      if code == .success {
        // Help and version requests are not errors.
        print(fullMessage(for: error))
        terminateProcess(status: 0)
      }
      if code == .validationFailure {
        let message = message(for: error).split(separator: "\n").first.map(String.init) ?? "invalid command line"
        failWithUsage("\(message) (see 'pace --help')")
      }
      failWithUsage(message(for: error))
    }
  }

  /// Prints `message` as one line on standard error and exits with status 2.
  static func failWithUsage(_ message: String) -> Never {
    let line = message.split(whereSeparator: \.isNewline).joined(separator: " ")
    FileDescriptorOutput.standardError.write("pace: error: \(line)\n")
    terminateProcess(status: 2)
  }
}
