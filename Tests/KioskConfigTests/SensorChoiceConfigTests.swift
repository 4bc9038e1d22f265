import Testing
@testable import KioskConfig
import Sensors

/// [sensors] chip and barometer reach Sensors as its own types: "auto" is said explicitly
/// (no chip, the first barometer), a device name is kept, never reduced to on/off.
@Suite struct SensorChoiceConfigTests {
    @Test func chipIsSensorsOwnChipOrNoneForAuto() throws {
        #expect(KioskConfiguration().sensors.chip == nil)
        #expect(try KioskConfiguration.parse("[sensors]\nchip = \"auto\"\n", file: "s.toml").sensors.chip == nil)
        for chip in I2CAccelChip.allCases {
            #expect(try KioskConfiguration.parse("[sensors]\nchip = \"\(chip.rawValue)\"\n", file: "s.toml").sensors.chip == chip)
        }
        do { _ = try KioskConfiguration.parse("[sensors]\nchip = \"lis3hd\"\n", file: "s.toml"); Issue.record("accepted") } catch {
            #expect(error.description == "s.toml:2: sensors.chip: 'lis3hd' is not one of auto, lis3dh, adxl345, mpu6050; did you mean 'lis3dh'?")
        }
    }

    @Test func theBarometerIsKeptByName() throws {
        #expect(KioskConfiguration().sensors.barometer == .first)
        #expect(try KioskConfiguration.parse("[sensors]\nbarometer = \"none\"\n", file: "s.toml").sensors.barometer == BarometerChoice.none)
        #expect(try KioskConfiguration.parse("[sensors]\nbarometer = \"lps22hb\"\n", file: "s.toml").sensors.barometer == .named("lps22hb"))
    }
}
