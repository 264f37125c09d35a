//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

public import Pace
public import Testing

/// Checks that `input`, run through `stages` in virtual frames, produces `expected`.
///
/// On a mismatch it records an issue that shows the three diagrams one above
/// the other, frame aligned, and points at the first frame that differs:
///
///     @Test func searchFieldDebounce() {
///       expectMarbles(
///         "abcd----e---f-g-|",
///         through: DebounceStateMachine(interval: .frames(3)),
///         produce: "------d----e----[g|]")
///     }
///
///     Marble diagrams differ at frame 6:
///       input     abcd----e---f-g-|
///       expected  ------d----e----[g|]
///       actual    -------d---e----[g|]
///                       ^
///
/// A diagram that does not parse is recorded as an issue naming its column.
///
/// - Parameters:
///   - input: The input diagram.
///   - stages: The stages, run left to right.
///   - expected: The output diagram that the stages must produce.
///   - sourceLocation: Where a failure is reported; the caller by default.
/// - Returns: The actual output, or `nil` when a diagram did not parse.
@discardableResult
public func expectMarbles(
  _ input: String,
  through stages: any PacingStateMachine<String, VirtualInstant> & Sendable...,
  produce expected: String,
  sourceLocation: SourceLocation = #_sourceLocation
) -> MarbleDiagram? {
  expectMarbles(input, machine: PacingPipeline(machines: stages), produce: expected, sourceLocation: sourceLocation)
}

/// Checks that `input`, run through `machine` (a policy, or a
/// `PacingPipeline` of stages) in virtual frames, produces `expected`; see
/// ``expectMarbles(_:through:produce:sourceLocation:)-(_,PacingStateMachine<String,VirtualInstant>Sendable...,_,_)``.
///
///     expectMarbles("aab-b|", through: PacingPipeline(stages: [.distinct(), .debounce(for: .frames(1))]), produce: "-a-b-|")
///
/// - Parameters:
///   - input: The input diagram.
///   - machine: The machine, for instance stages already chained.
///   - expected: The output diagram that the machine must produce.
///   - sourceLocation: Where a failure is reported; the caller by default.
/// - Returns: The actual output, or `nil` when a diagram did not parse.
@discardableResult
public func expectMarbles(
  _ input: String,
  through machine: some PacingStateMachine<String, VirtualInstant>,
  produce expected: String,
  sourceLocation: SourceLocation = #_sourceLocation
) -> MarbleDiagram? {
  expectMarbles(input, machine: machine, produce: expected, sourceLocation: sourceLocation)
}

private func expectMarbles(
  _ input: String,
  machine: some PacingStateMachine<String, VirtualInstant>,
  produce expected: String,
  sourceLocation: SourceLocation
) -> MarbleDiagram? {
  let inputDiagram: MarbleDiagram
  let expectedDiagram: MarbleDiagram
  do {
    inputDiagram = try MarbleDiagram(parsing: input)
  } catch {
    Issue.record("Input diagram \"\(input)\": \(error)", sourceLocation: sourceLocation)
    return nil
  }
  do {
    expectedDiagram = try MarbleDiagram(parsing: expected)
  } catch {
    Issue.record("Expected diagram \"\(expected)\": \(error)", sourceLocation: sourceLocation)
    return nil
  }
  let actual = inputDiagram.run(through: machine)
  if actual != expectedDiagram {
    Issue.record(
      Comment(rawValue: MarbleMismatch(input: inputDiagram, expected: expectedDiagram, actual: actual).report),
      sourceLocation: sourceLocation)
  }
  return actual
}

/// The report of a marble assertion that failed.
struct MarbleMismatch {
  var input: MarbleDiagram
  var expected: MarbleDiagram
  var actual: MarbleDiagram

  /// The first frame whose events differ.
  var firstDifferentFrame: Int {
    let last = max(expected.lastFrame ?? 0, actual.lastFrame ?? 0)
    return (0...last).first { expected.events(at: $0) != actual.events(at: $0) } ?? last
  }

  var report: String {
    let frame = firstDifferentFrame
    let lines = MarbleDiagram.aligned([input, expected, actual])
    // The caret goes under the frame's column: the width of the frames before it.
    let prefix = MarbleDiagram.aligned([
      MarbleDiagram(entries: input.entries.filter { $0.frame < frame } + [.init(frame: frame, event: .finish)]),
      MarbleDiagram(entries: expected.entries.filter { $0.frame < frame } + [.init(frame: frame, event: .finish)]),
      MarbleDiagram(entries: actual.entries.filter { $0.frame < frame } + [.init(frame: frame, event: .finish)]),
    ])
    let caretColumn = prefix.map(\.count).max().map { $0 - 1 } ?? 0
    return """
      Marble diagrams differ at frame \(frame):
        input     \(lines[0])
        expected  \(lines[1])
        actual    \(lines[2])
                  \(String(repeating: " ", count: caretColumn))^
      """
  }
}
