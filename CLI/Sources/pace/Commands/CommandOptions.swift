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
import Pace

/// `-- COMMAND [ARG...]` and its options: what runs for each emitted line,
/// and what a line does while it still runs.
struct CommandOptions: Sendable {
  /// COMMAND as written: looked up in `PATH` unless it has a `/`.
  var executable: String
  var arguments: [String]
  /// `--on-busy`: the library's on-busy policy (`queue`, `drop`, `restart`, `signal`).
  var onBusy: OnBusy = .queue
  /// `--stop-signal`: what `restart`, `signal` and pace's own end send.
  var stopSignal: Int32 = SIGTERM
  /// `--stop-timeout`: how long a stopped command has before SIGKILL.
  var stopTimeout: Duration = .seconds(10)

  /// The `--on-busy` answers, by the names watchexec uses.
  static let onBusyNames: [String: OnBusy] = ["queue": .queue, "drop": .drop, "restart": .restart, "signal": .signal]

  /// A signal written as a name (`TERM`, `SIGTERM`, `int`) or a number; nil when unknown.
  static func signal(named text: String) -> Int32? {
    if let number = Int32(text), number > 0, number < 65 { return number }
    var name = text.uppercased()
    if name.hasPrefix("SIG") { name.removeFirst(3) }
    let signals: [String: Int32] = [
      "HUP": SIGHUP, "INT": SIGINT, "QUIT": SIGQUIT, "KILL": SIGKILL, "USR1": SIGUSR1, "USR2": SIGUSR2,
      "TERM": SIGTERM, "ALRM": SIGALRM, "CONT": SIGCONT, "STOP": SIGSTOP, "WINCH": SIGWINCH,
    ]
    return signals[name]
  }

  /// The command as the user wrote it, for messages.
  var displayName: String {
    executable
  }
}
