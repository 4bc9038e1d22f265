import Testing
import KioskConfig
import KioskRuntime
import Sensors

/// The stand's [sensors] chip and barometer reach the motion sensors as they were written.
@Suite struct SensorChoiceStandTests {
    @Test func anI2CStandHandsItsChipToTheSensors() throws {
        let c = try KioskConfiguration.parse("[sensors]\nsource = \"i2c\"\ni2c_bus = 1\nchip = \"mpu6050\"\n", file: "s.toml")
        guard case .i2c(let bus, let chip, let address) = c.motionSensors.accelerometer else { Issue.record("\(c.motionSensors.accelerometer)"); return }
        #expect(bus == "/dev/i2c-1" && chip == .mpu6050 && address == nil)
    }

    @Test func theBarometerDeviceNameIsPassedThrough() throws {
        #expect(KioskConfiguration().motionSensors.barometer == .first)
        #expect(try KioskConfiguration.parse("[sensors]\nbarometer = \"none\"\n", file: "s.toml").motionSensors.barometer == BarometerChoice.none)
        #expect(try KioskConfiguration.parse("[sensors]\nbarometer = \"auto\"\n", file: "s.toml").motionSensors.barometer == .first)
        #expect(try KioskConfiguration.parse("[sensors]\nbarometer = \"lps22hb\"\n", file: "s.toml").motionSensors.barometer == .named("lps22hb"))
    }
}
