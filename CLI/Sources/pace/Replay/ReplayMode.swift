//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Pace

/// `pace --replay STAGE...`: runs the stages on a log's own clock, as fast as
/// it reads, and writes each emitted line with the time it came out.
///
/// Each line starts with a timestamp (RFC 3339, or seconds since the epoch);
/// it arrives at that instant, and an emitted line carries its emission
/// instant, written as its own timestamp was. The order of events is the
/// ``LinePacer``'s (one run, or one per key with `--by`), as in marble diagrams. At the end of the log, time
/// runs on until nothing is pending: a trailing line comes out at the time it
/// was due, as it would have live.
enum ReplayMode {
  /// A line that cannot be replayed: printed as a usage error.
  struct InputError: Error {
    var message: String
  }

  static func run(
    stages: [PacingStage<ReplayLine>], by pattern: KeyPattern? = nil, counts: StageCounts?, input: Int32 = 0,
    into writer: inout LineWriter
  ) throws(InputError) {
    var machines = stages.map { $0.makeStateMachine(for: ReplayInstant.self) }
    if let counts { machines = counts.counting(machines) }
    var runner = LinePacer(PacingPipeline(machines: machines), by: pattern) { $0.content.text }
    func emit(_ line: ReplayLine, key _: String?, at instant: ReplayInstant) {
      writer.write(bytes: line.timestamp.formatted(instant).utf8)
      if let separator = line.separator { writer.write(bytes: CollectionOfOne(separator)) }
      writer.write(line.content)
    }
    var reader = LineReader(descriptor: input)
    var lineNumber = 0
    /// The last event's instant, and its line's number.
    var previous: (instant: ReplayInstant, line: Int)?
    var failure: InputError?
    var inputIsOpen = true
    while inputIsOpen, failure == nil {
      do {
        inputIsOpen = try reader.read { line in
          guard failure == nil else { return }
          lineNumber += 1
          // A blank line holds no event: skipped, as a log's trailing one.
          if line.count == 0 || (line.count == 1 && line.withBytes({ $0[0] }) == UInt8(ascii: "\r")) { return }
          switch Self.replayLine(line, number: lineNumber, after: previous) {
          case .success(let replayed):
            if previous == nil { runner.start(at: replayed.timestamp.instant, emit) }
            previous = (replayed.timestamp.instant, lineNumber)
            runner.send(replayed, at: replayed.timestamp.instant, emit)
          case .failure(let error):
            failure = error
          }
        }
      } catch {
        throw InputError(message: "cannot read the input: \(error.message)")
      }
      writer.flush()
    }
    if let failure { throw failure }
    runner.fireAllTimers(emit)
    writer.flush()
  }

  /// Line `number` read as a timestamp and the rest, or why it cannot be.
  private static func replayLine(
    _ line: Line, number: Int, after previous: (instant: ReplayInstant, line: Int)?
  ) -> Result<ReplayLine, InputError> {
    line.withBytes { bytes in
      guard let (timestamp, length) = ReplayTimestamp.parse(bytes) else {
        let start = String(decoding: bytes.prefix(32), as: UTF8.self)
        return .failure(
          InputError(
            message:
              "line \(number) does not start with a timestamp (RFC 3339 such as 2026-11-24T09:30:00Z, "
              + "or seconds since the epoch such as 1764000000.25): '\(start)'"
          ))
      }
      if let previous, timestamp.instant < previous.instant {
        return .failure(
          InputError(
            message: "line \(number) is out of order: its timestamp is earlier than line \(previous.line)'s"))
      }
      let separator = length < bytes.count ? bytes[length] : nil
      let content = line.dropping(first: length + (separator == nil ? 0 : 1))
      return .success(ReplayLine(timestamp: timestamp, separator: separator, content: content))
    }
  }
}
