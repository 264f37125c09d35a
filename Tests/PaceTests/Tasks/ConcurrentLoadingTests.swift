//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Pace
import PaceTesting
import Testing

/// The Concurrent Loading article's two dashboards, on a virtual clock.
@MainActor @Suite(.timeLimit(.minutes(3))) struct ConcurrentLoadingTests {
  let clock = VirtualClock()
  let cancelled = Recorder<String>()

  /// A load that takes 100 frames and notes its cancellation.
  @Sendable nonisolated func load(_ name: String) async throws -> String {
    do {
      try await clock.sleep(until: .frame(100))
      return name
    } catch {
      cancelled.record(name)
      throw error
    }
  }

  @Test func cancellingTheOwningTask_cancelsEveryChildLoad() async {
    let dashboard = Task {
      async let stats = load("stats")
      async let notifications = load("notifications")
      return try await [stats, notifications]
    }
    await clock.waitForSleepers(count: 2)  // Both loads run.
    dashboard.cancel()
    await #expect(throws: CancellationError.self) { try await dashboard.value }
    #expect(Set(cancelled.all) == ["stats", "notifications"])
  }

  @Test func aLatestWinsLoad_isSupersededByANewerReload_andCancelledWithItsCaller() async throws {
    let feeds = LatestTask<String>()
    let gate = Gate()
    @Sendable func reload(_ filter: String) async throws -> [String] {
      async let stats = load("stats \(filter)")
      async let feed = feeds.run {
        await gate.pass()  // The old feed ignores cancellation: it would come back late.
        return "feed \(filter)"
      }
      return try await [feed, stats]  // The latest-wins load first: a superseded reload ends at once.
    }
    var arrivals = gate.arrived.makeAsyncIterator()
    let old = Task { try await reload("old") }
    await arrivals.next()
    let new = Task { try await reload("new") }
    // The old reload fails at once, and takes its statistics load down with it.
    await #expect(throws: CancellationError.self) { try await old.value }
    #expect(cancelled.all == ["stats old"])
    await arrivals.next()
    gate.open()
    clock.advance(to: .frame(100))
    #expect(try await new.value == ["feed new", "stats new"])

    // Cancelling the caller cancels its latest-wins load too.
    let (ends, ended) = AsyncStream<Bool>.makeStream()
    let caller = Task {
      try await feeds.run {
        do {
          try await clock.sleep(until: .frame(1_000))
          ended.yield(false)
        } catch {
          ended.yield(true)
          throw error
        }
        return "feed"
      }
    }
    await clock.waitForSleepers()
    caller.cancel()
    var iterator = ends.makeAsyncIterator()
    #expect(await iterator.next() == true)
  }
}
