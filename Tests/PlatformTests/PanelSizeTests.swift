import Testing
@testable import Platform

/// A pixel's size from what the connector reports (DRM's mm), and the reports that cannot
/// be a panel.
@Suite struct PanelSizeTests {
    @Test func theOfficialSevenInchPanelGivesItsPitch() {
        // Raspberry Pi Touch Display: 155 × 86 mm at 800 × 480.
        let pitch = VirtualPanel.millimetresPerPixel(widthMillimetres: 155, heightMillimetres: 86, width: 800, height: 480)
        #expect(pitch.map { abs($0 - 0.1865) < 0.001 } == true)
    }

    @Test func missingOrImpossibleReportsGiveNothing() {
        // No size (many HDMI monitors over some adapters), an aspect ratio in cm (16 × 9),
        // pixels far from square, a wall-sized screen.
        #expect(VirtualPanel.millimetresPerPixel(widthMillimetres: 0, heightMillimetres: 0, width: 800, height: 480) == nil)
        #expect(VirtualPanel.millimetresPerPixel(widthMillimetres: 16, heightMillimetres: 9, width: 1920, height: 1080) == nil)
        #expect(VirtualPanel.millimetresPerPixel(widthMillimetres: 300, heightMillimetres: 86, width: 800, height: 480) == nil)
        #expect(VirtualPanel.millimetresPerPixel(widthMillimetres: 9_000, heightMillimetres: 5_000, width: 800, height: 480) == nil)
        #expect(VirtualPanel.millimetresPerPixel(widthMillimetres: 155, heightMillimetres: 86, width: 0, height: 480) == nil)
    }
}
