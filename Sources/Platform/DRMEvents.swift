/// A page flip the kernel reports done (struct drm_event_vblank, DRM_EVENT_FLIP_COMPLETE).
public struct DRMFlipEvent: Equatable, Sendable {
    public var userData: UInt64
    public var seconds: UInt32
    public var microseconds: UInt32
    public var sequence: UInt32
    public var crtcId: UInt32
}

/// Reads the flip events out of what read(2) returned from a DRM fd; other event types
/// (vblank, CRTC sequence) are skipped by their length, and a torn tail is ignored.
public func parseDRMEvents(_ bytes: UnsafeRawBufferPointer) -> [DRMFlipEvent] {
    let flipComplete: UInt32 = 0x02
    var out: [DRMFlipEvent] = []
    var offset = 0
    while offset + 8 <= bytes.count {
        let type = bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
        let length = Int(bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self))
        if length < 8 || offset + length > bytes.count { break }
        if type == flipComplete && length >= 32 {
            out.append(DRMFlipEvent(
                userData: bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self),
                seconds: bytes.loadUnaligned(fromByteOffset: offset + 16, as: UInt32.self),
                microseconds: bytes.loadUnaligned(fromByteOffset: offset + 20, as: UInt32.self),
                sequence: bytes.loadUnaligned(fromByteOffset: offset + 24, as: UInt32.self),
                crtcId: bytes.loadUnaligned(fromByteOffset: offset + 28, as: UInt32.self)))
        }
        offset += length
    }
    return out
}
