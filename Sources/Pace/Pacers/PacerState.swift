//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// Everything a ``PacerDriver`` holds behind its lock: the driver core, and
/// what only a closure pacer has (its handler, how it delivers, and whether a
/// delivery is draining the outbox).
@usableFromInline
struct PacerState<Machine: PacingStateMachine & Sendable>
where Machine.Instant == DriverInstant, Machine.Value: Sendable {
  // The two small fields first after the core, where they fill its tail padding.
  @usableFromInline var core: DriverCore<Machine>
  /// Whether a delivery is draining the outbox.
  @usableFromInline var isDelivering = false
  @usableFromInline let delivery: PacerDelivery
  /// The pacer's timer: its slot in the scheduler, which the core's commands arm.
  @usableFromInline let scheduler: TimerScheduler
  @usableFromInline let handler: PacerHandler<Machine.Value>

  init(
    core: DriverCore<Machine>, scheduler: TimerScheduler, handler: PacerHandler<Machine.Value>,
    delivery: PacerDelivery
  ) {
    self.core = core
    self.scheduler = scheduler
    self.handler = handler
    self.delivery = delivery
  }
}

extension PacerState {
  /// The pacer is gone or cancelled: the core shuts down and lets its timer
  /// go; `keepingEmitted` as ``DriverCore/shutDown(keepingEmitted:)`` says.
  @inlinable
  mutating func shutDown(owner: AnyObject, keepingEmitted: Bool = false) {
    if core.shutDown(keepingEmitted: keepingEmitted) == .disarm { scheduler.disarm(ObjectIdentifier(owner)) }
  }
}
