import Diagnostics
import Exhibits
import Platform
import Raster
import Syscalls
import Trace

/// Without a drivable display: each exhibit's demo played on the virtual panel, one PNG per
/// exhibit (and the launcher) in `folder`, so a developer sees what the stand would show.
public func writePreviews(settings: KioskApp.Settings, fonts: FontSet, log: Log, folder: String) throws(KioskError) -> [String] {
    do { try makeDirectories(folder) } catch { throw KioskError("\(error)") }
    var launcherSettings = settings
    launcherSettings.initialExhibit = nil
    launcherSettings.locked = nil
    var frames: [(name: String, frame: PixelBuffer)] = []
    do throws(SystemError) {
        let launcher = try ReplayRunner(settings: launcherSettings, display: VirtualPanel(width: settings.width, height: settings.height),
                                        fonts: fonts, log: log)
        launcher.run([.init(t: 0, .checkpoint(name: "launcher"))]) { frames.append(("launcher", $0.frame)) }
        for exhibit in settings.order {
            let panel = VirtualPanel(width: settings.width, height: settings.height)
            guard let (frame, _) = try DemoPreview.play(exhibit, settings: settings, display: panel, fonts: fonts, log: log) else {
                log.warning("no frame of \(exhibit.name)'s demo for a preview")
                continue
            }
            frames.append((exhibit.name, frame))
        }
    } catch {
        throw KioskError("previews: \(error)")
    }
    var written: [String] = []
    for (name, frame) in frames {
        let path = folder + "/\(name).png"
        do { try writePNG(frame, to: path) } catch { throw KioskError("\(error)") }
        written.append(path)
    }
    return written
}
