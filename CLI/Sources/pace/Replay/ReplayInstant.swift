//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// An instant of a replayed log: the time since the Unix epoch that a line's
/// timestamp says. The replay's clock is the log's own.
struct ReplayInstant: InstantProtocol, Sendable {
  var sinceEpoch: Duration

  func advanced(by duration: Duration) -> ReplayInstant {
    ReplayInstant(sinceEpoch: sinceEpoch + duration)
  }

  func duration(to other: ReplayInstant) -> Duration {
    other.sinceEpoch - sinceEpoch
  }

  static func < (left: ReplayInstant, right: ReplayInstant) -> Bool {
    left.sinceEpoch < right.sinceEpoch
  }
}
