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

/// `--stop-signal`: a signal written as a name (`TERM`, `SIGTERM`, `int`) or
/// a number from 1 to 64.
struct StopSignal: Equatable, Sendable, CustomStringConvertible {
  /// The signal's number.
  var number: Int32

  /// SIGTERM, the default.
  static let term = StopSignal(number: SIGTERM)

  /// The names `--stop-signal` takes, without `SIG`, as completions offer them.
  static let names: KeyValuePairs<String, Int32> = [
    "TERM": SIGTERM, "INT": SIGINT, "HUP": SIGHUP, "QUIT": SIGQUIT, "KILL": SIGKILL, "USR1": SIGUSR1,
    "USR2": SIGUSR2, "ALRM": SIGALRM, "CONT": SIGCONT, "STOP": SIGSTOP, "WINCH": SIGWINCH,
  ]

  init(number: Int32) {
    self.number = number
  }

  /// The signal named by `text`, or nil when it names none.
  init?(_ text: String) {
    if let number = Int32(text), number > 0, number < 65 {
      self.number = number
      return
    }
    var name = text.uppercased()
    if name.hasPrefix("SIG") { name.removeFirst(3) }
    guard let number = Self.names.first(where: { $0.key == name })?.value else { return nil }
    self.number = number
  }

  var description: String {
    Self.names.first { $0.value == number }?.key ?? "\(number)"
  }
}
