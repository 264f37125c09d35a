//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// Latest wins, as a pure policy: every start has a generation number, a
/// start supersedes the work before it, and only the latest work's end
/// counts. No clock, no lock, no task.
///
/// `LatestTask`, `DebouncedTask` (through the on-busy policy's
/// `OnBusy/restart`), `mapLatest`'s machine and `Pager` (through its paging
/// policy) decide "which work is the latest" here and nowhere else; a result
/// is judged by its generation, never by comparing requests.
///
///     var latest = LatestWins()
///     latest.start()        // (generation: 1, superseding: nil)
///     latest.start()        // (generation: 2, superseding: 1): 1 is cancelled
///     latest.finish(1)      // false: stale, its result is dropped
///     latest.finish(2)      // true: idle again
@usableFromInline
package struct LatestWins: Sendable, Hashable {
  /// The generation of the latest start; 0 before the first.
  @usableFromInline package private(set) var latest: UInt64 = 0
  /// The generation of the work that runs and counts, if any.
  @usableFromInline package private(set) var running: UInt64?

  @inlinable
  package init() {}

  /// Starts counting after `generation`: work started here never shares a
  /// generation with work of an earlier policy that may still be ending.
  @inlinable
  package init(after generation: UInt64) {
    latest = generation
  }

  /// New work starts: its generation, and the running work it supersedes.
  @inlinable
  package mutating func start() -> (generation: UInt64, superseding: UInt64?) {
    latest &+= 1
    defer { running = latest }
    return (latest, running)
  }

  /// The work of `generation` ended; whether it was the running one (its
  /// result counts). A stale end changes nothing.
  @inlinable
  package mutating func finish(_ generation: UInt64) -> Bool {
    guard running == generation else { return false }
    running = nil
    return true
  }

  /// Everything stops: the running work, if any, to cancel. A later end of
  /// it is stale.
  @inlinable
  package mutating func cancel() -> UInt64? {
    defer { running = nil }
    return running
  }

  /// Whether `generation` is the work that runs and counts.
  @inlinable
  package func isRunning(_ generation: UInt64) -> Bool {
    running == generation
  }
}
