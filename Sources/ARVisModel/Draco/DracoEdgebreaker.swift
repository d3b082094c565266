/// Edgebreaker connectivity (`mesh_edgebreaker_decoder_impl.cc`): the triangles rebuilt from one
/// symbol per triangle (C, L, R, S, E), the split events and the start faces; the attributes' seams;
/// and the points the triangles' corners share.
struct DracoEdgebreaker {
    /// The mesh's corner table.
    var table: DracoCornerTable
    /// Each attribute with connectivity of its own: its table cut along its seams.
    var attributeTables: [DracoAttributeCornerTable]
    /// The point of each corner.
    var cornerPoints: [Int32]
    /// How many points there are.
    var pointCount: Int

    private enum Symbol: UInt32 {
        case center = 0
        case split = 1
        case left = 3
        case right = 5
        case end = 7
    }

    private struct SplitEvent {
        var splitSymbol: Int
        var sourceSymbol: Int
        var rightEdge: Bool
    }

    /// Where the traversal's symbols come from: a bit region (standard) or per-context runs
    /// (valence).
    private struct Symbols {
        var bits: DracoBits?
        var contexts: [[UInt32]] = []
        var remaining: [Int] = []
        var activeContext = -1
        var valences: [Int32] = []

        mutating func next(at offset: Int) throws(DracoFailure) -> Symbol {
            if var region = bits {
                defer { bits = region }
                if try region.read(1) == 0 { return .center }
                let kind = try region.read(2)
                return Symbol(rawValue: 1 | kind << 1) ?? .end
            }
            guard activeContext >= 0 else { return .end }
            remaining[activeContext] -= 1
            let index = remaining[activeContext]
            guard index >= 0 else { throw DracoFailure("a valence context ran out of symbols", at: offset) }
            let id = contexts[activeContext][index]
            let symbols: [Symbol] = [.center, .split, .left, .right, .end]
            guard id < 5 else { throw DracoFailure("valence symbol \(id) (0 to 4)", at: offset) }
            return symbols[Int(id)]
        }

        /// Valence only: the degrees the new triangle adds, and the next symbol's context.
        mutating func reached(_ corner: Int, after symbol: Symbol, in table: DracoCornerTable) {
            guard bits == nil else { return }
            let next = DracoCornerTable.next(corner)
            let previous = DracoCornerTable.previous(corner)
            let added: (Int32, Int32, Int32) =
                switch symbol {
                case .center, .split: (0, 1, 1)
                case .right: (1, 1, 2)
                case .left: (1, 2, 1)
                case .end: (2, 2, 2)
                }
            for (corner, amount) in [(corner, added.0), (next, added.1), (previous, added.2)] where amount > 0 {
                let v = table.vertex(corner)
                if v >= 0 { valences[v] &+= amount }
            }
            let degree = table.vertex(next) >= 0 ? valences[table.vertex(next)] : 0
            activeContext = Int(min(max(degree, 2), 7)) - 2
        }

        mutating func merge(_ destination: Int, _ source: Int) {
            guard bits == nil else { return }
            valences[destination] &+= valences[source]
        }
    }

    /// Reads the connectivity after the header, within `limits`.
    static func decode(reading buffer: inout DracoBuffer, limits: DracoLimits) throws(DracoFailure) -> Self {
        let traversal = try buffer.uint8("the edgebreaker traversal")
        guard traversal == 0 || traversal == 2 else {
            throw buffer.failure("edgebreaker traversal \(traversal) (0 standard, 2 valence)")
        }
        let vertexCount = try buffer.count("the encoded vertex count")
        let faceCount = try buffer.count("the triangle count")
        let attributeData = Int(try buffer.uint8("the attribute connectivity count"))
        let symbolCount = try buffer.count("the symbol count")
        let splitCount = try buffer.count("the split symbol count")
        guard faceCount <= limits.maximumFaces else {
            throw buffer.failure("\(faceCount) triangles, over the limit of \(limits.maximumFaces)")
        }
        let v = UInt64(vertexCount)
        guard vertexCount <= 3 * faceCount, v * (v &- 1) / 2 >= UInt64(3 * faceCount / 2) || faceCount == 0,
            faceCount >= symbolCount, faceCount <= symbolCount + symbolCount / 3, splitCount <= symbolCount
        else {
            throw buffer.failure(
                "edgebreaker counts that no mesh has (\(vertexCount) vertices, \(faceCount) triangles, \(symbolCount) symbols)"
            )
        }
        let events = try splitEvents(reading: &buffer, faces: faceCount)
        var symbols = Symbols()
        if traversal == 0 {
            let start = buffer.position
            let size = try buffer.varint(bits: 64, "the symbols' size")
            guard size <= UInt64(buffer.remaining), UInt64(symbolCount) <= size * 8 else {
                throw DracoFailure("\(symbolCount) symbols in \(size) bytes", at: start)
            }
            symbols.bits = DracoBits(at: buffer, length: Int(size))
            try buffer.skip(Int(size), "the symbols")
        }
        var startFaces = try RAnsBitDecoder(reading: &buffer)
        var seamBits = [RAnsBitDecoder]()
        for _ in 0..<attributeData { seamBits.append(try RAnsBitDecoder(reading: &buffer)) }
        if traversal == 2 {
            var total = 0
            for _ in 0..<6 {
                let count = try buffer.count("a valence context's symbol count")
                guard count <= faceCount else {
                    throw buffer.failure("a valence context of \(count) symbols for \(faceCount) triangles")
                }
                total += count
                guard total <= max(symbolCount - 1, 0) else {
                    throw buffer.failure("more valence symbols than triangles")
                }
                symbols.contexts.append(try DracoSymbols.decode(count: count, components: 1, from: &buffer))
                symbols.remaining.append(count)
            }
            symbols.valences = [Int32](repeating: 0, count: vertexCount + splitCount)
        }
        var builder = Builder(
            faces: faceCount, maximumVertices: vertexCount + splitCount, symbolCount: symbolCount, events: events,
            keepsIsolated: attributeData > 0, offset: buffer.position)
        try builder.run(&symbols)
        try builder.addStartFaces(&startFaces)
        if attributeData == 0 { try builder.compact() }
        var seams = [[Int]](repeating: [], count: attributeData)
        builder.readSeams(&seamBits, into: &seams)
        var attributeTables = [DracoAttributeCornerTable]()
        for cut in seams {
            attributeTables.append(try DracoAttributeCornerTable(base: builder.table, seams: cut, buffer: buffer))
        }
        let (cornerPoints, pointCount) = try builder.points(attributeTables, buffer: buffer)
        guard pointCount <= limits.maximumPoints else {
            throw buffer.failure("\(pointCount) points, over the limit of \(limits.maximumPoints)")
        }
        return DracoEdgebreaker(
            table: builder.table, attributeTables: attributeTables, cornerPoints: cornerPoints, pointCount: pointCount)
    }

    /// The topology split events, each naming the symbol that splits and the edge it starts from.
    private static func splitEvents(reading buffer: inout DracoBuffer, faces: Int) throws(DracoFailure) -> [SplitEvent]
    {
        let count = try buffer.count("the split event count", bytesEach: 2)
        guard count <= faces else { throw buffer.failure("\(count) split events for \(faces) triangles") }
        var events = [SplitEvent]()
        var source = 0
        for _ in 0..<count {
            source += Int(try buffer.varUInt32("a split event's source"))
            let back = Int(try buffer.varUInt32("a split event's distance"))
            guard back <= source else { throw buffer.failure("a split event before the first symbol") }
            events.append(SplitEvent(splitSymbol: source - back, sourceSymbol: source, rightEdge: false))
        }
        if count > 0 {
            var bits = DracoBits(at: buffer)
            for index in events.indices { events[index].rightEdge = try bits.read(1) == 1 }
            try bits.end(in: &buffer)
        }
        return events
    }

    /// The corner table as the symbols build it.
    private struct Builder {
        var table: DracoCornerTable
        let maximumVertices: Int
        let symbolCount: Int
        var events: [SplitEvent]
        let keepsIsolated: Bool
        let offset: Int
        var holes: [Bool]
        var isolated: [Int] = []
        var active: [Int] = []
        var splits: [Int: Int] = [:]
        var faces = 0

        init(faces: Int, maximumVertices: Int, symbolCount: Int, events: [SplitEvent], keepsIsolated: Bool, offset: Int)
        {
            table = DracoCornerTable(faces: faces)
            table.leftMost.reserveCapacity(maximumVertices)
            self.maximumVertices = maximumVertices
            self.symbolCount = symbolCount
            self.events = events
            self.keepsIsolated = keepsIsolated
            self.offset = offset
            holes = [Bool](repeating: true, count: maximumVertices)
        }

        func failure(_ message: String) -> DracoFailure { DracoFailure(message, at: offset) }

        mutating func newVertex() throws(DracoFailure) -> Int {
            guard table.vertexCount < maximumVertices else { throw failure("more vertices than the stream declares") }
            return table.addVertex()
        }

        /// One triangle per symbol.
        mutating func run(_ symbols: inout Symbols) throws(DracoFailure) {
            for symbolID in 0..<symbolCount {
                guard faces < table.cornerCount / 3 else { throw failure("more symbols than triangles") }
                let corner = 3 * faces
                faces += 1
                let symbol = try symbols.next(at: offset)
                switch symbol {
                case .center: try center(corner)
                case .left, .right: try side(corner, right: symbol == .right)
                case .split: try split(corner, symbol: symbolID, &symbols)
                case .end: try end(corner)
                }
                guard let top = active.last else { throw failure("no active corner after a symbol") }
                symbols.reached(top, after: symbol, in: table)
                if symbol != .center && symbol != .split { try applySplits(after: symbolID) }
            }
        }

        private mutating func center(_ corner: Int) throws(DracoFailure) {
            guard let a = active.last else { throw failure("a C symbol with no active corner") }
            let x = table.vertex(DracoCornerTable.next(a))
            let b = DracoCornerTable.next(table.leftMostCorner(x))
            guard x >= 0, b >= 0, a != b, table.opposite(a) < 0, table.opposite(b) < 0 else {
                throw failure("a C symbol where the mesh cannot close")
            }
            table.setOpposite(a, corner + 1)
            table.setOpposite(b, corner + 2)
            let ap = table.vertex(DracoCornerTable.previous(a))
            let bn = table.vertex(DracoCornerTable.next(b))
            guard x != ap, x != bn, ap >= 0, bn >= 0 else { throw failure("a C symbol making a degenerate triangle") }
            table.setVertex(corner, x)
            table.setVertex(corner + 1, bn)
            table.setVertex(corner + 2, ap)
            table.setLeftMost(ap, corner + 2)
            holes[x] = false
            active[active.count - 1] = corner
        }

        private mutating func side(_ corner: Int, right: Bool) throws(DracoFailure) {
            guard let a = active.last, table.opposite(a) < 0 else {
                throw failure("an L or R symbol with no open corner")
            }
            let (across, left, rightCorner) =
                right ? (corner + 2, corner + 1, corner) : (corner + 1, corner, corner + 2)
            table.setOpposite(across, a)
            let vertex = try newVertex()
            table.setVertex(across, vertex)
            table.setLeftMost(vertex, across)
            let vr = table.vertex(DracoCornerTable.previous(a))
            guard vr >= 0 else { throw failure("an L or R symbol on a corner without a vertex") }
            table.setVertex(rightCorner, vr)
            table.setLeftMost(vr, rightCorner)
            table.setVertex(left, table.vertex(DracoCornerTable.next(a)))
            active[active.count - 1] = corner
        }

        private mutating func split(_ corner: Int, symbol: Int, _ symbols: inout Symbols) throws(DracoFailure) {
            guard let b = active.popLast() else { throw failure("an S symbol with no active corner") }
            if let start = splits[symbol] { active.append(start) }
            guard let a = active.last, a != b, table.opposite(a) < 0, table.opposite(b) < 0 else {
                throw failure("an S symbol where the mesh cannot split")
            }
            table.setOpposite(a, corner + 2)
            table.setOpposite(b, corner + 1)
            let p = table.vertex(DracoCornerTable.previous(a))
            let bp = table.vertex(DracoCornerTable.previous(b))
            var around = DracoCornerTable.next(b)
            let n = table.vertex(around)
            guard p >= 0, bp >= 0, n >= 0 else { throw failure("an S symbol on corners without vertices") }
            table.setVertex(corner, p)
            table.setVertex(corner + 1, table.vertex(DracoCornerTable.next(a)))
            table.setVertex(corner + 2, bp)
            table.setLeftMost(bp, corner + 2)
            symbols.merge(p, n)
            table.setLeftMost(p, table.leftMostCorner(n))
            let first = around
            var steps = 0
            while around >= 0 {
                table.setVertex(around, p)
                around = table.swingLeft(around)
                steps += 1
                guard around != first, steps <= table.cornerCount else {
                    throw failure("an S symbol merging a vertex in a loop")
                }
            }
            table.setLeftMost(n, -1)
            if !keepsIsolated { isolated.append(n) }
            active[active.count - 1] = corner
        }

        private mutating func end(_ corner: Int) throws(DracoFailure) {
            for offset in 0..<3 {
                let vertex = try newVertex()
                table.setVertex(corner + offset, vertex)
                table.setLeftMost(vertex, corner + offset)
            }
            active.append(corner)
        }

        /// The split events whose source is the symbol just read (in the encoder's numbering).
        private mutating func applySplits(after symbolID: Int) throws(DracoFailure) {
            let encoderID = symbolCount - symbolID - 1
            while let event = events.last {
                guard event.sourceSymbol <= encoderID else { throw failure("a split event out of order") }
                guard event.sourceSymbol == encoderID else { break }
                events.removeLast()
                guard let top = active.last else { throw failure("a split event with no active corner") }
                splits[symbolCount - event.splitSymbol - 1] =
                    event.rightEdge ? DracoCornerTable.next(top) : DracoCornerTable.previous(top)
            }
        }

        /// Closes the interior holes left on the active stack, one triangle each.
        mutating func addStartFaces(_ bits: inout RAnsBitDecoder) throws(DracoFailure) {
            while let a = active.popLast() {
                guard bits.next() else { continue }
                guard faces < table.cornerCount / 3 else { throw failure("more start faces than triangles") }
                let n = table.vertex(DracoCornerTable.next(a))
                let b = DracoCornerTable.next(table.leftMostCorner(n))
                let x = table.vertex(DracoCornerTable.next(b))
                let c = DracoCornerTable.next(table.leftMostCorner(x))
                guard n >= 0, b >= 0, x >= 0, c >= 0, a != b, a != c, b != c,
                    table.opposite(a) < 0, table.opposite(b) < 0, table.opposite(c) < 0
                else { throw failure("a start face where the mesh cannot close") }
                let p = table.vertex(DracoCornerTable.next(c))
                guard p >= 0 else { throw failure("a start face on a corner without a vertex") }
                let corner = 3 * faces
                faces += 1
                table.setOpposite(corner, a)
                table.setOpposite(corner + 1, b)
                table.setOpposite(corner + 2, c)
                table.setVertex(corner, x)
                table.setVertex(corner + 1, p)
                table.setVertex(corner + 2, n)
                for vertex in [x, p, n] { holes[vertex] = false }
            }
            guard faces == table.cornerCount / 3 else {
                throw failure("\(faces) triangles decoded of \(table.cornerCount / 3)")
            }
        }

        /// Moves the last live vertices into the places the S symbols emptied.
        mutating func compact() throws(DracoFailure) {
            var live = table.vertexCount
            for hole in isolated {
                var source = live - 1
                while source >= 0, table.leftMostCorner(source) < 0 {
                    live -= 1
                    source = live - 1
                }
                guard source >= hole else { continue }
                var corners: [Int] = []
                table.forEachCorner(around: table.leftMostCorner(source)) { corners.append($0) }
                for corner in corners {
                    guard table.vertex(corner) == source else { throw failure("a vertex's corners disagree") }
                    table.setVertex(corner, hole)
                }
                table.setLeftMost(hole, table.leftMostCorner(source))
                table.setLeftMost(source, -1)
                holes[hole] = holes[source]
                holes[source] = false
                live -= 1
            }
            table.leftMost.removeLast(table.vertexCount - max(live, 0))
        }

        /// The seams of each attribute: boundary edges always, inner edges where its bit says so.
        func readSeams(_ bits: inout [RAnsBitDecoder], into seams: inout [[Int]]) {
            guard !bits.isEmpty else { return }
            for corner in 0..<table.cornerCount {
                let across = table.opposite(corner)
                if across < 0 {
                    for index in seams.indices { seams[index].append(corner) }
                } else if across / 3 >= corner / 3 {
                    for index in seams.indices where bits[index].next() { seams[index].append(corner) }
                }
            }
        }

        /// The point of each corner: one per vertex, split where an attribute has a seam through it.
        func points(_ attributes: [DracoAttributeCornerTable], buffer: DracoBuffer) throws(DracoFailure) -> (
            [Int32], Int
        ) {
            guard !attributes.isEmpty else { return (table.vertices, table.vertexCount) }
            var cornerPoints = [Int32](repeating: -1, count: table.cornerCount)
            var count = 0
            for vertex in 0..<table.vertexCount {
                var corner = table.leftMostCorner(vertex)
                guard corner >= 0 else { continue }
                var first = corner
                if !holes[vertex] {
                    search: for attribute in attributes where attribute.isCornerOnSeam(corner) {
                        let id = attribute.vertex(corner)
                        var around = table.swingRight(corner)
                        var steps = 0
                        while around != corner {
                            steps += 1
                            guard around >= 0, steps <= table.cornerCount else {
                                throw buffer.failure("a seam vertex's corners do not close")
                            }
                            if attribute.vertex(around) != id {
                                first = around
                                break search
                            }
                            around = table.swingRight(around)
                        }
                    }
                }
                corner = first
                cornerPoints[corner] = Int32(count)
                count += 1
                var previous = corner
                corner = table.swingRight(corner)
                var steps = 0
                while corner >= 0, corner != first {
                    steps += 1
                    guard steps <= table.cornerCount else { throw buffer.failure("a vertex's corners do not close") }
                    if attributes.contains(where: { $0.vertex(corner) != $0.vertex(previous) }) {
                        cornerPoints[corner] = Int32(count)
                        count += 1
                    } else {
                        cornerPoints[corner] = cornerPoints[previous]
                    }
                    previous = corner
                    corner = table.swingRight(corner)
                }
            }
            guard !cornerPoints.contains(-1) else { throw buffer.failure("a corner without a point") }
            return (cornerPoints, count)
        }
    }
}
