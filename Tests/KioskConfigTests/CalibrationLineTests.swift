import Testing
@testable import KioskConfig

/// `motionkiosk calibrate --save`: the [touch] calibration line goes into the file, the rest
/// of it as it was.
@Suite struct CalibrationLineTests {
    let line = "calibration = [1.02, 0.0, -0.01, 0.0, 0.99, 0.005]"

    @Test func replacesTheKeyInItsTableKeepingEverythingElse() throws {
        let old = "# my stand\n[display]\nrotation = \"90\"\n\n[touch]\n# fitted in May\ncalibration = [\n  1, 0, 0,\n  0, 1, 0,\n]\nstuck_seconds = 300\n\n[logging]\nlevel = \"info\"\n"
        let new = configurationText(old, withCalibration: line)
        #expect(new == "# my stand\n[display]\nrotation = \"90\"\n\n[touch]\n# fitted in May\n\(line)\nstuck_seconds = 300\n\n[logging]\nlevel = \"info\"\n")
        let c = try KioskConfiguration.parse(new, file: "c.toml")
        #expect(c.touch.calibration == [1.02, 0.0, -0.01, 0.0, 0.99, 0.005] && c.touch.stuckSeconds == 300 && c.display.rotation == .r90)
    }

    @Test func addsTheKeyOrTheTable() throws {
        #expect(configurationText("[touch]\ntransform = \"rot180\"\n\n[logging]\n", withCalibration: line)
                == "[touch]\ntransform = \"rot180\"\n\(line)\n\n[logging]\n")
        #expect(configurationText("[display]\nmax_fps = 30\n", withCalibration: line) == "[display]\nmax_fps = 30\n\n[touch]\n\(line)\n")
        #expect(configurationText("", withCalibration: line) == "[touch]\n\(line)\n")
        // The default file (every key, commented) takes it too.
        let c = try KioskConfiguration.parse(configurationText(KioskConfiguration.defaultFileText, withCalibration: line), file: "c.toml")
        #expect(c.touch.calibration?.first == 1.02)
    }
}
