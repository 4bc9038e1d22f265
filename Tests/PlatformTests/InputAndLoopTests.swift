import Testing
import Geometry
import Syscalls
@testable import Platform
import SystemFakes

@Suite struct TouchTranslatorTests {
    /// The finger on the panel pixel that shows portrait pixel (x, y) must land on that
    /// portrait pixel, in every rotation: picture and touch come from one transform.
    @Test(arguments: PanelRotation.allCases)
    func touchLandsOnThePixelThePictureShowsThere(rotation: PanelRotation) {
        let screen = ScreenTransform(portraitWidth: 480, portraitHeight: 800, rotation: rotation)
        var t = TouchTranslator(screen: screen)
        for (x, y) in [(0, 0), (479, 0), (0, 799), (479, 799), (120, 200), (301, 577)] {
            let panel = screen.panelPixel(fromPortraitX: x, y: y)
            // libinput's *_transformed gives continuous panel coordinates: the pixel's centre.
            _ = t.translate(.touchDown(device: 1, slot: 0, x: Double(panel.x) + 0.5, y: Double(panel.y) + 0.5, time: 10))
            let out = t.translate(.touchFrame(device: 1, time: 10))
            guard case .touches(let frame) = out.first else { Issue.record("no frame"); return }
            let touches = frame.events
            #expect(touches.count == 1)
            #expect(abs(touches[0].position.x - (Double(x) + 0.5)) < 1e-9 && abs(touches[0].position.y - (Double(y) + 0.5)) < 1e-9,
                    "rotation \(rotation): panel \(panel) → \(touches[0].position), expected pixel \(x),\(y)")
            _ = t.translate(.touchUp(device: 1, slot: 0, time: 11))
            _ = t.translate(.touchFrame(device: 1, time: 11))
        }
    }

    @Test func eventsOfOneFrameArriveTogether() {
        var t = TouchTranslator(screen: ScreenTransform(portraitWidth: 100, portraitHeight: 200, rotation: .r0))
        #expect(t.translate(.touchDown(device: 1, slot: 0, x: 10, y: 20, time: 5)).isEmpty)
        #expect(t.translate(.touchDown(device: 1, slot: 1, x: 30, y: 40, time: 5)).isEmpty)
        #expect(t.translate(.touchFrame(device: 1, time: 5)) == [.touches(TouchFrame([
            TouchEvent(slot: 0, phase: .down, position: Vec2(10, 20), time: 5, device: 1),
            TouchEvent(slot: 1, phase: .down, position: Vec2(30, 40), time: 5, device: 1)]))])
        _ = t.translate(.touchMotion(device: 1, slot: 1, x: 35, y: 45, time: 6))
        _ = t.translate(.touchUp(device: 1, slot: 0, time: 6))
        #expect(t.translate(.touchFrame(device: 1, time: 6)) == [.touches(TouchFrame([
            TouchEvent(slot: 1, phase: .move, position: Vec2(35, 45), time: 6, device: 1),
            TouchEvent(slot: 0, phase: .up, position: Vec2(10, 20), time: 6, device: 1)]))])
        #expect(t.activeTouchIds == [1])
        // Motion or lift of a finger never put down is dropped.
        _ = t.translate(.touchUp(device: 1, slot: 5, time: 7))
        #expect(t.translate(.touchFrame(device: 1, time: 7)).isEmpty)
    }

    @Test func unpluggingCancelsThatDevicesTouchesOnly() {
        var t = TouchTranslator(screen: ScreenTransform(portraitWidth: 100, portraitHeight: 200, rotation: .r0))
        _ = t.translate(.touchDown(device: 1, slot: 0, x: 10, y: 20, time: 5))
        _ = t.translate(.touchDown(device: 2, slot: 1, x: 50, y: 60, time: 5))
        _ = t.translate(.touchFrame(device: 1, time: 5))
        let out = t.translate(.deviceRemoved(device: 1))
        #expect(out == [.touches(TouchFrame([TouchEvent(slot: 0, phase: .cancel, position: Vec2(10, 20), time: 5, device: 1)])), .deviceRemoved(device: 1)])
        #expect(t.activeTouchIds == [1])
        // A device plugged in afterwards works at once.
        _ = t.translate(.deviceAdded(InputDeviceInfo(id: 3, name: "new", sysname: "event9", capabilities: [.touch], isTouchscreen: true)))
        _ = t.translate(.touchDown(device: 3, slot: 0, x: 1, y: 2, time: 9))
        #expect(t.translate(.touchFrame(device: 3, time: 9)) == [.touches(TouchFrame([TouchEvent(slot: 0, phase: .down, position: Vec2(1, 2), time: 9, device: 3)]))])
    }

    @Test func aMouseDoesNothingWhenTheStandSaysSo() {
        var t = TouchTranslator(screen: ScreenTransform(portraitWidth: 100, portraitHeight: 200, rotation: .r0))
        t.mouseIsFinger = false
        #expect(t.translate(.pointerButton(device: 4, button: 0x110, pressed: true, time: 2)).isEmpty)
        #expect(t.translate(.pointerMotion(device: 4, dx: 10, dy: 10, time: 3)).isEmpty)
        #expect(t.translate(.pointerAbsolute(device: 4, x: 5, y: 5, time: 4)).isEmpty)
        // A libinput time beyond Int64 is clamped, not a trap.
        _ = t.translate(.touchDown(device: 3, slot: 0, x: 1, y: 2, time: UInt64.max))
        #expect(t.translate(.touchFrame(device: 3, time: UInt64.max)).count == 1)
    }

    @Test func aMouseIsOneFinger() {
        var t = TouchTranslator(screen: ScreenTransform(portraitWidth: 100, portraitHeight: 200, rotation: .r90))
        let id = TouchTranslator.mouseTouchId
        #expect(t.translate(.pointerMotion(device: 4, dx: 10, dy: -20, time: 1)).isEmpty)    // hovering: no touch
        #expect(t.translate(.pointerButton(device: 4, button: 0x110, pressed: true, time: 2))
                == [.touches(TouchFrame([TouchEvent(slot: id, phase: .down, position: Vec2(60, 80), time: 2, device: 4)]))])
        #expect(t.translate(.pointerMotion(device: 4, dx: 500, dy: 0, time: 3))
                == [.touches(TouchFrame([TouchEvent(slot: id, phase: .move, position: Vec2(99, 80), time: 3, device: 4)]))])
        #expect(t.translate(.pointerButton(device: 4, button: 0x111, pressed: true, time: 4)).isEmpty)   // right button
        // An absolute pointer (a tablet) maps through the panel rotation like a touchscreen.
        #expect(t.translate(.pointerAbsolute(device: 4, x: 200, y: 30, time: 5))
                == [.touches(TouchFrame([TouchEvent(slot: id, phase: .move, position: Vec2(30, 0), time: 5, device: 4)]))])
        #expect(t.translate(.pointerButton(device: 4, button: 0x110, pressed: false, time: 6))
                == [.touches(TouchFrame([TouchEvent(slot: id, phase: .up, position: Vec2(30, 0), time: 6, device: 4)]))])
    }

    @Test func arrowsTiltAndEscapeLeaves() {
        var t = TouchTranslator(screen: ScreenTransform(portraitWidth: 100, portraitHeight: 200, rotation: .r0))
        #expect(t.translate(.key(device: 2, code: 1, pressed: true, time: 1)) == [.key(KeyEvent(code: 1, pressed: true, command: .leave, time: 1))])
        #expect(t.translate(.key(device: 2, code: 105, pressed: true, time: 2)) == [.key(KeyEvent(code: 105, pressed: true, command: .tiltLeft, time: 2))])
        #expect(TouchTranslator.command(106) == .tiltRight && TouchTranslator.command(103) == .tiltUp && TouchTranslator.command(108) == .tiltDown)
        #expect(TouchTranslator.command(30) == nil)
    }
}

@Suite struct EventLoopTests {
    @Test func timersFireInOrderOnTheVirtualClock() throws {
        let events = VirtualEvents()
        let loop = try EventLoop(events: events)
        var fired: [(String, Int64)] = []
        let slow = try loop.addTimer { fired.append(("slow", events.now)) }
        let tick = try loop.addTimer { fired.append(("tick", events.now)); if fired.count == 4 { loop.stop() } }
        try slow.arm(after: 25_000)
        try tick.arm(after: 10_000, every: 10_000)
        try loop.run()
        #expect(fired.map(\.0) == ["tick", "tick", "slow", "tick"])
        #expect(fired.map(\.1) == [10_000, 20_000, 25_000, 30_000])
        #expect(loop.wakeups == 4)
    }

    @Test func disarmedTimersStaySilentAndReadersRunWhenReady() throws {
        let events = VirtualEvents()
        let loop = try EventLoop(events: events)
        let never = try loop.addTimer { Issue.record("a disarmed timer fired") }
        try never.arm(after: 5)
        never.disarm()
        #expect(!never.isArmed)
        var reads = 0
        let token = try loop.addReader(42) { reads += 1; events.consumed(42); loop.stop() }
        events.makeReadable(42)
        try loop.run()
        #expect(reads == 1)
        loop.removeReader(token)
        #expect(!events.isWatched(42))
    }

    @Test func signalsArriveThroughTheLoop() throws {
        let events = VirtualEvents()
        let loop = try EventLoop(events: events)
        var got: [Int32] = []
        try loop.onSignals([15, 2]) { got.append($0); loop.stop() }
        events.deliver(signal: 15)
        try loop.run()
        #expect(got == [15])
    }
}

@Suite struct HotplugWaitTests {
    @Test func startsOnceADisplayIsConnected() throws {
        let events = VirtualEvents(), udev = FakeUdev(events: events), loop = try EventLoop(events: events)
        let system = FakeSystem()
        system.directories["/dev/dri"] = ["card0"]
        let drm = FakeDRM(card: Cards.twoConnectors(dsiConnected: false))
        var attempts = 0
        var shown: DumbBufferDisplay?
        let wait = try DRMHotplugWait(
            udev: udev, loop: loop,
            open: { () throws(DisplaySetupError) -> DumbBufferDisplay in
                attempts += 1
                return try openDRMDisplay(config: DRMDisplayConfiguration(), system: system, drm: drm, udev: nil, clock: VirtualClock())
            },
            ready: { shown = $0; loop.stop() },
            failed: { Issue.record("gave up: \($0)"); loop.stop() })
        let change = UdevDevice(syspath: "/sys/card0", sysname: "card0", subsystem: "drm", devnode: "/dev/dri/card0",
                                action: "change", properties: ["HOTPLUG": "1"])
        // A uevent while nothing is connected: keep waiting. Then the panel is plugged in.
        udev.monitor!.push(change)
        let plug = try loop.addTimer {
            drm.card = Cards.twoConnectors()
            udev.monitor!.push(change)
        }
        try plug.arm(after: 1_000)
        try loop.run()
        _ = wait
        #expect(attempts == 2)
        #expect(shown?.choice.connector.name == "DSI-1")
        #expect(!events.isWatched(udev.monitor!.fd))     // no longer listening
    }

    @Test func givesUpOnErrorsAHotplugCannotFix() throws {
        let events = VirtualEvents(), udev = FakeUdev(events: events), loop = try EventLoop(events: events)
        var failure: DisplaySetupError?
        let wait = try DRMHotplugWait(
            udev: udev, loop: loop,
            open: { () throws(DisplaySetupError) -> DumbBufferDisplay in throw .notMaster(card: "/dev/dri/card0") },
            ready: { _ in Issue.record("opened") },
            failed: { failure = $0; loop.stop() })
        udev.monitor!.push(UdevDevice(syspath: "/sys/card0", sysname: "card0", subsystem: "drm", devnode: nil, action: "change"))
        try loop.run()
        _ = wait
        #expect(failure == .notMaster(card: "/dev/dri/card0"))
    }
}

@Suite struct TouchInputTests {
    final class ScriptedSource: InputEventSource {
        let fd: Int32 = 77
        var deniedDevices: [String] = []
        var batches: [[RawInputEvent]] = []
        var sizes: [(Int, Int)] = []
        func readEvents(panelWidth: Int, panelHeight: Int) -> [RawInputEvent] {
            sizes.append((panelWidth, panelHeight))
            return batches.isEmpty ? [] : batches.removeFirst()
        }
    }

    @Test func readsInPanelPixelsAndReportsEachDeniedDeviceOnce() throws {
        let source = ScriptedSource()
        source.deniedDevices = ["/dev/input/event5"]
        source.batches = [[.deviceAdded(InputDeviceInfo(id: 1, name: "kbd", sysname: "event0", capabilities: [.keyboard], isTouchscreen: false))],
                          [.touchDown(device: 2, slot: 0, x: 799.5, y: 0.5, time: 3), .touchFrame(device: 2, time: 3)]]
        var got: [InputEvent] = []
        let input = TouchInput(source: source, screen: ScreenTransform(portraitWidth: 480, portraitHeight: 800, rotation: .r90)) { got.append($0) }
        input.dispatch()
        input.dispatch()
        #expect(source.sizes.allSatisfy { $0 == (800, 480) })
        #expect(got.count == 3)
        #expect(got[1] == .permissionDenied(path: "/dev/input/event5"))
        // Panel (799.5, 0.5) on a panel turned 90°: the portrait top-left pixel.
        #expect(got[2] == .touches(TouchFrame([TouchEvent(slot: 0, phase: .down, position: Vec2(0.5, 0.5), time: 3, device: 2)])))
        #expect(InputEvent.permissionMessage("/dev/input/event5").contains("'input' group"))
    }
}

@Suite struct KeyCommandTests {
    /// Log lines name the key ("key tiltLeft"); the Embedded build cannot reflect a case name,
    /// so each is spelled out and must match the case.
    @Test func keyCommandsPrintTheirCaseNames() {
        let all: [KeyCommand] = [.tiltLeft, .tiltRight, .tiltUp, .tiltDown, .leave]
        #expect(all.map { "\($0)" } == ["tiltLeft", "tiltRight", "tiltUp", "tiltDown", "leave"])
    }
}
