/// Records in time order, one at a time: a trace in memory or a file read as it is played.
public protocol TraceRecordSource {
    /// The next record, or nil at the end (or where a stream met a problem it keeps).
    mutating func nextRecord() -> TraceRecord?
}

/// Records already in memory: a demo, a test's trace.
public struct TraceRecordList: TraceRecordSource {
    private let records: [TraceRecord]
    private var index = 0
    public init(_ records: [TraceRecord]) { self.records = records }
    public mutating func nextRecord() -> TraceRecord? {
        guard index < records.count else { return nil }
        index += 1
        return records[index - 1]
    }
}
