//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import ArgumentParser
import Pace
import PaceStageText

/// `pace`: paces lines and commands with the operators of the Pace library.
@main
struct PaceCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "pace",
    abstract: "Limits and orders work that happens too often: debounce, throttle, distinct, filter, skip, take.",
    usage: """
      pace [--stats] STAGE...
      pace [--on-busy queue|drop|restart|signal] STAGE... -- COMMAND [ARG...]
      pace --replay [--stats] STAGE...
      pace marble DIAGRAM STAGE...
      pace demo
      """,
    discussion: """
      Stages are plain words, a new stage starting at each operator name.
      Durations need a unit: us, ms, s, m, h (250ms, 1.5s, 2m).

      \(PacingOperator.allCases.map { "  " + $0.synopsis }.joined(separator: "\n"))

      Pace the lines of standard input; each line comes out the moment it is
      due. At the end of the input a debounce flushes at once and a throttle
      keeps its rate; then pace exits 0.

        $ tail -f app.log | pace filter ERROR distinct throttle 10s

      Run a command for each line that comes out, with the line on its
      standard input and in PACE_LINE; --on-busy says what a line does while
      the command still runs: queue (run once more after, with the latest
      line; the default), drop, restart (stop it and its process group with
      --stop-signal, default TERM, then KILL after --stop-timeout, default
      10s) or signal (send it --stop-signal). A file watcher:

        $ inotifywait -mr -e close_write src | pace debounce 200ms -- make
        $ inotifywait -mr -e close_write src | \\
            pace debounce 200ms --on-busy restart -- ./serve

      Replay a log on its own clock: each line starts with a timestamp (RFC
      3339, or seconds since the epoch), and each line that comes out carries
      the time it was emitted. --stats counts lines per stage on standard error.

        $ pace --replay --stats throttle 10m < alerts.log

      Try an operator on a marble diagram, where each character is one frame:
      '-' is a frame with no event, a letter is a value, '[ab]' are events in
      the same frame, '|' finishes and '^' fails.

        $ pace marble 'abcd----e---f-g----|' debounce 3
        ------d----e-----g-|

      See search as you type at work, debounced and latest-wins:

        $ pace demo

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
