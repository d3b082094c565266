/// The state of one decoding pass: where in the document the decoder is, and what it found wrong.
///
/// The decoder walks the tree depth first, so the path is a stack pushed and popped around each
/// child; it is turned into text only when a diagnostic is reported.
package final class DecodingContext {
    package let options: ReadOptions
    package private(set) var diagnostics: [PendingDiagnostic] = []
    package private(set) var errorCount = 0
    /// The links the document makes (Markdown links, tap and click actions), in reading order.
    package private(set) var links: [(offset: Int, path: String, url: String)] = []
    private var path = DocumentPath()

    package init(options: ReadOptions) {
        self.options = options
    }

    /// The current path as text.
    package var pathText: String { path.text }

    /// Runs `body` with `key` appended to the path.
    @inline(__always) @discardableResult
    package func at<T>(_ key: String, _ body: () -> T) -> T {
        path.append(.key(key))
        defer { path.removeLast() }
        return body()
    }

    /// Runs `body` with `index` appended to the path.
    @inline(__always) @discardableResult
    package func at<T>(index: Int, _ body: () -> T) -> T {
        path.append(.index(index))
        defer { path.removeLast() }
        return body()
    }

    /// Reports an error at `offset`.
    package func error(_ code: SpecError.Code, at offset: Int, _ message: String, hint: String? = nil) {
        report(.error, code, at: offset, message, hint: hint)
    }

    /// Reports a warning at `offset`; with ``ReadOptions/strict`` it becomes an error.
    package func warning(_ code: SpecError.Code, at offset: Int, _ message: String, hint: String? = nil) {
        report(options.strict ? .error : .warning, code, at: offset, message, hint: hint)
    }

    /// Reports a diagnostic at a path other than the current one.
    package func report(
        _ severity: Diagnostic.Severity, _ code: SpecError.Code, at offset: Int, path: String? = nil,
        _ message: String, hint: String? = nil
    ) {
        if severity == .error { errorCount += 1 }
        diagnostics.append(
            PendingDiagnostic(
                severity, code, offset: offset, path: path ?? self.path.text, message: message, hint: hint))
    }

    /// Notes a link the document makes at `offset`.
    package func recordLink(_ url: String, at offset: Int) {
        links.append((offset, path.text, url))
    }

    /// Reports that `node` has the wrong type.
    package func typeMismatch(_ node: Node, expected: String) {
        error(.typeMismatch, at: node.offset, "expected \(expected), found \(node.typeDescription)")
    }
}
