//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// A pacer's handler, in one of the shapes its initialisers take.
///
/// A struct around the function, so that it leaves the driver's lock as it
/// is: a bare function returned through `withLock`'s generic result is
/// re-abstracted, which allocates a thunk on the way out of the lock and
/// another on the way back.
@usableFromInline
enum PacerHandler<Value: Sendable>: Sendable {
  /// A closure on its own isolation (the creator's actor, or none).
  case isolated(@Sendable @isolated(any) (Value) -> Void)
  /// A closure that is handed an owner the pacer holds weakly. `isolation`
  /// says where to run while the owner lives (`nil` once it is gone); `call`
  /// runs the handler with the owner, and answers `false` when it is gone.
  /// (Indirect: a box, so that the common case keeps the enum two words.)
  indirect case owned(
    isolation: @Sendable () -> (any Actor)??,
    call: @Sendable (_ isolation: isolated (any Actor)?, _ value: Value) async -> Bool)

  /// A handler for an actor that owns the pacer: it runs on the actor, which
  /// the pacer holds weakly.
  static func owned<Owner: Actor>(by owner: Owner, _ handler: @escaping @Sendable (isolated Owner, Value) -> Void)
    -> Self
  {
    let reference = WeakReference(owner)
    return .owned(
      isolation: { reference.object.map { .some($0) } },
      call: { _, value in
        guard let owner = reference.object else { return false }
        await handler(owner, value)
        return true
      })
  }

  /// A handler for an object that owns the pacer: it runs on the handler's
  /// isolation (the main actor for a main-actor model), with the owner, which
  /// the pacer holds weakly.
  static func owned<Owner: AnyObject & Sendable>(
    by owner: Owner, _ handler: @escaping @Sendable @isolated(any) (Owner, Value) -> Void
  ) -> Self {
    let reference = WeakReference(owner)
    let isolation = handler.isolation
    return .owned(
      isolation: { reference.object == nil ? nil : .some(isolation) },
      call: { _, value in
        guard let owner = reference.object else { return false }
        await handler(owner, value)
        return true
      })
  }

  /// The actor the next delivery runs on; `nil` inside when it has none, and
  /// `nil` outside when the owner is gone and nothing is to be delivered.
  @inlinable
  var isolation: (any Actor)?? {
    switch self {
    case .isolated(let function): .some(function.isolation)
    case .owned(let isolation, _): isolation()
    }
  }

  /// Calls the handler with `value` on `isolation`; `false` when its owner is gone.
  @inlinable
  func call(_ value: Value, isolation: isolated (any Actor)?) async -> Bool {
    switch self {
    case .isolated(let function):
      await function(value)
      return true
    case .owned(_, let call):
      return await call(isolation, value)
    }
  }
}

/// An object held weakly, readable from any thread.
final class WeakReference<Object: AnyObject & Sendable>: Sendable {
  weak let object: Object?

  init(_ object: Object) {
    self.object = object
  }

  /// Runs `body` with the object if it is still there; false when it is
  /// gone (an `async` handler's runner then ends).
  func ifPresent(_ body: (Object) async -> Void) async -> Bool {
    guard let object else { return false }
    await body(object)
    return true
  }
}
