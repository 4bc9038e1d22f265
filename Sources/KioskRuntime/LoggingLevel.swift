import Diagnostics
import KioskConfig

extension KioskConfiguration.Logging.Level {
    /// The log's level for `[logging] level`.
    public var logLevel: LogLevel {
        switch self {
        case .debug: .debug
        case .info: .info
        case .warning: .warning
        case .error: .error
        }
    }
}
