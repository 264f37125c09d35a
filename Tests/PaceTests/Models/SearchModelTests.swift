//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Pace
import PaceTesting
import Testing

/// A backend whose responses come when the test says, in any order; a
/// response never stops for cancellation, so a stale one does arrive.
final class FakeSearchBackend: Sendable {
  struct Failure: Error {}

  private let gates = Gates<String>()
  let searched = Recorder<String>()
  private let arrivals: AsyncStream<String>.Continuation
  let arrived: AsyncStream<String>

  init() {
    (arrived, arrivals) = AsyncStream<String>.makeStream()
  }

  func gate(_ query: String) -> Gate {
    gates[query]
  }

  /// Answers every search, from now on at once.
  func answerAll() {
    gates.openAll()
  }

  /// Answers `query` once its gate opens; a query with "!" fails.
  @Sendable func search(_ query: String) async throws -> [String] {
    searched.record(query)
    arrivals.yield(query)
    await gate(query).pass()
    if query.contains("!") { throw Failure() }
    return ["\(query):1", "\(query):2"]
  }
}

@MainActor @Suite(.timeLimit(.minutes(3))) struct SearchModelTests {
  let clock = VirtualClock()
  let backend = FakeSearchBackend()
  let model: SearchModel<String>
  let events = LockedState<[SearchModel<String>.Event]>([])

  init() {
    model = SearchModel(debounce: .frames(3), clock: clock, search: backend.search)
    let events = events
    model.onEvent = { event in events.withLock { $0.append(event) } }
  }

  /// Types `text` and lets the typing pause.
  func type(_ text: String, pause: Bool = true) async {
    model.query = text
    if pause {
      clock.advance(by: .frames(3))
      await clock.settle()
    }
  }

  /// The results always belong to the query they are shown for.
  func expectConsistent(sourceLocation: SourceLocation = #_sourceLocation) {
    if let shown = model.resultsQuery {
      #expect(model.results == ["\(shown):1", "\(shown):2"], sourceLocation: sourceLocation)
    } else {
      #expect(model.results.isEmpty, sourceLocation: sourceLocation)
    }
  }

  @Test func outOfOrderResponses_neverShowAStaleResult() async {
    var arrivals = backend.arrived.makeAsyncIterator()
    await type("sw")
    #expect(await arrivals.next() == "sw")
    #expect(model.isLoading)
    await type("swift")
    #expect(await arrivals.next() == "swift")
    backend.gate("swift").open()  // The newer answer comes first…
    await model.waitUntilSearchesEnded()
    #expect(model.resultsQuery == "swift")
    backend.gate("sw").open()  // …and the older one after it.
    await model.waitUntilSearchesEnded()
    #expect(model.resultsQuery == "swift")
    #expect(!model.isLoading)
    expectConsistent()
    #expect(events.withLock { $0.contains(.cancelled("sw")) })
  }

  @Test func aResponseForAQueryThatMovedOn_isDropped() async {
    var arrivals = backend.arrived.makeAsyncIterator()
    await type("ab")
    #expect(await arrivals.next() == "ab")
    await type("abc", pause: false)  // Still typing: no new search yet.
    backend.gate("ab").open()
    await model.waitUntilSearchesEnded()
    #expect(model.resultsQuery == nil)  // "ab" is not what the field says.
    #expect(events.withLock { $0.last } == .discarded("ab"))
    clock.advance(by: .frames(3))
    await clock.settle()
    #expect(await arrivals.next() == "abc")
    backend.gate("abc").open()
    await model.waitUntilSearchesEnded()
    #expect(model.resultsQuery == "abc")
    expectConsistent()
  }

  @Test func anEmptyQuery_clearsAtOnce_andTheSearchInFlightNeverLands() async {
    var arrivals = backend.arrived.makeAsyncIterator()
    await type("ab")
    backend.gate("ab").open()
    #expect(await arrivals.next() == "ab")
    await model.waitUntilSearchesEnded()
    #expect(model.resultsQuery == "ab")
    await type("abc")
    #expect(await arrivals.next() == "abc")
    model.query = "  "  // Cleared: no pause needed.
    #expect(model.results.isEmpty && model.resultsQuery == nil && !model.isLoading)
    backend.gate("abc").open()
    await model.waitUntilSearchesEnded()
    #expect(model.results.isEmpty)
    #expect(events.withLock { $0.contains(.cancelled("abc")) })
  }

  @Test func aQueryEqualToTheLastSearched_isNotSearchedAgain_butIsAfterAClear() async {
    backend.gate("ab").open()
    await type("ab")
    await model.waitUntilSearchesEnded()
    await type("abc", pause: false)
    await type("ab")  // Back to "ab" before the pause: nothing new to search.
    await model.waitUntilSearchesEnded()
    #expect(backend.searched.all == ["ab"])
    #expect(events.withLock { $0.last } == .skipped("ab"))
    await type("")
    await type("ab")
    await model.waitUntilSearchesEnded()
    #expect(backend.searched.all == ["ab", "ab"])
    #expect(model.resultsQuery == "ab")
  }

  @Test func aFailure_setsError_andTheSameQueryCanBeRetried() async {
    backend.gate("x!").open()
    await type("x!")
    await model.waitUntilSearchesEnded()
    #expect(model.error is FakeSearchBackend.Failure)
    #expect(!model.isLoading)
    model.retry()
    #expect(model.error == nil && model.isLoading)
    await model.waitUntilSearchesEnded()
    #expect(backend.searched.all == ["x!", "x!"])
  }

  @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8])
  func randomTyping_withResponsesInRandomOrder_alwaysShowsResultsOfTheirOwnQuery(seed: UInt64) async {
    var random = SeededGenerator(seed: seed)
    let words = ["s", "sw", "swi", "swif", "swift", "swim", "", "ser", "serv", "server"]
    var open: Set<String> = []
    for _ in 0..<40 {
      await type(words.randomElement(using: &random)!, pause: Bool.random(using: &random))
      await clock.settle()
      // Answer some of the searches begun so far, in a random order.
      for query in Set(backend.searched.all).subtracting(open).shuffled(using: &random)
      where Bool.random(using: &random) {
        open.insert(query)
        backend.gate(query).open()
      }
      expectConsistent()
    }
    // Let everything settle: the last query is searched and shown.
    backend.answerAll()
    clock.advance(by: .frames(3))
    await clock.settle()
    await model.waitUntilSearchesEnded()
    expectConsistent()
    if model.query.isEmpty {
      #expect(model.resultsQuery == nil)
    } else {
      #expect(model.resultsQuery == model.query)
    }
    #expect(!model.isLoading)
  }

  @Test func aThousandQueryChanges_fromSeveralTasks_endShowingTheLastQuery_andEverySearchEnds() async {
    let searches = LockedState<(begun: Int, ended: Int)>((0, 0))
    let clock = clock
    // A pause of one frame, which the typists themselves let pass now and then.
    let model = SearchModel<String>(debounce: .frames(1), clock: clock) { query in
      searches.withLock { $0.begun += 1 }
      defer { searches.withLock { $0.ended += 1 } }
      await Task.yield()
      return ["\(query):1", "\(query):2"]
    }
    await withTaskGroup(of: Void.self) { group in
      for worker in 0..<4 {
        group.addTask {
          for index in 0..<250 {
            await MainActor.run { model.query = index % 50 == 0 ? "" : "q\(worker)-\(index % 17)" }
            if index % 3 == worker % 3 { clock.advance(by: .frames(1)) }
          }
        }
      }
    }
    model.query = "last"
    clock.advance(by: .frames(1))
    await clock.settle()
    await model.waitUntilSearchesEnded()
    #expect(model.resultsQuery == "last")
    #expect(model.results == ["last:1", "last:2"])
    let (begun, ended) = searches.withLock { ($0.begun, $0.ended) }
    #expect(begun == ended)  // No search left running.
    #expect(begun > 1 && begun < 1_000)
  }
}
