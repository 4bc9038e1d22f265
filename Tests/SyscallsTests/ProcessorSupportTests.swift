import SystemFakes
import Syscalls
import Testing

/// The armhf build needs NEON: on a core without it the kiosk says the board is not supported.
@Suite struct ProcessorSupportTests {
    @Test func aCoreWithoutNEONIsRefusedByABuildThatNeedsIt() {
        let board = FakeSystem()
        board.capabilities = 0x0000_37d7 & ~ProcessorSupport.neonBit     // a Cortex-A7's bits, NEON taken out
        let problem = ProcessorSupport.problem(system: board, needsNEON: true)
        #expect(problem?.contains("not supported") == true)
        #expect(problem?.contains("NEON") == true)
    }

    @Test func aCoreWithNEONRunsIt() {
        let board = FakeSystem()
        board.capabilities = 0x0000_37d7                                   // half thumb fastmult vfp edsp neon vfpv3 tls vfpv4 idiva idivt
        #expect(ProcessorSupport.problem(system: board, needsNEON: true) == nil)
    }

    @Test func buildsThatDoNotNeedNEONNeverAsk() {
        let board = FakeSystem()
        board.capabilities = 0
        #expect(ProcessorSupport.problem(system: board, needsNEON: false) == nil)
        // x86_64 and aarch64 builds do not need the 32-bit NEON bit (aarch64 always has SIMD).
        #expect(ProcessorSupport.problem(system: board) == nil)
    }
}
