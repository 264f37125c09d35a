//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Observation
import Pace
import Synchronization
import Testing

// The README's task-coordination examples, pasted as a user would (types
// renamed where two examples share a name), on the real clock.

@MainActor final class DebouncedSearchViewModel {
  var results: [String] = []
  private let search = DebouncedTask<String, [String]>(for: .milliseconds(300)) { query in
    try await api.search(query)
  }

  func queryChanged(_ query: String) async {
    do {
      results = try await search.run(query)
    } catch {
      // CancellationError: a newer keystroke came within 300 ms, or a newer search started.
    }
  }
}

actor AutosavingDraftStore {
  private lazy var autosave = Pacer(.debounce(for: .seconds(1)), onBusy: .queue, owner: self) {
    store, draft in await store.save(draft)  // on the actor, held weakly
  }

  func edited(_ draft: String) { autosave.send(draft) }
  func save(_ draft: String) async { saves.yield(draft) }

  // For the test: what was saved, as it happens.
  let (saved, saves) = AsyncStream<String>.makeStream()
}

/// Returns once `condition` holds, woken by Observation rather than by polling.
@MainActor func waitUntil(_ condition: @escaping @MainActor () -> Bool) async {
  while !condition() {
    await withCheckedContinuation { continuation in
      withObservationTracking { _ = condition() } onChange: { continuation.resume() }
    }
  }
}

@Suite struct ReadmeTaskCoordinationTests {
  @MainActor @Test func theDebouncedSearch_runsOnceForTheLastQuery() async {
    let model = DebouncedSearchViewModel()
    let typing = ["s", "sw", "swift"].map { query in Task { await model.queryChanged(query) } }
    for keystroke in typing { await keystroke.value }
    // One search ran, for the call that reached the debounce last (tasks may begin in any order).
    #expect([["s result"], ["sw result"], ["swift result"]].contains(model.results))
  }

  @Test func autosave_savesTheLastEditOnce() async {
    let store = AutosavingDraftStore()
    for draft in ["H", "He", "Hello"] { await store.edited(draft) }
    var saved = store.saved.makeAsyncIterator()
    #expect(await saved.next() == "Hello")
  }

  @MainActor @Test func theSearchModel_showsTheLastQuerysResults() async {
    let model = SearchModel<String>(debounce: .milliseconds(50)) { query in try await api.search(query) }
    model.query = "sw"
    model.query = "swift"
    await waitUntil { model.resultsQuery == "swift" }  // Observation works on Linux too.
    #expect(model.results == ["swift result"])
    model.query = ""
    #expect(model.results.isEmpty)  // Cleared at once.
  }

  @Test func mapLatest_searchesTheSettledQueries() async throws {
    let (queries, typed) = AsyncStream<String>.makeStream()
    for query in ["s", "sw", "swift"] { typed.yield(query) }
    typed.finish()
    var shown: [[String]] = []
    for try await results in queries.debounced(for: .milliseconds(50)).mapLatest({ try await api.search($0) }) {
      shown.append(results)
    }
    #expect(shown == [["swift result"]])
  }
}
