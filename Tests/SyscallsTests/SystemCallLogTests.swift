#if canImport(Glibc)
import Glibc
#endif
import Syscalls
import SystemFakes
import Testing

/// The fakes' one fault mechanism: which call fails, how often, and what it says.
@Suite struct SystemCallLogTests {
    @Test func theNthMatchingCallFailsOnceAndEveryCallIsRecorded() {
        let log = SystemCallLog()
        log.fail(.write, nth: 3, errno: ENOSPC)
        var outcomes: [Int32?] = []
        for i in 0..<5 {
            do throws(SystemError) { try log.enter(.write, "/tmp/m\(i)"); outcomes.append(nil) } catch { outcomes.append(error.errno) }
        }
        #expect(outcomes == [nil, nil, ENOSPC, nil, nil])
        #expect(log.calls == ["write /tmp/m0", "write /tmp/m1", "write /tmp/m2", "write /tmp/m3", "write /tmp/m4"])
        #expect(log.failures.map(\.description) == ["write /tmp/m2"])
    }

    @Test func onlyCallsOfThatKindAboutThatSubjectCount() {
        let log = SystemCallLog()
        log.fail(.open, of: "/dev/i2c-1", nth: 2, errno: EACCES)
        #expect(throws: Never.self) { try log.enter(.read, "/dev/i2c-1") }
        #expect(throws: Never.self) { try log.enter(.open, "/dev/i2c-1") }
        #expect(throws: Never.self) { try log.enter(.open, "/dev/i2c-2") }
        #expect(throws: SystemError(errno: EACCES, attempt: "open /dev/i2c-1")) { try log.enter(.open, "/dev/i2c-1") }
        #expect(log.subjects(of: .open) == ["/dev/i2c-1", "/dev/i2c-2", "/dev/i2c-1"] && log.count(of: .read) == 1)
    }

    @Test func aFaultForManyCallsLastsUntilStoppedAndNamesTheAttemptGiven() {
        let log = SystemCallLog()
        log.fail(.ioctl, of: "I2C_SMBUS", errno: EIO, times: .max)
        log.fail(.setMaster, errno: EBUSY, times: 2)
        for _ in 0..<3 {
            #expect(throws: SystemError(errno: EIO, attempt: "I2C_SMBUS read byte 0x53")) {
                try log.enter(.ioctl, "I2C_SMBUS read byte 0x53", attempt: "I2C_SMBUS read byte 0x53")
            }
        }
        #expect(throws: SystemError.self) { try log.enter(.setMaster, "fd 3") }
        #expect(throws: SystemError.self) { try log.enter(.setMaster, "fd 3") }
        #expect(throws: Never.self) { try log.enter(.setMaster, "fd 3") }
        log.stopFailing(.ioctl)
        #expect(throws: Never.self) { try log.enter(.ioctl, "I2C_SMBUS read byte 0x53") }
        log.record(.close, "/dev/i2c-1")
        #expect(log.calls.last == "close /dev/i2c-1" && log.entries.last?.call == .close)
        #expect(log.failures.count == 5)
    }

    @Test func everyFakeSpeaksThroughTheSameLog() throws {
        let system = FakeSystem(), disk = FileSystemWithFaults(), i2c = FakeI2CSystem()
        for fake in [system, disk, i2c] as [any SystemCalls & RecordingFake] {
            fake.fail(.open, of: "/nonexistent/x", errno: EROFS)
            #expect(throws: SystemError(errno: EROFS, attempt: "open /nonexistent/x")) { try fake.open("/nonexistent/x", flags: O_RDONLY) }
            #expect(fake.calls == ["open /nonexistent/x"])
        }
    }
}
