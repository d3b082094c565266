import ARVisCLI

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

exit(await ARVisCommand.run(arguments: Array(CommandLine.arguments.dropFirst())))
