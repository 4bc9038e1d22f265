#if canImport(Glibc)
import Glibc
#endif
import Syscalls
import SystemFakes
import Testing
@testable import Raster

/// Font files and PNG files are opened, examined, mapped, read and written through the seam:
/// each step failed through SystemFakes' one mechanism names the file, and nothing is left
/// open or mapped.
@Suite struct RasterFileFaultTests {
    static let dejaVu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

    @Test(arguments: [(SystemCallLog.Call.open, "no readable file there (Permission denied; Debian: apt-get install fonts-dejavu-core fonts-noto-core fonts-noto-cjk)"),
                      (.status, "fstat: Input/output error"), (.mmap, "mmap: Cannot allocate memory")])
    func aFontThatCannotBeOpenedExaminedOrMappedIsNamed(_ call: SystemCallLog.Call, _ reason: String) throws {
        let disk = FileSystemWithFaults()
        disk.fail(call, errno: call == .open ? EACCES : call == .mmap ? ENOMEM : EIO)
        var refused: FontError?
        do { _ = try Font(path: Self.dejaVu, system: disk) } catch { refused = error }
        #expect(refused?.path == Self.dejaVu && refused?.reason == reason, "\(String(describing: refused))")
        #expect(disk.count(of: .open) - (call == .open ? 1 : 0) == disk.count(of: .close))
        // The same font opens once the fault is past, and is unmapped when let go.
        do { _ = try Font(path: Self.dejaVu, system: disk) }
        #expect(disk.count(of: .munmap) == 1)
    }

    @Test func aPNGWrittenToAFullDiskNamesTheFile() {
        let tree = TempTree(), disk = FileSystemWithFaults()
        let path = tree.path("frame.png")
        disk.fail(.write, errno: ENOSPC)
        var refused: PNGError?
        do { try writePNG(PixelBuffer(width: 4, height: 4), to: path, system: disk) } catch { refused = error }
        #expect(refused?.description == "PNG \(path): No space left on device")
        #expect(disk.count(of: .open) == 1 && disk.count(of: .close) == 1)
    }

    @Test func aPNGThatCannotBeReadOrIsNoFileIsNamed() throws {
        let tree = TempTree(), disk = FileSystemWithFaults()
        let path = tree.path("frame.png")
        try writePNG(PixelBuffer(width: 4, height: 4), to: path, system: disk)
        #expect(try readPNG(path: path, system: disk).width == 4)
        disk.fail(.read, errno: EIO)
        #expect(throws: (any Error).self) { try readPNG(path: path, system: disk) }
        var refused: PNGError?
        disk.fail(.read, errno: EIO)
        do { _ = try readPNG(path: path, system: disk) } catch { refused = error }
        #expect(refused?.description == "PNG \(path): Input/output error")
        #expect(mkfifo(tree.path("fifo.png"), 0o600) == 0)
        do { _ = try readPNG(path: tree.path("fifo.png"), system: disk) } catch { refused = error }
        #expect(refused?.reason == "is a FIFO, not a regular file", "refused before any read: a FIFO would block")
        #expect(disk.count(of: .open) == disk.count(of: .close))
    }
}
