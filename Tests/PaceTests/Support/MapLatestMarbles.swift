//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Pace
import PaceTesting
import Testing

/// A map-latest marble case. Each element's operation works on the virtual
/// clock, then returns the element itself:
/// - a digit works that many frames; any other value `work` frames;
/// - `x` throws ``MapLatestMarbles/TransformFailure`` once its work is done;
/// - an uppercase letter ignores cancellation: superseded, it still works its
///   frames and returns (`X` throws) late, and nothing of it may come out.
struct MapLatestCase: Sendable, CustomTestStringConvertible {
  var input: String
  var work: Int
  var output: String

  init(_ input: String, work: Int = 3, _ output: String) {
    self.input = input
    self.work = work
    self.output = output
  }

  var testDescription: String { "\(input) → \(output) (work \(work))" }
}

enum MapLatestMarbles {
  struct TransformFailure: Error {}

  static func work(of value: String, default work: Int) -> Int {
    Int(value) ?? work
  }

  static func throwsError(_ value: String) -> Bool {
    value == "x" || value == "X"
  }

  static func ignoresCancellation(_ value: String) -> Bool {
    value.count == 1 && value.uppercased() == value && Int(value) == nil
  }

  /// The operation of the cases: it sleeps on `clock`, then returns its value or throws.
  static func operation(clock: VirtualClock, work: Int) -> @Sendable (String) async throws -> String {
    { value in
      let duration = Duration.frames(Self.work(of: value, default: work))
      if ignoresCancellation(value) {
        // A task of its own, which the operation's cancellation does not reach.
        await Task.immediate { try? await clock.sleep(for: duration) }.value
      } else {
        try await clock.sleep(for: duration)
      }
      if throwsError(value) { throw TransformFailure() }
      return value
    }
  }

  /// Runs `input` through `mapLatest` with the cases' operation, on a clock of its own.
  static func run(_ input: MarbleDiagram, work: Int) async -> (output: MarbleDiagram, clock: VirtualClock) {
    let clock = VirtualClock()
    let output = await input.run(on: clock) { base, clock in
      base.mapLatest(operation(clock: clock, work: work))
    }
    return (output, clock)
  }

  /// A reference model of the documented semantics, frame by frame, with no
  /// concurrency: what `mapLatest` must produce for `input`.
  static func reference(_ input: MarbleDiagram, work: Int) -> MarbleDiagram {
    var output: [MarbleDiagram.Entry] = []
    var current: (value: String, end: Int)?
    var lingering: [Int] = []  // The end frames of superseded operations that ignore cancellation.
    var baseFinished = false
    var end: MarbleEvent?
    func drop(_ operation: (value: String, end: Int)?) {
      if let operation, ignoresCancellation(operation.value) { lingering.append(operation.end) }
    }
    for frame in 0...((input.lastFrame ?? 0) + 20) {
      // The inputs of the frame first, then the operation due, then the end.
      for event in end == nil ? input.events(at: frame) : [] {
        switch event {
        case .value(let value):
          drop(current)
          current = (value, frame + Self.work(of: value, default: work))
        case .finish:
          baseFinished = true
        case .failure:
          drop(current)
          current = nil
          end = .failure
        }
      }
      if let operation = current, operation.end <= frame {
        current = nil
        if throwsError(operation.value) {
          end = .failure
        } else {
          output.append(.init(frame: frame, event: .value(operation.value)))
        }
      }
      if end == nil, baseFinished, current == nil { end = .finish }
      if let end, lingering.allSatisfy({ $0 <= frame }) {
        output.append(.init(frame: frame, event: end))
        break
      }
    }
    return MarbleDiagram(entries: output)
  }
}
