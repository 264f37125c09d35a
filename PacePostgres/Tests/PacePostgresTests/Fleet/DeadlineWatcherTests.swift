//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

@testable import PacePostgres
import Synchronization
import Testing

/// The deadlines of the fleet pacers, database calls' limits among them:
/// one watcher for all, and a call that ends stops watching its own.
@Suite struct DeadlineWatcherTests {
  /// A call that never answers, until the test says so.
  final class Hanging: Sendable {
    private let waiter = Mutex<CheckedContinuation<Void, Never>?>(nil)
    private let released = Mutex(false)

    func call() async {
      await withCheckedContinuation { continuation in
        let now = released.withLock { released in
          if released { return true }
          waiter.withLock { $0 = continuation }
          return false
        }
        if now { continuation.resume() }
      }
    }

    func release() {
      released.withLock { $0 = true }
      waiter.withLock { $0.take() }?.resume()
    }
  }

  /// Counts the calls of ``DeadlineHolder/deadlinePassed(_:)``.
  final class Watched: DeadlineHolder {
    let passed = Mutex(0)
    func deadlinePassed(_ id: UInt64) { passed.withLock { $0 += 1 } }
  }

  @Test func aCallThatDoesNotAnswer_throwsAnswerTimeoutOnceItsLimitHasPassed() async {
    let watcher = DeadlineWatcher()
    let hanging = Hanging()
    let start = ContinuousClock.now
    await #expect(throws: AnswerTimeout.self) {
      try await withAnswerTimeout(.milliseconds(50), watchedBy: watcher) { await hanging.call() }
    }
    #expect(watcher.count == 0)
    #expect(ContinuousClock.now - start >= .milliseconds(50))
    hanging.release()
  }

  @Test func callsThatAnswer_leaveNoLimitWatched() async throws {
    let watcher = DeadlineWatcher()
    for n in 0..<200 {
      let answer = try await withAnswerTimeout(.seconds(60), watchedBy: watcher) { n * 2 }
      #expect(answer == n * 2)
    }
    #expect(watcher.count == 0)
    // A call that throws leaves none either.
    await #expect(throws: CancellationError.self) {
      try await withAnswerTimeout(.seconds(60), watchedBy: watcher) { throw CancellationError() }
    }
    #expect(watcher.count == 0)
  }

  @Test func aLimitEarlierThanTheOneWatchedFor_isStillKept() async {
    // A long limit first: the watcher sleeps for it. A short one after it
    // must not wait for the long one.
    let watcher = DeadlineWatcher()
    let long = Hanging()
    let short = Hanging()
    let longCall = Task { try await withAnswerTimeout(.seconds(600), watchedBy: watcher) { await long.call() } }
    while watcher.count == 0 { await Task.yield() }
    let start = ContinuousClock.now
    await #expect(throws: AnswerTimeout.self) {
      try await withAnswerTimeout(.milliseconds(50), watchedBy: watcher) { await short.call() }
    }
    #expect(ContinuousClock.now - start >= .milliseconds(50))
    #expect(ContinuousClock.now - start < .seconds(300))
    short.release()
    // The long call still runs, and still answers.
    long.release()
    await #expect(throws: Never.self) { try await longCall.value }
  }

  @Test func aWatcher_endsTheEntriesWhoseDeadlinePassed_andOnlyThose() async throws {
    let watcher = DeadlineWatcher()
    let soon = Watched()
    let late = Watched()
    let removed = Watched()
    _ = watcher.add(late, deadline: .now + .seconds(600))
    _ = watcher.add(soon, deadline: .now + .milliseconds(20))
    let id = watcher.add(removed, deadline: .now + .milliseconds(10))
    watcher.remove(id)
    while soon.passed.withLock({ $0 }) == 0 { try await Task.sleep(for: .milliseconds(5)) }
    #expect(soon.passed.withLock { $0 } == 1)
    #expect(late.passed.withLock { $0 } == 0)
    #expect(removed.passed.withLock { $0 } == 0)
    #expect(watcher.count == 1)
  }

  @Test func aCancelledCaller_throwsCancellationError_andItsLimitGoes() async {
    let watcher = DeadlineWatcher()
    let hanging = Hanging()
    let caller = Task { try await withAnswerTimeout(.seconds(600), watchedBy: watcher) { await hanging.call() } }
    while watcher.count == 0 { await Task.yield() }
    caller.cancel()
    await #expect(throws: CancellationError.self) { try await caller.value }
    #expect(watcher.count == 0)
    hanging.release()
  }
}
