//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import ArgumentParser

extension PaceCommand {
  /// Parses and runs, with `pace`'s exit policy: every usage error prints one
  /// line, `pace: error: …`, on standard error and exits with status 2;
  /// help exits 0; a command that throws an `ExitCode` exits with it; any
  /// other failure while running prints one line and exits 1.
  static func main() async {
    var command: any ParsableCommand
    do {
      command = try parseCommandLine(Array(CommandLine.arguments.dropFirst()))
    } catch {
      // Anything the parser or `validate()` throws is about the command line.
      exit(for: error, isUsage: true)
    }
    do {
      if var command = command as? any AsyncParsableCommand {
        try await command.run()
      } else {
        try command.run()
      }
      terminateProcess(status: 0)
    } catch let error as UsageError {
      failWithUsage(error.message)
    } catch {
      exit(for: error, isUsage: false)
    }
  }

  /// Exits as `error` asks: an `ExitCode` with its status, help with 0, a
  /// usage error (the parser's, or any error while parsing) with one line
  /// and 2, and any other failure while running with one line and 1.
  static func exit(for error: any Error, isUsage: Bool) -> Never {
    if let code = error as? ExitCode { terminateProcess(status: code.rawValue) }
    switch exitCode(for: error) {
    case .success:
      // Help, and the completion scripts, are not errors.
      print(fullMessage(for: error))
      terminateProcess(status: 0)
    case .validationFailure:
      failWithUsage(message(for: error))
    default:
      guard !isUsage else { failWithUsage(message(for: error)) }
      let line = message(for: error).split(whereSeparator: \.isNewline).first.map(String.init) ?? "failed"
      FileDescriptorOutput.standardError.write("pace: error: \(line)\n")
      terminateProcess(status: 1)
    }
  }

  /// The command that `arguments` (the words after `pace`) ask for.
  ///
  /// swift-argument-parser rejects a word that starts with three dashes, but
  /// a diagram may start with any number of them (`'---a-b|'`): the word
  /// after `marble` is the diagram, unless it asks for help, and so it goes
  /// after a `--` (which the marble command reads as a terminator, not as
  /// the diagram). A `--by REGEX` before the diagram stays an option.
  static func parseCommandLine(_ arguments: [String]) throws -> any ParsableCommand {
    var arguments = arguments
    if arguments.first == MarbleCommand.configuration.commandName {
      var diagram = 1
      while diagram < arguments.count, arguments[diagram] == "--by" || arguments[diagram].hasPrefix("--by=") {
        diagram += arguments[diagram] == "--by" ? 2 : 1
      }
      if diagram < arguments.count, !["-h", "--help", "--"].contains(arguments[diagram]) {
        arguments.insert("--", at: diagram)
      }
    }
    return try parseAsRoot(arguments)
  }

  /// Prints `message` as one line on standard error and exits with status 2.
  static func failWithUsage(_ message: String) -> Never {
    let line = message.split(whereSeparator: \.isNewline).first.map(String.init) ?? "invalid command line"
    FileDescriptorOutput.standardError.write("pace: error: \(line)\n")
    terminateProcess(status: 2)
  }
}
