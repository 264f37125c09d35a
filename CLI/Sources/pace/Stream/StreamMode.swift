//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Pace

/// `pace STAGE...`: paces the lines of standard input in real time.
///
/// One loop on one thread: it reads whatever input there is, hands its lines
/// to the stages (a ``LinePacer``: one run, or one per key with `--by`) at
/// the instant the read returned, and
/// otherwise sleeps until the input or the stages' next deadline, whichever
/// comes first. When and what to emit is the policies' alone. At the end of
/// the input the finish rules apply (a debounce flushes at once, a throttle
/// keeps its rate), and the loop ends when nothing is pending; it ends at
/// once when the stages finish (`take`).
enum StreamMode {
  static func run<Sink: LineSink>(
    stages: [PacingStage<Line>], by pattern: KeyPattern? = nil, counts: StageCounts?, input: Int32 = 0,
    into sink: inout Sink
  ) throws(ReadError) {
    var machines = stages.map { $0.makeStateMachine(for: DriverInstant.self, converting: DriverDuration.init) }
    if let counts { machines = counts.counting(machines) }
    var runner = LinePacer(PacingPipeline(machines: machines), by: pattern) { $0.text }
    // Captures only `sink`: a captured `var` would be checked for exclusive
    // access at run time, line after line.
    func emit(_ line: Line, key: String?, at _: DriverInstant) {
      sink.emit(line, key: key)
    }
    var reader = LineReader(descriptor: input)
    var batch: [Line] = []
    runner.start(at: StreamClock.now, emit)
    var inputIsOpen = true
    while !runner.isTerminated {
      sink.flush()
      if inputIsOpen {
        if let deadline = runner.deadline, !InputWait.wait(for: input, until: deadline) {
          runner.fireTimers(through: StreamClock.now, emit)
          continue
        }
        // The lines of one read arrived together, when it returned: the
        // stages take them as one batch, each stage all of them in turn.
        inputIsOpen = try reader.read { batch.append($0) }
        let now = StreamClock.now
        runner.send(contentsOf: batch, at: now, emit)
        batch.removeAll(keepingCapacity: true)
        if !inputIsOpen { runner.finish(at: now, emit) }
        runner.fireTimers(through: now, emit)
      } else {
        guard let deadline = runner.deadline else { break }
        _ = InputWait.wait(for: nil, until: deadline)
        runner.fireTimers(through: StreamClock.now, emit)
      }
    }
    sink.flush()
  }
}
