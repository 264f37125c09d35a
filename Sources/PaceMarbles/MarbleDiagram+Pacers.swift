//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

@_spi(Testing) public import Pace

/// What the marble runner needs of a closure pacer.
protocol MarbleDrivablePacer: AnyObject, Sendable {
  func send(_ value: String)
  func cancel()
  func finish()
  var isFinished: Bool { get }
  func _waitUntilDelivered() async
}

extension Debouncer: MarbleDrivablePacer where Value == String {}
extension Throttler: MarbleDrivablePacer where Value == String {}

extension MarbleDiagram {
  /// Runs this diagram through a debouncer on `clock`, frame by frame, and
  /// returns what its handler received.
  ///
  /// Values are sent with `send`; `|` calls `finish()` and appears in the
  /// output once the debouncer has delivered everything; `^` calls `cancel()`
  /// and ends the output. Within a frame, inputs come first, then the timers
  /// due, then the run waits until the handler has received what they emitted.
  ///
  ///     let output = try await MarbleDiagram(parsing: "abcd----e---f-g-|").run(on: VirtualClock()) {
  ///       try Debouncer(for: .frames(3), clock: $0, handler: $1)
  ///     }
  ///     output.description  // "------d----e----[g|]"
  ///
  /// - Parameters:
  ///   - clock: The virtual clock the debouncer runs on; it starts at frame 0.
  ///   - makeDebouncer: Creates the debouncer from the clock and the handler to pass it.
  public func run(
    on clock: VirtualClock,
    through makeDebouncer: (VirtualClock, @escaping @Sendable (String) -> Void) throws -> Debouncer<String>
  ) async rethrows -> MarbleDiagram {
    let recorder = MarbleRecorder(clock: clock)
    let debouncer = try makeDebouncer(clock, recorder.record)
    return await drive(debouncer, on: clock, recorder: recorder)
  }

  /// Runs this diagram through a throttler on `clock`, frame by frame, and
  /// returns what its handler received; see ``run(on:through:)-(_,(VirtualClock,(String)->Void)->Debouncer<String>)``.
  ///
  /// - Parameters:
  ///   - clock: The virtual clock the throttler runs on; it starts at frame 0.
  ///   - makeThrottler: Creates the throttler from the clock and the handler to pass it.
  public func run(
    on clock: VirtualClock,
    through makeThrottler: (VirtualClock, @escaping @Sendable (String) -> Void) throws -> Throttler<String>
  ) async rethrows -> MarbleDiagram {
    let recorder = MarbleRecorder(clock: clock)
    let throttler = try makeThrottler(clock, recorder.record)
    return await drive(throttler, on: clock, recorder: recorder)
  }

  private func drive(
    _ pacer: some MarbleDrivablePacer, on clock: VirtualClock, recorder: MarbleRecorder
  ) async -> MarbleDiagram {
    var walk = MarbleFrameWalk(self)
    var ended = false
    while !ended, let frame = walk.nextFrame(timer: clock.nextDeadline?.frame) {
      clock.jump(to: .frame(frame))
      for event in walk.takeEvents(at: frame) where !ended {
        switch event {
        case .value(let value):
          pacer.send(value)
        case .finish:
          pacer.finish()
        case .failure:
          // What was emitted before the failure is delivered; what is pending is dropped.
          await pacer._waitUntilDelivered()
          pacer.cancel()
          recorder.record(.failure, at: frame)
          ended = true
        }
      }
      guard !ended else { break }
      clock.fireDueTimers()
      await pacer._waitUntilDelivered()
      if pacer.isFinished {
        recorder.record(.finish, at: frame)
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
