import ARVisClient

/// A response of the contract's that carries its one error shape, `{"error": {"code", "message"}}`.
protocol Refusal {
    /// The server's error.
    var error: Components.Schemas._Error { get throws }
}

extension Components.Responses.BadRequest: Refusal {
    var error: Components.Schemas._Error { get throws { try body.json } }
}

extension Components.Responses.Unauthorized: Refusal {
    var error: Components.Schemas._Error { get throws { try body.json } }
}

extension Components.Responses.Forbidden: Refusal {
    var error: Components.Schemas._Error { get throws { try body.json } }
}

extension Components.Responses.NotFound: Refusal {
    var error: Components.Schemas._Error { get throws { try body.json } }
}

extension Components.Responses.Conflict: Refusal {
    var error: Components.Schemas._Error { get throws { try body.json } }
}

extension Components.Responses.Unprocessable: Refusal {
    var error: Components.Schemas._Error { get throws { try body.json } }
}

extension Components.Responses.TooLarge: Refusal {
    var error: Components.Schemas._Error { get throws { try body.json } }
}

extension Components.Responses.UnsupportedMediaType: Refusal {
    var error: Components.Schemas._Error { get throws { try body.json } }
}

extension Components.Responses.TooManyRequests: Refusal {
    var error: Components.Schemas._Error { get throws { try body.json } }
}
