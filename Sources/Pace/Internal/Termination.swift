//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// Whether an untimed stage (filter, distinct, skip, take) has passed its
/// finish or failure. Such a stage lets both through at once, and nothing after.
@usableFromInline
struct Termination: Sendable {
  @usableFromInline var isTerminated = false

  @inlinable
  init() {}

  /// The finish passes, unless the stage already ended.
  @inlinable
  mutating func finish<Value>() -> PacingAction<Value> {
    defer { isTerminated = true }
    return isTerminated ? .none : .finish
  }

  /// The failure passes, unless the stage already ended.
  @inlinable
  mutating func fail<Value>() -> PacingAction<Value> {
    defer { isTerminated = true }
    return isTerminated ? .none : .fail
  }
}
