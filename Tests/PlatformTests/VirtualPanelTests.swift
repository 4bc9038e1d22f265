import Testing
import Geometry
import Raster
@testable import Platform
#if canImport(Glibc)
import Glibc
#endif

@Suite struct VirtualPanelTests {
    @Test(arguments: PanelRotation.allCases)
    func presentTurnsTheDamageOntoTheScanout(rotation: PanelRotation) throws {
        let screen = ScreenTransform(panelWidth: rotation.isQuarterTurn ? 80 : 48, panelHeight: rotation.isQuarterTurn ? 48 : 80,
                                     rotation: rotation)
        let panel = VirtualPanel(screen: screen)
        #expect(panel.backBuffer.width == 48 && panel.backBuffer.height == 80)
        #expect(panel.scanout.width == screen.panelWidth && panel.scanout.height == screen.panelHeight)
        let display: any Display = panel
        let canvas = Canvas(buffer: display.backBuffer)
        canvas.clear(.white)
        try display.present(damage: canvas.takeDamage())
        canvas.fillCircle(center: Vec2(10.5, 12.5), radius: 6, color: .red)
        let damage = canvas.takeDamage()
        try display.present(damage: damage)
        #expect(panel.presentedFrames == 2)
        #expect(panel.lastDamage == damage)
        var wrong = 0
        for y in 0..<80 {
            for x in 0..<48 {
                let p = screen.panelPixel(fromPortraitX: x, y: y)
                if panel.scanout.row32(p.y)[p.x] != panel.backBuffer.row32(y)[x] { wrong += 1 }
            }
        }
        #expect(wrong == 0, "\(wrong) scanout pixels differ from the back buffer")
    }

    @Test func onlyDamageReachesTheScanout() throws {
        let panel = VirtualPanel(screen: ScreenTransform(portraitWidth: 30, portraitHeight: 40, rotation: .r90), scanoutFormat: .rgb565)
        let canvas = Canvas(buffer: panel.backBuffer)
        canvas.clear(.blue)
        // Not presented: the scanout stays black.
        #expect(panel.scanout.row16(0)[0] == 0)
        try panel.present(damage: [PixelRect(x: 0, y: 0, width: 5, height: 5)])
        let inside = screenPixel(panel, 2, 2), outside = screenPixel(panel, 20, 30)
        #expect(inside == Color.blue.rgb565Value)
        #expect(outside == 0)
    }

    func screenPixel(_ panel: VirtualPanel, _ x: Int, _ y: Int) -> UInt16 {
        let p = panel.screen.panelPixel(fromPortraitX: x, y: y)
        return panel.scanout.row16(p.y)[p.x]
    }

    @Test func writesPortraitAndScanoutPNGs() throws {
        let panel = VirtualPanel(screen: ScreenTransform(portraitWidth: 20, portraitHeight: 30, rotation: .r270))
        let canvas = Canvas(buffer: panel.backBuffer)
        canvas.clear(.green)
        canvas.fillRect(PixelRect(x: 0, y: 0, width: 4, height: 2), color: .red)
        try panel.present(damage: canvas.takeDamage())
        let portrait = "/tmp/motionkiosk-vp-\(getpid())-portrait.png", scan = "/tmp/motionkiosk-vp-\(getpid())-scanout.png"
        defer { unlink(portrait); unlink(scan) }
        try panel.writePNG(to: portrait)
        try panel.writeScanoutPNG(to: scan)
        let a = try readPNG(path: portrait), b = try readPNG(path: scan)
        #expect(a.width == 20 && a.height == 30 && b.width == 30 && b.height == 20)
        #expect(a.row32(0)[0] == Color.red.xrgb && a.row32(29)[19] == Color.green.xrgb)
        // Portrait (0, 0) sits at panel (0, 19) when turned 270°.
        #expect(b.row32(19)[0] == Color.red.xrgb)
        #expect(panel.name.contains("virtual panel 20x30"))
    }
}
