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
    // The order within a frame (inputs, then the timers due) is the runner's,
    // the same as `pace`'s stream and replay modes.
    var runner = PacingRunner(machine)
    var output: [Entry] = []
    let record = { (event: MarbleEvent, instant: VirtualInstant) in
      output.append(Entry(frame: instant.frame, event: event))
    }
    runner.start(at: .frame(0), record)
    var walk = MarbleFrameWalk(self)
    while !runner.isTerminated, let frame = walk.nextFrame(timer: runner.deadline?.frame) {
      let now = VirtualInstant.frame(frame)
      for event in walk.takeEvents(at: frame) {
        switch event {
        case .value(let value): runner.send(value, at: now, record)
        case .finish: runner.finish(at: now, record)
        case .failure: runner.fail(at: now, record)
        }
      }
      runner.fireTimers(through: now, record)
    }
    return MarbleDiagram(entries: output)
  }

  /// Runs this diagram through the stages, left to right; see ``run(through:)-(PacingStateMachine<String,VirtualInstant>)``.
  ///
  ///     let output = try MarbleDiagram(parsing: "aab-b|").run(through:
  ///       DistinctStateMachine<String, VirtualInstant>(),
  ///       ThrottleStateMachine<String, VirtualInstant>(interval: .frames(2)))
  public func run(through stages: any PacingStateMachine<String, VirtualInstant> & Sendable...) -> MarbleDiagram {
    runMachine(PacingPipeline(machines: stages))
  }

  /// Runs this diagram through stages written without a clock, left to right.
  ///
  ///     let output = try MarbleDiagram(parsing: "aab-b|").run(stages: [.distinct(), .throttle(for: .frames(2))])
  public func run(stages: [PacingStage<String>]) -> MarbleDiagram {
    runMachine(PacingPipeline<String, VirtualInstant>(stages: stages))
  }

  /// Runs this diagram through stages per key: each value goes to the
  /// stages of its key, `key(value)`, and every key is paced as a run of its
  /// own (a `KeyedPacingRunner`); the output holds every key's values. A
  /// key's own finish (a `take`) does not end the output: its finish or
  /// failure comes when the input's has reached every key.
  ///
  ///     let output = try MarbleDiagram(parsing: "abab---a|").run(stages: [.debounce(for: .frames(2))]) { $0 }
  ///     output.description  // "----ab--[a|]"
  public func run<Key: Hashable>(stages: [PacingStage<String>], keyedBy key: (String) -> Key) -> MarbleDiagram {
    var runner = KeyedPacingRunner<Key, PacingPipeline<String, VirtualInstant>>(PacingPipeline(stages: stages))
    var output: [Entry] = []
    var ending: Entry?
    let record = { (_: Key, event: MarbleEvent, instant: VirtualInstant) in
      switch event {
      case .value: output.append(Entry(frame: instant.frame, event: event))
      case .finish, .failure: ending = Entry(frame: max(instant.frame, ending?.frame ?? 0), event: ending?.event ?? event)
      }
    }
    var walk = MarbleFrameWalk(self)
    while !runner.isTerminated, let frame = walk.nextFrame(timer: runner.deadline?.frame) {
      let now = VirtualInstant.frame(frame)
      for event in walk.takeEvents(at: frame) {
        switch event {
        case .value(let value): runner.send(value, for: key(value), at: now, record)
        case .finish, .failure:
          // The input's ending, at its frame unless a key ends later.
          ending = Entry(frame: frame, event: event)
          if case .finish = event { runner.finish(at: now, record) } else { runner.fail(at: now, record) }
        }
      }
      runner.fireTimers(through: now, record)
    }
    if runner.isTerminated, let ending { output.append(ending) }
    return MarbleDiagram(entries: output)
  }
}
