//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

public import Pace

/// The base sequence that a marble run feeds: values, finish and failure.
public typealias MarbleInput = AsyncThrowingStream<String, any Error>

/// The error a marble input fails with at `^`.
public struct MarbleFailure: Error, Hashable, Sendable {
  /// Creates the marble failure.
  public init() {}
}

extension MarbleDiagram {
  /// Runs this diagram as the base of a paced sequence on `clock`, frame by
  /// frame, and returns what the sequence produced.
  ///
  /// Within a frame, the inputs are fed to the base and handled first, then
  /// the timers due fire, then the elements they made available are read with
  /// `next()`. `^` fails the base with ``MarbleFailure``.
  ///
  ///     let output = try await MarbleDiagram(parsing: "abcd----e---f-g-|").run(on: VirtualClock()) {
  ///       $0.debounced(for: .frames(3), clock: $1)
  ///     }
  ///     output.description  // "------d----e----[g|]"
  ///
  /// - Parameters:
  ///   - clock: The virtual clock the sequence runs on; it starts at frame 0.
  ///   - makeSequence: Creates the paced sequence from the base and the clock.
  public func run<Machine>(
    on clock: VirtualClock,
    through makeSequence: (MarbleInput, VirtualClock) throws -> AsyncPacedSequence<MarbleInput, Machine>
  ) async rethrows -> MarbleDiagram {
    let (input, continuation) = MarbleInput.makeStream()
    var iterator = try makeSequence(input, clock).makeAsyncIterator()
    var output: [Entry] = []
    await iterator.waitUntil(upstreamEventsHandled: 0)
    // What the policy emits as the input starts (`take 0` finishes) is read at frame 0.
    if iterator.hasOutput(),
      await readReady(at: 0, into: &output, hasOutput: iterator.hasOutput, next: { try await iterator.next() })
    {
      return MarbleDiagram(entries: output)
    }
    return await runFrames(
      on: clock, feeding: continuation, output: output,
      settle: { fed in
        await iterator.waitUntil(upstreamEventsHandled: fed)
        clock.fireDueTimers()
      },
      hasOutput: iterator.hasOutput, next: { try await iterator.next() })
  }

  /// The frame loop of the sequence runners: feeds each frame's inputs to
  /// the base, lets `settle` wait until the sequence has handled them (it
  /// fires the clock's timers too), then reads what is ready; until the
  /// sequence ends, or no input and no timer remain.
  ///
  /// - Parameters:
  ///   - output: What the sequence produced before the first frame.
  ///   - settle: Waits until the sequence has handled this many inputs.
  func runFrames(
    on clock: VirtualClock, feeding continuation: MarbleInput.Continuation, output: [Entry],
    settle: (_ fed: Int) async -> Void, hasOutput: () -> Bool, next: () async throws -> String?
  ) async -> MarbleDiagram {
    var output = output
    var walk = MarbleFrameWalk(self)
    var fed = 0
    var ended = false
    while !ended, let frame = walk.nextFrame(timer: clock.nextDeadline?.frame) {
      clock.jump(to: .frame(frame))
      for event in walk.takeEvents(at: frame) {
        switch event {
        case .value(let value): continuation.yield(value)
        case .finish: continuation.finish()
        case .failure: continuation.finish(throwing: MarbleFailure())
        }
        fed += 1
      }
      await settle(fed)
      ended = await readReady(at: frame, into: &output, hasOutput: hasOutput, next: next)
    }
    return MarbleDiagram(entries: output)
  }
}

/// Reads what a sequence has ready into `output` at `frame`, the end and a
/// failure included; whether the sequence ended.
private func readReady(
  at frame: Int, into output: inout [MarbleDiagram.Entry], hasOutput: () -> Bool,
  next: () async throws -> String?
) async -> Bool {
  while hasOutput() {
    do {
      guard let value = try await next() else {
        output.append(MarbleDiagram.Entry(frame: frame, event: .finish))
        return true
      }
      output.append(MarbleDiagram.Entry(frame: frame, event: .value(value)))
    } catch {
      output.append(MarbleDiagram.Entry(frame: frame, event: .failure))
      return true
    }
  }
  return false
}
