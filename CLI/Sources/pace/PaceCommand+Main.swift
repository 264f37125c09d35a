//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import ArgumentParser

extension PaceCommand {
  /// Parses and runs, with `pace`'s exit policy: every usage error prints one
  /// line, `pace: error: …`, on standard error and exits with status 2;
  /// help exits 0; a command that throws an `ExitCode` exits with it.
  static func main() async {
    do {
      var command = try parseCommandLine(Array(CommandLine.arguments.dropFirst()))
      if var command = command as? any AsyncParsableCommand {
        try await command.run()
      } else {
        try command.run()
      }
      terminateProcess(status: 0)
    } catch let error as ExitCode {
      terminateProcess(status: error.rawValue)
    } catch {
      let code = exitCode(for: error)
      if code == .success {
        // Help, and the completion scripts, are not errors.
        print(fullMessage(for: error))
        terminateProcess(status: 0)
      }
      failWithUsage(message(for: error))
    }
  }

  /// The command that `arguments` (the words after `pace`) ask for.
  ///
  /// swift-argument-parser rejects a word that starts with three dashes, but
  /// a diagram may start with any number of them (`'---a-b|'`): the word
  /// after `marble` is the diagram, unless it asks for help, and so it goes
  /// after a `--` (which the marble command reads as a terminator, not as
  /// the diagram).
  static func parseCommandLine(_ arguments: [String]) throws -> any ParsableCommand {
    var arguments = arguments
    if arguments.first == MarbleCommand.configuration.commandName, arguments.count > 1,
      !["-h", "--help", "--"].contains(arguments[1])
    {
      arguments.insert("--", at: 1)
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
