//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// SIGINT and SIGTERM to `pace` while it runs commands or a fleet: what
/// runs is stopped (in command mode by the stop rules: its group, the stop
/// timeout, then SIGKILL), then `pace` exits with 130 or 143, as a shell
/// reports those signals.
final class TerminationSignals {
  private let sources: [any DispatchSourceSignal]

  /// Handles SIGINT (exit status 130) and SIGTERM (143) from now on, until
  /// `pace` exits, with `stop`, which is given that status and answers the
  /// one to exit with.
  init(stop: @escaping @Sendable (_ exitStatus: Int32) async -> Int32) {
    sources = [(SIGINT, Int32(130)), (SIGTERM, Int32(143))].map { signalNumber, status in
      signal(signalNumber, SIG_IGN)  // Delivered to the source below instead.
      let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
      source.setEventHandler {
        Task {
          terminateProcess(status: await stop(status))
        }
      }
      source.resume()
      return source
    }
  }
}
