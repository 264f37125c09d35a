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

/// A timer's callback: given whether it runs in a task, the next deadline and
/// whether that task should deliver now.
@usableFromInline
typealias TimerFire = @Sendable (_ inTask: Bool) -> (next: DriverInstant?, deliverHere: Bool)

/// The loop of a timer that sleeps in a task: sleep, fire, deliver if asked,
/// and again while there is a deadline.
func timerTaskLoop(
  from deadline: DriverInstant, sleep: @escaping @Sendable (DriverInstant) async throws -> Void,
  fire: @escaping TimerFire, deliver: @escaping @Sendable () async -> Void
) -> Task<Void, Never> {
  Task {
    var deadline = deadline
    while true {
      do {
        try await sleep(deadline)
      } catch {
        return  // Cancelled: the driver let the timer go.
      }
      let (next, deliverHere) = fire(true)
      if deliverHere { await deliver() }
      guard let next else { return }
      deadline = next
    }
  }
}
