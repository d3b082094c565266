import OpenAPIRuntime
enum ServerProbe { static let probe = Components.Schemas.Health.self }
