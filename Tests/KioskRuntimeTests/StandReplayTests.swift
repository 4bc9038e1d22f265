import Exhibits
import KioskConfig
import KioskRuntime
import Sensors
import Testing

/// `replay --config`: a trace runs as the stand in the file would run it.
@Suite struct StandReplayTests {
    @Test func theStandsOrderIdleAndLockApply() throws {
        let stand = try KioskConfiguration.parse("""
        [exhibits]
        order = ["grid-block", "tilt-box"]
        idle_seconds = 5
        attract_after_seconds = 20
        [sensors]
        gravity_time_constant_ms = 250
        """, file: "stand.toml")
        var launcher = KioskApp.Settings.replay(exhibit: nil, width: 480, height: 800, seed: 3)
        stand.applyStand(to: &launcher, exhibit: nil)
        #expect(launcher.order == ["grid-block", "tilt-box"])
        #expect(launcher.idleTimeout == 5_000_000 && launcher.attractAfter == 20_000_000)
        #expect(launcher.seed == 3 && launcher.width == 480)

        // One exhibit of a stand that is not locked to it: no idle reset, as replay has it.
        var one = KioskApp.Settings.replay(exhibit: "tilt-box", width: 480, height: 800, seed: 1)
        stand.applyStand(to: &one, exhibit: "tilt-box")
        #expect(one.idleTimeout == nil && one.initialExhibit == "tilt-box" && one.locked == nil)

        var motion = MotionSettings()
        stand.applyStand(to: &motion)
        #expect(motion.gravityTimeConstant == 0.25)
    }

    @Test func aLockedStandRunsItsExhibitWithItsIdleReset() throws {
        let stand = try KioskConfiguration.parse("[exhibits]\nlocked = \"grid-block\"\nidle_seconds = 30\n", file: "stand.toml")
        var settings = KioskApp.Settings.replay(exhibit: "grid-block", width: 480, height: 800, seed: 1)
        stand.applyStand(to: &settings, exhibit: "grid-block")
        #expect(settings.locked == "grid-block" && settings.initialExhibit == nil)
        #expect(settings.idleTimeout == 30_000_000 && settings.attractAfter == nil)
    }
}

@Suite struct DisplayModeFlagTests {
    @Test func aModeIsChecked() {
        #expect(DisplaySettings.modeSize("800x480")! == (800, 480))
        #expect(DisplaySettings.modeSize("800x480@60")! == (800, 480))
        for bad in ["100000x100000", "0x480", "800x", "x", "", "800x480x2", "-800x480", "99999999999999999999x1"] {
            #expect(DisplaySettings.modeSize(bad) == nil, "\(bad)")
        }
    }
}
