//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

@testable import PacePostgres
import Testing

/// The delivery room a worker shares between its fold loop and its delivery
/// loop, which run at once: what both may lease never exceeds the maximum.
@Suite struct FleetWorkStateTests {
  @Test func claimRoundInFlight_foldGetsOnlyWhatIsLeft() {
    var state = FleetWorkState()
    state.delivering = [1]
    let claim = state.reserveClaimRoom(4, lookingAround: true)
    #expect(claim == 3)
    // A fold starts while the claim's statement is in flight.
    let round = state.beginFoldRound()
    #expect(state.reserveFoldRoom(4, wanted: 4, round: round) == 0)
  }

  @Test func foldInFlight_claimRoundGetsOnlyWhatIsLeft() {
    var state = FleetWorkState()
    let round = state.beginFoldRound()
    #expect(state.reserveFoldRoom(2, wanted: 3, round: round) == 2)
    #expect(state.reserveClaimRoom(2, lookingAround: true) == 0)
    // The fold leased one and handed it over; its reservation ends.
    state.endFoldRound(round)
    state.ready = [LeasedEmission(id: 7, key: "k", value: "1", emittedMicros: 0, delivery: 1)]
    #expect(state.reserveClaimRoom(2, lookingAround: true) == 1)
  }

  @Test func lookWhileAFireRoundHoldsTheRoom_isWokenWhenTheRoundEnds() {
    var state = FleetWorkState()
    let round = state.beginFoldRound()
    // A fire round reserves all the free room for its one statement.
    #expect(state.reserveFoldRoom(4, wanted: 4, round: round) == 4)
    // A look meanwhile finds none, and is put off (`deliveryLooks`).
    #expect(state.reserveClaimRoom(4, lookingAround: true) == 0)
    // The round gives the room back: the delivery loop must look again.
    let woken = state.endFoldRound(round)
    #expect(woken)
    // Once: the next round owes no wake.
    let next = state.beginFoldRound()
    #expect(state.reserveFoldRoom(4, wanted: 4, round: next) == 4)
    let wokenAgain = state.endFoldRound(next)
    #expect(!wokenAgain)
  }

  @Test func roundThatHoldsNoRoom_owesNoWake() {
    var state = FleetWorkState()
    let round = state.beginFoldRound()  // a fold that emits nothing reserves nothing
    #expect(state.reserveClaimRoom(4, lookingAround: true) == 4)
    let woken = state.endFoldRound(round)
    #expect(!woken)
  }

  @Test func staleRoundsEnd_neitherWakesNorClearsTheCurrentRoundsNote() {
    var state = FleetWorkState()
    let old = state.beginFoldRound()
    let stale = state.endFoldRound(old)  // it ran out of time
    #expect(!stale)
    let next = state.beginFoldRound()
    #expect(state.reserveFoldRoom(4, wanted: 4, round: next) == 4)
    #expect(state.reserveClaimRoom(4, lookingAround: true) == 0)
    let late = state.endFoldRound(old)  // the old round's late answer
    #expect(!late)
    let woken = state.endFoldRound(next)
    #expect(woken)
  }

  @Test func roundThatDoesNotLookAround_waitsForNoFoldRoom() {
    var state = FleetWorkState()
    state.delivering = [1]
    state.finished = [1]
    let round = state.beginFoldRound()
    #expect(state.reserveFoldRoom(4, wanted: 4, round: round) == 3)
    // It claims only the next emission of the key it finished.
    #expect(state.reserveClaimRoom(4, lookingAround: false) == 1)
    let woken = state.endFoldRound(round)
    #expect(!woken)
  }

  @Test func untoldWait_isHandledOnlyUpToWhatTheTellingRoundKnew() {
    var state = FleetWorkState()
    #expect(!state.hasUntoldWait)
    state.untoldWaits += 1  // a fold left one waiting, untold
    let told = state.untoldWaits  // a delivery round starts telling of it
    state.untoldWaits += 1  // meanwhile, another fold leaves one more
    state.untoldWaitsHandled(upTo: told)
    #expect(state.hasUntoldWait)  // the later one is still to tell
    state.untoldWaitsHandled(upTo: state.untoldWaits)
    #expect(!state.hasUntoldWait)
    state.untoldWaitsHandled(upTo: told)  // a late answer of an older round changes nothing
    #expect(!state.hasUntoldWait)
  }

  @Test func finishedHandlers_countAsRoomForTheRoundThatRemovesThem() {
    var state = FleetWorkState()
    state.delivering = [1, 2]
    state.finished = [1, 2]
    #expect(state.reserveClaimRoom(2, lookingAround: true) == 2)
    // Until that round's statement answers, no fold leases into that room.
    #expect(state.reserveFoldRoom(2, wanted: 2, round: state.beginFoldRound()) == 0)
  }

  @Test func notLookingAround_reservesOnlyForTheNextOfEachFinishedKey() {
    var state = FleetWorkState()
    state.delivering = [1, 2]
    state.finished = [1]
    #expect(state.reserveClaimRoom(8, lookingAround: false) == 1)
    // The rest stays free for a fold meanwhile.
    #expect(state.reserveFoldRoom(8, wanted: 8, round: state.beginFoldRound()) == 5)
  }

  @Test func notLookingAroundWithNothingFinished_reservesNothing() {
    var state = FleetWorkState()
    #expect(state.reserveClaimRoom(8, lookingAround: false) == 0)
    #expect(state.reserved == 0)
  }

  @Test func claimsNothing_reservesNothing() {
    var state = FleetWorkState()
    state.claimsNothing = true
    #expect(state.reserveClaimRoom(8, lookingAround: true) == 0)
    #expect(state.reserveFoldRoom(8, wanted: 8, round: state.beginFoldRound()) == 0)
    #expect(state.reserved == 0)
  }

  @Test func foldThatEmitsNothing_reservesNothing_soADeliveryRoundFindsItsRoom() {
    // Most folds are of a process's own sends, which start a debounce and
    // emit nothing: while one is in flight, a delivery round keeps its room.
    var state = FleetWorkState()
    let round = state.beginFoldRound()
    #expect(state.reserveFoldRoom(16, wanted: 0, round: round) == 0)
    #expect(state.reserveClaimRoom(16, lookingAround: true) == 16)
  }

  @Test func foldReservesNoMoreThanItsEmissionsCanLead() {
    var state = FleetWorkState()
    let round = state.beginFoldRound()
    #expect(state.reserveFoldRoom(16, wanted: 3, round: round) == 3)
    #expect(state.reserveClaimRoom(16, lookingAround: true) == 13)
  }

  @Test func endedFoldRound_releasesItsRoom_andALateAnswerReservesNoMore() {
    var state = FleetWorkState()
    let round = state.beginFoldRound()
    #expect(state.reserveFoldRoom(4, wanted: 2, round: round) == 2)
    #expect(state.reserveFoldRoom(4, wanted: 1, round: round) == 1)
    // The round ran out of time: the loop ends it, and a next one begins.
    state.endFoldRound(round)
    #expect(state.reserved == 0)
    let next = state.beginFoldRound()
    // The late round's answer comes now: it gets nothing, and ending it
    // again releases nothing of the next round's.
    #expect(state.reserveFoldRoom(4, wanted: 4, round: round) == 0)
    #expect(state.reserveFoldRoom(4, wanted: 1, round: next) == 1)
    state.endFoldRound(round)
    #expect(state.reserved == 1)
    state.endFoldRound(next)
    #expect(state.reserved == 0)
  }

  @Test func alarmRounds_lookAroundWhenOneIsDueThenEverySafetyPoll() {
    var state = FleetWorkState()
    let start = state.looksAroundBy  // made now
    state.deliveryLooks = false
    // A new worker looks at its first round.
    let first = state.startsLookAround(at: start, safetyPoll: .seconds(5))
    #expect(first && state.deliveryLooks)
    state.deliveryLooks = false
    // Alarms for deadlines ring, a millisecond apart: none looks.
    let looks = (1...100).filter { state.startsLookAround(at: start + .milliseconds($0), safetyPoll: .seconds(5)) }
    #expect(looks.isEmpty && !state.deliveryLooks)
    // The safety poll does.
    let safety = state.startsLookAround(at: start + .seconds(5), safetyPoll: .seconds(5))
    #expect(safety && state.looksAroundBy == start + .seconds(10))
  }

  @Test func leaseOrNotification_makesTheNextLookDueSoonerNeverLater() {
    var state = FleetWorkState()
    let start = state.looksAroundBy  // made now
    _ = state.startsLookAround(at: start, safetyPoll: .seconds(5))
    state.lookAround(by: start + .seconds(2))  // a lease that ends
    state.lookAround(by: start + .seconds(3))  // a later one changes nothing
    #expect(state.looksAroundBy == start + .seconds(2))
    let early = state.startsLookAround(at: start + .milliseconds(1_999), safetyPoll: .seconds(5))
    let due = state.startsLookAround(at: start + .seconds(2), safetyPoll: .seconds(5))
    #expect(!early && due)
  }

  @Test func foldLeavingEmissionsWaiting_tellsTheFleetOnlyWhenHandlersHoldEveryPlace() {
    var state = FleetWorkState()
    state.delivering = [1, 2, 3, 4]
    state.finished = [1]  // removed, and its room claimed, by this process's next round
    #expect(!state.tellsFleet(4))  // a place frees soon: kept here
    #expect(state.tellsFleet(3))  // three running handlers hold the three places
    state.finished = []
    #expect(state.tellsFleet(4))  // every handler still runs
    state.delivering = []
    state.ready = [LeasedEmission(id: 9, key: "k", value: "v", emittedMicros: 0, delivery: 1)]
    #expect(state.tellsFleet(1))  // its one place goes to an emission about to start
    let round = state.beginFoldRound()
    state.ready = []
    #expect(state.reserveFoldRoom(1, wanted: 2, round: round) == 1)
    #expect(state.tellsFleet(1))  // this fold leased into its one place: the other waits
    state.endFoldRound(round)
    #expect(!state.tellsFleet(1))
    state.stopping = true  // this process takes nothing more
    #expect(state.tellsFleet(4))
  }
}
