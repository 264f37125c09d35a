//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// The runtime's one entry for delivery: where a driver's handlers run.
///
/// A delivery on an actor runs in a task on that actor, on every platform;
/// one on the main actor is enqueued there directly, so that a busy
/// cooperative pool cannot hold back a handler whose main thread is free.
/// One with no isolation runs, with Linux's native runtime, on Pace's
/// delivery threads (never the cooperative pool, which a blocking handler
/// would stall); with the portable runtime (every other platform, and Linux
/// built with `PACE_PORTABLE_RUNTIME`), in a task. Shells call this and
/// never test the platform themselves.
///
/// - Parameters:
///   - owner: The driver, which `delivery` and `onIsolation` are functions of.
///   - isolation: The handler's actor, or `nil` for none.
///   - delivery: Drains the driver's outbox with no isolation; captures
///     nothing, so handing it to a thread allocates nothing.
///   - onIsolation: Drains it on `isolation`, in a task; like `delivery`, a
///     function of the driver that captures nothing, so that the task's
///     closure is the only allocation besides the task.
@inlinable
func startDelivery(
  of owner: AnyObject, isolation: (any Actor)?, delivery: @escaping TimerDelivery,
  onIsolation: @escaping @Sendable (_ owner: AnyObject, _ isolation: isolated (any Actor)?) async -> Void
) {
  #if os(Linux) && !PACE_PORTABLE_RUNTIME
    if isolation == nil, let threads = DeliveryThreads.shared {
      threads.run(delivery, of: TimerOwner(owner))
      return
    }
  #endif
  let owner = TimerOwner(owner)
  if let isolation, isolation === MainActor.shared {
    // Enqueued on the main actor itself: a task with no isolation would first
    // wait for a thread of the cooperative pool, busy or not, to hop from.
    Task { @MainActor in
      await onIsolation(owner.object, MainActor.shared)
    }
    return
  }
  Task {
    await onIsolation(owner.object, isolation)
  }
}
