import ARVisClient
import ArgumentParser
import Foundation

/// `arvis project`: the projects of the signed-in account on a server.
struct ProjectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "project",
        abstract: "List, create, show and delete projects on an ARVis server.",
        discussion: """
            A project holds specs, assets, plantings and anchors, and its members' roles. \
            Sign in first with `arvis login`; the account that creates a project owns it.

            Examples:
              arvis project create http://127.0.0.1:8080 Museum --slug museum --visibility unlisted
              arvis project list http://127.0.0.1:8080
              arvis project show http://127.0.0.1:8080 museum
              arvis project delete http://127.0.0.1:8080 museum
              arvis project restore http://127.0.0.1:8080 museum
            """,
        subcommands: [List.self, Create.self, Show.self, Delete.self, Restore.self]
    )

    /// `arvis project list`.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the projects the account is a member of: slug, role, visibility and name.")

        @OptionGroup var target: ServerArgument

        @Flag(help: "List the projects in the trash instead (restorable for 30 days).")
        var trashed = false

        func run() async throws {
            let server = try target.address()
            let output = try await RemoteCall.run { try await server.client.listProjects() }
            switch output {
            case .ok(let found):
                let projects = try found.body.json.projects.filter { ($0.trashedAt != nil) == trashed }
                try Console.write(ProjectTable(projects).text)
            case .unauthorized(let refusal): try RemoteCall.fail(refusal, advice: server.signInAdvice)
            case .badRequest(let refusal): try RemoteCall.fail(refusal)
            case .undocumented: try RemoteCall.unexpected(output)
            }
        }
    }

    /// `arvis project create`.
    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create a project owned by the signed-in account and print its slug.")

        @OptionGroup var target: ServerArgument

        @Argument(help: "The project's display name.")
        var name: String

        @Option(help: "Its slug in URLs (…/s/SLUG/SPEC); default: made from the name.")
        var slug: String?

        @Option(help: "private: members only; unlisted: anyone with a URL reads it; public: also listed.")
        var visibility: Visibility = .private

        func run() async throws {
            let server = try target.address()
            let creation = Components.Schemas.ProjectCreation(name: name, slug: slug, visibility: visibility.schema)
            let output = try await RemoteCall.run { try await server.client.createProject(body: .json(creation)) }
            switch output {
            case .created(let created):
                let project = try created.body.json
                try Console.write(project.slug + "\n")
                Console.error(
                    "created \(project.visibility.rawValue) project '\(project.name)'; its specs are at \(server.url.absoluteString)/s/\(project.slug)/NAME"
                )
            case .unauthorized(let refusal): try RemoteCall.fail(refusal, advice: server.signInAdvice)
            case .conflict(let refusal): try RemoteCall.fail(refusal, advice: "choose another with --slug")
            case .unprocessableContent(let refusal): try RemoteCall.fail(refusal)
            case .badRequest(let refusal): try RemoteCall.fail(refusal)
            case .contentTooLarge(let refusal): try RemoteCall.fail(refusal)
            case .unsupportedMediaType(let refusal): try RemoteCall.fail(refusal)
            case .undocumented: try RemoteCall.unexpected(output)
            }
        }
    }

    /// `arvis project show`.
    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print one project: its slug, role, visibility and name.")

        @OptionGroup var target: ProjectArguments

        func run() async throws {
            let server = try target.address()
            let output = try await RemoteCall.run {
                try await server.client.getProject(path: .init(project: target.project))
            }
            switch output {
            case .ok(let found): try Console.write(ProjectTable([try found.body.json]).text)
            case .notFound(let refusal): try RemoteCall.fail(refusal)
            case .unauthorized(let refusal): try RemoteCall.fail(refusal, advice: server.signInAdvice)
            case .badRequest(let refusal): try RemoteCall.fail(refusal)
            case .undocumented: try RemoteCall.unexpected(output)
            }
        }
    }

    /// `arvis project delete`.
    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Move a project to the trash (owners): restorable for 30 days, then purged.")

        @OptionGroup var target: ProjectArguments

        func run() async throws {
            let server = try target.address()
            let output = try await RemoteCall.run {
                try await server.client.trashProject(path: .init(project: target.project))
            }
            switch output {
            case .noContent: Console.error("moved '\(target.project)' to the trash; it is purged after 30 days")
            case .forbidden(let refusal): try RemoteCall.fail(refusal)
            case .notFound(let refusal): try RemoteCall.fail(refusal)
            case .unauthorized(let refusal): try RemoteCall.fail(refusal, advice: server.signInAdvice)
            case .badRequest(let refusal): try RemoteCall.fail(refusal)
            case .undocumented: try RemoteCall.unexpected(output)
            }
        }
    }

    /// `arvis project restore`.
    struct Restore: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Take a project out of the trash (owners).")

        @OptionGroup var target: ProjectArguments

        func run() async throws {
            let server = try target.address()
            let output = try await RemoteCall.run {
                try await server.client.restoreProject(path: .init(project: target.project))
            }
            switch output {
            case .ok: Console.error("restored '\(target.project)'")
            case .forbidden(let refusal): try RemoteCall.fail(refusal)
            case .notFound(let refusal): try RemoteCall.fail(refusal)
            case .unauthorized(let refusal): try RemoteCall.fail(refusal, advice: server.signInAdvice)
            case .badRequest(let refusal): try RemoteCall.fail(refusal)
            case .undocumented: try RemoteCall.unexpected(output)
            }
        }
    }

    /// Who may read a project, as the command line names it.
    enum Visibility: String, ExpressibleByArgument, CaseIterable {
        case `private`, unlisted, `public`

        var schema: Components.Schemas.Visibility {
            switch self {
            case .private: ._private
            case .unlisted: .unlisted
            case .public: ._public
            }
        }
    }
}

/// Projects as aligned columns: slug, the caller's role, visibility, name.
struct ProjectTable {
    /// The table, a line per project, ending in a newline (empty when there are none).
    let text: String

    init(_ projects: [Components.Schemas.Project]) {
        text =
            TextTable(projects.map { [$0.slug, $0.role?.rawValue ?? "visitor", $0.visibility.rawValue, $0.name] }).text
    }
}

/// Rows of cells as left-aligned columns two spaces apart, a line per row.
struct TextTable {
    /// The table, ending in a newline (empty when there are no rows).
    let text: String

    init(_ rows: [[String]]) {
        let widths = rows.reduce(into: [Int]()) { widths, row in
            for (column, cell) in row.enumerated() {
                if column == widths.count { widths.append(0) }
                widths[column] = max(widths[column], cell.count)
            }
        }
        text = rows.map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }.joined(separator: "  ") + "\n"
        }.joined()
    }
}
