//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// A policy that a closure pacer can also flush and cancel.
@usableFromInline
protocol ControllableStateMachine: PacingStateMachine {
  /// Whether a value waits to be emitted.
  var hasPendingValue: Bool { get }
  mutating func flushRequested(at now: Instant) -> PacingAction<Value>
  mutating func cancelled() -> PacingAction<Value>
}

extension DebounceStateMachine: ControllableStateMachine {}
extension ThrottleStateMachine: ControllableStateMachine {}
