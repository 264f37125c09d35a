//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

public import Pace

extension MarbleDiagram {
  /// Runs this diagram as the input of `machine` in virtual frames and returns
  /// the output diagram.
  ///
  /// Frame `n` is ``VirtualInstant/frame(_:)``. The machine starts at frame 0;
  /// then, frame by frame, the inputs of the frame are handled in order and the
  /// timers due at or before it fire. The run goes on past the last input for as
  /// long as a timer is pending (an input that never finishes still has its
  /// trailing values emitted), and stops at the output's finish or failure. A
  /// timer whose machine neither acts nor moves its deadline is not fired again
  /// before the next input, so a faulty machine cannot make a run go on forever.
  ///
  ///     let input = try MarbleDiagram(parsing: "abcd----e---f-g-|")
  ///     let output = input.run(through: DebounceStateMachine<String, VirtualInstant>(interval: .frames(3)))
  ///     output.description  // "------d----e----[g|]"
  public func run(through machine: some PacingStateMachine<String, VirtualInstant>) -> MarbleDiagram {
    runMachine(machine)
  }

  private func runMachine(_ machine: some PacingStateMachine<String, VirtualInstant>) -> MarbleDiagram {
    var machine = machine
    var output: [Entry] = []
    var ended = false
    func record(_ action: PacingAction<String>, at frame: Int) {
      guard !ended else { return }
      for event in action { output.append(Entry(frame: frame, event: event)) }
      ended = action.terminates
    }

    record(machine.started(at: .frame(0)), at: 0)
    var walk = MarbleFrameWalk(self)
    // Set when a timer fired and its machine neither acted nor moved its
    // deadline: that deadline is ignored until the next input, so a run
    // always moves on.
    var stalled = false
    while !ended, let frame = walk.nextFrame(timer: stalled ? nil : machine.deadline?.frame) {
      let now = VirtualInstant.frame(frame)
      let inputs = walk.takeEvents(at: frame)
      for event in inputs where !ended {
        switch event {
        case .value(let value): record(machine.valueReceived(value, at: now), at: frame)
        case .finish: record(machine.upstreamFinished(at: now), at: frame)
        case .failure: record(machine.upstreamFailed(at: now), at: frame)
        }
      }
      stalled = false
      while !ended, let deadline = machine.deadline, deadline <= now {
        let action = machine.timerFired(at: now)
        record(action, at: frame)
        if action.isEmpty, machine.deadline == deadline {
          stalled = inputs.isEmpty
          break
        }
      }
    }
    return MarbleDiagram(entries: output)
  }

  /// Runs this diagram through the stages, left to right; see ``run(through:)-(PacingStateMachine<String,VirtualInstant>)``.
  ///
  ///     let output = try MarbleDiagram(parsing: "aab-b|").run(through:
  ///       DistinctStateMachine<String, VirtualInstant>(),
  ///       ThrottleStateMachine<String, VirtualInstant>(interval: .frames(2)))
  public func run(through stages: any PacingStateMachine<String, VirtualInstant> & Sendable...) -> MarbleDiagram {
    runMachine(PacingPipeline(stages))
  }

  /// Runs this diagram through stages written without a clock, left to right.
  ///
  ///     let output = try MarbleDiagram(parsing: "aab-b|").run(stages: [.distinct(), .throttle(for: .frames(2))])
  public func run(stages: [PacingStage<String>]) -> MarbleDiagram {
    runMachine(PacingPipeline<String, VirtualInstant>(stages: stages))
  }
}
