import Foundation
import Geometry
import Testing
@testable import Gestures

/// Relations between recognizers name them by a token of their own, not by a number drawn
/// from one counter every recognizer (and every test running in parallel) shared.
@Suite struct RecognizerIdentityTests {
    @Test func recognizersMadeOnManyThreadsAtOnceKeepDistinctIdentities() {
        let threads = 8, each = 2_000
        // Each thread's recognizers stay alive (in its own slot) until all are compared.
        final class Made: @unchecked Sendable {
            let lock = NSLock()
            var slots: [[GestureRecognizer]]
            init(_ n: Int) { slots = Array(repeating: [], count: n) }
        }
        let made = Made(threads)
        DispatchQueue.concurrentPerform(iterations: threads) { k in
            var mine: [GestureRecognizer] = []
            for _ in 0..<each { mine.append(TapGestureRecognizer(name: "t")) }
            made.lock.lock(); made.slots[k] = mine; made.lock.unlock()
        }
        let all = made.slots.flatMap { $0 }
        #expect(Set(all.map { ObjectIdentifier($0.serial) }).count == threads * each)
    }

    @Test func aRequirementFindsOnlyItsOwnRecognizerInItsOwnEnvironment() {
        // Two stands' worth of the same arrangement: each single tap waits for its own double.
        let a = Bench(), b = Bench()
        let doubleA = a.add(TapGestureRecognizer(name: "double")), doubleB = b.add(TapGestureRecognizer(name: "double"))
        doubleA.numberOfTapsRequired = 2; doubleB.numberOfTapsRequired = 2
        let singleA = a.add(TapGestureRecognizer(name: "single"))
        singleA.requireToFail(doubleA)
        #expect(a.environment.recognizer(serial: doubleA.serial) === doubleA)
        #expect(b.environment.recognizer(serial: doubleA.serial) == nil)
        #expect(b.environment.recognizer(serial: doubleB.serial) === doubleB)
        // A recognizer that is gone is simply not found: its token is no one else's.
        a.environment.remove(doubleA)
        #expect(a.environment.recognizer(serial: doubleA.serial) == nil)
    }
}
