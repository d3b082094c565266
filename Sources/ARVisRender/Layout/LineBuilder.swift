import ARVisGraphics

/// Greedy line breaking in one pass: words go on the current line while they fit; a word wider
/// than a whole line is broken between characters. Neighbouring words of one face and link share
/// one piece, so a long paragraph costs a few pieces per line, not one per word.
struct LineBuilder {
    let maxWidth: Double
    let size: Double
    private(set) var lines: [TextBlock.Line] = []
    private var line = TextBlock.Line()

    init(maxWidth: Double, size: Double) {
        self.maxWidth = maxWidth
        self.size = size
    }

    /// Adds a word, a run of spaces or a newline.
    mutating func add(_ token: Substring, face: FontFace, font: TrueTypeFont, link: String?) {
        if token == "\n" { return endLine() }
        let isSpace = token.first == " "
        if isSpace && line.pieces.isEmpty && !lines.isEmpty { return }
        let width = font.width(of: token, size: size)
        if !isSpace && line.width + width > maxWidth && !line.pieces.isEmpty { endLine() }
        if !isSpace && width > maxWidth && token.count > 1 {
            return breakWord(token, face: face, font: font, link: link)
        }
        append(
            TextBlock.Piece(text: String(token), x: line.width, width: width, face: face, link: link, isSpace: isSpace))
    }

    /// The lines, the last one ended.
    mutating func finish() -> [TextBlock.Line] {
        endLine()
        return lines
    }

    /// Breaks a word wider than a line between characters, measuring each character once.
    private mutating func breakWord(_ word: Substring, face: FontFace, font: TrueTypeFont, link: String?) {
        var start = word.startIndex
        var width = 0.0
        var index = word.startIndex
        while index < word.endIndex {
            let next = word.index(after: index)
            let advance = font.width(of: word[index..<next], size: size)
            if line.width + width + advance > maxWidth && index != start {
                append(
                    TextBlock.Piece(
                        text: String(word[start..<index]), x: line.width, width: width, face: face, link: link,
                        isSpace: false))
                endLine()
                start = index
                width = 0
            }
            width += advance
            index = next
        }
        let rest = word[start...]
        append(
            TextBlock.Piece(
                text: String(rest), x: line.width, width: font.width(of: rest, size: size), face: face, link: link,
                isSpace: false))
    }

    /// Puts `piece` at the end of the line, merged into the piece before when they share face and
    /// link (a word after a space joins the word before the space).
    private mutating func append(_ piece: TextBlock.Piece) {
        let count = line.pieces.count
        func joins(_ other: TextBlock.Piece) -> Bool { other.face == piece.face && other.link == piece.link }
        if !piece.isSpace, count >= 2, line.pieces[count - 1].isSpace, !line.pieces[count - 2].isSpace,
            joins(line.pieces[count - 1]), joins(line.pieces[count - 2])
        {
            let space = line.pieces.removeLast()
            line.pieces[count - 2].text += space.text + piece.text
            line.pieces[count - 2].width = piece.x + piece.width - line.pieces[count - 2].x
        } else if !piece.isSpace, let last = line.pieces.last, !last.isSpace, joins(last) {
            line.pieces[count - 1].text += piece.text
            line.pieces[count - 1].width = piece.x + piece.width - last.x
        } else {
            line.pieces.append(piece)
        }
        line.width = piece.x + piece.width
    }

    /// Ends the line, dropping the spaces at its end.
    private mutating func endLine() {
        while let last = line.pieces.last, last.isSpace {
            line.width -= last.width
            line.pieces.removeLast()
        }
        lines.append(line)
        line = TextBlock.Line()
    }
}
