//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Synchronization

/// Where the database's clock stands against this process's monotonic
/// clock, from the last instant the database answered with. A worker sets
/// its local timer for a database instant through it, so a host whose wall
/// clock is skewed by an hour still wakes on time: the host's wall clock is
/// never read.
final class DatabaseClock: Sendable {
  private struct Sample {
    var micros: Int64
    var local: ContinuousClock.Instant
  }

  private let sample = Mutex<Sample?>(nil)

  /// Takes note that the database read `micros` just before now.
  func observe(_ micros: Int64) {
    let now = ContinuousClock.now
    sample.withLock { $0 = Sample(micros: micros, local: now) }
  }

  /// The local instant of the database instant `micros`, or nil before the
  /// database has answered once.
  func localInstant(of micros: Int64) -> ContinuousClock.Instant? {
    sample.withLock { sample in
      sample.map { $0.local.advanced(by: .microseconds(micros - $0.micros)) }
    }
  }

  /// The database's clock now, estimated, or nil before it has answered once.
  var estimatedMicros: Int64? {
    sample.withLock { sample in
      sample.map { sample in
        let elapsed = sample.local.duration(to: .now).components
        return sample.micros + elapsed.seconds * 1_000_000 + elapsed.attoseconds / 1_000_000_000_000
      }
    }
  }
}
