//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

public import Pace

/// Work that takes time, in marble notation: what an `OnBusy` policy does
/// with requests that come while earlier work still runs.
///
/// Two aligned diagrams: the requests, and under each request how many
/// frames its work takes (a digit, or a quoted number such as `'12'`):
///
///     requests  a-b-c---------
///     work      4-1-2
///
/// ``run(onBusy:)`` runs them through `OnBusyStateMachine` frame by frame
/// and returns what happened, as four diagrams:
///
///     queue     starts   a---c
///               ends     ----a-c
///               skips    ----b            (b waited; c replaced it)
///
/// The time rules are the pacing policies': within a frame, the requests
/// come first, in order, then the work that ends at that frame (so a request
/// at the frame where work ends finds it still running), earliest first. Work
/// of `n` frames started at frame `t` ends at frame `t + n`; work of 0 frames
/// ends in the frame it starts.
public struct WorkDiagram: Hashable, Sendable {
  /// A request and how long its work takes.
  public struct Request: Hashable, Sendable {
    /// Its name in the diagrams.
    public var name: String
    /// How many frames its work takes.
    public var frames: Int
  }

  /// The requests, by frame.
  public var requests: [(frame: Int, request: Request)] {
    entries.map { ($0.frame, $0.request) }
  }

  private struct Entry: Hashable, Sendable {
    var frame: Int
    var request: Request
  }

  private var entries: [Entry]

  /// Reads the requests and the work row.
  ///
  ///     let diagram = try WorkDiagram(requests: "a-b-c", work: "4-1-2")
  ///
  /// - Throws: ``MarbleParseError`` for a row that is not a diagram, a
  ///   request with no duration under it, or a duration that is not a
  ///   whole number of frames.
  public init(requests: String, work: String) throws(MarbleParseError) {
    let requestDiagram = try MarbleDiagram(parsing: requests)
    let workDiagram = try MarbleDiagram(parsing: work)
    var durations: [Int: Int] = [:]
    for entry in workDiagram.entries {
      guard case .value(let text) = entry.event, let frames = Int(text), frames >= 0 else {
        throw MarbleParseError(column: entry.frame + 1, reason: "the work row takes whole numbers of frames")
      }
      durations[entry.frame] = frames
    }
    entries = try requestDiagram.entries.map { entry throws(MarbleParseError) in
      guard case .value(let name) = entry.event else {
        throw MarbleParseError(column: entry.frame + 1, reason: "requests are values: no '|' or '^'")
      }
      guard let frames = durations[entry.frame] else {
        throw MarbleParseError(
          column: entry.frame + 1, reason: "request '\(name)' has no duration under it in the work row")
      }
      return Entry(frame: entry.frame, request: Request(name: name, frames: frames))
    }
  }

  /// Runs the requests through `OnBusyStateMachine` with `onBusy`.
  ///
  ///     let timeline = try WorkDiagram(requests: "a-b-c", work: "4-1-2").run(onBusy: .restart)
  ///     timeline.starts.description    // "a-b-c"
  ///     timeline.cancels.description   // "--a": b ended at 3, before c came
  public func run(onBusy: OnBusy) -> WorkTimeline {
    var machine = OnBusyStateMachine<Request>(onBusy)
    var running: [(generation: UInt64, request: Request, end: Int)] = []
    var timeline = (starts: [MarbleDiagram.Entry](), ends: [MarbleDiagram.Entry](), cancels: [MarbleDiagram.Entry](),
      skips: [MarbleDiagram.Entry]())
    func follow(_ action: OnBusyAction<Request>, at frame: Int) {
      func start(_ request: Request, _ generation: UInt64) {
        timeline.starts.append(.init(frame: frame, event: .value(request.name)))
        running.append((generation, request, frame + request.frames))
      }
      switch action {
      case .start(let request, let generation):
        start(request, generation)
      case .restart(let cancelling, let request, let generation):
        if let index = running.firstIndex(where: { $0.generation == cancelling }) {
          timeline.cancels.append(.init(frame: frame, event: .value(running.remove(at: index).request.name)))
        }
        start(request, generation)
      case .wait(let superseding):
        if let superseding { timeline.skips.append(.init(frame: frame, event: .value(superseding.name))) }
      case .drop(let request):
        timeline.skips.append(.init(frame: frame, event: .value(request.name)))
      case .none, .cancelAll:
        break
      }
    }
    var pending = entries[...]
    var frame = 0
    while !pending.isEmpty || !running.isEmpty {
      // Requests first…
      while let entry = pending.first, entry.frame == frame {
        pending.removeFirst()
        follow(machine.workRequested(entry.request), at: frame)
      }
      // …then the work that ends now, earliest first (what it starts may end now too).
      while let index = running.indices.min(by: { running[$0].end < running[$1].end }), running[index].end <= frame {
        let ended = running.remove(at: index)
        timeline.ends.append(.init(frame: frame, event: .value(ended.request.name)))
        follow(machine.workFinished(generation: ended.generation), at: frame)
      }
      frame += 1
    }
    return WorkTimeline(
      starts: MarbleDiagram(entries: timeline.starts), ends: MarbleDiagram(entries: timeline.ends),
      cancels: MarbleDiagram(entries: timeline.cancels), skips: MarbleDiagram(entries: timeline.skips))
  }
}

/// What an on-busy policy did with a ``WorkDiagram``'s requests.
///
///     starts   a---c       work started
///     ends     ----a-c     work ended by itself
///     cancels              work cancelled (restart)
///     skips    ----b       requests never run: dropped, or replaced while waiting
public struct WorkTimeline: Hashable, Sendable, CustomStringConvertible {
  /// Each request's name at the frame its work starts.
  public var starts: MarbleDiagram
  /// At the frame work ends by itself.
  public var ends: MarbleDiagram
  /// At the frame work is cancelled, because newer work restarted it.
  public var cancels: MarbleDiagram
  /// At the frame a request is known never to run: dropped, or replaced by
  /// a newer request while it waited.
  public var skips: MarbleDiagram

  /// Creates a timeline from its four diagrams.
  public init(starts: MarbleDiagram, ends: MarbleDiagram, cancels: MarbleDiagram, skips: MarbleDiagram) {
    self.starts = starts
    self.ends = ends
    self.cancels = cancels
    self.skips = skips
  }

  /// The four diagrams, labelled and aligned.
  public var description: String {
    let rows = MarbleDiagram.aligned([starts, ends, cancels, skips])
    return zip(["starts   ", "ends     ", "cancels  ", "skips    "], rows).map { label, row in
      (label + row).trailingSpacesTrimmed
    }.joined(separator: "\n")
  }
}

extension String {
  fileprivate var trailingSpacesTrimmed: String {
    String(self[..<(lastIndex { $0 != " " }.map { index(after: $0) } ?? startIndex)])
  }
}
