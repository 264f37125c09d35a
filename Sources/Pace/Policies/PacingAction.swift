//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// What a pacing state machine asks its driver to deliver after one event: the
/// values it emits, in order, then at most one ``PacingEvent/finish`` or
/// ``PacingEvent/failure``.
///
/// A single policy emits at most one value per event; a ``PacingPipeline`` may
/// emit several (a timer that fires several of its stages at once). The first
/// value is stored inline, so an action of one value never allocates; further
/// values go to an array.
///
///     var pipeline = PacingPipeline<String, ContinuousClock.Instant>(stages: [.distinct()])
///     let action = pipeline.valueReceived("a", at: .now)
///     for event in action {
///       if case .value(let value) = event { print(value) }  // "a"
///     }
///
/// Drivers perform an action after they have released their lock: they deliver
/// the values, then the termination. Nothing comes after a termination.
public struct PacingAction<Value> {
  @usableFromInline var head: Value?
  @usableFromInline var tail: [Value]
  @usableFromInline var ending: Ending

  @usableFromInline
  enum Ending: UInt8, Sendable {
    case none, finish, failure
  }

  @inlinable
  init(head: Value?, tail: [Value] = [], ending: Ending) {
    self.head = head
    self.tail = tail
    self.ending = ending
  }

  /// Nothing to deliver.
  @inlinable public static var none: Self { Self(head: nil, ending: .none) }
  /// Deliver `value`; the sequence goes on.
  @inlinable public static func emit(_ value: Value) -> Self { Self(head: value, ending: .none) }
  /// The sequence finishes; nothing was pending.
  @inlinable public static var finish: Self { Self(head: nil, ending: .finish) }
  /// Deliver `value`, then finish.
  @inlinable public static func emitAndFinish(_ value: Value) -> Self { Self(head: value, ending: .finish) }
  /// The sequence fails; anything pending was dropped.
  @inlinable public static var fail: Self { Self(head: nil, ending: .failure) }

  /// Whether the action is one value and nothing else.
  @inlinable
  var isSingleValue: Bool { head != nil && tail.isEmpty && ending == .none }

  /// The first value, moved out of the action, which is gone after. The
  /// action must have one (see `isSingleValue`).
  @inlinable
  consuming func takeHead() -> Value {
    guard let value = head.take() else { preconditionFailure("takeHead() of an action with no value") }
    return value
  }

  /// Whether this action ends the sequence (by finishing or failing).
  @inlinable
  public var terminates: Bool { ending != .none }

  /// Adds `event` after the events already in the action; ignored once the
  /// action terminates.
  @inlinable
  package mutating func append(_ event: PacingEvent<Value>) {
    guard ending == .none else { return }
    switch event {
    case .value(let value):
      if head == nil, tail.isEmpty { head = value } else { tail.append(value) }
    case .finish: ending = .finish
    case .failure: ending = .failure
    }
  }

  /// Adds the events of `other` after these, as ``append(_:)`` does one by one.
  @inlinable
  package mutating func append(contentsOf other: PacingAction<Value>) {
    for event in other { append(event) }
  }
}

extension PacingAction: RandomAccessCollection {
  public typealias Element = PacingEvent<Value>
  public typealias Index = Int

  @inlinable public var startIndex: Int { 0 }

  /// The number of events: the values, plus one for a termination.
  @inlinable
  public var endIndex: Int {
    (head == nil ? 0 : 1 + tail.count) + (ending == .none ? 0 : 1)
  }

  @inlinable
  public subscript(position: Int) -> PacingEvent<Value> {
    let values = head == nil ? 0 : 1 + tail.count
    if position < values {
      return .value(position == 0 ? head.unsafelyUnwrapped : tail[position - 1])
    }
    precondition(position == values && ending != .none, "Index out of range")
    return ending == .finish ? .finish : .failure
  }
}

extension PacingAction: CustomStringConvertible {
  /// `none`, or the events in order: `[a, b, finish]`.
  public var description: String {
    guard !isEmpty else { return "none" }
    let events = map { event -> String in
      switch event {
      case .value(let value): "\(value)"
      case .finish: "finish"
      case .failure: "failure"
      }
    }
    return "[\(events.joined(separator: ", "))]"
  }
}

extension PacingAction: Equatable where Value: Equatable {}
extension PacingAction: Hashable where Value: Hashable {}
extension PacingAction: Sendable where Value: Sendable {}
