// @plumbline-kit/cli: the `plumbline` command. Programmatic use: main(argv) runs a command line and resolves with
// its exit code; each command's own typed function lives in the package that holds it (startMock in
// @plumbline-kit/mock, runConformance in @plumbline-kit/tools, startReference in @plumbline-kit/reference).
export { COMMAND_NAMES, createProgram, MissingPackageError, main } from "./cli.js";
