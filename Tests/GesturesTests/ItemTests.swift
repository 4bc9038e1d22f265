import Geometry
import Testing
@testable import Gestures

/// A toy exhibit: square items the hit test finds, each with a pan, pinch and rotation that
/// may run together (MotionCube's shapes).
final class Shapes {
    var frames: [ItemTag: Rect]
    var moved: [ItemTag: Vec2] = [:]
    var scaled: [ItemTag: Double] = [:]
    var turned: [ItemTag: Double] = [:]
    var events: [String] = []

    init(_ frames: [ItemTag: Rect]) { self.frames = frames }

    func hitTest(_ p: Vec2) -> ItemTag? {
        frames.keys.sorted().first { frames[$0]!.contains(p) }
    }

    func attach(to env: GestureEnvironment, adoptionRadius: Double = 0) -> ItemAttachment {
        env.attachToItems(hitTest: { [unowned self] in self.hitTest($0) }, adoptionRadius: adoptionRadius) { [unowned self] item in
            let pan = PanGestureRecognizer { r in
                self.events.append("pan \(item) \(r.state)")
                self.moved[item, default: .zero] += r.translation
                r.setTranslation(.zero)
            }
            let pinch = PinchGestureRecognizer { r in
                self.events.append("pinch \(item) \(r.state)")
                self.scaled[item, default: 1] *= r.scale
                r.scale = 1
            }
            let rotation = RotationGestureRecognizer { r in
                self.events.append("rotation \(item) \(r.state)")
                self.turned[item, default: 0] += r.rotation
                r.rotation = 0
            }
            pan.recognizeSimultaneously(with: pinch)
            pan.recognizeSimultaneously(with: rotation)
            pinch.recognizeSimultaneously(with: rotation)
            return [pan, pinch, rotation]
        }
    }

    func summary(_ kind: String, _ item: ItemTag) -> String {
        var out: [String] = []
        for e in events where e.hasPrefix("\(kind) \(item) ") {
            let state = String(e.split(separator: " ").last!)
            if state == "changed", out.last == "changed" { continue }
            out.append(state)
        }
        return out.joined(separator: " ")
    }
}

@Suite("Items")
struct ItemTests {
    @Test("two shapes dragged by two fingers at once move independently", arguments: [25.0, 120.0], [0.0, 2.0])
    func twoShapesTwoFingers(rate: Double, jitter: Double) {
        let shapes = Shapes([1: Rect(x: 50, y: 50, width: 100, height: 100), 2: Rect(x: 300, y: 500, width: 100, height: 100)])
        let env = GestureEnvironment()
        let attachment = shapes.attach(to: env)
        let script = TouchScript(rate: rate, jitter: jitter, [
            .line(0, from: Vec2(100, 100), to: Vec2(200, 300), duration: 500),
            .line(1, from: Vec2(350, 550), to: Vec2(250, 450), start: 100, duration: 500),
        ])
        env.handle(script.frames().prefix { $0.time < 300_000 })
        #expect(Set(attachment.activeItems) == [1, 2])
        env.handle(script.frames().drop { $0.time < 300_000 })
        env.advance(to: script.endTime + 500_000)
        #expect(shapes.summary("pan", 1) == "began changed ended")
        #expect(shapes.summary("pan", 2) == "began changed ended")
        // Jitter moves where the finger lands and where it ends by up to ±jitter per axis.
        #expect(shapes.moved[1]!.distance(to: Vec2(100, 200)) <= 1e-9 + 3 * jitter)
        #expect(shapes.moved[2]!.distance(to: Vec2(-100, -100)) <= 1e-9 + 3 * jitter)
        #expect(shapes.summary("pinch", 1) == "")
        #expect(attachment.activeItems.isEmpty)
        #expect(env.isAtRest)
    }

    @Test("pan, pinch and rotation on one shape with two fingers", arguments: [25.0, 120.0], [0.0, 2.0])
    func manipulateOneShape(rate: Double, jitter: Double) {
        let shapes = Shapes([7: Rect(x: 90, y: 250, width: 300, height: 300)])
        let env = GestureEnvironment()
        _ = shapes.attach(to: env)
        TouchScript(rate: rate, jitter: jitter, twoFingerManipulation(center: Vec2(240, 400))).frames().forEach(env.handle)
        env.advance(to: 2_000_000)
        #expect(shapes.summary("pan", 7) == "began changed ended")
        #expect(shapes.summary("pinch", 7) == "began changed ended")
        #expect(shapes.summary("rotation", 7) == "began changed ended")
        #expect(near(shapes.scaled[7]!, 1.5, within: 0.05), "scale \(shapes.scaled[7]!)")
        #expect(near(shapes.turned[7]!, .pi / 2, within: 0.06), "rotation \(shapes.turned[7]!)")
        #expect(shapes.moved[7]!.distance(to: Vec2(100, 0)) <= 1e-9 + 3 * jitter)
    }

    @Test("a touch on no item reaches no item recognizer; adoption lets it join a nearby pinch")
    func adoption() {
        let shapes = Shapes([1: Rect(x: 200, y: 350, width: 100, height: 100)])
        for radius in [0.0, 150] {
            let env = GestureEnvironment()
            _ = shapes.attach(to: env, adoptionRadius: radius)
            shapes.events.removeAll()
            // Finger 0 on the shape, finger 1 lands 60 px outside it; they spread apart.
            env.handle(TouchScript(rate: 120, [
                .line(0, from: Vec2(250, 400), to: Vec2(200, 400), duration: 400),
                .line(1, from: Vec2(360, 400), to: Vec2(420, 400), start: 20, duration: 380),
            ]).frames())
            env.advance(to: 2_000_000)
            #expect(shapes.summary("pinch", 1) == (radius > 0 ? "began changed ended" : ""), "radius \(radius)")
        }
    }

    @Test("removing an item cancels its gestures")
    func removeItem() {
        let shapes = Shapes([1: Rect(x: 0, y: 0, width: 200, height: 200)])
        let env = GestureEnvironment()
        let attachment = shapes.attach(to: env)
        let script = TouchScript(rate: 120, [.line(from: Vec2(100, 100), to: Vec2(100, 300), duration: 400)])
        env.handle(script.frames().prefix { $0.time < 200_000 })
        #expect(shapes.summary("pan", 1) == "began changed")
        env.removeItem(1)
        #expect(shapes.summary("pan", 1) == "began changed cancelled")
        #expect(attachment.activeItems.isEmpty)
        env.handle(script.frames().drop { $0.time < 200_000 })
        env.advance(to: 1_000_000)
        #expect(shapes.summary("pan", 1) == "began changed cancelled")
        #expect(env.isAtRest)
    }

    @Test("a screen tap sees touches on items too; the item's pan makes it fail")
    func screenAndItem() {
        let shapes = Shapes([1: Rect(x: 0, y: 0, width: 200, height: 200)])
        let env = GestureEnvironment()
        _ = shapes.attach(to: env)
        var spawned: [Vec2] = []
        env.add(TapGestureRecognizer { spawned.append($0.location) })
        env.handle(TouchScript(rate: 120, [
            .line(from: Vec2(100, 100), to: Vec2(150, 150), duration: 300), // drag a shape
            .hold(at: Vec2(300, 600), from: 1000, for: 80),                   // tap the background
        ]).frames())
        env.advance(to: 3_000_000)
        #expect(spawned == [Vec2(300, 600)])
        #expect(shapes.summary("pan", 1) == "began changed ended")
    }

    @Test("an item's tap may delete the item from its action (delete mode)")
    func deleteFromAction() {
        let shapes = Shapes([1: Rect(x: 0, y: 0, width: 200, height: 200), 2: Rect(x: 0, y: 300, width: 200, height: 200)])
        let env = GestureEnvironment()
        var deleted: [ItemTag] = []
        let attachment = env.attachToItems(hitTest: { shapes.hitTest($0) }) { item in
            [TapGestureRecognizer { r in
                deleted.append(item)
                shapes.frames[item] = nil
                env.removeItem(item)
            }]
        }
        env.handle(TouchScript(rate: 120, [
            .hold(0, at: Vec2(100, 100), for: 40),
            .hold(1, at: Vec2(100, 400), from: 20, for: 60),
            .hold(0, at: Vec2(100, 100), from: 500, for: 40), // nothing there any more
        ]).frames())
        env.advance(to: 2_000_000)
        #expect(deleted == [1, 2])
        #expect(attachment.activeItems.isEmpty)
        #expect(env.isAtRest)
    }

    @Test("an item's double tap keeps its recognizers alive between the taps")
    func itemDoubleTap() {
        let shapes = Shapes([1: Rect(x: 0, y: 0, width: 200, height: 200)])
        let env = GestureEnvironment()
        var toggled: [ItemTag] = []
        let attachment = env.attachToItems(hitTest: shapes.hitTest) { item in
            let double = TapGestureRecognizer { r in toggled.append(r.item!) }
            double.numberOfTapsRequired = 2
            return [double]
        }
        env.handle(TouchScript(rate: 25, [.hold(at: Vec2(100, 100), for: 40), .hold(at: Vec2(100, 100), from: 200, for: 40)]).frames())
        env.advance(to: 2_000_000)
        #expect(toggled == [1])
        #expect(attachment.activeItems.isEmpty)
    }
}
