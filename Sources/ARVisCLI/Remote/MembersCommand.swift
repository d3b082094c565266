import ARVisClient
import ArgumentParser

/// `arvis members`: who belongs to a project on a server, and with which role.
struct MembersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "members",
        abstract: "List, add and remove a project's members on an ARVis server.",
        discussion: """
            Owners manage members; a project always keeps an owner, and anyone may \
            remove themselves. Roles: owner (everything), editor (specs, assets, \
            plantings, annotations), viewer (reads). Adding someone who is already a \
            member changes their role.

            Examples:
              arvis members list http://127.0.0.1:8080 museum
              arvis members add http://127.0.0.1:8080 museum eddy --role editor
              arvis members remove http://127.0.0.1:8080 museum eddy
            """,
        subcommands: [List.self, Add.self, Remove.self]
    )

    /// `arvis members list`.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print a project's members and their roles.")

        @OptionGroup var target: ProjectArguments

        func run() async throws {
            let server = try target.address()
            let output = try await RemoteCall.run {
                try await server.client.listMembers(path: .init(project: target.project))
            }
            switch output {
            case .ok(let found):
                try Console.write(TextTable(try found.body.json.members.map { [$0.username, $0.role.rawValue] }).text)
            case .forbidden(let refusal): try RemoteCall.fail(refusal)
            case .notFound(let refusal): try RemoteCall.fail(refusal)
            case .unauthorized(let refusal): try RemoteCall.fail(refusal, advice: server.signInAdvice)
            case .badRequest(let refusal): try RemoteCall.fail(refusal)
            case .undocumented: try RemoteCall.unexpected(output)
            }
        }
    }

    /// `arvis members add`.
    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add an account to a project, or change its role (owners).")

        @OptionGroup var target: ProjectArguments

        @Argument(help: "The account's name.")
        var username: String

        @Option(help: "The member's role.")
        var role: Role = .viewer

        func run() async throws {
            let server = try target.address()
            let output = try await RemoteCall.run {
                try await server.client.setMember(
                    path: .init(project: target.project, username: username), body: .json(.init(role: role.schema)))
            }
            switch output {
            case .ok(let saved):
                let member = try saved.body.json
                Console.error(
                    "\(member.username) is \(member.role == .viewer ? "a" : "an") \(member.role.rawValue) of '\(target.project)'"
                )
            case .forbidden(let refusal): try RemoteCall.fail(refusal)
            case .notFound(let refusal): try RemoteCall.fail(refusal)
            case .conflict(let refusal): try RemoteCall.fail(refusal)
            case .unauthorized(let refusal): try RemoteCall.fail(refusal, advice: server.signInAdvice)
            case .badRequest(let refusal): try RemoteCall.fail(refusal)
            case .contentTooLarge(let refusal): try RemoteCall.fail(refusal)
            case .unsupportedMediaType(let refusal): try RemoteCall.fail(refusal)
            case .undocumented: try RemoteCall.unexpected(output)
            }
        }
    }

    /// `arvis members remove`.
    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove a member from a project (owners, or members leaving).")

        @OptionGroup var target: ProjectArguments

        @Argument(help: "The member's account name.")
        var username: String

        func run() async throws {
            let server = try target.address()
            let output = try await RemoteCall.run {
                try await server.client.removeMember(path: .init(project: target.project, username: username))
            }
            switch output {
            case .noContent: Console.error("\(username) is no longer a member of '\(target.project)'")
            case .forbidden(let refusal): try RemoteCall.fail(refusal)
            case .notFound(let refusal): try RemoteCall.fail(refusal)
            case .conflict(let refusal): try RemoteCall.fail(refusal)
            case .unauthorized(let refusal): try RemoteCall.fail(refusal, advice: server.signInAdvice)
            case .badRequest(let refusal): try RemoteCall.fail(refusal)
            case .undocumented: try RemoteCall.unexpected(output)
            }
        }
    }

    /// A member's role, as the command line names it.
    enum Role: String, ExpressibleByArgument, CaseIterable {
        case owner, editor, viewer

        var schema: Components.Schemas.Role {
            switch self {
            case .owner: .owner
            case .editor: .editor
            case .viewer: .viewer
            }
        }
    }
}
