//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// What a pacing state machine asks its driver to do after one event.
///
/// A single event produces at most one value and at most one termination, so an
/// action never allocates. Drivers perform the action after they have released
/// their lock: they deliver the value, then the termination.
///
///     let action = machine.valueReceived("a", at: now)
///     if case .emit(let value) = action { handler(value) }
public enum PacingAction<Value> {
  /// Nothing to deliver.
  case none
  /// Deliver `value`; the sequence goes on.
  case emit(Value)
  /// The sequence finishes; nothing was pending.
  case finish
  /// Deliver `value`, then finish.
  case emitAndFinish(Value)
  /// The sequence fails; anything pending was dropped.
  case fail

  /// The value this action delivers, if any.
  @inlinable
  public var value: Value? {
    switch self {
    case .emit(let value), .emitAndFinish(let value): value
    case .none, .finish, .fail: nil
    }
  }

  /// Whether this action ends the sequence (by finishing or failing).
  @inlinable
  public var terminates: Bool {
    switch self {
    case .finish, .emitAndFinish, .fail: true
    case .none, .emit: false
    }
  }
}

extension PacingAction: Equatable where Value: Equatable {}
extension PacingAction: Hashable where Value: Hashable {}
extension PacingAction: Sendable where Value: Sendable {}
