//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// The one loop that drains a driver's outbox into its handler, for a pacer
/// (``PacerDriver``) and a keyed pacer (``KeyedPacerStorage``) alike: takes
/// the next value under the driver's lock (`next`, which also ends the
/// delivery when none is left), calls the handler outside it, on
/// `isolation`, one value at a time and in order, and shuts the driver down
/// when the handler's owner is gone.
@inlinable
func deliverEach<Value: Sendable>(
  isolation: isolated (any Actor)?,
  next: () -> (value: Value, handler: PacerHandler<Value>)?,
  ownerGone: () -> Void
) async {
  while let (value, handler) = next() {
    if await !handler.call(value, isolation: isolation) { ownerGone() }  // The loop ends at the next take.
  }
}
