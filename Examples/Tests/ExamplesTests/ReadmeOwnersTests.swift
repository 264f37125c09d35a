//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Foundation
import Pace
import Synchronization
import Testing

// The README's "Pacing closures" examples, pasted as a user would, on the real
// clock: a main-actor model, an actor and a class, each owning its pacer.

@MainActor final class SearchViewModel {
  var query = ""
  private lazy var search = Pacer(.debounce(for: .milliseconds(300)), owner: self) { @MainActor model, text in
    model.query = text  // on the main actor, with the model, which the pacer holds weakly
  }

  func textChanged(_ text: String) { search.send(text) }
}

actor DraftStore {
  private(set) var saved: [String] = []
  private lazy var saves = Pacer(.debounce(for: .seconds(1), edges: .trailing(maxWait: .seconds(10))), owner: self) {
    store, draft in store.persist(draft)  // on the actor: no `await`, and no cycle
  }

  func edited(_ draft: String) { saves.send(draft) }
  private func persist(_ draft: String) { saved.append(draft) }
}

final class Autosaver: Sendable {
  private let saves: Debouncer<String>

  init(storage: DraftStorage) {
    // Capture what the handler needs, not `self`: the autosaver owns the pacer.
    saves = Debouncer(for: .seconds(1)) { [storage] draft in storage.write(draft) }
  }

  func edited(_ draft: String) { saves.send(draft) }
}

final class DraftStorage: Sendable {
  private let drafts = Mutex<[String]>([])
  func write(_ draft: String) { drafts.withLock { $0.append(draft) } }
  var written: [String] { drafts.withLock { $0 } }
}

/// Waits on the real clock until `condition` holds, for at most `limit`, on the caller's isolation.
func eventually(
  within limit: Duration = .seconds(30), isolation: isolated (any Actor)? = #isolation,
  _ condition: () async -> Bool
) async -> Bool {
  let end = ContinuousClock.now + limit
  while ContinuousClock.now < end {
    if await condition() { return true }
    try? await Task.sleep(for: .milliseconds(20))
  }
  return await condition()
}

@Suite struct ReadmeOwnersTests {
  @MainActor @Test func mainActorModel_getsTheQuery_onTheMainActor() async {
    let model = SearchViewModel()
    model.textChanged("swi")
    model.textChanged("swift")
    #expect(await eventually { model.query == "swift" })
  }

  // That a freed owner's handler is not called is checked on a virtual clock,
  // with a recorder outside the owner, in the library's PacerLifetimeTests.
  @MainActor @Test func mainActorModel_withAPendingQuery_isFreed_noCycle() async throws {
    weak var weakModel: SearchViewModel?
    do {
      let model = SearchViewModel()
      model.textChanged("swift")
      weakModel = model
    }
    #expect(weakModel == nil)  // No cycle: the pacer holds the model weakly.
  }

  @Test func actor_persistsTheLastDraft() async {
    let store = DraftStore()
    await store.edited("d")
    await store.edited("dr")
    #expect(await eventually { await store.saved == ["dr"] })
  }

  @Test func actor_withAPendingDraft_isFreed_noCycle() async {
    weak var weakStore: DraftStore?
    do {
      let store = DraftStore()
      await store.edited("draft")
      weakStore = store
    }
    #expect(weakStore == nil)
  }

  @Test func class_writesTheLastDraft() async {
    let storage = DraftStorage()
    let saver = Autosaver(storage: storage)
    saver.edited("d")
    saver.edited("dr")
    #expect(await eventually { storage.written == ["dr"] })
  }

  @Test func class_isFreed_andItsHandlerIsNotCalledAfterwards() async throws {
    let storage = DraftStorage()
    weak var weakSaver: Autosaver?
    do {
      let saver = Autosaver(storage: storage)
      saver.edited("draft")
      weakSaver = saver
    }
    #expect(weakSaver == nil)
    try await Task.sleep(for: .milliseconds(1_500))  // Past the interval: the pending draft was dropped.
    #expect(storage.written.isEmpty)
  }
}

// The README's keyed example, on the real clock.
actor Notifier {
  private lazy var alerts = KeyedPacer(.throttle(for: .seconds(600), edges: .leading), owner: self) {
    (notifier, user: Int, alert: String) in notifier.deliver(alert, to: user)  // at most one per user per 10 minutes
  }

  func alert(_ alert: String, for user: Int) { alerts.send(alert, for: user) }
  func deliver(_ alert: String, to user: Int) { delivered.yield("\(user): \(alert)") }

  // For the test: what was delivered, as it happens.
  let (deliveries, delivered) = AsyncStream<String>.makeStream()
}

@Suite struct ReadmeKeyedTests {
  @Test func theNotifier_deliversOneAlertPerUser() async {
    let notifier = Notifier()
    for (user, alert) in [(1, "a"), (2, "b"), (1, "c"), (2, "d"), (3, "e")] { await notifier.alert(alert, for: user) }
    var deliveries = notifier.deliveries.makeAsyncIterator()
    var seen: Set<String> = []
    for _ in 0..<3 { if let next = await deliveries.next() { seen.insert(next) } }
    #expect(seen == ["1: a", "2: b", "3: e"])  // The first of each user's; the rest fall in the window.
  }
}

// The README's keyed autosave with an `async` handler, on the real clock.
actor DocumentStore {
  let (saves, saved) = AsyncStream<String>.makeStream()

  func save(_ text: String, for document: UUID) async throws {
    try await Task.sleep(for: .milliseconds(20))  // A write that takes time.
    saved.yield(text)
  }
}

@Suite struct ReadmeKeyedAsyncTests {
  @Test func keyedAutosave_savesEachDocumentOnceAfterItsLastEdit_sideBySide() async {
    let store = DocumentStore()
    // 300 ms: each document's edits stay one burst however the machine pauses between them.
    let autosave = KeyedPacer(.debounce(for: .milliseconds(300)), onBusy: .queue) { (document: UUID, text: String) in
      try? await store.save(text, for: document)
    }
    let (first, second) = (UUID(), UUID())
    for text in ["a", "ab", "abc"] { autosave.send(text, for: first) }
    for text in ["x", "xy"] { autosave.send(text, for: second) }
    var saves = store.saves.makeAsyncIterator()
    var seen: Set<String> = []
    for _ in 0..<2 { if let next = await saves.next() { seen.insert(next) } }
    #expect(seen == ["abc", "xy"])  // Each document's last edit, once.
    withExtendedLifetime(autosave) {}
  }
}

// A main-actor model that owns a keyed pacer with an `async` handler, as the
// keyed pacer's DocC example: saves per file, never two of one file at once,
// on the main actor; the model is held weakly.
@MainActor final class FileEditor {
  private(set) var written: [String: [String]] = [:]
  let (writes, wrote) = AsyncStream<String>.makeStream()
  private lazy var saves = KeyedPacer(.debounce(for: .milliseconds(300)), onBusy: .restart, owner: self) {
    (fileEditor: FileEditor, file: String, text: String) in await fileEditor.write(text, to: file)
  }

  func edited(_ text: String, in file: String) { saves.send(text, for: file) }

  func write(_ text: String, to file: String) async {
    MainActor.assertIsolated()
    written[file, default: []].append(text)
    wrote.yield("\(file): \(text)")
  }
}

@Suite struct ReadmeKeyedOwnerTests {
  @MainActor @Test func aMainActorFileEditor_savesEachFilesLastEdit_onTheMainActor() async {
    let fileEditor = FileEditor()
    for text in ["a", "ab"] { fileEditor.edited(text, in: "one.txt") }
    fileEditor.edited("x", in: "two.txt")
    var writes = fileEditor.writes.makeAsyncIterator()
    var seen: Set<String> = []
    for _ in 0..<2 { if let next = await writes.next() { seen.insert(next) } }
    #expect(seen == ["one.txt: ab", "two.txt: x"])
    #expect(fileEditor.written == ["one.txt": ["ab"], "two.txt": ["x"]])
  }

  @MainActor @Test func aFileEditorThatIsGone_isNotKeptAliveByItsPacer() async throws {
    weak var weakFileEditor: FileEditor?
    do {
      let fileEditor = FileEditor()
      fileEditor.edited("draft", in: "one.txt")
      weakFileEditor = fileEditor
    }
    #expect(weakFileEditor == nil)  // The pacer holds its owner weakly; the pending save is dropped with it.
  }
}
