//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Pace
import PaceTesting
import Testing

/// An event sent to a state machine in a synchronous test, at a frame.
enum StateMachineStep: Sendable, CustomStringConvertible {
  case value(String, at: Int)
  case timer(at: Int)
  case finish(at: Int)
  case fail(at: Int)
  case flush(at: Int)
  case cancel

  var description: String {
    switch self {
    case .value(let value, let frame): "value \(value) at \(frame)"
    case .timer(let frame): "timer at \(frame)"
    case .finish(let frame): "finish at \(frame)"
    case .fail(let frame): "failure at \(frame)"
    case .flush(let frame): "flush at \(frame)"
    case .cancel: "cancel"
    }
  }
}

extension PacingStateMachine where Value == String, Instant == VirtualInstant {
  @discardableResult
  mutating func apply(_ step: StateMachineStep) -> PacingAction<String> {
    switch step {
    case .value(let value, let frame): valueReceived(value, at: .frame(frame))
    case .timer(let frame): timerFired(at: .frame(frame))
    case .finish(let frame): upstreamFinished(at: .frame(frame))
    case .fail(let frame): upstreamFailed(at: .frame(frame))
    case .flush(let frame): flushRequested(at: .frame(frame))
    // A single policy's cancel does not depend on the time: it only drops.
    case .cancel: cancelled(at: .frame(0))
    }
  }
}

/// One cell of an event × state table: how the state is reached, the event, and
/// what the machine must answer and wait for afterwards.
struct StateMachineCell: Sendable, CustomTestStringConvertible {
  var state: String
  var setup: [StateMachineStep]
  var event: StateMachineStep
  var action: PacingAction<String>
  /// The frame of the deadline after the event, or nil for none.
  var deadline: Int?

  var testDescription: String {
    "\(event) when \(state) → \(action), deadline \(deadline.map(String.init) ?? "none")"
  }
}
