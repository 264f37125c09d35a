//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

public import Pace

extension MarbleDiagram {
  /// Runs this diagram as the input of `pipeline` in virtual frames and returns
  /// the output diagram.
  ///
  /// Frame `n` is ``VirtualInstant/frame(_:)``. The pipeline starts at frame 0;
  /// then, frame by frame, the inputs of the frame are handled in order and the
  /// timers due at or before it fire. The run goes on past the last input for as
  /// long as a timer is pending (an input that never finishes still has its
  /// trailing values emitted), and stops at the output's finish or failure. A
  /// timer whose stage neither acts nor moves its deadline is not fired again
  /// before the next input, so a faulty stage cannot make a run go on forever.
  ///
  ///     let input = try MarbleDiagram(parsing: "abcd----e---f-g-|")
  ///     let output = input.run(through: PacingPipeline([
  ///       try DebounceStateMachine<String, VirtualInstant>(interval: .frames(3))
  ///     ]))
  ///     output.description  // "------d----e----[g|]"
  public func run(through pipeline: PacingPipeline<String, VirtualInstant>) -> MarbleDiagram {
    var pipeline = pipeline
    var output: [Entry] = []
    func record(_ events: [PacingEvent<String>], at frame: Int) {
      for event in events {
        switch event {
        case .value(let value): output.append(Entry(frame: frame, event: .value(value)))
        case .finished: output.append(Entry(frame: frame, event: .finish))
        case .failed: output.append(Entry(frame: frame, event: .failure))
        }
      }
    }

    record(pipeline.start(at: .frame(0)), at: 0)
    var walk = MarbleFrameWalk(self)
    // Set when a timer fired and its stage neither acted nor moved its deadline:
    // that deadline is ignored until the next input, so a run always moves on.
    var stalled = false
    while !pipeline.isTerminated, let frame = walk.nextFrame(timer: stalled ? nil : pipeline.deadline?.frame) {
      let inputs: [PacingEvent<String>] = walk.takeEvents(at: frame).map { event in
        switch event {
        case .value(let value): .value(value)
        case .finish: .finished
        case .failure: .failed
        }
      }
      let deadlineBefore = pipeline.deadline
      record(pipeline.process(inputs, at: .frame(frame)), at: frame)
      stalled = inputs.isEmpty && pipeline.deadline.map { $0 == deadlineBefore && $0.frame <= frame } ?? false
    }
    return MarbleDiagram(entries: output)
  }

  /// Runs this diagram through the stages, left to right; see ``run(through:)-(PacingPipeline<String,VirtualInstant>)``.
  ///
  ///     let output = try MarbleDiagram(parsing: "aab-b|").run(through:
  ///       DistinctStateMachine<String, VirtualInstant>(),
  ///       try ThrottleStateMachine<String, VirtualInstant>(interval: .frames(2)))
  public func run(through stages: any PacingStateMachine<String, VirtualInstant>...) -> MarbleDiagram {
    run(through: PacingPipeline(stages))
  }
}
