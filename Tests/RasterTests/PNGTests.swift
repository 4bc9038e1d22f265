import Testing
import Geometry
@testable import Raster
#if canImport(Glibc)
import Glibc
#endif

func temporaryPath(_ name: String) -> String {
    "/tmp/motionkiosk-raster-tests-\(getpid())-\(name)"
}

@Suite struct PNGTests {
    @Test(arguments: PixelFormat.allCases)
    func writtenAndReadBackEqual(format: PixelFormat) throws {
        let canvas = Canvas(width: 97, height: 61, format: format)
        canvas.clear(Color(rgb: 0x203040))
        canvas.fillCircle(center: Vec2(40.5, 30.2), radius: 22, color: .yellow)
        canvas.drawLine(from: Vec2(0, 60), to: Vec2(96, 3), width: 3, color: Color(r: 200, g: 10, b: 90, a: 180))
        let path = temporaryPath("roundtrip-\(format).png")
        defer { unlink(path) }
        try writePNG(canvas.buffer, to: path)
        let back = try readPNG(path: path, format: format)
        #expect(back.width == 97 && back.height == 61 && back.format == format)
        let bad = failures(97, 61) { x, y in
            format == .xrgb8888 ? back.row32(y)[x] == canvas.buffer.row32(y)[x] | 0xFF00_0000
                : back.row16(y)[x] == canvas.buffer.row16(y)[x]
        }
        #expect(bad.count == 0, "\(bad.count) pixels differ, first \(bad.first)")
    }

    @Test func errorsNameTheFile() {
        let missing = "/nonexistent/dir/frame.png"
        #expect { try readPNG(path: missing) } throws: { "\($0)".contains(missing) }
        #expect { try writePNG(PixelBuffer(width: 2, height: 2), to: missing) } throws: { "\($0)".contains(missing) }
    }
}
