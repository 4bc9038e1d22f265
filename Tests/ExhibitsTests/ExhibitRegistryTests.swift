import Testing
import Geometry
import Gestures
import Diagnostics
import Raster
@testable import VisitorText
@testable import Exhibits

/// The registry is the one list of exhibits: what each declares there must hold together,
/// and every other list (text tables, tiles, demos) must agree with it.
@Suite struct ExhibitRegistryTests {
    @Test func everyLanguageTableHasEveryRegisteredKeyAndNoOther() {
        let registered = Set(ExhibitRegistry.textKeys)
        #expect(registered.count == ExhibitRegistry.textKeys.count, "a key is registered twice")
        #expect(Language.shipped.count == 6)
        for language in Language.shipped {
            let keys = Set(language.table.keys)
            #expect(registered.subtracting(keys).isEmpty,
                    "\(language.code) lacks \(registered.subtracting(keys).sorted())")
            #expect(keys.subtracting(registered).isEmpty,
                    "\(language.code) has keys no exhibit registered: \(keys.subtracting(registered).sorted())")
        }
    }

    @Test func anExhibitsKeysAreItsTitleInstructionAndDeclaredExtras() {
        let draw = CircleDraw.profile
        #expect(draw.textKeys == ["circle-draw.title", "circle-draw.instruction",
                                  "circle-draw.mode.draw", "circle-draw.mode.delete", "circle-draw.mode.move"])
        // Installer screens stay English: no visitor text of theirs is registered.
        for exhibit in ExhibitRegistry.all where exhibit.profile.isInstallerScreen {
            #expect(!ExhibitRegistry.textKeys.contains(TextKey.title(exhibit.name)))
        }
    }

    @Test func namesAreUniqueAndFoundAgain() {
        let names = ExhibitRegistry.names
        #expect(Set(names).count == names.count)
        for exhibit in ExhibitRegistry.all {
            #expect(ExhibitRegistry.named(exhibit.name) == exhibit)
            // A name is a config word: lower case letters and hyphens, as a table name can hold.
            #expect(exhibit.name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || $0 == "-" }, "\(exhibit.name)")
        }
        #expect(ExhibitRegistry.named("launcher") == nil)
        #expect(ExhibitRegistry.tiles == ExhibitRegistry.all.filter { !$0.profile.isInstallerScreen })
        #expect(ExhibitRegistry.tiles.count < ExhibitRegistry.all.count, "commissioning is no tile")
    }

    @Test func everyExhibitIsMadeByItsTypeAndHasAPlayableDemo() throws {
        let fonts = try FontSet()
        for exhibit in ExhibitRegistry.all {
            let environment = ExhibitEnvironment(width: 480, height: 800, fonts: fonts, log: Log(minimum: .error))
            let made = exhibit.make(environment: environment, gestures: GestureEnvironment(), random: SeededGenerator(seed: 1))
            var list: [DrawCommand] = []
            _ = made.draw(into: &list)
            let frames = exhibit.demoFrames(width: 480, height: 800)
            #expect(!frames.isEmpty, "\(exhibit.name): its demo does not parse")
            #expect(frames.allSatisfy { f in f.events.allSatisfy { (0...480).contains($0.position.x) && (0...800).contains($0.position.y) } },
                    "\(exhibit.name): a demo touch lies off the 480×800 screen")
        }
    }

    @Test func optionsAreUniqueWithDefaultsInTheirRanges() {
        for exhibit in ExhibitRegistry.all {
            let names = exhibit.profile.options.map { $0.name }
            #expect(Set(names).count == names.count, "\(exhibit.name)")
            for option in exhibit.profile.options {
                #expect(!option.doc.isEmpty)
                switch option.kind {
                case .integer(let d, let range): #expect(range.contains(d), "\(exhibit.name).\(option.name)")
                case .number(let d, let range): #expect(range.contains(d), "\(exhibit.name).\(option.name)")
                case .boolean: break
                }
            }
        }
    }

    @Test func anExhibitReadsOnlyItsOwnOptions() {
        var stand = StandExhibitOptions()
        stand[MotionCube.exhibitType].set(MotionCube.shapeCap, .integer(7))
        #expect(stand[MotionCube.exhibitType].integer(MotionCube.shapeCap) == 7)
        // Another exhibit's table holds nothing of motion-cube's: the default there.
        #expect(stand[TiltBox.exhibitType].integer(MotionCube.shapeCap) == 40)
        #expect(stand[TiltBox.exhibitType].boolean(TiltBox.altitudeGrey) == false)
    }

    @Test func demoPlacementMatchesTheLayouts() {
        // Stretched: the same place of a layout that scales with each side.
        #expect(DemoPlacement.stretched.place(Vec2(240, 400), width: 720, height: 1280) == Vec2(360, 640))
        // From the top with one scale, centred across the width (newtons-cradle's cradle).
        #expect(DemoPlacement.uniformFromTop.place(Vec2(240, 400), width: 800, height: 480) == Vec2(400, 240))
        #expect(DemoPlacement.uniformFromTop.place(Vec2(100, 100), width: 720, height: 1280) == Vec2(360 - 140 * 1.5, 150))
    }
}
