//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import ArgumentParser
import Pace

/// `--on-busy`: what an emitted line does while the command still runs, by
/// the names watchexec uses.
enum OnBusyMode: String, CaseIterable, ExpressibleByArgument, Sendable {
  /// Run once more after the running command, with the latest line.
  case queue
  /// Drop the line; the running command goes on.
  case drop
  /// Stop the running command (its whole process group), then run the line.
  case restart
  /// Send the running command the stop signal; the line is not run.
  case signal

  /// The library's policy that decides for this mode. `signal` is `drop` for
  /// the policy: a line that it drops while a command runs is the runner's
  /// cue to send the stop signal (see `CommandRunner`).
  var policy: OnBusy {
    switch self {
    case .queue: .queue
    case .drop, .signal: .drop
    case .restart: .restart
    }
  }
}
