//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import Subprocess
import SystemPackage

/// One run of the command, with swift-subprocess: in a process group of its
/// own, the line on its standard input and in `PACE_LINE`, its output and
/// errors on pace's.
///
/// Cancelling the task that runs it stops it by swift-subprocess's teardown
/// sequence: the stop signal to the whole group, the stop timeout, then
/// SIGKILL to the group. What the teardown cannot do is done by hand: once
/// the command has exited, a SIGKILL to its group takes down a child it
/// left behind that ignored the stop signal (the teardown ends when the
/// command itself has gone).
enum CommandRun {
  /// How a run ended.
  enum Outcome: Sendable {
    case exited(Int32)
    case signalled(Int32)
    case couldNotStart(String)
  }

  /// The longest line `PACE_LINE` holds: Linux refuses to start a program
  /// with an environment string of 128 KiB or more.
  static let longestEnvironmentLine = 128 * 1024 - "PACE_LINE=".utf8.count - 1

  /// pace's environment, with the line in `PACE_LINE` when an environment
  /// variable can hold it (no NUL byte, under 128 KiB); without it, so that
  /// the command still runs, the line on its standard input. With `--by`
  /// (`key` not nil), the line's key in `PACE_KEY`, unset for a line that
  /// matches no key.
  static func environment(for line: [UInt8], key: String?? = nil) -> Environment {
    var updates: [Environment.Key: String?] = ["PACE_LINE": nil]
    if line.count <= longestEnvironmentLine, !line.contains(0) {
      updates["PACE_LINE"] = String(decoding: line, as: UTF8.self)
    }
    if let key { updates["PACE_KEY"] = key.flatMap { $0.utf8.contains(0) ? nil : $0 } }
    return .inherit.updating(updates)
  }

  /// Runs the command for `line`, of `key` with `--by`; calls `started`
  /// with its process group once it runs.
  static func run(
    _ options: CommandOptions, line: [UInt8], key: String?, started: @Sendable (pid_t) -> Void
  ) async -> Outcome {
    var platform = PlatformOptions()
    platform.processGroupID = 0  // A group of its own, led by the command.
    platform.teardownSequence = [
      .send(
        signal: Signal(rawValue: options.stopSignal.number), toProcessGroup: true,
        allowedDurationToNextStep: options.stopTimeout)
    ]
    let executable: Executable =
      options.executable.contains("/") ? .path(.init(options.executable)) : .name(options.executable)
    var group: pid_t?
    do {
      let result = try await Subprocess.run(
        executable,
        arguments: Arguments(options.arguments),
        environment: Self.environment(for: line, key: options.isKeyed ? .some(key) : nil),
        platformOptions: platform,
        input: .inputWriter,
        output: .currentStandardOutput,
        error: .currentStandardError
      ) { execution in
        group = execution.processIdentifier.value
        started(execution.processIdentifier.value)
        // Written here rather than with `.array`: a command that exits without
        // reading its input fails the write, which is no error of pace's (and
        // swift-subprocess 1.0.2 traps when its own writer fails that way).
        _ = try? await execution.standardInputWriter.write(line + [0x0A])
        try? await execution.standardInputWriter.finish()
      }
      if Task.isCancelled, let group { killpg(group, SIGKILL) }  // Stopped: leave nothing of it behind.
      switch result.terminationStatus {
      case .exited(let status): return .exited(status)
      case .signaled(let signal): return .signalled(signal)
      }
    } catch {
      if let group { killpg(group, SIGKILL) }
      return .couldNotStart("\(error)")
    }
  }

  /// A run that failed is told on standard error, in one line; one that
  /// pace stopped is not.
  static func report(_ outcome: CommandRun.Outcome, wasStopped: Bool, _ options: CommandOptions) {
    let name = options.displayName
    let message: String
    switch outcome {
    case .exited(0):
      return
    case .exited(let status):
      message = "command '\(name)' exited with status \(status)"
    case .signalled(let signal):
      if wasStopped { return }
      message = "command '\(name)' was ended by signal \(signal)"
    case .couldNotStart(let reason):
      message = "command '\(name)' could not start: \(reason)"
    }
    let line = message.split(whereSeparator: \.isNewline).joined(separator: " ")
    FileDescriptorOutput.standardError.write("pace: \(line)\n")
  }
}
