// Narrow phase: contact manifolds (at most two points) with speculative points up to a
// distance `spec`, in world space. The normal points from body A to body B; a point lies midway
// between the two surfaces; `separation` is negative when overlapping.

struct ManifoldPoint {
    var x = 0.0, y = 0.0, separation = 0.0
    var id: UInt32 = 0
}

struct Manifold {
    var count = 0
    var nx = 0.0, ny = 0.0
    var p0 = ManifoldPoint(), p1 = ManifoldPoint()

    @inline(__always) mutating func add(_ x: Double, _ y: Double, _ s: Double, _ id: UInt32) {
        if count == 0 { p0 = ManifoldPoint(x: x, y: y, separation: s, id: id) } else { p1 = ManifoldPoint(x: x, y: y, separation: s, id: id) }
        count += 1
    }
}

private let referenceFaceTolerance = 0.05 // px: prefer A as reference for coherent ids

extension BodyTable {
    func collide(_ a: Int, _ b: Int, spec: Double) -> Manifold {
        switch (outline[a].kind, outline[b].kind) {
        case (.circle, .circle): return collideCircles(a, b, spec)
        case (.polygon, .circle), (.segment, .circle): return collidePolygonCircle(a, b, spec)
        case (.polygon, .polygon), (.segment, .polygon): return collidePolygons(a, b, spec)
        case (.wall, .circle): return collideWallCircle(a, b, spec)
        case (.wall, .polygon): return collideWallPolygon(a, b, spec)
        default: return Manifold()
        }
    }

    func collideCircles(_ a: Int, _ b: Int, _ spec: Double) -> Manifold {
        var m = Manifold()
        let pa = pose[a], pb = pose[b]
        let dx = pb.x - pa.x, dy = pb.y - pa.y
        let ra = outline[a].radius, rb = outline[b].radius
        let d2 = dx * dx + dy * dy
        let reach = ra + rb + spec
        if d2 > reach * reach { return m }
        let d = d2.squareRoot()
        var nx = 0.0, ny = -1.0
        if d > 1e-9 { nx = dx / d; ny = dy / d }
        let s = d - ra - rb
        // Midway between the surfaces.
        let cx = pa.x + nx * (ra + 0.5 * s), cy = pa.y + ny * (ra + 0.5 * s)
        m.nx = nx; m.ny = ny
        m.add(cx, cy, s, 0)
        return m
    }

    func collidePolygonCircle(_ a: Int, _ b: Int, _ spec: Double) -> Manifold {
        var m = Manifold()
        let o = a * BodyTable.verticesPerBody, n = outline[a].vertexCount
        let cx = pose[b].x, cy = pose[b].y, r = outline[b].radius
        var best = -Double.infinity, bi = 0
        for i in 0..<n {
            let v = worldVertices[o + i]
            let s = v.nx * (cx - v.x) + v.ny * (cy - v.y)
            if s > best { best = s; bi = i }
        }
        if best - r > spec { return m }
        let i2 = bi + 1 < n ? bi + 1 : 0
        let face = worldVertices[o + bi], next = worldVertices[o + i2]
        let v1x = face.x, v1y = face.y, v2x = next.x, v2y = next.y
        let u1 = (cx - v1x) * (v2x - v1x) + (cy - v1y) * (v2y - v1y)
        let u2 = (cx - v2x) * (v1x - v2x) + (cy - v2y) * (v1y - v2y)
        var nx: Double, ny: Double, s: Double, pax: Double, pay: Double
        if best > 1e-9 && u1 <= 0 {
            let dx = cx - v1x, dy = cy - v1y, d = (dx * dx + dy * dy).squareRoot()
            if d - r > spec { return m }
            nx = d > 1e-12 ? dx / d : face.nx; ny = d > 1e-12 ? dy / d : face.ny
            s = d - r; pax = v1x; pay = v1y
        } else if best > 1e-9 && u2 <= 0 {
            let dx = cx - v2x, dy = cy - v2y, d = (dx * dx + dy * dy).squareRoot()
            if d - r > spec { return m }
            nx = d > 1e-12 ? dx / d : face.nx; ny = d > 1e-12 ? dy / d : face.ny
            s = d - r; pax = v2x; pay = v2y
        } else {
            nx = face.nx; ny = face.ny
            s = best - r
            pax = cx - best * nx; pay = cy - best * ny
        }
        m.nx = nx; m.ny = ny
        m.add(pax + 0.5 * s * nx, pay + 0.5 * s * ny, s, 0)
        return m
    }

    /// Largest separation of `b`'s vertices along `a`'s face normals, and that face; stops
    /// at the first face that separates them by more than `spec` (no manifold then).
    @inline(__always)
    private func maxSeparation(_ a: Int, _ b: Int, _ spec: Double) -> (Int, Double) {
        let oa = a * BodyTable.verticesPerBody, na = outline[a].vertexCount
        let ob = b * BodyTable.verticesPerBody, nb = outline[b].vertexCount
        var best = -Double.infinity, bi = 0
        if nb == 4 {
            // Boxes, most of the time: `b`'s four vertices as two pairs of lanes, each lane
            // the same arithmetic as below. The smallest separation is the same value (its
            // sign when zero aside, which no comparison sees); NaN is skipped likewise.
            let v0 = worldVertices[ob], v1 = worldVertices[ob + 1], v2 = worldVertices[ob + 2], v3 = worldVertices[ob + 3]
            let x01 = SIMD2(v0.x, v1.x), y01 = SIMD2(v0.y, v1.y), x23 = SIMD2(v2.x, v3.x), y23 = SIMD2(v2.y, v3.y)
            for i in 0..<na {
                let f = worldVertices[oa + i]
                let nx = SIMD2(repeating: f.nx), ny = SIMD2(repeating: f.ny), vx = SIMD2(repeating: f.x), vy = SIMD2(repeating: f.y)
                let s01 = nx * (x01 - vx) + ny * (y01 - vy), s23 = nx * (x23 - vx) + ny * (y23 - vy)
                let infinity = SIMD2<Double>(repeating: .infinity)
                let first = infinity.replacing(with: s01, where: s01 .< infinity)
                let pairwise = first.replacing(with: s23, where: s23 .< first)
                var si = Double.infinity
                if pairwise[0] < si { si = pairwise[0] }
                if pairwise[1] < si { si = pairwise[1] }
                if si > best { best = si; bi = i }
                if si > spec { break }
            }
            return (bi, best)
        }
        for i in 0..<na {
            let f = worldVertices[oa + i]
            let nx = f.nx, ny = f.ny, vx = f.x, vy = f.y
            var si = Double.infinity
            for j in 0..<nb {
                let v = worldVertices[ob + j]
                let s = nx * (v.x - vx) + ny * (v.y - vy)
                if s < si { si = s }
            }
            if si > best { best = si; bi = i }
            if si > spec { break }
        }
        return (bi, best)
    }

    /// Separating-axis test, then the incident edge clipped against the reference face.
    func collidePolygons(_ a: Int, _ b: Int, _ spec: Double) -> Manifold {
        var m = Manifold()
        let (edgeA, sepA) = maxSeparation(a, b, spec)
        if sepA > spec { return m }
        let (edgeB, sepB) = maxSeparation(b, a, spec)
        if sepB > spec { return m }
        let flip = sepB > sepA + referenceFaceTolerance
        let ref = flip ? b : a, inc = flip ? a : b, edge = flip ? edgeB : edgeA
        let orf = ref * BodyTable.verticesPerBody, nr = outline[ref].vertexCount
        let oi = inc * BodyTable.verticesPerBody, ni = outline[inc].vertexCount
        let r1 = worldVertices[orf + edge]
        let nx = r1.nx, ny = r1.ny
        let r1x = r1.x, r1y = r1.y
        let e2 = edge + 1 < nr ? edge + 1 : 0
        let r2x = worldVertices[orf + e2].x, r2y = worldVertices[orf + e2].y
        // Incident edge: the face of `inc` most anti-parallel to the reference normal.
        var minDot = Double.infinity, i1 = 0
        for i in 0..<ni {
            let v = worldVertices[oi + i]
            let d = nx * v.nx + ny * v.ny
            if d < minDot { minDot = d; i1 = i }
        }
        let i2 = i1 + 1 < ni ? i1 + 1 : 0
        let incident1 = worldVertices[oi + i1], incident2 = worldVertices[oi + i2]
        var ax = incident1.x, ay = incident1.y, bx = incident2.x, by = incident2.y
        var fa = UInt32(i1), fb = UInt32(i2)
        // Tangent along the reference face; clip to r1 ≤ t ≤ r2.
        var tx = r2x - r1x, ty = r2y - r1y
        let tl = (tx * tx + ty * ty).squareRoot()
        if tl < 1e-12 { return m }
        tx /= tl; ty /= tl
        let lo = tx * r1x + ty * r1y, hi = tx * r2x + ty * r2y
        var ta = tx * ax + ty * ay, tb = tx * bx + ty * by
        // Clip against the lower side plane.
        if ta < lo && tb < lo { return m }
        if ta < lo {
            let f = (lo - ta) / (tb - ta)
            ax += f * (bx - ax); ay += f * (by - ay); ta = lo; fa = 0x40
        } else if tb < lo {
            let f = (lo - tb) / (ta - tb)
            bx += f * (ax - bx); by += f * (ay - by); tb = lo; fb = 0x40
        }
        if ta > hi && tb > hi { return m }
        if ta > hi {
            let f = (ta - hi) / (ta - tb)
            ax += f * (bx - ax); ay += f * (by - ay); fa = 0x41
        } else if tb > hi {
            let f = (tb - hi) / (tb - ta)
            bx += f * (ax - bx); by += f * (ay - by); fb = 0x41
        }
        let base = (flip ? UInt32(1) << 16 : 0) | UInt32(edge) << 8
        let sa = nx * (ax - r1x) + ny * (ay - r1y)
        let sb = nx * (bx - r1x) + ny * (by - r1y)
        m.nx = flip ? -nx : nx; m.ny = flip ? -ny : ny
        if sa <= spec { m.add(ax - 0.5 * sa * nx, ay - 0.5 * sa * ny, sa, base | fa) }
        if sb <= spec { m.add(bx - 0.5 * sb * nx, by - 0.5 * sb * ny, sb, base | fb) }
        return m
    }

    func collideWallCircle(_ a: Int, _ b: Int, _ spec: Double) -> Manifold {
        var m = Manifold()
        let o = a * BodyTable.verticesPerBody
        let nx = worldVertices[o].nx, ny = worldVertices[o].ny, r = outline[b].radius
        let pa = pose[a], pb = pose[b]
        let s = nx * (pb.x - pa.x) + ny * (pb.y - pa.y) - r
        if s > spec { return m }
        m.nx = nx; m.ny = ny
        m.add(pb.x - (r + 0.5 * s) * nx, pb.y - (r + 0.5 * s) * ny, s, 0)
        return m
    }

    func collideWallPolygon(_ a: Int, _ b: Int, _ spec: Double) -> Manifold {
        var m = Manifold()
        let oa = a * BodyTable.verticesPerBody, ob = b * BodyTable.verticesPerBody, n = outline[b].vertexCount
        let nx = worldVertices[oa].nx, ny = worldVertices[oa].ny, wx = pose[a].x, wy = pose[a].y
        // The two deepest vertices.
        var s0 = Double.infinity, s1 = Double.infinity, i0 = -1, i1 = -1
        for i in 0..<n {
            let v = worldVertices[ob + i]
            let s = nx * (v.x - wx) + ny * (v.y - wy)
            if s < s0 { s1 = s0; i1 = i0; s0 = s; i0 = i } else if s < s1 { s1 = s; i1 = i }
        }
        if s0 > spec { return m }
        m.nx = nx; m.ny = ny
        // Keep the pair in vertex order so point slots stay stable while the body rocks.
        var first = i0, second = i1, sf = s0, ss = s1
        if second >= 0 && second < first { swap(&first, &second); swap(&sf, &ss) }
        if sf <= spec {
            let v = worldVertices[ob + first]
            m.add(v.x - 0.5 * sf * nx, v.y - 0.5 * sf * ny, sf, UInt32(first))
        }
        if second >= 0 && ss <= spec {
            let v = worldVertices[ob + second]
            m.add(v.x - 0.5 * ss * nx, v.y - 0.5 * ss * ny, ss, UInt32(second))
        }
        return m
    }
}
