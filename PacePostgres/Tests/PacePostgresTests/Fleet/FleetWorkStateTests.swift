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
    #expect(state.reserveDeliveryRoom(4) == 0)
  }

  @Test func foldInFlight_claimRoundGetsOnlyWhatIsLeft() {
    var state = FleetWorkState()
    let fold = state.reserveDeliveryRoom(2)
    #expect(fold == 2)
    #expect(state.reserveClaimRoom(2, lookingAround: true) == 0)
    // The fold leased one and handed it over; its reservation ends.
    state.reserved -= fold
    state.ready = [LeasedEmission(id: 7, key: "k", value: "1", emittedMicros: 0, delivery: 1)]
    #expect(state.reserveClaimRoom(2, lookingAround: true) == 1)
  }

  @Test func finishedHandlers_countAsRoomForTheRoundThatRemovesThem() {
    var state = FleetWorkState()
    state.delivering = [1, 2]
    state.finished = [1, 2]
    #expect(state.reserveClaimRoom(2, lookingAround: true) == 2)
    // Until that round's statement answers, no fold leases into that room.
    #expect(state.reserveDeliveryRoom(2) == 0)
  }

  @Test func notLookingAround_reservesOnlyForTheNextOfEachFinishedKey() {
    var state = FleetWorkState()
    state.delivering = [1, 2]
    state.finished = [1]
    #expect(state.reserveClaimRoom(8, lookingAround: false) == 1)
    // The rest stays free for a fold meanwhile.
    #expect(state.reserveDeliveryRoom(8) == 5)
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
    #expect(state.reserveDeliveryRoom(8) == 0)
    #expect(state.reserved == 0)
  }
}
