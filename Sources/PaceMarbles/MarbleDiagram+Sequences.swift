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
    var walk = MarbleFrameWalk(self)
    var fed = 0
    var ended = false
    await iterator.waitUntilUpstreamEventsHandled(0)
    // What the policy emits as the input starts (`take 0` finishes) is read at frame 0.
    if iterator.hasOutput() { ended = await read(&iterator, at: 0, into: &output) }
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
      await iterator.waitUntilUpstreamEventsHandled(fed)
      clock.fireDueTimers()
      ended = await read(&iterator, at: frame, into: &output)
    }
    return MarbleDiagram(entries: output)
  }

  /// Reads what the iterator has ready into `output` at `frame`; whether the
  /// sequence ended.
  private func read<Machine>(
    _ iterator: inout AsyncPacedSequence<MarbleInput, Machine>.Iterator, at frame: Int, into output: inout [Entry]
  ) async -> Bool {
    while iterator.hasOutput() {
      do {
        guard let value = try await iterator.next() else {
          output.append(Entry(frame: frame, event: .finish))
          return true
        }
        output.append(Entry(frame: frame, event: .value(value)))
      } catch {
        output.append(Entry(frame: frame, event: .failure))
        return true
      }
    }
    return false
  }
}
