//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

public import Pace

extension MarbleDiagram {
  /// Runs this diagram as the base of a map-latest sequence on `clock`, frame
  /// by frame, and returns what the sequence produced. The transform measures
  /// its work on the clock (it sleeps on it).
  ///
  /// Within a frame, the inputs are fed to the base and handled first (a new
  /// element cancels the operation it supersedes, and its own operation runs
  /// until it sleeps), then the clock resumes the operations that are due,
  /// then, once every operation resumed or cancelled has ended, the results
  /// are read with `next()`. `^` fails the base with ``MarbleFailure``.
  ///
  ///     let output = try await MarbleDiagram(parsing: "a-b-----c---|").run(on: VirtualClock()) { base, clock in
  ///       base.mapLatest { value in
  ///         try await clock.sleep(for: .frames(3))
  ///         return value
  ///       }
  ///     }
  ///     output.description  // "-----b-----c|"
  ///
  /// - Parameters:
  ///   - clock: The virtual clock the operations sleep on; it starts at frame 0.
  ///   - makeSequence: Creates the sequence from the base and the clock.
  public func run(
    on clock: VirtualClock,
    through makeSequence: (MarbleInput, VirtualClock) throws -> AsyncMapLatestSequence<MarbleInput, String>
  ) async rethrows -> MarbleDiagram {
    let (input, continuation) = MarbleInput.makeStream()
    var iterator = try makeSequence(input, clock).makeAsyncIterator()
    return await runFrames(
      on: clock, feeding: continuation, output: [],
      settle: { fed in
        await iterator.waitUntil { $0.upstreamEventsHandled >= fed || $0.isEnded }
        clock.fireDueTimers()
        // Every operation is asleep on the clock, or has ended: none is on its way.
        let sleeping = clock.sleeperCount
        await iterator.waitUntil { $0.operationsEnded + sleeping >= $0.operationsStarted }
      },
      hasOutput: iterator.hasOutput, next: { try await iterator.next() })
  }
}
