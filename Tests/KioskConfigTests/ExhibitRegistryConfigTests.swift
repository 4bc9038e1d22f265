import Testing
import Exhibits
@testable import KioskConfig

/// The configuration knows the exhibits only through the registry: their names for
/// [exhibits] order/locked and their options as the tables [exhibits.NAME].
@Suite struct ExhibitRegistryConfigTests {
    @Test func anUnknownExhibitInOrderOrLockedNamesFileLineAndTheKnownOnes() {
        let text = "[exhibits]\nidle_seconds = 60\norder = [\"motion-cube\", \"tilt-bx\"]\nlocked = \"gird-block\"\n"
        do {
            _ = try KioskConfiguration.parse(text, file: "/etc/motionkiosk/config.toml")
            Issue.record("a config naming no registered exhibit was accepted")
        } catch {
            let known = ExhibitRegistry.names.joined(separator: ", ")
            #expect(error.errors.map(\.description) == [
                "/etc/motionkiosk/config.toml:3: exhibits.order: 'tilt-bx' is not one of \(known); did you mean 'tilt-box'?",
                "/etc/motionkiosk/config.toml:4: exhibits.locked: 'gird-block' is not one of \(known); did you mean 'grid-block'?",
            ])
        }
    }

    @Test func everyRegisteredExhibitCanBeOrderedOrLocked() throws {
        for exhibit in ExhibitRegistry.tiles {
            let c = try KioskConfiguration.parse("[exhibits]\norder = [\"\(exhibit.name)\"]\nlocked = \"\(exhibit.name)\"\n", file: "c.toml")
            #expect(c.exhibits.order == [exhibit])
            #expect(c.exhibits.locked == exhibit)
        }
        #expect(KioskConfiguration().exhibits.order == ExhibitRegistry.tiles)
    }

    @Test func everyExhibitOptionIsAKeyOfItsTableInTheDefaultFile() throws {
        let declared = ExhibitRegistry.all.flatMap { exhibit in exhibit.profile.options.map { (exhibit, $0) } }
        #expect(!declared.isEmpty)
        for (exhibit, option) in declared {
            #expect(ConfigSchema.keys.contains { $0.table == "exhibits.\(exhibit.name)" && $0.name == option.name })
            #expect(KioskConfiguration.defaultFileText.contains("[exhibits.\(exhibit.name)]"))
            #expect(KioskConfiguration.defaultFileText.contains("\(option.name) = \(option.defaultText)"))
        }
    }

    @Test func exhibitOptionsAreReadCheckedAndHandedToTheirExhibit() throws {
        let c = try KioskConfiguration.parse("[exhibits.motion-cube]\nshape_cap = 12\n[exhibits.tilt-box]\naltitude_grey = true\n", file: "o.toml")
        #expect(c.exhibits.options[MotionCube.exhibitType].integer(MotionCube.shapeCap) == 12)
        #expect(c.exhibits.options[TiltBox.exhibitType].boolean(TiltBox.altitudeGrey))
        // Unset: the option's own default.
        #expect(KioskConfiguration().exhibits.options[MotionCube.exhibitType].integer(MotionCube.shapeCap) == 40)
        do { _ = try KioskConfiguration.parse("\n[exhibits.motion-cube]\nshape_cap = 501\n", file: "o.toml"); Issue.record("accepted 501") } catch {
            #expect(error.description == "o.toml:3: exhibits.motion-cube.shape_cap: 501 is out of range 1…500")
        }
        do { _ = try KioskConfiguration.parse("[exhibits.tilt-box]\naltitude_grey = 1\n", file: "o.toml"); Issue.record("accepted 1") } catch {
            #expect(error.description == "o.toml:2: exhibits.tilt-box.altitude_grey: expected true or false, found an integer")
        }
    }
}
