//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Pace
import Testing

/// The map-latest policy, event × state: what it answers, and what the
/// consumer gets next.
@Suite struct MapLatestStateMachineTests {
  enum Boom: Error, Equatable {
    case transform, base
  }

  typealias Machine = MapLatestStateMachine<String, Boom>
  typealias Action = Machine.Action
  typealias NextAction = Machine.NextAction

  enum Step: Sendable, CustomStringConvertible {
    case element
    case returned(UInt64, String)
    case threw(UInt64)
    case baseFinished
    case baseFailed
    case next
    case cancel

    var description: String {
      switch self {
      case .element: "element"
      case .returned(let generation, let value): "operation \(generation) returned \(value)"
      case .threw(let generation): "operation \(generation) threw"
      case .baseFinished: "base finished"
      case .baseFailed: "base failed"
      case .next: "next"
      case .cancel: "consumer cancelled"
      }
    }
  }

  /// What the machine answered: an action, or what `next()` does.
  enum Answer: Equatable, CustomStringConvertible {
    case action(Action)
    case next(NextAction)

    var description: String {
      switch self {
      case .action(let action): Self.render(action)
      case .next(let next): "next: \(Self.render(next))"
      }
    }

    static func render(_ result: Result<String?, Boom>?) -> String {
      switch result {
      case .success(let value?): "'" + value + "'"
      case .success(nil): "the end"
      case .failure(let error): "\(error) error"
      case nil: "nothing"
      }
    }

    static func render(_ action: Action) -> String {
      switch action {
      case .none: "none"
      case .startOperation(let generation, let cancelling):
        "start \(generation)" + render(cancelling: cancelling)
      case .resumeConsumer(let result): "resume with \(render(result))"
      case .end(let cancelling, let resuming):
        "end" + render(cancelling: cancelling) + ", resume with " + render(resuming)
      }
    }

    static func render(cancelling: UInt64?) -> String {
      cancelling.map { ", cancel \($0)" } ?? ""
    }

    static func render(_ next: NextAction) -> String {
      switch next {
      case .return(let result): "return \(render(result))"
      case .suspend: "suspend"
      }
    }
  }

  @discardableResult
  static func apply(_ step: Step, to machine: inout Machine) -> Answer {
    switch step {
    case .element: .action(machine.elementProduced())
    case .returned(let generation, let value):
      .action(machine.operationFinished(generation: generation, .success(value)))
    case .threw(let generation): .action(machine.operationFinished(generation: generation, .failure(.transform)))
    case .baseFinished: .action(machine.baseFinished())
    case .baseFailed: .action(machine.baseFailed(.base))
    case .next: .next(machine.nextRequested())
    case .cancel: .action(machine.consumerCancelled())
    }
  }

  struct Cell: Sendable, CustomTestStringConvertible {
    var state: String
    var setup: [Step]
    var event: Step
    var answer: Answer
    /// What `next()` does after the event; nil when the consumer waits then (a second call is invalid).
    var thenNext: NextAction?

    var testDescription: String {
      "\(event) when \(state) → \(answer)\(thenNext.map { ", then next: \(Answer.render($0))" } ?? "")"
    }
  }

  // The states, and how each is reached. Generations count from 1.
  static let idle: [Step] = []
  static let idleWaiting: [Step] = [.next]
  static let idleAfterAResult: [Step] = [.element, .returned(1, "a"), .next]
  static let running: [Step] = [.element]
  static let runningWaiting: [Step] = [.element, .next]
  static let runningLast: [Step] = [.element, .baseFinished]
  static let runningLastWaiting: [Step] = [.element, .baseFinished, .next]
  /// Operation 2 is current; operation 1, superseded, has not ended yet.
  static let runningWithStale: [Step] = [.element, .element]
  static let ready: [Step] = [.element, .returned(1, "a")]
  static let readyThenFinish: [Step] = [.element, .baseFinished, .returned(1, "a")]
  static let readyThenFailure: [Step] = [.element, .returned(1, "a"), .baseFailed]
  /// The transform threw; superseded operation 1 has not ended yet.
  static let endingWithStale: [Step] = [.element, .element, .threw(2)]
  static let endingWithStaleWaiting: [Step] = [.element, .element, .next, .threw(2)]
  static let endingDeliverable: [Step] = [.element, .threw(1)]
  static let finished: [Step] = [.element, .cancel]

  static let a: Result<String?, Boom> = .success("a")
  static let end: Result<String?, Boom> = .success(nil)

  static let cells: [Cell] = [
    // elementProduced: the element's operation starts, and supersedes what runs or waits.
    Cell(
      state: "idle", setup: idle, event: .element, answer: .action(.startOperation(generation: 1, cancelling: nil)),
      thenNext: .suspend),
    Cell(
      state: "idle after a result", setup: idleAfterAResult, event: .element,
      answer: .action(.startOperation(generation: 2, cancelling: nil)), thenNext: .suspend),
    Cell(
      state: "running", setup: running, event: .element,
      answer: .action(.startOperation(generation: 2, cancelling: 1)), thenNext: .suspend),
    Cell(
      state: "running, consumer waiting", setup: runningWaiting, event: .element,
      answer: .action(.startOperation(generation: 2, cancelling: 1))),
    Cell(
      state: "ready", setup: ready, event: .element, answer: .action(.startOperation(generation: 2, cancelling: nil)),
      thenNext: .suspend),
    Cell(
      state: "ending", setup: endingDeliverable, event: .element, answer: .action(.none),
      thenNext: .return(.failure(.transform))),
    Cell(state: "finished", setup: finished, event: .element, answer: .action(.none), thenNext: .return(end)),

    // operationFinished: the current operation's result comes out; a superseded one's never does.
    Cell(state: "running", setup: running, event: .returned(1, "a"), answer: .action(.none), thenNext: .return(a)),
    Cell(
      state: "running, consumer waiting", setup: runningWaiting, event: .returned(1, "a"),
      answer: .action(.resumeConsumer(a)), thenNext: .suspend),
    Cell(
      state: "running the last, consumer waiting", setup: runningLastWaiting, event: .returned(1, "a"),
      answer: .action(.resumeConsumer(a)), thenNext: .return(end)),
    Cell(
      state: "running the last", setup: runningLast, event: .returned(1, "a"), answer: .action(.none),
      thenNext: .return(a)),
    Cell(
      state: "running", setup: running, event: .threw(1), answer: .action(.end(cancelling: nil, resuming: nil)),
      thenNext: .return(.failure(.transform))),
    Cell(
      state: "running, consumer waiting", setup: runningWaiting, event: .threw(1),
      answer: .action(.end(cancelling: nil, resuming: .failure(.transform))), thenNext: .return(end)),
    Cell(
      state: "running 2, 1 superseded", setup: runningWithStale, event: .returned(1, "a"), answer: .action(.none),
      thenNext: .suspend),
    Cell(
      state: "running 2, 1 superseded", setup: runningWithStale, event: .threw(1), answer: .action(.none),
      thenNext: .suspend),
    Cell(
      state: "ready with 2's result, 1 superseded", setup: [.element, .element, .returned(2, "b")],
      event: .returned(1, "a"), answer: .action(.none), thenNext: .return(.success("b"))),
    Cell(
      state: "ending, 1 superseded", setup: endingWithStale, event: .returned(1, "a"), answer: .action(.none),
      thenNext: .return(.failure(.transform))),
    Cell(
      state: "ending, 1 superseded, consumer waiting", setup: endingWithStaleWaiting, event: .returned(1, "a"),
      answer: .action(.resumeConsumer(.failure(.transform))), thenNext: .return(end)),
    Cell(state: "finished", setup: finished, event: .returned(1, "a"), answer: .action(.none), thenNext: .return(end)),

    // baseFinished: the finish waits for the running operation and the result that waits.
    Cell(
      state: "idle", setup: idle, event: .baseFinished, answer: .action(.end(cancelling: nil, resuming: nil)),
      thenNext: .return(end)),
    Cell(
      state: "idle, consumer waiting", setup: idleWaiting, event: .baseFinished,
      answer: .action(.end(cancelling: nil, resuming: end)), thenNext: .return(end)),
    Cell(state: "running", setup: running, event: .baseFinished, answer: .action(.none), thenNext: .suspend),
    Cell(state: "ready", setup: ready, event: .baseFinished, answer: .action(.none), thenNext: .return(a)),
    Cell(
      state: "running 2, 1 superseded", setup: runningWithStale, event: .baseFinished, answer: .action(.none),
      thenNext: .suspend),
    Cell(
      state: "ending", setup: endingDeliverable, event: .baseFinished, answer: .action(.none),
      thenNext: .return(.failure(.transform))),
    Cell(state: "finished", setup: finished, event: .baseFinished, answer: .action(.none), thenNext: .return(end)),

    // baseFailed: the running operation is cancelled and dropped; a result out already comes first.
    Cell(
      state: "idle", setup: idle, event: .baseFailed, answer: .action(.end(cancelling: nil, resuming: nil)),
      thenNext: .return(.failure(.base))),
    Cell(
      state: "idle, consumer waiting", setup: idleWaiting, event: .baseFailed,
      answer: .action(.end(cancelling: nil, resuming: .failure(.base))), thenNext: .return(end)),
    Cell(
      state: "running", setup: running, event: .baseFailed, answer: .action(.end(cancelling: 1, resuming: nil)),
      thenNext: .suspend),
    Cell(
      state: "running, consumer waiting", setup: runningWaiting, event: .baseFailed,
      answer: .action(.end(cancelling: 1, resuming: nil))),
    Cell(state: "ready", setup: ready, event: .baseFailed, answer: .action(.none), thenNext: .return(a)),
    Cell(
      state: "ending", setup: endingDeliverable, event: .baseFailed, answer: .action(.none),
      thenNext: .return(.failure(.transform))),
    Cell(state: "finished", setup: finished, event: .baseFailed, answer: .action(.none), thenNext: .return(end)),

    // consumerCancelled: the end at once, whatever runs or waits.
    Cell(
      state: "idle", setup: idle, event: .cancel, answer: .action(.end(cancelling: nil, resuming: nil)),
      thenNext: .return(end)),
    Cell(
      state: "running", setup: running, event: .cancel, answer: .action(.end(cancelling: 1, resuming: nil)),
      thenNext: .return(end)),
    Cell(
      state: "running, consumer waiting", setup: runningWaiting, event: .cancel,
      answer: .action(.end(cancelling: 1, resuming: end)), thenNext: .return(end)),
    Cell(
      state: "ready", setup: ready, event: .cancel, answer: .action(.end(cancelling: nil, resuming: nil)),
      thenNext: .return(end)),
    Cell(
      state: "ending, 1 superseded, consumer waiting", setup: endingWithStaleWaiting, event: .cancel,
      answer: .action(.end(cancelling: nil, resuming: end)), thenNext: .return(end)),
    Cell(state: "finished", setup: finished, event: .cancel, answer: .action(.none), thenNext: .return(end)),

    // nextRequested: what waits comes out; otherwise the consumer waits.
    Cell(state: "idle", setup: idle, event: .next, answer: .next(.suspend)),
    Cell(state: "running", setup: running, event: .next, answer: .next(.suspend)),
    Cell(state: "ready", setup: ready, event: .next, answer: .next(.return(a)), thenNext: .suspend),
    Cell(
      state: "ready, then the finish", setup: readyThenFinish, event: .next, answer: .next(.return(a)),
      thenNext: .return(end)),
    Cell(
      state: "ready, then the failure", setup: readyThenFailure, event: .next, answer: .next(.return(a)),
      thenNext: .return(.failure(.base))),
    Cell(
      state: "ending", setup: endingDeliverable, event: .next, answer: .next(.return(.failure(.transform))),
      thenNext: .return(end)),
    Cell(state: "ending, 1 superseded", setup: endingWithStale, event: .next, answer: .next(.suspend)),
    Cell(state: "finished", setup: finished, event: .next, answer: .next(.return(end)), thenNext: .return(end)),
  ]

  @Test(arguments: cells)
  func cell(_ cell: Cell) {
    var machine = Machine()
    for step in cell.setup { Self.apply(step, to: &machine) }
    #expect(Self.apply(cell.event, to: &machine) == cell.answer)
    if let thenNext = cell.thenNext {
      #expect(machine.nextRequested() == thenNext)
    }
  }

  @Test func latestWinsByGeneration_neverByComparingResults() {
    var machine = Machine()
    _ = machine.elementProduced()
    _ = machine.elementProduced()
    _ = machine.nextRequested()
    // Operation 1 returns the very value operation 2 will: it is still stale.
    #expect(machine.operationFinished(generation: 1, .success("same")) == .none)
    #expect(machine.runningGeneration == 2)
    #expect(machine.operationFinished(generation: 2, .success("same")) == .resumeConsumer(.success("same")))
  }

  @Test func theFinish_waitsForEverySupersededOperation() {
    var machine = Machine()
    _ = machine.elementProduced()  // 1
    _ = machine.elementProduced()  // 2; 1 ignores its cancellation
    _ = machine.baseFinished()
    #expect(machine.operationFinished(generation: 2, .success("b")) == .none)
    #expect(machine.nextRequested() == .return(.success("b")))
    #expect(!machine.hasOutput)
    #expect(machine.nextRequested() == .suspend)  // 1 still runs: no finish yet.
    #expect(machine.operationFinished(generation: 1, .success("a")) == .resumeConsumer(.success(nil)))
    #expect(machine.hasOutput)
  }
}
