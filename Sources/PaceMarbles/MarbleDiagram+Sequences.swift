//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

@_spi(Testing) public import Pace

/// The base sequence that a marble run feeds: values, finish and failure.
public typealias MarbleInput = AsyncThrowingStream<String, any Error>

/// The error a marble input fails with at `^`.
public struct MarbleFailure: Error, Hashable, Sendable {
  /// Creates the marble failure.
  public init() {}
}

/// What the marble runner needs of a paced sequence's iterator.
protocol MarbleDrivableIterator: AsyncIteratorProtocol where Element == String {
  func _waitUntilUpstreamEventsHandled(_ count: Int) async
  func _hasOutput() -> Bool
}

extension AsyncDebouncedSequence.Iterator: MarbleDrivableIterator where Base == MarbleInput, C == VirtualClock {}
extension AsyncThrottledSequence.Iterator: MarbleDrivableIterator where Base == MarbleInput, C == VirtualClock {}

extension MarbleDiagram {
  /// Runs this diagram as the base of a debounced sequence on `clock`, frame
  /// by frame, and returns what the sequence produced.
  ///
  /// Within a frame, the inputs are fed to the base and handled first, then
  /// the timers due fire, then the elements they made available are read with
  /// `next()`. `^` fails the base with ``MarbleFailure``.
  ///
  ///     let output = try await MarbleDiagram(parsing: "abcd----e---f-g-|").run(on: VirtualClock()) {
  ///       try $0.debounced(for: .frames(3), clock: $1)
  ///     }
  ///     output.description  // "------d----e----[g|]"
  ///
  /// - Parameters:
  ///   - clock: The virtual clock the sequence runs on; it starts at frame 0.
  ///   - makeSequence: Creates the debounced sequence from the base and the clock.
  public func run(
    on clock: VirtualClock,
    through makeSequence: (MarbleInput, VirtualClock) throws -> AsyncDebouncedSequence<MarbleInput, VirtualClock>
  ) async rethrows -> MarbleDiagram {
    let (input, continuation) = MarbleInput.makeStream()
    var iterator = try makeSequence(input, clock).makeAsyncIterator()
    return await drive(&iterator, input: continuation, on: clock)
  }

  /// Runs this diagram as the base of a throttled sequence on `clock`; see
  /// ``run(on:through:)-(_,(MarbleInput,VirtualClock)->AsyncDebouncedSequence<MarbleInput,VirtualClock>)``.
  ///
  /// - Parameters:
  ///   - clock: The virtual clock the sequence runs on; it starts at frame 0.
  ///   - makeSequence: Creates the throttled sequence from the base and the clock.
  public func run(
    on clock: VirtualClock,
    through makeSequence: (MarbleInput, VirtualClock) throws -> AsyncThrottledSequence<MarbleInput, VirtualClock>
  ) async rethrows -> MarbleDiagram {
    let (input, continuation) = MarbleInput.makeStream()
    var iterator = try makeSequence(input, clock).makeAsyncIterator()
    return await drive(&iterator, input: continuation, on: clock)
  }

  private func drive(
    _ iterator: inout some MarbleDrivableIterator, input: MarbleInput.Continuation, on clock: VirtualClock
  ) async -> MarbleDiagram {
    var output: [Entry] = []
    var walk = MarbleFrameWalk(self)
    var fed = 0
    var ended = false
    await iterator._waitUntilUpstreamEventsHandled(0)
    while !ended, let frame = walk.nextFrame(timer: clock.nextDeadline?.frame) {
      clock.jump(to: .frame(frame))
      for event in walk.takeEvents(at: frame) {
        switch event {
        case .value(let value): input.yield(value)
        case .finish: input.finish()
        case .failure: input.finish(throwing: MarbleFailure())
        }
        fed += 1
      }
      await iterator._waitUntilUpstreamEventsHandled(fed)
      clock.fireDueTimers()
      while !ended, iterator._hasOutput() {
        do {
          if let value = try await iterator.next() {
            output.append(Entry(frame: frame, event: .value(value)))
          } else {
            output.append(Entry(frame: frame, event: .finish))
            ended = true
          }
        } catch {
          output.append(Entry(frame: frame, event: .failure))
          ended = true
        }
      }
    }
    return MarbleDiagram(entries: output)
  }
}
