//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Pace
import Testing

/// A few tests on the real continuous clock, with generous bounds and no exact
/// timings: they pass on a loaded machine as on an idle one.
@Suite struct PacerRealClockTests {
  /// The first value a handler delivers, or nil when none comes within `limit`.
  static func firstValue<T: Sendable>(of stream: AsyncStream<T>, within limit: Duration = .seconds(30)) async -> T? {
    await withTaskGroup(of: T?.self) { group in
      group.addTask {
        var iterator = stream.makeAsyncIterator()
        return await iterator.next()
      }
      group.addTask {
        try? await Task.sleep(for: limit)
        return nil
      }
      let first = await group.next() ?? nil
      group.cancelAll()
      return first
    }
  }

  @Test func trailingDebounce_firesOnceAfterTheQuietPeriod() async throws {
    let (values, delivered) = AsyncStream<String>.makeStream()
    let recorder = Recorder<String>()
    // 300 ms: the three sends stay one burst even when a loaded machine
    // (or ThreadSanitizer) pauses this task between two of them.
    let debouncer = Debouncer<String>(for: .milliseconds(300)) { value in
      recorder.record(value)
      delivered.yield(value)
    }
    debouncer.send("a")
    debouncer.send("b")
    let lastSend = ContinuousClock.now
    debouncer.send("c")
    let value = await Self.firstValue(of: values)
    #expect(value == "c")
    #expect(ContinuousClock.now - lastSend >= .milliseconds(300), "fired before the quiet period")
    // A second call would come within another interval; give it two.
    try await Task.sleep(for: .milliseconds(600))
    #expect(recorder.all == ["c"])
    #expect(!debouncer.isPending)
  }

  @Test func cancel_preventsTheCall() async throws {
    let recorder = Recorder<String>()
    let debouncer = Debouncer<String>(for: .milliseconds(300), handler: recorder.record)
    let sent = ContinuousClock.now
    debouncer.send("a")
    debouncer.cancel()
    let cancelledAfter = ContinuousClock.now - sent
    try await Task.sleep(for: .milliseconds(600))
    // A pause of the whole interval between the two (a loaded machine) lets
    // the value be emitted first, and an emitted value is delivered.
    if cancelledAfter < .milliseconds(300) { #expect(recorder.all.isEmpty) }
  }

  @Test func flush_firesAtOnce() async throws {
    let (values, delivered) = AsyncStream<String>.makeStream()
    let debouncer = Debouncer<String>(for: .seconds(3_600)) { delivered.yield($0) }
    debouncer.send("now")
    debouncer.flush()
    #expect(await Self.firstValue(of: values) == "now")
  }

  @MainActor @Test func mainActorHandler_runsOnTheMainActor() async throws {
    let (values, delivered) = AsyncStream<String>.makeStream()
    var query = ""
    let search = Debouncer<String>(for: .milliseconds(300)) { text in
      MainActor.preconditionIsolated()  // Created on the main actor: the handler runs there.
      query = text
      delivered.yield(text)
    }
    search.send("swi")
    search.send("swift")
    #expect(await Self.firstValue(of: values) == "swift")
    #expect(query == "swift")
  }

  // A property of Linux's native runtime, whose delivery threads run
  // handlers with no isolation: the portable runtime (Apple platforms) runs
  // them in tasks, on the cooperative pool, which a blocking handler holds.
  #if os(Linux) && !PACE_PORTABLE_RUNTIME
  @Test func aSlowHandler_doesNotDelayAnotherPacer() async throws {
    // One pacer's handler blocks its thread for 100 ms; another pacer, due
    // meanwhile, must still be called on time (generous bound: 80 ms late).
    let (slowStarted, slowStart) = AsyncStream<Void>.makeStream()
    let (fastValues, fastDelivered) = AsyncStream<Duration>.makeStream()
    let slow = Debouncer<Int>(for: .milliseconds(1)) { _ in
      slowStart.yield()
      Self.block(for: .milliseconds(100))
    }
    slow.send(1)
    var started = slowStarted.makeAsyncIterator()
    await started.next()
    let deadline = ContinuousClock.now + .milliseconds(5)
    let fast = Debouncer<ContinuousClock.Instant>(for: .milliseconds(5)) { due in
      fastDelivered.yield(ContinuousClock.now - due)
    }
    fast.send(deadline)
    let late = await Self.firstValue(of: fastValues)
    #expect(late != nil)
    #expect(
      late.map { $0 < .milliseconds(80) } ?? false, "called \(late.map(String.init(describing:)) ?? "never") late")
    withExtendedLifetime((slow, fast)) {}
  }
  #endif

  /// Blocks the calling thread, as a synchronous write or a held lock would.
  static func block(for duration: Duration) {
    let end = ContinuousClock.now + duration
    while ContinuousClock.now < end {}
  }
}
