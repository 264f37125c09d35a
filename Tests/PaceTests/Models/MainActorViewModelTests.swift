//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Observation
import Pace
import PaceTesting
import Testing

// A main-actor view model that uses every task-coordination type, as an app
// would: Swift 6 mode, no `@unchecked Sendable`, no `nonisolated(unsafe)`, no
// warnings. The backend is a value; every closure handed to Pace is
// `@Sendable` and captures only `Sendable` things.

/// The app's backend: answers at once, and counts what it was asked.
struct LibraryBackend: Sendable {
  let calls = Recorder<String>()

  func search(_ query: String) async throws -> [String] {
    calls.record("search \(query)")
    return ["\(query) book"]
  }

  func suggestions(_ prefix: String) async throws -> [String] {
    calls.record("suggest \(prefix)")
    return ["\(prefix)…"]
  }

  func details(_ id: Int) async throws -> String {
    calls.record("details \(id)")
    return "book \(id)"
  }

  func cover(_ id: Int) async throws -> String {
    calls.record("cover \(id)")
    await Task.yield()
    return "cover \(id)"
  }

  func page(_ cursor: Int?) async throws -> Page<String, Int> {
    let number = cursor ?? 0
    calls.record("page \(number)")
    return Page(items: ["item \(number)"], next: number < 2 ? number + 1 : nil)
  }

  func save(_ draft: String) async {
    calls.record("save \(draft)")
  }
}

@MainActor @Observable final class LibraryViewModel {
  let backend: LibraryBackend
  let search: SearchModel<String>
  let pages: Pager<String, Int>
  var suggestions: [String] = []
  var details = ""
  var covers: [String] = []
  var progress = 0.0
  var saved: [String] = []

  @ObservationIgnored private let suggest: DebouncedTask<String, [String]>
  @ObservationIgnored private let latestDetails = LatestTask<String>()
  @ObservationIgnored private let coverLoads = SingleFlight<Int, String>()
  @ObservationIgnored private var autosave: Debouncer<String>?
  @ObservationIgnored private var progressUpdates: Throttler<Double>?

  init(backend: LibraryBackend, clock: VirtualClock) {
    self.backend = backend
    search = SearchModel(debounce: .frames(3), clock: clock, search: backend.search)
    pages = Pager(loadPage: backend.page)
    suggest = DebouncedTask(for: .frames(2), clock: clock, operation: backend.suggestions)
    autosave = Debouncer(.debounce(for: .frames(5)), clock: clock, onBusy: .queue, owner: self) { @MainActor model, draft in
      await model.backend.save(draft)
      model.saved.append(draft)
    }
    progressUpdates = Throttler(.throttle(for: .frames(4)), clock: clock, owner: self) { @MainActor model, value in
      model.progress = value
    }
  }

  func prefixTyped(_ prefix: String) async {
    do {
      suggestions = try await suggest.run(prefix)
    } catch {
      // Superseded by a newer prefix.
    }
  }

  /// Returns once `count` prefixes have reached the debounce; for the test.
  func suggestionsRequested(_ count: Int) async {
    await suggest.waitUntil(calls: count)
  }

  func bookSelected(_ id: Int) async {
    let backend = backend
    do {
      details = try await latestDetails.run { try await backend.details(id) }
    } catch {
      // A newer selection won.
    }
  }

  func coversNeeded(_ ids: [Int]) async throws {
    let (backend, loads) = (backend, coverLoads)
    covers = try await withThrowingTaskGroup(of: String.self) { group in
      for id in ids { group.addTask { try await loads.run(key: id) { try await backend.cover(id) } } }
      var covers: [String] = []
      for try await cover in group { covers.append(cover) }
      return covers.sorted()
    }
  }

  func descriptions(of selections: AsyncStream<Int>) async throws -> [String] {
    let backend = backend
    var shown: [String] = []
    for try await text in selections.mapLatest({ try await backend.details($0) }) { shown.append(text) }
    return shown
  }

  func edited(_ draft: String) { autosave?.send(draft) }
  func progressed(_ value: Double) { progressUpdates?.send(value) }
}

@MainActor @Suite(.timeLimit(.minutes(3))) struct MainActorViewModelTests {
  let clock = VirtualClock()
  let backend = LibraryBackend()

  @Test func everyTypeWorks_fromOneMainActorModel() async throws {
    let model = LibraryViewModel(backend: backend, clock: clock)

    // SearchModel: debounce, latest wins, results for their query.
    model.search.query = "swi"
    model.search.query = "swift"
    clock.advance(by: .frames(3))
    await clock.settle()
    await model.search.waitUntilSearchesEnded()
    #expect(model.search.resultsQuery == "swift" && model.search.results == ["swift book"])

    // DebouncedTask: the superseded prefix is cancelled, the last one runs.
    let first = Task { await model.prefixTyped("sw") }
    await model.suggestionsRequested(1)
    let second = Task { await model.prefixTyped("swi") }
    await first.value  // Superseded when "swi" came.
    clock.advance(by: .frames(2))
    await second.value
    #expect(model.suggestions == ["swi…"])

    // LatestTask: the last selection's details.
    await model.bookSelected(1)
    await model.bookSelected(2)
    #expect(model.details == "book 2")

    // SingleFlight: two callers of one cover share a load.
    try await model.coversNeeded([7, 7, 8])
    #expect(model.covers == ["cover 7", "cover 7", "cover 8"])

    // Pager: pages in order, then the end.
    for _ in 0..<4 {
      model.pages.loadNext()
      await model.pages.waitUntilIdle()
    }
    #expect(model.pages.items == ["item 0", "item 1", "item 2"])
    #expect(!model.pages.hasMore)

    // mapLatest over a stream of selections.
    let (selections, selected) = AsyncStream<Int>.makeStream()
    selected.yield(5)
    selected.finish()
    #expect(try await model.descriptions(of: selections) == ["book 5"])

    // A Debouncer with an async handler and a Throttler, owned by the model.
    model.edited("draft 1")
    model.edited("draft 2")
    model.progressed(0.5)  // The leading edge: at once.
    clock.advance(by: .frames(5))
    await clock.settle()
    await waitUntil { model.saved == ["draft 2"] && model.progress == 0.5 }
    #expect(backend.calls.all.filter { $0.hasPrefix("save") } == ["save draft 2"])
  }

  /// Returns once `condition` holds, woken by Observation.
  func waitUntil(_ condition: @escaping @MainActor () -> Bool) async {
    while !condition() {
      await withCheckedContinuation { continuation in
        withObservationTracking { _ = condition() } onChange: { continuation.resume() }
      }
    }
  }
}
