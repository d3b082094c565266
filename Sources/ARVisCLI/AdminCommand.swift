import ARVisServer
import ArgumentParser
import Foundation

/// `arvis admin`: work on a server's stored data, run beside it.
struct AdminCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "admin",
        abstract: "Work on an ARVis server's stored data.",
        subcommands: [MigrateBlobsCommand.self]
    )
}

/// `arvis admin migrate-blobs`: a `--data` folder's gallery files into an S3 bucket.
struct MigrateBlobsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate-blobs",
        abstract: "Copy the gallery's files from a --data folder into the S3 bucket of --blob-store.",
        discussion: """
            Every upload, conversion and thumbnail under DATA/assets is copied to the bucket under the same \
            key; a file whose SHA-256 differs from the hash it is named by is reported and not copied, and \
            each copy is read back from the bucket and its SHA-256 compared. Files the bucket already \
            holds with the same bytes are left as they are, so the command can be run again. Credentials \
            come from AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY. Then start every instance with the \
            same --blob-store. The exit code is 1 when any file was not copied intact.

            Example:
              AWS_ACCESS_KEY_ID=… AWS_SECRET_ACCESS_KEY=… arvis admin migrate-blobs --data /var/lib/arvis \\
                --blob-store 's3://arvis?endpoint=http://127.0.0.1:8333'
            """
    )

    @Option(help: "The data folder of arvis serve whose gallery files to copy.")
    var data = "arvis-data"

    @Option(
        name: .customLong("blob-store"),
        help: ArgumentHelp("The bucket to copy them into.", valueName: "s3://bucket?endpoint=URL&region=R"))
    var blobStore: String

    func validate() throws {
        if let problem = ServerConfiguration.blobStoreProblem(blobStore) {
            throw ValidationError("--blob-store: \(problem)")
        }
    }

    func run() async throws {
        let report = try await BlobMigration.run(dataDirectory: data, blobStore: blobStore) { key in
            Console.error("copied or checked \(key)")
        }
        for problem in report.problems { Console.error("error: \(problem)") }
        let megabytes = String(format: "%.1f", Double(report.bytes) / 1_000_000)
        try Console.write(
            "\(report.copied) file(s) copied (\(megabytes) MB), \(report.present) already in the bucket, \(report.problems.count) problem(s); every copy's SHA-256 checked\n"
        )
        if !report.problems.isEmpty { throw ExitCode(CLIExit.specErrors.rawValue) }
    }
}
