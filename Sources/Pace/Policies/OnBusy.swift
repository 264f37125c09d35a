//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// What a new request does while work started for an earlier one still runs.
///
/// The vocabulary of watchexec's `--on-busy-update`, for the answers a
/// handler can give (the command line adds `signal`, which tells a process;
/// callers who share one execution use ``SingleFlight``):
///
///     requests:  a--b-c------
///     work:      [a----]
///     queue:     a runs; b waits, then c replaces it; c runs when a ends
///     drop:      a runs; b and c are dropped
///     restart:   a is cancelled at b, b at c; c runs
public enum OnBusy: Hashable, Sendable {
  /// Keep one request waiting, the latest: it runs when the running work
  /// ends, so there is always a run after the last request.
  case queue
  /// Drop the new request; the running work goes on.
  case drop
  /// Cancel the running work and start the new request at once: latest wins.
  case restart
}
