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

@MainActor final class Editor {
  private lazy var saves = DebouncedTask<String, Void>(for: .seconds(1), owner: self) { editor, draft in
    try await editor.persist(draft)
  }

  func edited(_ draft: String) async throws { try await saves.run(draft) }
  func persist(_ draft: String) async throws { persisted.append(draft) }

  // For the test: what was persisted.
  var persisted: [String] = []
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

  @MainActor @Test func theEditorsDebouncedTask_persistsTheLastDraftOnItsOwner() async throws {
    let editor = Editor()
    let drafts = ["H", "He", "Hello"].map { draft in Task { try await editor.edited(draft) } }
    var superseded = 0
    for draft in drafts {
      do { try await draft.value } catch is CancellationError { superseded += 1 }
    }
    #expect(superseded == 2)  // The burst's earlier drafts: superseded when the next came.
    #expect(editor.persisted.count == 1)  // Once, on the main actor, for the draft that came last.
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
