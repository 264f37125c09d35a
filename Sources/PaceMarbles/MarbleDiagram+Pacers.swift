//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

public import Pace

extension MarbleDiagram {
  /// Runs this diagram through a closure pacer on `clock`, frame by frame, and
  /// returns what its handler received.
  ///
  /// Values are sent with `send`; `|` calls `finish()`, `^` fails the input
  /// (the policy's failure rule applies). The pacer's end appears in the
  /// output once it has delivered everything before it. Within a frame, inputs come first, then the timers
  /// due, then the run waits until the handler has received what they emitted
  /// (``VirtualClock/settle()``).
  ///
  ///     let output = try await MarbleDiagram(parsing: "abcd----e---f-g-|").run(on: VirtualClock()) {
  ///       Debouncer(for: .frames(3), clock: $0, handler: $1)
  ///     }
  ///     output.description  // "------d----e----[g|]"
  ///
  /// - Parameters:
  ///   - clock: The virtual clock the pacer runs on; it starts at frame 0.
  ///   - makePacer: Creates the pacer from the clock and the handler to pass it.
  public func run<Machine>(
    on clock: VirtualClock,
    through makePacer: (VirtualClock, @escaping @Sendable (String) -> Void) throws -> Pacer<Machine>
  ) async rethrows -> MarbleDiagram where Machine.Value == String {
    let recorder = MarbleRecorder(clock: clock)
    let pacer = try makePacer(clock, recorder.record)
    var walk = MarbleFrameWalk(self)
    // What the policy emits as the input starts (`take 0` finishes) is recorded at frame 0.
    await clock.settle()
    var ended = false
    if let end = pacer.termination {
      recorder.record(end, at: 0)
      ended = true
    }
    while !ended, let frame = walk.nextFrame(timer: clock.nextDeadline?.frame) {
      clock.jump(to: .frame(frame))
      for event in walk.takeEvents(at: frame) where !ended {
        switch event {
        case .value(let value):
          pacer.send(value)
        case .finish:
          pacer.finish()
        case .failure:
          pacer.fail()
        }
      }
      clock.fireDueTimers()
      await clock.settle()
      if let end = pacer.termination {
        recorder.record(end, at: frame)
        ended = true
      }
    }
    return MarbleDiagram(entries: recorder.entries)
  }
}

/// Records what a handler receives, at the clock's frame.
final class MarbleRecorder: Sendable {
  private let clock: VirtualClock
  private let recorded = LockedState<[MarbleDiagram.Entry]>([])

  init(clock: VirtualClock) {
    self.clock = clock
  }

  var entries: [MarbleDiagram.Entry] {
    recorded.withLock { $0 }
  }

  @Sendable func record(_ value: String) {
    record(.value(value), at: clock.now.frame)
  }

  func record(_ event: MarbleEvent, at frame: Int) {
    recorded.withLock { $0.append(MarbleDiagram.Entry(frame: frame, event: event)) }
  }
}
