//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Pace
@_spi(Tools) import PaceMarbles
import PaceTesting
import Testing

/// The diagrams in the doc comments of `Debouncer` and `Throttler`, checked.
@Suite struct PacerDocumentationTests {
  enum Call { case send(String), cancel, flush, finish }

  /// Runs `calls` (frame by frame) on a pacer on a virtual clock, timers after
  /// the calls of each frame, and returns the handler's diagram.
  static func run(
    _ calls: [(Int, Call)], frames: Int,
    make: (VirtualClock, @escaping @Sendable (String) -> Void) throws -> (
      send: (String) -> Void, cancel: () -> Void, flush: () -> Void, finish: () -> Void, settle: () async -> Void
    )
  ) async throws -> String {
    let clock = VirtualClock()
    let recorded = Recorder<MarbleDiagram.Entry>()
    let pacer = try make(clock) { recorded.record(.init(frame: clock.now.frame, event: .value($0))) }
    for frame in 0..<frames {
      clock.jump(to: .frame(frame))
      for (at, call) in calls where at == frame {
        switch call {
        case .send(let value): pacer.send(value)
        case .cancel: pacer.cancel()
        case .flush: pacer.flush()
        case .finish: pacer.finish()
        }
      }
      await pacer.settle()
      clock.fireDueTimers()
      await pacer.settle()
    }
    return MarbleDiagram(entries: recorded.all).description
  }

  static func debouncer(_ clock: VirtualClock, _ handler: @escaping @Sendable (String) -> Void) throws -> (
    send: (String) -> Void, cancel: () -> Void, flush: () -> Void, finish: () -> Void, settle: () async -> Void
  ) {
    let pacer = Debouncer<String>(for: .frames(3), clock: clock, handler: handler)
    return (pacer.send, pacer.cancel, pacer.flush, pacer.finish, clock.settle)
  }

  static func throttler(_ clock: VirtualClock, _ handler: @escaping @Sendable (String) -> Void) throws -> (
    send: (String) -> Void, cancel: () -> Void, flush: () -> Void, finish: () -> Void, settle: () async -> Void
  ) {
    let pacer = Throttler<String>(for: .frames(3), clock: clock, handler: handler)
    return (pacer.send, pacer.cancel, pacer.flush, pacer.finish, clock.settle)
  }

  @Test func debouncerDiagrams() async throws {
    let abc: [(Int, Call)] = [(0, .send("a")), (2, .send("b")), (4, .send("c"))]
    #expect(try await Self.run(abc, frames: 10, make: Self.debouncer) == "-------c")
    let ab: [(Int, Call)] = [(0, .send("a")), (2, .send("b"))]
    #expect(try await Self.run(ab + [(4, .cancel)], frames: 10, make: Self.debouncer) == "")
    #expect(try await Self.run(ab + [(3, .flush)], frames: 10, make: Self.debouncer) == "---b")
    #expect(try await Self.run(abc + [(5, .finish)], frames: 10, make: Self.debouncer) == "-----c")
  }

  @Test func throttlerDiagrams() async throws {
    let sends: [(Int, Call)] = ["a", "b", "c", "d", "e", "f", "g"].enumerated().map { ($0.offset, .send($0.element)) }
    #expect(try await Self.run(sends, frames: 10, make: Self.throttler) == "a--d--g")
    let cancel: [(Int, Call)] = [(0, .send("a")), (1, .send("b")), (2, .cancel), (5, .send("c"))]
    #expect(try await Self.run(cancel, frames: 10, make: Self.throttler) == "a----c")
    let flush: [(Int, Call)] = [(0, .send("a")), (1, .send("b")), (2, .flush), (3, .send("c"))]
    #expect(try await Self.run(flush, frames: 10, make: Self.throttler) == "a-b--c")
    let finish: [(Int, Call)] = [(0, .send("a")), (1, .send("b")), (2, .finish), (3, .send("c"))]
    #expect(try await Self.run(finish, frames: 10, make: Self.throttler) == "a--b")
  }
}
