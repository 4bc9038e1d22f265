#if canImport(Glibc)
import Glibc
#endif
import Syscalls

extension FrameLoopSettings {
    /// Where the metrics go when their configured file cannot be written because the file
    /// system refuses (a read-only root, an overlay that left that folder read-only, a
    /// permission): the same name in `metricsFallbackFolder` (the service's runtime
    /// directory in /run), or nil. A missing folder is not a reason: it means node_exporter
    /// is not installed, and is said as such.
    func metricsFallback(for path: String, after error: SystemError) -> String? {
        guard error.errno == EROFS || error.errno == EACCES || error.errno == EPERM,
              let folder = metricsFallbackFolder, !folder.isEmpty, !path.hasPrefix(folder + "/") else { return nil }
        let name = path.split(separator: "/").last.map(String.init) ?? "motionkiosk.prom"
        return folder + "/" + name
    }
}
