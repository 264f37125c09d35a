//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// A timer a driver has armed, so it can be cancelled.
@usableFromInline
enum ArmedTimer: Sendable {
  /// A task sleeping on a real clock.
  case task(Task<Void, Never>)
  /// A timer that a manual clock runs; cancelled through `cancel`.
  case manual(cancel: @Sendable () -> Void)

  func cancel() {
    switch self {
    case .task(let task): task.cancel()
    case .manual(let cancel): cancel()
    }
  }
}

/// A timer's callback: returns the next deadline to keep the timer armed, or
/// `nil` to let it go.
@usableFromInline
typealias TimerFire = @Sendable () -> DriverInstant?

/// The loop of a timer that sleeps in a task: sleep, fire, and again while
/// there is a deadline.
func timerTaskLoop(
  from deadline: DriverInstant, sleep: @escaping @Sendable (DriverInstant) async throws -> Void,
  fire: @escaping TimerFire
) -> Task<Void, Never> {
  Task {
    var deadline = deadline
    while true {
      do {
        try await sleep(deadline)
      } catch {
        return  // Cancelled: the driver let the timer go.
      }
      guard let next = fire() else { return }
      deadline = next
    }
  }
}
