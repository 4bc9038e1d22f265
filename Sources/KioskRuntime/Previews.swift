import Diagnostics
import Exhibits
import Platform
import Raster
import Trace

/// Without a drivable display: each exhibit's demo played on the virtual panel, one PNG per
/// exhibit (and the launcher) in `folder`, so a developer sees what the stand would show.
public func writePreviews(settings: KioskApp.Settings, fonts: FontSet, log: Log, folder: String) throws -> [String] {
    try makeDirectories(folder)
    var written: [String] = []
    let launcherPanel = VirtualPanel(width: settings.width, height: settings.height)
    var launcherSettings = settings
    launcherSettings.initialExhibit = nil
    launcherSettings.locked = nil
    let launcher = try ReplayRunner(settings: launcherSettings, display: launcherPanel, fonts: fonts, log: log)
    try launcher.run([.init(t: 0, .checkpoint(name: "launcher"))]) { checkpoint in
        try writePNG(checkpoint.frame, to: folder + "/launcher.png")
        written.append(folder + "/launcher.png")
    }
    for name in settings.order {
        let panel = VirtualPanel(width: settings.width, height: settings.height)
        guard let (frame, _) = try DemoPreview.play(name, settings: settings, display: panel, fonts: fonts, log: log) else {
            log.warning("no exhibit named '\(name)' for a preview")
            continue
        }
        let path = folder + "/\(name).png"
        try writePNG(frame, to: path)
        written.append(path)
    }
    return written
}
