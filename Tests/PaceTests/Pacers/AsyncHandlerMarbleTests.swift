//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Pace
import PaceMarbles
import Testing

/// The runner of pacers' `async` handlers does what the on-busy policy's
/// work diagrams say: the handler sleeps for its request's work on a virtual
/// clock, and each frame's requests are handed in before that frame's work
/// ends. (`AsyncHandlerPacerTests` checks that pacers hand their values in.)
@Suite(.timeLimit(.minutes(3))) struct AsyncHandlerMarbleTests {
  static let cases: [(OnBusy, String, String)] = [
    (.queue, "a-b-c", "4-1-2"),
    (.queue, "ab-c", "31-3"),
    (.queue, "a-b", "2-1"),
    (.queue, "abcdef----g", "313131----2"),
    (.drop, "a-b-c", "4-1-2"),
    (.drop, "a-b-c-d-e", "3-1-3-1-1"),
    (.restart, "a-b-c", "4-1-2"),
    (.restart, "abc", "333"),
    (.restart, "a-bc----d", "5-21----1"),
  ]

  /// What the handler did, by frame.
  final class Log: Sendable {
    let frame = LockedState(0)
    private let state = LockedState<(entries: [(kind: String, entry: MarbleDiagram.Entry)], waiters: [Waiter])>(
      ([], []))

    struct Waiter {
      var count: Int
      var continuation: CheckedContinuation<Void, Never>
    }

    func record(_ kind: String, _ name: String) {
      let entry = MarbleDiagram.Entry(frame: frame.withLock { $0 }, event: .value(name))
      let ready = state.withLock { state in
        state.entries.append((kind, entry))
        let ready = state.waiters.filter { $0.count <= state.entries.count }
        state.waiters.removeAll { $0.count <= state.entries.count }
        return ready
      }
      for waiter in ready { waiter.continuation.resume() }
    }

    func waitFor(count: Int) async {
      await withCheckedContinuation { continuation in
        let isReady = state.withLock { state in
          guard state.entries.count < count else { return true }
          state.waiters.append(Waiter(count: count, continuation: continuation))
          return false
        }
        if isReady { continuation.resume() }
      }
    }

    func diagram(_ kind: String) -> String {
      MarbleDiagram(entries: state.withLock { $0.entries }.filter { $0.kind == kind }.map(\.entry)).description
    }
  }

  @Test(arguments: cases)
  func theRunner_followsTheWorkDiagram(onBusy: OnBusy, requests: String, work: String) async throws {
    let diagram = try WorkDiagram(requests: requests, work: work)
    let expected = diagram.run(onBusy: onBusy)
    let frames = Dictionary(uniqueKeysWithValues: diagram.requests.map { ($0.request.name, $0.request.frames) })
    let (workClock, log) = (VirtualClock(), Log())
    let runner = AsyncHandlerRunner<String>(onBusy: onBusy) { name in
      log.record("start", name)
      do {
        // From the frame it starts in: the clock moves to that frame only after the requests.
        try await workClock.sleep(until: .frame(log.frame.withLock { $0 } + frames[name]!))
        log.record("end", name)
      } catch {
        log.record("cancel", name)
      }
      return true
    }
    // Every event of the expected timeline, by frame: how many the log must hold after each frame.
    let all = [expected.starts, expected.ends, expected.cancels].flatMap(\.entries)
    let lastFrame = all.map(\.frame).max() ?? 0
    for frame in 0...lastFrame {
      log.frame.withLock { $0 = frame }
      // The frame's requests, handed to the policy…
      for (at, request) in diagram.requests where at == frame { runner.requested(request.name) }
      // …then the work that ends at this frame, and what follows from it.
      workClock.advance(to: .frame(frame))
      await log.waitFor(count: all.filter { $0.frame <= frame }.count)
      await runner.waitUntil(
        ended: [expected.ends, expected.cancels].flatMap(\.entries).filter { $0.frame <= frame }.count)
    }
    #expect(log.diagram("start") == expected.starts.description)
    #expect(log.diagram("end") == expected.ends.description)
    #expect(log.diagram("cancel") == expected.cancels.description)
  }
}
