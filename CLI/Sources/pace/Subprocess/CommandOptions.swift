//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// `-- COMMAND [ARG...]` and its options: what runs for each emitted line,
/// and what a line does while it still runs.
struct CommandOptions: Sendable {
  /// COMMAND as written: looked up in `PATH` unless it has a `/`.
  var executable: String
  var arguments: [String]
  /// `--on-busy`: what a line does while the command still runs.
  var onBusy: OnBusyMode = .queue
  /// `--stop-signal`: what `restart`, `signal` and pace's own end send.
  var stopSignal: StopSignal = .term
  /// `--stop-timeout`: how long a stopped command has before SIGKILL.
  var stopTimeout: Duration = .seconds(10)
  /// `--by`: each key has its own runs, and its key is in `PACE_KEY`.
  var isKeyed = false

  /// The command as the user wrote it, for messages.
  var displayName: String {
    executable
  }
}
