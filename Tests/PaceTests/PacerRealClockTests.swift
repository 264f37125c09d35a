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
    let debouncer = try Debouncer<String>(for: .milliseconds(50)) { value in
      recorder.record(value)
      delivered.yield(value)
    }
    debouncer.send("a")
    debouncer.send("b")
    let lastSend = ContinuousClock.now
    debouncer.send("c")
    let value = await Self.firstValue(of: values)
    #expect(value == "c")
    #expect(ContinuousClock.now - lastSend >= .milliseconds(50), "fired before the quiet period")
    // A second call would come within another interval; give it several.
    try await Task.sleep(for: .milliseconds(200))
    #expect(recorder.all == ["c"])
    #expect(!debouncer.isPending)
  }

  @Test func cancel_preventsTheCall() async throws {
    let recorder = Recorder<String>()
    let debouncer = try Debouncer<String>(for: .milliseconds(20), handler: recorder.record)
    debouncer.send("a")
    debouncer.cancel()
    try await Task.sleep(for: .milliseconds(200))
    #expect(recorder.all.isEmpty)
  }

  @Test func flush_firesAtOnce() async throws {
    let (values, delivered) = AsyncStream<String>.makeStream()
    let debouncer = try Debouncer<String>(for: .seconds(3_600)) { delivered.yield($0) }
    debouncer.send("now")
    debouncer.flush()
    #expect(await Self.firstValue(of: values) == "now")
  }

  @MainActor @Test func mainActorHandler_runsOnTheMainActor() async throws {
    let (values, delivered) = AsyncStream<String>.makeStream()
    let model = SearchModel(interval: .milliseconds(10))
    model.onQuery = { delivered.yield($0) }  // Called from the handler, on the main actor.
    model.textChanged("swi")
    model.textChanged("swift")
    #expect(await Self.firstValue(of: values) == "swift")
    #expect(model.query == "swift")
  }
}
